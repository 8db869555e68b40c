"""Choosing exact enumeration or Monte Carlo, and the sizes of the work pieces.

The rule for "affordable" is a work budget counted in player-boards (one player's hand
evaluated on one complete board): exact enumeration when
``board completions x players <= EXACT_WORK_BUDGET``. The kernels score about 50 million
player-boards a second on two cores, so the budget keeps an automatic exact answer under
about a second. With fully known hands every query fits (the largest, heads-up preflop, is
1,086,008 boards x 2 players); ranges and random hands are what push a query over it.
"""

from __future__ import annotations

import math
from math import comb

import numpy as np

from ..errors import InputError

EXACT_WORK_BUDGET = 50_000_000
DEFAULT_TRIALS = 1_000_000
DEFAULT_PRECISION_TRIAL_CAP = 100_000_000
# Monte Carlo: each chunk has its own random stream; the chunk size is fixed, so a seed gives
# the same samples for any thread count. 2**16 keeps the int64 sums of squared shares exact.
CHUNK_SIZE = 1 << 16
CHUNKS_PER_CALL = 16
# Exact enumeration: the completions are cut into this many equal slices, run in calls of
# EXACT_CHUNKS_PER_CALL slices (progress is reported between calls).
EXACT_CHUNKS = 256
EXACT_CHUNKS_PER_CALL = 32

AUTO, EXACT, MONTE_CARLO = "auto", "exact", "monte-carlo"
# BINOMIALS[n, k] = C(n, k) for the enumeration kernels: (53, 6) int64.
BINOMIALS = np.array([[comb(n, k) for k in range(6)] for n in range(53)], dtype=np.int64)
METHODS = (AUTO, EXACT, MONTE_CARLO)


def board_completions(undealt_count: int, board_count: int) -> int:
    """Number of ways to complete a board of ``board_count`` cards from ``undealt_count``."""
    return comb(undealt_count, 5 - board_count)


def choose_method(method: str, work: int, sampling_asked: bool = False) -> str:
    """``exact`` or ``monte-carlo`` for a query.

    ``auto`` picks exact enumeration when the exact ``work`` (player-boards: board completions
    x players, times every combination of hands when ranges are involved) is at most
    ``EXACT_WORK_BUDGET``; asking for trials or a precision (``sampling_asked``) means Monte Carlo.

    Raises
    ------
    InputError
        Unknown method name, or trials/precision together with exact enumeration.
    """
    if method not in METHODS:
        raise InputError(f"unknown method {method!r}: expected one of {', '.join(METHODS)}")
    if sampling_asked:
        if method == EXACT:
            raise InputError("trials and precision apply to Monte Carlo, not to exact enumeration")
        return MONTE_CARLO
    if method != AUTO:
        return method
    return EXACT if work <= EXACT_WORK_BUDGET else MONTE_CARLO



def check_sampling_options(trials: int | None, precision: float | None) -> None:
    """Raises InputError for ``trials < 1`` or a precision that is not a positive number."""
    if trials is not None and (not isinstance(trials, int) or isinstance(trials, bool) or trials < 1):
        raise InputError(f"bad trials {trials!r}: expected a whole number of at least 1")
    if precision is not None and (not isinstance(precision, (int, float)) or not 0 < precision < math.inf):
        raise InputError(f"bad precision {precision!r}: expected a positive number of percentage points")
