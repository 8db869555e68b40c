"""The query language's functions, evaluated a block of deals at a time (columnar).

A :class:`Block` holds ``deal_count`` deals: every player's hole cards ``(deal_count,
player_count, hole_count) int8``, the board ``(deal_count, 5) int8`` (flop, turn, river in
dealing order) and each deal's weight. Every function takes the block and its checked
arguments and returns one array of ``deal_count`` values; the values a function needs (hand
values on a street, nut values, equities on a street) are computed once per block and kept
(:meth:`Block.cached`), on the compiled kernels of ``studies.outs``.

Types: ``number`` (float64), ``boolean``, ``handtype`` (0 high card .. 8 straight flush),
``flopcategory`` (an index of :data:`FLOP_CATEGORIES`, best first), ``card`` (0..51), and for
arguments ``player``, ``street``, ``text``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..boards import parse_board_range
from ..boards.flops import all_flops
from ..boards.texture import (board_low_rank_count, board_most_of_one_suit, board_paired, board_suit_count,
                              straight_possible)
from ..categories.categorize import categorize_hands
from ..categories.filters import terms_mask
from ..categories import streets
from ..categories.names import MADE_HANDS
from ..evaluate.tables import CATEGORY_SHIFT
from ..games import Game
from ..studies import outs

STREETS = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}
#: PQL's hand-type names, weakest first (the value's category).
HAND_TYPE_NAMES = ("highcard", "pair", "twopair", "trips", "straight", "flush", "fullhouse", "quads", "straightflush")
#: PQL-style flop categories, best first, each the made hand of ``categories.names.MADE_HANDS``
#: at the same index (docs/pql.md shows them side by side).
FLOP_CATEGORIES = (
    "flopstraightflush", "flopquads", "flopfullhouse", "flopflush", "flopstraight", "flopset", "floptrips",
    "floptoptwo", "floptopandbottom", "flopbottomtwo", "floppairplusboardpair", "flopoverpair",
    "floptoppairtopkicker", "floptoppair", "flopsecondpair", "flopunderpair", "flopbottompair", "flopnothing",
)
assert len(FLOP_CATEGORIES) == len(MADE_HANDS)


@dataclass
class Block:
    """A block of deals and what its functions computed (see the module docstring).

    Attributes
    ----------
    game : Game
    hands : (deal_count, player_count, hole_count) int8
    boards : (deal_count, 5) int8
    dead_mask : int, the dead cards (bit ``card``).
    known_board : tuple of int, the board cards the query fixed.
    """

    game: Game
    hands: np.ndarray
    boards: np.ndarray
    dead_mask: int
    known_board: tuple[int, ...]
    cache: dict = field(default_factory=dict)
    # street equities by deal key, shared by every block of a query (studies.streets.street_equities)
    equities: dict = field(default_factory=dict)

    @property
    def deal_count(self) -> int:
        return int(self.hands.shape[0])

    def cached(self, key, compute: Callable[[], object]):
        if key not in self.cache:
            self.cache[key] = compute()
        return self.cache[key]

    def values(self, board_count: int) -> tuple[np.ndarray, np.ndarray]:
        """(high, low) of every player on a street, ``(deal_count, player_count)``."""
        return self.cached(("values", board_count), lambda: streets.hand_values_on_street(
            self.hands, self.boards, board_count, self.game.hilo))

    def dead(self) -> np.ndarray:
        return np.full(self.deal_count, self.dead_mask, dtype=np.int64)

    def own_and_dead(self, player: int) -> np.ndarray:
        return streets.card_masks(self.hands[:, player]) | self.dead_mask

    def nuts(self, player: int, board_count: int) -> streets.NutValues:
        """The nuts on a street with the player's own and the dead cards out (PQL's nut tests)."""
        return self.cached(("nuts", player, board_count), lambda: streets.nut_values(
            self.boards, board_count, self.own_and_dead(player)))

    def shares(self) -> np.ndarray:
        """Each player's share of the pot at the river, ``(deal_count, player_count)`` float64."""
        def compute():
            high, low = self.values(5)
            high_winner = high == high.max(axis=1, keepdims=True)
            best_low = low.max(axis=1, keepdims=True)
            low_winner = (low == best_low) & (best_low > 0)
            has_low = low_winner.any(axis=1, keepdims=True)
            high_part = np.where(has_low, 0.5, 1.0) * high_winner / high_winner.sum(axis=1, keepdims=True)
            low_count = np.maximum(low_winner.sum(axis=1, keepdims=True), 1)
            return high_part + 0.5 * low_winner / low_count
        return self.cached("shares", compute)


@dataclass(frozen=True)
class Function:
    """A function of the language: its name as documented, argument and result types, what it
    computes, and one line of help."""

    name: str
    arguments: tuple[str, ...]
    result: str
    compute: Callable
    help: str


def _winners(block: Block, low: bool) -> tuple[np.ndarray, np.ndarray]:
    high_values, low_values = block.values(5)
    values = low_values if low else high_values
    best = values.max(axis=1, keepdims=True)
    holds = values == best
    if low:
        holds &= best > 0
    return holds, holds.sum(axis=1)


def _wins(block, player, low=False):
    holds, count = _winners(block, low)
    return holds[:, player] & (count == 1)


def _ties(block, player, low=False):
    holds, count = _winners(block, low)
    return holds[:, player] & (count > 1)


def _scoops(block, player):
    if not block.game.hilo:
        return _wins(block, player)
    low_holds, low_count = _winners(block, True)
    return _wins(block, player) & (_wins(block, player, True) | (low_count == 0))


def _hand_type(block, player, street):
    return block.values(street)[0][:, player] >> CATEGORY_SHIFT


def _street_equity(block, player, street):
    if street == 5:
        return block.shares()[:, player]
    return block.cached(("equity", street), lambda: streets.street_equities(
        block.hands, block.boards, street, block.dead(), block.game.hilo, block.equities.setdefault(street, {})))[
        :, player]


def _flop_category(block, player):
    def compute():
        return streets.made_hands(block.hands, block.boards, 3, block.values(3)[0])
    return block.cached("made", compute)[:, player].astype(np.int64)


def _category(block, player, street, text):
    """Our categories (docs/categories.md) of one player on each deal's street, one board at a
    time (a board's tables are built once per distinct board)."""
    terms = [term.strip() for term in text.strip().strip("{}").split(",") if term.strip()]
    result = np.zeros(block.deal_count, dtype=bool)
    streets = np.sort(block.boards[:, :street], axis=1)
    unique, inverse = np.unique(streets, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    for index, board in enumerate(unique):
        rows = np.flatnonzero(inverse == index)
        cards = tuple(int(card) for card in board)
        fields = categorize_hands(block.hands[rows, player], cards, block.game.hilo)
        result[rows] = terms_mask(fields, terms, block.hands[rows, player], cards)
    return result


def _in_range(block, player, hands_masks):
    return np.isin(streets.card_masks(block.hands[:, player]), hands_masks)


def _board_in_range(block, flop_mask):
    flops = np.sort(block.boards[:, :3], axis=1)[:, ::-1]
    keys = (flops[:, 0].astype(np.int64) << 12) | (flops[:, 1].astype(np.int64) << 6) | flops[:, 2]
    every = all_flops().astype(np.int64)
    every_keys = (every[:, 0] << 12) | (every[:, 1] << 6) | every[:, 2]
    return np.isin(keys, every_keys[flop_mask])


def _board(block, street):
    """(deals, street) int8: the board cards dealt by ``street``."""
    return block.boards[:, :street]


def _suit_count(block, street):
    return board_suit_count(_board(block, street))


def _nut_hi(block, player, street):
    return block.values(street)[0][:, player] == block.nuts(player, street).high


def _nut_lo(block, player, street):
    low = block.values(street)[1][:, player]
    return (low > 0) & (low == block.nuts(player, street).low)


def _nut_for_type(block, player, street):
    high = block.values(street)[0][:, player]
    best = block.nuts(player, street).by_type
    return high == best[np.arange(block.deal_count), high >> CATEGORY_SHIFT]


def _outs_by_type(block, player, street):
    return block.cached(("outs", player, street), lambda: outs.outs_by_hand_type(
        block.hands[:, player], block.boards, street, block.dead()))


def _winning_hand_type(block):
    return block.values(5)[0].max(axis=1) >> CATEGORY_SHIFT


def _river_equity(block, player):
    return block.shares()[:, player]


FUNCTIONS: dict[str, Function] = {function.name.lower(): function for function in (
    Function("riverEquity", ("player",), "number", _river_equity,
             "the player's share of the pot at the river (ties split, hi/lo halves)"),
    Function("fractionalRiverEquity", ("player",), "fraction", _river_equity,
             "riverEquity as an exact fraction (1/2, 1/3, 1/4 ...)"),
    Function("HvHequity", ("player", "street"), "number", _street_equity,
             "equity on the street with every hand known, every completion enumerated"),
    Function("equity", ("player", "street"), "number", _street_equity, "the same as HvHequity"),
    Function("minHvHequity", ("player", "street", "number"), "boolean",
             lambda block, player, street, threshold: _street_equity(block, player, street) >= threshold,
             "HvHequity(player, street) >= threshold"),
    Function("winsHi", ("player",), "boolean", _wins, "the player alone holds the best high at the river"),
    Function("tiesHi", ("player",), "boolean", _ties, "the player shares the best high with another"),
    Function("winsLo", ("player",), "boolean", lambda block, player: _wins(block, player, True),
             "the player alone holds the best qualifying low"),
    Function("tiesLo", ("player",), "boolean", lambda block, player: _ties(block, player, True),
             "the player shares the best qualifying low"),
    Function("scoops", ("player",), "boolean", _scoops, "the player wins the whole pot"),
    Function("handType", ("player", "street"), "handtype", _hand_type, "the player's hand type on the street"),
    Function("minHandType", ("player", "street", "handtype"), "boolean",
             lambda block, player, street, kind: _hand_type(block, player, street) >= kind,
             "the player's hand type is at least the type"),
    Function("exactHandType", ("player", "street", "handtype"), "boolean",
             lambda block, player, street, kind: _hand_type(block, player, street) == kind,
             "the player's hand type is the type"),
    Function("hiRating", ("player", "street"), "number",
             lambda block, player, street: block.values(street)[0][:, player].astype(np.float64),
             "the player's high value on the street (larger is better)"),
    Function("flopHandCategory", ("player",), "flopcategory", _flop_category,
             "the player's made hand on the flop (FLOP_CATEGORIES)"),
    Function("minFlopHandCategory", ("player", "flopcategory"), "boolean",
             lambda block, player, category: _flop_category(block, player) <= category,
             "the player's flop category is the category or better"),
    Function("exactFlopHandCategory", ("player", "flopcategory"), "boolean",
             lambda block, player, category: _flop_category(block, player) == category,
             "the player's flop category is the category"),
    Function("category", ("player", "street", "text"), "boolean", _category,
             "the player holds one of our categories on the street, e.g. '{set+, nfd}'"),
    Function("nutHi", ("player", "street"), "boolean", _nut_hi,
             "the player holds the nut high, the player's own and the dead cards out"),
    Function("nutLo", ("player", "street"), "boolean", _nut_lo,
             "the player holds the nut low, the player's own and the dead cards out"),
    Function("nutHiForHandType", ("player", "street"), "boolean", _nut_for_type,
             "the player holds the best hand of its hand type, the player's own and the dead cards out"),
    Function("outsToHandType", ("player", "street", "handtype"), "number",
             lambda block, player, street, kind: _outs_by_type(block, player, street)[:, kind].astype(np.float64),
             "next cards that give the player exactly the hand type"),
    Function("minOutsToHandType", ("player", "street", "handtype"), "number",
             lambda block, player, street, kind:
             _outs_by_type(block, player, street)[:, kind:].sum(axis=1).astype(np.float64),
             "next cards that give the player the hand type or better"),
    Function("nutHiOuts", ("player", "street"), "number",
             lambda block, player, street: outs.nut_outs(block.hands[:, player], block.boards, street,
                                                         block.dead()).astype(np.float64),
             "next cards that give the player the nut high (own and dead cards out)"),
    Function("inRange", ("player", "range"), "boolean", _in_range, "the player's hand is in the range"),
    Function("boardInRange", ("boardrange",), "boolean", _board_in_range, "the flop is in the board range"),
    Function("pairedBoard", ("street",), "boolean", lambda block, street: board_paired(_board(block, street)),
             "two board cards share a rank"),
    Function("monotoneBoard", ("street",), "boolean", lambda block, street: _suit_count(block, street) == 1,
             "every board card of one suit"),
    Function("twoToneBoard", ("street",), "boolean", lambda block, street: _suit_count(block, street) == 2,
             "the board's cards of exactly two suits"),
    Function("rainbowBoard", ("street",), "boolean",
             lambda block, street: _suit_count(block, street) == min(street, 4),
             "no two board cards of one suit (flop 3 suits, turn 4)"),
    Function("straightPossible", ("street",), "boolean",
             lambda block, street: straight_possible(_board(block, street)),
             "some two hole cards make a straight with the board"),
    Function("flushPossible", ("street",), "boolean",
             lambda block, street: board_most_of_one_suit(_board(block, street)) >= 3,
             "three or more board cards of one suit"),
    Function("boardSuitCount", ("street",), "number",
             lambda block, street: _suit_count(block, street).astype(np.float64), "the board's distinct suits"),
    Function("boardLoCardCount", ("street",), "number",
             lambda block, street: board_low_rank_count(_board(block, street)).astype(np.float64),
             "the board's distinct low ranks (A-8)"),
    Function("boardAllowsMadeLo", ("street",), "boolean",
             lambda block, street: board_low_rank_count(_board(block, street)) >= 3,
             "three or more distinct low ranks: a made low is possible"),
    Function("turnCard", (), "card", lambda block: block.boards[:, 3].astype(np.int64), "the turn card"),
    Function("riverCard", (), "card", lambda block: block.boards[:, 4].astype(np.int64), "the river card"),
    Function("winningHandType", (), "handtype", _winning_hand_type, "the hand type of the best high at the river"),
)}
ALIASES = {"flushingboard": "flushpossible", "straightboard": "straightpossible", "hvhequity": "hvhequity",
           "minequity": "minhvhequity"}
for _alias, _target in ALIASES.items():
    FUNCTIONS.setdefault(_alias, FUNCTIONS[_target])


def board_range_mask(text: str) -> np.ndarray:
    """(22100,) bool over ``all_flops()``: the flops of a board range (``boards`` syntax)."""
    return parse_board_range(text).mask
