"""``calculate_allin``: every player all in, who gets what from each pot on average.

The pots come from ``pots.side_pots`` (main pot, then side pots by the committed amounts;
folded players' chips as dead money); every deal is paid in chips by ``pots.settle_pots``
inside the compiled kernels (``fixed._allin_kernels``, ``lists._allin_kernels``), each pot split high/low among its own
eligible players with the odd-chip rules (docs/rules.md, "All-ins and side pots" and
"Showdown"). The deals (fixed, partial and random hands, ranges; exact enumeration or Monte
Carlo, chosen as for equity) are those of ``calculate_equity``, seated, planned and run by
the same steps (``query.seat_query``, ``plan.plan_query``, ``query.run_plan``).

Players are given in seat order starting from the first seat left of the button: that order
decides who gets an odd chip.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..deal import CardsLike, Deal
from ..errors import InputError, quoted
from ..games import Game
from ..pots import MAX_SETTLE_PLAYERS, Pot, side_pots
from ..runtime.threads import PieceSizer, across_threads
from ..validate import check_hands, is_whole_number
from . import plan
from .results.expected_chips import AllinPlayer, AllinResult
from .drivers import enumerate_fixed_hands, sample_chunks, sum_pieces
from .fixed._allin_kernels import chunk_random_states, enumerate_allin_boards, sample_allin_boards
from .fixed.hands import prepare
from .plan import Family, Method, QueryPlan
from .query import Device, ProgressCallback, RunOptions, SeatedQuery, run_plan, seat_query
from .kernel_inputs import ChunkPlan, PotArrays
from .lists._allin_kernels import enumerate_allin_ranges, sample_allin_ranges
from .lists.exact import whole_weights
from .lists.inputs import ExactLists, ListDeals, ScoreTables

# Chips are summed in int64 (a Monte Carlo chunk of 2**16 deals, an exact enumeration of up to
# about 2**21 boards per pot and player): pots this large would not fit, and no game has them.
MAX_TOTAL_CHIPS = 2**40
_INT64_SAFE = 2**62


def committed_from_stacks(stacks: Sequence[int], folded: Sequence[int] = ()) -> tuple[int, ...]:
    """Chips each player puts in when everyone goes all in with these stacks: the stack,
    capped at the largest other stack or folded amount (chips nobody matched are returned).

    Parameters
    ----------
    stacks : sequence of int
        Each all-in player's stack (whole chips, at least 1).
    folded : sequence of int
        Chips put in by players who folded: a folder matched the bets up to their amount, so
        the biggest stack puts in at least that much (when it has it).

    Raises
    ------
    InputError
        A stack that is not a whole number of at least 1 chip, or a bad folded amount (the
        message names it).

    Examples
    --------
    >>> committed_from_stacks([500, 200, 1000])
    (500, 200, 500)
    >>> committed_from_stacks([500, 200, 1000], folded=[700])
    (500, 200, 700)
    """
    amounts = _positive_chips(stacks, "stack")
    folded_amounts = _positive_chips(folded, "folded amount", minimum=0)
    return tuple(min(amount, max(amounts[:index] + amounts[index + 1:] + folded_amounts, default=amount))
                 for index, amount in enumerate(amounts))


def _positive_chips(values, what: str, minimum: int = 1) -> list[int]:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise InputError(f"expected a list of {what}s in chips, got {quoted(values)}")
    checked = []
    for number, value in enumerate(values, start=1):
        if not is_whole_number(value) or value < minimum:
            raise InputError(f"bad {what} {quoted(value)} for player {number}: expected a whole number of chips, "
                             f"at least {minimum}")
        checked.append(int(value))
    return checked


def _dead_chips_per_player(values: Sequence[int], player_count: int, what: str) -> list[int]:
    """``values`` checked (whole chips, 0 or more, one per player), or zeros when empty."""
    checked = _positive_chips(values, what, minimum=0)
    if not checked:
        return [0] * player_count
    if len(checked) != player_count:
        raise InputError(f"expected {what} for each of the {player_count} players, got {len(checked)}")
    return checked


def check_folded_amounts(committed: Sequence[int], folded: Sequence[int]) -> None:
    """Refuse dead money no betting can produce: a player folds only when facing a bigger bet,
    made by a player still in the hand, so no folded amount exceeds the largest committed one.

    Raises
    ------
    InputError
        ``folded amount 5,000 (folded player 1) is more than any all-in player put in (at most 300): ...``.
    """
    most = max(committed, default=0)
    for number, amount in enumerate(folded, start=1):
        if amount > most:
            raise InputError(f"folded amount {amount:,} (folded player {number}) is more than any all-in player "
                             f"put in (at most {most:,}): a player folds only to a bigger bet, and whoever made it is "
                             "still in the hand (antes and other dead money go in the pot amount)")


def make_pots(committed: Sequence[int], folded: Sequence[int] = (), pot: int = 0,
              dead_chips: Sequence[int] | None = None) -> tuple[Pot, ...]:
    """The pots of an all-in: ``side_pots`` of the players' and the folded players' chips,
    with ``pot`` extra chips of dead money in the main pot and ``dead_chips`` (one per player,
    then one per folded player) as the first pot every player may win. Eligible indexes are
    the players' (folded players come after them and are never eligible)."""
    pots = side_pots(list(committed) + list(folded), [False] * len(committed) + [True] * len(folded),
                     dead=list(dead_chips) if dead_chips is not None and any(dead_chips) else None)
    return (Pot(pots[0].amount + pot, pots[0].eligible), *pots[1:])


class _ResumableChunks:
    """A group of chunks (``drivers.ChunkGroup``) of the resumable all-in kernels: chunks
    ``first_chunk .. first_chunk + chunk_count - 1`` run a few deals each per call, each chunk's
    generator state, shuffled deck, deals done and sums updated in place by every call (so the
    sums, floats included, do not depend on how the chunks are cut into calls); at the end the
    sums go to the tally, chunk by chunk.

    ``call(group, first chunk, rows, deals per chunk)`` is the kernel with its bundles bound,
    over the ``rows`` (a slice) of the group's state arrays (:meth:`kernel_arguments`).
    """

    def __init__(self, call, chunks: ChunkPlan, seed: int, deck: np.ndarray, first_chunk: int, chunk_count: int,
                 tally: _ChipSums, threads: int | None = None):
        self.call = call
        self.first_chunk = first_chunk
        self.tally = tally
        self.threads = threads
        self.states = chunk_random_states(np.uint64(seed), first_chunk, chunk_count)
        self.decks = np.ascontiguousarray(np.tile(deck, (chunk_count, 1)), dtype=np.int8)
        self.positions = np.zeros(chunk_count, dtype=np.int64)
        self.sizes = np.array([chunks.samples_in(first_chunk + slab, 1) for slab in range(chunk_count)],
                              dtype=np.int64)
        pot_count, player_count = tally.sums.shape
        self.payout_sums = np.zeros((chunk_count, pot_count, player_count), dtype=np.int64)
        self.square_sums = np.zeros((chunk_count, pot_count + 1, player_count), dtype=np.float64)
        self.rejections = np.zeros(chunk_count, dtype=np.int64)

    def kernel_arguments(self, rows: slice) -> tuple:
        """The ``rows`` of the chunks' state arrays, in the resumable kernels' order: generator
        states, decks, positions, chip sums, sums of squares."""
        return self.states[rows], self.decks[rows], self.positions[rows], self.payout_sums[rows], self.square_sums[rows]

    @property
    def units_left(self) -> int:
        return int((self.sizes - self.positions).max())

    @property
    def samples_done(self) -> int:
        return int(self.positions.sum())

    def advance(self, budget: int) -> None:
        """Up to ``budget`` more deals of every chunk, the chunks shared among threads
        (``threads.across_threads``, on ``threads`` threads, None: numba's setting)."""

        def call(first: int, count: int) -> tuple:
            self.call(self, self.first_chunk + first, slice(first, first + count), budget)
            return ()

        across_threads(call, 0, len(self.states), threads=self.threads)

    def finish(self) -> None:
        self.tally.add(self.first_chunk, (self.payout_sums, self.square_sums))


class _ChipSums:
    """The tally of the all-in samplers: chips per pot and player (``sums``, int64) and their
    sums of squares (``squares``: per pot, then of each player's total; float64, added chunk by
    chunk in chunk order: the same floats for any thread count)."""

    def __init__(self, pot_count: int, player_count: int):
        self.sums = np.zeros((pot_count, player_count), dtype=np.int64)
        self.squares = np.zeros((pot_count + 1, player_count), dtype=np.float64)

    def add(self, first_chunk: int, outputs: tuple) -> None:
        payout_sums, square_sums = outputs
        self.sums += payout_sums.sum(axis=0)
        for slab in range(square_sums.shape[0]):
            self.squares += square_sums[slab]

    def precise_enough(self, samples: int, precision: float, total_chips: int) -> bool:
        """Whether every player's standard error of expected chips is below ``precision``
        percent of the chips in the pots."""
        total_errors = _standard_errors(self.sums.sum(axis=0).astype(np.float64), self.squares[-1], samples)
        return bool(total_errors.max() * 100 < precision * total_chips)


def _fixed_hand_deals(deal: Deal, pots, chunks: ChunkPlan, seed: int, tally: _ChipSums, threads: int | None):
    """Monte Carlo of fixed hands paid in chips: the groups of ``sample_allin_boards``."""
    prepared = prepare(deal)
    pot_arrays = PotArrays.of(pots)

    def call(group: _ResumableChunks, first_chunk: int, rows: slice, budget: int) -> None:
        sample_allin_boards(*prepared.kernel_arguments(), prepared.hilo, *pot_arrays.kernel_arguments(), first_chunk,
                            *chunks.kernel_arguments(), budget, *group.kernel_arguments(rows))

    return lambda first_chunk, chunk_count: _ResumableChunks(call, chunks, seed, prepared.deck, first_chunk,
                                                             chunk_count, tally, threads)


def _hand_list_deals(seats, board, dead, game, pots, chunks: ChunkPlan, seed: int, tally: _ChipSums):
    """Monte Carlo over ranges, partial and random hands, paid in chips: the groups of
    ``sample_allin_ranges``.

    Raises
    ------
    InputError
        A chunk drew too many colliding deals in a row.
    """
    deals = ListDeals.of(seats, board, dead, game, grouped=False)
    pot_arrays = PotArrays.of(pots)
    # every chunk starts from the cards outside the known ones, ascending (padded to 52)
    deck = deals.undealt_deck()

    def call(group: _ResumableChunks, first_chunk: int, rows: slice, budget: int) -> None:
        sample_allin_ranges(*deals.kernel_arguments(), *pot_arrays.kernel_arguments(), first_chunk,
                            *chunks.kernel_arguments(), budget, *group.kernel_arguments(rows), group.rejections[rows])
        if (group.rejections[rows] < 0).any():
            raise InputError(
                "the players' ranges leave almost no deal without a shared card: with many players, widen the "
                "ranges or give some players '*' (dealt at random)"
            )

    return lambda first_chunk, chunk_count: _ResumableChunks(call, chunks, seed, deck, first_chunk, chunk_count, tally)


def _enumerate_fixed(deal: Deal, pots, progress: ProgressCallback | None, threads: int):
    """Exact enumeration of fixed hands (``drivers.enumerate_fixed_hands``):
    ``(boards, payout_sums (pots, players))``."""
    completions, (sums,) = enumerate_fixed_hands(prepare(deal), enumerate_allin_boards,
                                                 PotArrays.of(pots).kernel_arguments(), progress, threads)
    return completions, sums


def _enumerate_ranges(seats, board, dead, game, pots, weights_by_seat, progress, work: int):
    """Exact enumeration over ranges, a few of the first list's hands per call
    (``drivers.sum_pieces``): ``(deals, weight_total, payout_sums (pots, players))``. ``work``
    (player-boards) is the total reported to ``progress``."""
    lists = ExactLists(seats, board, dead, game, weights_by_seat)
    tables = ScoreTables.of(game)
    pot_arrays = PotArrays.of(pots)
    order = np.array(lists.order, dtype=np.int64)
    first_list_size = int(lists.offsets[1] - lists.offsets[0])
    (sums, weight_total, deal_total), _ = sum_pieces(
        lambda first_hand, hand_count: enumerate_allin_ranges(
            *lists.kernel_arguments(), order, *tables.kernel_arguments(), plan.BINOMIALS,
            *pot_arrays.kernel_arguments(), first_hand, hand_count, first_list_size),
        first_list_size, uneven=True,
        report=None if progress is None else lambda done: progress(work * done // first_list_size, work))
    if weight_total == 0:
        raise InputError("no deal is possible: every combination of the players' hands shares a card")
    return int(deal_total), int(weight_total), sums


def _standard_errors(sums: np.ndarray, squares: np.ndarray, sample_count: int) -> np.ndarray:
    """Standard errors of the means of per-deal chips from their sums and sums of squares; NaN
    (undefined) from fewer than 2 samples."""
    if sample_count < 2:
        return np.full_like(squares, np.nan, dtype=np.float64)
    mean = sums / sample_count
    variance = np.maximum(squares / sample_count - mean * mean, 0.0) * sample_count / (sample_count - 1)
    return np.sqrt(variance / sample_count)


def _defined(error) -> float | None:
    """A standard error as a float, None when undefined (NaN: fewer than 2 samples)."""
    return None if np.isnan(error) else float(error)


def _sample(start, chunks: ChunkPlan, tally: _ChipSums, total_chips: int, precision: float | None,
            progress: ProgressCallback | None) -> int:
    """Monte Carlo on the Monte Carlo driver (``drivers.sample_chunks``) in groups of
    ``plan.CHUNKS_PER_CALL`` chunks, each group run a few deals per chunk per call (Ctrl-C and
    progress between calls, even when deals are slow); with a precision target, stop after the
    first group at which every player's standard error of expected chips is below ``precision``
    percent of the chips in the pots. Returns the samples run (their sums are in ``tally``)."""
    # deals per chunk per call: start small (narrow multiway ranges deal about a thousand a
    # second), then as many as fit in a short call
    return sample_chunks(
        start, chunks, plan.CHUNKS_PER_CALL, PieceSizer(first=16, most=plan.DEALS_PER_CHUNK), progress=progress,
        precise_enough=None if precision is None else lambda done: tally.precise_enough(done, precision, total_chips))


def calculate_allin(
    hands: Sequence[CardsLike],
    committed: Sequence[int],
    board: CardsLike = "",
    dead: CardsLike = "",
    game: str | Game = "omaha",
    *,
    die: int | None = None,
    folded: Sequence[int] = (),
    pot: int = 0,
    dead_chips: Sequence[int] = (),
    folded_dead_chips: Sequence[int] = (),
    method: str = "auto", trials: int | None = None, precision: float | None = None, seed: int | None = None,
    threads: int | None = None,
    progress: ProgressCallback | None = None,
    device: str = "cpu",
) -> AllinResult:
    """Expected chips each all-in player wins from each pot, exactly or by Monte Carlo.

    Parameters
    ----------
    hands : sequence of str
        Hole cards per player, in seat order starting from the first seat left of the button
        (the order that gives odd chips): fixed hands, partial hands (``AsAh``), random hands
        (``*``) or ranges, as in :func:`~omaha_equity.equity.calculate.calculate_equity`.
    committed : sequence of int
        Chips each player has put in, all in (whole chips, at least 1 each). For stacks that
        all go in, see :func:`committed_from_stacks`.
    board, dead, game, die : as in ``calculate_equity``.
    folded : sequence of int
        Chips put in by players who folded: dead money in every pot level it reaches
        (``pots.side_pots``), never won back by them.
    pot : int
        Extra dead money in the main pot (chips, 0 or more).
    dead_chips, folded_dead_chips : sequence of int, optional
        Dead chips each player (and each folded player) put in besides ``committed`` (and
        ``folded``): an ante paid by some players only (a big-blind ante) or the dead part of a
        missed-blinds post. They make no pot level: all of them form the first pot, which every
        player may win, a player all in on dead chips alone (``committed`` 0) included, as the
        rules engine settles it (``pots.side_pots``, docs/rules.md; issue 14). Empty: none.
    method, trials, seed, threads, progress : as in ``calculate_equity``.
    precision : float, optional
        Monte Carlo: stop once every player's standard error of expected chips is below this
        many percent of all the chips in the pots.
    device : {"cpu", "gpu", "auto"}
        Where the deals run, as in ``calculate_equity`` (docs/gpu.md): the GPU tallies who wins
        each pot and the CPU's settlement pays each outcome, so exact results are the same
        fractions on both. ``auto`` keeps on the CPU pots with more outcomes than the GPU
        tallies (many players with different stacks, hi/lo); ``gpu`` refuses them.

    Returns
    -------
    AllinResult
        The pots and, per player and pot, the expected chips won (float, and Fraction when
        enumerated exactly), their standard errors, the total and the net expected value.

    Raises
    ------
    InputError
        Any invalid card, deal, game, option, committed amount (not a whole number of at least
        one chip, or not one per player), folded amount (negative, or more than any committed
        amount: :func:`check_folded_amounts`) or dead money; the message names the offending
        token.

    Examples
    --------
    >>> result = calculate_allin(["9c9dKsQd", "7c7hAsKd", "JcJd5h6h"], [300, 300, 100],
    ...                          board="9s7d2cJh4s")
    >>> [pot.amount for pot in result.pots], result.expected
    ([300, 400], (400.0, 0.0, 300.0))
    """
    hands = check_hands(hands)
    player_dead = _dead_chips_per_player(dead_chips, len(hands), "dead chips")
    amounts = _positive_chips(committed, "committed amount", minimum=0 if any(player_dead) else 1)
    if len(amounts) != len(hands):
        raise InputError(f"expected one committed amount per player ({len(hands)}), got {len(amounts)}: "
                         f"{quoted(', '.join(str(amount) for amount in amounts))}")
    if any(amount + dead == 0 for amount, dead in zip(amounts, player_dead)):
        raise InputError("expected every all-in player to have put in at least 1 chip, live or dead")
    folded_amounts = _positive_chips(folded, "folded amount", minimum=0)
    folded_dead = _dead_chips_per_player(folded_dead_chips, len(folded_amounts), "folded dead chips")
    check_folded_amounts(amounts, folded_amounts)
    if not is_whole_number(pot) or pot < 0:
        raise InputError(f"bad dead money {quoted(pot)}: expected a whole number of chips, 0 or more")
    options = RunOptions.checked(method, trials=trials, precision=precision, seed=seed, threads=threads,
                                 device=device)
    seated = seat_query(hands, board, dead, game, die)
    if seated.player_count > MAX_SETTLE_PLAYERS:
        raise InputError(f"expected at most {MAX_SETTLE_PLAYERS} players, got {seated.player_count}")
    pots = make_pots(amounts, folded_amounts, int(pot), player_dead + folded_dead)
    total_chips = sum(item.amount for item in pots)
    if total_chips >= MAX_TOTAL_CHIPS:
        raise InputError(f"the pots hold {quoted(format(total_chips, ','))} chips: expected fewer than "
                         f"{MAX_TOTAL_CHIPS:,}")
    return run_allin(seated, AllinStakes(tuple(amounts), tuple(folded_amounts), int(pot), pots), options, progress)


@dataclass(frozen=True)
class AllinStakes:
    """The chips of an all-in, checked (:func:`calculate_allin`).

    Attributes
    ----------
    committed : tuple of int
        Chips each player put in, in seat order.
    folded : tuple of int
        Chips of the players who folded.
    dead_money : int
        Extra chips in the main pot.
    pots : tuple of Pot
        The main pot and the side pots (:func:`make_pots`).
    """

    committed: tuple[int, ...]
    folded: tuple[int, ...]
    dead_money: int
    pots: tuple[Pot, ...]

    @property
    def total_chips(self) -> int:
        return sum(pot.amount for pot in self.pots)


def run_allin(seated: SeatedQuery, stakes: AllinStakes, options: RunOptions,
              progress: ProgressCallback | None = None) -> AllinResult:
    """The typed core of :func:`calculate_allin`: plan a seated query with its stakes and run
    options, run it, wrap the chip sums.

    Raises
    ------
    InputError
        Anything the plan refuses (:func:`plan_allin`); ranges that leave almost no deal.
    """
    pots, total_chips, precision = stakes.pots, stakes.total_chips, options.precision
    query, weights_by_seat = plan_allin(seated, total_chips, options)
    if options.device != Device.CPU:
        gpu_outputs = _run_on_gpu(seated, query, stakes, weights_by_seat, options, progress)
        if gpu_outputs is not None:
            return _allin_result(seated, query, stakes, *gpu_outputs)

    def run(thread_count: int | None):
        if query.exact and query.family == plan.Family.FIXED_HANDS:
            sample_count, sums = _enumerate_fixed(seated.deal, pots, progress, thread_count)
            return sample_count, sample_count, sums, None
        if query.exact:
            return (*_enumerate_ranges(list(seated.seats), seated.board, seated.dead, seated.game, pots,
                                       weights_by_seat, progress, query.exact_work), None)
        chunks = ChunkPlan(plan.DEALS_PER_CHUNK, query.trials)
        tally = _ChipSums(len(pots), query.player_count)
        if query.family == plan.Family.FIXED_HANDS:
            start = _fixed_hand_deals(seated.deal, pots, chunks, query.seed, tally, thread_count)
        else:
            start = _hand_list_deals(list(seated.seats), seated.board, seated.dead, seated.game, pots, chunks,
                                     query.seed, tally)
        sample_count = _sample(start, chunks, tally, total_chips, precision, progress)
        return sample_count, sample_count, tally.sums, tally.squares

    sample_count, weight_total, sums, squares = run_plan(query, run)
    return _allin_result(seated, query, stakes, sample_count, weight_total, sums, squares)


def _run_on_gpu(seated: SeatedQuery, query: QueryPlan, stakes: AllinStakes, weights_by_seat, options: RunOptions,
                progress: ProgressCallback | None):
    """The run's outputs from the GPU, or None when it stays on the CPU (``device="auto"`` and
    small work or pots the GPU does not tally)."""
    from ..gpu.device import runs_on_gpu  # lazy: numba.cuda loads only when a GPU is asked for

    if not runs_on_gpu(options.device, query.work):
        return None
    from ..gpu.allin import fits_gpu, run_allin_on_gpu

    if options.device == Device.AUTO and not fits_gpu(stakes.pots, seated.game.hilo, seated.player_count):
        return None
    precision, total_chips = options.precision, stakes.total_chips

    def precise_enough(sums: np.ndarray, squares: np.ndarray, samples: int) -> bool:
        errors = _standard_errors(sums.sum(axis=0).astype(np.float64), squares[-1], samples)
        return bool(errors.max() * 100 < precision * total_chips)

    return run_allin_on_gpu(seated, query, stakes.pots, weights_by_seat,
                            None if precision is None else precise_enough, progress)


def plan_allin(seated: SeatedQuery, total_chips: int,
               options: RunOptions = RunOptions()) -> tuple[QueryPlan, list | None]:
    """The plan of an all-in query, and the hand lists' whole weights when they are enumerated
    exactly (``lists.exact.whole_weights``; None otherwise).

    A flop or later with fixed hands has at most ~1,000 boards: enumerated exactly, it runs on
    the list kernel, which needs no per-hand rows (whose building would cost more than the
    boards), as one piece. Exact sums of chips x weights must fit in 64 bits.

    Raises
    ------
    InputError
        Anything ``RunOptions.choose_method`` refuses; exact enumeration asked for sums of chips
        and range weights too large for 64 bits.
    """
    method = options.choose_method(seated.exact_work)
    weights = None
    if method == Method.EXACT:
        if seated.all_fixed:
            weights = [np.ones(0, dtype=np.int64) for _ in seated.seats]  # fixed hands, as lists of one
            fits = seated.exact_work // seated.player_count * total_chips < _INT64_SAFE
        else:
            weights = whole_weights(list(seated.seats), seated.board, seated.dead, seated.game, total_chips)
            fits = weights is not None
        if not fits:
            weights = None
            method = plan.exact_or_fallback(
                options.method,
                "the chips and range weights are too large for exact enumeration (64-bit sums): use Monte Carlo")
    small_fixed = method == Method.EXACT and len(seated.board) >= 3
    family = Family.FIXED_HANDS if seated.all_fixed and not small_fixed else Family.HAND_LISTS
    query = options.plan(method, family, (_ALLIN_KERNELS[family, method],), seated.player_count, seated.exact_work)
    return query, weights


_ALLIN_KERNELS = {
    (Family.FIXED_HANDS, Method.EXACT): "enumerate_allin_boards",
    (Family.FIXED_HANDS, Method.MONTE_CARLO): "sample_allin_boards",
    (Family.HAND_LISTS, Method.EXACT): "enumerate_allin_ranges",
    (Family.HAND_LISTS, Method.MONTE_CARLO): "sample_allin_ranges",
}


def _allin_result(seated: SeatedQuery, query: QueryPlan, stakes: AllinStakes, sample_count: int, weight_total: int,
                  sums: np.ndarray, squares: np.ndarray | None) -> AllinResult:
    """An :class:`AllinResult` from a run's chip sums ``(pots, players)`` int64 and, when
    sampled, sums of squares ``(pots + 1, players)`` float64 (the last row: all pots)."""
    exact = query.exact
    pots, amounts = stakes.pots, stakes.committed
    players = []
    for player, seat in enumerate(seated.seats):
        pot_sums = [int(value) for value in sums[:, player]]
        if exact:
            pot_exact = tuple(Fraction(value, weight_total) for value in pot_sums)
            pot_errors = (0.0,) * len(pots)
            total_error = 0.0
        else:
            pot_exact = None
            pot_errors = tuple(_defined(error) for error in _standard_errors(
                np.array(pot_sums, dtype=np.float64), squares[:len(pots), player], sample_count))
            total_error = _defined(_standard_errors(np.array([sum(pot_sums)], dtype=np.float64),
                                                    squares[len(pots):, player], sample_count)[0])
        players.append(AllinPlayer(
            hand=seat.expression,
            committed=amounts[player],
            pot_chips=tuple(value / weight_total for value in pot_sums),
            pot_chips_exact=pot_exact,
            pot_standard_errors=pot_errors,
            expected=sum(pot_sums) / weight_total,
            expected_exact=sum(pot_exact, Fraction(0)) if exact else None,
            standard_error=total_error,
            random_card_count=seat.random_card_count(seated.game),
        ))
    return AllinResult(
        **seated.header_fields(query, sample_count),
        hand_combinations=seated.hand_combinations(query, sample_count),
        board_count=seated.board_count,
        seed=query.seed,
        pots=pots,
        folded=stakes.folded,
        dead_money=stakes.dead_money,
        players=tuple(players),
    )


__all__ = ["AllinPlayer", "AllinResult", "AllinStakes", "calculate_allin", "run_allin", "committed_from_stacks",
           "make_pots"]
