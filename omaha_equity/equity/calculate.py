"""``calculate_equity``: the public entry point of the equity calculator.

It validates the deal, prepares per-player lookup rows, picks exact enumeration or Monte
Carlo (see ``plan``), runs the compiled kernels in pieces (reporting progress between them)
and wraps the integer counts into an :class:`EquityResult`.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from math import comb

import numpy as np

from .. import cache
from ..cards import format_cards
from ..deal import CardsLike, Deal, parse_board_and_dead
from ..errors import InputError
from ..evaluate._kernels import build_player_rows, low_rank_bit
from ..evaluate.tables import dealt_board_indexes, load_tables
from ..games import Game, get_game
from ..pots import pot_units
from ..threads import across_threads, run_in_pieces
from ..threads import using_threads as _thread_count
from . import _kernels, plan, range_equity, range_sampling
from ..validate import check_hands, check_run_options
from .players import FIXED, seat_players
from .result import EquityResult, PlayerEquity, standard_error

ProgressCallback = Callable[[int, int], None]


@dataclass(frozen=True)
class _Prepared:
    """Kernel inputs for one deal (arrays as documented in ``_kernels.enumerate_boards``)."""

    deck: np.ndarray
    dealt_count: int
    fixed_suit_masks: np.ndarray
    fixed_low_mask: int
    high_rows: np.ndarray
    flush_rows: np.ndarray
    low_rows: np.ndarray
    colex: np.ndarray
    hilo: bool
    units: int

    def kernel_arguments(self) -> tuple:
        return (self.deck, self.dealt_count, self.fixed_suit_masks, self.fixed_low_mask,
                self.high_rows, self.flush_rows, self.low_rows, self.colex)


@functools.lru_cache(maxsize=8192)
def _dealt_board_indexes(fixed_ranks: tuple[int, ...], dealt_count: int) -> np.ndarray:
    """``tables.dealt_board_indexes``, kept per known-rank multiset (at most 6,188 on the
    river): a batch of small queries meets the same ones again and again. Shared: never
    written to (left writeable so the kernels keep one compiled signature)."""
    return dealt_board_indexes(fixed_ranks, dealt_count, load_tables().colex)


def _prepare(deal: Deal) -> _Prepared:
    tables = load_tables()
    hole_cards = np.array(deal.hands, dtype=np.int8)
    dealt_count = 5 - len(deal.board)
    fixed_ranks = np.array(sorted(card >> 2 for card in deal.board), dtype=np.int32)
    fixed_suit_masks = np.zeros(4, dtype=np.int32)
    fixed_low_mask = 0
    for card in deal.board:
        fixed_suit_masks[card & 3] |= 1 << (card >> 2)
        fixed_low_mask |= low_rank_bit.py_func(card >> 2)  # plain Python: no kernel to load for a bit
    # Rows indexed by the multiset of the dealt ranks alone (one read per board), built only
    # for the boards this deal can reach (one on the river, 91 rank multisets on the flop).
    dealt_indexes = _dealt_board_indexes(tuple(int(rank) for rank in fixed_ranks), dealt_count)
    high_rows, flush_rows, low_rows = build_player_rows(
        hole_cards, dealt_indexes, tables.colex, tables.pair_board, tables.pair_flush, tables.low)
    return _Prepared(
        deck=np.array(deal.undealt_cards, dtype=np.int8),
        dealt_count=dealt_count,
        fixed_suit_masks=fixed_suit_masks,
        fixed_low_mask=fixed_low_mask,
        high_rows=high_rows,
        flush_rows=flush_rows,
        low_rows=low_rows,
        colex=tables.colex,
        hilo=deal.game.hilo,
        units=pot_units(deal.player_count, deal.game.hilo),
    )


@contextmanager
def _threads_for(threads: int | None, work: int):
    """:func:`_thread_count` (``threads`` checked and set), but one thread when the ``work``
    (player-boards) is at most ``plan.SMALL_WORK``: waking a second thread costs more than it
    saves there."""
    with _thread_count(threads):
        if work <= plan.SMALL_WORK:
            with _thread_count(1):
                yield
        else:
            yield


def exact_slices(completions: int, player_count: int) -> int:
    """How many equal slices an exact enumeration of fixed hands is cut into: one for small
    work (a single short call), else ``plan.EXACT_CHUNKS`` (calls of a few slices each)."""
    return 1 if completions * player_count <= plan.SMALL_WORK else plan.EXACT_CHUNKS


def _enumerate(prepared: _Prepared, progress: ProgressCallback | None):
    """Exact enumeration of fixed hands, in short calls (``pieces``): ``(boards, counts
    (players, STATS), low_boards)``. The boards are tallied by outcome and each outcome
    scored once at the end (``_kernels.score_outcomes``)."""
    completions = comb(len(prepared.deck), prepared.dealt_count)
    player_count = prepared.high_rows.shape[0]
    total_slices = exact_slices(completions, player_count)
    outcomes = np.zeros(1 << _kernels.outcome_key_bits(player_count, prepared.hilo), dtype=np.int64)
    has_low = np.zeros(player_count, dtype=np.int64)

    def enumerate_slices(first_slice, slice_count):
        return _kernels.enumerate_boards(*prepared.kernel_arguments(), plan.BINOMIALS, prepared.hilo, first_slice,
                                         slice_count, total_slices)

    def enumerate_across_threads(first_slice, slice_count):
        return across_threads(enumerate_slices, first_slice, slice_count)

    for first_slice, slice_count, (slice_outcomes, slice_has_low) in run_in_pieces(enumerate_across_threads,
                                                                                    total_slices):
        outcomes += slice_outcomes.sum(axis=0)
        has_low += slice_has_low.sum(axis=0)
        if progress is not None:
            progress(completions * (first_slice + slice_count) // total_slices, completions)
    counts, low_boards = _kernels.score_outcomes(outcomes, has_low, prepared.hilo, prepared.units)
    return completions, counts, low_boards


def _fixed_hand_sampler(prepared: _Prepared, seed: int, trials: int):
    """Monte Carlo of fixed hands as a ``(first_chunk, chunk_count)`` callable."""

    def sample(first_chunk: int, chunk_count: int):
        return _kernels.sample_boards(
            *prepared.kernel_arguments(), prepared.hilo, prepared.units, np.uint64(seed),
            first_chunk, chunk_count, plan.CHUNK_SIZE, trials,
        )

    return lambda first_chunk, chunk_count: across_threads(sample, first_chunk, chunk_count)


def _sample(sample_chunks, player_count: int, units: int, trials: int, precision: float | None,
            progress: ProgressCallback | None):
    """Monte Carlo in short calls of whole chunks (``pieces``); with a precision target, stop at
    the first multiple of ``plan.CHUNKS_PER_CALL`` chunks at which every player's standard
    error is below it (the decision depends only on the samples, so it too is the same for any
    thread count and any cutting into calls).

    Returns ``(samples, counts (players, STATS), low_boards, square_sums (players,))``."""
    counts_total = np.zeros((player_count, _kernels.STAT_COUNT), dtype=np.int64)
    squares_total = np.zeros(player_count, dtype=np.int64)
    low_boards = 0
    done = 0
    chunk_total = -(-trials // plan.CHUNK_SIZE)
    for first_chunk, chunk_count, (counts, lows, squares) in run_in_pieces(
            sample_chunks, chunk_total, boundary=plan.CHUNKS_PER_CALL):
        counts_total += counts.sum(axis=0)
        squares_total += squares.sum(axis=0)
        low_boards += int(lows.sum())
        chunks_done = first_chunk + chunk_count
        done = min(trials, chunks_done * plan.CHUNK_SIZE)
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
    hands = check_hands(hands)
    game = get_game(game, die)
    board_cards, dead_cards = parse_board_and_dead(board or "", dead or "")
    trials, precision, seed, threads = check_run_options(trials=trials, precision=precision, seed=seed, threads=threads)
    seats = seat_players(hands, board_cards, dead_cards, game)
    player_count = len(seats)
    units = pot_units(player_count, game.hilo)
    all_fixed = all(seat.kind == FIXED for seat in seats)
    if all_fixed:
        deal = Deal(game, tuple(seat.known_cards for seat in seats), board_cards, dead_cards)
        work = plan.board_completions(len(deal.undealt_cards), len(board_cards)) * player_count
    else:
        work = range_equity.exact_work(seats, board_cards, dead_cards, game)
    chosen = plan.choose_method(method, work, sampling_asked=trials is not None or precision is not None)
    # The fixed-hand exact kernel tallies outcomes (who wins each half) in a table of
    # 2 ** key bits; beyond that (hi/lo with 7 or more players, few boards then) every hand is
    # a list of one for the list kernel, which scores each board.
    by_lists = not all_fixed or (
        chosen == plan.EXACT and _kernels.outcome_key_bits(player_count, game.hilo) > _kernels.OUTCOME_BITS)
    if by_lists and chosen == plan.EXACT:
        weights_by_seat = range_equity.whole_weights(seats, board_cards, dead_cards, game, units)
        if weights_by_seat is None:
            if method == plan.EXACT:
                raise InputError("the range weights are too far apart for exact enumeration (64-bit sums): "
                                 "use Monte Carlo")
            chosen = plan.MONTE_CARLO
    if chosen == plan.MONTE_CARLO and seed is None:
        seed = secrets.randbits(63)
    trials = trials or (plan.DEFAULT_PRECISION_TRIAL_CAP if precision is not None else plan.DEFAULT_TRIALS)
    if not by_lists:
        kernels = ["build_player_rows", "enumerate_boards" if chosen == plan.EXACT else "sample_boards"]
    else:
        kernels = ["enumerate_ranges" if chosen == plan.EXACT else "sample_ranges"]
    cache.announce_compiling(kernels)
    squares = errors = None
    with _threads_for(threads, work if chosen == plan.EXACT else trials * player_count):
        if not by_lists:
            prepared = _prepare(deal)
            if chosen == plan.EXACT:
                sample_count, counts, low_boards = _enumerate(prepared, progress)
            else:
                sampler = _fixed_hand_sampler(prepared, seed, trials)
                sample_count, counts, low_boards, squares = _sample(sampler, player_count, units, trials, precision,
                                                                    progress)
            weight_total = sample_count
        elif chosen == plan.EXACT:
            sample_count, weight_total, counts, low_boards = range_equity.enumerate_range_equity(
                seats, board_cards, dead_cards, game, units, weights_by_seat, progress)
        else:
            run = range_sampling.sample_range_equity(seats, board_cards, dead_cards, game, units, seed, trials,
                                                     precision, progress)
            counts, low_boards = range_sampling.scaled_counts(run, units)
            sample_count = weight_total = run.deals
            errors = run.standard_errors(units)
    cache.mark_in_use()
    players = tuple(
        PlayerEquity.from_counts(seat.expression, counts[player], units, sample_count, weight_total,
                                 None if squares is None else int(squares[player]), seat.random_card_count(game),
                                 None if errors is None else errors[player])
        for player, seat in enumerate(seats)
    )
    board_count = range_equity.board_completions(player_count, board_cards, dead_cards, game)
    return EquityResult(
        game=game,
        hands=tuple(seat.expression for seat in seats),
        board=format_cards(board_cards),
        dead=format_cards(dead_cards, sort=True),
        method=chosen,
        sample_count=sample_count,
        seed=None if chosen == plan.EXACT else seed,
        players=players,
        low_board_count=low_boards,
        weight_total=weight_total,
        hand_combinations=(1 if all_fixed else sample_count // board_count if chosen == plan.EXACT else None),
        board_count=board_count,
    )
