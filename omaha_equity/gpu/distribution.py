"""The distribution study by hand on a GPU (``studies.distribution.hand_by_hand``): player 1's
fixed hand against each hand the opponent may hold, heads-up, every board of each hand (or a
number of random boards per hand), one outcome tally per opponent hand.

Player 1's pot share on a board is a function of the board's outcome (who wins each half), so
each hand's share sum, and its sum of squared shares, follow from its tallies with the CPU's
scoring (``gpu._scoring``): exact enumeration gives the CPU's integers. Monte Carlo draws board
``b`` of opponent hand ``h`` from the stream of trial ``h * boards + b``: a seed gives the same
numbers on any launch shape, but not the CPU's boards.
"""

from __future__ import annotations

from math import comb

import numpy as np

from ..cards import DECK_SIZE
from ..equity.lists.inputs import card_mask, hand_masks
from ..games import BOARD_SIZE, Game
from . import _scoring
from .equity import ExactInputs, LaunchShape, enumerate_tallies
from .outcome_keys import OutcomeKeys

DEFAULT_LAUNCH = LaunchShape()
# Opponent hands per run of the kernel: their tallies (16 int64 a hand in hi/lo) take 32 MiB.
GPU_HAND_BLOCK = 1 << 18


def hand_by_hand_on_gpu(hero: np.ndarray, opponent_hands: np.ndarray, board: tuple[int, ...], dead: tuple[int, ...],
                        game: Game, units: int, sampled_boards: int = 0, seed: int = 0,
                        launch: LaunchShape = DEFAULT_LAUNCH) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Player 1's share sums against each opponent hand, on the GPU.

    Parameters
    ----------
    hero : (hole_count,) int8, player 1's cards.
    opponent_hands : (n, hole_count) int8, none sharing a card with ``hero``, ``board`` or ``dead``.
    board, dead : the known cards.
    units : pot units (``pots.pot_units(2, hilo)``).
    sampled_boards : 0: every completion of the board; else this many random boards per hand
        (Monte Carlo, from ``seed``).

    Returns
    -------
    share_sums : (n,) int64, player 1's pot shares (pot units) summed over each hand's boards.
    board_counts : (n,) int64, boards per hand.
    square_sums : (n,) int64 of the squared shares (Monte Carlo), or None (exact).
    """
    hand_count = opponent_hands.shape[0]
    completions = comb(DECK_SIZE - 2 * game.hole_count - len(board) - len(dead), BOARD_SIZE - len(board))
    keys = OutcomeKeys.one_pot(2, game.hilo)
    shares = np.array([_scoring.share_of(key, 2, game.hilo, units)[0] for key in range(keys.key_count)],
                      dtype=np.int64)
    share_sums = np.empty(hand_count, dtype=np.int64)
    board_counts = np.empty(hand_count, dtype=np.int64)
    square_sums = np.empty(hand_count, dtype=np.int64)
    base_used_mask = card_mask(list(board) + list(dead))
    for block in range(0, hand_count, GPU_HAND_BLOCK):
        block_hands = opponent_hands[block:block + GPU_HAND_BLOCK]
        hands = np.concatenate([hero[None, :], block_hands]).astype(np.int8)
        offsets = np.array([0, 1, hands.shape[0]], dtype=np.int64)
        inputs = ExactInputs.of_arrays(hands, hand_masks(hands), offsets, np.ones(hands.shape[0], dtype=np.int64),
                                       base_used_mask, board)
        # trials numbered from the block's first hand: the same boards however the hands are cut
        outcomes, _, _ = enumerate_tallies(
            inputs, 2, block_hands.shape[0], completions, game, keys, launch=launch, sampled_boards=sampled_boards,
            seed=seed, grouped=True, first_combination=block)
        share_sums[block:block + GPU_HAND_BLOCK] = outcomes @ shares
        square_sums[block:block + GPU_HAND_BLOCK] = outcomes @ (shares * shares)
        board_counts[block:block + GPU_HAND_BLOCK] = outcomes.sum(axis=1)
    return share_sums, board_counts, square_sums if sampled_boards else None
