"""How often each hand ends with each final hand type by the river, from a flop or a turn
(``calc --hand-types``): every river board is enumerated, as ``calc`` enumerates them.

For each player it counts the river boards on which the player's best high is each hand type
(high card .. straight flush, ``evaluate.tables.CATEGORY_NAMES``). For hi/lo it also counts the
boards with a made low, with the nut low, and with a counterfeited low.

The nut low is the best low any two cards can make with the board, the board's cards alone
removed (PQL's ``nutLo``, and our categories' rule: docs/categories.md). A low is
*counterfeited* when a board card pairs one of the hand's low cards and the hand loses the low
it held. The field's word is for exactly this ("counterfeit": a board card that duplicates a
card of the hand and so devalues it, https://en.wikipedia.org/wiki/Glossary_of_poker_terms).
Here a hand's low is counterfeited by the river when all three of these hold:

1. On an earlier street (the board given, or the turn after a given flop) it held the nut low.
2. A board card dealt after that street has the rank of one of its low hole cards (A to 8).
3. On the river it does not hold the nut low.

The hand types by street and the nut low come from the street kernels that PQL and ``outs``
use (``studies.outs.hand_values_on_street``, ``studies.outs.nut_values``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np

from ..cards import format_cards
from ..deal import CardsLike, parse_board_and_dead
from ..equity.players import FIXED
from ..equity.query import seat_cards
from ..errors import InputError
from ..evaluate.tables import CATEGORY_NAMES, CATEGORY_SHIFT
from ..games import BOARD_SIZE, Game, get_game
from ..validate import check_hands
from .outs import hand_values_on_street, nut_values

#: Hand types, weakest first (index = the value's category).
HAND_TYPES = CATEGORY_NAMES
# Low ranks of the 8-or-better low, as card ranks (2 = 0 .. 8 = 6, ace = 12).
_LOW_RANKS = frozenset((*range(7), 12))


@dataclass(frozen=True)
class PlayerHandTypes:
    """One player's final hand types over every river board.

    Attributes
    ----------
    hand : str
        The hand, canonical text.
    type_counts : tuple of int
        River boards ending with each hand type, in ``HAND_TYPES`` order (high card first).
    made_low, nut_low, counterfeited_low : int
        Hi/lo: river boards with a qualifying low, with the nut low, and with a counterfeited
        low (module docstring); 0 for a high-only game.
    board_count : int
        River boards enumerated (every count is out of it).
    """

    hand: str
    type_counts: tuple[int, ...]
    made_low: int
    nut_low: int
    counterfeited_low: int
    board_count: int

    def share(self, count: int) -> Fraction:
        """A count as an exact fraction of the boards."""
        return Fraction(count, self.board_count)

    def or_better(self, type_index: int) -> int:
        """Boards ending with hand type ``type_index`` or better."""
        return sum(self.type_counts[type_index:])


@dataclass(frozen=True)
class HandTypesResult:
    """Every player's final hand types by the river (:func:`hand_types_by_river`).

    Attributes
    ----------
    game : Game
    board, dead : str
        As given, canonical text.
    players : tuple of PlayerHandTypes
    board_count : int
        River boards enumerated.
    """

    game: Game
    board: str
    dead: str
    players: tuple[PlayerHandTypes, ...]
    board_count: int


def hand_types_by_river(hands, board: CardsLike, dead: CardsLike = "", game: str | Game = "omaha", *,
                        die: int | None = None) -> HandTypesResult:
    """How often each hand ends with each high hand type by the river, from a flop or a turn,
    and (hi/lo) with a made, nut and counterfeited low, by enumerating every river board.

    Parameters
    ----------
    hands : sequence of str
        The players' hands, every hole card given (the boards are dealt from the cards left,
        as ``calc`` deals them).
    board : str
        A flop or a turn (3 or 4 cards).
    dead, game, die : as in :func:`~omaha_equity.calculate_equity`.

    Returns
    -------
    HandTypesResult

    Raises
    ------
    InputError
        Bad cards or game; a board that is not a flop or a turn; a hand that is a range, a
        partial or a random hand.
    """
    game = get_game(game, die)
    hands = check_hands(hands)
    board_cards, dead_cards = parse_board_and_dead(board or "", dead or "")
    if len(board_cards) not in (3, 4):
        raise InputError(f"the hand types by the river start from a flop or a turn (3 or 4 board cards), got "
                         f"{len(board_cards)} in {format_cards(board_cards) or 'no board'!r}")
    seated = seat_cards(list(hands), board_cards, dead_cards, game)
    for seat in seated.seats:
        if seat.kind != FIXED:
            raise InputError(f"the hand types by the river need every hole card: {seat.expression!r} is a range, a "
                             "partial or a random hand")
    player_hands = np.array([sorted(seat.known_cards, reverse=True) for seat in seated.seats], dtype=np.int8)
    known = set(board_cards) | set(dead_cards) | {int(card) for card in player_hands.ravel()}
    deck = [card for card in range(52) if card not in known]
    dealt_count = BOARD_SIZE - len(board_cards)
    completions = np.array(list(combinations(deck, dealt_count)), dtype=np.int8)
    boards = np.empty((completions.shape[0], BOARD_SIZE), dtype=np.int8)
    boards[:, :len(board_cards)] = board_cards
    boards[:, len(board_cards):] = completions
    deal_hands = np.ascontiguousarray(np.broadcast_to(player_hands, (boards.shape[0], *player_hands.shape)))
    high, low = hand_values_on_street(deal_hands, boards, BOARD_SIZE, game.hilo)
    types = high >> CATEGORY_SHIFT
    player_count = player_hands.shape[0]
    no_removal = np.zeros(boards.shape[0], dtype=np.int64)
    lows = np.zeros((3, player_count), dtype=np.int64)
    if game.hilo:
        river_nut = nut_values(boards, BOARD_SIZE, no_removal).low
        holds_nut = (low > 0) & (low == river_nut[:, None])
        counterfeited = np.zeros_like(holds_nut)
        for street in range(len(board_cards), BOARD_SIZE):
            _, street_low = hand_values_on_street(deal_hands, boards, street, True)
            street_nut = nut_values(boards, street, no_removal).low
            held = (street_low > 0) & (street_low == street_nut[:, None])
            counterfeited |= held & _pairs_a_low_card(boards[:, street:], player_hands)
        counterfeited &= ~holds_nut
        lows = np.stack([(low > 0).sum(axis=0), holds_nut.sum(axis=0), counterfeited.sum(axis=0)])
    players = []
    for player in range(player_count):
        counts = np.bincount(types[:, player], minlength=len(HAND_TYPES))
        players.append(PlayerHandTypes(
            hand=format_cards(player_hands[player].tolist(), sort=True),
            type_counts=tuple(int(count) for count in counts), made_low=int(lows[0, player]),
            nut_low=int(lows[1, player]), counterfeited_low=int(lows[2, player]), board_count=boards.shape[0]))
    return HandTypesResult(game=game, board=format_cards(board_cards), dead=format_cards(dead_cards, sort=True),
                           players=tuple(players), board_count=boards.shape[0])


def _pairs_a_low_card(later_cards: np.ndarray, player_hands: np.ndarray) -> np.ndarray:
    """``(board_count, player_count) bool``: some card of ``later_cards`` (the board cards
    dealt after a street) has the rank of one of the player's low hole cards (A to 8)."""
    later_ranks = later_cards.astype(np.int64) >> 2
    result = np.zeros((later_cards.shape[0], player_hands.shape[0]), dtype=bool)
    for player in range(player_hands.shape[0]):
        low_ranks = sorted({int(card) >> 2 for card in player_hands[player]} & _LOW_RANKS)
        if low_ranks:
            result[:, player] = np.isin(later_ranks, low_ranks).any(axis=1)
    return result
