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
from fractions import Fraction
from math import comb

import numba
import numpy as np

from .. import cache
from ..cards import format_cards
from ..deal import CardsLike, Deal, parse_board_and_dead
from ..errors import InputError
from ..evaluate._kernels import build_player_rows, low_rank_bit
from ..evaluate.tables import load_tables
from ..games import Game, get_game
from ..pots import pot_units
from . import _kernels, plan, range_equity
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
    """``_kernels.dealt_board_indexes``, kept per known-rank multiset (at most 6,188 on the
    river): a batch of small queries meets the same ones again and again. Shared: never
    written to (left writeable so the kernels keep one compiled signature)."""
    return _kernels.dealt_board_indexes(np.array(fixed_ranks, dtype=np.int32), dealt_count, load_tables().colex)


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
        hole_cards, dealt_indexes, fixed_suit_masks, dealt_count, tables.colex, tables.pair_board, tables.flush,
        tables.low,
    )
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
def _thread_count(threads: int | None):
    """Run with ``threads`` numba threads, restoring the previous setting afterwards."""
    if threads is None:
        yield
        return
    available = numba.config.NUMBA_NUM_THREADS
    if not 1 <= threads <= available:
        raise InputError(f"bad threads {threads}: expected 1..{available} on this machine")
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(previous)


def _enumerate(prepared: _Prepared, progress: ProgressCallback | None):
    """Exact enumeration of fixed hands: ``(boards, counts (players, STATS), low_boards)``."""
    completions = comb(len(prepared.deck), prepared.dealt_count)
    counts_total = np.zeros((prepared.high_rows.shape[0], _kernels.STAT_COUNT), dtype=np.int64)
    low_boards = 0
    for first_chunk in range(0, plan.EXACT_CHUNKS, plan.EXACT_CHUNKS_PER_CALL):
        counts, lows = _kernels.enumerate_boards(
            *prepared.kernel_arguments(), plan.BINOMIALS, prepared.hilo, prepared.units,
            first_chunk, plan.EXACT_CHUNKS_PER_CALL, plan.EXACT_CHUNKS,
        )
        counts_total += counts.sum(axis=0)
        low_boards += int(lows.sum())
        if progress is not None:
            done_chunks = first_chunk + plan.EXACT_CHUNKS_PER_CALL
            progress(completions * done_chunks // plan.EXACT_CHUNKS, completions)
    return completions, counts_total, low_boards


def _fixed_hand_sampler(prepared: _Prepared, seed: int, trials: int):
    """Monte Carlo of fixed hands as a ``(first_chunk, chunk_count)`` callable."""

    def sample(first_chunk: int, chunk_count: int):
        return _kernels.sample_boards(
            *prepared.kernel_arguments(), prepared.hilo, prepared.units, np.uint64(seed),
            first_chunk, chunk_count, plan.CHUNK_SIZE, trials,
        )

    return sample


def _sample(sample_chunks, player_count: int, units: int, trials: int, precision: float | None,
            progress: ProgressCallback | None):
    """Monte Carlo in calls of CHUNKS_PER_CALL chunks; with a precision target, stop after
    the first call at which every player's standard error is below it (the decision depends
    only on the samples, so it too is the same for any thread count).

    Returns ``(samples, counts (players, STATS), low_boards, square_sums (players,))``."""
    counts_total = np.zeros((player_count, _kernels.STAT_COUNT), dtype=np.int64)
    squares_total = np.zeros(player_count, dtype=np.int64)
    low_boards = 0
    done = 0
    chunk_total = -(-trials // plan.CHUNK_SIZE)
    for first_chunk in range(0, chunk_total, plan.CHUNKS_PER_CALL):
        chunk_count = min(plan.CHUNKS_PER_CALL, chunk_total - first_chunk)
        counts, lows, squares = sample_chunks(first_chunk, chunk_count)
        counts_total += counts.sum(axis=0)
        squares_total += squares.sum(axis=0)
        low_boards += int(lows.sum())
        done = min(trials, (first_chunk + chunk_count) * plan.CHUNK_SIZE)
        if progress is not None:
            progress(done, trials)
        if precision is not None:
            errors = [
                standard_error(int(counts_total[p, _kernels.EQUITY]), int(squares_total[p]), done, units)
                for p in range(player_count)
            ]
            if max(errors) * 100 < precision:
                break
    return done, counts_total, low_boards, squares_total


def _player_result(hand: str, counts_row, units: int, sample_count: int, weight_total: int, squares) -> PlayerEquity:
    row = [int(value) for value in counts_row]
    share_sum = row[_kernels.EQUITY]
    exact = squares is None
    return PlayerEquity(
        hand=hand,
        equity=share_sum / units / weight_total,
        equity_fraction=Fraction(share_sum, units * weight_total) if exact else None,
        standard_error=0.0 if exact else standard_error(share_sum, int(squares), sample_count, units),
        sample_count=sample_count,
        weight_total=weight_total,
        win_count=row[_kernels.WIN],
        tie_count=row[_kernels.TIE],
        hi_win_count=row[_kernels.HI_WIN],
        hi_tie_count=row[_kernels.HI_TIE],
        lo_win_count=row[_kernels.LO_WIN],
        lo_tie_count=row[_kernels.LO_TIE],
        quartered_count=row[_kernels.QUARTERED],
        has_low_count=row[_kernels.HAS_LOW],
    )


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
        percentage points.
    seed : int, optional
        Monte Carlo seed (0..2**64-1); a random one is drawn and reported when omitted. The
        same seed gives the same numbers for any thread count.
    threads : int, optional
        Worker threads (default: numba's, one per core).
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
    if isinstance(hands, str) or not all(isinstance(hand, (str, list, tuple)) for hand in hands):
        raise InputError(f"expected a list of hands, one per player (e.g. ['AsAhKsKh', 'JdTd9c8c']), got {hands!r}")
    game = get_game(game, die)
    board_cards, dead_cards = parse_board_and_dead(board or "", dead or "")
    plan.check_sampling_options(trials, precision)
    if seed is not None and (not isinstance(seed, int) or not 0 <= seed < 2**64):
        raise InputError(f"bad seed {seed!r}: expected a whole number 0..2**64-1")
    seats = seat_players(list(hands), board_cards, dead_cards, game)
    player_count = len(seats)
    units = pot_units(player_count, game.hilo)
    all_fixed = all(seat.kind == FIXED for seat in seats)
    if all_fixed:
        deal = Deal(game, tuple(seat.known_cards for seat in seats), board_cards, dead_cards)
        work = plan.board_completions(len(deal.undealt_cards), len(board_cards)) * player_count
    else:
        work = range_equity.exact_work(seats, board_cards, dead_cards, game)
    chosen = plan.choose_method(method, work, sampling_asked=trials is not None or precision is not None)
    if not all_fixed and chosen == plan.EXACT:
        weights_by_seat = range_equity.whole_weights(seats, board_cards, dead_cards, game, units)
        if weights_by_seat is None:
            if method == plan.EXACT:
                raise InputError("the range weights are too far apart for exact enumeration (64-bit sums): "
                                 "use Monte Carlo")
            chosen = plan.MONTE_CARLO
    if chosen == plan.MONTE_CARLO and seed is None:
        seed = secrets.randbits(63)
    trials = trials or (plan.DEFAULT_PRECISION_TRIAL_CAP if precision is not None else plan.DEFAULT_TRIALS)
    if all_fixed:
        kernels = ["build_player_rows", "dealt_board_indexes", "enumerate_boards" if chosen == plan.EXACT else "sample_boards"]
    else:
        kernels = ["enumerate_ranges" if chosen == plan.EXACT else "sample_ranges"]
    cache.announce_compiling(kernels)
    squares = None
    with _thread_count(threads):
        if all_fixed:
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
            sampler = range_equity.RangeSampler(seats, board_cards, dead_cards, game, units, seed, trials)
            sample_count, counts, low_boards, squares = _sample(sampler, player_count, units, trials, precision,
                                                                progress)
            weight_total = sample_count
    cache.mark_in_use()
    players = tuple(
        _player_result(seat.expression, counts[player], units, sample_count, weight_total,
                       None if squares is None else squares[player])
        for player, seat in enumerate(seats)
    )
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
    )
