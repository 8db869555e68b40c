"""Equity when some player holds a range, a partial hand or a random hand.

Exact enumeration walks every compatible combination of hands times every board completion,
in calls of bounded work (about a quarter of a second, so Ctrl-C and the progress are served
between them): with a flop or less known combination by combination on the fixed-hand
machinery (``_kernels.enumerate_combination_boards``: the hands' rows and
``fixed._kernels.enumerate_boards``, as fast per board as known hands), else on the list kernel
(``_kernels.enumerate_ranges``), faster where each combination has few boards. Monte Carlo is in
``lists.sampling`` (its inputs, for the equity and all-in samplers, in ``lists.inputs``). The work
estimate for the choice is the product of the players' hand counts (partial and random hands
counted as all their completions) times the board completions times the players: an upper
bound, since hands sharing a card are skipped.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb, gcd, lcm, prod

import numpy as np

from ...cards import DECK_SIZE
from ...errors import InputError
from ...games import BOARD_SIZE, Game
from ...runtime import threads as kernel_threads
from .. import plan
from ..drivers import sum_pieces
from ..fixed._kernels import OUTCOME_BITS, outcome_key_bits, score_outcomes
from ..players import DEALT, RANGE, Seat
from . import _kernels
from .inputs import ExactLists, ScoreTables, available_cards

_INT64_SAFE = 2**62


def list_sizes(seats: list[Seat], board, dead, game: Game) -> list[int]:
    """Hands each player may hold: 1 fixed, all completions of a partial/random hand, or the
    range's size (after known cards are removed)."""
    available = len(available_cards(seats, board, dead))
    sizes = []
    for seat in seats:
        if seat.kind == DEALT:
            sizes.append(comb(available, game.hole_count - len(seat.known_cards)))
        else:
            sizes.append(seat.range_size)
    return sizes


def board_completions(player_count: int, board, dead, game: Game) -> int:
    """Completions of the board once every player holds their cards."""
    remaining = DECK_SIZE - player_count * game.hole_count - len(board) - len(dead)
    return comb(remaining, BOARD_SIZE - len(board))


def exact_work(seats, board, dead, game) -> int:
    """Player-boards of an exact enumeration (upper bound: shared cards are not subtracted)."""
    return prod(list_sizes(seats, board, dead, game)) * board_completions(len(seats), board, dead, game) * len(seats)


def whole_weights(seats: list[Seat], board, dead, game: Game, units: int) -> list[np.ndarray] | None:
    """The ranges' relative weights as small whole numbers, one int64 array per seat.

    Each weight is read as the decimal it prints as (``0.1`` is 1/10); a seat's weights are
    scaled by their common denominator and divided by their greatest common divisor (only the
    ratios within a range matter). Returns None when the weighted sums of an exact enumeration
    could overflow 64 bits; Monte Carlo is the way then."""
    sizes = list_sizes(seats, board, dead, game)
    arrays, sums = [], []
    for seat, size in zip(seats, sizes):
        if seat.kind != RANGE or (seat.weights == seat.weights[0]).all():
            arrays.append(np.ones(seat.range_size if seat.kind == RANGE else 0, dtype=np.int64))
            sums.append(size)
            continue
        fractions = [Fraction(repr(float(weight))) for weight in seat.weights]
        scale = lcm(*{weight.denominator for weight in fractions})
        scaled = [int(weight * scale) for weight in fractions]
        divisor = gcd(*scaled)
        scaled = [weight // divisor for weight in scaled]
        if max(scaled) >= _INT64_SAFE:
            return None
        arrays.append(np.array(scaled, dtype=np.int64))
        sums.append(sum(scaled))
    if prod(sums) * board_completions(len(seats), board, dead, game) * units >= _INT64_SAFE:
        return None
    return arrays


# An exact enumeration unit (one choice of hands for the first lists, see
# ``_kernels.enumerate_ranges``) is at most this many player-boards when the lists allow
# it, about 40 ms on one thread; calls are sized to take about ``threads.LIST_CALL_SECONDS``.
UNIT_WORK = 2_000_000


def _prefix_count(sizes: list[int], completions: int, player_count: int) -> int:
    """Lists fixed per unit: the fewest whose remaining work fits ``UNIT_WORK`` (all if none)."""
    for prefix_count in range(1, len(sizes) + 1):
        if prod(sizes[prefix_count:]) * completions * player_count <= UNIT_WORK:
            return prefix_count
    return len(sizes)


# Exact enumeration by combination (``_kernels.enumerate_combination_boards``): each
# combination's completions are cut into slices of about SLICE_WORK player-boards (a unit of
# work: heads-up preflop, 2.2 M player-boards, is 5 units), so two threads share even a single
# combination; the first call runs about FIRST_CALL_WORK player-boards, later ones are sized
# from its speed.
SLICE_WORK = 500_000
FIRST_CALL_WORK = 4_000_000
# The fixed-hand machinery pays for rows per combination (about 0.1 ms a hand): worth it with a
# flop or less known (990 boards or more per combination); on the turn and river the list
# kernel, which evaluates each hand on each board, is faster.
BY_COMBINATION_MAX_BOARD = 3


def by_combination(player_count: int, board, game: Game) -> bool:
    """Whether an exact enumeration over ranges runs combination by combination on the
    fixed-hand kernel (:func:`enumerate_range_equity`): a flop or less known, and outcome keys
    that fit the fixed-hand kernel's tally (``fixed._kernels.OUTCOME_BITS``)."""
    return (len(board) <= BY_COMBINATION_MAX_BOARD
            and outcome_key_bits(player_count, game.hilo) <= OUTCOME_BITS)


def exact_rate(seats: list[Seat], board, game: Game) -> int:
    """Player-boards a second (two threads) of the exact kernel that would run for these
    players (:func:`by_combination`): ``plan.EXACT_RATE`` for the fixed-hand machinery, else
    the list kernel's, ``plan.RIVER_LIST_EXACT_RATE`` on the river (one board per combination
    of hands) and ``plan.LIST_EXACT_RATE`` before it."""
    if by_combination(len(seats), board, game):
        return plan.EXACT_RATE
    return plan.RIVER_LIST_EXACT_RATE if len(board) == BOARD_SIZE else plan.LIST_EXACT_RATE


def enumerate_range_equity(seats: list[Seat], board, dead, game: Game, units: int, weights_by_seat, progress=None):
    """Exact enumeration, with ``weights_by_seat`` from :func:`whole_weights`, in calls of
    bounded work; ``progress(done, total)`` gets deals (an upper bound: combinations of hands
    x board completions, before shared cards are skipped) after each call. With a flop or less
    known, combination by combination on the fixed-hand kernel (:func:`by_combination`), else
    on the list kernel; both give the same counts.

    Returns ``(deal_count, weight_total, counts (players, STATS), low_weight)``.

    Raises
    ------
    InputError
        No combination of the players' hands is card-disjoint; work beyond 64-bit counting.
    """
    lists = ExactLists(seats, board, dead, game, weights_by_seat)
    sizes = [int(lists.offsets[position + 1] - lists.offsets[position]) for position in range(len(seats))]
    completions = board_completions(len(seats), board, dead, game)
    if prod(sizes) * completions >= _INT64_SAFE:
        raise InputError(f"exact enumeration of about {prod(sizes) * completions:.2e} deals is beyond 64-bit "
                         "counting: use Monte Carlo")
    if by_combination(len(seats), board, game):
        deal_count, weight_total, counts, low_weight = _enumerate_by_combination(
            lists, sizes, completions, game, units, progress)
    else:
        deal_count, weight_total, counts, low_weight = _enumerate_by_lists(
            lists, sizes, completions, game, units, progress)
    if weight_total == 0:
        raise InputError("no deal is possible: every combination of the players' hands shares a card")
    by_player = np.empty_like(counts)
    for position, player in enumerate(lists.order):
        by_player[player] = counts[position]
    return deal_count, weight_total, by_player, low_weight


def _enumerate_by_combination(lists: ExactLists, sizes: list[int], completions: int, game: Game, units: int,
                              progress):
    """:func:`enumerate_range_equity` on ``_kernels.enumerate_combination_boards``: the
    weighted outcome tallies of every combination, scored once at the end
    (``fixed._kernels.score_outcomes``). Counts in list order."""
    tables = ScoreTables.of(game, pair_flush=True)
    player_count = len(sizes)
    slice_count = max(1, -(-completions * player_count // SLICE_WORK))
    unit_total = prod(sizes) * slice_count
    unit_deals = completions / slice_count
    (outcomes, has_low, weight_total, deal_count), _ = _list_sums(
        lambda first, count: _kernels.enumerate_combination_boards(
            *lists.kernel_arguments(), *tables.kernel_arguments(), plan.BINOMIALS, slice_count, first, count),
        unit_total, max(1, int(FIRST_CALL_WORK // (unit_deals * player_count))),
        None if progress is None else lambda done: progress(done * completions // slice_count,
                                                            prod(sizes) * completions))
    counts, low_weight = score_outcomes(outcomes, has_low, game.hilo, units)
    return int(deal_count), int(weight_total), counts, low_weight


def _enumerate_by_lists(lists: ExactLists, sizes: list[int], completions: int, game: Game, units: int, progress):
    """:func:`enumerate_range_equity` on ``_kernels.enumerate_ranges``, which evaluates
    every hand on every board. Counts in list order."""
    tables = ScoreTables.of(game)
    prefix_count = _prefix_count(sizes, completions, len(sizes))
    unit_total = prod(sizes[:prefix_count])
    unit_deals = prod(sizes[prefix_count:]) * completions
    (counts, low_weight, weight_total, deal_count), _ = _list_sums(
        lambda first, count: _kernels.enumerate_ranges(
            *lists.kernel_arguments(), *tables.kernel_arguments(), plan.BINOMIALS, units, prefix_count, first, count,
            1),
        unit_total, max(1, UNIT_WORK // max(1, unit_deals * len(sizes))),
        None if progress is None else lambda done: progress(done * unit_deals, unit_total * unit_deals))
    return int(deal_count), int(weight_total), counts, int(low_weight)


def _list_sums(call, unit_total: int, first_count: int, report):
    """``drivers.sum_pieces`` for the hand-list kernels: uneven work, the first call of
    ``first_count`` units, later ones of about ``threads.LIST_CALL_SECONDS`` by the last call's
    speed (at most 4 times the last), any count of units (not a multiple of the threads)."""
    return sum_pieces(call, unit_total, uneven=True, multiple=1, first=first_count,
                      seconds=kernel_threads.LIST_CALL_SECONDS, growth=4, from_last_call=True, report=report)
