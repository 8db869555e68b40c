"""Compiled kernels for hands on any street, one row per deal: the hand values of every player on
a flop, turn or river; the best hand two unseen cards can make (nut status, with any cards
removed); the flop's made-hand category; and each player's equity on a street, enumerated exactly.

They serve the query language (``omaha_equity.pql``, a block of deals at a time), the outs
(``studies.outs``) and the outs terms of the category filters (``categories.filters``). A deal's
board is a row of five card slots of which the first ``board_count`` are dealt; a set of cards is a
52-bit mask in an ``int64`` (bit ``card``). Hands use exactly two hole cards and three board cards
(docs/rules.md); on a flop or turn the best over the board's three-card subsets
(``tables.pair_triple`` per rank triple, ``tables.flush`` per five-card suited rank mask), on the
river the evaluator's own path (``evaluate._kernels.hand_values``)."""

from __future__ import annotations

import numpy as np
from numba import prange

from ..runtime.numba import helper, parallel_kernel
from ..evaluate._kernels import board_features, hand_values, hole_features, low_rank_bit, next_combination
from ._kernels import made_hand

# Hand-type count (high card .. straight flush) and the value's category shift (evaluate.tables).
_TYPE_COUNT = 9
_CATEGORY_SHIFT = 20


@helper
def _sorted_three(first, second, third):
    """Three ranks in ascending order."""
    if first > second:
        first, second = second, first
    if second > third:
        second, third = third, second
    if first > second:
        first, second = second, first
    return first, second, third


@helper
def _partial_values(hole, board, board_count, colex, pair_triple, flush, low, hilo):
    """(high, low) of one hand on the first ``board_count`` (3 or 4) cards of ``board``: the best
    of every hole pair with every board triple."""
    hole_count = hole.shape[0]
    best = 0
    for first in range(board_count):
        for second in range(first + 1, board_count):
            for third in range(second + 1, board_count):
                cards_a, cards_b, cards_c = board[first], board[second], board[third]
                low_rank, middle_rank, high_rank = _sorted_three(cards_a >> 2, cards_b >> 2, cards_c >> 2)
                triple_index = colex[0, low_rank] + colex[1, middle_rank] + colex[2, high_rank]
                suit = cards_a & 3
                suited = (cards_b & 3) == suit and (cards_c & 3) == suit
                triple_mask = (1 << (cards_a >> 2)) | (1 << (cards_b >> 2)) | (1 << (cards_c >> 2))
                for one in range(hole_count):
                    for two in range(one + 1, hole_count):
                        rank_one, rank_two = hole[one] >> 2, hole[two] >> 2
                        if rank_one <= rank_two:
                            pair_index = colex[0, rank_one] + colex[1, rank_two]
                        else:
                            pair_index = colex[0, rank_two] + colex[1, rank_one]
                        value = pair_triple[pair_index, triple_index]
                        if suited and (hole[one] & 3) == suit and (hole[two] & 3) == suit:
                            flush_value = flush[triple_mask | (1 << rank_one) | (1 << rank_two)]
                            if flush_value > value:
                                value = flush_value
                        if value > best:
                            best = value
    low_value = 0
    if hilo:
        hole_low = 0
        for one in range(hole_count):
            hole_low |= low_rank_bit(hole[one] >> 2)
        board_low = 0
        for position in range(board_count):
            board_low |= low_rank_bit(board[position] >> 2)
        low_value = low[hole_low, board_low]
    return best, low_value


@parallel_kernel
def street_values(hands, boards, board_count, colex, pair_triple, pair_board, flush, low, hilo):
    """High and low value of every player of every deal on the first ``board_count`` board cards.

    Parameters
    ----------
    hands : (deal_count, player_count, hole_count) int8
    boards : (deal_count, 5) int8, the first ``board_count`` (3, 4 or 5) dealt.
    colex, pair_triple, pair_board, flush, low : the evaluator's tables (``tables.Tables``).
    hilo : bool, compute lows (else 0).

    Returns
    -------
    high : (deal_count, player_count) int32
    low : (deal_count, player_count) int16, 0 without a qualifying low.
    """
    deal_count, player_count, hole_count = hands.shape
    high_out = np.zeros((deal_count, player_count), dtype=np.int32)
    low_out = np.zeros((deal_count, player_count), dtype=np.int16)
    for deal in prange(deal_count):
        if board_count == 5:
            pair_indexes = np.empty(hole_count * (hole_count - 1) // 2, dtype=np.int32)
            hole_suit_masks = np.empty(4, dtype=np.int32)
            board_ranks = np.empty(5, dtype=np.int32)
            board_suit_masks = np.empty(4, dtype=np.int32)
            board_index, flush_suit, board_low_mask = board_features(boards[deal], colex, board_ranks,
                                                                     board_suit_masks)
            board_suit_mask = board_suit_masks[flush_suit] if flush_suit >= 0 else 0
            for player in range(player_count):
                hole_low_mask = hole_features(hands[deal, player], colex, pair_indexes, hole_suit_masks)
                high_out[deal, player], low_out[deal, player] = hand_values(
                    pair_indexes, hole_suit_masks, hole_low_mask, board_index, flush_suit, board_suit_mask,
                    board_low_mask, pair_board, flush, low, hilo)
        else:
            for player in range(player_count):
                high_out[deal, player], low_out[deal, player] = _partial_values(
                    hands[deal, player], boards[deal], board_count, colex, pair_triple, flush, low, hilo)
    return high_out, low_out


@helper
def _keep_two(best, second, deal, value):
    """Keep ``value`` if it is the deal's best or second-best distinct value so far."""
    if value > best[deal]:
        second[deal] = best[deal]
        best[deal] = value
    elif best[deal] > value > second[deal]:
        second[deal] = value


@helper
def _record(best_high, second_high, best_by_type, deal, value):
    """Keep ``value`` if it is the deal's best or second-best distinct value so far, or the best
    of its hand type."""
    _keep_two(best_high, second_high, deal, value)
    category = value >> _CATEGORY_SHIFT
    if value > best_by_type[deal, category]:
        best_by_type[deal, category] = value


@parallel_kernel
def available_best(boards, board_count, removed, colex, pair_triple, pair_board, pair_flush, low):
    """The best hands that two cards not in ``removed`` make with each deal's board: the nuts
    and the second nuts, the best of each hand type, and the nut and second-nut lows.

    Parameters
    ----------
    boards : (deal_count, 5) int8, the first ``board_count`` (3, 4 or 5) dealt.
    removed : (deal_count,) int64, the cards no hand may hold (bit ``card``): the board's own and,
        as the caller decides, a player's hole cards and the dead cards.
    colex, pair_triple, pair_board, pair_flush, low : the evaluator's tables.

    Returns
    -------
    best_high : (deal_count,) int32, the nut high value.
    second_high : (deal_count,) int32, the best value below it (0: none).
    best_by_type : (deal_count, 9) int32, the best value of each hand type (0: none).
    best_low : (deal_count,) int16, the nut low (0: no low possible).
    second_low : (deal_count,) int16, the best low below it (0: none).

    Two cards of ranks ``r1 <= r2`` make the unsuited value of the pair unless both are of the
    board's flush suit (three or more board cards of one suit), when they make the better of it
    and the flush: the counts of available cards per rank and of the flush suit say which values
    some pair of cards really makes, so no pair of cards is enumerated.
    """
    deal_count = boards.shape[0]
    best_high = np.zeros(deal_count, dtype=np.int32)
    second_high = np.zeros(deal_count, dtype=np.int32)
    best_by_type = np.zeros((deal_count, _TYPE_COUNT), dtype=np.int32)
    best_low = np.zeros(deal_count, dtype=np.int16)
    second_low = np.zeros(deal_count, dtype=np.int16)
    for deal in prange(deal_count):
        board = boards[deal]
        available = np.zeros(13, dtype=np.int64)
        available_in_suit = np.zeros(13, dtype=np.int64)
        suit_counts = np.zeros(4, dtype=np.int64)
        suit_masks = np.zeros(4, dtype=np.int64)
        board_low = 0
        for position in range(board_count):
            suit_counts[board[position] & 3] += 1
            suit_masks[board[position] & 3] |= 1 << (board[position] >> 2)
            board_low |= low_rank_bit(board[position] >> 2)
        flush_suit = -1
        for suit in range(4):
            if suit_counts[suit] >= 3:
                flush_suit = suit
        for card in range(52):
            if not (removed[deal] >> card) & 1:
                available[card >> 2] += 1
                if (card & 3) == flush_suit:
                    available_in_suit[card >> 2] = 1
        triple_indexes = np.empty(10, dtype=np.int64)
        triple_count = 0
        board_index = 0
        if board_count == 5:
            ranks = np.empty(5, dtype=np.int64)
            for position in range(5):
                ranks[position] = board[position] >> 2
            ranks.sort()
            for position in range(5):
                board_index += colex[position, ranks[position]]
        else:
            for first in range(board_count):
                for second in range(first + 1, board_count):
                    for third in range(second + 1, board_count):
                        low_rank, middle_rank, high_rank = _sorted_three(board[first] >> 2, board[second] >> 2,
                                                                         board[third] >> 2)
                        triple_indexes[triple_count] = colex[0, low_rank] + colex[1, middle_rank] + colex[2, high_rank]
                        triple_count += 1
        for rank_one in range(13):
            for rank_two in range(rank_one, 13):
                if rank_one == rank_two:
                    if available[rank_one] < 2:
                        continue
                elif available[rank_one] < 1 or available[rank_two] < 1:
                    continue
                pair_index = colex[0, rank_one] + colex[1, rank_two]
                unsuited = 0
                if board_count == 5:
                    unsuited = pair_board[board_index, pair_index]
                else:
                    for position in range(triple_count):
                        value = pair_triple[pair_index, triple_indexes[position]]
                        if value > unsuited:
                            unsuited = value
                suited_pairs = 0
                if rank_one != rank_two and flush_suit >= 0:
                    suited_pairs = available_in_suit[rank_one] * available_in_suit[rank_two]
                if available[rank_one] * available[rank_two] - suited_pairs > 0 or rank_one == rank_two:
                    _record(best_high, second_high, best_by_type, deal, unsuited)
                if suited_pairs > 0:
                    flush_value = pair_flush[rank_two * (rank_two - 1) // 2 + rank_one, suit_masks[flush_suit]]
                    _record(best_high, second_high, best_by_type, deal, max(unsuited, flush_value))
        for rank_one in range(13):
            bit_one = low_rank_bit(rank_one)
            if bit_one == 0 or available[rank_one] == 0:
                continue
            for rank_two in range(rank_one + 1, 13):
                bit_two = low_rank_bit(rank_two)
                if bit_two == 0 or available[rank_two] == 0:
                    continue
                _keep_two(best_low, second_low, deal, low[bit_one | bit_two, board_low])
    return best_high, second_high, best_by_type, best_low, second_low


@parallel_kernel
def made_hands(hands, boards, board_count, street_high):
    """Index in ``categories.names.MADE_HANDS`` of each player's made hand on each deal's street
    (the categories' own rule, ``categories._kernels.made_hand``).

    Parameters
    ----------
    hands : (deal_count, player_count, hole_count) int8
    boards : (deal_count, 5) int8, the first ``board_count`` (3 to 5) dealt.
    street_high : (deal_count, player_count) int32, the players' high values on that street.

    Returns
    -------
    (deal_count, player_count) int8
    """
    deal_count, player_count, hole_count = hands.shape
    made = np.zeros((deal_count, player_count), dtype=np.int8)
    for deal in prange(deal_count):
        rank_counts = np.zeros(13, dtype=np.int32)
        for position in range(board_count):
            rank_counts[boards[deal, position] >> 2] += 1
        ranks_info = np.full(5, -1, dtype=np.int32)
        distinct = 0
        for rank in range(12, -1, -1):
            if rank_counts[rank] > 0:
                if distinct < 2:
                    ranks_info[distinct] = rank
                distinct += 1
                ranks_info[2] = rank
        for rank in range(12, -1, -1):
            if rank_counts[rank] == 0:
                ranks_info[3] = rank
                break
        hole_counts = np.zeros(13, dtype=np.int64)
        for player in range(player_count):
            for rank in range(13):
                hole_counts[rank] = 0
            for position in range(hole_count):
                hole_counts[hands[deal, player, position] >> 2] += 1
            made[deal, player] = made_hand(np.int64(street_high[deal, player]), hole_counts, rank_counts, ranks_info)
    return made


@parallel_kernel
def street_equities(hands, boards, board_count, dead, colex, pair_board, flush, low, hilo):
    """Each player's equity (share of the pot, ties split, hi/lo halves) on each deal's street,
    every completion of the board enumerated.

    Parameters
    ----------
    hands : (deal_count, player_count, hole_count) int8
    boards : (deal_count, 5) int8, the first ``board_count`` (0 to 5) dealt.
    dead : (deal_count,) int64, dead cards (bit ``card``), out of every completion.
    colex, pair_board, flush, low : the evaluator's tables; ``hilo``: split the pot high/low.

    Returns
    -------
    (deal_count, player_count) float64, fractions 0..1 summing to 1 over the players.
    """
    deal_count, player_count, hole_count = hands.shape
    equities = np.zeros((deal_count, player_count), dtype=np.float64)
    missing = 5 - board_count
    pair_count = hole_count * (hole_count - 1) // 2
    for deal in prange(deal_count):
        used = dead[deal]
        for player in range(player_count):
            for position in range(hole_count):
                used |= np.int64(1) << hands[deal, player, position]
        for position in range(board_count):
            used |= np.int64(1) << boards[deal, position]
        deck = np.empty(52, dtype=np.int8)
        deck_size = 0
        for card in range(52):
            if not (used >> card) & 1:
                deck[deck_size] = card
                deck_size += 1
        pair_indexes = np.empty((player_count, pair_count), dtype=np.int32)
        hole_suit_masks = np.empty((player_count, 4), dtype=np.int32)
        hole_low_masks = np.empty(player_count, dtype=np.int64)
        for player in range(player_count):
            hole_low_masks[player] = hole_features(hands[deal, player], colex, pair_indexes[player],
                                                   hole_suit_masks[player])
        board = np.empty(5, dtype=np.int8)
        for position in range(board_count):
            board[position] = boards[deal, position]
        combination = np.arange(max(missing, 1), dtype=np.int64)
        board_ranks = np.empty(5, dtype=np.int32)
        board_suit_masks = np.empty(4, dtype=np.int32)
        high_values = np.empty(player_count, dtype=np.int64)
        low_values = np.empty(player_count, dtype=np.int64)
        shares = np.zeros(player_count, dtype=np.float64)
        board_total = 0
        while True:
            for position in range(missing):
                board[board_count + position] = deck[combination[position]]
            board_index, flush_suit, board_low_mask = board_features(board, colex, board_ranks, board_suit_masks)
            board_suit_mask = board_suit_masks[flush_suit] if flush_suit >= 0 else 0
            best_high = 0
            best_low = 0
            for player in range(player_count):
                high_values[player], low_values[player] = hand_values(
                    pair_indexes[player], hole_suit_masks[player], hole_low_masks[player], board_index, flush_suit,
                    board_suit_mask, board_low_mask, pair_board, flush, low, hilo)
                best_high = max(best_high, high_values[player])
                best_low = max(best_low, low_values[player])
            high_winners = 0
            low_winners = 0
            for player in range(player_count):
                if high_values[player] == best_high:
                    high_winners += 1
                if best_low > 0 and low_values[player] == best_low:
                    low_winners += 1
            high_share = 1.0 if low_winners == 0 else 0.5
            for player in range(player_count):
                if high_values[player] == best_high:
                    shares[player] += high_share / high_winners
                if low_winners > 0 and low_values[player] == best_low:
                    shares[player] += 0.5 / low_winners
            board_total += 1
            if missing == 0 or next_combination(combination, deck_size, missing) < 0:
                break
        for player in range(player_count):
            equities[deal, player] = shares[player] / board_total
    return equities
