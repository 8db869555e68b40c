"""A query over a board range: every flop of ``AK*``, ``Ks**`` or ``$mono`` with the same hands,
run once per orbit of the suit renamings the query keeps and the results combined, each concrete
flop weighing the same (a flop dealt at random from the board range).

One function per command that takes ``-b BOARDRANGE``: :func:`equity_over_board_range`
(``calc``), :func:`allin_over_board_range` (``allin``), :func:`distribution_over_board_range`
(``distribution``) and :func:`composition_over_board_range` (``hits``); :func:`board_range_runs`
is what they share (the flops the cards leave, split into orbits). ``flops`` (:mod:`.flops`) is
the per-flop view with categories.

How each run is planned: ``exact`` enumerates every run; ``monte-carlo`` (or trials given) samples
``trials`` deals a run (default ``RUN_DEFAULT_TRIALS``); ``auto`` enumerates a run exactly when its
work is at most the planner's budget shared among the runs (never below ``RUN_EXACT_WORK``), else
samples ``RUN_DEFAULT_TRIALS`` deals. Run ``i`` of a Monte Carlo query uses seed ``seed + i``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..boards import BoardRange, Orbit, orbits, parse_board_range, suit_group
from ..cards import format_cards, parse_cards
from ..deal import CardsLike, parse_board_and_dead
from ..equity import plan
from ..equity.calculate import run_equity
from ..equity.query import RunOptions, seat_cards
from ..equity.results.expected_chips import AllinPlayer, AllinResult
from ..errors import InputError, quoted
from ..games import Game, get_game
from ..ranges import is_specific_hand
from ..validate import MAX_SEED, check_hands
from .flops import FLOP_DEFAULT_TRIALS, FLOP_EXACT_WORK, written_suits

# Monte Carlo deals a run when trials are not given: the flops command's figure (a flop's
# standard error about half a point; a board range pools many runs).
RUN_DEFAULT_TRIALS = FLOP_DEFAULT_TRIALS
# ``auto`` runs a flop exactly at least up to this many player-boards (a tenth of a second or so).
RUN_EXACT_WORK = FLOP_EXACT_WORK

ProgressCallback = Callable[[int, int], None]


@dataclass(frozen=True)
class BoardRangePlayer:
    """One player's figures over the board range (each a mean over its flops, 0..1).

    Attributes
    ----------
    hand : str
    equity : float
    equity_fraction : Fraction or None
        Exact when every flop was enumerated exactly.
    win, tie : float
        Won alone (in hi/lo games: scooped), tied.
    standard_error : float
        0.0 when exact.
    equity_high, equity_low : float
        The parts of ``equity`` from the high half (the whole pot when no low qualifies) and the
        low half (0 in high-only games).
    """

    hand: str
    equity: float
    equity_fraction: Fraction | None
    win: float
    tie: float
    standard_error: float
    equity_high: float = 0.0
    equity_low: float = 0.0


@dataclass(frozen=True)
class BoardRangeEquity:
    """Equity of fixed players over the flops of a board range.

    Attributes
    ----------
    game : Game
    board_range, dead : str
    players : tuple of BoardRangePlayer
    flops : int
        Concrete flops covered (those of the board range that the hands and dead cards leave).
    runs : int
        Queries run (one per orbit of the suit renamings that keep every written suit).
    method : str
        ``"exact"`` when every run was, else ``"monte-carlo"``.
    seed : int or None
        The seed of the first Monte Carlo run (run ``i`` uses ``seed + i``).
    """

    game: Game
    board_range: str
    dead: str
    players: tuple[BoardRangePlayer, ...]
    flops: int
    runs: int
    method: str
    seed: int | None


def board_range_equity_rows(result: BoardRangeEquity) -> list[dict[str, Any]]:
    """One row per player of ``calc -b BOARDRANGE`` (its CSV columns, and a ``batch`` row's):
    the ``calc`` columns that apply over a board range, ``board`` the board range as written and
    ``sample_count`` the concrete flops covered; hi/lo games add ``equity_high``, ``equity_low``
    and ``scoop`` (won alone)."""
    rows = []
    for number, player in enumerate(result.players, start=1):
        row: dict[str, Any] = {"player": number, "hand": player.hand, "equity": player.equity,
                               "equity_exact": "" if player.equity_fraction is None else str(player.equity_fraction),
                               "standard_error": player.standard_error, "win": player.win, "tie": player.tie}
        if result.game.hilo:
            row.update(equity_high=player.equity_high, equity_low=player.equity_low, scoop=player.win)
        row.update(game=result.game.name, board=result.board_range, dead=result.dead or "-", method=result.method,
                   sample_count=result.flops, seed=result.seed)
        rows.append(row)
    return rows


@dataclass(frozen=True)
class BoardRangeRuns:
    """The flops of a board range that the known cards leave, split into the orbits one query
    runs on (:func:`board_range_runs`).

    Attributes
    ----------
    board_set : BoardRange
    orbits : tuple of Orbit
        One run each, weighted by its flops.
    group : numpy.ndarray
        (k, 4) int64: the suit renamings the query keeps (:func:`~omaha_equity.boards.suit_group`).
    dead_cards : tuple of int
        The dead cards, out of every flop and of every run.
    """

    board_set: BoardRange
    orbits: tuple[Orbit, ...]
    group: np.ndarray
    dead_cards: tuple[int, ...] = ()

    @property
    def flops(self) -> int:
        """Concrete flops covered."""
        return sum(orbit.weight for orbit in self.orbits)

    @property
    def weights(self) -> list[int]:
        return [orbit.weight for orbit in self.orbits]


def board_range_runs(board_range: str, game: Game, hands: Sequence[str] = (), dead: CardsLike = "",
                     known_cards: Sequence[int] = ()) -> BoardRangeRuns:
    """The flops of ``board_range`` left by the known cards, in orbits of the suit renamings
    that keep every suit the hands, ranges and cards write.

    Parameters
    ----------
    board_range : str
        ``"*"``, ``"AK*"``, ``"Ks**"``, ``"$mono"`` (:func:`~omaha_equity.boards.parse_board_range`).
    game : Game
    hands : sequence of str
        Hands (their cards leave the flops) and ranges (their written suits are kept).
    dead : str or sequence of int
        The dead cards, as text or card indexes; with ``known_cards`` (other fixed cards, as
        indexes), out of every flop, their suits kept.
    known_cards : sequence of int

    Raises
    ------
    InputError
        A bad board range or dead card; no flop of the board range left by the cards.
    """
    _, dead_cards = parse_board_and_dead("", dead or "")
    board_set = parse_board_range(board_range)
    taken = set(dead_cards) | set(known_cards)
    fixed = {card & 3 for card in taken}
    for hand in hands:
        if is_specific_hand(hand, game):
            cards = parse_cards(hand)
            fixed |= {card & 3 for card in cards}
            taken |= set(cards)
        else:
            fixed |= written_suits(hand)
    flop_indexes = board_set.flop_indexes
    if taken:
        flop_indexes = flop_indexes[~np.isin(board_set.flops, sorted(taken)).any(axis=1)]
    if flop_indexes.size == 0:
        raise InputError(f"no flop of board range {quoted(board_set.text)} is possible with the cards "
                         f"{format_cards(sorted(taken, reverse=True))}")
    group = suit_group(fixed)
    return BoardRangeRuns(board_set, tuple(orbits(flop_indexes, group)), group, dead_cards)


def _is_no_deal(error: InputError) -> bool:
    """A run refused because its flop leaves a range no hand, or the players no deal: the flop is
    never dealt with these hands, and the board range covers it not."""
    message = str(error)
    return message.startswith("no hand in range") or message.startswith("no deal is possible")


def run_each_orbit(runs: BoardRangeRuns, run_one: Callable[[int, Orbit], Any],
                   progress: ProgressCallback | None = None) -> list[tuple[Orbit, Any]]:
    """``run_one(number, orbit)`` on every orbit, skipping the flops that leave no deal.

    Returns
    -------
    list of (Orbit, result)
        The orbits that were dealt, with their results.

    Raises
    ------
    InputError
        No deal on any flop of the board range; anything ``run_one`` raises but no deal.
    """
    done = []
    last_error = None
    for number, orbit in enumerate(runs.orbits):
        try:
            done.append((orbit, run_one(number, orbit)))
        except InputError as error:
            if not _is_no_deal(error):
                raise
            last_error = error
        if progress is not None:
            progress(number + 1, len(runs.orbits))
    if not done:
        raise InputError(f"no deal on any flop of board range {quoted(runs.board_set.text)}: {last_error}")
    return done


def first_seed(options: RunOptions) -> int | None:
    """The seed of run 0 (drawn when not given), or None for ``exact``."""
    if options.method == plan.Method.EXACT:
        return None
    return plan.draw_seed() if options.seed is None else options.seed


def run_options_for(options: RunOptions, exact_work: int, run_count: int, seed: int | None,
                    number: int) -> RunOptions:
    """The options of run ``number`` of ``run_count`` (module docstring: how each run is planned).

    Parameters
    ----------
    exact_work : int
        The run's exact work in player-boards (``SeatedQuery.exact_work``).
    seed : int or None
        The first run's seed (:func:`first_seed`).
    """
    if options.method == plan.Method.EXACT:
        return RunOptions(plan.Method.EXACT, None, None, None, options.threads)
    run_seed = None if seed is None else (seed + number) % (MAX_SEED + 1)
    if options.method == plan.Method.AUTO and not options.sampling_asked:
        if exact_work <= max(RUN_EXACT_WORK, plan.EXACT_WORK_BUDGET // max(run_count, 1)):
            return RunOptions(plan.Method.EXACT, None, None, None, options.threads)
    return RunOptions(plan.Method.MONTE_CARLO, options.trials or RUN_DEFAULT_TRIALS, options.precision, run_seed,
                      options.threads)


def _weighted_mean(weights: Sequence[int], values: Sequence[float]) -> float:
    return sum(weight * value for weight, value in zip(weights, values)) / sum(weights)


def _weighted_fraction(weights: Sequence[int], values: Sequence[Fraction | None]) -> Fraction | None:
    if any(value is None for value in values):
        return None
    return sum((Fraction(weight) * value for weight, value in zip(weights, values)), Fraction(0)) / sum(weights)


def _pooled_error(weights: Sequence[int], errors: Sequence[float | None]) -> float | None:
    """The standard error of a weighted mean of independent runs (None when one is undefined)."""
    if any(error is None for error in errors):
        return None
    return float(np.sqrt(sum((weight * error) ** 2 for weight, error in zip(weights, errors)))) / sum(weights)


def equity_over_board_range(
    hands: Sequence[str], board_range: str, game: str | Game = "omaha", *, dead: CardsLike = "",
    die: int | None = None, options: RunOptions | None = None, progress: ProgressCallback | None = None,
) -> BoardRangeEquity:
    """Each player's equity on a flop dealt at random from ``board_range`` (every concrete flop
    the hands leave weighing the same), from one typed query per orbit of flops.

    Parameters
    ----------
    hands : sequence of str
        Hands, partial hands or ranges, as :func:`~omaha_equity.calculate_equity` takes them.
    board_range : str
        ``"*"``, ``"AK*"``, ``"Ks**"``, ``"$mono"`` (:func:`~omaha_equity.boards.parse_board_range`).
    game, die, dead : as in :func:`~omaha_equity.calculate_equity`.
    options : RunOptions, optional
        Method, trials (per run), seed (module docstring: how each run is planned).
    progress : callable, optional
        ``progress(done, total)`` after each run.

    Raises
    ------
    InputError
        A bad hand, board range or dead card; no flop of the board range left by the hands.
    """
    hands = check_hands(hands)
    game = get_game(game, die)
    options = options or RunOptions()
    runs = board_range_runs(board_range, game, hands, dead)
    seed = first_seed(options)

    def run_one(number: int, orbit: Orbit):
        seated = seat_cards(list(hands), orbit.cards, runs.dead_cards, game)
        return run_equity(seated, run_options_for(options, seated.exact_work, len(runs.orbits), seed, number))

    done = run_each_orbit(runs, run_one, progress)
    weights = [orbit.weight for orbit, _ in done]
    results = [result for _, result in done]
    exact = all(result.method == plan.Method.EXACT.value for result in results)
    players = []
    for index in range(len(hands)):
        figures = [result.players[index] for result in results]
        equity_fraction = _weighted_fraction(weights, [player.equity_fraction for player in figures]) if exact \
            else None
        error = _pooled_error(weights, [player.standard_error or 0.0 for player in figures])
        players.append(BoardRangePlayer(
            hand=figures[0].hand,
            equity=float(equity_fraction) if equity_fraction is not None else
            _weighted_mean(weights, [player.equity for player in figures]),
            equity_fraction=equity_fraction,
            win=_weighted_mean(weights, [player.win for player in figures]),
            tie=_weighted_mean(weights, [player.tie for player in figures]),
            standard_error=0.0 if exact else float(error or 0.0),
            equity_high=_weighted_mean(weights, [player.equity_high for player in figures]),
            equity_low=_weighted_mean(weights, [player.equity_low for player in figures]),
        ))
    method = plan.Method.EXACT.value if exact else plan.Method.MONTE_CARLO.value
    return BoardRangeEquity(game=game, board_range=runs.board_set.text, dead=format_cards(runs.dead_cards, sort=True),
                            players=tuple(players), flops=sum(weights), runs=len(runs.orbits), method=method,
                            seed=None if exact else seed)


@dataclass(frozen=True)
class Covered:
    """A command's usual result over a board range, and how many flops it covered.

    Attributes
    ----------
    result : AllinResult, EquityDistribution or Composition
        The combined result, shaped as the command's result on one board: its ``board`` is the
        board range as written; counts of deals and boards are summed over every concrete flop.
    board_range : str
    flops : int
        Concrete flops covered (those of the board range the known cards leave).
    runs : int
        Queries run (one per orbit of the suit renamings that keep every written suit).
    """

    result: Any
    board_range: str
    flops: int
    runs: int


def allin_over_board_range(
    hands: Sequence[str], committed: Sequence[int], board_range: str, dead: CardsLike = "",
    game: str | Game = "omaha", *, die: int | None = None, folded: Sequence[int] = (), pot: int = 0,
    options: RunOptions | None = None, progress: ProgressCallback | None = None,
) -> Covered:
    """The chips each all-in player expects from each pot on a flop dealt at random from
    ``board_range`` (every concrete flop weighing the same).

    Parameters
    ----------
    hands, committed, dead, game, die, folded, pot : as in
        :func:`~omaha_equity.calculate_allin`.
    board_range : str
        A board range (:func:`~omaha_equity.boards.parse_board_range`).
    options : RunOptions, optional
        Method, trials (per run), seed, threads (module docstring).
    progress : callable, optional
        ``progress(done, total)`` after each run.

    Returns
    -------
    Covered
        Its ``result`` an ``AllinResult`` whose chips are means over the flops (exact fractions
        when every run was exact) and whose counts are summed over every concrete flop.

    Raises
    ------
    InputError
        Anything :func:`~omaha_equity.calculate_allin` refuses; a bad board range, or one with no
        flop left by the hands.
    """
    from ..equity.expected_chips import calculate_allin  # the all-in engine: only for allin

    hands = check_hands(hands)
    game = get_game(game, die)
    options = options or RunOptions()
    runs = board_range_runs(board_range, game, hands, dead)
    seed = first_seed(options)

    def run_one(number: int, orbit: Orbit) -> AllinResult:
        seated = seat_cards(list(hands), orbit.cards, runs.dead_cards, game)
        run = run_options_for(options, seated.exact_work, len(runs.orbits), seed, number)
        return calculate_allin(list(hands), committed, format_cards(orbit.cards), runs.dead_cards, game, folded=folded,
                               pot=pot, method=run.method.value, trials=run.trials, precision=run.precision,
                               seed=run.seed, threads=run.threads)

    done = run_each_orbit(runs, run_one, progress)
    weights = [orbit.weight for orbit, _ in done]
    results: list[AllinResult] = [result for _, result in done]
    exact = all(result.method == plan.Method.EXACT.value for result in results)
    players = []
    for index, first in enumerate(results[0].players):
        figures = [result.players[index] for result in results]
        pot_count = len(first.pot_chips)
        pot_exact = None
        if exact:
            pot_exact = tuple(_weighted_fraction(weights, [player.pot_chips_exact[pot_index]
                                                           for player in figures])
                              for pot_index in range(pot_count))
        expected_exact = _weighted_fraction(weights, [player.expected_exact for player in figures]) if exact else None
        players.append(AllinPlayer(
            hand=first.hand, committed=first.committed,
            pot_chips=tuple(float(value) for value in pot_exact) if pot_exact else
            tuple(_weighted_mean(weights, [player.pot_chips[pot_index] for player in figures])
                  for pot_index in range(pot_count)),
            pot_chips_exact=pot_exact,
            pot_standard_errors=tuple(0.0 if exact else
                                      _pooled_error(weights, [player.pot_standard_errors[pot_index]
                                                              for player in figures])
                                      for pot_index in range(pot_count)),
            expected=float(expected_exact) if expected_exact is not None else
            _weighted_mean(weights, [player.expected for player in figures]),
            expected_exact=expected_exact,
            standard_error=0.0 if exact else _pooled_error(weights, [player.standard_error for player in figures]),
            random_card_count=first.random_card_count,
        ))
    result = dataclasses.replace(
        results[0], board=runs.board_set.text, players=tuple(players),
        method=plan.Method.EXACT.value if exact else plan.Method.MONTE_CARLO.value,
        sample_count=_covered_count(weights, results, "sample_count"),
        board_count=_covered_count(weights, results, "board_count"),
        seed=None if exact else seed)
    return Covered(result, runs.board_set.text, sum(weights), len(runs.orbits))


def _covered_count(weights: Sequence[int], results: Sequence[Any], name: str) -> int:
    """Deals or boards scored over every concrete flop: an exact run's count for each of its
    flops, a Monte Carlo run's samples once."""
    return sum((weight if result.method == plan.Method.EXACT.value else 1) * getattr(result, name)
               for weight, result in zip(weights, results))


def _renamings_onto_members(orbit: Orbit, group: np.ndarray) -> list[np.ndarray]:
    """For each flop of the orbit, one renaming of ``group`` (``(4,) int64``, old suit to new)
    that maps the orbit's run flop onto it."""
    from ..boards.flops import all_flops, flop_keys

    wanted = flop_keys(all_flops()[orbit.flop_indexes]).tolist()
    cards = np.array(orbit.cards, dtype=np.int64)
    found: dict[int, np.ndarray] = {}
    for renaming in group:
        key = int(flop_keys(((cards >> 2) * 4 + renaming[cards & 3])[None, :])[0])
        found.setdefault(key, renaming)
    return [found[key] for key in wanted]


def distribution_over_board_range(
    hand: str, opponent: str, board_range: str, dead: CardsLike = "", game: str | Game = "omaha", *,
    die: int | None = None, by: str = "hand", bin_count: int = 10, options: RunOptions | None = None,
    progress: ProgressCallback | None = None,
) -> Covered:
    """Player 1's equity across the opponent's hands (``by="hand"``) or made hands on the flop
    (``by="category"``) on a flop dealt at random from ``board_range``.

    An item by hand is one opponent hand, its weight the mean over the flops of its share of the
    range on each (each concrete flop weighing the same), its equity the mean over the flops it
    is dealt on, weighted by that share; by category, likewise per made hand.

    Parameters
    ----------
    hand, opponent, dead, game, die, bin_count : as in
        :func:`~omaha_equity.studies.equity_distribution`.
    board_range : str
        A board range (:func:`~omaha_equity.boards.parse_board_range`).
    by : {"hand", "category"}
    options : RunOptions, optional
        Method, trials (boards per opponent hand), seed (run ``i``: ``seed + i``), threads.
    progress : callable, optional
        ``progress(done, total)`` after each run.

    Returns
    -------
    Covered
        Its ``result`` an ``EquityDistribution`` (items without exact fractions by hand; the
        mean equity exact when every run was).

    Raises
    ------
    InputError
        Anything ``equity_distribution`` refuses; ``by="next-card"`` (a next card follows one
        board); a bad board range, or one with no flop left by the hands.
    """
    from .distribution import BY_CATEGORY, BY_HAND, DistributionItem, equity_distribution, histogram

    if by not in (BY_HAND, BY_CATEGORY):
        raise InputError(f"the distribution over a board range is by hand or by category, not {quoted(by)}: "
                         "the next card follows one board")
    game = get_game(game, die)
    options = options or RunOptions()
    if not isinstance(hand, str) or not isinstance(opponent, str):
        raise InputError(f"expected player 1's hand and the opponent's range as text, got {quoted(hand)} and "
                         f"{quoted(opponent)}")
    runs = board_range_runs(board_range, game, [hand, opponent], dead)
    group = runs.group
    seed = first_seed(options)

    def run_one(number: int, orbit: Orbit):
        run_seed = None if seed is None else (seed + number) % (MAX_SEED + 1)
        return equity_distribution(hand, opponent, format_cards(orbit.cards), runs.dead_cards, game, by=by,
                                   bin_count=bin_count, method=options.method.value, trials=options.trials,
                                   seed=run_seed, threads=options.threads)

    done = run_each_orbit(runs, run_one, progress)
    weights = [orbit.weight for orbit, _ in done]
    flops = sum(weights)
    keys: list[Any] = []
    shares: list[np.ndarray] = []
    equity_sums: list[np.ndarray] = []
    variance_sums: list[np.ndarray] = []
    category_items: dict[str, list[float]] = {}
    methods = {result.method for _, result in done}
    trials = max((result.trials or 0 for _, result in done), default=0) or None
    first = done[0][1]
    for orbit, result in done:
        # each concrete flop weighs 1/flops; within it, the items' shares as the run gives them
        share = np.array([item.weight for item in result.items], dtype=np.float64) / flops
        equity = np.array([item.equity for item in result.items], dtype=np.float64)
        error = np.array([item.standard_error for item in result.items], dtype=np.float64)
        if by == BY_CATEGORY:
            for item, item_share, item_equity, item_error in zip(result.items, share, equity, error):
                sums = category_items.setdefault(item.label, [0.0, 0.0, 0.0, 0])
                sums[0] += orbit.weight * item_share
                sums[1] += orbit.weight * item_share * item_equity
                sums[2] += orbit.weight * (item_share * item_error) ** 2
                sums[3] += orbit.weight * item.hand_count
            continue
        cards = np.array([parse_cards(item.label) for item in result.items], dtype=np.int64)
        for renaming in _renamings_onto_members(orbit, group):
            renamed = (cards >> 2) * 4 + renaming[cards & 3]
            keys.append(np.bitwise_or.reduce(np.left_shift(np.uint64(1), renamed.astype(np.uint64)), axis=1))
            shares.append(share)
            equity_sums.append(share * equity)
            variance_sums.append((share * error) ** 2)
    mean_fractions = [result.equity_fraction for _, result in done]
    means = [result.equity for _, result in done]
    mean_fraction = _weighted_fraction(weights, mean_fractions)
    mean = float(mean_fraction) if mean_fraction is not None else _weighted_mean(weights, means)
    exact = methods == {plan.Method.EXACT.value}
    method = plan.Method.EXACT.value if exact else plan.Method.MONTE_CARLO.value
    items = []
    if by == BY_CATEGORY:
        for label, (item_weight, equity_sum, variance, hand_count) in category_items.items():
            items.append(DistributionItem(label=label, weight=float(item_weight),
                                          equity=float(equity_sum / item_weight), equity_fraction=None,
                                          standard_error=float(np.sqrt(variance) / item_weight),
                                          hand_count=int(hand_count)))
        from ..categories import names

        order = {name: index for index, name in enumerate(names.MADE_HANDS)}
        items.sort(key=lambda item: order.get(item.label, len(order)))
    else:
        all_keys = np.concatenate(keys)
        unique, inverse = np.unique(all_keys, return_inverse=True)
        share = np.bincount(inverse, weights=np.concatenate(shares))
        equity_sum = np.bincount(inverse, weights=np.concatenate(equity_sums))
        variance = np.bincount(inverse, weights=np.concatenate(variance_sums))
        for key, item_weight, item_equity_sum, item_variance in zip(unique.tolist(), share, equity_sum, variance):
            cards = [card for card in range(52) if key >> card & 1]
            items.append(DistributionItem(label=format_cards(cards, sort=True), weight=float(item_weight),
                                          equity=float(item_equity_sum / item_weight), equity_fraction=None,
                                          standard_error=float(np.sqrt(item_variance) / item_weight)))
        items.sort(key=lambda item: -item.equity)
    result = dataclasses.replace(first, board=runs.board_set.text, items=tuple(items), bins=histogram(items, bin_count),
                                 equity=mean, equity_fraction=mean_fraction, method=method,
                                 seed=None if exact else seed, trials=None if exact else trials)
    return Covered(result, runs.board_set.text, flops, len(runs.orbits))


def composition_over_board_range(
    expression: str, board_range: str, game: str | Game = "omaha", *, dead: CardsLike = "", vs: str | None = None,
    die: int | None = None, options: RunOptions | None = None, progress: ProgressCallback | None = None,
) -> Covered:
    """What the range holds on the flops of ``board_range``: every row of ``hits`` pooled over
    the concrete flops (as the ``flops`` command's last row pools them).

    A row's ``combinations`` are its hand combinations summed over every concrete flop; its share
    is its weight over the range's, each flop's figures weighted by the range's hand combinations
    on it; with ``vs``, its equity is the mean of the flops' equities weighted the same way.

    Parameters
    ----------
    expression, dead, vs, game, die : as in :func:`~omaha_equity.studies.range_composition`.
    board_range : str
        A board range (:func:`~omaha_equity.boards.parse_board_range`).
    options : RunOptions, optional
        With ``vs``: method, trials and seed of each run (run ``i``: ``seed + i``).
    progress : callable, optional
        ``progress(done, total)`` after each run.

    Returns
    -------
    Covered
        Its ``result`` a ``Composition`` (no exact fractions; ``board`` the board range).

    Raises
    ------
    InputError
        Anything ``range_composition`` refuses; a bad board range, or one with no flop on which
        the range holds a hand.
    """
    from .hits import CategoryRow, range_composition

    game = get_game(game, die)
    options = options or RunOptions()
    texts = [expression] if isinstance(expression, str) else []
    if isinstance(vs, str):
        texts.append(vs)
    runs = board_range_runs(board_range, game, texts, dead)
    seed = first_seed(options) if vs is not None else None

    def run_one(number: int, orbit: Orbit):
        run_seed = None if seed is None else (seed + number) % (MAX_SEED + 1)
        return range_composition(expression, format_cards(orbit.cards), game, dead=runs.dead_cards, vs=vs,
                                 method=options.method.value, trials=options.trials, seed=run_seed)

    done = run_each_orbit(runs, run_one, progress)
    # rows keyed by where they sit and what they select; their order: first seen, sections kept
    pooled: dict[tuple, list[Any]] = {}
    total_combinations = 0
    for orbit, composition in done:
        total_combinations += orbit.weight * composition.combinations
        scale = orbit.weight * composition.combinations
        for row in composition.rows:
            key = (row.section, row.name, row.level, row.terms, row.excluded_terms)
            sums = pooled.setdefault(key, [row, 0, 0.0, 0.0, 0.0, 0.0, len(pooled)])
            sums[1] += orbit.weight * row.combinations
            sums[2] += scale * row.share
            if row.equity is not None:
                sums[3] += scale * row.share * row.equity
                sums[4] += scale * row.share
                sums[5] += (scale * row.share * (row.standard_error or 0.0)) ** 2
    rows = []
    for row, combinations, share_sum, equity_sum, equity_weight, variance, _ in _ordered_rows(pooled):
        equity = equity_sum / equity_weight if equity_weight else None
        rows.append(CategoryRow(
            section=row.section, name=row.name, level=row.level, terms=row.terms, excluded_terms=row.excluded_terms,
            combinations=combinations, share=share_sum / total_combinations, equity=equity, equity_fraction=None,
            standard_error=float(np.sqrt(variance)) / equity_weight if equity_weight else None,
            vs_equity=None if equity is None else 1.0 - equity))
    methods = {composition.method for _, composition in done if composition.method is not None}
    method = None
    if methods:
        method = plan.Method.EXACT.value if methods == {plan.Method.EXACT.value} else plan.Method.MONTE_CARLO.value
    first = done[0][1]
    result = dataclasses.replace(first, board=runs.board_set.text, rows=tuple(rows), combinations=total_combinations,
                                 method=method, seed=seed if method == plan.Method.MONTE_CARLO.value else None)
    return Covered(result, runs.board_set.text, sum(orbit.weight for orbit, _ in done), len(runs.orbits))


def _ordered_rows(pooled: dict[tuple, list[Any]]) -> list[list[Any]]:
    """The pooled rows in the order ``hits`` gives them: the made hands (each followed by its
    draw rows, by flush draw, then straight draw, then boat draw), the nut status, the lows (each
    followed by its counterfeit rows)."""
    from ..categories import names
    from .hits import BOAT_PARTS, FLUSH_PARTS, LOW_SECTION, MADE_SECTION, STRAIGHT_PARTS

    sections = {MADE_SECTION: 0, LOW_SECTION: 2}
    order = {MADE_SECTION: names.MADE_HANDS, LOW_SECTION: names.LOW_CLASSES}
    flush_terms = [term for _, term in FLUSH_PARTS]
    straight_terms = [term for _, term in STRAIGHT_PARTS]
    boat_term = BOAT_PARTS[0][1]

    def part(terms, known) -> int:
        return next((known.index(term) for term in terms if term in known), len(known))

    def sort_key(entry):
        (section, _, level, terms, _), sums = entry
        known = order.get(section, ())
        parent = known.index(terms[0]) if terms and terms[0] in known else sums[6]
        draws = (part(terms, flush_terms), part(terms, straight_terms), 0 if boat_term in terms else 1,
                 0 if "counterfeit-risk" in terms else 1)
        return (sections.get(section, 1), parent, level, draws, sums[6])

    return [sums for _, sums in sorted(pooled.items(), key=sort_key)]
