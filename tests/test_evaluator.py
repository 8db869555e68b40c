"""The fast evaluator against the slow reference evaluator (tests/naive.py).

The kernels and naive.py encode hand values differently, so the tests compare *orders*: two
deals must compare the same way (worse / equal / better) under both evaluators. Sorting the
deals by the naive value and checking every pair of neighbours proves the two orders are the
same on the whole sample; random pairs are checked on top.

Deals are seeded, so every run checks the same ones. Besides uniform deals, the samples mix
in deals drawn from skewed decks (few ranks, two suits, low ranks), where pairs, full houses,
flushes and lows, and ties between them, are common.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from math import comb

import numpy as np
import pytest

import naive
from omaha_equity.cards import parse_cards
from omaha_equity.evaluate._kernels import evaluate_deals
from omaha_equity.evaluate.showdown import high_value, low_hand_value, read_hand
from omaha_equity.evaluate.tables import (
    CATEGORY_NAMES, CATEGORY_SHIFT, FLUSH, FOUR_OF_A_KIND, FULL_HOUSE, HIGH_CARD, NO_LOW, PAIR,
    STRAIGHT, STRAIGHT_FLUSH, THREE_OF_A_KIND, TWO_PAIR, load_tables,
)

# Seeded deals per hole-card count: about 600,000 five-card evaluations by the reference each
# (4 cards: 60 per deal, 5 cards: 100, 6 cards: 150), so each family costs the same time.
DEALS_PER_FAMILY = {4: 10_000, 5: 6_000, 6: 4_000}
RANDOM_PAIRS = 20_000
READ_HAND_DEALS = 300
HOLE_COUNTS = (4, 5, 6)
LOW_RANKS = {12, 0, 1, 2, 3, 4, 5, 6}  # A, 2..8


def kernel_tables():
    tables = load_tables()
    return tables.colex, tables.pair_board, tables.flush, tables.low


def kernel_values(holes, boards):
    """(high, low) arrays of the compiled kernel for lists of hole hands and 5-card boards."""
    hole_array = np.array(holes, dtype=np.int8)
    board_array = np.array(boards, dtype=np.int8)
    high, low = evaluate_deals(hole_array, board_array, *kernel_tables())
    return [int(value) for value in high], [int(value) for value in low]


def skewed_deck(rng: random.Random, mode: str) -> list[int]:
    """The 52 cards in a random order where some cards tend to come first (weighted sampling
    without replacement), so that the first cards dealt are skewed towards a kind of hand."""
    if mode == "uniform":
        weights = {card: 1.0 for card in range(52)}
    elif mode == "few-ranks":  # pairs, trips, full houses, quads, paired boards
        ranks = set(rng.sample(range(13), 5))
        weights = {card: 20.0 if card // 4 in ranks else 1.0 for card in range(52)}
    elif mode == "two-suits":  # flushes, straight flushes
        suits = set(rng.sample(range(4), 2))
        weights = {card: 12.0 if card % 4 in suits else 1.0 for card in range(52)}
    elif mode == "low":  # qualifying lows and low ties, wheels
        weights = {card: 10.0 if card // 4 in LOW_RANKS else 1.0 for card in range(52)}
    elif mode == "connected":  # straights
        start = rng.randrange(-1, 9)  # -1: the wheel A-2-3-4-5
        ranks = {(start + step) % 13 for step in range(6)}
        weights = {card: 12.0 if card // 4 in ranks else 1.0 for card in range(52)}
    else:
        raise AssertionError(mode)
    return sorted(range(52), key=lambda card: rng.random() ** (1.0 / weights[card]), reverse=True)


MODES = ("uniform", "uniform", "uniform", "few-ranks", "two-suits", "low", "connected")


def random_deals(seed: int, hole_count: int, count: int, board_count: int = 5):
    """``count`` seeded deals (hole cards, board cards) with a mix of skewed decks."""
    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        deck = skewed_deck(rng, rng.choice(MODES))
        cards = deck[:hole_count + board_count]
        rng.shuffle(cards)  # the skew must not decide which cards are hole and which board
        deals.append((cards[:hole_count], cards[hole_count:]))
    return deals


def compare(a, b) -> int:
    return (a > b) - (a < b)


def assert_same_order(fast, slow, deals, what: str, rng: random.Random):
    """``fast`` and ``slow`` (lists of comparable values) order the deals the same way."""
    order = sorted(range(len(slow)), key=lambda index: slow[index])
    for first, second in zip(order, order[1:]):
        expected = compare(slow[first], slow[second])
        got = compare(fast[first], fast[second])
        assert got == expected, (
            f"{what}: kernel orders deal {deals[first]} ({fast[first]}) and {deals[second]} "
            f"({fast[second]}) as {got}, naive as {expected} ({slow[first]} vs {slow[second]})"
        )
    for _ in range(RANDOM_PAIRS):
        first, second = rng.randrange(len(slow)), rng.randrange(len(slow))
        assert compare(fast[first], fast[second]) == compare(slow[first], slow[second]), (
            what, deals[first], deals[second], fast[first], fast[second], slow[first], slow[second])


@pytest.fixture(scope="module", params=HOLE_COUNTS, ids=lambda count: f"{count}-card")
def family(request):
    """Seeded deals of one hole-card count with kernel and naive high and low values."""
    hole_count = request.param
    deals = random_deals(1000 + hole_count, hole_count, DEALS_PER_FAMILY[hole_count])
    fast_high, fast_low = kernel_values([hole for hole, _ in deals], [board for _, board in deals])
    slow_high = [naive.best_high(hole, board) for hole, board in deals]
    slow_low = [naive.best_low(hole, board) for hole, board in deals]
    return hole_count, deals, fast_high, fast_low, slow_high, slow_low


def test_family_sample_covers_every_category_and_many_lows(family):
    """Guard on the sample itself: it holds every high category, ties, and plenty of lows."""
    hole_count, deals, fast_high, fast_low, slow_high, slow_low = family
    categories = Counter(value[0] for value in slow_high)
    assert set(categories) == set(range(9)), categories
    assert sum(low is not None for low in slow_low) > len(deals) // 10
    assert len(set(slow_high)) < len(slow_high)  # equal hands exist, so ties are tested
    assert len({low for low in slow_low if low is not None}) > 40


def test_high_order_agrees_with_naive(family):
    hole_count, deals, fast_high, _, slow_high, _ = family
    assert len(deals) == DEALS_PER_FAMILY[hole_count] >= 4_000
    assert all(value > 0 for value in fast_high)
    assert_same_order(fast_high, slow_high, deals, f"{hole_count}-card high", random.Random(hole_count))


def test_high_category_agrees_with_naive(family):
    """The category field of the kernel value (bits 20+) is naive's category."""
    _, _, fast_high, _, slow_high, _ = family
    assert [value >> CATEGORY_SHIFT for value in fast_high] == [value[0] for value in slow_high]


def test_low_qualifies_exactly_when_naive_finds_a_low(family):
    hole_count, deals, _, fast_low, _, slow_low = family
    for deal, fast, slow in zip(deals, fast_low, slow_low):
        assert (fast == NO_LOW) == (slow is None), (hole_count, deal, fast, slow)


def test_low_order_agrees_with_naive(family):
    hole_count, deals, _, fast_low, _, slow_low = family
    qualifying = [index for index, low in enumerate(slow_low) if low is not None]
    assert len(qualifying) > 1000
    assert_same_order([fast_low[i] for i in qualifying], [slow_low[i] for i in qualifying],
                      [deals[i] for i in qualifying], f"{hole_count}-card low", random.Random(-hole_count))
    # and every qualifying low beats "no low"
    assert min(fast_low[i] for i in qualifying) > NO_LOW


@pytest.mark.parametrize("hole_count", HOLE_COUNTS)
def test_read_hand_matches_kernel_and_uses_cards_that_make_the_value(hole_count):
    deals = random_deals(2000 + hole_count, hole_count, READ_HAND_DEALS)
    fast_high, fast_low = kernel_values([hole for hole, _ in deals], [board for _, board in deals])
    lows_seen = 0
    for (hole, board), kernel_high, kernel_low in zip(deals, fast_high, fast_low):
        reading = read_hand(hole, board, True)
        high = reading.high
        assert high.value == kernel_high
        assert len(high.hole_cards) == 2 and len(set(high.hole_cards)) == 2 and set(high.hole_cards) <= set(hole)
        assert len(high.board_cards) == 3 and len(set(high.board_cards)) == 3 and set(high.board_cards) <= set(board)
        assert sorted(high.cards) == sorted(high.hole_cards + high.board_cards)
        five = list(high.hole_cards + high.board_cards)
        assert high_value(five) == high.value
        assert naive.high_value_5(five) == naive.best_high(hole, board)
        assert high.category == CATEGORY_NAMES[high.value >> CATEGORY_SHIFT]
        if kernel_low == NO_LOW:
            assert reading.low is None
            continue
        lows_seen += 1
        low = reading.low
        assert low.value == kernel_low
        assert len(set(low.hole_cards)) == 2 and set(low.hole_cards) <= set(hole)
        assert len(set(low.board_cards)) == 3 and set(low.board_cards) <= set(board)
        five = list(low.hole_cards + low.board_cards)
        assert low_hand_value(five) == low.value
        assert naive.low_value_5(five) == naive.best_low(hole, board)
        assert low.category == "low"
    assert lows_seen > READ_HAND_DEALS // 10


@pytest.mark.parametrize("board_count", (3, 4))
@pytest.mark.parametrize("hole_count", HOLE_COUNTS)
def test_read_hand_on_flop_and_turn_boards_finds_the_best_hand(hole_count, board_count):
    """read_hand takes 3..5 board cards; on short boards its choice is naive's best too."""
    for hole, board in random_deals(3000 + 10 * hole_count + board_count, hole_count, 100, board_count):
        reading = read_hand(hole, board, True)
        assert set(reading.high.board_cards) <= set(board) and len(set(reading.high.board_cards)) == 3
        assert naive.high_value_5(reading.high.hole_cards + reading.high.board_cards) == naive.best_high(hole, board)
        best_low = naive.best_low(hole, board)
        if best_low is None:
            assert reading.low is None
        else:
            assert naive.low_value_5(reading.low.hole_cards + reading.low.board_cards) == best_low


def test_kernel_and_read_hand_agree_on_hand_picked_deals():
    """A few deals where a hold'em-style evaluation would differ (exactly 2 + 3 matters)."""
    deals = [
        ("AhKhQhJh", "Th9h2c3d4s"),  # four hearts in hand, two on board: no flush
        ("Ah2c3d4s", "KhQh7h4h9c"),  # four-flush board, one heart in hand: no flush
        ("6s6h6d2c", "Ks9d4c3hJc"),  # trips in the hand play as a pair
        ("AcKdQhJs", "9c9d9h9s2c"),  # quads on the board: three nines for everybody
        ("2c3d4h5h", "AsKsQsJsTs"),  # royal flush board does not play
    ]
    holes = [parse_cards(hole) for hole, _ in deals]
    boards = [parse_cards(board) for _, board in deals]
    fast_high, fast_low = kernel_values(holes, boards)
    expected = [HIGH_CARD, PAIR, PAIR, THREE_OF_A_KIND, HIGH_CARD]
    assert [value >> CATEGORY_SHIFT for value in fast_high] == expected
    for hole, board, value in zip(holes, boards, fast_high):
        assert read_hand(hole, board, False).high.value == value
        assert naive.best_high(hole, board)[0] == value >> CATEGORY_SHIFT


# ---------------------------------------------------------------------------------------------
# 7,462 distinct five-card high hands
# ---------------------------------------------------------------------------------------------

# The standard count of distinct five-card high hands per category.
DISTINCT_PER_CATEGORY = {
    STRAIGHT_FLUSH: 10, FOUR_OF_A_KIND: 156, FULL_HOUSE: 156, FLUSH: 1277, STRAIGHT: 10,
    THREE_OF_A_KIND: 858, TWO_PAIR: 858, PAIR: 2860, HIGH_CARD: 1277,
}


def all_distinct_high_values() -> set[int]:
    """high_value of one representative hand for every rank multiset (unsuited) and every
    five distinct ranks (suited): every five-card hand has the value of one of these."""
    values = set()
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        used = Counter()
        cards = []
        for rank in ranks:  # a repeated rank gets suits c, d, h, s in turn
            cards.append(rank * 4 + used[rank])
            used[rank] += 1
        if len(set(ranks)) == 5:
            cards[-1] += 1  # not all clubs: unsuited
            values.add(high_value([rank * 4 for rank in ranks]))  # all clubs: suited
        values.add(high_value(cards))
    return values


def test_there_are_7462_distinct_high_values():
    values = all_distinct_high_values()
    assert len(values) == 7462
    per_category = Counter(value >> CATEGORY_SHIFT for value in values)
    assert dict(per_category) == DISTINCT_PER_CATEGORY


def test_tables_hold_exactly_the_7462_high_values():
    """The flush table holds the 1,287 suited values and the pair x triple table the 6,175
    unsuited ones (plus, for the impossible five-of-a-kind cells, values never dealt)."""
    tables = load_tables()
    suited = set(int(value) for value in np.unique(tables.flush) if value != 0)
    assert len(suited) == comb(13, 5) == 1287
    assert int(np.count_nonzero(tables.flush)) == 1287
    pairs = sorted(itertools.combinations_with_replacement(range(13), 2),
                   key=lambda ranks: comb(ranks[0], 1) + comb(ranks[1] + 1, 2))
    triples = sorted(itertools.combinations_with_replacement(range(13), 3),
                     key=lambda ranks: comb(ranks[0], 1) + comb(ranks[1] + 1, 2) + comb(ranks[2] + 2, 3))
    unsuited = set()
    for pair_index, pair in enumerate(pairs):
        for triple_index, triple in enumerate(triples):
            if max(Counter(pair + triple).values()) <= 4:
                unsuited.add(int(tables.pair_triple[pair_index, triple_index]))
    assert len(unsuited) == 6175
    assert suited.isdisjoint(unsuited)
    assert suited | unsuited == all_distinct_high_values()
