"""The GPU kernels' outcome tallies turned into the CPU's counts, with the CPU's own scoring
(``equity.fixed._kernels.score_outcomes``): every count is linear in the deals of each outcome, and
so is the sum of squared shares that Monte Carlo's standard error needs."""

from __future__ import annotations

import functools

import numpy as np

from ..equity.counters import EQUITY
from ..equity.fixed._kernels import outcome_key_bits, score_outcomes

__all__ = ["EQUITY", "outcome_key_bits", "score", "share_of", "square_sums"]


def score(outcomes: np.ndarray, has_low: np.ndarray, hilo: bool, units: int) -> tuple[np.ndarray, int]:
    """``(counts (players, STAT_COUNT) int64, low deals)`` of tallied deals: ``outcomes``
    (2 ** key bits,) int64 weighted deals per outcome key, ``has_low`` (players,) int64 weighted
    deals with each player's qualifying low."""
    return score_outcomes(np.asarray(outcomes, dtype=np.int64), np.asarray(has_low, dtype=np.int64), hilo, units)


@functools.lru_cache(maxsize=8192)
def share_of(key: int, player_count: int, hilo: bool, units: int) -> tuple[int, ...]:
    """Each player's share (pot units) of a deal of outcome ``key``."""
    one = np.zeros(key + 1, dtype=np.int64)
    one[key] = 1
    counts, _ = score_outcomes(one, np.zeros(player_count, dtype=np.int64), hilo, units)
    return tuple(int(share) for share in counts[:, EQUITY])


def square_sums(outcomes: np.ndarray, player_count: int, hilo: bool, units: int) -> np.ndarray:
    """Each player's sum of squared shares (pot units squared) over the tallied deals:
    (players,) int64."""
    squares = [0] * player_count
    for key in np.flatnonzero(outcomes).tolist():
        deals = int(outcomes[key])
        for player, share in enumerate(share_of(key, player_count, hilo, units)):
            squares[player] += deals * share * share
    return np.array(squares, dtype=np.int64)
