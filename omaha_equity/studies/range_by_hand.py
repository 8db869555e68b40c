"""Every hand of a range against another range, heads-up: each hand's equity with card removal
(the opponent's hands that share a card with it are dropped and the rest re-weighted), the
summary in equity buckets, and the hands kept by an equity filter.

The work is one pass per complete board (``_range_kernels``: every hand of both ranges
evaluated once, the opponent's sorted, card removal by inclusion-exclusion): on the river one
board; on the turn every river (up to 48 boards); on the flop every turn and river (up to 1,176)
when affordable (``plan.choose_method`` at ``RANGE_BY_HAND_RATE``), else ``trials`` sampled
completions, each scored exactly against the whole opponent range; preflop always sampled.

A hand's equity is its pot share summed over every opponent hand and completion that share no
card with it, each weighted by the opponent hand's range weight, over the weight faced. Its
weight in the distribution is its range weight times the weight it faces (the deals it takes
part in), so the weighted mean of the hands' equities is the range's equity against the other
range, exactly what :func:`~omaha_equity.calculate_equity` gives for the two ranges.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb, sqrt

import numpy as np

from ..equity import plan
from ..equity.lists import exact as range_equity
from ..equity.lists.inputs import ScoreTables, available_cards, hand_masks, seat_hand_list
from ..equity.plan import Method
from ..equity.players import RANGE
from ..equity.query import RunOptions, SeatedQuery
from ..errors import InputError
from ..games import BOARD_SIZE
from ..pots import pot_units
from ..runtime import cache
from ..runtime.cache import read_only
from ..runtime.threads import across_threads, thread_count, use_threads
from . import seat_lists
from .memory import NARROWER_RANGE, check_study_memory

# Hands scored a second by ``_range_kernels.score_completions`` per complete board, both ranges
# counted, the rate ``plan.choose_method`` weighs a flop's completions at. 15% against 15% of
# Omaha on a turn (44 rivers x 60,678 hands) took 4.0 s of CPU on two threads, on 2 cores under
# a load of 9 (2026-12-06): about 1.3 million a second of wall time on two free cores.
RANGE_BY_HAND_RATE = 1_500_000
# Monte Carlo board completions when enumerating them all is over the work budget and trials
# are not given. Each completion is scored exactly against the whole opponent range, so a hand's
# standard error is the spread of its equity across completions (about 0.3) over the square root
# of the completions it takes part in: about 1.5 points at 400.
RANGE_DEFAULT_TRIALS = 400
# Completions are cut into this many chunks whatever the thread count: each chunk's sums are its
# own row, added in chunk order, so the Monte Carlo error (floating point) does not depend on the
# threads.
COMPLETION_CHUNKS = 16
# What the pass holds per hand of the first range: a chunk row of three int64 and three float64
# per chunk, and the item built from it (label, Fraction, floats, about 600 bytes).
RANGE_BY_HAND_BYTES_PER_HAND = COMPLETION_CHUNKS * 48 + 700


def opponent_bytes_per_hand(hole_count: int, thread_count: int) -> int:
    """What the pass holds per hand of the opponent's range: each thread's sorted lists (a place
    and a running weight, 16 bytes, per card and per pair of cards of each hand) and values,
    and, once, the hands, their features and three-card lists (counted from the arrays'
    dtypes: 4-card Omaha on two threads, about 500 bytes)."""
    pair_count = hole_count * (hole_count - 1) // 2
    triple_count = pair_count * (hole_count - 2) // 3
    per_thread = 16 * (hole_count + pair_count) + 40
    shared = hole_count + 4 * pair_count + 16 + 8 + 8 + 8 + 4 * triple_count
    return per_thread * thread_count + shared


@dataclass(frozen=True)
class RangeByHand:
    """The kernels' sums for each hand of the first range against the second range.

    Attributes
    ----------
    hands : (n, hole_count) int8
        The first range's hands (its seat's hand list order).
    hand_weights : (n,) int64
        Their whole range weights (``equity.lists.exact.whole_weights``: only ratios matter).
    share_sums : (n,) int64
        Pot shares (pot units) summed over the opponent hands and completions faced, each times
        the opponent hand's whole weight.
    faced_sums : (n,) int64
        The opponent weight faced, summed over the completions.
    board_counts : (n,) int64
        Completions scored per hand (those holding none of its cards).
    moments : (n, 3) float64
        Sums over the completions of the share sum squared, the faced weight squared and their
        product (Monte Carlo error; unused when exact).
    method : Method
    seed : int or None
    trials : int or None
        Monte Carlo completions sampled (None when exact).
    units : int
        Pot units (``pots.pot_units``: 2, or 4 for hi/lo).
    exact_weights : bool
        Whether the whole weights are the ranges' weights exactly (False when they had to be
        rounded: then no result is given as an exact fraction).
    """

    hands: np.ndarray
    hand_weights: np.ndarray
    share_sums: np.ndarray
    faced_sums: np.ndarray
    board_counts: np.ndarray
    moments: np.ndarray
    method: Method
    seed: int | None
    trials: int | None
    units: int
    exact_weights: bool

    def equity_fraction(self, index: int) -> Fraction:
        """Hand ``index``'s equity as an exact fraction (needs ``faced_sums[index] > 0``)."""
        return Fraction(int(self.share_sums[index]), self.units * int(self.faced_sums[index]))

    def mean_fraction(self) -> Fraction:
        """The range's equity against the other range: the hands' equities weighted by range
        weight times the weight faced."""
        numerator = sum(int(weight) * int(share) for weight, share in zip(self.hand_weights, self.share_sums))
        denominator = sum(int(weight) * int(faced) for weight, faced in zip(self.hand_weights, self.faced_sums))
        return Fraction(numerator, self.units * denominator)

    def standard_error(self, index: int) -> float:
        """Monte Carlo standard error of hand ``index``'s equity (the ratio of two sample sums,
        by the delta method); 0.0 when exact, nan from fewer than 2 completions."""
        if self.method == Method.EXACT:
            return 0.0
        count = int(self.board_counts[index])
        if count < 2 or self.faced_sums[index] == 0:
            return float("nan")
        share_sum, faced_sum = float(self.share_sums[index]), float(self.faced_sums[index])
        ratio = share_sum / faced_sum
        square_share, square_faced, product = (float(value) for value in self.moments[index])
        residual = max(square_share - 2 * ratio * product + ratio * ratio * square_faced, 0.0)
        mean_faced = faced_sum / count
        return sqrt(residual / (count * (count - 1))) / mean_faced / self.units


def completion_count(seated: SeatedQuery) -> int:
    """Board completions from the cards nobody is known to hold."""
    available = available_cards(list(seated.seats), seated.board, seated.dead)
    return comb(len(available), BOARD_SIZE - len(seated.board))


def range_by_hand(seated: SeatedQuery, options: RunOptions) -> RangeByHand:
    """Each hand of the first seat's range (or every hand of a partial or random hand) against
    the second seat, heads-up, with card removal per hand.

    Raises
    ------
    InputError
        Not two seats; anything the method choice refuses (exact beyond the ceiling, trials
        with exact enumeration); more hands than the memory budget allows, before any work.
    """
    seats, board_cards, dead_cards, game = list(seated.seats), seated.board, seated.dead, seated.game
    if len(seats) != 2:
        raise InputError(f"a range's equity hand by hand is heads-up: expected 2 players, got {len(seats)}")
    available = available_cards(seats, board_cards, dead_cards)
    known = set(board_cards) | set(dead_cards)
    lists = [_live(seat_hand_list(seat, available, game.hole_count), known) for seat in seats]
    check_study_memory("a range's equity hand by hand", lists[0][0].shape[0], RANGE_BY_HAND_BYTES_PER_HAND,
                       NARROWER_RANGE)
    with use_threads(options.threads):
        threads = thread_count()
    check_study_memory("a range's equity hand by hand against a range", lists[1][0].shape[0],
                       opponent_bytes_per_hand(game.hole_count, threads), NARROWER_RANGE)
    units = pot_units(2, game.hilo)
    weights, exact_weights = _whole_weights(seats, lists, board_cards, dead_cards, game, units)
    dealt_count = BOARD_SIZE - len(board_cards)
    completions_total = comb(len(available), dealt_count)
    work = completions_total * (lists[0][0].shape[0] + lists[1][0].shape[0])
    if options.method == Method.AUTO and options.trials is None and completions_total <= RANGE_DEFAULT_TRIALS:
        chosen = Method.EXACT  # sampling more completions than there are would be slower than exact
    else:
        chosen = options.choose_method(work, RANGE_BY_HAND_RATE)
    seed = None
    trials = None
    if chosen == Method.EXACT:
        completions = np.array(list(combinations(available, dealt_count)), dtype=np.int8)
        completions = completions.reshape(completions.shape[0], dealt_count)
    else:
        seed = plan.draw_seed() if options.seed is None else options.seed
        trials = options.trials or RANGE_DEFAULT_TRIALS
        completions = _sampled_completions(available, dealt_count, trials, seed)
    hands = _descending(lists[0][0])
    opponent_hands = _descending(lists[1][0])
    scoring = ScoreTables.of(game)
    cache.announce_compiling(["hole_feature_arrays", "subset_lists", "score_completions"])
    from . import _range_kernels  # imports numba: loaded only when a study runs

    hand_features = _range_kernels.hole_feature_arrays(hands, scoring.colex)
    opponent_features = _range_kernels.hole_feature_arrays(opponent_hands, scoring.colex)
    lists_of_opponent = _range_kernels.subset_lists(opponent_hands)
    chunk_count = max(1, min(COMPLETION_CHUNKS, completions.shape[0]))
    bounds = np.array([completions.shape[0] * chunk // chunk_count for chunk in range(chunk_count + 1)],
                      dtype=np.int64)
    arguments = (read_only(completions), np.array(board_cards, dtype=np.int8), read_only(hands),
                 hand_masks(hands), *hand_features, read_only(opponent_hands), hand_masks(opponent_hands),
                 weights[1], *opponent_features, *lists_of_opponent, *scoring.kernel_arguments())
    with use_threads(options.threads):
        share_rows, faced_rows, count_rows, moment_rows = across_threads(
            lambda first, count: _range_kernels.score_completions(
                arguments[0], bounds[first:first + count + 1], *arguments[1:]),
            0, chunk_count, uneven=True, threads=options.threads)
    cache.mark_in_use()
    return RangeByHand(hands=lists[0][0], hand_weights=weights[0], share_sums=share_rows.sum(axis=0),
                       faced_sums=faced_rows.sum(axis=0), board_counts=count_rows.sum(axis=0),
                       moments=moment_rows.sum(axis=0), method=chosen, seed=seed, trials=trials, units=units,
                       exact_weights=exact_weights)


def _live(hands: np.ndarray, known: set[int]) -> tuple[np.ndarray, np.ndarray]:
    """The hands holding no known card, and their places in the list."""
    if not known:
        return hands, np.arange(hands.shape[0])
    mask = np.zeros(hands.shape[0], dtype=bool)
    for card in known:
        mask |= (hands == card).any(axis=1)
    places = np.flatnonzero(~mask)
    return hands[places], places


def _descending(hands: np.ndarray) -> np.ndarray:
    """Cards descending within each hand, contiguous int8 (the kernels' card-subset keys)."""
    return np.ascontiguousarray(-np.sort(-hands.astype(np.int16), axis=1), dtype=np.int8)


# Whole weights far below 2**63, so that a hand's sums over every opponent hand and completion
# stay exact: weights are rounded to this scale when a range's weights are too fine to be whole.
_ROUNDED_WEIGHT_SCALE = 1_000_000


def _whole_weights(seats, lists, board_cards, dead_cards, game, units) -> tuple[list[np.ndarray], bool]:
    """Each seat's whole weights for its live hands, and whether they are exact."""
    whole = range_equity.whole_weights(seats, board_cards, dead_cards, game, units)
    weights = []
    for position, seat in enumerate(seats):
        hands, places = lists[position]
        if seat.kind != RANGE:
            weights.append(np.ones(hands.shape[0], dtype=np.int64))
        elif whole is not None:
            weights.append(np.ascontiguousarray(whole[position][places], dtype=np.int64))
        else:
            floats = np.asarray(seat.weights, dtype=np.float64)[places]
            weights.append(np.maximum(np.rint(floats / floats.max() * _ROUNDED_WEIGHT_SCALE), 1).astype(np.int64))
    return weights, whole is not None


def _sampled_completions(available: list[int], dealt_count: int, trials: int, seed: int) -> np.ndarray:
    """``trials`` completions drawn uniformly (each without repeated cards), from a numpy
    generator seeded with ``seed``: the same completions whatever the thread count."""
    generator = np.random.Generator(np.random.PCG64(seed))
    deck = np.array(available, dtype=np.int8)
    picks = generator.integers(0, deck.shape[0], size=(trials, dealt_count))
    repeated = _repeated_rows(picks)
    while repeated.size:  # redraw the rows that repeat a card: uniform over completions
        picks[repeated] = generator.integers(0, deck.shape[0], size=(repeated.size, dealt_count))
        repeated = _repeated_rows(picks)
    return np.ascontiguousarray(deck[picks])


def _repeated_rows(picks: np.ndarray) -> np.ndarray:
    """The rows of ``picks`` holding some index twice."""
    ordered = np.sort(picks, axis=1)
    return np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))


def hand_labels(spread: RangeByHand) -> list[str]:
    """The first range's hands as canonical text."""
    return seat_lists.hand_labels(spread.hands)
