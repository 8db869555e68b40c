"""Choosing exact enumeration or Monte Carlo, and the sizes of the work pieces.

The rule for "affordable" is a work budget counted in player-boards (one player's hand
evaluated on one complete board), sized from the measured speed of the kernel that will run:
exact enumeration when the work (board completions x players, times the combinations of hands
with ranges) takes at most ``AUTO_EXACT_SECONDS`` at that kernel's rate. The fixed-hand kernel,
which also runs ranges with a flop or less known, combination by combination, scores about
``EXACT_RATE`` player-boards a second on two cores (budget ``EXACT_WORK_BUDGET``); the list
kernel (ranges on the turn and river, hi/lo with 7 or more players) about ``LIST_EXACT_RATE``
(``RIVER_LIST_EXACT_RATE`` on the river).
With fully known hands every query fits (the largest, heads-up preflop, is 1,086,008 boards x 2
players); ranges and random hands are what push a query over it. Forced exact enumeration is
refused beyond ``EXACT_CEILING_SECONDS`` of work at the kernel's rate (``EXACT_WORK_CEILING``
for the fixed-hand kernel).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from enum import StrEnum
from math import comb

import numpy as np

from ..errors import InputError, quoted

# Player-boards a second of the exact kernels on this project's 2-core machine, 2 threads, as
# loaded as it usually is (``make bench``: rows "exact heads-up preflop" and "range exact";
# issue 18 measured the fixed-hand kernel at 23-46 M). The fixed-hand kernel
# (``fixed._kernels.enumerate_boards``) measured 40-60 M; ranges with a flop or less known run on it
# combination by combination at the same rate (62 M player-boards per CPU second against its
# 64 M). The list kernel (``lists._kernels.enumerate_ranges``) evaluates each hand on each
# board and skips combinations that share a card, which the work estimate counts: on the turn
# it scored 15-25 M estimated player-boards per CPU second (a random hand; two 598-hand
# ranges), so about 40 M on two threads; on the river, where each combination of hands has a
# single board, 2 M per CPU second, about 5 M on two threads.
EXACT_RATE = 50_000_000
LIST_EXACT_RATE = 40_000_000
RIVER_LIST_EXACT_RATE = 5_000_000
# The automatic choice enumerates work of up to about a second.
AUTO_EXACT_SECONDS = 1
EXACT_WORK_BUDGET = AUTO_EXACT_SECONDS * EXACT_RATE
# Forced exact enumeration (``method="exact"``, ``--exact``) is refused beyond about ten
# minutes of work. AA against KK preflop, ~1e14 player-boards, would take weeks; Monte Carlo
# answers it to 0.1 points in seconds.
EXACT_CEILING_SECONDS = 600
EXACT_WORK_CEILING = EXACT_CEILING_SECONDS * EXACT_RATE
# Work this small (a river or turn, a flop heads-up: up to 200,000 player-boards) runs as one
# call on one thread: waking a second thread costs more than it saves, and on a busy machine
# far more.
SMALL_WORK = 200_000
DEFAULT_TRIALS = 1_000_000
DEFAULT_PRECISION_TRIAL_CAP = 100_000_000
# Monte Carlo of fixed hands (equity) and of every all-in: deals (boards) per chunk. Each chunk
# has its own random stream; the size is fixed, so a seed gives the same samples for any thread
# count (another size would give other samples). 2**16 keeps the int64 sums of squared shares
# exact. The equity sampler over hand lists has its own, ``lists.sampling.RANGE_DEALS_PER_CHUNK``.
# Kernel calls take whole chunks, as many as fit in a short call (``threads.run_in_pieces``), never more than
# CHUNKS_PER_CALL; a precision target is checked after every CHUNKS_PER_CALL chunks.
DEALS_PER_CHUNK = 1 << 16
CHUNKS_PER_CALL = 16
# Exact enumeration of fixed hands: the completions are cut into this many equal slices, run a
# few slices per call (progress is reported and Ctrl-C honoured between calls).
EXACT_CHUNKS = 256



class Method(StrEnum):
    """How a query is answered: chosen by the work (``AUTO``), every board (``EXACT``), or
    sampled boards (``MONTE_CARLO``). The values are the API's and the output's words."""

    AUTO = "auto"
    EXACT = "exact"
    MONTE_CARLO = "monte-carlo"


class Family(StrEnum):
    """The two kernel families a query runs on: per-hand lookup rows when every hand is known
    (``enumerate_boards``, ``sample_boards`` and their all-in twins), or lists of hands scored
    board by board (ranges, partial and random hands; fixed hands where the rows do not pay)."""

    FIXED_HANDS = "fixed-hands"
    HAND_LISTS = "hand-lists"


# BINOMIALS[n, k] = C(n, k) for the enumeration kernels: (53, 6) int64.
BINOMIALS = np.array([[comb(n, k) for k in range(6)] for n in range(53)], dtype=np.int64)
METHODS = tuple(Method)


def board_completions(undealt_count: int, board_count: int) -> int:
    """Number of ways to complete a board of ``board_count`` cards from ``undealt_count``."""
    return comb(undealt_count, 5 - board_count)


def choose_method(method: str, work: int, sampling_asked: bool = False, rate: int = EXACT_RATE) -> str:
    """``exact`` or ``monte-carlo`` for a query.

    ``auto`` picks exact enumeration when the exact ``work`` (player-boards: board completions
    x players, times every combination of hands when ranges are involved) takes at most
    ``AUTO_EXACT_SECONDS`` at ``rate`` (player-boards a second of the kernel that will run:
    ``EXACT_RATE``, the default, ``LIST_EXACT_RATE`` or ``RIVER_LIST_EXACT_RATE``;
    ``EXACT_WORK_BUDGET`` at the default);
    asking for trials or a precision (``sampling_asked``) means Monte Carlo.

    Raises
    ------
    InputError
        Unknown method name, trials/precision together with exact enumeration, or exact
        enumeration asked for more than ``EXACT_CEILING_SECONDS`` of work at ``rate``
        (``EXACT_WORK_CEILING`` player-boards at the default; the message gives the estimate).
    """
    if method not in METHODS:
        raise InputError(f"unknown method {quoted(method)}: expected one of {', '.join(METHODS)}")
    if sampling_asked:
        if method == Method.EXACT:
            raise InputError("trials and precision apply to Monte Carlo, not to exact enumeration")
        return Method.MONTE_CARLO
    ceiling = EXACT_CEILING_SECONDS * rate
    if method == Method.EXACT and work > ceiling:
        raise InputError(f"exact enumeration would score about {work:.1e} player-boards (boards x hands x players), "
                         f"more than the ceiling of {ceiling:.0e} (about {EXACT_CEILING_SECONDS // 60} minutes): "
                         "use Monte Carlo instead")
    if method != Method.AUTO:
        return method
    return Method.EXACT if work <= AUTO_EXACT_SECONDS * rate else Method.MONTE_CARLO


def draw_seed() -> int:
    """A random Monte Carlo seed, 0..2**63-1 (reported in the result so a run can be repeated;
    63 bits so that every consumer, JSON readers included, holds it exactly)."""
    return secrets.randbits(63)


@dataclass(frozen=True)
class QueryPlan:
    """What a query will run: the method, the kernel family and kernels, the seed, the threads
    and the work. Made by :func:`plan_query`; the calculations run it, the progress total and
    the exact-work ceiling read it, and results report its method and seed.

    Attributes
    ----------
    method : Method
        ``EXACT`` or ``MONTE_CARLO`` (never ``AUTO``).
    family : Family
        ``FIXED_HANDS`` (per-hand rows) or ``HAND_LISTS`` (lists of hands).
    kernels : tuple of str
        The compiled kernels the run calls (named to ``cache.announce_compiling``).
    player_count : int
    exact_work : int
        Player-boards of the exact enumeration (boards x hand combinations x players), also
        when sampling: what the budget and the ceiling were compared with.
    trials : int
        Monte Carlo: boards to sample (the most, with a ``precision``); ``DEFAULT_TRIALS`` or
        ``DEFAULT_PRECISION_TRIAL_CAP`` when not given.
    precision : float or None
        Monte Carlo: the standard-error target in percentage points (or the calculation's own
        unit), None for none.
    seed : int or None
        Monte Carlo seed, given or drawn (:func:`draw_seed`); None for exact enumeration.
    threads : int or None
        The threads asked for (None: numba's setting).
    """

    method: Method
    family: Family
    kernels: tuple[str, ...]
    player_count: int
    exact_work: int
    trials: int
    precision: float | None
    seed: int | None
    threads: int | None

    @property
    def exact(self) -> bool:
        return self.method == Method.EXACT

    @property
    def work(self) -> int:
        """Player-boards the run scores (at most, when sampling to a precision)."""
        return self.exact_work if self.exact else self.trials * self.player_count

    @property
    def small(self) -> bool:
        """Work of at most ``SMALL_WORK`` player-boards: one call on one thread."""
        return self.work <= SMALL_WORK

    @property
    def kernel_threads(self) -> int | None:
        """The threads to run on: 1 for small work (waking a second thread costs more than it
        saves), else those asked for (None: numba's setting)."""
        return 1 if self.small else self.threads


def plan_query(method: Method, exact_work: int, player_count: int, *, family: Family, kernels: tuple[str, ...],
               trials: int | None = None, precision: float | None = None, seed: int | None = None,
               threads: int | None = None) -> QueryPlan:
    """The plan of a query whose method is chosen (:func:`choose_method`, then
    :func:`exact_or_fallback`): the seed (none when exact; drawn when not given), the trials,
    the threads and the work.

    Parameters
    ----------
    method : Method
        ``EXACT`` or ``MONTE_CARLO``.
    exact_work : int
        Player-boards of an exact enumeration.
    player_count : int
    family : Family
        The kernel family the method runs on.
    kernels : tuple of str
        The compiled kernels that family and method call (named to ``cache.announce_compiling``).
    trials, precision, seed, threads :
        As given by the caller (checked beforehand: ``query.RunOptions.checked``).
    """
    if method == Method.EXACT:
        seed = None
    elif seed is None:
        seed = draw_seed()
    return QueryPlan(
        method=method, family=family, kernels=kernels, player_count=player_count, exact_work=exact_work,
        trials=trials or (DEFAULT_PRECISION_TRIAL_CAP if precision is not None else DEFAULT_TRIALS),
        precision=precision, seed=seed, threads=threads,
    )


def exact_or_fallback(asked: str, too_large: str) -> Method:
    """What runs when exact enumeration was chosen but its sums would not fit in 64 bits:
    Monte Carlo when the method was ``auto``.

    Raises
    ------
    InputError
        ``too_large``, when exact enumeration was asked for.
    """
    if asked == Method.EXACT:
        raise InputError(too_large)
    return Method.MONTE_CARLO
