"""Slow, obviously-correct reference evaluator for Omaha (the test oracle).

Pure Python, written for clarity, not speed. It shares no code with ``omaha_equity``:
tests compare the fast kernels against these functions.

A card is an int 0..51 equal to ``rank * 4 + suit``; rank 0..12 stands for 2, 3, ..., 9, T, J,
Q, K, A and suit 0..3 for c, d, h, s. Every hand uses exactly two hole cards and exactly three
board cards (docs/rules.md, "Cards and hands").
"""

from collections import Counter
from fractions import Fraction
from itertools import combinations

RANK_CHARACTERS = "23456789TJQKA"
SUIT_CHARACTERS = "cdhs"

ACE_RANK = 12

HIGH_CARD = 0
PAIR = 1
TWO_PAIR = 2
THREE_OF_A_KIND = 3
STRAIGHT = 4
FLUSH = 5
FULL_HOUSE = 6
FOUR_OF_A_KIND = 7
STRAIGHT_FLUSH = 8


# ---------------------------------------------------------------------------------------------
# Card parsing
# ---------------------------------------------------------------------------------------------


def card(text):
    """Parse one card such as 'As' (-> 51), 'Tc' (-> 32) or '2c' (-> 0)."""
    text = text.strip()
    if len(text) != 2 or text[0].upper() not in RANK_CHARACTERS or text[1].lower() not in SUIT_CHARACTERS:
        raise ValueError(f"expected a card like 'As' or 'Tc', got {text!r}")
    rank = RANK_CHARACTERS.index(text[0].upper())
    suit = SUIT_CHARACTERS.index(text[1].lower())
    return rank * 4 + suit


def cards(text):
    """Parse cards such as 'AsKd Qh' or 'AsKdQh' into a list of ints; whitespace is ignored."""
    compact = "".join(text.split())
    if len(compact) % 2 != 0:
        raise ValueError(f"expected two characters per card, got {text!r}")
    return [card(compact[index:index + 2]) for index in range(0, len(compact), 2)]


def rank_of(card_value):
    """Rank 0..12 (2..A) of a card."""
    return card_value // 4


def suit_of(card_value):
    """Suit 0..3 (c, d, h, s) of a card."""
    return card_value % 4


def card_text(card_value):
    """Inverse of ``card``: 51 -> 'As'."""
    return RANK_CHARACTERS[rank_of(card_value)] + SUIT_CHARACTERS[suit_of(card_value)]


def _as_cards(value):
    """Accept a card string ('AsKd') or an iterable of ints; return a list of ints."""
    if isinstance(value, str):
        return cards(value)
    return [int(card_value) for card_value in value]


# ---------------------------------------------------------------------------------------------
# High hands
# ---------------------------------------------------------------------------------------------


def _straight_high_rank(ranks):
    """High rank of a straight made by five ranks, or None; the wheel A-2-3-4-5 is 5-high (3)."""
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct[4] - distinct[0] == 4:
        return distinct[4]
    if distinct == [0, 1, 2, 3, ACE_RANK]:
        return 3  # the five
    return None


def high_value_5(five_cards):
    """Standard high ranking of exactly five cards as a tuple (category, tiebreak ranks...).

    Larger is better. Categories: 0 high card, 1 pair, 2 two pair, 3 three of a kind,
    4 straight, 5 flush, 6 full house, 7 four of a kind, 8 straight flush.
    """
    five_cards = list(five_cards)
    if len(five_cards) != 5 or len(set(five_cards)) != 5:
        raise ValueError(f"expected five distinct cards, got {five_cards!r}")
    ranks = [rank_of(card_value) for card_value in five_cards]
    suits = [suit_of(card_value) for card_value in five_cards]

    is_flush = len(set(suits)) == 1
    straight_high = _straight_high_rank(ranks)

    # Ranks ordered by (how many times they occur, rank), most significant first.
    counts = Counter(ranks)
    grouped = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    group_ranks = tuple(rank for rank, _ in grouped)
    group_sizes = [size for _, size in grouped]
    descending = tuple(sorted(ranks, reverse=True))

    if straight_high is not None and is_flush:
        return (STRAIGHT_FLUSH, straight_high)
    if group_sizes == [4, 1]:
        return (FOUR_OF_A_KIND,) + group_ranks
    if group_sizes == [3, 2]:
        return (FULL_HOUSE,) + group_ranks
    if is_flush:
        return (FLUSH,) + descending
    if straight_high is not None:
        return (STRAIGHT, straight_high)
    if group_sizes == [3, 1, 1]:
        return (THREE_OF_A_KIND,) + group_ranks
    if group_sizes == [2, 2, 1]:
        return (TWO_PAIR,) + group_ranks
    if group_sizes == [2, 1, 1, 1]:
        return (PAIR,) + group_ranks
    return (HIGH_CARD,) + descending


def _omaha_fives(hole, board):
    """Every five-card hand of exactly 2 hole cards and exactly 3 board cards."""
    hole = list(hole)
    board = list(board)
    if not 4 <= len(hole) <= 6:
        raise ValueError(f"expected 4, 5 or 6 hole cards, got {len(hole)}: {hole!r}")
    if not 3 <= len(board) <= 5:
        raise ValueError(f"expected 3 to 5 board cards, got {len(board)}: {board!r}")
    if len(set(hole + board)) != len(hole) + len(board):
        raise ValueError(f"duplicate card in hole {hole!r} and board {board!r}")
    for hole_pair in combinations(hole, 2):
        for board_triple in combinations(board, 3):
            yield list(hole_pair) + list(board_triple)


# A five-card hand's high value depends only on its ranks and on whether its five suits are one
# suit (high_value_5 reads nothing else), and its low value on its ranks alone (low_value_5), so
# the reference remembers each value by that pattern: the same functions, called once per pattern
# instead of once per hand. Bounded by nature: 7,462 high patterns (6,175 rank multisets plus
# 1,287 one-suit ones), 6,175 low ones.
_HIGH_BY_PATTERN = {}
_LOW_BY_RANKS = {}


def remembered_high_value(five_cards):
    """``high_value_5(five_cards)``, worked out once per rank pattern."""
    pattern = (tuple(sorted(card_value // 4 for card_value in five_cards)),
               len({card_value % 4 for card_value in five_cards}) == 1)
    if pattern not in _HIGH_BY_PATTERN:
        _HIGH_BY_PATTERN[pattern] = high_value_5(five_cards)
    return _HIGH_BY_PATTERN[pattern]


def remembered_low_value(five_cards):
    """``low_value_5(five_cards)``, worked out once per rank multiset."""
    ranks = tuple(sorted(card_value // 4 for card_value in five_cards))
    if ranks not in _LOW_BY_RANKS:
        _LOW_BY_RANKS[ranks] = low_value_5(five_cards)
    return _LOW_BY_RANKS[ranks]


def best_high(hole, board):
    """Best high value over every exactly-2-hole + exactly-3-board combination."""
    return max(remembered_high_value(five) for five in _omaha_fives(hole, board))


# ---------------------------------------------------------------------------------------------
# Low hands (8 or better)
# ---------------------------------------------------------------------------------------------


def _low_rank(card_value):
    """Rank for low: ace 1, deuce 2, ..., king 13."""
    rank = rank_of(card_value)
    return 1 if rank == ACE_RANK else rank + 2


def low_value_5(five_cards):
    """8-or-better low value of five cards, larger is better; None if it does not qualify.

    Qualifies only with five distinct ranks all 8 or lower (ace low). The value is the
    descending list of low ranks negated, so 7-5-4-3-2 beats 7-6-3-2-A. Straights and
    flushes are ignored.
    """
    five_cards = list(five_cards)
    if len(five_cards) != 5 or len(set(five_cards)) != 5:
        raise ValueError(f"expected five distinct cards, got {five_cards!r}")
    low_ranks = [_low_rank(card_value) for card_value in five_cards]
    if len(set(low_ranks)) != 5 or max(low_ranks) > 8:
        return None
    return tuple(-low_rank for low_rank in sorted(low_ranks, reverse=True))


def best_low(hole, board):
    """Best qualifying low over every exactly-2-hole + exactly-3-board combination, or None."""
    lows = [remembered_low_value(five) for five in _omaha_fives(hole, board)]
    qualifying = [low for low in lows if low is not None]
    return max(qualifying) if qualifying else None


# ---------------------------------------------------------------------------------------------
# Showdown and enumeration
# ---------------------------------------------------------------------------------------------


def _best_indices(values):
    """Indices of the players holding the maximum of ``values`` (None entries never win)."""
    present = [value for value in values if value is not None]
    if not present:
        return []
    best = max(present)
    return [index for index, value in enumerate(values) if value == best]


def showdown_shares(hands, board, hilo):
    """Each player's share (Fraction) of one pot on a complete board.

    High only: the pot is split among the best highs. Hi/lo: if anyone has a qualifying low,
    half goes to the best high(s) and half to the best low(s); otherwise high takes it all.
    """
    hands = [_as_cards(hand) for hand in hands]
    board = _as_cards(board)
    highs = [best_high(hand, board) for hand in hands]
    high_winners = _best_indices(highs)
    shares = [Fraction(0)] * len(hands)

    low_winners = []
    if hilo:
        lows = [best_low(hand, board) for hand in hands]
        low_winners = _best_indices(lows)

    high_pot = Fraction(1, 2) if low_winners else Fraction(1)
    for index in high_winners:
        shares[index] += high_pot / len(high_winners)
    for index in low_winners:
        shares[index] += Fraction(1, 2) / len(low_winners)
    return shares


def enumerate_equity(hands, board=(), dead=(), hilo=False):
    """Exact equity by enumerating every completion of the board to five cards.

    Returns a dict: 'boards' (number of completions), 'equity' (mean share per player, as
    Fractions), per-player board counts 'win_hi', 'tie_hi', 'win_lo', 'tie_lo', 'scoop'
    (share is the whole pot), 'tie' (a part of the pot, sharing a half or the high-only pot
    with an equal hand), 'split' (a part of the pot, tying nobody), 'quartered' (share exactly
    1/4), 'has_low' (player has a qualifying low), 'equity_low' (mean share won from the low
    half, Fractions) and 'low_boards' (completions on which anyone has a qualifying low).
    win/tie count boards where the player is the sole best / one of several best; the low
    counts only look at boards where some low qualifies (always 0 when ``hilo`` is False).
    """
    hands = [_as_cards(hand) for hand in hands]
    board = _as_cards(board)
    dead = _as_cards(dead)
    used = [card_value for hand in hands for card_value in hand] + board + dead
    if len(set(used)) != len(used):
        raise ValueError(f"duplicate card among hands {hands!r}, board {board!r}, dead {dead!r}")
    if len(board) > 5:
        raise ValueError(f"expected at most 5 board cards, got {len(board)}: {board!r}")
    player_count = len(hands)
    deck = [card_value for card_value in range(52) if card_value not in set(used)]

    result = {
        "boards": 0,
        "equity": [Fraction(0)] * player_count,
        "win_hi": [0] * player_count,
        "tie_hi": [0] * player_count,
        "win_lo": [0] * player_count,
        "tie_lo": [0] * player_count,
        "scoop": [0] * player_count,
        "has_low": [0] * player_count,
        "quartered": [0] * player_count,
        "tie": [0] * player_count,
        "split": [0] * player_count,
        "low_boards": 0,
    }
    share_totals = [Fraction(0)] * player_count
    low_totals = [Fraction(0)] * player_count

    for completion in combinations(deck, 5 - len(board)):
        full_board = board + list(completion)
        result["boards"] += 1

        highs = [best_high(hand, full_board) for hand in hands]
        high_winners = _best_indices(highs)
        high_key = "win_hi" if len(high_winners) == 1 else "tie_hi"
        for index in high_winners:
            result[high_key][index] += 1

        low_winners = []
        if hilo:
            lows = [best_low(hand, full_board) for hand in hands]
            for index, low in enumerate(lows):
                if low is not None:
                    result["has_low"][index] += 1
            low_winners = _best_indices(lows)
            if low_winners:
                result["low_boards"] += 1
                low_key = "win_lo" if len(low_winners) == 1 else "tie_lo"
                for index in low_winners:
                    result[low_key][index] += 1

        # Shares, exactly as showdown_shares computes them (kept inline to reuse highs/lows).
        shares = [Fraction(0)] * player_count
        high_pot = Fraction(1, 2) if low_winners else Fraction(1)
        for index in high_winners:
            shares[index] += high_pot / len(high_winners)
        for index in low_winners:
            shares[index] += Fraction(1, 2) / len(low_winners)
            low_totals[index] += Fraction(1, 2) / len(low_winners)

        for index, share in enumerate(shares):
            share_totals[index] += share
            if share == 1:
                result["scoop"][index] += 1
            elif share > 0:
                tied = (index in high_winners and len(high_winners) > 1) or (
                    index in low_winners and len(low_winners) > 1)
                result["tie" if tied else "split"][index] += 1
            if share == Fraction(1, 4):
                result["quartered"][index] += 1

    if result["boards"] == 0:
        raise ValueError("no board completions: not enough cards left in the deck")
    result["equity"] = [total / result["boards"] for total in share_totals]
    result["equity_low"] = [total / result["boards"] for total in low_totals]
    return result
