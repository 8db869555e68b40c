"""The exact and Monte Carlo kernels' board state kept in scalars (``equity.fixed._kernels``:
``known_board_state``, ``add_board_card``, ``board_suit_mask``) against the board's cards
counted directly, on every kind of board (flushes on the known cards, on the dealt ones, none)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from omaha_equity.equity.fixed._kernels import add_board_card, board_suit_mask, known_board_state

LOW_BITS = {12: 1, **{rank: 1 << (rank + 1) for rank in range(7)}}


def direct_state(cards: list[int]) -> tuple[list[int], int | None, int]:
    """Rank mask per suit, the suit with three or more cards (None), low mask."""
    masks = [0, 0, 0, 0]
    low = 0
    for card in cards:
        masks[card & 3] |= 1 << (card >> 2)
        low |= LOW_BITS.get(card >> 2, 0)
    flush = [suit for suit in range(4) if bin(masks[suit]).count("1") >= 3]
    return masks, (flush[0] if flush else None), low


def boards() -> list[tuple[list[int], list[int]]]:
    """(known cards, dealt cards) of 5-card boards: random, and with a suit made to repeat."""
    rng = random.Random(18)
    found = []
    for known_count in range(6):
        for _ in range(60):
            suited = rng.random() < 0.5
            deck = [card for card in range(52) if not suited or card & 3 == 2 or rng.random() < 0.3]
            board = rng.sample(deck, 5)
            found.append((board[:known_count], board[known_count:]))
    return found


@pytest.mark.parametrize("known, dealt", boards())
def test_scalar_board_state_is_the_board_counted_directly(known, dealt):
    masks, flush, low = direct_state(known)
    state = known_board_state.py_func(np.array(masks, dtype=np.int32), low)
    assert state[2] == (flush if flush is not None else 0)
    for card in dealt:
        state = add_board_card.py_func(*state, np.int8(card))
    suits, suit_counts, flush_suit, low_mask = (int(value) for value in state)
    masks, flush, low = direct_state(known + dealt)
    assert [int(board_suit_mask.py_func(suits, suit)) for suit in range(4)] == masks
    assert [(suit_counts >> (8 * suit)) & 0xFF for suit in range(4)] == [bin(mask).count("1") for mask in masks]
    # the flush suit when there is one; else suit 0, whose flush row reads 0 (fewer than three cards)
    assert flush_suit == (flush if flush is not None else 0)
    assert low_mask == low
