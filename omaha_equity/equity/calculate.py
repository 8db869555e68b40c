"""``calculate_equity``: the public entry point of the equity calculator.

A query goes through four steps, shared with ``allin.calculate_allin`` (which supplies only
what differs): :func:`seat_query` checks and seats the players, ``plan.plan_query`` makes the
:class:`~omaha_equity.equity.plan.QueryPlan` (exact or Monte Carlo, which kernels, the seed,
the threads), :func:`run_plan` runs it (kernels in pieces, progress between them), and the
integer counts are wrapped into an :class:`EquityResult`. :func:`prepare` makes the per-player
lookup rows of fixed hands.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import comb
from typing import TypeVar

import numpy as np

from .. import cache
from ..cards import DECK_SIZE, format_cards
from ..deal import CardsLike, Deal, parse_board_and_dead
from ..errors import InputError
from ..evaluate._kernels import build_player_rows, low_rank_bit
from ..evaluate.tables import dealt_board_indexes, load_tables
from ..games import Game, get_game
from ..pots import pot_units
from . import _kernels, plan, range_equity, range_sampling
from ..validate import check_hands, check_run_options
from .pieces import across_threads, deferred_interrupt, run_in_pieces, threads_to_run, use_threads
from .players import FIXED, Seat, seat_players
from .plan import QueryPlan
from .result import EquityResult, PlayerEquity, standard_error

ProgressCallback = Callable[[int, int], None]
_Output = TypeVar("_Output")


@dataclass(frozen=True)
class SeatedQuery:
    """A query's players seated with the known cards, all checked (:func:`seat_query`).

    Attributes
    ----------
    game : Game
    seats : tuple of Seat
        One per player, in the order given.
    board, dead : tuple of int
        Known board cards (dealing order) and dead cards.
    deal : Deal or None
        The deal when every hand is fixed (the per-hand-row kernels' input), else None.
    """

    game: Game
    seats: tuple[Seat, ...]
    board: tuple[int, ...]
    dead: tuple[int, ...]
    deal: Deal | None

    @property
    def player_count(self) -> int:
        return len(self.seats)

    @property
    def all_fixed(self) -> bool:
        return self.deal is not None

    @property
    def exact_work(self) -> int:
        """Player-boards of an exact enumeration (boards x hand combinations x players)."""
        if self.deal is not None:
            return plan.board_completions(DECK_SIZE - len(self.deal.known_cards), len(self.board)) * len(self.seats)
        return range_equity.exact_work(list(self.seats), self.board, self.dead, self.game)

    @property
    def board_count(self) -> int:
        """Completions of the board once every player holds their cards."""
        return range_equity.board_completions(len(self.seats), self.board, self.dead, self.game)

    @property
    def hands(self) -> tuple[str, ...]:
        """Each player's hole cards (canonical text) or range, as results report them."""
        return tuple(seat.expression for seat in self.seats)

    def hand_combinations(self, query: QueryPlan, sample_count: int) -> int | None:
        """The combinations of hands a run went through: 1 for fixed hands, those enumerated
        exactly, None when sampled (Monte Carlo draws the hands of each deal)."""
        return 1 if self.all_fixed else sample_count // self.board_count if query.exact else None


def seat_query(hands, board: CardsLike, dead: CardsLike, game: str | Game, die: int | None, *, trials=None,
               precision=None, seed=None, threads=None) -> SeatedQuery:
    """Check a query's hands, game, board, dead cards and run options, and seat the players
    (``players.seat_players``: fixed, partial and random hands, ranges expanded).

    Raises
    ------
    InputError
        Anything invalid, the message naming the offending token.
    """
    hands = check_hands(hands)
    game = get_game(game, die)
    board_cards, dead_cards = parse_board_and_dead(board or "", dead or "")
    check_run_options(trials=trials, precision=precision, seed=seed, threads=threads)
    seats = tuple(seat_players(hands, board_cards, dead_cards, game))
    deal = None
    if all(seat.kind == FIXED for seat in seats):
        deal = Deal(game, tuple(seat.known_cards for seat in seats), board_cards, dead_cards)
    return SeatedQuery(game, seats, board_cards, dead_cards, deal)


def run_plan(query: QueryPlan, run: Callable[[int | None], _Output]) -> _Output:
    """Run a planned query: announce a first compile, then ``run(threads)`` with the plan's
    threads, and note the kernel cache in use.

    The fixed-hand kernels run on our own thread pool (``pieces.across_threads``): ``run`` gets
    the thread count to pass down, and numba's setting is left alone (setting and restoring it
    costs a small query a tenth of its time). The hand-list kernels follow numba's setting
    (some are numba parallel loops): it is set around ``run``, which gets None.
    """
    cache.announce_compiling(query.kernels)
    if query.family == plan.FIXED_HANDS:
        output = run(threads_to_run(query.kernel_threads))
    else:
        with use_threads(query.kernel_threads):
            output = run(None)
    cache.mark_in_use()
    return output


@dataclass(frozen=True)
class Prepared:
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


# The low-rank bit of each rank (``evaluate._kernels.low_rank_bit``, run as plain Python: no
# kernel to load for a bit).
_LOW_RANK_BITS = tuple(low_rank_bit.py_func(rank) for rank in range(13))


def prepare(deal: Deal) -> Prepared:
    """The kernel inputs of a deal of fixed hands: the undealt deck, the known board's suit
    masks and low mask, and each player's lookup rows (``evaluate._kernels.build_player_rows``)."""
    tables = load_tables()
    hole_cards = np.array(deal.hands, dtype=np.int8)
    dealt_count = 5 - len(deal.board)
    suit_masks = [0, 0, 0, 0]
    fixed_low_mask = 0
    for card in deal.board:
        suit_masks[card & 3] |= 1 << (card >> 2)
        fixed_low_mask |= _LOW_RANK_BITS[card >> 2]
    # Rows indexed by the multiset of the dealt ranks alone (one read per board), built only
    # for the boards this deal can reach (one on the river, 91 rank multisets on the flop).
    dealt_indexes = _dealt_board_indexes(tuple(sorted(card >> 2 for card in deal.board)), dealt_count)
    high_rows, flush_rows, low_rows = build_player_rows(
        hole_cards, dealt_indexes, tables.colex, tables.pair_board, tables.pair_flush, tables.low)
    return Prepared(
        deck=np.array(deal.undealt_cards, dtype=np.int8),
        dealt_count=dealt_count,
        fixed_suit_masks=np.array(suit_masks, dtype=np.int32),
        fixed_low_mask=fixed_low_mask,
        high_rows=high_rows,
        flush_rows=flush_rows,
        low_rows=low_rows,
        colex=tables.colex,
        hilo=deal.game.hilo,
        units=pot_units(deal.player_count, deal.game.hilo),
    )


def exact_slices(completions: int, player_count: int) -> int:
    """How many equal slices an exact enumeration of fixed hands is cut into: one for small
    work (a single short call), else ``plan.EXACT_CHUNKS`` (calls of a few slices each)."""
    return 1 if completions * player_count <= plan.SMALL_WORK else plan.EXACT_CHUNKS


def _enumerate(prepared: Prepared, progress: ProgressCallback | None, threads: int):
    """Exact enumeration of fixed hands on ``threads`` threads, in short calls (``pieces``):
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
        # one row per slab: one slab from one call, else their sums
        outcomes, has_low = ((outcomes[0], has_low[0]) if outcomes.shape[0] == 1
                             else (outcomes.sum(axis=0), has_low.sum(axis=0)))
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
            first_chunk, chunk_count, plan.CHUNK_SIZE, trials,
        )

    return lambda first_chunk, chunk_count: across_threads(sample, first_chunk, chunk_count, threads=threads)


def _sample(sample_chunks, player_count: int, units: int, trials: int, precision: float | None,
            progress: ProgressCallback | None, threads: int | None = None):
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
            sample_chunks, chunk_total, boundary=plan.CHUNKS_PER_CALL, multiple=threads):
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


def _outcome_table_fits(player_count: int, hilo: bool) -> bool:
    """The fixed-hand exact kernel tallies outcomes (who wins each half) in a table of
    2 ** key bits; beyond ``_kernels.OUTCOME_BITS`` (hi/lo with 7 or more players, few boards
    then) every hand is a list of one for the list kernel, which scores each board."""
    return _kernels.outcome_key_bits(player_count, hilo) <= _kernels.OUTCOME_BITS


def plan_equity(seated: SeatedQuery, method: str = plan.AUTO, *, trials: int | None = None,
                precision: float | None = None, seed: int | None = None, threads: int | None = None,
                units: int | None = None) -> tuple[QueryPlan, list | None]:
    """The plan of an equity query, and the ranges' whole weights when the hand lists are
    enumerated exactly (``range_equity.whole_weights``; None otherwise).

    Raises
    ------
    InputError
        Anything ``plan.plan_query`` refuses; exact enumeration asked for ranges whose weights
        are too far apart for 64-bit sums.
    """
    units = pot_units(seated.player_count, seated.game.hilo) if units is None else units
    weights: list = [None]

    def family(method: str) -> str:
        fits = method != plan.EXACT or _outcome_table_fits(seated.player_count, seated.game.hilo)
        return plan.FIXED_HANDS if seated.all_fixed and fits else plan.HAND_LISTS

    def exact_fits(chosen_family: str) -> bool:
        if chosen_family == plan.FIXED_HANDS:
            return True
        weights[0] = range_equity.whole_weights(list(seated.seats), seated.board, seated.dead, seated.game, units)
        return weights[0] is not None

    query = plan.plan_query(
        method, seated.exact_work, seated.player_count, trials=trials, precision=precision, seed=seed,
        threads=threads, family=family, kernels=_equity_kernels, exact_fits=exact_fits,
        too_large="the range weights are too far apart for exact enumeration (64-bit sums): use Monte Carlo")
    return query, weights[0] if query.exact else None


def _equity_kernels(family: str, method: str) -> tuple[str, ...]:
    if family == plan.FIXED_HANDS:
        return ("build_player_rows", "enumerate_boards" if method == plan.EXACT else "sample_boards")
    return ("enumerate_ranges" if method == plan.EXACT else "sample_ranges",)


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
    seated = seat_query(hands, board, dead, game, die, trials=trials, precision=precision, seed=seed,
                        threads=threads)
    units = pot_units(seated.player_count, seated.game.hilo)
    query, weights_by_seat = plan_equity(seated, method, trials=trials, precision=precision, seed=seed,
                                         threads=threads, units=units)
    squares = errors = None

    def run(thread_count: int | None):
        nonlocal squares, errors
        if query.family == plan.FIXED_HANDS:
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
