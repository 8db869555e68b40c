"""``calculate_equity``: the public entry point of the equity calculator.

A query goes through the steps it shares with ``allin.calculate_allin`` (``query``): seated
(``query.seat_query``), planned (:func:`plan_equity`: exact or Monte Carlo, which kernels, the
seed, the threads), run (``query.run_plan``: kernels in pieces, progress between them); then
the integer counts are wrapped into an :class:`EquityResult` (:func:`equity_result`).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

import numpy as np

from ..cards import format_cards
from ..deal import CardsLike
from ..games import Game
from ..pots import pot_units
from ..runtime.threads import across_threads, deferred_interrupt, run_in_pieces
from . import _kernels, plan, range_equity, range_sampling
from .fixed_hands import Prepared, exact_slices, prepare
from .plan import Family, Method, QueryPlan
from .query import ProgressCallback, RunOptions, SeatedQuery, run_plan, seat_query
from .results.equity import EquityResult, PlayerEquity, standard_error


def _enumerate(prepared: Prepared, progress: ProgressCallback | None, threads: int | None = None):
    """Exact enumeration of fixed hands on ``threads`` threads (None: numba's setting), in short
    calls (``threads.run_in_pieces``):
    ``(boards, counts (players, STATS), low_boards)``. The boards are tallied by outcome and
    each outcome scored once at the end (``_kernels.score_outcomes``)."""
    completions = comb(len(prepared.deck), prepared.dealt_count)
    player_count = prepared.high_rows.shape[0]
    total_slices = exact_slices(completions, player_count)

    def enumerate_slices(first_slice, slice_count):
        return _kernels.enumerate_boards(*prepared.kernel_arguments(), plan.BINOMIALS, prepared.hilo, first_slice,
                                         slice_count, total_slices)

    if total_slices == 1:
        # small work (a river, a turn): one call on this thread, no pieces to size
        with deferred_interrupt():
            outcomes, has_low = enumerate_slices(0, 1)
        if progress is not None:
            progress(completions, completions)
        outcomes, has_low = outcomes[0], has_low[0]  # one call of one slice: one row
        counts, low_boards = _kernels.score_outcomes(outcomes, has_low, prepared.hilo, prepared.units)
        return completions, counts, low_boards
    outcomes = np.zeros(1 << _kernels.outcome_key_bits(player_count, prepared.hilo), dtype=np.int64)
    has_low = np.zeros(player_count, dtype=np.int64)

    def enumerate_across_threads(first_slice, slice_count):
        return across_threads(enumerate_slices, first_slice, slice_count, threads=threads)

    for first_slice, slice_count, (slice_outcomes, slice_has_low) in run_in_pieces(
            enumerate_across_threads, total_slices, multiple=threads):
        outcomes += slice_outcomes.sum(axis=0)
        has_low += slice_has_low.sum(axis=0)
        if progress is not None:
            progress(completions * (first_slice + slice_count) // total_slices, completions)
    counts, low_boards = _kernels.score_outcomes(outcomes, has_low, prepared.hilo, prepared.units)
    return completions, counts, low_boards


def _fixed_hand_sampler(prepared: Prepared, seed: int, trials: int, threads: int):
    """Monte Carlo of fixed hands as a ``(first_chunk, chunk_count)`` callable."""

    def sample(first_chunk: int, chunk_count: int):
        return _kernels.sample_boards(
            *prepared.kernel_arguments(), prepared.hilo, prepared.units, np.uint64(seed),
            first_chunk, chunk_count, plan.DEALS_PER_CHUNK, trials,
        )

    return lambda first_chunk, chunk_count: across_threads(sample, first_chunk, chunk_count, threads=threads)


def _sample(sample_chunks, player_count: int, units: int, trials: int, precision: float | None,
            progress: ProgressCallback | None, threads: int | None = None):
    """Monte Carlo in short calls of whole chunks (``threads.run_in_pieces``); with a precision target, stop at
    the first multiple of ``plan.CHUNKS_PER_CALL`` chunks at which every player's standard
    error is below it (the decision depends only on the samples, so it too is the same for any
    thread count and any cutting into calls).

    Returns ``(samples, counts (players, STATS), low_boards, square_sums (players,))``."""
    counts_total = np.zeros((player_count, _kernels.STAT_COUNT), dtype=np.int64)
    squares_total = np.zeros(player_count, dtype=np.int64)
    low_boards = 0
    done = 0
    chunk_total = -(-trials // plan.DEALS_PER_CHUNK)
    for first_chunk, chunk_count, (counts, lows, squares) in run_in_pieces(
            sample_chunks, chunk_total, boundary=plan.CHUNKS_PER_CALL, multiple=threads):
        counts_total += counts.sum(axis=0)
        squares_total += squares.sum(axis=0)
        low_boards += int(lows.sum())
        chunks_done = first_chunk + chunk_count
        done = min(trials, chunks_done * plan.DEALS_PER_CHUNK)
        if progress is not None:
            progress(done, trials)
        if precision is not None and (chunks_done % plan.CHUNKS_PER_CALL == 0 or chunks_done == chunk_total):
            errors = [
                standard_error(int(counts_total[p, _kernels.EQUITY]), int(squares_total[p]), done, units)
                for p in range(player_count)
            ]
            if None not in errors and max(errors) * 100 < precision:
                break
    return done, counts_total, low_boards, squares_total


def _outcome_table_fits(player_count: int, hilo: bool) -> bool:
    """The fixed-hand exact kernel tallies outcomes (who wins each half) in a table of
    2 ** key bits; beyond ``_kernels.OUTCOME_BITS`` (hi/lo with 7 or more players, few boards
    then) every hand is a list of one for the list kernel, which scores each board."""
    return _kernels.outcome_key_bits(player_count, hilo) <= _kernels.OUTCOME_BITS


def plan_equity(seated: SeatedQuery, options: RunOptions = RunOptions(),
                units: int | None = None) -> tuple[QueryPlan, list | None]:
    """The plan of an equity query, and the ranges' whole weights when the hand lists are
    enumerated exactly (``range_equity.whole_weights``; None otherwise).

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
        weights = range_equity.whole_weights(list(seated.seats), seated.board, seated.dead, seated.game, units)
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
    hands: Sequence[CardsLike],
    board: CardsLike = "",
    dead: CardsLike = "",
    game: str | Game = "omaha",
    *,
    die: int | None = None,
    method: str = "auto",
    trials: int | None = None,
    precision: float | None = None,
    seed: int | None = None,
    threads: int | None = None,
    progress: ProgressCallback | None = None,
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

    Returns
    -------
    EquityResult
        Per-player fractions 0..1 (exact fractions too when enumerated).

    Raises
    ------
    InputError
        Any invalid card, deal, game or option (the message names the offending token).
    """
    options = RunOptions.checked(method, trials=trials, precision=precision, seed=seed, threads=threads)
    return run_equity(seat_query(hands, board, dead, game, die), options, progress)


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
    precision = options.precision
    squares = errors = None

    def run(thread_count: int | None):
        nonlocal squares, errors
        if query.family == plan.Family.FIXED_HANDS:
            prepared = prepare(seated.deal)
            if query.exact:
                sample_count, counts, low_boards = _enumerate(prepared, progress, thread_count)
            else:
                sampler = _fixed_hand_sampler(prepared, query.seed, query.trials, thread_count)
                sample_count, counts, low_boards, squares = _sample(
                    sampler, query.player_count, units, query.trials, precision, progress, thread_count)
            return sample_count, sample_count, counts, low_boards
        seats = list(seated.seats)
        if query.exact:
            return range_equity.enumerate_range_equity(seats, seated.board, seated.dead, seated.game, units,
                                                       weights_by_seat, progress)
        sampled = range_sampling.sample_range_equity(seats, seated.board, seated.dead, seated.game, units,
                                                     query.seed, query.trials, precision, progress)
        counts, low_boards = range_sampling.scaled_counts(sampled, units)
        errors = sampled.standard_errors(units)
        return sampled.deals, sampled.deals, counts, low_boards

    sample_count, weight_total, counts, low_boards = run_plan(query, run)
    return equity_result(seated, query, units, sample_count, weight_total, counts, low_boards, squares, errors)


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
        game=seated.game,
        hands=seated.hands,
        board=format_cards(seated.board),
        dead=format_cards(seated.dead, sort=True),
        method=query.method,
        sample_count=sample_count,
        seed=query.seed,
        players=players,
        low_board_count=low_boards,
        weight_total=weight_total,
        hand_combinations=seated.hand_combinations(query, sample_count),
        board_count=seated.board_count,
    )
