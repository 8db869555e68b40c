"""The hand-list kernels' inputs as bundles, and the one builder of what the Monte Carlo kernels
over hand lists deal from (:class:`ListDeals`).

Each bundle is a frozen dataclass whose ``kernel_arguments()`` gives its values in the order the
kernels take them (as ``fixed.hands.Prepared.kernel_arguments`` does for the per-hand rows), so
that a call site reads ``kernel(*lists.kernel_arguments(), *tables.kernel_arguments(), ...)``
and no call spells out a long row of arrays. The bundles both kinds of kernels take (the pots,
the Monte Carlo chunks) are in ``equity.kernel_inputs``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...cards import DECK_SIZE
from ...evaluate.tables import dealt_board_indexes, load_tables
from ...games import BOARD_SIZE, Game
from .. import plan
from ..players import DEALT, FIXED, RANGE, Seat


def players_of(seats: list[Seat], *kinds: str) -> list[int]:
    """The players (seat indexes, from 0) whose seat is of one of ``kinds`` (``players.FIXED``,
    ``DEALT``, ``RANGE``), in seat order."""
    return [player for player, seat in enumerate(seats) if seat.kind in kinds]


def known_cards_of_dealt(seats: list[Seat], dealt_players: list[int], hole_count: int) -> tuple[np.ndarray, np.ndarray]:
    """The known cards of the players dealt at random (fixed and partial hands), for the kernels:
    ``(known (players, hole_count) int8, padded; counts (players,) int64)``."""
    known = np.zeros((len(dealt_players), hole_count), dtype=np.int8)
    counts = np.zeros(len(dealt_players), dtype=np.int64)
    for position, player in enumerate(dealt_players):
        cards = seats[player].known_cards
        known[position, :len(cards)] = cards
        counts[position] = len(cards)
    return known, counts


def card_mask(cards) -> int:
    """Bit mask (bit ``card``) of some cards."""
    mask = 0
    for card in cards:
        mask |= 1 << int(card)
    return mask


def all_known_cards(seats: list[Seat], board, dead) -> list[int]:
    """Cards written in hands, on the board and dead."""
    return [card for seat in seats for card in seat.known_cards] + list(board) + list(dead)


def available_cards(seats: list[Seat], board, dead) -> list[int]:
    """Cards not known to anyone (not in a hand, on the board or dead), ascending."""
    known = set(all_known_cards(seats, board, dead))
    return [card for card in range(DECK_SIZE) if card not in known]


def hand_masks(hands: np.ndarray) -> np.ndarray:
    """Card bit mask of each hand: (n, hole_count) int8 -> (n,) int64."""
    return (np.int64(1) << hands.astype(np.int64)).sum(axis=1)


def seat_hand_list(seat: Seat, available: list[int], hole_count: int) -> np.ndarray:
    """Every hand a seat may hold, (n, hole_count) int8, cards descending within a hand: a fixed
    hand, every completion of a partial or random hand from ``available``, or a range's hands."""
    if seat.kind == FIXED:
        return np.array([sorted(seat.known_cards, reverse=True)], dtype=np.int8)
    if seat.kind != DEALT:
        return np.asarray(seat.hands, dtype=np.int8)
    missing = hole_count - len(seat.known_cards)
    hands = [tuple(sorted(seat.known_cards + rest, reverse=True))
             for rest in itertools.combinations(available, missing)]
    return np.array(hands, dtype=np.int8).reshape(-1, hole_count)


class ExactLists:
    """Kernel inputs of an exact enumeration over hand lists (``_kernels.enumerate_ranges``,
    ``enumerate_combination_boards``, the all-in and next-card kernels): one list per player,
    the longest first (the equity kernel cuts the work by the hands of the first lists, the
    others into ``chunk_count`` slices of the first list); ``order[i]`` is the player holding
    list ``i``. ``kernel_arguments()`` is the kernels' first seven arguments: ``hands``
    (hand_count, hole_count) int8, ``masks`` (hand_count,) int64, ``offsets`` (players + 1,)
    int64, ``weights`` (hand_count,) int64, ``base_used_mask`` (the board and dead cards),
    ``board_known`` (b,) int8 and ``dealt_indexes`` (``tables.dealt_board_indexes``)."""

    def __init__(self, seats: list[Seat], board, dead, game: Game, weights_by_seat):
        self.tables = tables = load_tables()
        available = available_cards(seats, board, dead)
        hand_lists, weight_lists = [], []
        for seat, seat_weights in zip(seats, weights_by_seat):
            hand_lists.append(seat_hand_list(seat, available, game.hole_count))
            weight_lists.append(seat_weights if seat.kind == RANGE
                                else np.ones(hand_lists[-1].shape[0], dtype=np.int64))
        self.order = order = sorted(range(len(seats)), key=lambda player: -hand_lists[player].shape[0])
        self.offsets = np.zeros(len(seats) + 1, dtype=np.int64)
        for position, player in enumerate(order):
            self.offsets[position + 1] = self.offsets[position] + hand_lists[player].shape[0]
        self.hands = np.ascontiguousarray(np.concatenate([hand_lists[player] for player in order]), dtype=np.int8)
        self.masks = hand_masks(self.hands)
        self.weights = np.ascontiguousarray(np.concatenate([weight_lists[player] for player in order]),
                                            dtype=np.int64)
        self.base_used_mask = card_mask(list(board) + list(dead))
        self.board_known = np.array(board, dtype=np.int8)
        fixed_ranks = np.array(sorted(card >> 2 for card in board), dtype=np.int32)
        self.dealt_indexes = dealt_board_indexes(fixed_ranks, BOARD_SIZE - len(board), tables.colex)
        self.chunk_count = int(min(plan.EXACT_CHUNKS, self.offsets[1]))

    def kernel_arguments(self) -> tuple:
        return (self.hands, self.masks, self.offsets, self.weights, self.base_used_mask, self.board_known,
                self.dealt_indexes)


@dataclass(frozen=True)
class ScoreTables:
    """The lookup tables a hand-list kernel scores hands with, and the game's split.

    Attributes
    ----------
    colex : int32 array, colex index of rank combinations (``evaluate.tables.Tables.colex``).
    pair_board : int32 array, the hole pair x board rank values.
    flush : int32 array, the flush values (``Tables.flush``, or ``Tables.pair_flush`` for the
        kernels that score a hole pair's suit against the board's: :meth:`of`).
    low : int32 array, the low values.
    hilo : bool, whether the pot is split high/low.
    """

    colex: np.ndarray
    pair_board: np.ndarray
    flush: np.ndarray
    low: np.ndarray
    hilo: bool

    @classmethod
    def of(cls, game: Game, pair_flush: bool = False) -> ScoreTables:
        """The tables (``evaluate.tables.load_tables``) for ``game``; ``pair_flush`` takes
        ``Tables.pair_flush`` as the flush table."""
        tables = load_tables()
        return cls(tables.colex, tables.pair_board, tables.pair_flush if pair_flush else tables.flush, tables.low,
                   game.hilo)

    def kernel_arguments(self) -> tuple:
        return self.colex, self.pair_board, self.flush, self.low, self.hilo


@dataclass(frozen=True)
class DealtCards:
    """The players dealt at random (fixed, partial and random hands) and the known cards.

    Attributes
    ----------
    dealt_known : (dealt_player_count, hole_count) int8, each such player's known cards, padded.
    dealt_known_counts : (dealt_player_count,) int64, how many of them are known.
    dealt_players : (dealt_player_count,) int64, the players they are.
    base_used_mask : int, bit mask of every known card (hands, board, dead).
    board_known : (b,) int8, the known board.
    player_count : int
    """

    dealt_known: np.ndarray
    dealt_known_counts: np.ndarray
    dealt_players: np.ndarray
    base_used_mask: int
    board_known: np.ndarray
    player_count: int

    @classmethod
    def of(cls, seats: list[Seat], board, dead, game: Game) -> DealtCards:
        dealt_players = players_of(seats, FIXED, DEALT)
        dealt_known, dealt_known_counts = known_cards_of_dealt(seats, dealt_players, game.hole_count)
        return cls(dealt_known, dealt_known_counts, np.array(dealt_players, dtype=np.int64),
                   card_mask(all_known_cards(seats, board, dead)), np.array(board, dtype=np.int8), len(seats))

    def kernel_arguments(self) -> tuple:
        return (self.dealt_known, self.dealt_known_counts, self.dealt_players, self.base_used_mask, self.board_known,
                self.player_count)


@dataclass(frozen=True)
class PlayerLists:
    """Every range player's list in player order, drawn by cumulative weight (the all-in
    sampler, ``lists._allin_kernels.sample_allin_ranges``).

    Attributes
    ----------
    hands : (hand_count, hole_count) int8, the lists concatenated.
    masks : (hand_count,) int64, card bit mask of each hand.
    offsets : (list_count + 1,) int64, list ``i`` is ``hands[offsets[i]:offsets[i + 1]]``.
    cumulative : (hand_count,) float64, running weight within each list, ending at 1.
    players : (list_count,) int64, the player holding list ``i``.
    """

    hands: np.ndarray
    masks: np.ndarray
    offsets: np.ndarray
    cumulative: np.ndarray
    players: np.ndarray

    @property
    def list_count(self) -> int:
        return len(self.players)

    @classmethod
    def of(cls, seats: list[Seat], hole_count: int) -> PlayerLists:
        range_players = players_of(seats, RANGE)
        lists = [seats[player].hands for player in range_players]
        hands = (np.ascontiguousarray(np.concatenate(lists), dtype=np.int8) if lists
                 else np.zeros((0, hole_count), dtype=np.int8))
        offsets = np.zeros(len(lists) + 1, dtype=np.int64)
        cumulative = []
        for position, player in enumerate(range_players):
            weights = np.asarray(seats[player].weights, dtype=np.float64)
            offsets[position + 1] = offsets[position] + weights.shape[0]
            running = np.cumsum(weights) / weights.sum()
            running[-1] = 1.0
            cumulative.append(running)
        return cls(hands, hand_masks(hands), offsets, np.concatenate(cumulative) if cumulative else np.zeros(0),
                   np.array(range_players, dtype=np.int64))

    def kernel_arguments(self) -> tuple:
        return self.hands, self.masks, self.offsets, self.cumulative, self.players


@dataclass(frozen=True)
class WeightGroups:
    """The range players' lists as the equity sampler deals them
    (``_kernels.sample_ranges``).

    Players holding the same list (hands and weights) share one *group*: one set of bits per
    hand. Within a group the hands are sorted by weight and each weight class starts a new
    64-bit word, so a word's compatible weight is its popcount times one weight. List players
    are dealt narrowest list first (the widest lists then absorb the weight's spread).

    Attributes
    ----------
    group_hands : (hand_count, hole_count) int8, every group's hands, sorted by weight.
    group_masks : (hand_count,) int64, card bit mask of each hand.
    group_offsets : (group_count + 1,) int64, group ``g``'s hands.
    group_cumulative : (hand_count,) float64, running weight within each group, ending at 1.
    card_words : (52, word_count) uint64, bit ``h`` of a word set when its hand holds the card.
    word_valid : (word_count,) uint64, the bits that are hands.
    bit_hands : (word_count * 64,) int64, the hand row of each bit (-1: none).
    group_word_offsets : (group_count + 1,) int64, group ``g``'s words.
    class_word_offsets : (class_count + 1,) int64, each weight class's words.
    class_weights : (class_count,) float64, the weight of one hand of each class (of its group's 1).
    group_class_offsets : (group_count + 1,) int64, group ``g``'s weight classes.
    deal_groups : (list_player_count,) int64, the group each list player is dealt from, in deal order.
    deal_players : (list_player_count,) int64, the list players in deal order.
    group_sizes, group_words : (group_count,) int64, hands and words of each group (for the
        pilot's cost model; not kernel arguments).
    """

    group_hands: np.ndarray
    group_masks: np.ndarray
    group_offsets: np.ndarray
    group_cumulative: np.ndarray
    card_words: np.ndarray
    word_valid: np.ndarray
    bit_hands: np.ndarray
    group_word_offsets: np.ndarray
    class_word_offsets: np.ndarray
    class_weights: np.ndarray
    group_class_offsets: np.ndarray
    deal_groups: np.ndarray
    deal_players: np.ndarray
    group_sizes: np.ndarray
    group_words: np.ndarray

    @classmethod
    def of(cls, seats: list[Seat], hole_count: int) -> WeightGroups:
        range_players = players_of(seats, RANGE)
        range_players.sort(key=lambda player: (seats[player].range_size, player))
        groups: list[int] = []  # a player holding each group's list
        deal_groups = []
        for player in range_players:
            for group, holder in enumerate(groups):
                if _same_list(seats[holder], seats[player]):
                    deal_groups.append(group)
                    break
            else:
                deal_groups.append(len(groups))
                groups.append(player)
        arrays = _group_arrays([seats[holder] for holder in groups], hole_count)
        return cls(**arrays, deal_groups=np.array(deal_groups, dtype=np.int64),
                   deal_players=np.array(range_players, dtype=np.int64))

    def kernel_arguments(self) -> tuple:
        return (self.group_hands, self.group_masks, self.group_offsets, self.group_cumulative, self.card_words,
                self.word_valid, self.bit_hands, self.group_word_offsets, self.class_word_offsets,
                self.class_weights, self.group_class_offsets, self.deal_groups, self.deal_players)


def _group_arrays(holders: list[Seat], hole_count: int) -> dict[str, Any]:
    hands, cumulative, hand_offsets = [], [], [0]
    word_offsets, class_word_offsets, class_weights, class_offsets = [0], [0], [], [0]
    bit_rows = []  # (word, bit, row) of every hand
    for seat in holders:
        weights = np.asarray(seat.weights, dtype=np.float64)
        order = np.argsort(weights, kind="stable")
        sorted_weights = weights[order]
        total = float(sorted_weights.sum())
        row_start = hand_offsets[-1]
        hands.append(seat.hands[order])
        running = np.cumsum(sorted_weights) / total
        running[-1] = 1.0
        cumulative.append(running)
        hand_offsets.append(row_start + len(order))
        values, starts, counts = np.unique(sorted_weights, return_index=True, return_counts=True)
        word = word_offsets[-1]
        for value, start, count in zip(values, starts, counts):
            positions = np.arange(count)
            bit_rows.append((word + positions // 64, positions % 64, row_start + start + positions))
            word += -(-int(count) // 64)
            class_word_offsets.append(word)
            class_weights.append(value / total)
        word_offsets.append(word)
        class_offsets.append(len(class_weights))
    group_hands = np.ascontiguousarray(np.concatenate(hands), dtype=np.int8) if hands \
        else np.zeros((0, hole_count), dtype=np.int8)
    group_offsets = np.array(hand_offsets, dtype=np.int64)
    word_count = word_offsets[-1]
    group_word_offsets = np.array(word_offsets, dtype=np.int64)
    card_words = np.zeros((52, word_count), dtype=np.uint64)
    word_valid = np.zeros(word_count, dtype=np.uint64)
    bit_hands = np.full(word_count * 64, -1, dtype=np.int64)
    for words, bits, rows in bit_rows:
        masks = np.left_shift(np.uint64(1), bits.astype(np.uint64))
        np.bitwise_or.at(word_valid, words, masks)
        bit_hands[words * 64 + bits] = rows
        for position in range(hole_count):
            np.bitwise_or.at(card_words, (group_hands[rows, position].astype(np.int64), words), masks)
    return dict(
        group_hands=group_hands, group_masks=hand_masks(group_hands), group_offsets=group_offsets,
        group_cumulative=np.concatenate(cumulative) if cumulative else np.zeros(0), card_words=card_words,
        word_valid=word_valid, bit_hands=bit_hands, group_word_offsets=group_word_offsets,
        class_word_offsets=np.array(class_word_offsets, dtype=np.int64),
        class_weights=np.array(class_weights, dtype=np.float64),
        group_class_offsets=np.array(class_offsets, dtype=np.int64),
        group_sizes=np.diff(group_offsets), group_words=np.diff(group_word_offsets),
    )


def _same_list(first: Seat, second: Seat) -> bool:
    return (first.hands.shape == second.hands.shape and np.array_equal(first.hands, second.hands)
            and np.array_equal(first.weights, second.weights))


@dataclass(frozen=True)
class ListDeals:
    """What the Monte Carlo kernels over hand lists deal from: the range players' lists (as the
    equity sampler groups them by weight, or in player order for the all-in sampler), the
    players dealt at random with the known cards, and the scoring tables. The one builder of
    both samplers' inputs; ``kernel_arguments()`` is the kernels' first arguments.

    Attributes
    ----------
    lists : WeightGroups or PlayerLists
    dealt : DealtCards
    tables : ScoreTables
    """

    lists: WeightGroups | PlayerLists
    dealt: DealtCards
    tables: ScoreTables

    @classmethod
    def of(cls, seats: list[Seat], board, dead, game: Game, grouped: bool) -> ListDeals:
        """The deals of ``seats``: ``grouped`` for the equity sampler (:class:`WeightGroups`),
        else the all-in sampler's :class:`PlayerLists`."""
        lists = WeightGroups.of(seats, game.hole_count) if grouped else PlayerLists.of(seats, game.hole_count)
        return cls(lists, DealtCards.of(seats, board, dead, game), ScoreTables.of(game))

    def undealt_deck(self) -> np.ndarray:
        """The cards outside the known ones, ascending, padded to 52: (52,) int8 (where every
        all-in chunk's deck starts)."""
        deck = np.zeros(52, dtype=np.int8)
        undealt = [card for card in range(52) if not (self.dealt.base_used_mask >> card) & 1]
        deck[:len(undealt)] = undealt
        return deck

    def kernel_arguments(self) -> tuple:
        return (*self.lists.kernel_arguments(), *self.dealt.kernel_arguments(), *self.tables.kernel_arguments())
