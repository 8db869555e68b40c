"""``calculate_equity``: the public entry point of the equity calculator.

A query goes through the steps it shares with ``allin.calculate_allin`` (``query``): seated
(``query.seat_query``), planned (:func:`plan_equity`: exact or Monte Carlo, which kernels, the
seed, the threads), run (``query.run_plan``: kernels in pieces, progress between them); then
the integer counts are wrapped into an :class:`EquityResult` (:func:`equity_result`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..deal import CardsLike
from ..games import Game
from ..pots import pot_units
from ..runtime.threads import PieceSizer, threads_to_run
from ..validate import MAX_THREADS
from . import plan
from .counters import EQUITY
from .drivers import IntegerSums, WholeChunks, enumerate_fixed_hands, sample_chunks
from .fixed._kernels import OUTCOME_BITS, enumerate_boards, outcome_key_bits, sample_boards, score_outcomes
from .fixed.hands import Prepared, prepare
from .kernel_inputs import ChunkPlan
from .many_spots import query_spot, spot_equity
from .lists.exact import enumerate_range_equity, whole_weights
from .lists.sampling import sample_range_equity, scaled_counts
from .plan import Family, Method, QueryPlan
from .query import Device, ProgressCallback, RunOptions, SeatedQuery, run_plan, seat_query
from .results.equity import EquityResult, PlayerEquity, standard_error


def _enumerate(prepared: Prepared, progress: ProgressCallback | None, threads: int | None = None):
    """Exact enumeration of fixed hands (``drivers.enumerate_fixed_hands``):
    ``(boards, counts (players, STATS), low_boards)``. The boards are tallied by outcome and
    each outcome scored once at the end (``fixed._kernels.score_outcomes``)."""
    completions, (outcomes, has_low) = enumerate_fixed_hands(prepared, enumerate_boards, (), progress,
                                                             threads)
    counts, low_boards = score_outcomes(outcomes, has_low, prepared.hilo, prepared.units)
    return completions, counts, low_boards


def _sample(prepared: Prepared, seed: int, trials: int, precision: float | None, progress: ProgressCallback | None,
            threads: int | None = None):
    """Monte Carlo of fixed hands on the Monte Carlo driver (``drivers.sample_chunks``), whole
    chunks per call; with a precision target, stop at the first multiple of
    ``plan.CHUNKS_PER_CALL`` chunks at which every player's standard error is below it (the
    decision depends only on the samples, so it too is the same for any thread count and any
    cutting into calls).

    Returns ``(samples, counts (players, STATS), low_boards, square_sums (players,))``."""
    chunks = ChunkPlan(plan.DEALS_PER_CHUNK, trials)
    sums = IntegerSums()
    call_threads = threads_to_run(threads)
    samples = sample_chunks(
        lambda first_chunk, chunk_count: WholeChunks(
            lambda first, count: sample_boards(*prepared.kernel_arguments(), prepared.hilo, prepared.units,
                                               np.uint64(seed), first, count, *chunks.kernel_arguments()),
            chunks, first_chunk, chunk_count, sums.add, threads=threads),
        chunks, plan.CHUNKS_PER_CALL, PieceSizer(first=call_threads, most=chunks.chunk_total, multiple=call_threads),
        progress=progress,
        precise_enough=None if precision is None else lambda done: _precise_enough(
            sums.totals, done, prepared.units, precision))
    counts, lows, squares = sums.totals
    return samples, counts, int(lows), squares


def _precise_enough(sums, samples: int, units: int, precision: float) -> bool:
    """Whether every player's standard error of equity (from the summed counts and squares of
    ``sample_boards``) is below ``precision`` percentage points."""
    counts, _, squares = sums
    errors = [standard_error(int(counts[player, EQUITY]), int(squares[player]), samples, units)
              for player in range(counts.shape[0])]
    return None not in errors and max(errors) * 100 < precision


def _outcome_table_fits(player_count: int, hilo: bool) -> bool:
    """The fixed-hand exact kernel tallies outcomes (who wins each half) in a table of
    2 ** key bits; beyond ``fixed._kernels.OUTCOME_BITS`` (hi/lo with 7 or more players, few boards
    then) every hand is a list of one for the list kernel, which scores each board."""
    return outcome_key_bits(player_count, hilo) <= OUTCOME_BITS


def plan_equity(seated: SeatedQuery, options: RunOptions = RunOptions(),
                units: int | None = None) -> tuple[QueryPlan, list | None]:
    """The plan of an equity query, and the ranges' whole weights when the hand lists are
    enumerated exactly (``lists.exact.whole_weights``; None otherwise).

    Raises
    ------
    InputError
        Anything ``RunOptions.choose_method`` refuses; exact enumeration asked for ranges whose
        weights are too far apart for 64-bit sums.
    """
    units = pot_units(seated.player_count, seated.game.hilo) if units is None else units
    method = options.choose_method(seated.exact_work, seated.exact_rate)
    weights = None
    if method == Method.EXACT and _equity_family(seated, method) == Family.HAND_LISTS:
        weights = whole_weights(list(seated.seats), seated.board, seated.dead, seated.game, units)
        if weights is None:
            method = plan.exact_or_fallback(
                options.method,
                "the range weights are too far apart for exact enumeration (64-bit sums): use Monte Carlo")
    family = _equity_family(seated, method)
    query = options.plan(method, family, (_EQUITY_KERNELS[family, method],), seated.player_count, seated.exact_work)
    return query, weights


def _equity_family(seated: SeatedQuery, method: Method) -> Family:
    """The per-hand rows when every hand is fixed (and, exactly, when their outcome table fits),
    else the hand lists."""
    fits = method != Method.EXACT or _outcome_table_fits(seated.player_count, seated.game.hilo)
    return Family.FIXED_HANDS if seated.all_fixed and fits else Family.HAND_LISTS


_EQUITY_KERNELS = {
    (Family.FIXED_HANDS, Method.EXACT): "enumerate_boards", (Family.FIXED_HANDS, Method.MONTE_CARLO): "sample_boards",
    (Family.HAND_LISTS, Method.EXACT): "enumerate_ranges", (Family.HAND_LISTS, Method.MONTE_CARLO): "sample_ranges",
}


def calculate_equity(
    hands: Sequence[CardsLike], board: CardsLike = "", dead: CardsLike = "", game: str | Game = "omaha", *,
    die: int | None = None, method: str = "auto", trials: int | None = None, precision: float | None = None,
    seed: int | None = None, threads: int | None = None, progress: ProgressCallback | None = None,
    device: str = "cpu",
) -> EquityResult:
    """Equity of every player's hand, by exact enumeration of the board or by Monte Carlo.

    Parameters
    ----------
    hands : sequence of str
        Hole cards per player (2 up to what the deck allows), e.g. ``["AsAhKsKh", "JdTd9c8c"]``.
    board : str
        Known board cards, 0..5 (``"Qd7h2s"``). In Courchevel the first is the exposed card.
    dead : str
        Cards out of play.
    game : str or Game
        ``omaha`` (default), ``omaha8``, ``omaha5``, ``omaha5-8``, ``omaha6``, ``omaha6-8``,
        ``courchevel``, ``courchevel8``, ``binglao`` (with ``die``), or an alias.
    method : {"auto", "exact", "monte-carlo"}
        ``auto`` enumerates when completions x players <= ``plan.EXACT_WORK_BUDGET``; giving
        ``trials`` or ``precision`` asks for Monte Carlo.
    trials : int, optional
        Monte Carlo boards to sample (default ``plan.DEFAULT_TRIALS``; with ``precision``, the
        most to sample, default ``plan.DEFAULT_PRECISION_TRIAL_CAP``).
    precision : float, optional
        Monte Carlo: stop once every player's standard error of equity is below this many
        percentage points (never with fewer than 2 samples: the error is undefined then).
    seed : int, optional
        Monte Carlo seed (0..2**64-1); a random one is drawn and reported when omitted. The
        same seed gives the same numbers for any thread count.
    threads : int, optional
        Worker threads, any count of at least 1 (default: numba's, one per core); more than
        the cores numba started run on as many. The numbers never depend on it.
    progress : callable(done, total), optional
        Called after each piece of work with boards done and boards planned.
    device : {"cpu", "gpu", "auto"}
        Where the kernels run: the CPU (default), a CUDA GPU (``omaha_equity[gpu]``; an
        ``InputError`` when none is found), or a GPU when one is found and the work is at least
        ``gpu.device.AUTO_GPU_WORK`` player-boards (docs/gpu.md). Exact results are the same
        on both; Monte Carlo draws other samples of the same deal.

    Returns
    -------
    EquityResult
        Per-player fractions 0..1 (exact fractions too when enumerated).

    Raises
    ------
    InputError
        Any invalid card, deal, game or option (the message names the offending token).
    """
    if (die is None and trials is None and precision is None and seed is None and device == "cpu"
            and method in _EXACT_METHODS and (threads is None or _plain_threads(threads))):
        spot = query_spot(hands, board, dead, game)
        if spot is not None:
            result = spot_equity(spot)
            if progress is not None:  # one piece of work, done: as the whole way reports it
                progress(result.sample_count, result.sample_count)
            return result
    options = RunOptions.checked(method, trials=trials, precision=precision, seed=seed, threads=threads,
                                 device=device)
    return run_equity(seat_query(hands, board, dead, game, die), options, progress)


# What a query may ask for and still be answered as a spot (``many_spots``): exact (or auto,
# which enumerates a spot's few boards), on the CPU, whatever the threads (one spot is one thread).
_EXACT_METHODS = (Method.AUTO.value, Method.EXACT.value)


def _plain_threads(threads: object) -> bool:
    """A thread count ``validate.check_threads`` takes as it is (anything else goes the whole
    way, which says what is wrong with it)."""
    return type(threads) is int and 1 <= threads <= MAX_THREADS


def run_equity(seated: SeatedQuery, options: RunOptions, progress: ProgressCallback | None = None) -> EquityResult:
    """The typed core of :func:`calculate_equity`: plan a seated query with its run options,
    run it, wrap the counts.

    Raises
    ------
    InputError
        Anything the plan refuses (:func:`plan_equity`); ranges that leave almost no deal.
    """
    units = pot_units(seated.player_count, seated.game.hilo)
    query, weights_by_seat = plan_equity(seated, options, units)
    if options.device != Device.CPU:
        from ..gpu.device import runs_on_gpu  # lazy: numba.cuda loads only when a GPU is asked for

        if runs_on_gpu(options.device, query.work):
            from ..gpu.equity import run_equity_on_gpu

            outputs = run_equity_on_gpu(seated, query, units, weights_by_seat, options.precision, progress)
            return equity_result(seated, query, units, *outputs)
    run = _EquityRun(seated, query, units, weights_by_seat, options.precision, progress)
    sample_count, weight_total, counts, low_boards, squares, errors = run_plan(query, run.run)
    return equity_result(seated, query, units, sample_count, weight_total, counts, low_boards, squares, errors)


@dataclass(frozen=True)
class _EquityRun:
    """What :func:`run_equity` runs, given the threads (``query.run_plan``)."""

    seated: SeatedQuery
    query: QueryPlan
    units: int
    weights_by_seat: list | None
    precision: float | None
    progress: ProgressCallback | None

    def run(self, thread_count: int | None):
        """``(samples, weight total, counts (players, STATS), low boards, square sums or None,
        standard errors or None)``."""
        seated, query, units, progress = self.seated, self.query, self.units, self.progress
        if query.family == plan.Family.FIXED_HANDS:
            prepared = prepare(seated.deal)
            if query.exact:
                sample_count, counts, low_boards = _enumerate(prepared, progress, thread_count)
                return sample_count, sample_count, counts, low_boards, None, None
            sample_count, counts, low_boards, squares = _sample(prepared, query.seed, query.trials, self.precision,
                                                                progress, thread_count)
            return sample_count, sample_count, counts, low_boards, squares, None
        seats = list(seated.seats)
        if query.exact:
            return (*enumerate_range_equity(seats, seated.board, seated.dead, seated.game, units,
                                                         self.weights_by_seat, progress), None, None)
        sampled = sample_range_equity(seats, seated.board, seated.dead, seated.game, units,
                                                     query.seed, query.trials, self.precision, progress)
        counts, low_boards = scaled_counts(sampled, units)
        return sampled.deals, sampled.deals, counts, low_boards, None, sampled.standard_errors(units)


def equity_result(seated: SeatedQuery, query: QueryPlan, units: int, sample_count: int, weight_total: int, counts,
                  low_boards: int, squares=None, errors=None) -> EquityResult:
    """An :class:`EquityResult` from a run's summed counts ``(players, STAT_COUNT)`` int64 (pot
    units), with the Monte Carlo sums of squared shares ``squares (players,)`` or standard
    errors ``errors`` (per player, fractions; weighted range deals) when sampled."""
    rows = counts.tolist()  # Python ints at once, rather than one numpy scalar at a time
    players = tuple(
        PlayerEquity.from_counts(seat.expression, rows[player], units, sample_count, weight_total,
                                 None if squares is None else int(squares[player]), seat.random_card_count(seated.game),
                                 None if errors is None else errors[player])
        for player, seat in enumerate(seated.seats)
    )
    return EquityResult(
        **seated.header_fields(query, sample_count),
        seed=query.seed,
        players=players,
        low_board_count=low_boards,
        weight_total=weight_total,
        hand_combinations=seated.hand_combinations(query, sample_count),
        board_count=seated.board_count,
    )
