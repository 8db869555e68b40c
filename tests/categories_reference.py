"""Brute-force definitions of the hand categories (docs/categories.md), for the tests.

Pure Python on top of the slow reference evaluator (``naive.py``): every count is an
enumeration of the cards (and, for backdoor draws, card pairs) of the deck, every nut status a
count over every two-card holding. Shares nothing with ``omaha_equity.categories``.
"""

from collections import Counter
from functools import lru_cache
from itertools import combinations

import naive

STRAIGHT, FLUSH, FULL_HOUSE = 4, 5, 6
MADE = (
    "straight-flush", "quads", "full-house", "flush", "straight", "set", "trips",
    "top-two", "top-and-bottom", "bottom-two", "board-pair-plus-pair",
    "overpair", "top-pair-top-kicker", "top-pair-weak-kicker", "second-pair", "underpair", "low-pair",
    "nothing",
)
LOWS = ("nut-low", "second-nut-low", "weak-low", "nut-low-draw", "weak-low-draw", "backdoor-low", "no-low")


def fives(hole, board):
    for pair in combinations(sorted(hole), 2):
        for triple in combinations(sorted(board), 3):
            yield tuple(sorted(pair + triple))


def best_high(hole, board):
    return max(naive.remembered_high_value(five) for five in fives(hole, board))


def best_low(hole, board):
    lows = [low for low in (naive.remembered_low_value(five) for five in fives(hole, board)) if low is not None]
    return max(lows) if lows else None


@lru_cache(maxsize=1 << 20)
def _is_straight(five):
    ranks = sorted({card // 4 for card in five})
    return len(ranks) == 5 and (ranks[4] - ranks[0] == 4 or ranks == [0, 1, 2, 3, 12])


@lru_cache(maxsize=1 << 20)
def _is_flush(five):
    return len({card % 4 for card in five}) == 1


@lru_cache(maxsize=1 << 20)
def _is_boat_by_ranks(five):
    return sorted(Counter(card // 4 for card in five).values()) in ([2, 3], [1, 4])


def makes_straight(hole, board):
    """Whether exactly two hole cards and three board cards make a straight. A straight reads the
    ranks alone, so holdings and boards of the same ranks share the answer (worked out once)."""
    return _makes_straight_by_ranks(tuple(sorted(card // 4 for card in hole)),
                                    tuple(sorted(card // 4 for card in board)))


@lru_cache(maxsize=1 << 20)
def _makes_straight_by_ranks(hole_ranks, board_ranks):
    for pair in combinations(hole_ranks, 2):
        for triple in combinations(board_ranks, 3):
            ranks = sorted(set(pair + triple))
            if len(ranks) == 5 and (ranks[4] - ranks[0] == 4 or ranks == [0, 1, 2, 3, 12]):
                return True
    return False


def makes_flush(hole, board):
    """Whether exactly two hole cards and three board cards make a flush: read from the suits
    alone, so holdings and boards of the same suits share the answer (worked out once)."""
    return _makes_flush_by_suits(tuple(sorted(card % 4 for card in hole)), tuple(sorted(card % 4 for card in board)))


@lru_cache(maxsize=1 << 16)
def _makes_flush_by_suits(hole_suits, board_suits):
    return any(len(set(pair + triple)) == 1
               for pair in combinations(hole_suits, 2) for triple in combinations(board_suits, 3))


@lru_cache(maxsize=256)
def holding_highs(board):
    deck = [card for card in range(52) if card not in board]
    return frozenset(best_high(pair, board) for pair in combinations(deck, 2))


_LOWS_BY_RANKS = {}


def holding_lows(board):
    """The distinct lows of every two-card holding; a low ignores suits, so boards of the same
    ranks share the answer (worked out from the first such board met)."""
    key = tuple(sorted(card // 4 for card in board))
    if key not in _LOWS_BY_RANKS:
        deck = [card for card in range(52) if card not in board]
        lows = (best_low(pair, board) for pair in combinations(deck, 2))
        _LOWS_BY_RANKS[key] = frozenset(low for low in lows if low is not None)
    return _LOWS_BY_RANKS[key]


def made_hand(hole, board, value):
    category = value[0]
    if category >= STRAIGHT:
        return MADE[8 - category]
    board_counts = Counter(card // 4 for card in board)
    hole_counts = Counter(card // 4 for card in hole)
    ranks = sorted(board_counts, reverse=True)
    if category == 3:
        return {1: "set", 2: "trips"}.get(board_counts[value[1]], "nothing")
    if category == 2:
        high_pair, low_pair = value[1], value[2]
        if board_counts[high_pair] == 1 and board_counts[low_pair] == 1:
            if (high_pair, low_pair) == (ranks[0], ranks[1]):
                return "top-two"
            return "top-and-bottom" if (high_pair, low_pair) == (ranks[0], ranks[-1]) else "bottom-two"
        return "board-pair-plus-pair"
    if category == 1:
        pair = value[1]
        if board_counts[pair] == 0:
            return "overpair" if pair > ranks[0] else "underpair"
        if board_counts[pair] == 2:
            return "nothing"
        if pair == ranks[0]:
            kicker = max(rank for rank in hole_counts if rank != pair)
            best_kicker = max(rank for rank in range(13) if rank not in board_counts)
            return "top-pair-top-kicker" if kicker == best_kicker else "top-pair-weak-kicker"
        return "second-pair" if pair == ranks[1] else "low-pair"
    return "nothing"


def is_clean_straight_out(card, board):
    """A straight out that neither pairs the board nor is of a suit with two board cards."""
    return card // 4 not in {other // 4 for other in board} and sum(1 for other in board if other % 4 == card % 4) <= 1


def clean_straight_outs(hole, board):
    """The clean straight outs alone, by enumerating the next card (0 with a straight or better)."""
    hole, board = tuple(hole), tuple(sorted(board))
    if len(board) == 5 or best_high(hole, board)[0] >= STRAIGHT:
        return 0
    return sum(1 for card in range(52) if card not in hole and card not in board
               and is_clean_straight_out(card, board) and makes_straight(hole, board + (card,)))


def _flush_class(hole, board, flush_outs_by_suit):
    """Per drawing suit, the most higher cards of the suit left out over its flush outs; the best suit."""
    flush_class = -1
    for suit, outs in flush_outs_by_suit.items():
        top = max(card // 4 for card in hole if card % 4 == suit)
        worst = max(sum(1 for rank in range(top + 1, 13) if rank * 4 + suit not in board + (out,)) for out in outs)
        flush_class = worst if flush_class < 0 else min(flush_class, worst)
    return flush_class


def flush_draw_class(hole, board):
    """The flush-draw class alone (-1: no flush draw), by enumerating the next card."""
    hole, board = tuple(hole), tuple(sorted(board))
    if best_high(hole, board)[0] >= FLUSH:
        return -1
    outs = {}
    for card in range(52):
        if card not in hole and card not in board and makes_flush(hole, board + (card,)):
            outs.setdefault(card % 4, []).append(card)
    return _flush_class(hole, board, outs)


def reference(hole, board, hilo):
    """The category fields of ``hole`` on ``board`` (card ints), by enumeration: a dict."""
    hole, board = tuple(hole), tuple(sorted(board))
    deck = [card for card in range(52) if card not in hole and card not in board]
    value = best_high(hole, board)
    category = value[0]
    result = {"made": made_hand(hole, board, value),
              "beaten": sum(1 for other in holding_highs(board) if other > value)}
    straight_outs = clean = flush_outs = boat_outs = 0
    flush_outs_by_suit = {}
    backdoor_flush = backdoor_straight = False
    if len(board) < 5:
        for card in deck:
            after = list(fives(hole, board + (card,)))
            if category < STRAIGHT and any(_is_straight(five) for five in after):
                straight_outs += 1
                clean += is_clean_straight_out(card, board)
            if category < FLUSH and any(_is_flush(five) for five in after):
                flush_outs += 1
                flush_outs_by_suit.setdefault(card % 4, []).append(card)
            if category < FULL_HOUSE and any(_is_boat_by_ranks(five) for five in after):
                boat_outs += 1
        if len(board) == 3:
            runouts = list(combinations(deck, 2))
            if category < FLUSH and flush_outs == 0:
                backdoor_flush = any(makes_flush(hole, board + runout) for runout in runouts)
            if category < STRAIGHT and straight_outs == 0:
                backdoor_straight = any(makes_straight(hole, board + runout) for runout in runouts)
    flush_class = _flush_class(hole, board, flush_outs_by_suit)
    result.update(straight_outs=straight_outs, clean_straight_outs=clean, flush_outs=flush_outs,
                  flush_class=flush_class, boat_outs=boat_outs, backdoor_flush=int(backdoor_flush),
                  backdoor_straight=int(backdoor_straight))
    if hilo:
        result.update(_low_fields(hole, board, deck))
    return result


def _low_fields(hole, board, deck):
    low = best_low(hole, board)
    low_outs = 0
    counterfeit = 0
    beaten = -1
    if low is not None:
        beaten = sum(1 for other in holding_lows(board) if other > low)
        low_class = LOWS[min(beaten, 2)]
        if len(board) < 5:
            for card in deck:
                after = tuple(sorted(board + (card,)))
                low_after = best_low(hole, after)
                if sum(1 for other in holding_lows(after) if other > low_after) > beaten:
                    counterfeit = 1
    else:
        low_class = "no-low"
        if len(board) < 5:
            always_nut = True
            for card in deck:
                after = tuple(sorted(board + (card,)))
                low_after = best_low(hole, after)
                if low_after is not None:
                    low_outs += 1
                    if any(other > low_after for other in holding_lows(after)):
                        always_nut = False
            if low_outs:
                low_class = "nut-low-draw" if always_nut else "weak-low-draw"
            elif len(board) == 3 and any(best_low(hole, board + runout) is not None
                                         for runout in combinations(deck, 2)):
                low_class = "backdoor-low"
    return {"low": low_class, "low_outs": low_outs, "low_beaten": beaten, "counterfeit": counterfeit}
