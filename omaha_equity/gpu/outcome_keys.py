"""The outcome keys the GPU kernels tally deals by (``_kernels.deal_key``): which players win
each pot's high and low halves, as one mixed-radix number per deal.

The pots of an all-in are contested by nested sets of players (``pots.side_pots``: a side pot's
players all reach the levels below it). Widest first, each set minus the next is a *level* of
its own players; the winners of every pot follow from, level by level from the deepest up,
whether the level's best hand beats, ties or loses to the best of the levels below it, and
which of the level's own players hold that best hand. That is one digit per level and half:

- the deepest level: its winners' bits (bit ``i``: the level's ``i``-th player), radix
  ``2 ** size``;
- a level above: 0 when none of its players beats or ties the best below (or, low, none has a
  qualifying low), else ``2 * bits - 1``, plus 1 for a tie; radix ``2 ** (size + 1) - 1``.

One pot (equity) is one level of every player: the key is then the high winners' bits, and in
hi/lo the low winners' bits above them, the key ``equity.fixed._kernels.score_outcomes`` reads.
Heads-up all-ins have at most 4 (high only) or 16 keys; six players with six different stacks,
243 high keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np

from ..errors import InputError

# The most outcome keys a run tallies (int64 each, in GPU memory): 128 MiB.
MAX_OUTCOME_KEYS = 1 << 24


@dataclass(frozen=True)
class OutcomeKeys:
    """The levels of a deal's outcome key, in the kernel's player indexes.

    Attributes
    ----------
    level_players : tuple of int
        Each level's own players (bit ``p``: kernel player ``p``), the widest level first.
    hilo : bool
        Whether each pot is split high/low (a low digit per level).
    """

    level_players: tuple[int, ...]
    hilo: bool

    @classmethod
    def one_pot(cls, player_count: int, hilo: bool) -> OutcomeKeys:
        """One pot that every player may win (equity)."""
        return cls(((1 << player_count) - 1,), hilo)

    @classmethod
    def of_pots(cls, eligible_masks, hilo: bool) -> OutcomeKeys:
        """The levels of pots contested by ``eligible_masks`` (bit ``p``: kernel player ``p``;
        pots nobody may win are left out).

        Raises
        ------
        InputError
            Sets of players that are not nested (no all-in makes them).
        """
        nested = sorted({mask for mask in eligible_masks if mask}, key=lambda mask: -mask.bit_count())
        for wider, narrower in zip(nested, nested[1:]):
            if narrower & ~wider:
                raise InputError("the pots' players are not nested (each side pot's players in the pot below it): "
                                 "the GPU cannot settle them; use --device cpu")
        return cls(tuple(players & ~deeper for players, deeper in zip(nested, [*nested[1:], 0])), hilo)

    def radixes(self) -> list[tuple[int, int]]:
        """Each level's ``(high radix, low radix)`` (low 1 when not hi/lo)."""
        deepest = len(self.level_players) - 1
        result = []
        for level, players in enumerate(self.level_players):
            size = players.bit_count()
            radix = 1 << size if level == deepest else (1 << (size + 1)) - 1
            result.append((radix, radix if self.hilo else 1))
        return result

    def strides(self) -> np.ndarray:
        """(2, levels) int64: each digit's place value, the high digits (widest level first)
        least significant, then the low ones."""
        strides = np.zeros((2, len(self.level_players)), dtype=np.int64)
        place = 1
        for half in range(2):
            for level, radixes in enumerate(self.radixes()):
                strides[half, level] = place
                place *= radixes[half]
        return strides

    @property
    def key_count(self) -> int:
        return prod(high * low for high, low in self.radixes())

    def check_size(self) -> None:
        """Raises
        ------
        InputError
            More keys than ``MAX_OUTCOME_KEYS`` (many players with many different stacks,
            hi/lo)."""
        if self.key_count > MAX_OUTCOME_KEYS:
            raise InputError(f"these pots have {self.key_count:,} outcomes per deal, more than the GPU tallies "
                             f"({MAX_OUTCOME_KEYS:,}): use --device cpu")

    def kernel_arguments(self) -> tuple[np.ndarray, np.ndarray]:
        """``level_masks`` (levels,) int64 and ``level_strides`` (2, levels) int64."""
        return np.array(self.level_players, dtype=np.int64), self.strides()

    def winners(self, key: int) -> list[tuple[int, int]]:
        """Each level's ``(high winners, low winners)`` of the pot its players and the deeper
        levels' contest (bit ``p``: kernel player ``p``; low 0: no qualifying low), decoded
        from an outcome key."""
        deepest = len(self.level_players) - 1
        strides, radixes = self.strides(), self.radixes()
        result: list[tuple[int, int]] = [(0, 0)] * len(self.level_players)
        best = [0, 0]
        for level in range(deepest, -1, -1):
            players = self.level_players[level]
            for half in range(2 if self.hilo else 1):
                digit = key // int(strides[half, level]) % radixes[level][half]
                if level == deepest:
                    best[half] = _spread(digit, players)
                elif digit:
                    level_best = _spread((digit + 1) >> 1, players)
                    best[half] = best[half] | level_best if (digit + 1) & 1 else level_best
            result[level] = (best[0], best[1])
        return result


def _spread(bits: int, players: int) -> int:
    """The players of ``players`` picked by ``bits`` (bit ``i``: its ``i``-th player)."""
    picked = 0
    position = 0
    for player in range(players.bit_length()):
        if (players >> player) & 1:
            if (bits >> position) & 1:
                picked |= 1 << player
            position += 1
    return picked
