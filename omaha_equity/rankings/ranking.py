"""Starting-hand rankings: our own preflop ranking of every hand, for percent ranges.

Each ranked game has two rankings, ``full-ring`` and ``6-handed`` (:mod:`.store` gives the
opponent counts: 8 opponents for 4- and 5-card games, 6 for 6-card games, whose deck deals
at most 7 hands; 5 opponents 6-handed). A ranking orders the hands up to suit isomorphism
(:mod:`.classes`) by their equity against that many random hands on a random board, estimated
by Monte Carlo with the package's own evaluator (``scripts/generate_rankings.py``; the method,
sample count and seed are in each file's header, see :func:`ranking_info`). Classes with
equal stored equity keep class order, so the order is total and reproducible.

Percent is counted in concrete hands: with ``N = C(52, hole_count)`` hands, a class whose better
classes hold ``start`` hands covers the percent interval ``[100 * start / N, 100 * (start +
size) / N)``. The *boundary rule*: a class belongs to the band ``low%-high%`` when its start
lies in ``[low, high)``, i.e. a class straddling a bound goes to the band where it starts. So
``15%`` holds the best classes until at least 15% of the hands are covered (at most one class,
24 hands or fewer, more), and adjacent bands ``0-5%``, ``5-10%`` are disjoint with union ``0-10%``.

Which ranking a game uses: the six ranked games (``omaha``, ``omaha8``, ``omaha5``,
``omaha5-8``, ``omaha6``, ``omaha6-8``) their own; every other game the one of its shape
(hole-card count, hi or hi/lo): Binglao the ranking of the game its die picks; Courchevel
(hi/lo) the 5-card Omaha (hi/lo) ranking. For Courchevel that is exact for the hand before the
first flop card is exposed (the exposed card is one of the five board cards, dealt at random
like the others), and it does not condition on that card.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from math import comb

import numpy as np

from ..cards import format_cards, parse_cards
from ..deal import hole_count_error
from ..errors import InputError, quoted
from ..games import Game, get_game
from . import store

__all__ = [
    "CANONICAL_MAX_HANDS", "HandRanking", "RankingInfo", "canonical_percent_range", "hand_percentile", "hand_ranking",
    "percent_range", "ranking_game_name", "ranking_info",
]


@dataclass(frozen=True)
class RankingInfo:
    """What a ranking file's header says about how it was made.

    Attributes
    ----------
    game : str
        The ranked game, e.g. ``"omaha8"`` (Courchevel and Binglao use another game's ranking).
    table : str
        ``"full-ring"`` or ``"6-handed"``.
    player_count, opponent_count : int
        Players at the table, and random opponents of the ranked hand (``player_count - 1``).
    hole_count : int
    hilo : bool
    class_count, hand_count : int
        Hands up to suit isomorphism, and concrete hands (C(52, hole_count)).
    sample_count : int
        Monte Carlo deals (opponent hands and board) per class.
    seed : int
        Seed of the kernel (class ``i`` draws from the stream of ``(seed, i)``).
    base_seed : int
        The script's ``--seed``, from which ``seed`` is derived.
    method : str
        How equity was estimated, in words.
    mean_standard_error : float
        Average over classes of the standard error of the equity estimate (fraction of the pot).
    generation_seconds : float
        Wall time to generate this file, and ``threads`` the kernel threads used.
    threads : int
    script, script_version : str, int
        The generator (``scripts/generate_rankings.py``) and its version.
    created : str
        UTC date and time of generation (ISO 8601).
    """

    game: str
    table: str
    player_count: int
    opponent_count: int
    hole_count: int
    hilo: bool
    class_count: int
    hand_count: int
    sample_count: int
    seed: int
    base_seed: int
    method: str
    mean_standard_error: float
    generation_seconds: float
    threads: int
    script: str
    script_version: int
    created: str


@dataclass(frozen=True)
class HandRanking:
    """Where one hand stands in a ranking (:func:`hand_ranking`).

    Attributes
    ----------
    hand : str
        The hand, canonical text (``AsAhKsKh``).
    percentile : float
        Percent 0..100 of all hands ranked at least as good (its own class included).
    better_percent : float
        Percent of hands ranked strictly better: the hand is in ``P%`` exactly when
        ``better_percent < P``.
    equity : float
        Estimated equity (fraction of the pot, 0..1) against the table's random opponents.
    class_rank : int
        1 for the best class.
    class_count, class_size : int
        Classes in the ranking, and hands in this hand's class (suit relabellings).
    info : RankingInfo
    """

    hand: str
    percentile: float
    better_percent: float
    equity: float
    class_rank: int
    class_count: int
    class_size: int
    info: RankingInfo


def ranking_game_name(game: str | Game) -> str:
    """The ranked game whose ranking ``game`` uses (see the module docstring).

    Raises
    ------
    InputError
        Unknown game, or a game of a shape with no ranking.
    """
    game = get_game(game)
    name = store.RANKED_GAMES.get((game.hole_count, game.hilo))
    if name is None:
        raise InputError(
            f"no starting-hand ranking for {game.name} ({game.hole_count} hole cards): rankings exist for "
            f"{', '.join(store.RANKED_GAMES.values())}"
        )
    return name


@dataclass(frozen=True)
class _Ranking:
    hole_count: int
    equity: np.ndarray  # (class_count,) uint16, class order
    order: np.ndarray  # (class_count,) int64, class indexes best first
    places: np.ndarray  # (class_count,) int64, place (0 = best) of each class
    starts: np.ndarray  # (class_count + 1,) int64, hands in better classes, by place
    info: RankingInfo


@functools.cache
def _load(name: str, table: str) -> _Ranking:
    from . import classes  # noqa: PLC0415 (lazy: numba)

    path = store.ranking_path(name, table)
    try:
        equity, header = store.read_ranking(path)
    except OSError as error:
        raise InputError(
            f"no starting-hand ranking for {name} ({table}): cannot read {path.name} ({error}); "
            f"generate it with scripts/generate_rankings.py"
        ) from None
    hole_count = header["hole_count"]
    keys = classes.class_keys(hole_count)
    if header.get("format") != store.FORMAT_VERSION or len(equity) != len(keys) or (
        header["class_keys_digest"] != classes.class_keys_digest(hole_count)
    ):
        raise InputError(f"ranking file {path.name} does not match this version's class order; regenerate it")
    order = np.argsort(-equity.astype(np.int64), kind="stable")
    places = np.empty_like(order)
    places[order] = np.arange(len(order))
    starts = np.zeros(len(order) + 1, dtype=np.int64)
    np.cumsum(classes.class_sizes(hole_count)[order], out=starts[1:])
    info = RankingInfo(**{field: header[field] for field in RankingInfo.__dataclass_fields__})
    for array in (equity, order, places, starts):
        array.flags.writeable = False
    return _Ranking(hole_count, equity, order, places, starts, info)


@functools.cache
def _sorted_hands(name: str, table: str) -> np.ndarray:
    """Every hand, best class first: ``(C(52, k), k) int8``, read-only (built on first use:
    0.1 s for 4 cards, about 1 s and 122 MB for 6 cards)."""
    from . import classes  # noqa: PLC0415

    ranking = _load(name, table)
    hands = classes.expand(ranking.hole_count, ranking.order)
    hands.flags.writeable = False
    return hands


@functools.cache
def _canonical_positions(name: str, table: str) -> np.ndarray:
    """Each hand's canonical position, in ranking order (:func:`_sorted_hands`): ``(C(52, k),)
    int32``, ``C(52, k) - 1 - colex rank`` of its cards ascending, so position 0 is
    ``AsAhAd...`` and positions ascend as rows descend lexicographically."""
    hands = _sorted_hands(name, table)
    hole_count = hands.shape[1]
    colex = np.zeros(hands.shape[0], dtype=np.int64)
    for position in range(hole_count):
        # the rows are descending: the card at ascending position p is column k - 1 - p
        cards = hands[:, hole_count - 1 - position].astype(np.int64)
        binomials = np.array([comb(card, position + 1) for card in range(52)], dtype=np.int64)
        colex += binomials[cards]
    positions = (comb(52, hole_count) - 1 - colex).astype(np.int32)
    positions.flags.writeable = False
    return positions


@functools.cache
def _canonical_hands(name: str, table: str) -> np.ndarray:
    """Every hand in canonical order (row ``i`` holds canonical position ``i``): ``(C(52, k),
    k) int8``, read-only."""
    hands = _sorted_hands(name, table)
    canonical = np.empty_like(hands)
    canonical[_canonical_positions(name, table)] = hands
    canonical.flags.writeable = False
    return canonical


def _ranking_for(game, six_handed: bool) -> _Ranking:
    if not isinstance(six_handed, (bool, np.bool_)):
        raise InputError(f"six_handed must be True or False, got {quoted(six_handed)}")
    return _load(ranking_game_name(game), store.table_name(bool(six_handed)))


def _check_percent(value, label: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InputError(f"bad {label} percent {quoted(value)}: expected a number 0..100")
    value = float(value)
    if not math.isfinite(value) or not 0 <= value <= 100:
        raise InputError(f"bad {label} percent {quoted(value)}: expected a number 0..100")
    return value


def percent_range(game: str | Game, low_percent: float, high_percent: float, six_handed: bool = False) -> np.ndarray:
    """The hands ranked between the top ``low_percent`` and the top ``high_percent`` percent.

    Parameters
    ----------
    game : str or Game
        Any game (:func:`ranking_game_name` says which ranking it uses).
    low_percent, high_percent : float
        Percent bounds, ``0 <= low_percent < high_percent <= 100``, counted in concrete hands;
        a class goes to the band where it starts (module docstring, "boundary rule").
    six_handed : bool
        The 6-handed ranking instead of the full-ring one.

    Returns
    -------
    (n, hole_count) int8
        Cards ``rank * 4 + suit``, each row descending; best class first, all suit variants of
        a class together. Read-only (copy it to modify it): a view of a cached array, or for a
        ranking of more than ``CANONICAL_MAX_HANDS`` hands the slice's classes expanded anew.

    Raises
    ------
    InputError
        A game without a ranking, bad percents.
    """
    ranking, start, stop = _percent_slice(game, low_percent, high_percent, six_handed)
    if ranking.starts[-1] <= CANONICAL_MAX_HANDS:
        return _sorted_hands(ranking.info.game, ranking.info.table)[start:stop]
    # a big ranking (6 cards: 20,358,520 hands, 122 MB) expands the slice's classes only
    from . import classes  # noqa: PLC0415 (lazy: numba)

    first, last = _class_places(ranking, start, stop)
    hands = classes.expand(ranking.hole_count, ranking.order[first:last])
    hands.flags.writeable = False
    return hands


def _class_places(ranking: _Ranking, start: int, stop: int) -> tuple[int, int]:
    """The places ``first:last`` of the classes whose hands are the rows ``start:stop`` of the
    ranking's hands (slice bounds fall on class starts)."""
    return (int(np.searchsorted(ranking.starts, start, side="left")),
            int(np.searchsorted(ranking.starts, stop, side="left")))


def _percent_slice(game, low_percent, high_percent, six_handed: bool) -> tuple[_Ranking, int, int]:
    """The ranking and the rows ``start:stop`` of its hands (best class first) that
    :func:`percent_range` returns; raises as it does."""
    low = _check_percent(low_percent, "low")
    high = _check_percent(high_percent, "high")
    if not low < high:
        raise InputError(f"bad percent range {quoted(low_percent)}%-{quoted(high_percent)}%: expected low < high")
    ranking = _ranking_for(game, six_handed)
    hand_count = int(ranking.starts[-1])
    # the bounds are fractions of hands: searched among the starts as floats (exact below 2**53),
    # converted once, not on every search
    starts = _float_starts(ranking.info.game, ranking.info.table)
    first = int(np.searchsorted(starts, _hand_bound(low, hand_count), side="left"))
    stop = int(np.searchsorted(starts, _hand_bound(high, hand_count), side="left"))
    return ranking, int(ranking.starts[first]), int(ranking.starts[stop])


@functools.cache
def _float_starts(name: str, table: str) -> np.ndarray:
    """The ranking's ``starts`` as float64, read-only."""
    starts = _load(name, table).starts.astype(np.float64)
    starts.flags.writeable = False
    return starts


# Rankings of at most this many hands (4 and 5 hole cards: 270,725 and 2,598,960) keep every
# hand's canonical position, so that a percent range comes out in canonical order by sorting
# the positions of its slice (a 5% range of 4-card hands: about 0.1 ms, where sorting its
# 13,500 hands took 0.3 ms). For 6 cards (20,358,520 hands) the tables would cost
# 200 MB and a second to build: :func:`canonical_percent_range` declines there.
CANONICAL_MAX_HANDS = 3_000_000


def canonical_percent_range(game: str | Game, low_percent: float, high_percent: float,
                            six_handed: bool = False) -> np.ndarray | None:
    """:func:`percent_range`'s hands in the canonical order of ``ranges`` (rows descending
    lexicographically, ``AsAhAdAc`` first, each row descending), or None for a ranking of more
    than ``CANONICAL_MAX_HANDS`` hands (sort :func:`percent_range`'s rows then).

    Returns
    -------
    (n, hole_count) int8, a new array; None as said. Raises as :func:`percent_range`.
    """
    ranking, start, stop = _percent_slice(game, low_percent, high_percent, six_handed)
    if ranking.starts[-1] > CANONICAL_MAX_HANDS:
        return None
    from . import _class_kernels  # noqa: PLC0415 (lazy: numba)

    positions = _canonical_positions(ranking.info.game, ranking.info.table)[start:stop]
    table = _canonical_hands(ranking.info.game, ranking.info.table)
    rows = np.empty((stop - start, table.shape[1]), dtype=table.dtype)
    _class_kernels.rows_in_position_order(positions, table, rows)
    return rows


def _hand_bound(percent: float, hand_count: int) -> float:
    """``percent`` of ``hand_count`` hands, snapped to the nearest whole hand when within
    floating-point error of it, so a bound computed as ``100 * start / hand_count`` (like
    :attr:`HandRanking.better_percent`) means exactly ``start``."""
    bound = percent * hand_count / 100
    nearest = round(bound)
    return float(nearest) if abs(bound - nearest) < 1e-6 else bound


def _hand_array(game: Game, hand_cards) -> np.ndarray:
    cards = parse_cards(hand_cards)
    text = hand_cards if isinstance(hand_cards, str) else format_cards(cards)
    if len(cards) != game.hole_count:
        raise hole_count_error(game, len(cards), text)
    if len(set(cards)) != len(cards):
        raise InputError(f"duplicate card in {quoted(text)}: expected {game.hole_count} different cards")
    return np.array([sorted(cards, reverse=True)], dtype=np.int64)


def hand_ranking(game: str | Game, hand_cards, six_handed: bool = False) -> HandRanking:
    """Where a hand stands in the game's ranking: percentile, equity, class rank.

    Parameters
    ----------
    game : str or Game
    hand_cards : str or sequence of card ints or tokens
        The hole cards, e.g. ``"AsAhKsKh"``.
    six_handed : bool

    Raises
    ------
    InputError
        A game without a ranking, a card that is not a card, a wrong card count, a repeat.
    """
    from . import classes  # noqa: PLC0415

    game = get_game(game)
    ranking = _ranking_for(game, six_handed)
    hand = _hand_array(game, hand_cards)
    class_index = int(classes.class_indexes(hand)[0])
    place = int(ranking.places[class_index])
    hand_count = comb(52, game.hole_count)
    return HandRanking(
        hand=format_cards(hand[0].tolist()),
        percentile=100.0 * int(ranking.starts[place + 1]) / hand_count,
        better_percent=100.0 * int(ranking.starts[place]) / hand_count,
        equity=int(ranking.equity[class_index]) / store.EQUITY_SCALE,
        class_rank=place + 1,
        class_count=len(ranking.order),
        class_size=int(ranking.starts[place + 1] - ranking.starts[place]),
        info=ranking.info,
    )


def hand_percentile(game: str | Game, hand_cards, six_handed: bool = False) -> float:
    """Percent 0..100 of all hands ranked at least as good as ``hand_cards`` (its class
    included): small is strong, ``AsAhKsKh`` is about 0.01 in Omaha.

    Consistent with :func:`percent_range`: the hand is in ``percent_range(game, 0, P)`` for
    every ``P >= hand_percentile(...)``, and in no ``percent_range(game, 0, P)`` with
    ``P <= hand_ranking(...).better_percent``. Raises :class:`InputError` as
    :func:`hand_ranking` does.
    """
    return hand_ranking(game, hand_cards, six_handed).percentile


def ranking_info(game: str | Game, six_handed: bool = False) -> RankingInfo:
    """The header of the ranking ``game`` uses: method, opponents, samples, seed, timing.

    Raises
    ------
    InputError
        A game without a ranking.
    """
    return _ranking_for(game, six_handed).info
