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

A range (or a partial or random hand) counts every (hand, board) pair that shares no card,
each weighing the hand's range weight; card removal is against the known cards only (board,
dead cards, fixed hands), not against another player's range. The counting is compiled
(``_hand_type_kernels``: one pass per hand over the boards); the nut lows come from the street
kernels that PQL and ``outs`` use (``studies.outs.nut_values``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb, gcd, lcm

import numpy as np

from ..cards import format_cards
from ..deal import CardsLike, parse_board_and_dead
from ..equity.players import FIXED, RANGE
from ..equity.query import seat_cards
from ..errors import InputError
from ..evaluate.tables import CATEGORY_NAMES, load_tables
from ..games import BOARD_SIZE, Game, get_game
from ..validate import check_hands
from .outs import nut_values

#: Hand types, weakest first (index = the value's category).
HAND_TYPES = CATEGORY_NAMES
# (hand, board) pairs one player's hands may count: '15%' of Omaha on a flop is about 40,000
# hands x 820 boards (33 million).
MAX_HAND_BOARDS = 200_000_000


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
        River boards enumerated (every count is out of it). For a range, a partial or a random
        hand, every count (this one included) is of (hand, board) pairs, each weighing the
        hand's range weight (whole numbers in the range's ratios).
    hand_count : int
        The hands counted: 1 for a fixed hand.
    ranged : bool
        Whether the player is a range, a partial or a random hand (its counts are of
        weighted (hand, board) pairs).
    """

    hand: str
    type_counts: tuple[int, ...]
    made_low: int
    nut_low: int
    counterfeited_low: int
    board_count: int
    hand_count: int = 1
    ranged: bool = False

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
    """How often each hand (or range) ends with each high hand type by the river, from a flop or
    a turn, and (hi/lo) with a made, nut and counterfeited low, by enumerating every river board.

    A range, a partial hand (``AsAh``) or a random hand (``*``) counts every hand it holds (a
    partial or random hand: every hand of the cards left) with every board completion that holds
    none of its cards, each (hand, board) pair weighing the hand's range weight. Card removal is
    against the known cards only (board, dead cards and the fixed hands): another player's range
    removes no card from a player's boards or hands.

    Parameters
    ----------
    hands : sequence of str
        The players' hands or ranges (as ``calc`` takes them).
    board : str
        A flop or a turn (3 or 4 cards).
    dead, game, die : as in :func:`~omaha_equity.calculate_equity`.

    Returns
    -------
    HandTypesResult

    Raises
    ------
    InputError
        Bad cards, ranges or game; a board that is not a flop or a turn; more than
        ``MAX_HAND_BOARDS`` (hand, board) pairs for one player.
    """
    from ._hand_type_kernels import BOARDS, COUNTERFEITED_LOW, MADE_LOW, NUT_LOW, TYPE_COUNT, completion_features, \
        hand_type_counts

    game = get_game(game, die)
    hands = check_hands(hands)
    board_cards, dead_cards = parse_board_and_dead(board or "", dead or "")
    if len(board_cards) not in (3, 4):
        raise InputError(f"the hand types by the river start from a flop or a turn (3 or 4 board cards), got "
                         f"{len(board_cards)} in {format_cards(board_cards) or 'no board'!r}")
    seated = seat_cards(list(hands), board_cards, dead_cards, game)
    known = set(board_cards) | set(dead_cards)
    for seat in seated.seats:
        if seat.kind == FIXED:
            known |= set(seat.known_cards)
    deck = [card for card in range(52) if card not in known]
    dealt_count = BOARD_SIZE - len(board_cards)
    completions = np.array(list(combinations(deck, dealt_count)), dtype=np.int8)
    boards = np.empty((completions.shape[0], BOARD_SIZE), dtype=np.int8)
    boards[:, :len(board_cards)] = board_cards
    boards[:, len(board_cards):] = completions
    seat_hands = [_seat_hands(seat, deck, game.hole_count, completions.shape[0]) for seat in seated.seats]
    tables = load_tables()
    features, masks = completion_features(boards, tables.colex)
    nut_lows = np.zeros((boards.shape[0], 3), dtype=np.int16)
    if game.hilo:
        no_removal = np.zeros(boards.shape[0], dtype=np.int64)
        for street in range(len(board_cards), BOARD_SIZE + 1):
            nut_lows[:, street - 3] = nut_values(boards, street, no_removal).low
    players = []
    for seat, (player_hands, weights) in zip(seated.seats, seat_hands):
        counts = hand_type_counts(player_hands, boards, len(board_cards), features, masks, nut_lows,
                                  *tables.scoring_arguments(), game.hilo)
        # exact whole-number sums: range weights can be large, so Python integers
        totals = [int(total) for total in counts.T.astype(object) @ weights.astype(object)]
        text = format_cards(player_hands[0].tolist(), sort=True) if seat.kind == FIXED else seat.expression
        players.append(PlayerHandTypes(
            hand=text, type_counts=tuple(totals[:TYPE_COUNT]), made_low=totals[MADE_LOW], nut_low=totals[NUT_LOW],
            counterfeited_low=totals[COUNTERFEITED_LOW], board_count=totals[BOARDS],
            hand_count=player_hands.shape[0], ranged=seat.kind != FIXED))
    return HandTypesResult(game=game, board=format_cards(board_cards), dead=format_cards(dead_cards, sort=True),
                           players=tuple(players), board_count=boards.shape[0])


def _seat_hands(seat, deck: list[int], hole_count: int, board_count: int) -> tuple[np.ndarray, np.ndarray]:
    """A seat's hands ``(n, hole_count) int8`` and whole-number weights ``(n,) int64``: a fixed
    hand; a range's hands (the known cards already removed) with its weights read as the
    decimals they print as; every hand of the ``deck`` holding a partial hand's cards (all of
    them for ``*``), each weighing 1.

    Raises
    ------
    InputError
        More than ``MAX_HAND_BOARDS`` (hand, board) pairs.
    """
    if seat.kind == FIXED:
        return np.array([sorted(seat.known_cards, reverse=True)], dtype=np.int8), np.ones(1, dtype=np.int64)
    if seat.kind == RANGE:
        hand_count = int(seat.hands.shape[0])
    else:
        hand_count = comb(len(deck), hole_count - len(seat.known_cards))
    if hand_count * board_count > MAX_HAND_BOARDS:
        raise InputError(f"the hand types of {seat.expression!r} would count {hand_count:,} hands x {board_count:,} "
                         f"boards, over the limit of {MAX_HAND_BOARDS:,}: give a narrower range (or a turn)")
    if seat.kind == RANGE:
        return np.ascontiguousarray(seat.hands, dtype=np.int8), _whole_weights(seat.weights)
    missing = hole_count - len(seat.known_cards)
    rest = np.array(list(combinations(deck, missing)), dtype=np.int8).reshape(-1, missing)
    player_hands = np.empty((rest.shape[0], hole_count), dtype=np.int8)
    player_hands[:, :len(seat.known_cards)] = seat.known_cards
    player_hands[:, len(seat.known_cards):] = rest
    return player_hands, np.ones(rest.shape[0], dtype=np.int64)


def _whole_weights(weights: np.ndarray) -> np.ndarray:
    """Range weights as whole numbers in the same ratios, each read as the decimal it prints
    as (``0.1`` is 1/10); an object array of Python integers when they are not all equal."""
    if (weights == weights[0]).all():
        return np.ones(weights.shape[0], dtype=np.int64)
    fractions = [Fraction(repr(float(weight))) for weight in weights]
    scale = lcm(*{weight.denominator for weight in fractions})
    scaled = [int(weight * scale) for weight in fractions]
    divisor = gcd(*scaled)
    return np.array([weight // divisor for weight in scaled], dtype=object)
