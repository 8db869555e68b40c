"""The hands of a category filter (``{set+, nfd}`` in a range): every hand of the deck less the
board that holds one of the terms, found by categorizing the deck a chunk at a time.

Most terms test the categorized fields (``categorize_hands``); the outs terms (``nut-outs8+``,
``outs-flush9+``) test counts of next cards (:func:`outs_fields`), worked out only when a term
asks for them. A next card is any card neither on the board nor in the hand, and the nuts after
it are the best hand two cards off the board make (the board only out, as ``{nuts}`` and
``omaha-equity outs`` by default)."""

from __future__ import annotations

import functools
from math import comb

import numpy as np

from ..cards import DECK_SIZE
from ..errors import InputError, quoted
from ..evaluate.tables import CATEGORY_SHIFT
from .categorize import categorize_hands
from .names import FIELD_COUNT, OUTS_FIELD_COUNT, parse_term
from .streets import card_masks, hand_values_on_street, nut_values

# Hands categorized per kernel call (a few MB of fields at a time, whatever the deck's size).
CHUNK_HANDS = 1 << 20


def outs_fields(hands: np.ndarray, board: tuple[int, ...]) -> np.ndarray:
    """Counts of next cards for each hand on a flop or turn: column 0 the cards after which the
    hand holds the nut high (the nuts: the best hand two cards off the board make), column
    ``1 + t`` the cards after which its high hand type is ``t`` or better (0 high card .. 8
    straight flush, ``evaluate.tables``); module docstring for the next cards.

    Parameters
    ----------
    hands : (n, hole_count) int8, none holding a board card.
    board : tuple of 3 or 4 cards.

    Returns
    -------
    (n, 10) int16

    Raises
    ------
    InputError
        A board of other than 3 or 4 cards (outs count the card to come).
    """
    if len(board) not in (3, 4):
        raise InputError(f"outs terms count the next card: they need a flop or a turn (3 or 4 board cards), got "
                         f"{len(board)}")
    board_count = len(board)
    hands = np.ascontiguousarray(hands, dtype=np.int8)
    hand_masks = card_masks(hands)
    cards = np.array([card for card in range(DECK_SIZE) if card not in board], dtype=np.int8)
    boards = np.zeros((cards.shape[0], 5), dtype=np.int8)
    boards[:, :board_count] = board
    boards[:, board_count] = cards
    nuts = nut_values(boards, board_count + 1, np.zeros(cards.shape[0], dtype=np.int64)).high
    counts = np.zeros((hands.shape[0], OUTS_FIELD_COUNT), dtype=np.int16)
    rows = np.arange(hands.shape[0])
    as_players = hands[None, :, :]  # one deal, every hand a player: one evaluation per hand and card
    for index in range(cards.shape[0]):
        values = hand_values_on_street(as_players, boards[index:index + 1], board_count + 1, False)[0][0]
        comes = (hand_masks >> np.int64(cards[index]) & 1) == 0
        counts[:, 0] += comes & (values == nuts[index])
        counts[rows, 1 + (values >> CATEGORY_SHIFT)] += comes  # exactly this type, made cumulative below
    counts[:, 1:] = np.cumsum(counts[:, :0:-1], axis=1)[:, ::-1]  # this type or better
    return counts


def terms_mask(fields: np.ndarray, terms, hands: np.ndarray | None = None, board: tuple[int, ...] = ()) -> np.ndarray:
    """Which rows of category fields hold any of ``terms`` (each a conjunction of intervals).

    An outs term (``nut-outs8+``, ``outs-flush9+``) needs the rows' ``hands`` and the ``board``
    (a flop or turn), from which its counts are worked out (:func:`outs_fields`).

    Raises
    ------
    InputError
        An outs term without hands, or with a board of other than 3 or 4 cards.
    """
    parsed = [parse_term(term) for term in terms]
    if any(field >= FIELD_COUNT for term in parsed for field, _, _ in term.conditions):
        if hands is None:
            name = next(term.name for term in parsed if any(field >= FIELD_COUNT for field, _, _ in term.conditions))
            raise InputError(f"category {quoted(name)} counts the next cards of each hand: it works in a range "
                             "(calc, hits' ranges, pql's inRange and category), not as a filter of a composition")
        fields = np.concatenate([fields, outs_fields(hands, tuple(board))], axis=1)
    held = np.zeros(fields.shape[0], dtype=bool)
    for term in parsed:
        holds = np.ones(fields.shape[0], dtype=bool)
        for field, low, high in term.conditions:
            holds &= (fields[:, field] >= low) & (fields[:, field] <= high)
        held |= holds
    return held


def each_deck_chunk(excluded, hole_count: int, chunk_hands: int = CHUNK_HANDS):
    """Every hand of the deck less ``excluded`` cards, canonical order, as (n, hole_count) int8
    chunks (one buffer, reused: copy a chunk to keep it)."""
    from ._kernels import fill_combinations  # lazy: importing numba is slow

    excluded = set(excluded)
    deck = np.array([card for card in range(DECK_SIZE - 1, -1, -1) if card not in excluded], dtype=np.int8)
    total = comb(deck.shape[0], hole_count)
    buffer = np.empty((min(chunk_hands, total), hole_count), dtype=np.int8)
    state = np.arange(hole_count, dtype=np.int64)
    done = 0
    while done < total:
        count = min(chunk_hands, total - done)
        fill_combinations(deck, state, buffer[:count])
        yield buffer[:count]
        done += count


@functools.lru_cache(maxsize=32)
def category_hands(terms: tuple[str, ...], hole_count: int, board: tuple[int, ...], hilo: bool) -> np.ndarray:
    """(n, hole_count) int8, read-only, canonical (cards descending, rows lexicographically
    descending): the hands of the deck less ``board`` that hold any of ``terms``."""
    kept = []
    for chunk in each_deck_chunk(board, hole_count):
        kept.append(chunk[terms_mask(categorize_hands(chunk, board, hilo), terms, chunk, board)])
    hands = np.ascontiguousarray(np.concatenate(kept)) if kept else np.zeros((0, hole_count), dtype=np.int8)
    hands.flags.writeable = False
    return hands
