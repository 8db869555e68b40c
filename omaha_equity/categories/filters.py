"""The hands of a category filter (``{set+, nfd}`` in a range): every hand of the deck less the
board that holds one of the terms, found by categorizing the deck a chunk at a time."""

from __future__ import annotations

import functools
from math import comb

import numpy as np

from ..cards import DECK_SIZE
from .categorize import categorize_hands
from .names import parse_term

# Hands categorized per kernel call (a few MB of fields at a time, whatever the deck's size).
CHUNK_HANDS = 1 << 20


def terms_mask(fields: np.ndarray, terms) -> np.ndarray:
    """Which rows of category fields hold any of ``terms`` (each a conjunction of intervals)."""
    held = np.zeros(fields.shape[0], dtype=bool)
    for term in terms:
        holds = np.ones(fields.shape[0], dtype=bool)
        for field, low, high in parse_term(term).conditions:
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
        kept.append(chunk[terms_mask(categorize_hands(chunk, board, hilo), terms)])
    hands = np.ascontiguousarray(np.concatenate(kept)) if kept else np.zeros((0, hole_count), dtype=np.int8)
    hands.flags.writeable = False
    return hands
