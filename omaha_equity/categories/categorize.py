"""``categorize``: one hand's categories on a board; ``categorize_hands``: a whole list at once."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..runtime.cache import read_only
from ..cards import check_no_duplicates, format_cards, parse_cards
from ..deal import CardsLike
from ..errors import InputError, quoted
from ..evaluate.tables import load_tables
from ..games import Game, get_game
from . import names
from .board import board_tables

# Hands per kernel call when a list is split across threads.
_MIN_HANDS_PER_THREAD = 20_000


def check_board(board: tuple[int, ...], what: str = "categories") -> None:
    """Raises InputError unless the board has 3 to 5 cards."""
    if not 3 <= len(board) <= 5:
        shown = format_cards(board) if board else "none"
        raise InputError(f"{what} need a board of 3 to 5 cards (a flop, turn or river), got {len(board)} ({shown})")


def categorize_hands(hands: np.ndarray, board: tuple[int, ...], hilo: bool, draws: bool = True) -> np.ndarray:
    """The category fields of many hands on one board.

    Parameters
    ----------
    hands : (n, hole_count) int8, cards 0..51, none on the board.
    board : tuple of 3 to 5 card ints.
    hilo : bool, fill the low fields (else -1).
    draws : bool
        Count the draws (straight, clean, flush and boat outs, the flush class, the backdoors);
        without them those fields are 0 (the flush class -1) and a flop costs a fraction of the
        time (``flops`` without ``--filter`` needs only the made hand, the nut status and the low).

    Returns
    -------
    (n, 13) int16: the fields of :data:`names.FIELDS` per hand.
    """
    from ._kernels import categorize_hands as kernel  # lazy: importing numba is slow

    check_board(board)
    hands = np.ascontiguousarray(hands, dtype=np.int8)
    tables = load_tables()
    arguments = board_tables(tuple(sorted(board)), draws).kernel_arguments() + (
        tables.colex, tables.pair_flush, tables.low, hilo, draws)
    from ..runtime.threads import across_threads

    def categorize_piece(first: int, count: int) -> tuple[np.ndarray]:
        fields = np.empty((count, names.FIELD_COUNT), dtype=np.int16)
        kernel(read_only(hands[first:first + count]), *arguments, fields)
        return (fields,)

    if hands.shape[0] < 2 * _MIN_HANDS_PER_THREAD:  # threads cost more than they save
        return categorize_piece(0, hands.shape[0])[0]
    # the kernel thread pool: Ctrl-C served between pieces, a piece's error raised here
    return across_threads(categorize_piece, 0, hands.shape[0])[0]


def straight_draw_name(outs: int) -> str | None:
    """``gutshot`` (1-4 outs), ``oesd`` (5-8), ``wrap`` (9 or more), or None."""
    for name in ("wrap", "oesd", "gutshot"):
        _, low, high, _ = names.LADDER_TERMS[name]
        if low <= outs <= high:
            return name
    return None


def flush_draw_name(flush_class: int) -> str | None:
    """``nfd``, ``second-nfd``, ``weak-fd``, or None."""
    if flush_class < 0:
        return None
    return ("nfd", "second-nfd")[flush_class] if flush_class < 2 else "weak-fd"


def matching_terms(row) -> tuple[str, ...]:
    """Every category name (no ``+`` forms) that holds for one row of fields."""
    held = [name for name, (field, low, high, _) in names.LADDER_TERMS.items() if low <= row[field] <= high]
    held += [name for name, conditions in names.PLAIN_TERMS.items()
             if all(low <= row[field] <= high for field, low, high in conditions)]
    for prefix, (field, fewest, _, _) in names.COUNTED_TERMS.items():
        if row[field] >= fewest:
            held.append(f"{prefix}{row[field]}")
    return tuple(held)


@dataclass(frozen=True)
class HandCategory:
    """A hand's categories on a board (rules in docs/categories.md).

    Attributes
    ----------
    hand, board : str
        Canonical text.
    made : str
        Made high hand with the hole cards' role (``names.MADE_HANDS``): ``"set"``, ``"top-two"``, ...
    beaten_by : int
        Distinct high hands better than this one that two cards of the deck make with the board
        (0: the nuts, 1: the second nuts).
    straight_outs, clean_straight_outs, flush_outs, boat_outs : int
        Cards of the deck (less the hand and board) that give a straight, a straight that neither
        pairs the board nor brings a third card of a suit, a flush, a full house or quads
        (0 on the river).
    flush_draw, straight_draw : str or None
        ``nfd``/``second-nfd``/``weak-fd`` and ``wrap``/``oesd``/``gutshot``.
    backdoor_flush, backdoor_straight : bool
        Flop only: a flush (straight) two running cards can make, and no single card.
    low : str or None
        Hi/lo games: ``names.LOW_CLASSES`` (``nut-low`` ... ``no-low``); None otherwise.
    low_outs : int
        Cards that give a qualifying low (when none is made).
    counterfeit_risk : bool
        A made low that some next card leaves beaten by more distinct lows.
    names : tuple of str
        Every category name that holds (filter terms without ``+``).
    """

    hand: str
    board: str
    made: str
    beaten_by: int
    straight_outs: int
    clean_straight_outs: int
    flush_outs: int
    boat_outs: int
    flush_draw: str | None
    straight_draw: str | None
    backdoor_flush: bool
    backdoor_straight: bool
    low: str | None
    low_outs: int
    counterfeit_risk: bool
    names: tuple[str, ...]


def categorize(hand: CardsLike, board: CardsLike, game: str | Game = "omaha", *,
               die: int | None = None) -> HandCategory:
    """The categories of one hand on a board of 3 to 5 cards.

    >>> categorize("QsQc9h8h", "Qh7d2c").made
    'set'

    Raises
    ------
    InputError
        Bad or duplicate cards, a hand without the game's hole-card count, a board of fewer
        than 3 or more than 5 cards.
    """
    game = get_game(game, die)
    hole_cards, board_cards = parse_cards(hand), parse_cards(board)
    check_no_duplicates([("hand", hole_cards), ("board", board_cards)])
    if len(hole_cards) != game.hole_count:
        raise InputError(f"expected {game.hole_count} hole cards for {game.name}, "
                         f"got {len(hole_cards)} in {quoted(hand)}")
    check_board(board_cards)
    row = [int(value) for value in categorize_hands(np.array([hole_cards], dtype=np.int8), board_cards, game.hilo)[0]]
    return HandCategory(
        hand=format_cards(hole_cards, sort=True), board=format_cards(board_cards),
        made=names.MADE_HANDS[row[names.MADE]], beaten_by=row[names.BEATEN],
        straight_outs=row[names.STRAIGHT_OUTS], clean_straight_outs=row[names.CLEAN_STRAIGHT_OUTS],
        flush_outs=row[names.FLUSH_OUTS], boat_outs=row[names.BOAT_OUTS],
        flush_draw=flush_draw_name(row[names.FLUSH_CLASS]), straight_draw=straight_draw_name(row[names.STRAIGHT_OUTS]),
        backdoor_flush=bool(row[names.BACKDOOR_FLUSH]), backdoor_straight=bool(row[names.BACKDOOR_STRAIGHT]),
        low=names.LOW_CLASSES[row[names.LOW]] if game.hilo else None, low_outs=max(row[names.LOW_OUTS], 0),
        counterfeit_risk=bool(row[names.COUNTERFEIT]), names=matching_terms(row),
    )
