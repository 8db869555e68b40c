"""All-in expected chips on a GPU: the deals of the planned query (``equity.expected_chips.plan_allin``)
tallied by who wins each pot (``outcome_keys``), then paid with the CPU's own settlement
(``pots.settle_pots``), once per outcome that occurred.

Chips per deal are a function of the outcome, so every sum the CPU keeps follows from the
tallies: the chips per pot and player (exact integers, so exact enumeration gives the CPU's
fractions), and their squares, per pot and of each player's total (Monte Carlo's standard
errors). The GPU keeps integer tallies only: a seed gives the same numbers on any launch shape.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..equity.lists.exact import board_completions
from ..equity.lists.inputs import DealtCards, ExactLists, PlayerLists
from ..equity.plan import QueryPlan
from ..equity.query import ProgressCallback, SeatedQuery
from ..errors import InputError
from ..pots import Pot, settle_pots
from .equity import ExactInputs, LaunchShape, enumerate_tallies, list_combinations, sample_tallies
from .outcome_keys import OutcomeKeys

# precise_enough(chip sums (pots, players), sums of squares (pots + 1, players), deals) -> bool
DEFAULT_LAUNCH = LaunchShape()
PrecisionCheck = Callable[[np.ndarray, np.ndarray, int], bool]


def allin_keys(pots: Sequence[Pot], hilo: bool, order: Sequence[int]) -> OutcomeKeys:
    """The outcome keys of ``pots``, kernel player ``i`` being seat ``order[i]``.

    Raises
    ------
    InputError
        Pots whose players are not nested, or with more outcomes than the GPU tallies
        (``outcome_keys.MAX_OUTCOME_KEYS``).
    """
    position_of = {seat: position for position, seat in enumerate(order)}
    keys = OutcomeKeys.of_pots([_mask(position_of[seat] for seat in pot.eligible) for pot in pots if pot.amount], hilo)
    keys.check_size()
    return keys


def fits_gpu(pots: Sequence[Pot], hilo: bool, player_count: int) -> bool:
    """Whether the GPU can tally these pots' outcomes (:func:`allin_keys` refuses nothing)."""
    try:
        allin_keys(pots, hilo, range(player_count))
    except InputError:
        return False
    return True


def _mask(players) -> int:
    mask = 0
    for player in players:
        mask |= 1 << player
    return mask


def settle_outcomes(outcomes: np.ndarray, keys: OutcomeKeys, pots: Sequence[Pot], order: Sequence[int],
                    player_count: int) -> tuple[np.ndarray, np.ndarray]:
    """Chips won per pot and seat summed over the tallied deals, and their sums of squares.

    Parameters
    ----------
    outcomes : (key_count,) int64, weighted deals per outcome key.
    keys : the keys' levels (kernel player ``i`` is seat ``order[i]``).
    pots : the pots, seat-indexed eligible players.

    Returns
    -------
    sums : (pots, players) int64, chips x weights.
    squares : (pots + 1, players) float64, sums of squared chips per pot and (last row) of each
        player's total over the pots, weighted.
    """
    pot_count = len(pots)
    level_of_pot = _levels_of_pots(keys, pots, order)
    sums = np.zeros((pot_count, player_count), dtype=np.int64)
    squares = np.zeros((pot_count + 1, player_count), dtype=np.float64)
    amounts = np.array([pot.amount for pot in pots], dtype=np.int64)
    eligible = np.array([pot.eligible_mask for pot in pots], dtype=np.int64)
    payouts = np.zeros((pot_count, player_count), dtype=np.int64)
    for key in np.flatnonzero(outcomes).tolist():
        deals = int(outcomes[key])
        winners = keys.winners(key)
        for pot in range(pot_count):
            level = level_of_pot[pot]
            if level is None:
                payouts[pot] = 0
                continue
            high_values, low_values = _stand_in_values(winners[level], order, player_count)
            settle_pots(amounts[pot:pot + 1], eligible[pot:pot + 1], high_values, low_values, keys.hilo,
                        payouts[pot:pot + 1])
        sums += deals * payouts
        chips = payouts.astype(np.float64)
        squares[:pot_count] += deals * chips * chips
        totals = chips.sum(axis=0)
        squares[pot_count] += deals * totals * totals
    return sums, squares


def _levels_of_pots(keys: OutcomeKeys, pots: Sequence[Pot], order: Sequence[int]) -> list[int | None]:
    """The level whose players and deeper ones contest each pot (None: a pot nobody wins)."""
    contested = {}
    players = 0
    for level in range(len(keys.level_players) - 1, -1, -1):
        players |= keys.level_players[level]
        seats = _mask(order[position] for position in range(players.bit_length()) if (players >> position) & 1)
        contested[seats] = level
    return [contested.get(pot.eligible_mask) if pot.amount else None for pot in pots]


def _stand_in_values(winners: tuple[int, int], order: Sequence[int], player_count: int):
    """High and low values (seat-indexed int32) that split a pot as the winners did: 2 for a
    winner, 1 for another high, 0 (no qualifying low) for another low."""
    high_values = np.ones(player_count, dtype=np.int32)
    low_values = np.zeros(player_count, dtype=np.int32)
    high, low = winners
    for position, seat in enumerate(order):
        if (high >> position) & 1:
            high_values[seat] = 2
        if (low >> position) & 1:
            low_values[seat] = 2
    return high_values, low_values


def run_allin_on_gpu(seated: SeatedQuery, query: QueryPlan, pots: Sequence[Pot], weights_by_seat,
                     precise_enough: PrecisionCheck | None = None, progress: ProgressCallback | None = None,
                     launch: LaunchShape = DEFAULT_LAUNCH):
    """A planned all-in query on the GPU: ``(samples, weight total, chip sums (pots, players)
    int64, sums of squares (pots + 1, players) float64 or None when exact)``, what the CPU run
    gives ``equity.expected_chips``' result.

    Raises
    ------
    InputError
        Pots the GPU cannot tally (:func:`allin_keys`); no card-disjoint deal; ranges that leave
        almost no deal.
    """
    seats, board, dead, game = list(seated.seats), seated.board, seated.dead, seated.game
    player_count = len(seats)
    if query.exact:
        lists = ExactLists(seats, board, dead, game, weights_by_seat)
        keys = allin_keys(pots, game.hilo, lists.order)
        outcomes, _, totals = enumerate_tallies(
            ExactInputs.of(lists), player_count, list_combinations(lists),
            board_completions(player_count, board, dead, game), game, keys, progress, launch)
        weight_total, deals = int(totals[0]), int(totals[1])
        if weight_total == 0:
            raise InputError("no deal is possible: every combination of the players' hands shares a card")
        sums, _ = settle_outcomes(outcomes, keys, pots, lists.order, player_count)
        return deals, weight_total, sums, None
    order = list(range(player_count))
    keys = allin_keys(pots, game.hilo, order)
    check = None
    if precise_enough is not None:
        def check(tallies: np.ndarray, done: int) -> bool:
            return precise_enough(*settle_outcomes(tallies, keys, pots, order, player_count), done)

    outcomes, _, deals = sample_tallies(PlayerLists.of(seats, game.hole_count), DealtCards.of(seats, board, dead, game),
                                        game, keys, query.seed, query.trials, progress, launch, check)
    sums, squares = settle_outcomes(outcomes, keys, pots, order, player_count)
    return deals, deals, sums, squares
