"""Equity on a GPU: the same planned query as the CPU's (``equity.calculate.plan_equity``), run on
the kernels of ``gpu._kernels``, ending in the same counts, hence the same result objects.

The GPU kernels tally deals by outcome (who wins each half), which is what the CPU's fixed-hand
enumeration tallies; the host turns the tallies into counts with the CPU's own scoring
(``gpu._scoring``). Exact enumeration gives the CPU's counts exactly (the same integers); Monte
Carlo gives its own samples (a counter-based stream per trial), as many as the CPU would take.

The work is launched in pieces of about ``PIECE_SECONDS`` (``equity.drivers.sum_pieces``, as on
the CPU): progress is reported and Ctrl-C honoured between launches; with a precision target,
Monte Carlo stops at the first multiple of ``CHECK_TRIALS`` trials where every standard error
is below it (a decision that depends on the samples only, not on the launches).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np

from ..equity.drivers import sum_pieces
from ..equity.lists.inputs import DealtCards, ExactLists, PlayerLists
from ..equity.players import Seat
from ..equity.plan import BINOMIALS, QueryPlan
from ..equity.query import ProgressCallback, SeatedQuery
from ..equity.lists.exact import board_completions
from ..equity.results.equity import standard_error
from ..errors import InputError
from ..evaluate.tables import load_tables
from . import _kernels, _scoring
from .device import GpuKind, gpu_kind
from .outcome_keys import OutcomeKeys

# Seconds a launch takes (after the first, sized from the speed of the last): Ctrl-C and the
# progress wait at most about this long.
PIECE_SECONDS = 0.25
# Monte Carlo: the first launch's trials, and the multiple of trials where a precision target
# is checked.
FIRST_TRIALS = 1 << 16
CHECK_TRIALS = 1 << 20
# Exact enumeration: boards a thread walks per unit (a unit unranks its first board, then steps),
# at least this many, more when the work would give more than ``TARGET_UNITS`` units.
MIN_BOARDS_PER_UNIT = 16
TARGET_UNITS = 1 << 20
FIRST_UNITS = 1 << 12
# Threads per block on a GPU, and resident blocks per multiprocessor a launch asks for (the
# rest of the work is a grid-stride loop); the simulator runs each thread as a Python thread, so
# it gets small blocks.
THREADS_PER_BLOCK = 256
BLOCKS_PER_MULTIPROCESSOR = 8
SIMULATOR_THREADS_PER_BLOCK = 8
SIMULATOR_BLOCKS = 2


@dataclass(frozen=True)
class LaunchShape:
    """A launch's grid: ``blocks`` blocks of ``threads`` threads (None: chosen for the device).
    The results never depend on it."""

    blocks: int | None = None
    threads: int | None = None

    def grid(self, work_items: int) -> tuple[int, int]:
        """``(blocks, threads per block)`` for ``work_items`` units or trials."""
        simulated = gpu_kind() == GpuKind.SIMULATOR
        threads = self.threads or (SIMULATOR_THREADS_PER_BLOCK if simulated else THREADS_PER_BLOCK)
        if self.blocks is not None:
            return self.blocks, threads
        if simulated:
            most = SIMULATOR_BLOCKS
        else:
            most = _kernels.cuda.get_current_device().MULTIPROCESSOR_COUNT * BLOCKS_PER_MULTIPROCESSOR
        return max(1, min(most, -(-work_items // threads))), threads


@dataclass(frozen=True)
class DeviceTables:
    """The evaluation tables in GPU memory (copied once per process, :func:`device_tables`)."""

    colex: object
    pair_board: object
    pair_flush: object
    low: object

    def kernel_arguments(self) -> tuple:
        return self.colex, self.pair_board, self.pair_flush, self.low


_device_tables: list[DeviceTables] = []


def device_tables() -> DeviceTables:
    """The tables (``evaluate.tables.load_tables``) copied to the GPU, once per process."""
    if not _device_tables:
        tables = load_tables()
        to_device = _kernels.cuda.to_device
        _device_tables.append(DeviceTables(to_device(tables.colex), to_device(tables.pair_board),
                                           to_device(tables.pair_flush), to_device(tables.low.astype(np.int32))))
    return _device_tables[0]


def padded_board(board: tuple[int, ...]) -> np.ndarray:
    """The known board cards first, padded with -1 to five: (5,) int8."""
    padded = np.full(5, -1, dtype=np.int8)
    padded[:len(board)] = board
    return padded


@dataclass(frozen=True)
class ExactInputs:
    """An exact enumeration's inputs on the GPU (``_kernels.enumerate_lists``' first arguments,
    in its order)."""

    hands: object
    masks: object
    offsets: object
    weights: object
    base_used_mask: int
    board_known: object

    @classmethod
    def of(cls, lists: ExactLists) -> ExactInputs:
        return cls.of_arrays(lists.hands, lists.masks, lists.offsets, lists.weights, lists.base_used_mask,
                             tuple(lists.board_known.tolist()))

    @classmethod
    def of_arrays(cls, hands: np.ndarray, masks: np.ndarray, offsets: np.ndarray, weights: np.ndarray,
                  base_used_mask: int, board: tuple[int, ...]) -> ExactInputs:
        """Copied to the GPU: ``hands`` (hand_count, hole_count) int8, ``masks``, ``weights``
        (hand_count,) int64, ``offsets`` (lists + 1,) int64, the known board's cards."""
        to_device = _kernels.cuda.to_device
        return cls(to_device(np.ascontiguousarray(hands, dtype=np.int8)), to_device(masks), to_device(offsets),
                   to_device(weights), np.int64(base_used_mask), to_device(padded_board(board)))

    def kernel_arguments(self) -> tuple:
        return self.hands, self.masks, self.offsets, self.weights, self.base_used_mask, self.board_known


@dataclass(frozen=True)
class SampleInputs:
    """A Monte Carlo run's inputs on the GPU (``_kernels.sample_deals``' first arguments)."""

    arrays: tuple

    @classmethod
    def of(cls, lists: PlayerLists, dealt: DealtCards) -> SampleInputs:
        to_device = _kernels.cuda.to_device
        return cls((
            to_device(np.ascontiguousarray(lists.hands)), to_device(lists.masks), to_device(lists.offsets),
            to_device(np.ascontiguousarray(lists.cumulative, dtype=np.float64)), to_device(lists.players),
            to_device(np.ascontiguousarray(dealt.dealt_known)), to_device(dealt.dealt_known_counts),
            to_device(dealt.dealt_players), np.int64(dealt.base_used_mask),
            to_device(padded_board(tuple(dealt.board_known.tolist()))),
        ))

    def kernel_arguments(self) -> tuple:
        return self.arrays


def _boards_per_unit(combinations: int, completions: int) -> int:
    """Boards per exact unit: at least ``MIN_BOARDS_PER_UNIT``, more (a power of two) when the
    work would give more than ``TARGET_UNITS`` units."""
    boards = MIN_BOARDS_PER_UNIT
    while combinations * -(-completions // boards) > TARGET_UNITS and boards < completions:
        boards *= 2
    return boards


def _outputs(key_count: int, player_count: int, total_count: int) -> tuple:
    """Zeroed output arrays on the GPU: outcomes, qualifying lows, totals."""
    cuda = _kernels.cuda
    return (cuda.to_device(np.zeros(key_count, dtype=np.int64)), cuda.to_device(np.zeros(player_count, dtype=np.int64)),
            cuda.to_device(np.zeros(total_count, dtype=np.int64)))


def enumerate_tallies(inputs: ExactInputs, player_count: int, combinations: int, completions: int, game,
                      keys: OutcomeKeys, progress=None, launch: LaunchShape = LaunchShape(), sampled_boards: int = 0,
                      seed: int = 0, grouped: bool = False,
                      first_combination: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every combination of the lists' hands (``inputs``, ``combinations`` of them) times every
    one of its ``completions`` boards (or ``sampled_boards`` random ones, from ``seed``, the
    combinations' streams numbered from ``first_combination``), tallied by outcome key (``keys``)
    on the GPU, launched in pieces (progress in deals, Ctrl-C between).

    Returns ``(outcomes (key_count,) int64, or (combinations, key_count) when grouped; has_low
    (players,) int64; totals (2,) int64: weight, deals)``.
    """
    boards = sampled_boards or completions
    boards_per_unit = _boards_per_unit(combinations, boards)
    slices = -(-boards // boards_per_unit)
    tables = device_tables()
    binomials = _kernels.cuda.to_device(BINOMIALS)
    level_masks, level_strides = (_kernels.cuda.to_device(array) for array in keys.kernel_arguments())
    hashed = _kernels.seed_hash(seed)
    tally_count = keys.key_count * (combinations if grouped else 1)

    def launch_units(first: int, count: int) -> tuple:
        outcomes, has_low, totals = _outputs(tally_count, player_count, 2)
        blocks, threads = launch.grid(count)
        _kernels.enumerate_lists[blocks, threads](
            *inputs.kernel_arguments(), *tables.kernel_arguments(), game.hilo, level_masks, level_strides, binomials,
            boards_per_unit, first, count, sampled_boards, hashed, first_combination * sampled_boards, keys.key_count,
            outcomes, has_low, totals)
        return tuple(array.copy_to_host()[None] for array in (outcomes, has_low, totals))

    (outcomes, has_low, totals), _ = sum_pieces(
        launch_units, combinations * slices, threads=1, multiple=1, first=FIRST_UNITS, seconds=PIECE_SECONDS,
        growth=4, from_last_call=True,
        report=None if progress is None else lambda done: progress(done * boards // slices, combinations * boards))
    return (outcomes.reshape(combinations, keys.key_count) if grouped else outcomes), has_low, totals


def sample_tallies(lists: PlayerLists, dealt: DealtCards, game, keys: OutcomeKeys, seed: int, trials: int,
                   progress=None, launch: LaunchShape = LaunchShape(), precise_enough=None):
    """``trials`` Monte Carlo deals tallied by outcome key on the GPU, launched in pieces
    (progress, Ctrl-C between); ``precise_enough(outcomes, done)``, asked every ``CHECK_TRIALS``
    trials, ends the run early.

    Returns ``(outcomes (key_count,) int64, has_low (players,) int64, deals)``.

    Raises
    ------
    InputError
        The ranges leave almost no deal without a shared card (a trial's range hands shared a
        card ``MAX_REDRAWS`` draws in a row).
    """
    inputs = SampleInputs.of(lists, dealt)
    tables = device_tables()
    hashed = _kernels.seed_hash(seed)
    player_count = lists.list_count + len(dealt.dealt_players)
    level_masks, level_strides = (_kernels.cuda.to_device(array) for array in keys.kernel_arguments())

    def launch_trials(first: int, count: int) -> tuple:
        outcomes, has_low, gave_up = _outputs(keys.key_count, player_count, 1)
        blocks, threads = launch.grid(count)
        _kernels.sample_deals[blocks, threads](
            *inputs.kernel_arguments(), *tables.kernel_arguments(), game.hilo, level_masks, level_strides, hashed,
            first, count, outcomes, has_low, gave_up)
        return tuple(array.copy_to_host()[None] for array in (outcomes, has_low, gave_up))

    def stop(sums, done: int) -> bool:
        if int(sums[2][0]):
            return True  # reported below
        return precise_enough is not None and precise_enough(sums[0], done)

    (outcomes, has_low, gave_up), done = sum_pieces(
        launch_trials, trials, threads=1, multiple=1, first=FIRST_TRIALS, seconds=PIECE_SECONDS, growth=4,
        from_last_call=True, boundary=CHECK_TRIALS,
        report=None if progress is None else lambda done: progress(done, trials),
        stop=None if precise_enough is None and lists.list_count == 0 else stop)
    if int(gave_up[0]):
        raise InputError(f"the players' ranges leave almost no deal without a shared card ({_kernels.MAX_REDRAWS:,} "
                         "draws in a row collided): with many players, widen the ranges or give some players '*' "
                         "(dealt at random)")
    return outcomes, has_low, done


def enumerate_on_gpu(seats: list[Seat], board, dead, game, units: int, weights_by_seat, progress=None,
                     launch: LaunchShape = LaunchShape()):
    """Exact enumeration on the GPU of any players (fixed hands are lists of one), with the
    ranges' whole weights (``lists.exact.whole_weights``; None: all ones).

    Returns ``(deals, weight total, counts (players, STATS) int64 in player order, low weight)``,
    what ``lists.exact.enumerate_range_equity`` returns.

    Raises
    ------
    InputError
        No combination of the players' hands is card-disjoint.
    """
    weights = weights_by_seat if weights_by_seat is not None else [None] * len(seats)
    lists = ExactLists(seats, board, dead, game, weights)
    outcomes, has_low, totals = enumerate_tallies(
        ExactInputs.of(lists), len(seats), list_combinations(lists), board_completions(len(seats), board, dead, game),
        game, OutcomeKeys.one_pot(len(seats), game.hilo), progress, launch)
    weight_total, deal_count = int(totals[0]), int(totals[1])
    if weight_total == 0:
        raise InputError("no deal is possible: every combination of the players' hands shares a card")
    counts, low_weight = _scoring.score(outcomes, has_low, game.hilo, units)
    by_player = np.empty_like(counts)
    for position, player in enumerate(lists.order):
        by_player[player] = counts[position]
    return deal_count, weight_total, by_player, low_weight


def list_combinations(lists: ExactLists) -> int:
    """Combinations of one hand of each list (card-disjoint or not)."""
    return prod(int(lists.offsets[position + 1] - lists.offsets[position])
                for position in range(lists.offsets.shape[0] - 1))


def sample_on_gpu(seats: list[Seat], board, dead, game, units: int, seed: int, trials: int,
                  precision: float | None = None, progress=None, launch: LaunchShape = LaunchShape()):
    """Monte Carlo on the GPU: ``trials`` deals (fewer when a ``precision`` target in percentage
    points is met first, checked every ``CHECK_TRIALS``), each trial with its own stream.

    Returns ``(deals, counts (players, STATS) int64 in player order, low deals, square sums
    (players,) int64)``, what the CPU's fixed-hand sampler returns.

    Raises
    ------
    InputError
        The ranges leave almost no deal without a shared card (:func:`sample_tallies`).
    """
    player_count = len(seats)

    def precise_enough(outcomes, done: int) -> bool:
        counts, _ = _scoring.score(outcomes, np.zeros(player_count, dtype=np.int64), game.hilo, units)
        squares = _scoring.square_sums(outcomes, player_count, game.hilo, units)
        errors = [standard_error(int(counts[player, _scoring.EQUITY]), int(squares[player]), done, units)
                  for player in range(player_count)]
        return None not in errors and max(errors) * 100 < precision

    outcomes, has_low, done = sample_tallies(
        PlayerLists.of(seats, game.hole_count), DealtCards.of(seats, board, dead, game), game,
        OutcomeKeys.one_pot(player_count, game.hilo), seed, trials, progress, launch,
        None if precision is None else precise_enough)
    counts, low_deals = _scoring.score(outcomes, has_low, game.hilo, units)
    return done, counts, low_deals, _scoring.square_sums(outcomes, player_count, game.hilo, units)


def run_equity_on_gpu(seated: SeatedQuery, query: QueryPlan, units: int, weights_by_seat, precision: float | None,
                      progress: ProgressCallback | None = None, launch: LaunchShape = LaunchShape()):
    """A planned equity query on the GPU: ``(samples, weight total, counts (players, STATS),
    low boards, square sums or None, None)``, what the CPU run gives
    ``equity.calculate.equity_result``."""
    seats = list(seated.seats)
    if query.exact:
        deals, weight_total, counts, low_weight = enumerate_on_gpu(
            seats, seated.board, seated.dead, seated.game, units, weights_by_seat, progress, launch)
        if seated.all_fixed:
            deals = weight_total  # boards, as the CPU's fixed-hand enumeration reports them
        return deals, weight_total, counts, low_weight, None, None
    deals, counts, low_deals, squares = sample_on_gpu(seats, seated.board, seated.dead, seated.game, units,
                                                      query.seed, query.trials, precision, progress, launch)
    return deals, deals, counts, low_deals, squares, None
