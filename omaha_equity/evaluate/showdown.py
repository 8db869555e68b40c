"""Reading hands at showdown: the best high and low of each player, with the cards used.

This is the readable side of the evaluator: it tries every combination of exactly two hole
cards and three board cards (at most 15 x 10) and values each five-card hand with the same
generator functions the lookup tables are built from, so its values equal the kernels'.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..cards import RANK_NAMES, RANKS, card_rank, card_suit, check_no_duplicates, format_cards, parse_cards
from ..deal import CardsLike, make_deal
from ..errors import InputError, quoted
from ..games import Game
from ..pots import showdown_shares
from .tables import (
    CATEGORY_NAMES, CATEGORY_SHIFT, FLUSH, FOUR_OF_A_KIND, FULL_HOUSE, HIGH_CARD, NO_LOW, PAIR,
    STRAIGHT, STRAIGHT_FLUSH, THREE_OF_A_KIND, TWO_PAIR, load_tables, low_bit, low_value, suited_value, unsuited_value,
)

_PLURALS = ("deuces", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
            "jacks", "queens", "kings", "aces")
_LOW_RANK_TEXT = "A2345678"


def high_value(five_cards: Sequence[int]) -> int:
    """High value (larger is better) of exactly five cards, as in ``tables``."""
    ranks = [card_rank(card) for card in five_cards]
    if len({card_suit(card) for card in five_cards}) == 1:
        return suited_value(ranks)
    return unsuited_value(ranks)


def low_hand_value(five_cards: Sequence[int]) -> int:
    """8-or-better low value of exactly five cards (larger is better), ``NO_LOW`` if none."""
    mask = 0
    for card in five_cards:
        mask |= low_bit(card_rank(card))
    if bin(mask).count("1") < 5:
        return NO_LOW
    return low_value(mask)


def best_values(hole_cards: Sequence[int], board_cards: Sequence[int]) -> tuple[int, int]:
    """(high value, low value) of one player's best hand: hole cards and a complete five-card
    board as card indexes, scored by the compiled evaluator (``_kernels.evaluate_deals``, the
    kernels' encoding: larger is better; low ``NO_LOW`` = 0 when there is no 8-or-better low,
    whatever the game).
    """
    from ._kernels import evaluate_deals  # lazy: numba, which reading a hand needs not

    tables = load_tables()
    high, low = evaluate_deals(np.array([hole_cards], dtype=np.int8), np.array([board_cards], dtype=np.int8),
                               *tables.scoring_arguments())
    return int(high[0]), int(low[0])


def _significance_order(five_cards: Sequence[int], category: int) -> tuple[int, ...]:
    """Cards ordered as a player reads them: bigger groups first, then higher ranks; a wheel
    reads 5-4-3-2-A."""
    counts = Counter(card_rank(card) for card in five_cards)
    ranks = sorted(counts)
    wheel = category in (STRAIGHT, STRAIGHT_FLUSH) and ranks == [0, 1, 2, 3, 12]

    def key(card: int):
        rank = -1 if wheel and card_rank(card) == 12 else card_rank(card)
        return (counts[card_rank(card)], rank, card_suit(card))

    return tuple(sorted(five_cards, key=key, reverse=True))


def _ranks_text(ranks) -> str:
    return "-".join(RANKS[rank] for rank in ranks)


# Words for each category, from the five ranks in order of significance (``_significance_order``).
_HIGH_WORDS = {
    STRAIGHT_FLUSH: lambda ranks: ("royal flush" if ranks[0] == 12
                                   else f"straight flush, {RANK_NAMES[ranks[0]]} high"),
    FOUR_OF_A_KIND: lambda ranks: f"four {_PLURALS[ranks[0]]}, {RANK_NAMES[ranks[4]]} kicker",
    FULL_HOUSE: lambda ranks: f"{_PLURALS[ranks[0]]} full of {_PLURALS[ranks[3]]}",
    FLUSH: lambda ranks: f"flush, {_ranks_text(ranks)}",
    STRAIGHT: lambda ranks: f"straight, {RANK_NAMES[ranks[0]]} high",
    THREE_OF_A_KIND: lambda ranks: f"three {_PLURALS[ranks[0]]}, {_ranks_text(ranks[3:])} kickers",
    TWO_PAIR: lambda ranks: f"{_PLURALS[ranks[0]]} and {_PLURALS[ranks[2]]}, {RANK_NAMES[ranks[4]]} kicker",
    PAIR: lambda ranks: f"pair of {_PLURALS[ranks[0]]}, {_ranks_text(ranks[2:])} kickers",
    HIGH_CARD: lambda ranks: f"{RANK_NAMES[ranks[0]]} high, {_ranks_text(ranks[1:])}",
}


def describe_high(value: int) -> str:
    """Words for a high value, e.g. ``three sixes, A-8 kickers``."""
    ranks = [(value >> (16 - 4 * position)) & 15 for position in range(5)]
    return _HIGH_WORDS[value >> CATEGORY_SHIFT](ranks)


def describe_low(value: int) -> str:
    """Words for a low value, e.g. ``7-5-4-3-2 low``."""
    mask = 255 - value
    return "-".join(_LOW_RANK_TEXT[bit] for bit in range(7, -1, -1) if mask >> bit & 1) + " low"


@dataclass(frozen=True)
class MadeHand:
    """A five-card hand made from exactly two hole cards and three board cards.

    Attributes
    ----------
    value : int
        High value (larger is better) or low value (larger is better).
    category : str
        ``"three of a kind"``, ``"flush"``, ... for a high hand; ``"low"`` for a low.
    description : str
        ``"three sixes, A-8 kickers"``, ``"7-5-4-3-2 low"``.
    cards : tuple of int
        The five cards, in reading order.
    hole_cards, board_cards : tuple of int
        The two hole cards and three board cards used.
    """

    value: int
    category: str
    description: str
    cards: tuple[int, ...]
    hole_cards: tuple[int, ...]
    board_cards: tuple[int, ...]

    @property
    def cards_text(self) -> str:
        return format_cards(self.cards, separator=" ")


@dataclass(frozen=True)
class HandReading:
    """One player's hand at showdown: the hole cards, the best high, and the best
    qualifying low (``None`` in high-only games or when no low qualifies)."""

    hole_cards: tuple[int, ...]
    high: MadeHand
    low: MadeHand | None


def read_hand(hole_cards: CardsLike, board_cards: CardsLike, hilo: bool) -> HandReading:
    """Best high (and low, when ``hilo``) of a hand with 3..5 board cards, under the two-hole,
    three-board rule. Cards as text (``"AsKdQh9c"``) or as card ints.

    Raises
    ------
    InputError
        An unknown or duplicate card; fewer than 3 board cards (an Omaha hand needs three).
    """
    hole_cards, board_cards = parse_cards(hole_cards), parse_cards(board_cards)
    check_no_duplicates([("hand", hole_cards), ("board", board_cards)])
    if len(board_cards) < 3:
        raise InputError(
            f"board must have at least 3 cards to make an Omaha hand, got {len(board_cards)}"
            f" in {format_cards(board_cards)!r}"
        )
    best_high: tuple[int, tuple, tuple] | None = None
    best_low: tuple[int, tuple, tuple] | None = None
    for hole_pair in itertools.combinations(hole_cards, 2):
        for board_triple in itertools.combinations(board_cards, 3):
            five = hole_pair + board_triple
            value = high_value(five)
            if best_high is None or value > best_high[0]:
                best_high = (value, hole_pair, board_triple)
            if hilo:
                low = low_hand_value(five)
                if low != NO_LOW and (best_low is None or low > best_low[0]):
                    best_low = (low, hole_pair, board_triple)
    value, hole_pair, board_triple = best_high
    category = value >> CATEGORY_SHIFT
    high = MadeHand(value, CATEGORY_NAMES[category], describe_high(value),
                    _significance_order(hole_pair + board_triple, category), hole_pair, board_triple)
    low = None
    if best_low is not None:
        value, hole_pair, board_triple = best_low
        cards = tuple(sorted(hole_pair + board_triple, key=lambda card: _LOW_RANK_TEXT.find(
            "A" if card_rank(card) == 12 else RANKS[card_rank(card)]), reverse=True))
        low = MadeHand(value, "low", describe_low(value), cards, hole_pair, board_triple)
    return HandReading(tuple(hole_cards), high, low)


@dataclass(frozen=True)
class Showdown:
    """A complete showdown.

    Attributes
    ----------
    game : Game
    board : tuple of int (5 cards)
    readings : tuple of HandReading, one per player
    high_winners, low_winners : tuple of int
        Player indexes (0-based) holding the best high / the best qualifying low (empty when
        no low qualifies or the game is high only).
    shares : tuple of Fraction
        Each player's share of the pot (``pots.showdown_shares``).
    """

    game: Game
    board: tuple[int, ...]
    readings: tuple[HandReading, ...]
    high_winners: tuple[int, ...]
    low_winners: tuple[int, ...]
    shares: tuple[Fraction, ...]


def read_showdown(hands: Sequence[CardsLike], board: CardsLike, game: str | Game = "omaha",
                  *, die: int | None = None) -> Showdown:
    """Read every hand on a complete board and split the pot.

    Parameters
    ----------
    hands : sequence of str
        One or more players' hole cards.
    board : str
        Exactly five board cards.

    Raises
    ------
    InputError
        Bad cards or game, or a board that is not complete.
    """
    deal = make_deal(hands, board, "", game, die=die, min_players=1)
    if len(deal.board) != 5:
        raise InputError(f"showdown needs a complete board of 5 cards, got {len(deal.board)} in {quoted(board)}")
    readings = tuple(read_hand(hand, deal.board, deal.game.hilo) for hand in deal.hands)
    high_values = [reading.high.value for reading in readings]
    low_values = [reading.low.value if reading.low else NO_LOW for reading in readings]
    shares = showdown_shares(high_values, low_values, deal.game.hilo)
    best_high = max(high_values)
    best_low = max(low_values)
    return Showdown(
        game=deal.game,
        board=deal.board,
        readings=readings,
        high_winners=tuple(p for p, value in enumerate(high_values) if value == best_high),
        low_winners=tuple(p for p, value in enumerate(low_values) if best_low != NO_LOW and value == best_low),
        shares=tuple(shares),
    )
