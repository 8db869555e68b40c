"""Compiled Monte Carlo kernel of the ranking generator (``scripts/generate_rankings.py``).

For each class representative: deal ``opponent_count`` random hands and a random five-card
board from the rest of the deck, ``sample_count`` times, and add up the representative's share
of the pot (in pot units, ``pots.pot_units``). Every hand is evaluated with the evaluator's own
building blocks (``hole_features``, ``board_features``, ``hand_values``) and the pot is split
by ``pots.split_pot``, so the rankings use exactly the rules of the equity engine.

Determinism: class ``i`` draws from its own SplitMix64 stream seeded by
``chunk_random_state(seed, first_class_index + i)``, and sums are integers, so the results do
not depend on the thread count nor on how the classes are cut into calls.
"""

from __future__ import annotations

import numpy as np

from ..runtime.numba import threaded_kernel

from ..evaluate._kernels import board_features, hand_values, hole_features
from ..pots import split_pot
from ..runtime.random_state import chunk_random_state, splitmix64

DECK_SIZE = 52
BOARD_SIZE = 5

@threaded_kernel
def sample_class_shares(hands, opponent_count, sample_count, seed, first_class_index,
                        colex, pair_board, flush, low, hilo, units):
    """Pot share of each hand against random opponents on random boards (Monte Carlo).

    Parameters
    ----------
    hands : (class_count, hole_count) int8
        One hand per class (the class representatives).
    opponent_count : int
        Opponents dealt a random hand each, 1..(47 // hole_count - 1).
    sample_count : int
        Deals per hand.
    seed : uint64
        Base seed; hand ``i`` uses the stream of ``(seed, first_class_index + i)``.
    first_class_index : int
        Index of ``hands[0]`` in the full class list (so a run cut into calls is reproducible).
    colex, pair_board, flush, low : the arrays of ``evaluate.tables.Tables``.
    hilo : bool
        Split pots between high and 8-or-better low.
    units : int
        Pot size in units, ``pots.pot_units(opponent_count + 1, hilo)``.

    Returns
    -------
    share_sums : (class_count,) int64
        Sum over deals of the hand's share in pot units; equity = sum / (sample_count * units).
    square_sums : (class_count,) int64
        Sum of squared shares, for the standard error.

    Each deal is a partial Fisher-Yates shuffle of the other ``52 - hole_count`` cards (board
    first, then the opponents' hands), card indexes by Lemire's multiply-shift on 32 random bits
    (two draws per SplitMix64 output). Opponents are evaluated until one beats the hand's high
    and its low (or it has none): from then on its share is 0 whatever the others hold.
    """
    class_count, hole_count = hands.shape
    pair_count = hole_count * (hole_count - 1) // 2
    player_count = opponent_count + 1
    dealt_count = BOARD_SIZE + opponent_count * hole_count
    share_sums = np.zeros(class_count, dtype=np.int64)
    square_sums = np.zeros(class_count, dtype=np.int64)
    for class_index in range(class_count):
        hand = hands[class_index]
        cards = np.empty(DECK_SIZE - hole_count, dtype=np.int8)
        held = np.zeros(DECK_SIZE, dtype=np.bool_)
        for position in range(hole_count):
            held[hand[position]] = True
        position = 0
        for card in range(DECK_SIZE):
            if not held[card]:
                cards[position] = card
                position += 1
        card_count = cards.shape[0]
        hero_pairs = np.empty(pair_count, dtype=np.int32)
        hero_suit_masks = np.empty(4, dtype=np.int32)
        hero_low_mask = hole_features(hand, colex, hero_pairs, hero_suit_masks)
        pairs = np.empty(pair_count, dtype=np.int32)
        suit_masks = np.empty(4, dtype=np.int32)
        board_ranks = np.empty(BOARD_SIZE, dtype=np.int32)
        board_suit_masks = np.empty(4, dtype=np.int32)
        high_values = np.empty(player_count, dtype=np.int32)
        low_values = np.zeros(player_count, dtype=np.int32)
        shares = np.empty(player_count, dtype=np.int64)
        state = chunk_random_state(seed, first_class_index + class_index)
        share_sum = 0
        square_sum = 0
        for _ in range(sample_count):
            for position in range(0, dealt_count, 2):  # two card draws per 64 random bits
                state, bits = splitmix64(state)
                high_bits = bits >> np.uint64(32)
                pick = position + np.int64((high_bits * np.uint64(card_count - position)) >> np.uint64(32))
                card = cards[pick]
                cards[pick] = cards[position]
                cards[position] = card
                if position + 1 < dealt_count:
                    low_bits = bits & np.uint64(0xFFFFFFFF)
                    pick = position + 1 + np.int64((low_bits * np.uint64(card_count - position - 1)) >> np.uint64(32))
                    card = cards[pick]
                    cards[pick] = cards[position + 1]
                    cards[position + 1] = card
            board_index, flush_suit, board_low_mask = board_features(cards[:BOARD_SIZE], colex, board_ranks,
                                                                     board_suit_masks)
            board_suit_mask = board_suit_masks[flush_suit] if flush_suit >= 0 else 0
            hero_high, hero_low = hand_values(
                hero_pairs, hero_suit_masks, hero_low_mask, board_index, flush_suit, board_suit_mask,
                board_low_mask, pair_board, flush, low, hilo,
            )
            high_values[0] = hero_high
            low_values[0] = hero_low
            # The hand gets nothing once some opponent beats its high and its low (or it has
            # no low): the remaining opponents need no evaluation (their cards are dealt).
            beaten_high = False
            beaten_low = not hilo or hero_low == 0
            for opponent in range(opponent_count):
                start = BOARD_SIZE + opponent * hole_count
                low_mask = hole_features(cards[start:start + hole_count], colex, pairs, suit_masks)
                opponent_high, opponent_low = hand_values(
                    pairs, suit_masks, low_mask, board_index, flush_suit, board_suit_mask,
                    board_low_mask, pair_board, flush, low, hilo,
                )
                high_values[opponent + 1] = opponent_high
                low_values[opponent + 1] = opponent_low
                beaten_high = beaten_high or opponent_high > hero_high
                beaten_low = beaten_low or opponent_low > hero_low
                if beaten_high and beaten_low:
                    break
            if beaten_high and beaten_low:
                continue
            split_pot(high_values, low_values, hilo, units, shares)
            share_sum += shares[0]
            square_sum += shares[0] * shares[0]
        share_sums[class_index] = share_sum
        square_sums[class_index] = square_sum
    return share_sums, square_sums
