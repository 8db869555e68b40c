"""Who gets what at showdown: the one implementation of the split rule, and side pots.

Used by the equity kernels (compiled) and by ``show``/the rules engine (called from Python).
Rule (docs/rules.md, "The low hand"): the high half goes to the best high hand(s) and the low
half to the best qualifying low(s), ties splitting a half equally; with no qualifying low the
high hand(s) take the whole pot. Scoops and quartered pots fall out of that.

Two views of that rule:

- :func:`split_pot` gives *shares* of one pot, integers in *pot units*: one pot is
  :func:`pot_units` units, chosen so that every share (a half split up to ``player_count``
  ways) is a whole number; exact fractions are ``share / pot_units``. Equity is this.
- :func:`settle_pots` pays *chips*: the main pot and the side pots (:func:`side_pots`), each
  split high/low among its own eligible players, with the odd-chip rules (docs/rules.md,
  "All-ins and side pots" and "Showdown"; WSOP rule 73; TDA). Players are indexed in odd-chip
  order: index 0 is the first seat left of the button.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from math import lcm

import numpy as np

from .runtime.numba import helper

from .errors import InputError, quoted
from .games import NO_LOW
from .validate import is_whole_number

# settle_pots reads eligibility as a bit mask of player indexes in an int64.
MAX_SETTLE_PLAYERS = 63


class OddChipRule(StrEnum):
    """Where the chips go that a split cannot divide evenly in the smallest chip.

    ``LEFT_OF_BUTTON`` (the default, the rule of docs/rules.md "Showdown"; Robert's Rules of
    Poker, WSOP rule 73, TDA): the odd chip of a high/low split goes to the high half; chips a
    half (or a pot) leaves among tied players go one each to the tied players from the first
    seat left of the button. ``LOW_REMAINDER_TO_HIGH`` (Bovada, Ignition: their hi/lo hands
    pay it so): the same, except that the chips a low half leaves when it is split among
    several low winners join the high half, paid with it to the high winner(s).
    """

    LEFT_OF_BUTTON = "left of button"
    LOW_REMAINDER_TO_HIGH = "low remainder to high"


def pot_units(player_count: int, hilo: bool) -> int:
    """Units in one pot: ``lcm(1..player_count)``, doubled for hi/lo (two halves)."""
    units = lcm(*range(1, player_count + 1))
    return 2 * units if hilo else units


@helper
def split_pot(high_values, low_values, hilo, units, shares):
    """Split one pot between players given their hand values.

    Parameters
    ----------
    high_values : (player_count,) int32
        High hand values, larger is better.
    low_values : (player_count,) int16 or int32
        Low values, larger is better, ``NO_LOW`` (0) for no qualifying low; ignored unless
        ``hilo``.
    hilo : bool
        Split the pot between high and low.
    units : int
        Pot size in units, from :func:`pot_units` (divisible by twice the player count).
    shares : (player_count,) int64
        Output: each player's share in units; they add up to ``units``.

    Returns
    -------
    (best_high, high_winner_count, best_low, low_winner_count) : tuple of int
        ``low_winner_count`` is 0 when no low qualifies (then ``best_low`` is ``NO_LOW``).
    """
    player_count = high_values.shape[0]
    best_high = high_values[0]
    high_winner_count = 0
    best_low = NO_LOW
    low_winner_count = 0
    for player in range(player_count):
        value = high_values[player]
        if value > best_high:
            best_high = value
            high_winner_count = 1
        elif value == best_high:
            high_winner_count += 1
        if hilo:
            low = low_values[player]
            if low != NO_LOW:
                if low > best_low:
                    best_low = low
                    low_winner_count = 1
                elif low == best_low:
                    low_winner_count += 1
    high_pot = units // 2 if low_winner_count > 0 else units
    high_share = high_pot // high_winner_count
    low_share = (units - high_pot) // low_winner_count if low_winner_count > 0 else 0
    for player in range(player_count):
        share = 0
        if high_values[player] == best_high:
            share += high_share
        if low_winner_count > 0 and low_values[player] == best_low:
            share += low_share
        shares[player] = share
    return best_high, high_winner_count, best_low, low_winner_count


def showdown_shares(high_values, low_values, hilo: bool) -> list[Fraction]:
    """Each player's exact share of one pot (fractions 0..1 adding up to 1).

    ``high_values`` and ``low_values`` are sequences of ints as produced by the evaluator
    (``low_values`` may be ``None`` for high-only games).
    """
    player_count = len(high_values)
    units = pot_units(player_count, hilo)
    shares = np.zeros(player_count, dtype=np.int64)
    lows = np.asarray(low_values if low_values is not None else [NO_LOW] * player_count, dtype=np.int32)
    split_pot(np.asarray(high_values, dtype=np.int32), lows, hilo, units, shares)
    return [Fraction(int(share), units) for share in shares]


@helper
def _pay_evenly(amount, winner_mask, player_count, payouts_row):
    """Add ``amount`` chips split evenly among the players of ``winner_mask`` to
    ``payouts_row``: the remainder chips one each to the first winners in index order."""
    winner_count = 0
    for player in range(player_count):
        if (winner_mask >> player) & 1:
            winner_count += 1
    share = amount // winner_count
    remainder = amount - share * winner_count
    for player in range(player_count):
        if (winner_mask >> player) & 1:
            payouts_row[player] += share
            if remainder > 0:
                payouts_row[player] += 1
                remainder -= 1


@helper
def settle_pots(pot_amounts, eligible_masks, high_values, low_values, hilo, payouts):
    """Pay out every pot in chips on one complete board, odd chips by the default rule
    (:attr:`OddChipRule.LEFT_OF_BUTTON`): :func:`settle_pots_by_rule` with
    ``low_remainder_to_high`` False, which documents the parameters."""
    settle_pots_by_rule(pot_amounts, eligible_masks, high_values, low_values, hilo, False, payouts)


@helper
def settle_pots_by_rule(pot_amounts, eligible_masks, high_values, low_values, hilo, low_remainder_to_high,
                        payouts):
    """Pay out every pot in chips on one complete board.

    Each pot is split among its own eligible players: the high half to the best high among
    them, the low half to the best qualifying low among them; with no qualifying low among
    them, high takes the whole pot. Odd chips: the odd chip of a high/low split goes to the
    high half; chips that do not divide among tied players go one each to the first tied
    players in index order (index 0 = first seat left of the button); when the same players
    win both halves, the pot is divided among them as evenly as possible as a whole (66
    between two is 33/33, not 34/32). Source: docs/rules.md "Showdown" and "All-ins and side
    pots"; WSOP rule 73; TDA (case OM-15). With ``low_remainder_to_high``
    (:attr:`OddChipRule.LOW_REMAINDER_TO_HIGH`, Bovada's rule), the chips a low half leaves
    when split among its winners join the high half instead.

    Parameters
    ----------
    pot_amounts : (pot_count,) int64
        Chips in each pot (main pot first).
    eligible_masks : (pot_count,) int64
        Bit ``i`` set when player ``i`` is eligible for the pot (at most 63 players).
    high_values : (player_count,) int32
        High hand values, larger is better.
    low_values : (player_count,) int32
        Low values, larger is better, ``NO_LOW`` (0) for no qualifying low; ignored unless
        ``hilo``.
    hilo : bool
        Split each pot between high and low.
    low_remainder_to_high : bool
        The chips a split low half cannot divide go to the high half (else one each to the
        first low winners in index order).
    payouts : (pot_count, player_count) int64
        Output: chips each player wins from each pot (overwritten). Each row adds up to the
        pot's amount when the pot has an eligible player.
    """
    player_count = high_values.shape[0]
    for pot in range(pot_amounts.shape[0]):
        payouts_row = payouts[pot]
        for player in range(player_count):
            payouts_row[player] = 0
        eligible = eligible_masks[pot]
        amount = pot_amounts[pot]
        if eligible == 0 or amount == 0:
            continue
        high_mask = np.int64(0)
        low_mask = np.int64(0)
        best_high = np.int32(0)
        best_low = np.int32(NO_LOW)
        for player in range(player_count):
            if not (eligible >> player) & 1:
                continue
            value = high_values[player]
            if high_mask == 0 or value > best_high:
                best_high = value
                high_mask = np.int64(1) << player
            elif value == best_high:
                high_mask |= np.int64(1) << player
            if hilo:
                low = low_values[player]
                if low != NO_LOW:
                    if low > best_low:
                        best_low = low
                        low_mask = np.int64(1) << player
                    elif low == best_low:
                        low_mask |= np.int64(1) << player
        if low_mask == 0 or low_mask == high_mask:
            _pay_evenly(amount, high_mask, player_count, payouts_row)
        else:
            low_half = amount // 2
            if low_remainder_to_high:
                low_winner_count = 0
                for player in range(player_count):
                    if (low_mask >> player) & 1:
                        low_winner_count += 1
                low_half -= low_half % low_winner_count
            _pay_evenly(amount - low_half, high_mask, player_count, payouts_row)
            _pay_evenly(low_half, low_mask, player_count, payouts_row)


@dataclass(frozen=True)
class Pot:
    """One pot of a showdown: the main pot or a side pot.

    Attributes
    ----------
    amount : int
        Chips in the pot.
    eligible : tuple of int
        Indexes (ascending) of the players who can win it: those not folded who put in at
        least the pot's level.
    """

    amount: int
    eligible: tuple[int, ...]

    @property
    def eligible_mask(self) -> int:
        """Bit ``i`` set for each eligible player ``i`` (the form :func:`settle_pots` reads)."""
        mask = 0
        for player in self.eligible:
            mask |= 1 << player
        return mask


def _check_chips(values: Sequence[int], what: str) -> list[int]:
    checked = []
    for index, value in enumerate(values, start=1):
        if not is_whole_number(value) or value < 0:
            raise InputError(f"bad {what} {quoted(value)} for player {index}: "
                             "expected a whole number of chips, 0 or more")
        checked.append(int(value))
    return checked


def side_pots(contributions: Sequence[int], folded: Sequence[bool], dead: Sequence[int] | None = None) -> list[Pot]:
    """The main pot and the side pots made by the players' contributions.

    The levels are the distinct amounts put in by the players not folded: pot ``k`` holds,
    from every player, the chips between level ``k - 1`` and level ``k``, and is contested by
    the players not folded who reached level ``k`` (docs/rules.md, "All-ins and side pots").
    A folded player's chips go into every pot level they reach (dead money: never eligible);
    chips of a folded player above the highest level (normally an uncalled bet, returned
    before the showdown) join the last pot. Levels with the same eligible players form one
    pot, and pots without chips are left out.

    Parameters
    ----------
    contributions : sequence of int
        Chips each player put in during the hand, indexed in odd-chip order (index 0 = first
        seat left of the button).
    folded : sequence of bool
        Whether each player folded.
    dead : sequence of int, optional
        Dead chips each player put in besides ``contributions``: antes paid by some players
        only (a big-blind ante) and the dead part of a missed-blinds post. They make no
        level; all of them form the first pot, which every player not folded may win, even a
        player all in on dead chips alone (docs/rules.md, "All-ins and side pots": the
        poster's dead chips are in the pot he plays for). It joins the main pot when the same
        players may win both.

    Returns
    -------
    list of Pot
        Main pot first, then side pots in increasing level; the amounts add up to the sum of
        the contributions and the dead chips.

    Raises
    ------
    InputError
        A negative or non-integer contribution, lengths that differ, or every player folded.

    Examples
    --------
    Case OM-17: player 2 all in for 100, players 0 and 1 in for 300 each.

    >>> side_pots([300, 300, 100], [False, False, False])
    [Pot(amount=300, eligible=(0, 1, 2)), Pot(amount=400, eligible=(0, 1))]

    A big blind all in on a 100-chip big-blind ante: the ante is a pot of its own
    that he may win; the others' calls are a side pot.

    >>> side_pots([100, 0, 100], [False, False, False], dead=[0, 100, 0])
    [Pot(amount=100, eligible=(0, 1, 2)), Pot(amount=200, eligible=(0, 2))]
    """
    amounts = _check_chips(contributions, "contribution")
    if len(folded) != len(amounts):
        raise InputError(f"expected one folded flag per player ({len(amounts)}), got {len(folded)}")
    dead_chips = _check_chips(dead, "dead chips") if dead is not None else [0] * len(amounts)
    if len(dead_chips) != len(amounts):
        raise InputError(f"expected dead chips for each of the {len(amounts)} players, got {len(dead_chips)}")
    live = [player for player in range(len(amounts)) if not folded[player]]
    if not live:
        raise InputError("every player folded: expected at least one player in the pot")
    levels = sorted({amounts[player] for player in live})
    pots: list[Pot] = [Pot(sum(dead_chips), tuple(live))] if any(dead_chips) else []
    previous_level = 0
    for position, level in enumerate(levels):
        top = position == len(levels) - 1
        amount = sum(max(0, (value if top else min(value, level)) - previous_level) for value in amounts)
        eligible = tuple(player for player in live if amounts[player] >= level)
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        elif amount > 0:
            pots.append(Pot(amount, eligible))
        previous_level = level
    return pots


def settle(pots: Sequence[Pot], high_values: Sequence[int], low_values: Sequence[int] | None,
           hilo: bool, odd_chip: OddChipRule = OddChipRule.LEFT_OF_BUTTON) -> tuple[tuple[int, ...], ...]:
    """Chips each player wins from each pot on a complete board (calls :func:`settle_pots_by_rule`).

    Parameters
    ----------
    pots : sequence of Pot
        From :func:`side_pots` (main pot first).
    high_values : sequence of int
        Each player's high value from the evaluator (larger is better), indexed in odd-chip
        order (index 0 = first seat left of the button).
    low_values : sequence of int or None
        Each player's low value (larger is better, ``evaluate.tables.NO_LOW`` = 0 for no
        qualifying low); None for high-only games.
    hilo : bool
        Split each pot between high and low.
    odd_chip : OddChipRule
        Where chips go that a split cannot divide (default ``LEFT_OF_BUTTON``).

    Returns
    -------
    tuple of tuple of int
        ``payouts[pot][player]`` in chips.

    Raises
    ------
    InputError
        More than 63 players, an eligible index outside the players, a pot of more than
        2**63 - 1 chips, or ``low_values`` missing for a hi/lo game.

    Examples
    --------
    Case OM-17 (trip jacks for player 2, trip nines for player 0, trip sevens for player 1):

    >>> settle([Pot(300, (0, 1, 2)), Pot(400, (0, 1))], [30, 10, 40], None, False)
    ((0, 0, 300), (400, 0, 0))

    A 95-chip hi/lo pot, player 2 high, players 0 and 1 sharing the low: the low half's odd
    chip goes to player 0 (first left of the button), or to the high half by Bovada's rule.

    >>> settle([Pot(95, (0, 1, 2))], [10, 10, 50], [7, 7, 0], True)
    ((24, 23, 48),)
    >>> settle([Pot(95, (0, 1, 2))], [10, 10, 50], [7, 7, 0], True, OddChipRule.LOW_REMAINDER_TO_HIGH)
    ((23, 23, 49),)
    """
    player_count = len(high_values)
    if player_count > MAX_SETTLE_PLAYERS:
        raise InputError(f"expected at most {MAX_SETTLE_PLAYERS} players, got {player_count}")
    if hilo and low_values is None:
        raise InputError("expected low values for a hi/lo game")
    int64_max = int(np.iinfo(np.int64).max)
    for pot in pots:
        if any(not 0 <= player < player_count for player in pot.eligible):
            raise InputError(f"pot {pot} names a player outside the {player_count} players")
        if not 0 <= pot.amount <= int64_max:
            raise InputError(f"a pot of {quoted(pot.amount)} chips: expected 0 to {int64_max:,} (the settlement "
                             "counts chips in int64)")
    lows = low_values if low_values is not None else [NO_LOW] * player_count
    payouts = np.zeros((len(pots), player_count), dtype=np.int64)
    settle_pots_by_rule(
        np.array([pot.amount for pot in pots], dtype=np.int64),
        np.array([pot.eligible_mask for pot in pots], dtype=np.int64),
        np.asarray(high_values, dtype=np.int32), np.asarray(lows, dtype=np.int32), hilo,
        OddChipRule(odd_chip) == OddChipRule.LOW_REMAINDER_TO_HIGH, payouts,
    )
    return tuple(tuple(int(chips) for chips in row) for row in payouts)
