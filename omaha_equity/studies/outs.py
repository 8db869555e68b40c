"""Hands on any street, nut status and outs, written once for the query language
(``omaha_equity.pql``: ``handType``, ``nutHi``, ``nutLo``, ``nutHiForHandType``,
``outsToHandType``, ``minOutsToHandType``, ``nutHiOuts``, ``HvHequity``) and for
``omaha-equity outs`` (:func:`hand_outs`), on the compiled kernels of ``categories._street_kernels``.

Arrays hold one deal per row: hole cards ``(deal_count, player_count, hole_count) int8``, boards
``(deal_count, 5) int8`` of which the first ``board_count`` are dealt, card sets as 52-bit masks
in ``int64`` (:func:`card_masks`).

Which cards a nut test removes (docs/outs.md): the nuts are the best hand that two cards not
on the board and not removed can make. ProPokerTools' PQL removes the player's own hole cards
and the dead cards (a player holding the As knows no one else holds it): ``removed = board |
hand | dead``, what ``blockers=True`` asks for here. The package's categories
(``categories``: ``{nuts}``, ``beaten_by``) remove only the board: a hand's nut status is then
a property of the board alone, the same for every hand of a range.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..cards import DECK_SIZE, check_no_duplicates, format_card, format_cards, parse_cards
from ..categories.names import MADE_HANDS
from ..categories.streets import card_masks, hand_values_on_street, made_hands, nut_values
from ..deal import CardsLike
from ..errors import InputError, quoted
from ..evaluate.showdown import describe_high, describe_low
from ..evaluate.tables import CATEGORY_NAMES, CATEGORY_SHIFT
from ..games import Game, get_game

#: Hand types, weakest first (``evaluate.tables``): index = the value's category.
HAND_TYPES = CATEGORY_NAMES
HAND_TYPE_COUNT = len(HAND_TYPES)


@dataclass(frozen=True)
class NextCards:
    """Every card that can come next on each deal's street, for one player (:func:`next_cards`).

    Attributes
    ----------
    deal_index : (n,) int64, the deal of each row.
    card : (n,) int8, the next card.
    high, low : (n,) int32 and int16, the player's values after it.
    boards : (n, 5) int8, the deal's board with the card dealt after its street.
    """

    deal_index: np.ndarray
    card: np.ndarray
    high: np.ndarray
    low: np.ndarray
    boards: np.ndarray


def next_cards(hands: np.ndarray, boards: np.ndarray, board_count: int, removed: np.ndarray,
               hilo: bool) -> NextCards:
    """One player's hand after each next card: every card not on the board and not in
    ``removed`` (the player's own and the dead cards: the cards the player cannot see coming).

    Parameters
    ----------
    hands : (deal_count, hole_count) int8, the player's hole cards.
    boards : (deal_count, 5) int8; board_count : 3 (flop) or 4 (turn).
    removed : (deal_count,) int64 masks.
    """
    hands = np.ascontiguousarray(hands, dtype=np.int8)
    seen = np.asarray(removed, dtype=np.int64) | card_masks(hands) | card_masks(boards[:, :board_count])
    deck = np.arange(DECK_SIZE, dtype=np.int64)
    unseen = ((seen[:, None] >> deck[None, :]) & 1) == 0
    deal_index, card = np.nonzero(unseen)
    next_boards = np.array(boards[deal_index], dtype=np.int8)
    next_boards[:, board_count] = card
    high, low = hand_values_on_street(hands[deal_index][:, None, :], next_boards, board_count + 1, hilo)
    return NextCards(deal_index, card.astype(np.int8), high[:, 0], low[:, 0], next_boards)


def outs_by_hand_type(hands: np.ndarray, boards: np.ndarray, board_count: int, removed: np.ndarray) -> np.ndarray:
    """``(deal_count, 9) int64``: for each deal, how many next cards give the player each hand
    type (PQL's ``outsToHandType`` reads one column, ``minOutsToHandType`` sums a type and
    the better ones); cards as :func:`next_cards`."""
    following = next_cards(hands, boards, board_count, removed, hilo=False)
    counts = np.zeros((hands.shape[0], HAND_TYPE_COUNT), dtype=np.int64)
    np.add.at(counts, (following.deal_index, following.high >> CATEGORY_SHIFT), 1)
    return counts


def nut_outs(hands: np.ndarray, boards: np.ndarray, board_count: int, removed: np.ndarray) -> np.ndarray:
    """``(deal_count,) int64``: how many next cards give the player the nut high on the next
    street, the nuts decided with the player's own and ``removed`` cards out (PQL's
    ``nutHiOuts``); cards as :func:`next_cards`."""
    following = next_cards(hands, boards, board_count, removed, hilo=False)
    own = card_masks(hands)[following.deal_index] | np.asarray(removed, dtype=np.int64)[following.deal_index]
    nuts = nut_values(following.boards, board_count + 1, own)
    counts = np.zeros(hands.shape[0], dtype=np.int64)
    np.add.at(counts, following.deal_index, (following.high == nuts.high).astype(np.int64))
    return counts


def nut_ranks(values: np.ndarray, best: np.ndarray, second: np.ndarray) -> np.ndarray:
    """How many distinct values that two cards make beat each of ``values``: 0 (the nuts), 1
    (the second nuts) or 2 (two or more), from the best and second-best values two cards make
    (:class:`NutValues`: ``high`` and ``second_high``, or ``low`` and ``second_low``).

    Parameters
    ----------
    values, best, second : (n,) integer arrays of values (larger is better; ``second`` 0 when
        no second value exists).

    Returns
    -------
    (n,) int64
    """
    values = np.asarray(values, dtype=np.int64)
    return (np.asarray(best, dtype=np.int64) > values).astype(np.int64) + (np.asarray(second, dtype=np.int64) > values)


# -- omaha-equity outs -------------------------------------------------------------------------

NUT_NAMES = ("nuts", "second nuts")


@dataclass(frozen=True)
class OutCard:
    """One card that can come next, and what the hand is after it.

    Attributes
    ----------
    card : str
    hand_type : str, the high hand type after the card (``"flush"``).
    high : str, the high hand in words (``"flush, A-K-9-7-3"``).
    high_status : str, ``"nuts"``, ``"second nuts"`` or ``""``.
    low : str or None, hi/lo games: the low in words, None without one.
    low_status : str, the low's ``"nuts"`` / ``"second nuts"`` / ``""``.
    category : str, the made hand after the card (``categories.names.MADE_HANDS``).
    improves : bool, the hand type is better than before the card.
    equity : float or None, with ``vs``: the equity after the card (fraction 0..1).
    equity_fraction : Fraction or None, the same, exact.
    """

    card: str
    hand_type: str
    high: str
    high_status: str
    low: str | None
    low_status: str
    category: str
    improves: bool
    equity: float | None
    equity_fraction: Fraction | None


@dataclass(frozen=True)
class HandOuts:
    """:func:`hand_outs`: the hand now, each next card, and the totals.

    Attributes
    ----------
    game : Game
    hand, board, dead : str
    vs : str or None
    blockers : bool, the nut status removes the hand's and dead cards (PQL's way).
    hand_type, high, high_status, category : the hand now, as in :class:`OutCard`.
    equity : float or None, with ``vs``: the equity now.
    cards : tuple of OutCard, by card, best card first.
    type_counts : dict of str to int, cards giving each hand type (weakest first).
    improving_count : int, cards that improve the hand type.
    nut_count, second_nut_count : int, cards that give the nut (second-nut) high.
    low_nut_count : int, cards that give the nut low (hi/lo games).
    """

    game: Game
    hand: str
    board: str
    dead: str
    vs: str | None
    blockers: bool
    hand_type: str
    high: str
    high_status: str
    category: str
    equity: float | None
    cards: tuple[OutCard, ...]
    type_counts: dict[str, int]
    improving_count: int
    nut_count: int
    second_nut_count: int
    low_nut_count: int


def _status(rank: int) -> str:
    return NUT_NAMES[rank] if rank < len(NUT_NAMES) else ""


def hand_outs(hand: CardsLike, board: CardsLike, game: str | Game = "omaha", *, dead: CardsLike = "",
              vs: str | None = None, blockers: bool = False, die: int | None = None) -> HandOuts:
    """Every card that can come next on a flop or turn, with the hand it makes, its nut status
    and made-hand category, and with ``vs`` the equity after it (exact where affordable).

    Parameters
    ----------
    hand : str, the hole cards.
    board : str, a flop or a turn (3 or 4 cards).
    dead : str, dead cards (never dealt).
    vs : str, optional, the other player's hand or range.
    blockers : bool, decide nut status with the hand's and dead cards out (PQL's way); by
        default only the board is out (the categories' way, module docstring).

    Raises
    ------
    InputError
        Bad or duplicate cards, a board of other than 3 or 4 cards, a bad ``vs``.

    Examples
    --------
    >>> outs = hand_outs("AsKsQdJh", "Ts9s2c")
    >>> outs.nut_count, outs.type_counts["flush"]
    (13, 9)
    """
    game = get_game(game, die)
    hole_cards, board_cards, dead_cards = parse_cards(hand), parse_cards(board), parse_cards(dead or "")
    check_no_duplicates([("hand", hole_cards), ("board", board_cards), ("dead cards", dead_cards)])
    if len(hole_cards) != game.hole_count:
        raise InputError(f"expected {game.hole_count} hole cards for {game.name}, got {len(hole_cards)} in "
                         f"{quoted(hand)}")
    if len(board_cards) not in (3, 4):
        raise InputError(f"outs need a flop or a turn (3 or 4 board cards), got {len(board_cards)} in {quoted(board)}")
    seated = None
    vs_cards: tuple[int, ...] = ()
    if vs is not None:
        from ..equity.query import seat_query

        seated = seat_query([hand, vs], board, dead, game, None)
        if seated.all_fixed:
            vs_cards = seated.seats[1].known_cards
    hole_mask = int(card_masks(np.array([hole_cards]))[0])
    dead_mask = int(card_masks(np.array([dead_cards]))[0]) if dead_cards else 0
    vs_mask = int(card_masks(np.array([vs_cards]))[0]) if vs_cards else 0
    board_count = len(board_cards)
    boards = np.zeros((1, 5), dtype=np.int8)
    boards[0, :board_count] = board_cards
    hands = np.array([hole_cards], dtype=np.int8)
    following = next_cards(hands, boards, board_count, np.array([dead_mask | vs_mask]), game.hilo)
    now_high, _ = hand_values_on_street(hands[:, None, :], boards, board_count, game.hilo)
    now_value = int(now_high[0, 0])
    nut_removed = (hole_mask | dead_mask) if blockers else 0
    now_nuts = nut_values(boards, board_count, np.array([nut_removed], dtype=np.int64))
    now_rank = int(nut_ranks(now_high[0], now_nuts.high, now_nuts.second_high)[0])
    after_nuts = nut_values(following.boards, board_count + 1,
                            np.full(following.card.shape[0], nut_removed, dtype=np.int64))
    high_ranks = nut_ranks(following.high, after_nuts.high, after_nuts.second_high).tolist()
    low_ranks = nut_ranks(following.low, after_nuts.low, after_nuts.second_low).tolist()
    equity_now = _equity(seated, board_cards) if seated is not None else None
    made_now = made_hands(hands[:, None, :], boards, board_count, now_high)[0, 0]
    made_after = made_hands(hands[following.deal_index][:, None, :], following.boards, board_count + 1,
                            following.high[:, None])[:, 0]
    cards = []
    for row in np.argsort(-following.high.astype(np.int64), kind="stable"):
        card = int(following.card[row])
        after = (*board_cards, card)
        high_value, low_value = int(following.high[row]), int(following.low[row])
        equity = _equity(seated, after) if seated is not None else None
        cards.append(OutCard(
            card=format_card(card), hand_type=HAND_TYPES[high_value >> CATEGORY_SHIFT],
            high=describe_high(high_value), high_status=_status(high_ranks[row]),
            low=describe_low(low_value) if low_value else None,
            low_status=_status(low_ranks[row]) if low_value else "",
            category=MADE_HANDS[made_after[row]],
            improves=(high_value >> CATEGORY_SHIFT) > (now_value >> CATEGORY_SHIFT),
            equity=None if equity is None else float(equity), equity_fraction=equity,
        ))
    type_counts = {name: sum(out.hand_type == name for out in cards) for name in HAND_TYPES}
    return HandOuts(
        game=game, hand=format_cards(hole_cards, sort=True), board=format_cards(board_cards),
        dead=format_cards(dead_cards, sort=True), vs=vs, blockers=blockers,
        hand_type=HAND_TYPES[now_value >> CATEGORY_SHIFT], high=describe_high(now_value),
        high_status=_status(now_rank), category=MADE_HANDS[made_now],
        equity=None if equity_now is None else float(equity_now), cards=tuple(cards), type_counts=type_counts,
        improving_count=sum(out.improves for out in cards),
        nut_count=sum(out.high_status == "nuts" for out in cards),
        second_nut_count=sum(out.high_status == "second nuts" for out in cards),
        low_nut_count=sum(out.low_status == "nuts" for out in cards),
    )


def _equity(seated, board: tuple[int, ...]) -> Fraction | None:
    """Player 1's exact equity on ``board`` (the typed core, re-seated), None when the other
    player's range has no hand left on it."""
    from ..equity.calculate import run_equity
    from ..equity.query import RunOptions

    try:
        result = run_equity(seated.on_board(tuple(board)), RunOptions.checked("exact"))
    except InputError:
        return None
    return result.players[0].equity_fraction
