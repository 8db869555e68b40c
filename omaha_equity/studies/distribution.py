"""The distribution of player 1's equity: across the opponent's range hands, across player 1's
own range hands, or across the next card.

``by="hand"``: player 1's fixed hand against each hand the opponent may hold, heads-up, each
hand weighted by its range weight (``_kernels.enumerate_hand_by_hand``: one compiled pass over
the whole list, every board completion per hand; Monte Carlo per hand with
``_kernels.sample_hand_by_hand`` when enumerating would be too slow, e.g. a range preflop).
When player 1 holds a range (or a partial or random hand), each of player 1's hands against the
opponent's whole range instead, with card removal per hand (``range_by_hand``), summed up in the
four equity buckets of ``RANGE_BUCKETS`` by default.
``by="next-card"``: player 1's equity after each possible next card (``next_card.next_card_equity``),
each card weighted by its chance of coming.

Either way the equities fall into equal bins over 0..1 (:func:`histogram`); the weighted mean
of the items is player 1's equity against the whole range (exactly, when enumerated).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb

import numpy as np

from ..runtime import cache
from ..runtime.cache import read_only
from ..cards import DECK_SIZE, format_cards, parse_card
from ..categories import MADE_HANDS, categorize_hands
from ..categories.names import MADE
from ..deal import CardsLike, parse_board_and_dead
from ..equity import plan
from ..equity.lists import exact as range_equity
from ..equity.lists.inputs import ScoreTables, available_cards, card_mask, seat_hand_list
from ..runtime.threads import across_threads, use_threads
from ..equity.plan import Method
from ..equity.players import DEALT, FIXED, RANGE
from ..equity.query import Device, RunOptions, SeatedQuery, seat_cards
from ..errors import InputError, quoted
from ..evaluate.tables import dealt_board_indexes, load_tables
from ..games import BOARD_SIZE, Game, get_game
from ..pots import pot_units
from ..equity.results.equity import standard_error
from ..validate import check_whole_number
from . import _kernels, seat_lists
from .memory import NARROWER_RANGE, check_study_memory
from .next_card import NEXT_CARD_DEFAULT_TRIALS, next_card_of, parse_next_card_board
from .range_by_hand import range_by_hand

BY_HAND, BY_NEXT_CARD, BY_CATEGORY = "hand", "next-card", "category"
DISTRIBUTIONS = (BY_HAND, BY_NEXT_CARD, BY_CATEGORY)
DEFAULT_BIN_COUNT = 10
# Player 1's range hand by hand is summed up in four buckets, 0-25, 25-50, 50-75 and 75-100%, as
# GTO Wizard's equity buckets show a range (https://blog.gtowizard.com/equity-buckets/).
RANGE_BUCKETS = 4
ITEMS_OF_OPPONENT, ITEMS_OF_PLAYER_1 = 2, 1
# Monte Carlo boards per range hand when enumerating every hand's boards is over the work budget
# and trials are not given (standard error at most 0.7 points per hand; the histogram's bins
# are 10 points wide by default).
HAND_DEFAULT_TRIALS = 5_000


@dataclass(frozen=True)
class DistributionItem:
    """One opponent hand (or one next card) and player 1's equity against it (after it).

    Attributes
    ----------
    label : str
        The opponent's hand (``"KsKdQcJc"``) or the next card (``"Kd"``).
    weight : float
        Its share of the distribution, 0..1: the hand's range weight over the range's total, or
        the chance of the card. The weights add up to 1.
    equity : float
        Player 1's equity, fraction 0..1.
    equity_fraction : Fraction or None
        The same, exactly (exact enumeration only).
    standard_error : float
        Standard error of ``equity`` (Monte Carlo; 0.0 when exact).
    category : str
        By hand on a flop, turn or river: the opponent hand's made hand
        (``categories.MADE_HANDS``, docs/categories.md); otherwise ``""``.
    hand_count : int
        Opponent hands behind the item (by category: the hands of the category; else 1).
    """

    label: str
    weight: float
    equity: float
    equity_fraction: Fraction | None
    standard_error: float
    category: str = ""
    hand_count: int = 1


@dataclass(frozen=True)
class HistogramBin:
    """One bin of the histogram: equities ``low <= e < high`` (the last bin includes 1).

    Attributes
    ----------
    low, high : float
        Bounds, fractions 0..1.
    weight : float
        Total weight of the items in the bin, 0..1.
    item_count : int
        Items (hands or cards) in the bin.
    """

    low: float
    high: float
    weight: float
    item_count: int

    @property
    def label(self) -> str:
        """``"50-60%"``."""
        return f"{self.low * 100:g}-{self.high * 100:g}%"


@dataclass(frozen=True)
class EquityDistribution:
    """Player 1's equity across the opponent's hands or the next card.

    Attributes
    ----------
    game : Game
    hand, opponent : str
        Player 1's hand (canonical text) and the opponent's hand or range (as written).
    board, dead : str
    by : str
        ``"hand"``, ``"next-card"`` or ``"category"``.
    method : str
        ``"exact"`` or ``"monte-carlo"``.
    seed : int or None
        The Monte Carlo seed (None when exact).
    trials : int or None
        Monte Carlo boards per item (None when exact).
    items : tuple of DistributionItem
        Sorted by player 1's equity, highest first (ties keep the range's or deck's order); by
        category, in the order of the made hands (best first).
    bins : tuple of HistogramBin
        Equal bins over 0..1, lowest first.
    equity : float
        Player 1's mean equity over the items (by weight): the equity against the whole range,
        or on the current board.
    equity_fraction : Fraction or None
        The same, exactly, when enumerated.
    items_of : int
        Whose hands the items are by hand: 2 (the opponent's, against player 1's fixed hand) or
        1 (player 1's range, each against the opponent's whole range).
    item_count : int
        Items before an equity filter (:func:`keep_by_equity`); ``len(items)`` without one.
    minimum_equity, maximum_equity : float or None
        The equity filter's bounds (fractions 0..1, both inclusive), None when not asked.
    """

    game: Game
    hand: str
    opponent: str
    board: str
    dead: str
    by: str
    method: str
    seed: int | None
    trials: int | None
    items: tuple[DistributionItem, ...]
    bins: tuple[HistogramBin, ...]
    equity: float
    equity_fraction: Fraction | None
    items_of: int = ITEMS_OF_OPPONENT
    item_count: int = -1
    minimum_equity: float | None = None
    maximum_equity: float | None = None

    @property
    def kept_weight(self) -> float:
        """The items' total weight, 0..1: 1 unless an equity filter dropped some."""
        return sum(item.weight for item in self.items)

    def bin_of(self, item: DistributionItem) -> HistogramBin:
        """The bin holding an item."""
        return self.bins[_bin_index(item, len(self.bins))]


def _bin_index(item: DistributionItem, bin_count: int) -> int:
    fraction = item.equity_fraction
    if fraction is not None:  # whole numbers: no rounding at the edges
        return min(fraction.numerator * bin_count // fraction.denominator, bin_count - 1)
    return min(int(item.equity * bin_count), bin_count - 1)


def histogram(items, bin_count: int = DEFAULT_BIN_COUNT) -> tuple[HistogramBin, ...]:
    """``bin_count`` equal bins over 0..1: bin ``i`` holds the equities ``i/n <= e < (i+1)/n``,
    the last one also ``e = 1`` (exact fractions decide the edges when known).

    Raises
    ------
    InputError
        ``bin_count`` not a whole number 1..100.
    """
    bin_count = check_whole_number(bin_count, "bin count", 1, 100)
    weights = [0.0] * bin_count
    item_counts = [0] * bin_count
    for item in items:
        index = _bin_index(item, bin_count)
        weights[index] += item.weight
        item_counts[index] += 1
    return tuple(HistogramBin(low=index / bin_count, high=(index + 1) / bin_count, weight=weights[index],
                              item_count=item_counts[index]) for index in range(bin_count))


def equity_distribution(
    hand: CardsLike,
    opponent: str,
    board: CardsLike = "",
    dead: CardsLike = "",
    game: str | Game = "omaha",
    *,
    die: int | None = None,
    by: str = BY_HAND,
    bin_count: int | None = None,
    method: str = "auto",
    trials: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    device: str = "cpu",
    minimum_equity: float | None = None,
    maximum_equity: float | None = None,
) -> EquityDistribution:
    """The distribution of player 1's equity, heads-up, across the opponent's range hands
    (``by="hand"``), across player 1's own range hands (``by="hand"`` with a range for player
    1) or across the next card (``by="next-card"``).

    Parameters
    ----------
    hand : str
        Player 1's hand, or by hand a range (or partial or random hand): then each of its hands
        gets its equity against the opponent's whole range, with card removal (the opponent
        hands sharing a card with it are dropped, the rest re-weighted), weighted by its range
        weight times the opponent weight it faces, so that the mean is exactly the equity
        :func:`~omaha_equity.calculate_equity` gives for the two ranges.
    opponent : str
        The opponent's range (``"15%"``, ``"AA:$ds"``), partial hand, ``*`` or hand.
    board, dead, game, die : as in :func:`~omaha_equity.calculate_equity`; ``by="next-card"``
        needs a flop or a turn.
    by : {"hand", "next-card", "category"}
        ``category`` (a flop, turn or river): the opponent's hands grouped by their made hand
        (docs/categories.md), each group weighted by its share of the range.
    bin_count : int, optional
        Histogram bins over 0..1 (default 10: 0-10%, ..., 90-100%; player 1's range by hand:
        ``RANGE_BUCKETS``, 0-25%, ..., 75-100%).
    method : {"auto", "exact", "monte-carlo"}
        By hand, ``auto`` enumerates every board of every hand when that fits
        ``equity.plan.EXACT_WORK_BUDGET`` or a hand has at most ``trials`` boards (always on a
        flop, turn or river), else samples ``trials`` boards per hand (default
        ``HAND_DEFAULT_TRIALS``). Player 1's range by hand: every board completion when that
        fits the budget (always on a river or turn), else ``trials`` sampled completions
        (default ``range_by_hand.RANGE_DEFAULT_TRIALS``), each against the whole opponent
        range. By next card, as in :func:`next_card_equity` (``trials`` boards per card).
    seed : int, optional
        Monte Carlo seed (drawn at random and reported if omitted).
    threads : int, optional
        Worker threads (default: one per core).
    device : {"cpu", "gpu", "auto"}
        Where the kernels run (docs/gpu.md): by hand and by category, every hand's boards; by
        next card, its Monte Carlo (exact enumeration by next card stays on the CPU). Exact
        results are the same on both.
    minimum_equity, maximum_equity : float, optional
        Keep only the items whose equity is at least / at most this fraction 0..1
        (:func:`keep_by_equity`; the bins still sum up every item).

    Returns
    -------
    EquityDistribution

    Raises
    ------
    InputError
        Bad cards, game, range or options; an opponent range with no hand left once the known
        cards are removed; ``by="category"`` with a partial hand or range for player 1;
        ``by="next-card"`` without a flop or turn; equity bounds outside 0..1.
    """
    if by not in DISTRIBUTIONS:
        raise InputError(f"unknown distribution {quoted(by)}: expected one of {', '.join(DISTRIBUTIONS)}")
    if not isinstance(opponent, str) or not isinstance(hand, (str, list, tuple)):
        raise InputError(f"expected player 1's hand and the opponent's range as text, "
                         f"got {quoted(hand)} and {quoted(opponent)}")
    bounds = check_equity_bounds(minimum_equity, maximum_equity)  # before any work, as the bin count
    if bin_count is not None:
        histogram((), bin_count)
    game = get_game(game, die)
    if by == BY_NEXT_CARD:
        board_cards, dead_cards = parse_next_card_board(board, dead)
        options = RunOptions.checked(method, trials=trials, seed=seed, threads=threads, device=device)
        if options.device == Device.GPU:
            from ..gpu.device import runs_on_gpu  # lazy: numba.cuda loads only when a GPU is asked for

            runs_on_gpu("gpu", 0)  # none found: the one no-GPU error, whichever method runs
        result = _by_next_card(seat_cards([hand, opponent], board_cards, dead_cards, game), options,
                               bin_count or DEFAULT_BIN_COUNT)
        return keep_by_equity(result, *bounds)
    board_cards, dead_cards = parse_board_and_dead(board or "", dead or "")
    if by == BY_CATEGORY and not 3 <= len(board_cards) <= 5:
        raise InputError("the distribution by category needs a board of 3 to 5 cards (a flop, turn or river)")
    options = RunOptions.checked(method, trials=trials, seed=seed, threads=threads, device=device)
    seated = seat_cards([hand, opponent], board_cards, dead_cards, game)
    if seated.seats[0].kind != FIXED:
        if by == BY_CATEGORY:
            raise InputError(f"the distribution by category needs player 1's {game.hole_count} hole cards, "
                             f"got {hand.strip() if isinstance(hand, str) else seated.seats[0].expression!r}")
        if options.device == Device.GPU:
            raise InputError("device 'gpu' runs the distribution of one hand of player 1; a range for player 1 "
                             "runs on the CPU (device 'cpu' or 'auto')")
        return keep_by_equity(range_distribution(seated, options, bin_count or RANGE_BUCKETS), *bounds)
    by_hand = distribution_by_hand(seated, options, bin_count or DEFAULT_BIN_COUNT)
    result = _by_category(by_hand, bin_count or DEFAULT_BIN_COUNT) if by == BY_CATEGORY else by_hand
    return keep_by_equity(result, *bounds)


def check_equity_bounds(minimum_equity, maximum_equity) -> tuple[float | None, float | None]:
    """The equity filter's bounds, checked: fractions 0..1 (or None), the minimum at most the
    maximum.

    Raises
    ------
    InputError
        A bound that is not a number 0..1, or a minimum above the maximum.
    """
    bounds = []
    for name, bound in (("minimum equity", minimum_equity), ("maximum equity", maximum_equity)):
        if bound is not None:
            if isinstance(bound, bool) or not isinstance(bound, (int, float)) or not 0 <= bound <= 1:
                raise InputError(f"expected the {name} as a fraction 0..1 (0.5 for 50%), got {quoted(bound)}")
            bound = float(bound)
        bounds.append(bound)
    if bounds[0] is not None and bounds[1] is not None and bounds[0] > bounds[1]:
        raise InputError(f"the minimum equity {bounds[0]:g} is above the maximum equity {bounds[1]:g}: no hand "
                         "can be kept")
    return bounds[0], bounds[1]


def _within(item: DistributionItem, minimum: Fraction | None, maximum: Fraction | None) -> bool:
    equity: Fraction | float = item.equity_fraction if item.equity_fraction is not None else item.equity
    return (minimum is None or equity >= minimum) and (maximum is None or equity <= maximum)


def keep_by_equity(distribution: EquityDistribution, minimum_equity: float | None = None,
                   maximum_equity: float | None = None) -> EquityDistribution:
    """The items whose equity is at least ``minimum_equity`` and at most ``maximum_equity``
    (fractions 0..1, both inclusive; an exact equity is compared exactly, the bound read as the
    decimal it prints as). The bins, the mean equity and ``item_count`` still describe every
    item; ``kept_weight`` is the kept items' share.

    Raises
    ------
    InputError
        Bounds outside 0..1, or a minimum above the maximum.
    """
    minimum_equity, maximum_equity = check_equity_bounds(minimum_equity, maximum_equity)
    item_count = len(distribution.items)
    if minimum_equity is None and maximum_equity is None:
        return replace(distribution, item_count=item_count)
    minimum = Fraction(repr(minimum_equity)) if minimum_equity is not None else None
    maximum = Fraction(repr(maximum_equity)) if maximum_equity is not None else None
    kept = tuple(item for item in distribution.items if _within(item, minimum, maximum))
    return replace(distribution, items=kept, item_count=item_count, minimum_equity=minimum_equity,
                   maximum_equity=maximum_equity)


def range_distribution(seated: SeatedQuery, options: RunOptions,
                       bin_count: int = RANGE_BUCKETS) -> EquityDistribution:
    """The typed core of :func:`equity_distribution` by hand with a range for player 1 (seated
    first): each of its hands against the opponent's whole range (``range_by_hand``).

    Raises
    ------
    InputError
        What :func:`.range_by_hand.range_by_hand` refuses.
    """
    seats, board_cards, dead_cards, game = list(seated.seats), seated.board, seated.dead, seated.game
    spread = range_by_hand(seated, options)
    exact = spread.method == Method.EXACT and spread.exact_weights
    faced = spread.faced_sums
    involved = (spread.hand_weights * faced).astype(np.float64)
    normalized = involved / involved.sum() if involved.sum() > 0 else involved
    labels = seat_lists.hand_labels(spread.hands)
    categories = _made_hands(spread.hands, board_cards, game)
    items = []
    for index in np.flatnonzero(faced > 0).tolist():
        fraction = spread.equity_fraction(index)
        items.append(DistributionItem(
            label=labels[index], weight=float(normalized[index]), equity=float(fraction),
            equity_fraction=fraction if exact else None, standard_error=spread.standard_error(index),
            category=categories[index]))
    if not items:
        raise InputError(f"no hand of {seats[0].expression!r} can face a hand of {seats[1].expression!r}: every "
                         "pair shares a card")
    mean_fraction = spread.mean_fraction()
    result = _distribution(game, seats[0].expression, seats[1].expression, board_cards, dead_cards, BY_HAND,
                           spread.method, spread.seed, spread.trials, items, bin_count, float(mean_fraction),
                           mean_fraction if exact else None)
    return replace(result, items_of=ITEMS_OF_PLAYER_1)


@dataclass(frozen=True)
class HandByHand:
    """Player 1's fixed hand against each hand the opponent may hold, heads-up: the kernels'
    sums per opponent hand, before any per-hand object is built (:func:`hand_by_hand`).

    Attributes
    ----------
    hands : (n, hole_count) int8
        The opponent's hands, in the order of its seat's hand list (canonical for a range).
    share_sums : (n,) int64
        Player 1's pot shares summed over each hand's boards, in pot units.
    board_counts : (n,) int64
        Boards scored per hand.
    square_sums : (n,) int64 or None
        Monte Carlo: the sums of player 1's squared shares (pot units squared); None when exact.
    method : Method
        ``exact`` or ``monte-carlo``.
    seed : int or None
        The Monte Carlo seed.
    trials : int
        Monte Carlo boards per hand (asked or ``HAND_DEFAULT_TRIALS``).
    units : int
        Pot units (``pots.pot_units``).
    completions : int
        Boards that complete the board for each hand, exactly.
    """

    hands: np.ndarray
    share_sums: np.ndarray
    board_counts: np.ndarray
    square_sums: np.ndarray | None
    method: Method
    seed: int | None
    trials: int
    units: int
    completions: int


# Opponent hands per run of the kernels: their counts, (hands, 2, STAT_COUNT) int64 (176 bytes a
# hand, twice while the threads' pieces are joined), are reduced to the sums a study keeps (16-24
# bytes a hand) block by block, so a list of millions of hands never holds them all: 23 MB at a
# time; on a 6-card flop a block is still seconds of work for the threads.
HAND_BLOCK = 1 << 16


def hand_by_hand(seated: SeatedQuery, options: RunOptions) -> HandByHand:
    """The kernels' pass of :func:`distribution_by_hand`: player 1's fixed hand (seated first)
    against each hand the opponent may hold, every board of each hand (or ``trials`` sampled
    boards), in blocks of ``HAND_BLOCK`` hands.

    Raises
    ------
    InputError
        Anything the method choice refuses (exact enumeration beyond the ceiling, trials with
        exact enumeration).
    """
    seats, board_cards, dead_cards, game = list(seated.seats), seated.board, seated.dead, seated.game
    trials, seed, threads = options.trials, options.seed, options.threads
    units = pot_units(2, game.hilo)
    available = available_cards(seats, board_cards, dead_cards)
    opponent_hands = seat_hand_list(seats[1], available, game.hole_count)
    hand_count = opponent_hands.shape[0]
    completions = comb(DECK_SIZE - 2 * game.hole_count - len(board_cards) - len(dead_cards),
                       BOARD_SIZE - len(board_cards))
    trials_per_hand = trials or HAND_DEFAULT_TRIALS
    work = hand_count * completions * 2
    if options.method == Method.AUTO and trials is None and completions <= trials_per_hand:
        chosen = Method.EXACT  # sampling more boards than a hand has would be slower than exact
    else:
        chosen = options.choose_method(work)
    if options.device != Device.CPU:
        gpu_spread = _hand_by_hand_on_gpu(seated, options, opponent_hands, chosen, trials_per_hand, completions)
        if gpu_spread is not None:
            return gpu_spread
    tables = load_tables()
    scoring = ScoreTables.of(game)
    hero = np.array(sorted(seats[0].known_cards, reverse=True), dtype=np.int8)
    base_used = card_mask(seats[0].known_cards + board_cards + dead_cards)
    board_known = np.array(board_cards, dtype=np.int8)
    share_sums = np.empty(hand_count, dtype=np.int64)
    board_counts = np.full(hand_count, trials_per_hand, dtype=np.int64)
    square_sums = None
    with use_threads(threads):
        if chosen == plan.Method.EXACT:
            cache.announce_compiling(["completion_table", "enumerate_hand_by_hand"])
            fixed_ranks = np.array(sorted(card >> 2 for card in board_cards), dtype=np.int32)
            dealt_indexes = dealt_board_indexes(fixed_ranks, BOARD_SIZE - len(board_cards), tables.colex)
            completion_arrays = _kernels.completion_table(
                hero, base_used, board_known, dealt_indexes, tables.colex, tables.pair_board, tables.flush,
                tables.low, plan.BINOMIALS, game.hilo)
            for block in range(0, hand_count, HAND_BLOCK):
                block_hands = opponent_hands[block:block + HAND_BLOCK]
                counts, _, block_boards = across_threads(
                    lambda first, count: _kernels.enumerate_hand_by_hand(
                        block_hands[first:first + count], *completion_arrays, dealt_indexes,
                        *scoring.kernel_arguments(), units),
                    0, block_hands.shape[0])
                share_sums[block:block + HAND_BLOCK] = counts[:, 0, _kernels.EQUITY]
                board_counts[block:block + HAND_BLOCK] = block_boards
            seed = None
        else:
            seed = plan.draw_seed() if seed is None else seed
            cache.announce_compiling(["sample_hand_by_hand"])
            square_sums = np.empty(hand_count, dtype=np.int64)
            for block in range(0, hand_count, HAND_BLOCK):
                block_hands = opponent_hands[block:block + HAND_BLOCK]
                counts, _, block_squares = across_threads(
                    lambda first, count: _kernels.sample_hand_by_hand(
                        hero, read_only(block_hands[first:first + count]), block + first, base_used, board_known,
                        *scoring.kernel_arguments(), units, np.uint64(seed), trials_per_hand),
                    0, block_hands.shape[0])
                share_sums[block:block + HAND_BLOCK] = counts[:, 0, _kernels.EQUITY]
                square_sums[block:block + HAND_BLOCK] = block_squares
    cache.mark_in_use()
    return HandByHand(opponent_hands, share_sums, board_counts, square_sums, chosen, seed, trials_per_hand, units,
                      completions)


def _hand_by_hand_on_gpu(seated: SeatedQuery, options: RunOptions, opponent_hands: np.ndarray, chosen: Method,
                         trials_per_hand: int, completions: int) -> HandByHand | None:
    """:func:`hand_by_hand` on the GPU (``gpu.distribution``), or None when the work stays on the
    CPU (``device="auto"`` and small work)."""
    from ..gpu.device import runs_on_gpu  # lazy: numba.cuda loads only when a GPU is asked for

    exact = chosen == Method.EXACT
    if not runs_on_gpu(options.device, opponent_hands.shape[0] * 2 * (completions if exact else trials_per_hand)):
        return None
    from ..gpu.distribution import hand_by_hand_on_gpu

    game = seated.game
    units = pot_units(2, game.hilo)
    seed = None if exact else plan.draw_seed() if options.seed is None else options.seed
    hero = np.array(seated.seats[0].known_cards, dtype=np.int8)
    share_sums, board_counts, square_sums = hand_by_hand_on_gpu(
        hero, opponent_hands, tuple(seated.board), tuple(seated.dead), game, units, 0 if exact else trials_per_hand,
        seed or 0)
    return HandByHand(opponent_hands, share_sums, board_counts, square_sums, chosen, seed, trials_per_hand, units,
                      completions)


def opponent_hand_count(seated: SeatedQuery) -> int:
    """The hands the second seat may hold (a range's, or every completion of a partial or random
    hand from the cards left), counted without listing them."""
    opponent = seated.seats[1]
    if opponent.kind != DEALT:
        return opponent.range_size
    available = available_cards(list(seated.seats), seated.board, seated.dead)
    return comb(len(available), seated.game.hole_count - len(opponent.known_cards))


# What a distribution by hand holds per opponent hand: its DistributionItem (the object, its
# label, its Fraction and floats) and the arrays behind it, measured with tracemalloc on a 6-card
# range of 678,792 hands (about 610 bytes a hand), rounded up.
DISTRIBUTION_BYTES_PER_HAND = 700


def distribution_by_hand(seated: SeatedQuery, options: RunOptions,
                         bin_count: int = DEFAULT_BIN_COUNT) -> EquityDistribution:
    """The typed core of :func:`equity_distribution` by hand: player 1's fixed hand (seated
    first) against each hand the opponent may hold, heads-up.

    Raises
    ------
    InputError
        Anything the method choice refuses (exact enumeration beyond the ceiling, trials with
        exact enumeration); more opponent hands than the memory budget allows
        (:func:`.memory.check_study_memory`), before any work.
    """
    seats, board_cards, dead_cards, game = list(seated.seats), seated.board, seated.dead, seated.game
    check_study_memory("the distribution by hand", opponent_hand_count(seated), DISTRIBUTION_BYTES_PER_HAND,
                       NARROWER_RANGE)
    spread = hand_by_hand(seated, options)
    opponent_hands, share_sums, board_counts, square_sums = (spread.hands, spread.share_sums, spread.board_counts,
                                                             spread.square_sums)
    hand_count, units, completions, chosen = opponent_hands.shape[0], spread.units, spread.completions, spread.method
    if seats[1].kind == RANGE:
        float_weights = np.asarray(seats[1].weights, dtype=np.float64)
    else:
        float_weights = np.ones(hand_count, dtype=np.float64)
    normalized = float_weights / float_weights.sum()
    labels = seat_lists.hand_labels(opponent_hands)
    categories = _made_hands(opponent_hands, board_cards, game)
    items = []
    for index in range(hand_count):
        boards = int(board_counts[index])
        share_sum = int(share_sums[index])
        exact = square_sums is None
        items.append(DistributionItem(
            label=labels[index], weight=float(normalized[index]), equity=share_sum / units / boards,
            equity_fraction=Fraction(share_sum, units * boards) if exact else None,
            standard_error=0.0 if exact else standard_error(share_sum, int(square_sums[index]), boards, units),
            category=categories[index],
        ))
    mean_fraction = None
    if chosen == plan.Method.EXACT:
        whole = range_equity.whole_weights(seats, board_cards, dead_cards, game, units)
        if whole is not None:
            opponent_weights = whole[1] if seats[1].kind == RANGE else np.ones(hand_count, dtype=np.int64)
            numerator = sum(int(weight) * int(share) for weight, share in zip(opponent_weights, share_sums))
            mean_fraction = Fraction(numerator, units * completions * int(opponent_weights.sum()))
    if mean_fraction is not None:
        mean = float(mean_fraction)
    else:
        mean = float((normalized * share_sums / units / board_counts).sum())
    trials_run = None if chosen == plan.Method.EXACT else spread.trials
    return _distribution(game, seats[0].expression, seats[1].expression, board_cards, dead_cards, BY_HAND, chosen,
                         spread.seed, trials_run, items, bin_count, mean, mean_fraction)


def _made_hands(hands: np.ndarray, board_cards, game: Game) -> list[str]:
    """Each hand's made hand on a board of 3 to 5 cards (``""`` for every hand otherwise)."""
    if not 3 <= len(board_cards) <= 5:
        return [""] * hands.shape[0]
    fields = categorize_hands(hands, tuple(board_cards), game.hilo)
    return [MADE_HANDS[index] for index in fields[:, MADE].tolist()]


def _by_category(by_hand: EquityDistribution, bin_count: int) -> EquityDistribution:
    """Group a by-hand distribution's items by the opponent's made hand: each group's weight is
    the sum of its hands' weights, its equity their weighted mean (exact when every hand weighs
    the same and the hands were enumerated)."""
    groups: dict[str, list[DistributionItem]] = {}
    for item in by_hand.items:
        groups.setdefault(item.category, []).append(item)
    uniform = len({item.weight for item in by_hand.items}) == 1
    items = []
    for name in MADE_HANDS:
        members = groups.get(name)
        if not members:
            continue
        weight = sum(item.weight for item in members)
        fraction = None
        if uniform and all(item.equity_fraction is not None for item in members):
            fraction = sum((item.equity_fraction for item in members), Fraction(0)) / len(members)
        if fraction is not None:
            equity = float(fraction)
        else:
            equity = sum(item.weight * item.equity for item in members) / weight
        error = (sum((item.weight * item.standard_error) ** 2 for item in members) ** 0.5) / weight
        items.append(DistributionItem(label=name, weight=weight, equity=equity, equity_fraction=fraction,
                                      standard_error=error, category=name, hand_count=len(members)))
    return EquityDistribution(
        game=by_hand.game, hand=by_hand.hand, opponent=by_hand.opponent, board=by_hand.board, dead=by_hand.dead,
        by=BY_CATEGORY, method=by_hand.method, seed=by_hand.seed, trials=by_hand.trials, items=tuple(items),
        bins=histogram(items, bin_count), equity=by_hand.equity, equity_fraction=by_hand.equity_fraction,
    )


def _distribution(game, hand, opponent, board_cards, dead_cards, by, method, seed, trials, items, bin_count, mean,
                  mean_fraction) -> EquityDistribution:
    order = sorted(range(len(items)), key=lambda position: -items[position].equity)
    ordered = tuple(items[position] for position in order)
    return EquityDistribution(
        game=game, hand=hand, opponent=opponent, board=format_cards(board_cards),
        dead=format_cards(dead_cards, sort=True), by=by, method=method, seed=seed, trials=trials, items=ordered,
        bins=histogram(ordered, bin_count), equity=mean, equity_fraction=mean_fraction,
    )


def _by_next_card(seated: SeatedQuery, options: RunOptions, bin_count: int) -> EquityDistribution:
    result = next_card_of(seated, options)
    if any(entry.probability is None for entry in result.cards):
        raise InputError("by Monte Carlo, the chance of each next card is known only when at most one player "
                         "holds a range: give player 1 a hand, or use --exact")
    items = []
    for entry in sorted(result.cards, key=lambda entry: -parse_card(entry.card)):  # deck order, aces first
        player = entry.result.players[0]
        items.append(DistributionItem(label=entry.card, weight=entry.probability, equity=player.equity,
                                      equity_fraction=player.equity_fraction, standard_error=player.standard_error))
    current = result.current.players[0]
    return _distribution(seated.game, result.hands[0], result.hands[1], seated.board, seated.dead, BY_NEXT_CARD,
                         result.method, result.seed, None if result.method == Method.EXACT else
                         (options.trials or NEXT_CARD_DEFAULT_TRIALS), items, bin_count, current.equity,
                         current.equity_fraction)
