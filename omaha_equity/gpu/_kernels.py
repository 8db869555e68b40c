"""The GPU kernels (numba's CUDA target, ``@cuda.jit``): exact enumeration and Monte Carlo of
deals, for fixed hands, partial and random hands and ranges, in every game, tallied by outcome
for equity, all-in chips and the distribution study alike.

Both kernels end where the CPU's fixed-hand enumeration ends (``equity.fixed._kernels.enumerate_boards``):
each deal adds its weight to the tally of its *outcome* key, and to the qualifying-low count of
each player with an 8-or-better low. For equity the key says who wins the pot (bit ``p`` when
player ``p`` wins high; in hi/lo, bit ``player_count + p`` when ``p`` wins low); for an all-in
it says who wins each side pot (:func:`deal_key`: the pots' eligible players are nested, so a
digit per level of them does). Every statistic of a result (wins, ties, scoops, quartered pots,
equity in pot units, chips per pot, sums of squares) is a sum over deals of a function of the
outcome, so the host scores each outcome once with the CPU's own code and the GPU keeps integers
only: atomic integer additions give the same totals in any order, so results do not depend on
the launch shape. The distribution study keeps one tally per hand combination (``grouped``).

A hand is evaluated from its cards with the CPU's tables (``evaluate.tables``): the best
unsuited high of its hole pairs on the board's rank multiset (``pair_board``), the best flush of
its suited pairs in the board's flush suit (``pair_flush``), and the low of its and the board's
low-rank masks (``low``). The tallies of a block are kept in shared memory when they fit
(``SHARED_OUTCOMES`` keys; more go to global memory) and added to the launch's output once per
block. The CPU helpers that fit a GPU thread as they are (low rank bits, the combination walk,
the weighted pick) are compiled here from their own source (:func:`device_function`).

Monte Carlo is counter-based: trial ``t`` draws from a SplitMix64 stream seeded from
``(seed, t)`` alone (:func:`trial_state`), whichever thread of whichever launch runs it. Range
players' hands are drawn by weight and the whole draw repeated while two hands share a card
(the joint deal of independent draws conditioned on no shared card); partial and random hands
and the board are then dealt from the rest of the deck.

Importing this module imports ``numba.cuda`` (``device.cuda_module``: the simulator under
``NUMBA_ENABLE_CUDASIM=1``).
"""

from __future__ import annotations

import numpy as np
from numba import int32, int64, uint64

from ..equity.fixed import _kernels as fixed_kernels
from ..equity.lists import _kernels as lists_kernels
from ..evaluate import _kernels as evaluate_kernels
from .device import cuda_module

cuda = cuda_module()

# Outcome keys tallied in a block's shared memory: 2 ** 12 int64 (32 KiB of the 48 KiB a block
# may declare statically), every high-only deal and hi/lo up to 6 players.
SHARED_OUTCOMES = 4096
# Local array sizes: the most players (11, four-card Omaha), hole cards (6) and hole pairs (15).
MAX_PLAYERS = 11
MAX_HOLE_CARDS = 6
MAX_PAIRS = 15
DECK_SIZE = 52
# A thread's card scratch is two rows of DECK_SIZE: the undealt deck, then the board, its ranks
# sorted, its suits' rank masks and a hand's hole cards, at these columns.
BOARD, RANKS, SUIT_MASKS, HOLE_CARDS = 0, 5, 10, 14
# A Monte Carlo trial whose range hands keep sharing a card this many draws in a row gives up:
# the ranges leave (almost) no deal (``range_sampling.GIVE_UP_AFTER`` is the CPU's rule).
MAX_REDRAWS = 100_000
GOLDEN = 0x9E3779B97F4A7C15
TRIAL_MULTIPLIER = 0xD1B54A32D192ED03


def device_function(cpu_helper):
    """A CPU kernel helper compiled as a CUDA device function from its own Python source (the
    CPU's compiled dispatcher keeps it as ``py_func``): the same code on both targets."""
    return cuda.jit(device=True)(getattr(cpu_helper, "py_func", cpu_helper))


low_rank_bit = device_function(evaluate_kernels.low_rank_bit)
board_features = device_function(evaluate_kernels.board_features)
next_combination = device_function(evaluate_kernels.next_combination)
unrank_combination = device_function(fixed_kernels.unrank_combination)
pick_weighted = device_function(lists_kernels._pick_weighted)


@cuda.jit(device=True)
def splitmix64(state):
    """One step of SplitMix64 (Steele, Lea, Flood 2014): ``(next state, 64 random bits)``."""
    state = uint64(state + uint64(GOLDEN))
    mixed = state
    mixed = uint64((mixed ^ (mixed >> uint64(30))) * uint64(0xBF58476D1CE4E5B9))
    mixed = uint64((mixed ^ (mixed >> uint64(27))) * uint64(0x94D049BB133111EB))
    return state, uint64(mixed ^ (mixed >> uint64(31)))


@cuda.jit(device=True)
def trial_state(seed_hash, trial):
    """The starting state of trial ``trial``'s stream: a hash of the seed's hash and the trial
    index, so a trial draws the same numbers on any thread of any launch."""
    _, state = splitmix64(uint64(seed_hash ^ uint64(uint64(trial) * uint64(TRIAL_MULTIPLIER))))
    return state


@cuda.jit(device=True)
def below(state, bound):
    """A uniform integer in ``0 .. bound - 1`` (Lemire's multiply-shift on 32 random bits;
    bias below 52 / 2**32). Returns ``(state, value)``."""
    state, bits = splitmix64(state)
    return state, int64(((bits >> uint64(32)) * uint64(bound)) >> uint64(32))


@cuda.jit(device=True)
def uniform(state):
    """A uniform float in [0, 1) from 53 random bits. Returns ``(state, value)``."""
    state, bits = splitmix64(state)
    return state, float(bits >> uint64(11)) * (1.0 / 9007199254740992.0)


@cuda.jit(device=True)
def draw_card(state, deck, dealt, card_count):
    """One step of a partial Fisher-Yates shuffle: swap a uniform card of ``deck[dealt:card_count]``
    into ``deck[dealt]``. Returns ``(state, the card)``."""
    state, pick = below(state, card_count - dealt)
    pick += dealt
    drawn = deck[pick]
    deck[pick] = deck[dealt]
    deck[dealt] = drawn
    return state, drawn


@cuda.jit(device=True)
def draw_board(state, card_count, dealt_count, combination):
    """``dealt_count`` distinct uniform indexes below ``card_count`` into ``combination`` (a
    uniform random completion of the board; each index drawn again while it repeats one drawn
    before). The deck is not touched, so a trial's board depends on its stream only."""
    for position in range(dealt_count):
        fresh = False
        pick = int64(0)
        while not fresh:
            state, pick = below(state, card_count)
            fresh = True
            for earlier in range(position):
                if combination[earlier] == pick:
                    fresh = False
        combination[position] = pick


@cuda.jit(device=True)
def hand_features(cards, hole_count, colex, pair_indexes, pair_flush_rows):
    """A hand's evaluation inputs from its ``hole_count`` cards: each hole pair's rank-multiset
    index into ``pair_indexes`` and, for a suited pair, ``suit * 128 + suited pair index`` (the
    row of ``pair_flush``, ``tables.suited_pair_index``) into ``pair_flush_rows`` (-1: not
    suited). Returns the hand's low-rank mask."""
    position = 0
    low_mask = 0
    for first in range(hole_count):
        first_card = int32(cards[first])
        first_rank = first_card >> 2
        low_mask |= low_rank_bit(first_rank)
        for second in range(first + 1, hole_count):
            second_card = int32(cards[second])
            second_rank = second_card >> 2
            low_rank = min(first_rank, second_rank)
            high_rank = max(first_rank, second_rank)
            pair_indexes[position] = colex[0, low_rank] + colex[1, high_rank]
            suit = first_card & 3
            if second_card & 3 == suit:
                pair_flush_rows[position] = suit * 128 + high_rank * (high_rank - 1) // 2 + low_rank
            else:
                pair_flush_rows[position] = -1
            position += 1
    return low_mask


@cuda.jit(device=True)
def high_value(pair_count, pair_indexes, pair_flush_rows, board_index, flush_suit, flush_mask, pair_board,
               pair_flush):
    """A hand's best high on a complete board: its best hole pair on the board's rank multiset,
    or its best suited pair of the flush suit (``flush_suit`` -1: none) when that is better."""
    best = int32(0)
    for pair in range(pair_count):
        value = pair_board[board_index, pair_indexes[pair]]
        if value > best:
            best = value
        row = pair_flush_rows[pair]
        if row >= 0 and row >> 7 == flush_suit:
            value = pair_flush[row & 127, flush_mask]
            if value > best:
                best = value
    return best


@cuda.jit(device=True)
def deal_values(player_count, pair_count, pair_rows, player_values, scratch, colex, pair_board, pair_flush, low,
                hilo):
    """Every player's high value into ``player_values[1]`` and, in hi/lo, low value into
    ``player_values[2]`` (0: no qualifying low; always 0 when not hi/lo), on the complete board
    ``scratch[BOARD:BOARD + 5]`` (``player_values[0]``: the hands' low-rank masks; ``pair_rows``:
    their pairs, :func:`hand_features`)."""
    board_index, flush_suit, board_low = board_features(scratch[BOARD:BOARD + 5], colex, scratch[RANKS:RANKS + 5],
                                                        scratch[SUIT_MASKS:SUIT_MASKS + 4])
    flush_mask = scratch[SUIT_MASKS + flush_suit] if flush_suit >= 0 else 0
    for player in range(player_count):
        player_values[1, player] = high_value(pair_count, pair_rows[0, player], pair_rows[1, player], board_index,
                                              flush_suit, flush_mask, pair_board, pair_flush)
        player_values[2, player] = int32(low[player_values[0, player], board_low]) if hilo else 0


@cuda.jit(device=True)
def best_of(player_count, values, members, floor):
    """The best value above ``floor`` among the players of ``members`` (bit ``p``: player ``p``)
    and which of them hold it, as bits in the members' order (bit ``i``: the ``i``-th member).
    Returns ``(best, bits)``; ``(floor, 0)`` when no member is above ``floor``."""
    best = floor
    bits = int64(0)
    position = 0
    for player in range(player_count):
        if (members >> player) & 1:
            value = values[player]
            if value > best:
                best = value
                bits = int64(1) << position
            elif value == best and value > floor:
                bits |= int64(1) << position
            position += 1
    return best, bits


@cuda.jit(device=True)
def level_digit(top, bits, best, deepest):
    """A level's digit of a deal's key (see :func:`deal_key`)."""
    if deepest:
        return bits
    if bits == 0 or top < best:
        return int64(0)
    return 2 * bits - 1 + (1 if top == best else 0)


@cuda.jit(device=True)
def deal_key(player_count, highs, lows, hilo, level_masks, level_strides):
    """The outcome key of a deal: who wins each pot (the module docstring).

    The pots' eligible players form levels (``level_masks``, the widest first; a deeper level
    holds the players of the deeper pots only), and the key is a mixed-radix number
    (``level_strides[0]`` for the high digits, ``[1]`` for the low ones) with a digit per level
    and half: at the deepest level its winners' bits; above, 0 when none of the level's own
    players beats or ties the best below, else ``2 * bits - 1``, plus 1 for a tie.
    """
    key = int64(0)
    best_high = int32(-1)
    best_low = int32(0)
    deepest = level_masks.shape[0] - 1
    for level in range(deepest, -1, -1):
        members = level_masks[level]
        top, bits = best_of(player_count, highs, members, int32(-1))
        key += level_digit(top, bits, best_high, level == deepest) * level_strides[0, level]
        best_high = max(best_high, top)
        if hilo:
            top, bits = best_of(player_count, lows, members, int32(0))
            key += level_digit(top, bits, best_low, level == deepest) * level_strides[1, level]
            best_low = max(best_low, top)
    return key


@cuda.jit(device=True)
def begin_block(shared_outcomes, use_shared, player_lows, player_count):
    """Zero the thread's low counts and the block's shared tallies (every thread takes its
    share), then wait for all."""
    for player in range(player_count):
        player_lows[player] = 0
    if use_shared:
        for key in range(cuda.threadIdx.x, SHARED_OUTCOMES, cuda.blockDim.x):
            shared_outcomes[key] = 0
    cuda.syncthreads()


@cuda.jit(device=True)
def record_deal(shared_outcomes, outcomes, use_shared, index, weight, hilo, lows, player_lows, player_count):
    """Add a deal's weight to its tally ``index`` and to the low counts of the players with a
    qualifying low."""
    if use_shared:
        cuda.atomic.add(shared_outcomes, index, weight)
    else:
        cuda.atomic.add(outcomes, index, weight)
    if hilo:
        for player in range(player_count):
            if lows[player] != 0:
                player_lows[player] += weight


@cuda.jit(device=True)
def end_block(shared_outcomes, outcomes, use_shared, player_lows, has_low, player_count):
    """Wait for the block, add its shared tallies to the launch's output, and the thread's low
    counts."""
    cuda.syncthreads()
    if use_shared:
        for key in range(cuda.threadIdx.x, outcomes.shape[0], cuda.blockDim.x):
            count = shared_outcomes[key]
            if count != 0:
                cuda.atomic.add(outcomes, key, count)
    for player in range(player_count):
        if player_lows[player] != 0:
            cuda.atomic.add(has_low, player, player_lows[player])


@cuda.jit(device=True)
def known_cards(board_known, scratch):
    """Copy the known board cards (``board_known``, padded with -1) to the board of a card
    scratch row; their count."""
    count = 0
    for position in range(5):
        if board_known[position] >= 0:
            scratch[BOARD + count] = board_known[position]
            count += 1
    return count


@cuda.jit(device=True)
def undealt_deck(used_mask, deck):
    """The cards outside ``used_mask`` (bit ``card``), ascending, into ``deck``; their count."""
    count = 0
    for card in range(DECK_SIZE):
        if not (used_mask >> card) & 1:
            deck[count] = card
            count += 1
    return count


@cuda.jit(device=True)
def choose_hands(combination, offsets, masks, weights, base_used_mask, chosen):
    """The hands of combination number ``combination`` (mixed radix over the lists, the last list
    the least significant digit) into ``chosen``. Returns ``(used cards mask, product of the
    weights, whether the hands share no card)``."""
    used = int64(base_used_mask)
    weight = int64(1)
    compatible = True
    rest = combination
    for position in range(offsets.shape[0] - 2, -1, -1):
        size = offsets[position + 1] - offsets[position]
        hand = offsets[position] + rest % size
        rest //= size
        chosen[position] = hand
        if used & masks[hand]:
            compatible = False
        used |= masks[hand]
        weight *= weights[hand]
    return used, weight, compatible


@cuda.jit
def enumerate_lists(hands, masks, offsets, weights, base_used_mask, board_known, colex, pair_board, pair_flush, low,
                    hilo, level_masks, level_strides, binomials, boards_per_unit, first_unit, unit_count,
                    sampled_boards, seed_hash, first_trial, key_count, outcomes, has_low, totals):
    """Every card-disjoint combination of the players' hands (one of each player's list; a fixed
    hand is a list of one) times every completion of the board (or, with ``sampled_boards``,
    that many random completions), each deal tallied by outcome with the product of its hands'
    weights.

    Work unit ``u`` is boards ``(u % slices) * boards_per_unit ..`` (lexicographic order of the
    completions from the undealt deck) of combination ``u // slices``, combinations numbered in
    mixed radix over the lists (list 0 the most significant digit), ``slices`` the units of one
    combination. A launch runs units ``first_unit .. first_unit + unit_count - 1``, a grid-stride
    loop over them.

    Parameters
    ----------
    hands : (hand_count, hole_count) int8, the lists concatenated (``equity.lists.inputs.ExactLists``).
    masks : (hand_count,) int64, card bit mask of each hand.
    offsets : (player_count + 1,) int64, list ``i`` is ``hands[offsets[i]:offsets[i + 1]]``.
    weights : (hand_count,) int64, whole weights.
    base_used_mask : int64, the known board and dead cards.
    board_known : (5,) int8, the known board cards first, padded with -1.
    colex, pair_board, pair_flush, low : ``evaluate.tables.Tables`` arrays.
    hilo : bool.
    level_masks : (levels,) int64, level_strides : (2, levels) int64, the key's levels
        (:func:`deal_key`; one level of every player: who wins the one pot).
    binomials : (53, 6) int64, ``binomials[n, k] = C(n, k)``.
    boards_per_unit, first_unit, unit_count : int64, the cut of the work and this launch's part.
    sampled_boards : int64, 0: every completion; else random completions per combination, board
        ``b`` of combination ``c`` drawn from the stream of trial
        ``first_trial + c * sampled_boards + b``.
    seed_hash : uint64, SplitMix64 of the seed (with ``sampled_boards``).
    first_trial : int64, the trial number of combination 0's first sampled board.
    key_count : int64, outcome keys of one deal (the product of the levels' radixes).
    outcomes : (key_count,) or (combinations * key_count,) int64, output (added to): weighted
        deals per outcome key, or per combination and key (one tally per combination).
    has_low : (player_count,) int64, output (added to): weighted deals with each player's
        qualifying low.
    totals : (2,) int64, output (added to): total weight, deals.
    """
    shared_outcomes = cuda.shared.array(SHARED_OUTCOMES, int64)
    pair_rows = cuda.local.array((2, MAX_PLAYERS, MAX_PAIRS), int32)  # hole pairs (hand_features)
    player_values = cuda.local.array((3, MAX_PLAYERS), int32)  # low-rank masks, highs, lows
    player_tallies = cuda.local.array((3, MAX_PLAYERS), int64)  # low counts, hands, board combination
    cards = cuda.local.array((2, DECK_SIZE), int32)  # deck; board scratch
    player_count = offsets.shape[0] - 1
    use_shared = outcomes.shape[0] <= SHARED_OUTCOMES
    grouped = outcomes.shape[0] > key_count
    begin_block(shared_outcomes, use_shared, player_tallies[0], player_count)
    hole_count = hands.shape[1]
    pair_count = hole_count * (hole_count - 1) // 2
    known_count = known_cards(board_known, cards[1])
    dealt_count = 5 - known_count
    weight_total = int64(0)
    deal_total = int64(0)
    card_count = DECK_SIZE - cuda.popc(base_used_mask) - hole_count * player_count
    completions = sampled_boards if sampled_boards > 0 else binomials[card_count, dealt_count]
    slices = (completions + boards_per_unit - 1) // boards_per_unit
    combination = player_tallies[2]
    for unit in range(first_unit + cuda.grid(1), first_unit + unit_count, cuda.gridsize(1)):
        hand_combination = unit // slices
        used, weight, compatible = choose_hands(hand_combination, offsets, masks, weights, base_used_mask,
                                                player_tallies[1])
        if not compatible:
            continue
        for player in range(player_count):
            player_values[0, player] = hand_features(hands[player_tallies[1, player]], hole_count, colex,
                                                     pair_rows[0, player], pair_rows[1, player])
        undealt_deck(used, cards[0])
        start = (unit - hand_combination * slices) * boards_per_unit
        if sampled_boards == 0:
            unrank_combination(start, card_count, dealt_count, binomials, combination)
        group = hand_combination * key_count if grouped else 0
        for board_number in range(start, min(start + boards_per_unit, completions)):
            if sampled_boards > 0:
                trial = first_trial + hand_combination * sampled_boards + board_number
                draw_board(trial_state(seed_hash, trial), card_count, dealt_count, combination)
            for position in range(dealt_count):
                cards[1, BOARD + known_count + position] = cards[0, combination[position]]
            deal_values(player_count, pair_count, pair_rows, player_values, cards[1], colex, pair_board, pair_flush,
                        low, hilo)
            key = deal_key(player_count, player_values[1], player_values[2], hilo, level_masks, level_strides)
            record_deal(shared_outcomes, outcomes, use_shared, group + key, weight, hilo, player_values[2],
                        player_tallies[0], player_count)
            weight_total += weight
            deal_total += 1
            if sampled_boards == 0:
                next_combination(combination, card_count, dealt_count)
    end_block(shared_outcomes, outcomes, use_shared, player_tallies[0], has_low, player_count)
    if weight_total != 0:
        cuda.atomic.add(totals, 0, weight_total)
        cuda.atomic.add(totals, 1, deal_total)


@cuda.jit
def sample_deals(list_hands, list_masks, list_offsets, cumulative, list_players, dealt_known, dealt_known_counts,
                 dealt_players, base_used_mask, board_known, colex, pair_board, pair_flush, low, hilo, level_masks,
                 level_strides, seed_hash, first_trial, trial_count, outcomes, has_low, gave_up):
    """Monte Carlo: trials ``first_trial .. first_trial + trial_count - 1``, each one deal
    tallied by outcome (weight 1), a grid-stride loop over the trials.

    A trial draws from its own stream (:func:`trial_state`): first each range player's hand by
    weight (``cumulative``; the whole draw again while two hands, or a hand and a known card,
    share a card), then the missing cards of the players dealt at random (fixed hands: none;
    partial and random hands: the rest of their hole cards) and of the board, by a partial
    Fisher-Yates shuffle of the undealt deck.

    Parameters
    ----------
    list_hands, list_masks, list_offsets, cumulative, list_players : the range players' lists in
        player order (``equity.lists.inputs.PlayerLists``).
    dealt_known, dealt_known_counts, dealt_players, base_used_mask : the players dealt at random
        and every known card (``equity.lists.inputs.DealtCards``).
    board_known : (5,) int8, the known board cards first, padded with -1.
    colex, pair_board, pair_flush, low, hilo, level_masks, level_strides : as in
        :func:`enumerate_lists`.
    seed_hash : uint64, SplitMix64 of the seed.
    first_trial, trial_count : int64, this launch's trials.
    outcomes, has_low : as in :func:`enumerate_lists` (deals, unweighted; one tally).
    gave_up : (1,) int64, output (added to): trials that gave up after ``MAX_REDRAWS`` draws.
    """
    shared_outcomes = cuda.shared.array(SHARED_OUTCOMES, int64)
    pair_rows = cuda.local.array((2, MAX_PLAYERS, MAX_PAIRS), int32)  # hole pairs (hand_features)
    player_values = cuda.local.array((3, MAX_PLAYERS), int32)  # low-rank masks, highs, lows
    player_tallies = cuda.local.array((2, MAX_PLAYERS), int64)  # low counts, range hands
    cards = cuda.local.array((2, DECK_SIZE), int32)  # deck; board scratch and hole cards
    player_count = list_players.shape[0] + dealt_players.shape[0]
    use_shared = outcomes.shape[0] <= SHARED_OUTCOMES
    begin_block(shared_outcomes, use_shared, player_tallies[0], player_count)
    hole_count = dealt_known.shape[1]
    pair_count = hole_count * (hole_count - 1) // 2
    known_count = known_cards(board_known, cards[1])
    list_count = list_players.shape[0]
    hole_cards = cards[1, HOLE_CARDS:HOLE_CARDS + MAX_HOLE_CARDS]
    failed = int64(0)
    for trial in range(first_trial + cuda.grid(1), first_trial + trial_count, cuda.gridsize(1)):
        state = trial_state(seed_hash, trial)
        used = int64(base_used_mask)
        redraws = 0
        compatible = False
        while not compatible and redraws < MAX_REDRAWS:
            used = int64(base_used_mask)
            compatible = True
            for position in range(list_count):
                state, value = uniform(state)
                hand = pick_weighted(cumulative, list_offsets[position], list_offsets[position + 1], value)
                player_tallies[1, position] = hand
                if used & list_masks[hand]:
                    compatible = False
                    break
                used |= list_masks[hand]
            if not compatible:
                redraws += 1
        if not compatible:
            failed += 1
            continue
        for position in range(list_count):
            player = list_players[position]
            player_values[0, player] = hand_features(list_hands[player_tallies[1, position]], hole_count, colex,
                                                     pair_rows[0, player], pair_rows[1, player])
        card_count = undealt_deck(used, cards[0])
        dealt = 0
        for position in range(dealt_players.shape[0]):
            player = dealt_players[position]
            for card in range(hole_count):
                if card < dealt_known_counts[position]:
                    hole_cards[card] = dealt_known[position, card]
                else:
                    state, drawn = draw_card(state, cards[0], dealt, card_count)
                    hole_cards[card] = drawn
                    dealt += 1
            player_values[0, player] = hand_features(hole_cards, hole_count, colex, pair_rows[0, player],
                                                     pair_rows[1, player])
        for position in range(known_count, 5):
            state, drawn = draw_card(state, cards[0], dealt, card_count)
            cards[1, BOARD + position] = drawn
            dealt += 1
        deal_values(player_count, pair_count, pair_rows, player_values, cards[1], colex, pair_board, pair_flush, low,
                    hilo)
        key = deal_key(player_count, player_values[1], player_values[2], hilo, level_masks, level_strides)
        record_deal(shared_outcomes, outcomes, use_shared, key, 1, hilo, player_values[2], player_tallies[0],
                    player_count)
    end_block(shared_outcomes, outcomes, use_shared, player_tallies[0], has_low, player_count)
    if failed != 0:
        cuda.atomic.add(gave_up, 0, failed)


def seed_hash(seed: int) -> np.uint64:
    """SplitMix64 of the seed (host side, as the kernels' :func:`splitmix64` computes it)."""
    mask = (1 << 64) - 1
    state = (seed + GOLDEN) & mask
    mixed = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
    mixed = ((mixed ^ (mixed >> 27)) * 0x94D049BB133111EB) & mask
    return np.uint64(mixed ^ (mixed >> 31))
