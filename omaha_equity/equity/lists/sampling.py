"""Monte Carlo over ranges, partial and random hands: weighted deals, fast for narrow multiway
ranges, in calls of bounded time.

The deal a user means (issue 3) draws every range player's hand from their list by weight,
independently, and throws away deals in which two hands share a card. Drawing that way and
redrawing (rejection) is exact but slow when few deals survive: six ``15%`` ranges keep
about one deal in a thousand. So players are dealt one after another instead, each from the
hands left compatible with the cards already dealt, and each deal carries an importance
weight (``_kernels.sample_ranges``); the weighted averages are exact in expectation.
Rejection is kept for the queries where it is cheaper (wide ranges, few players): a pilot of
the first chunk decides, from the seed alone, so the same seed gives the same numbers for any
thread count.

Estimates are the weighted means ``sum(w x) / sum(w)``; their standard errors are the
delta-method (linearised ratio) ones, ``sqrt(sum(w^2 (x - mean)^2)) / sum(w)``, which with
equal weights is the usual ``s / sqrt(n)`` and otherwise accounts for the weights' spread (its
effective sample size, Kish's ``sum(w)^2 / sum(w^2)``, is :attr:`RangeRun.effective_samples`);
the Kish form ``s_w / sqrt(n_eff)`` is taken instead when it is the larger (it is when the
weights are unrelated to the outcome), so the error is never understated by either reading.
Counts are reported as deals: the weighted fractions times the deals drawn, rounded.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ...errors import InputError
from ...games import Game
from ...runtime import threads as kernel_threads
from ...runtime.threads import PieceSizer, thread_count
from .. import counters
from ..drivers import run_kernel
from ..kernel_inputs import ChunkPlan
from ..players import Seat
from . import _kernels
from .inputs import ListDeals

# Deals per chunk of the equity sampler over hand lists (each chunk has its own random stream:
# fixed, so a seed gives the same deals for any thread count; a different size would give other
# deals). A chunk takes a few to a few tens of milliseconds. The fixed-hand and all-in samplers'
# chunks are ``plan.DEALS_PER_CHUNK``.
RANGE_DEALS_PER_CHUNK = 2048
# The precision target is checked at every CHECK_CHUNKS chunks (and at the end), whatever the
# calls were, so when a run stops depends only on the samples.
CHECK_CHUNKS = 64
# With no compatible deal among this many, a run stops: the ranges leave (almost) no deal.
GIVE_UP_AFTER = 100_000
# Cost model of the pilot, in nanoseconds on one core (fitted on 2- to 6-way ranges of 5% to
# 50%): a hand drawn from a whole list (a binary search: per halving), a word of a list's bits
# scanned for compatible hands, the cards and board of a deal, one player's hand scored.
DRAW_COST_PER_HALVING = 10.0
WORD_COST = 1.6
DEAL_COST = 300.0
SCORE_COST = 120.0

@dataclass
class RangeRun:
    """Weighted sums of a Monte Carlo run over ranges (all float64, in pot units for shares).

    Attributes
    ----------
    deals : int
        Deals drawn (zero-weight dead ends included).
    weight_sum, square_weight_sum : float
        ``sum(w)``, ``sum(w^2)``.
    stats : (players, STAT_COUNT) float64, weighted counts (``_kernels`` statistics).
    squares : (players, 3) float64, ``sum(w s^2)``, ``sum(w^2 s)``, ``sum(w^2 s^2)``.
    low_weight : float
    rejection : bool
        Whether deals were drawn by rejection (all weights 1).
    """

    player_count: int
    deals: int = 0
    weight_sum: float = 0.0
    square_weight_sum: float = 0.0
    stats: np.ndarray = field(default=None)
    squares: np.ndarray = field(default=None)
    low_weight: float = 0.0
    rejection: bool = False

    def __post_init__(self):
        self.stats = np.zeros((self.player_count, counters.STAT_COUNT), dtype=np.float64)
        self.squares = np.zeros((self.player_count, 3), dtype=np.float64)

    def add_chunk(self, deals: int, weights, stats, squares, low_weight) -> None:
        """Add one chunk's sums (always chunk by chunk in chunk order: the same floats for any
        grouping of chunks into calls)."""
        self.deals += deals
        self.weight_sum += weights[0]
        self.square_weight_sum += weights[1]
        self.stats += stats
        self.squares += squares
        self.low_weight += low_weight

    @property
    def effective_samples(self) -> float:
        """Kish's effective sample size ``sum(w)^2 / sum(w^2)`` (0 with no weight)."""
        return self.weight_sum ** 2 / self.square_weight_sum if self.square_weight_sum > 0 else 0.0

    def standard_errors(self, units: int) -> list[float | None]:
        """Standard error of each player's equity (fraction 0..1); None (undefined) below 2 deals
        of weight."""
        return [_weighted_error(self.deals, self.weight_sum, self.square_weight_sum,
                                self.stats[player, counters.EQUITY], self.squares[player], units)
                for player in range(self.player_count)]


def _weighted_error(deals: int, weight_sum: float, square_weight_sum: float, share_sum: float, squares,
                    units: int) -> float | None:
    """Larger of the delta-method and Kish standard errors of the weighted mean share
    ``share_sum / weight_sum / units`` (``share_sum`` = sum(w s), ``squares`` = sums of w s^2,
    w^2 s and w^2 s^2, with shares ``s`` in pot units)."""
    if deals < 2 or weight_sum <= 0:
        return None  # undefined from fewer than 2 samples
    mean = share_sum / weight_sum  # in pot units
    correction = deals / (deals - 1)
    # sum(w^2 (s - mean)^2)
    spread_of_weighted = max(squares[2] - 2 * mean * squares[1] + mean * mean * square_weight_sum, 0.0)
    delta_variance = spread_of_weighted / (weight_sum * weight_sum)
    # weighted variance of s over the effective sample size sum(w)^2 / sum(w^2)
    weighted_variance = max(squares[0] / weight_sum - mean * mean, 0.0)
    kish_variance = weighted_variance * square_weight_sum / (weight_sum * weight_sum)
    return math.sqrt(max(delta_variance, kish_variance) * correction) / units


def sample_chunks(deals: ListDeals, units: int, seed: int, chunks: ChunkPlan, rejection: bool, first_chunk: int,
                  chunk_count: int):
    """Run chunks ``first_chunk ..`` (``chunk_count`` of them) of ``_kernels.sample_ranges``
    on ``deals`` (weight groups), redrawing colliding deals when ``rejection``: the kernel's
    outputs.

    Raises
    ------
    InputError
        A chunk drew ``MAX_REJECTIONS_IN_A_ROW`` colliding deals in a row.
    """
    outputs = run_kernel(
        lambda first, count: _kernels.sample_ranges(
            *deals.kernel_arguments(), units, rejection, np.uint64(seed), first, count, *chunks.kernel_arguments()),
        first_chunk, chunk_count, uneven=True,
    )
    if (outputs[4] < 0).any():
        raise _almost_no_deal(f"{_kernels.MAX_REJECTIONS_IN_A_ROW:,} draws in a row collided")
    return outputs


def prefer_rejection(deals: ListDeals, weight_sum: float, square_weight_sum: float, deal_count: int) -> bool:
    """From a pilot of weighted deals: is redrawing colliding deals cheaper per effective
    sample? Rejection keeps a fraction ``mean weight`` of its deals, all of weight 1; the
    weighted deals are worth ``effective samples / deals`` each but never redraw."""
    groups = deals.lists
    list_count = len(groups.deal_groups)
    if list_count < 2 or weight_sum <= 0:
        return False
    accepted = weight_sum / deal_count
    efficiency = weight_sum ** 2 / square_weight_sum / deal_count
    draws = [DRAW_COST_PER_HALVING * (1 + math.log2(int(groups.group_sizes[group]))) for group in groups.deal_groups]
    scoring = DEAL_COST + SCORE_COST * deals.dealt.player_count
    words = sum(int(groups.group_words[group]) for group in groups.deal_groups[1:])
    weighted_cost = (draws[0] + WORD_COST * words + scoring) / efficiency
    rejection_cost = sum(draws) / accepted + scoring
    return rejection_cost < weighted_cost


def _almost_no_deal(detail: str) -> InputError:
    return InputError(f"the players' ranges leave almost no deal without a shared card ({detail}): with many "
                      "players, widen the ranges or give some players '*' (dealt at random)")


def sample_range_equity(seats: list[Seat], board, dead, game: Game, units: int, seed: int, trials: int,
                        precision: float | None = None, progress=None) -> RangeRun:
    """Monte Carlo over ranges: up to ``trials`` deals, stopping at the first check (every
    ``CHECK_CHUNKS`` chunks) where every player's standard error is below ``precision``
    percentage points; ``progress(done, trials)`` after every call.

    Raises
    ------
    InputError
        The ranges leave almost no deal without a shared card.
    """
    deals = ListDeals.of(seats, board, dead, game, grouped=True)
    chunks = ChunkPlan(RANGE_DEALS_PER_CHUNK, trials)
    chunk_total = -(-trials // RANGE_DEALS_PER_CHUNK)
    threads = thread_count()
    run = RangeRun(len(seats))
    # the first call is one chunk, the pilot that picks the method; Ctrl-C and the progress
    # between calls of about ``threads.LIST_CALL_SECONDS``
    sizer = PieceSizer(first=1, most=chunk_total, multiple=threads, seconds=kernel_threads.LIST_CALL_SECONDS,
                       growth=4, from_last_call=True)
    first_chunk = 0
    rejection = False
    piloted = False
    while first_chunk < chunk_total:
        checkpoint = min(chunk_total, (first_chunk // CHECK_CHUNKS + 1) * CHECK_CHUNKS)
        chunk_count, (weights, stats, squares, low_weights, _) = sizer.run(
            lambda count: sample_chunks(deals, units, seed, chunks, rejection, first_chunk, count),
            1 if first_chunk == 0 else checkpoint - first_chunk)
        if not piloted:
            piloted = True
            if prefer_rejection(deals, weights[0, 0], weights[0, 1], min(RANGE_DEALS_PER_CHUNK, trials)):
                rejection = run.rejection = True
                continue  # start over, redrawing collisions: the pilot's deals are not kept
        for slab in range(chunk_count):
            chunk = first_chunk + slab
            chunk_deals = min(RANGE_DEALS_PER_CHUNK, trials - chunk * RANGE_DEALS_PER_CHUNK)
            run.add_chunk(chunk_deals, weights[slab], stats[slab], squares[slab], low_weights[slab])
        first_chunk += chunk_count
        if progress is not None:
            progress(run.deals, trials)
        if run.weight_sum == 0 and run.deals >= GIVE_UP_AFTER:
            break
        if precision is not None and first_chunk == checkpoint and run.weight_sum > 0:
            errors = run.standard_errors(units)
            if None not in errors and max(errors) * 100 < precision:
                break
    if run.weight_sum == 0:
        raise _almost_no_deal(f"no compatible deal in {run.deals:,} weighted draws")
    return run


def scaled_counts(run: RangeRun, units: int) -> tuple[np.ndarray, int]:
    """The run's weighted counts as whole deals: ``(counts (players, STATS) int64, low deals)``,
    each the weighted fraction times the deals drawn, rounded (EQUITY in pot units, rounded by
    largest remainders so that the players' equities still add up to one pot per deal)."""
    scale = run.deals / run.weight_sum
    scaled = run.stats * scale
    counts = np.rint(scaled).astype(np.int64)
    shares = scaled[:, counters.EQUITY]
    floors = np.floor(shares).astype(np.int64)
    missing = units * run.deals - int(floors.sum())
    by_remainder = np.argsort(-(shares - floors), kind="stable")
    floors[by_remainder[:max(0, min(missing, len(floors)))]] += 1
    counts[:, counters.EQUITY] = floors
    return counts, int(round(run.low_weight * scale))
