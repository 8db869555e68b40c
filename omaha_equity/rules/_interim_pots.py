"""Interim stand-in for the side-pot functions of ``omaha_equity.pots`` (branch ``allin``),
with the same signatures, used only until that commit is merged. Same rules: pots by
contribution level, high/low halves among each pot's eligible players, the high half takes the
odd chip, odd chips to the first tied player in odd-chip order, identical winners of both
halves split the pot as a whole (``docs/rules.md``, "Showdown")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

NO_LOW = 0


@dataclass(frozen=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]


def side_pots(contributions: Sequence[int], folded: Sequence[bool]) -> list[Pot]:
    levels = sorted({amount for amount, out in zip(contributions, folded) if not out and amount > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributions)
        eligible = tuple(i for i, (c, out) in enumerate(zip(contributions, folded)) if not out and c >= level)
        pots.append(Pot(amount, eligible))
        previous = level
    rest = sum(max(c - previous, 0) for c in contributions)
    if rest and pots:
        pots[-1] = Pot(pots[-1].amount + rest, pots[-1].eligible)
    return pots


def _divide(amount: int, winners: Sequence[int], payout: list[int]) -> None:
    share, odd = divmod(amount, len(winners))
    for rank, player in enumerate(sorted(winners)):
        payout[player] += share + (1 if rank < odd else 0)


def settle(pots, high_values, low_values, hilo: bool) -> tuple[tuple[int, ...], ...]:
    player_count = len(high_values)
    result = []
    for pot in pots:
        payout = [0] * player_count
        eligible = pot.eligible
        best = max(high_values[i] for i in eligible)
        high = [i for i in eligible if high_values[i] == best]
        low: list[int] = []
        if hilo and low_values is not None:
            best_low = max(low_values[i] for i in eligible)
            if best_low != NO_LOW:
                low = [i for i in eligible if low_values[i] == best_low]
        if not low or sorted(low) == sorted(high):
            _divide(pot.amount, high, payout)
        else:
            low_half = pot.amount // 2
            _divide(pot.amount - low_half, high, payout)
            _divide(low_half, low, payout)
        result.append(tuple(payout))
    return tuple(result)
