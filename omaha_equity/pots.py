"""Who gets what share of one pot at showdown: the one implementation of the split rule.

Used by the equity kernels (compiled) and by ``show``/the rules engine (called from Python).
Rule (RULES.md, "The low hand"): the high half goes to the best high hand(s) and the low half
to the best qualifying low(s), ties splitting a half equally; with no qualifying low the high
hand(s) take the whole pot. Scoops and quartered pots fall out of that.

Shares are integers in *pot units*: one pot is :func:`pot_units` units, chosen so that every
share (a half split up to ``player_count`` ways) is a whole number; exact fractions are
``share / pot_units``.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import numpy as np
from numba import njit

from .cache import redirect_numba_cache, restore_numba_cache

from .evaluate.tables import NO_LOW


def pot_units(player_count: int, hilo: bool) -> int:
    """Units in one pot: ``lcm(1..player_count)``, doubled for hi/lo (two halves)."""
    units = lcm(*range(1, player_count + 1))
    return 2 * units if hilo else units


# Compiled code is cached in a folder keyed by every kernel source (see cache.py).
_previous_numba_cache = redirect_numba_cache()

@njit(cache=True, nogil=True, inline="always")
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


restore_numba_cache(_previous_numba_cache)
