"""Kernel inputs of a deal of fixed hands: the undealt deck, the known board's masks and each
player's lookup rows (:func:`prepare`), shared by the equity and all-in kernels."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ...cards import DECK_SIZE
from ...deal import Deal
from ...evaluate.rows import build_player_rows
from ...evaluate.tables import LOW_RANK_BITS
from ...evaluate.tables import dealt_board_indexes, load_tables
from ...pots import pot_units
from .. import plan


@dataclass(frozen=True)
class Prepared:
    """Kernel inputs for one deal (arrays as documented in ``fixed._kernels.enumerate_boards``)."""

    deck: np.ndarray
    dealt_count: int
    fixed_suit_masks: np.ndarray
    fixed_low_mask: int
    high_rows: np.ndarray
    flush_rows: np.ndarray
    low_rows: np.ndarray
    colex: np.ndarray
    hilo: bool
    units: int

    def kernel_arguments(self) -> tuple:
        return (self.deck, self.dealt_count, self.fixed_suit_masks, self.fixed_low_mask,
                self.high_rows, self.flush_rows, self.low_rows, self.colex)


@functools.lru_cache(maxsize=8192)
def _dealt_board_indexes(fixed_ranks: tuple[int, ...], dealt_count: int) -> np.ndarray:
    """``tables.dealt_board_indexes``, kept per known-rank multiset (at most 6,188 on the
    river): a batch of small queries meets the same ones again and again. Shared: never
    written to (left writeable so the kernels keep one compiled signature)."""
    return dealt_board_indexes(fixed_ranks, dealt_count, load_tables().colex)


# Every card once, as bytes: the undealt deck is these with the known cards deleted.
_WHOLE_DECK = bytes(range(DECK_SIZE))


def _undealt_deck(deal: Deal) -> np.ndarray:
    """``deal.undealt_cards`` as a writeable (n,) int8 array, ascending (one C call: ``bytes.translate``
    deletes the known cards)."""
    known = bytes([card for hand in deal.hands for card in hand]) + bytes(deal.board) + bytes(deal.dead)
    return np.frombuffer(bytearray(_WHOLE_DECK.translate(None, known)), dtype=np.int8)


def prepare(deal: Deal) -> Prepared:
    """The kernel inputs of a deal of fixed hands: the undealt deck, the known board's suit
    masks and low mask, and each player's lookup rows (``evaluate.rows.build_player_rows``)."""
    tables = load_tables()
    hole_cards = np.array(deal.hands, dtype=np.int8)
    dealt_count = 5 - len(deal.board)
    suit_masks = [0, 0, 0, 0]
    fixed_low_mask = 0
    for card in deal.board:
        suit_masks[card & 3] |= 1 << (card >> 2)
        fixed_low_mask |= LOW_RANK_BITS[card >> 2]
    # Rows indexed by the multiset of the dealt ranks alone (one read per board), built only
    # for the boards this deal can reach (one on the river, 91 rank multisets on the flop).
    dealt_indexes = _dealt_board_indexes(tuple(sorted(card >> 2 for card in deal.board)), dealt_count)
    high_rows, flush_rows, low_rows = build_player_rows(
        hole_cards, dealt_indexes, tables.colex, tables.pair_board, tables.pair_flush, tables.low, deal.board)
    return Prepared(
        deck=_undealt_deck(deal),
        dealt_count=dealt_count,
        fixed_suit_masks=np.array(suit_masks, dtype=np.int32),
        fixed_low_mask=fixed_low_mask,
        high_rows=high_rows,
        flush_rows=flush_rows,
        low_rows=low_rows,
        colex=tables.colex,
        hilo=deal.game.hilo,
        units=pot_units(deal.player_count, deal.game.hilo),
    )


def exact_slices(completions: int, player_count: int) -> int:
    """How many equal slices an exact enumeration of fixed hands is cut into: one for small
    work (a single short call), else ``plan.EXACT_CHUNKS`` (calls of a few slices each)."""
    return 1 if completions * player_count <= plan.SMALL_WORK else plan.EXACT_CHUNKS
