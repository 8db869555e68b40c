"""Compiled equity kernels: deal the rest of the board, exactly or at random, and score it.

Both kernels read per-player rows from ``evaluate.rows.build_player_rows`` (re-indexed by
the multiset of the *dealt* board ranks, see ``tables.dealt_board_indexes``), so a board costs
a few table reads per player. The exact kernel tallies boards by outcome (who wins each half)
and :func:`score_outcomes` scores each outcome once; Monte Carlo scores each board. Work is cut
into chunks with their own output slab (no atomics): the counts are integers, so the totals do
not depend on the thread count; Monte Carlo chunks carry their own random state derived from
(seed, chunk index), so samples do not either.
"""

from __future__ import annotations

import functools

import numpy as np

from ...runtime.numba import helper, kernel, threaded_kernel
from ...evaluate._kernels import LOW_MASKS, bit_count, insert_rank, low_rank_bit
from ...pots import split_pot
from ...runtime.random_state import chunk_start, splitmix64
from ..kernel_parameters import kernel_parameters

# Per-player statistics (the layout of a row of counts: ``counters``).
from ..counters import (  # noqa: E402, F401  (the kernels and their callers read them here)
    EQUITY, EQUITY_LOW, HAS_LOW, HI_TIE, HI_WIN, LO_TIE, LO_WIN, QUARTERED, SPLIT, STAT_COUNT, TIE, WIN,
)


@helper
def record_outcome(high_values, low_values, hilo, units, weight, shares, counts, split):
    """Add each player's outcome on one board, ``weight`` times, to ``counts``, given the
    board's ``split_pot`` result ``split`` and the shares it wrote (shares in pot units times
    the weight into EQUITY, the low half's part into EQUITY_LOW, the weight into each outcome).

    A player who takes a part of the pot but not all of it either ties (shares the half, or
    the high-only pot, they take part of with an equal hand: TIE) or splits (wins one half
    alone while others win the other half: SPLIT); WIN is the whole pot alone.

    Returns ``weight`` when some player has a qualifying low, else 0. Plain Python can run it
    too (``record_outcome.py_func``, see :func:`_one_board_of_outcome`).
    """
    best_high, high_winner_count, best_low, low_winner_count = split
    low_share = (units // 2) // low_winner_count if low_winner_count > 0 else 0
    for player in range(high_values.shape[0]):
        share = shares[player]
        counts[player, EQUITY] += share * weight
        high_winner = high_values[player] == best_high
        low_winner = low_winner_count > 0 and low_values[player] == best_low
        if share == units:
            counts[player, WIN] += weight
        elif share > 0:
            if (high_winner and high_winner_count > 1) or (low_winner and low_winner_count > 1):
                counts[player, TIE] += weight
            else:
                counts[player, SPLIT] += weight
        if 4 * share == units:
            counts[player, QUARTERED] += weight
        if high_winner:
            counts[player, HI_WIN if high_winner_count == 1 else HI_TIE] += weight
        if low_winner:
            counts[player, LO_WIN if low_winner_count == 1 else LO_TIE] += weight
            counts[player, EQUITY_LOW] += low_share * weight
        if hilo and low_values[player] != 0:
            counts[player, HAS_LOW] += weight
    return weight if low_winner_count > 0 else 0


@helper
def score_board(high_values, low_values, hilo, units, weight, shares, counts):
    """Split the pot for one board (``split_pot``) and add each player's outcome, ``weight``
    times, to ``counts`` (:func:`record_outcome`). Returns ``weight`` when some player has a
    qualifying low, else 0."""
    split = split_pot(high_values, low_values, hilo, units, shares)
    return record_outcome(high_values, low_values, hilo, units, weight, shares, counts, split)


@helper
def flush_suit_of(suit_masks):
    """The suit with three or more board cards (at most one on five cards), or -1."""
    flush_suit = -1
    for suit in range(4):
        if bit_count(suit_masks[suit]) >= 3:
            flush_suit = suit
    return flush_suit


@helper
def evaluate_board(dealt_ranks_index, suit_masks, flush_suit, low_mask,
                    high_rows, flush_rows, low_rows, hilo, high_values, low_values):
    """Fill each player's high and low value for one complete board (fixed-hand rows)."""
    for player in range(high_rows.shape[0]):
        value = high_rows[player, dealt_ranks_index]
        if flush_suit >= 0:
            flush_value = flush_rows[player, flush_suit, suit_masks[flush_suit]]
            if flush_value > value:
                value = flush_value
        high_values[player] = value
        if hilo:
            low_values[player] = low_rows[player, low_mask]


@helper
def enumerated_board(deck, combination, dealt_count, colex, fixed_suit_masks, fixed_low_mask, suit_masks):
    """The board made of the known cards and the dealt ``deck[combination]`` (ascending):
    fills ``suit_masks`` and returns ``(dealt_ranks_index, board_low_mask)``."""
    dealt_ranks_index = 0
    low_mask = fixed_low_mask
    for suit in range(4):
        suit_masks[suit] = fixed_suit_masks[suit]
    for position in range(dealt_count):
        card = deck[combination[position]]
        rank = card >> 2
        dealt_ranks_index += colex[position, rank]
        suit_masks[card & 3] |= 1 << rank
        low_mask |= low_rank_bit(rank)
    return dealt_ranks_index, low_mask


@helper
def known_board_masks(board_known, suit_masks):
    """Fill ``suit_masks`` (4,) with the known board's rank mask per suit; return its low mask."""
    low_mask = 0
    for suit in range(4):
        suit_masks[suit] = 0
    for position in range(board_known.shape[0]):
        card = board_known[position]
        suit_masks[card & 3] |= 1 << (card >> 2)
        low_mask |= low_rank_bit(card >> 2)
    return low_mask


@helper
def draw_card(state, cards, position, card_count):
    """One step of a partial Fisher-Yates shuffle: swap a uniformly chosen card of
    ``cards[position:card_count]`` into ``position``. Returns ``(state, card)``.

    The index uses Lemire's multiply-shift on 32 random bits (bias below 52 / 2**32)."""
    state, bits = splitmix64(state)
    # unsigned indexes: no negative-index fix-up on the reads and writes
    pick = np.uint64(position) + (((bits >> np.uint64(32)) * np.uint64(card_count - position)) >> np.uint64(32))
    at = np.uint64(position)
    card = cards[pick]
    cards[pick] = cards[at]
    cards[at] = card
    return state, card


@helper
def sampled_board(state, cards, dealt_count, card_count, colex, fixed_suit_masks, fixed_low_mask, dealt_ranks,
                  suit_masks):
    """A random completion of the board: ``dealt_count`` cards drawn from ``cards[:card_count]``
    (:func:`draw_card`), added to the known cards' masks. Fills ``suit_masks`` (and
    ``dealt_ranks``, scratch) and returns ``(state, dealt_ranks_index, board_low_mask)``, as
    :func:`enumerated_board` does for an enumerated one."""
    low_mask = fixed_low_mask
    for suit in range(4):
        suit_masks[suit] = fixed_suit_masks[suit]
    for position in range(dealt_count):
        state, card = draw_card(state, cards, position, card_count)
        rank = card >> 2
        insert_rank(dealt_ranks, position, rank)
        suit_masks[card & 3] |= 1 << rank
        low_mask |= low_rank_bit(rank)
    dealt_ranks_index = 0
    for position in range(dealt_count):
        dealt_ranks_index += colex[position, dealt_ranks[position]]
    return state, dealt_ranks_index, low_mask


@helper
def slice_bounds(slice_index, total, slice_count):
    """The first item of slice ``slice_index`` and the item after its last, when ``total`` items
    are cut into ``slice_count`` slices of equal size (give or take one)."""
    return total * slice_index // slice_count, total * (slice_index + 1) // slice_count


@kernel
def unrank_combination(rank, item_count, choose_count, binomials, combination):
    """The combination of the given lexicographic rank (0-based) of ``choose_count`` items."""
    item = 0
    for position in range(choose_count):
        while binomials[item_count - item - 1, choose_count - position - 1] <= rank:
            rank -= binomials[item_count - item - 1, choose_count - position - 1]
            item += 1
        combination[position] = item
        item += 1


# Outcome tallies (see enumerate_boards) are kept when their key fits in this many bits: every
# high-only deal (at most 11 players), hi/lo up to 6 players.
OUTCOME_BITS = 12


@helper
def new_board_levels(dealt_count, fixed_suit_masks, fixed_low_mask):
    """The board state level by level, level 0 being the known cards and level ``i`` the state
    after ``i`` dealt cards (filled by :func:`deal_board_levels`): ``(level_index
    (dealt_count + 1,) int64, dealt-rank multiset index; level_suits (dealt_count + 1, 4)
    int32, rank mask per suit; level_suit_counts (same), cards per suit; level_top_suit
    (dealt_count + 1,) int64, a suit with the most cards (the flush suit when it has three);
    level_low (dealt_count + 1,) int64, low-rank mask)``; the complete board is the last level."""
    level_index = np.zeros(dealt_count + 1, dtype=np.int64)
    level_suits = np.empty((dealt_count + 1, 4), dtype=np.int32)
    level_suit_counts = np.empty((dealt_count + 1, 4), dtype=np.int32)
    level_top_suit = np.zeros(dealt_count + 1, dtype=np.int64)
    level_low = np.empty(dealt_count + 1, dtype=np.int64)
    for suit in range(4):
        level_suits[0, suit] = fixed_suit_masks[suit]
        level_suit_counts[0, suit] = bit_count(fixed_suit_masks[suit])
        if level_suit_counts[0, suit] > level_suit_counts[0, level_top_suit[0]]:
            level_top_suit[0] = suit
    level_low[0] = fixed_low_mask
    return level_index, level_suits, level_suit_counts, level_top_suit, level_low


@helper
def deal_board_levels(first_level, deck, combination, dealt_count, colex, level_index, level_suits,
                      level_suit_counts, level_top_suit, level_low):
    """Deal the levels from ``first_level`` on (the cards of ``deck[combination]`` that changed,
    see :func:`next_combination`: on average about one a step), each from the level before."""
    for level in range(first_level, dealt_count):
        card = deck[combination[level]]
        rank = card >> 2
        suit = card & 3
        level_index[level + 1] = level_index[level] + colex[level, rank]
        for other in range(4):
            level_suits[level + 1, other] = level_suits[level, other]
            level_suit_counts[level + 1, other] = level_suit_counts[level, other]
        level_suits[level + 1, suit] |= 1 << rank
        level_suit_counts[level + 1, suit] += 1
        top = level_top_suit[level]
        level_top_suit[level + 1] = suit if level_suit_counts[level + 1, suit] > level_suit_counts[level + 1, top] \
            else top
        level_low[level + 1] = level_low[level] | low_rank_bit(rank)


@helper
def board_values(dealt_ranks_index, suit_masks, top_suit, low_mask, high_rows, flush_rows, low_rows, hilo,
                  high_values, low_values):
    """:func:`evaluate_board` without branches on the cards: the flush row of the suit with the
    most cards is read whatever its count (it holds 0 for fewer than three cards, see
    ``build_player_rows``), and the better of the two taken."""
    for player in range(high_rows.shape[0]):
        high_values[player] = max(high_rows[player, dealt_ranks_index],
                                  flush_rows[player, top_suit, suit_masks[top_suit]])
        if hilo:
            low_values[player] = low_rows[player, low_mask]


def outcome_key_bits(player_count: int, hilo: bool) -> int:
    """Bits of an outcome key (:func:`enumerate_boards`: the high winners, then in hi/lo the low
    winners): :func:`enumerate_boards` serves deals whose keys fit in ``OUTCOME_BITS``."""
    return 2 * player_count if hilo else player_count


def score_outcomes(outcomes: np.ndarray, has_low: np.ndarray, hilo: bool, units: int) -> tuple[np.ndarray, int]:
    """Score the boards counted by outcome (:func:`enumerate_boards`' tallies, summed): every
    count is linear in the boards, so each outcome that occurred adds its board count times
    the counts of one board of that outcome (:func:`_one_board_of_outcome`).

    Parameters
    ----------
    outcomes : (2 ** outcome_key_bits,) int64, boards per outcome key.
    has_low : (player_count,) int64, boards where each player has a qualifying low.

    Returns
    -------
    counts : (player_count, STAT_COUNT) int64
    low_boards : int, boards where some player has a qualifying low.
    """
    player_count = has_low.shape[0]
    counts = np.zeros((player_count, STAT_COUNT), dtype=np.int64)
    low_boards = 0
    for key in np.flatnonzero(outcomes).tolist():
        boards = int(outcomes[key])
        one_board, some_low = _one_board_of_outcome(key, player_count, hilo, units)
        counts += one_board * boards
        low_boards += boards if some_low else 0
    if hilo:
        # a qualifying low that does not win still counts (the outcomes hold only the winners')
        counts[:, HAS_LOW] = has_low
    return counts, low_boards


@functools.lru_cache(maxsize=4096)
def _one_board_of_outcome(key: int, player_count: int, hilo: bool, units: int) -> tuple[np.ndarray, bool]:
    """The counts of one board of outcome ``key`` ((player_count, STAT_COUNT) int64, read-only)
    and whether some player has a qualifying low on it.

    The players' values stand in as 1 for a winner and 0 otherwise, which splits the pot
    exactly as the real values did. Plain Python with the compiled scoring's own code
    (``split_pot.py_func``, ``record_outcome.py_func``): compiling it cost about a second of
    a first run, and an outcome is scored once per process."""
    high_values = np.array([(key >> player) & 1 for player in range(player_count)], dtype=np.int32)
    low_values = np.array([(key >> (player_count + player)) & 1 for player in range(player_count)], dtype=np.int32)
    shares = np.empty(player_count, dtype=np.int64)
    counts = np.zeros((player_count, STAT_COUNT), dtype=np.int64)
    split = split_pot.py_func(high_values, low_values, hilo, units, shares)
    some_low = record_outcome.py_func(high_values, low_values, hilo, units, 1, shares, counts, split) > 0
    counts.setflags(write=False)
    return counts, some_low


@kernel
def add_board_card(suits, suit_counts, flush_suit, low_mask, card):
    """The board state after one more ``card``, all scalars (no arrays: nothing to count
    references of in a hot loop): ``suits``, the rank mask of each suit packed 16 bits a suit
    (:func:`board_suit_mask`); ``suit_counts``, the cards of each suit packed 8 bits a suit;
    ``flush_suit``, the suit with three or more cards (at most one on five cards), else 0 (a
    flush row holds 0 for fewer than three board cards of its suit, see ``build_player_rows``,
    so suit 0 then reads a 0); ``low_mask``, the low-rank mask. Returns the four, updated."""
    rank = np.int64(card >> 2)
    suit = np.int64(card & 3)
    suits |= np.int64(1) << (16 * suit + rank)
    suit_counts += np.int64(1) << (8 * suit)
    if (suit_counts >> (8 * suit)) & 0xFF >= 3:
        flush_suit = suit
    return suits, suit_counts, flush_suit, low_mask | low_rank_bit(rank)


@kernel
def board_suit_mask(suits, suit):
    """The rank mask of ``suit`` in packed ``suits`` (:func:`add_board_card`)."""
    return (suits >> (16 * suit)) & 0x1FFF


@kernel
def known_board_state(fixed_suit_masks, fixed_low_mask):
    """The state :func:`add_board_card` keeps, of the known board cards given by their rank
    mask per suit (4,) and low mask: ``(suits, suit_counts, flush_suit, low_mask)``."""
    suits = np.int64(0)
    suit_counts = np.int64(0)
    flush_suit = np.int64(0)
    for suit in range(4):
        suits |= np.int64(fixed_suit_masks[suit]) << (16 * suit)
        count = bit_count(np.int64(fixed_suit_masks[suit]))  # the one bit_count compiled (int64)
        suit_counts += np.int64(count) << (8 * suit)
        if count >= 3:
            flush_suit = np.int64(suit)
    return suits, suit_counts, flush_suit, np.int64(fixed_low_mask)


@threaded_kernel
@kernel_parameters
def enumerate_boards(deck, dealt_count, fixed_suit_masks, fixed_low_mask, high_rows, flush_rows, low_rows,
                     colex, binomials, hilo, first_chunk, chunk_count, total_chunks):
    """Tally every completion of the board by outcome, a range of chunks at a time.

    The completions are walked in lexicographic order with the board kept incrementally: the
    state after each dealt card but the last (rank multiset index, packed suit masks and counts,
    flush suit, low mask: :func:`add_board_card`) is kept per level and re-dealt only from the
    first card that changed; the last card runs over the rest of the deck in a plain loop with
    what each card adds read from small per-card arrays. Each board adds one to the count of
    its outcome, a key of bits: bit ``p`` when player ``p`` wins high, in hi/lo then bit
    ``player_count + p`` when ``p`` wins low; qualifying lows are counted by board low mask and
    turned into each player's count at the end of a chunk. :func:`score_outcomes` scores each
    outcome once. The same numbers as a board-by-board walk, whatever the chunks. Only for deals
    whose outcome keys fit in ``OUTCOME_BITS`` (:func:`outcome_key_bits`); more players go to
    the list kernel (``lists._kernels.enumerate_ranges``, each hand a list of one).

    Parameters
    ----------
    {fixed_hands, binomials, hilo, chunk_slices}

    Returns
    -------
    outcomes : (chunk_count, 2 ** outcome_key_bits) int64, boards per outcome key.
    has_low : (chunk_count, player_count) int64, boards where each player has a qualifying low.
    """
    card_count = deck.shape[0]
    player_count = high_rows.shape[0]
    total = binomials[card_count, dealt_count]
    key_bits = 2 * player_count if hilo else player_count
    outcomes = np.zeros((chunk_count, 1 << key_bits), dtype=np.int64)
    has_low = np.zeros((chunk_count, player_count), dtype=np.int64)
    # The board after each dealt card but the last (level 0: the known cards), so that a step
    # re-deals only the cards that changed; the last card is a plain loop over the deck. The
    # loops call no helper that takes an array: numba counts references of every array
    # variable an inlined helper binds, and those atomic increments and decrements were most
    # of the time of a board (PERF-NOTES).
    level_index = np.zeros(6, dtype=np.int64)
    level_suits = np.zeros(6, dtype=np.int64)
    level_suit_counts = np.zeros(6, dtype=np.int64)
    level_flush_suit = np.zeros(6, dtype=np.int64)
    level_low = np.zeros(6, dtype=np.int64)
    level_suits[0], level_suit_counts[0], level_flush_suit[0], level_low[0] = known_board_state(
        fixed_suit_masks, fixed_low_mask)
    # what the last dealt card adds, by its place in the deck; place ``card_count`` adds
    # nothing (no card to deal: a complete board is its one board)
    last = max(dealt_count - 1, 0)
    last_index = np.zeros(card_count + 1, dtype=np.int64)
    last_suit = np.zeros(card_count + 1, dtype=np.int64)
    last_suit[card_count] = 4  # suit 4: makes no flush
    last_suit_bit = np.zeros(card_count + 1, dtype=np.int64)
    last_low_bit = np.zeros(card_count + 1, dtype=np.int64)
    for position in range(card_count):
        rank = np.int64(deck[position] >> 2)
        last_suit[position] = deck[position] & 3
        last_index[position] = colex[last, rank]
        last_suit_bit[position] = np.int64(1) << (16 * last_suit[position] + rank)
        last_low_bit[position] = low_rank_bit(rank)
    combination = np.zeros(6, dtype=np.int64)
    low_mask_boards = np.zeros(LOW_MASKS, dtype=np.int64)  # boards per low mask, for has_low
    for slab in range(chunk_count):
        start, stop = slice_bounds(first_chunk + slab, total, total_chunks)
        if start >= stop:
            continue
        unrank_combination(start, card_count, dealt_count, binomials, combination)
        remaining = stop - start
        changed = 0  # the first board deals every level
        while remaining > 0:
            for level in range(changed, dealt_count - 1):
                card = deck[combination[level]]
                level_index[level + 1] = level_index[level] + colex[level, card >> 2]
                level_suits[level + 1], level_suit_counts[level + 1], level_flush_suit[level + 1], \
                    level_low[level + 1] = add_board_card(level_suits[level], level_suit_counts[level],
                                                          level_flush_suit[level], level_low[level], card)
            base_index = level_index[last]
            base_suits = level_suits[last]
            base_flush_suit = level_flush_suit[last]
            base_low = level_low[last]
            # suits that make a flush with one more card (two or more cards already)
            flush_ready = 0
            for suit in range(4):
                if (level_suit_counts[last] >> (8 * suit)) & 0xFF >= 2:
                    flush_ready |= 1 << suit
            if dealt_count == 0:
                first, count = card_count, 1
            else:
                first = combination[last]
                count = min(card_count - first, remaining)
            for position in range(first, first + count):
                # indexes as unsigned: numba adds no negative-index fix-up to their reads
                dealt_ranks_index = np.uint64(base_index + last_index[position])
                suits = base_suits | last_suit_bit[position]
                flush_suit = last_suit[position] if (flush_ready >> last_suit[position]) & 1 else base_flush_suit
                flush_mask = np.uint64(board_suit_mask(suits, flush_suit))
                flush_row = np.uint64(flush_suit)
                # the high winners: bit p for player p (the flush row of a suit with fewer than
                # three board cards holds 0); one pass, no branches
                best_high = np.int32(-1)
                key = 0
                for player in range(player_count):
                    value = max(high_rows[np.uint64(player), dealt_ranks_index],
                                flush_rows[np.uint64(player), flush_row, flush_mask])
                    bit = np.int64(1) << player
                    key = bit if value > best_high else (key | bit if value == best_high else key)
                    best_high = max(best_high, value)
                if hilo:
                    # then the low winners (bit player_count + p), of the qualifying lows (not 0)
                    low_mask = np.uint64(base_low | last_low_bit[position])
                    low_mask_boards[low_mask] += 1
                    best_low = np.int32(0)
                    low_key = 0
                    for player in range(player_count):
                        low = np.int32(low_rows[np.uint64(player), low_mask])
                        bit = np.int64(1) << player
                        low_key = bit if low > best_low else (low_key | bit if low == best_low and low != 0
                                                              else low_key)
                        best_low = max(best_low, low)
                    key |= low_key << player_count
                outcomes[slab, key] += 1
            remaining -= count
            if remaining > 0:
                # past the deck's last card: the next combination in lexicographic order, and
                # ``changed``, the first position with a new card
                combination[last] = card_count - 1
                changed = last
                while changed >= 0 and combination[changed] == card_count - dealt_count + changed:
                    changed -= 1
                combination[changed] += 1
                for later in range(changed + 1, dealt_count):
                    combination[later] = combination[later - 1] + 1
        if hilo:
            # a player's qualifying lows: the boards of every low mask that gives them one
            for low_mask in range(LOW_MASKS):
                boards = low_mask_boards[low_mask]
                if boards:
                    for player in range(player_count):
                        if low_rows[player, low_mask] != 0:
                            has_low[slab, player] += boards
                low_mask_boards[low_mask] = 0
    return outcomes, has_low


@threaded_kernel
@kernel_parameters
def sample_boards(deck, dealt_count, fixed_suit_masks, fixed_low_mask, high_rows, flush_rows, low_rows,
                  colex, hilo, units, seed, first_chunk, chunk_count, chunk_size, sample_count):
    """Score random completions of the board (Monte Carlo), a range of chunks at a time.

    Chunk ``c`` draws samples ``c * chunk_size`` .. up to ``sample_count`` with its own
    SplitMix64 stream seeded from ``(seed, c)``; each sample is a partial Fisher-Yates shuffle
    of the chunk's copy of ``deck`` (:func:`draw_card`).

    ``deck`` may be in any order.

    Parameters
    ----------
    {fixed_hands, hilo, units, seed, first_chunk, chunk_count, chunk_plan}

    Returns
    -------
    counts : (chunk_count, player_count, STAT_COUNT) int64
    low_boards : (chunk_count,) int64
    square_sums : (chunk_count, player_count) int64, sums of squared shares in pot units
        (exact integers: a chunk of 2**16 samples stays far below 2**63), for the standard
        error of equity.
    """
    card_count = deck.shape[0]
    player_count = high_rows.shape[0]
    counts = np.zeros((chunk_count, player_count, STAT_COUNT), dtype=np.int64)
    low_boards = np.zeros(chunk_count, dtype=np.int64)
    square_sums = np.zeros((chunk_count, player_count), dtype=np.int64)
    known_suits, known_suit_counts, known_flush_suit, known_low = known_board_state(fixed_suit_masks,
                                                                                  fixed_low_mask)
    half_pot = units // 2
    cards = np.empty(card_count, dtype=np.int8)
    dealt_ranks = np.empty(max(dealt_count, 1), dtype=np.uint64)
    high_values = np.empty(player_count, dtype=np.int32)
    low_values = np.zeros(player_count, dtype=np.int32)
    for slab in range(chunk_count):
        start, stop, state = chunk_start(seed, first_chunk + slab, chunk_size, sample_count)
        if start >= stop:
            continue
        for position in range(card_count):
            cards[position] = deck[position]
        low_board_count = 0
        for _ in range(stop - start):
            # the board as scalars (add_board_card), the dealt ranks sorted for their index
            suits, suit_counts, flush_suit, low_mask = known_suits, known_suit_counts, known_flush_suit, known_low
            for position in range(dealt_count):
                state, card = draw_card(state, cards, position, card_count)
                insert_rank(dealt_ranks, position, np.uint64(card >> 2))
                suits, suit_counts, flush_suit, low_mask = add_board_card(suits, suit_counts, flush_suit, low_mask,
                                                                          card)
            dealt_ranks_index = np.uint64(0)
            for position in range(dealt_count):
                dealt_ranks_index += np.uint64(colex[np.uint64(position), dealt_ranks[position]])
            # the flush rows are read only when the board has a flush (about two boards in five
            # preflop): reading them always, as their zeros allow, cost a cache miss per player
            flush_mask = np.uint64(board_suit_mask(suits, flush_suit))
            flush_row = np.uint64(flush_suit)
            low_index = np.uint64(low_mask)
            # each player's values, the best of each half and how many share it, in one pass
            # (the pot split of ``pots.split_pot``)
            best_high = np.int32(-1)
            high_winner_count = 0
            best_low = np.int32(0)
            low_winner_count = 0
            has_flush = (suit_counts >> (8 * flush_suit)) & 0xFF >= 3
            for player in range(player_count):
                at = np.uint64(player)
                value = high_rows[at, dealt_ranks_index]
                if has_flush:
                    value = max(value, flush_rows[at, flush_row, flush_mask])
                high_values[player] = value
                if value > best_high:
                    best_high = value
                    high_winner_count = 1
                elif value == best_high:
                    high_winner_count += 1
                if hilo:
                    low = np.int32(low_rows[at, low_index])
                    low_values[player] = low
                    if low != 0:
                        if low > best_low:
                            best_low = low
                            low_winner_count = 1
                        elif low == best_low:
                            low_winner_count += 1
            # then each player's counters, as record_outcome adds them for one board (written out
            # here with the split above: one pass over the players for each, no weight)
            high_share = (half_pot if low_winner_count > 0 else units) // high_winner_count
            low_share = half_pot // low_winner_count if low_winner_count > 0 else 0
            for player in range(player_count):
                at = np.uint64(player)
                high_winner = high_values[player] == best_high
                low_winner = low_winner_count > 0 and low_values[player] == best_low
                share = (high_share if high_winner else 0) + (low_share if low_winner else 0)
                counts[slab, at, EQUITY] += share
                square_sums[slab, at] += share * share
                if share == units:
                    counts[slab, at, WIN] += 1
                elif share > 0:
                    if (high_winner and high_winner_count > 1) or (low_winner and low_winner_count > 1):
                        counts[slab, at, TIE] += 1
                    else:
                        counts[slab, at, SPLIT] += 1
                if 4 * share == units:
                    counts[slab, at, QUARTERED] += 1
                if high_winner:
                    counts[slab, at, HI_WIN if high_winner_count == 1 else HI_TIE] += 1
                if low_winner:
                    counts[slab, at, LO_WIN if low_winner_count == 1 else LO_TIE] += 1
                    counts[slab, at, EQUITY_LOW] += low_share
                if hilo and low_values[player] != 0:
                    counts[slab, at, HAS_LOW] += 1
            if low_winner_count > 0:
                low_board_count += 1
        low_boards[slab] = low_board_count
    return counts, low_boards, square_sums
