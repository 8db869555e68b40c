"""Many small exact queries of fixed hands at once: spots of one shape, one kernel call.

A *spot* is an equity query whose every hand is written in full, answered exactly, with few
boards left to deal (a flop, a turn or a river: at most :data:`MAX_SPOT_BOARDS` completions).
Such a query spends far more time in Python (seating, planning, building each player's lookup
rows, wrapping the result) than in its kernel. Here spots are checked with the same parsers
(:func:`plain_spot`: anything it is not sure of is left to ``calculate_equity``, which says what
is wrong), grouped by shape (:attr:`Spot.shape`: game, players, known board and dead cards) and
each group scored by one call of ``_many_spots_kernels.enumerate_spots`` (:func:`spot_counts`).
:func:`spot_result` makes the :class:`~omaha_equity.equity.results.equity.EquityResult` that
``calculate_equity`` returns for the same query, equal field for field.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

import numpy as np

from ..cards import DECK_SIZE, format_cards, parse_cards
from ..deal import parse_board_and_dead
from ..errors import InputError
from ..games import BOARD_SIZE, Game, get_game
from ..pots import pot_units
from .counters import STAT_COUNT
from .plan import Method
from .results.equity import EquityResult, PlayerEquity

# The games a spot can be: every hand of two hole cards and three board cards, scored by the
# tables (Courchevel's exposed card and Binglao's die are left to ``calculate_equity``).
SPOT_GAMES = frozenset({"omaha", "omaha8", "omaha5", "omaha5-8", "omaha6", "omaha6-8"})
# Completions of a spot's board at most (a heads-up flop has 820, a 3-way one 741): beyond,
# ``fixed._kernels.enumerate_boards`` (rows built once, outcomes tallied) is the faster kernel.
MAX_SPOT_BOARDS = 2_000


@dataclass(frozen=True)
class Spot:
    """One exact query of fixed hands, checked (:func:`plain_spot`).

    Attributes
    ----------
    game : Game
    hands : tuple of tuple of int
        Each player's hole cards as written (``game.hole_count`` each).
    board, dead : tuple of int
        Known board cards (dealing order) and dead cards.
    """

    game: Game
    hands: tuple[tuple[int, ...], ...]
    board: tuple[int, ...]
    dead: tuple[int, ...]

    @property
    def shape(self) -> tuple[str, int, int, int]:
        """What spots scored by one kernel call share: game, players, board and dead cards."""
        return self.game.name, len(self.hands), len(self.board), len(self.dead)

    @property
    def board_count(self) -> int:
        """Completions of the board."""
        return spot_board_count(len(self.hands) * self.game.hole_count + len(self.board) + len(self.dead),
                                len(self.board))


def spot_board_count(known_count: int, board_count: int) -> int:
    """Completions of a board of ``board_count`` cards with ``known_count`` cards out of the deck."""
    return comb(DECK_SIZE - known_count, BOARD_SIZE - board_count)


def plain_spot(hands: Sequence[object], board: object, dead: object, game: Game) -> Spot | None:
    """The :class:`Spot` of a query, or None when it is not one (a range, a partial or random
    hand, a card twice, too many players or boards, another game) or when anything about it
    is doubtful: ``calculate_equity`` then answers it, or says what is wrong."""
    if game.name not in SPOT_GAMES or not 2 <= len(hands) or not isinstance(board, str) \
            or not isinstance(dead, str):
        return None
    hole_count = game.hole_count
    seated = []
    try:
        for hand in hands:
            if not isinstance(hand, str):
                return None
            text = hand.strip()
            if not text or text == "*":
                return None
            cards = parse_cards(text)
            if len(cards) != hole_count:
                return None
            seated.append(cards)
        board_cards, dead_cards = parse_board_and_dead(board, dead)
    except InputError:
        return None
    known = [card for cards in seated for card in cards]
    known += board_cards
    known += dead_cards
    if len(set(known)) < len(known) or len(seated) * hole_count + BOARD_SIZE + len(dead_cards) > DECK_SIZE:
        return None
    if spot_board_count(len(known), len(board_cards)) > MAX_SPOT_BOARDS:
        return None
    return Spot(game, tuple(seated), board_cards, dead_cards)


@functools.lru_cache(maxsize=64)
def _spot_game(name: str) -> Game | None:
    """The game of a name or alias, kept per name; None for a name ``games.get_game`` refuses."""
    try:
        return get_game(name)
    except InputError:
        return None


@functools.cache
def _outcomes_fit(player_count: int, hilo: bool) -> bool:
    """Whether the fixed-hand exact kernel tallies the outcomes of this many players
    (``fixed._kernels.OUTCOME_BITS``): the whole way answers the others with the hand lists."""
    from .fixed._kernels import OUTCOME_BITS, outcome_key_bits

    return outcome_key_bits(player_count, hilo) <= OUTCOME_BITS


def query_spot(hands: object, board: object, dead: object, game: object) -> Spot | None:
    """The :class:`Spot` of a query as ``calculate_equity`` takes it (hands as a list or tuple
    of text, board and dead cards as text, a game name or :class:`Game`) when the whole way would
    score it with the fixed-hand kernels, so that :func:`spot_equity` gives its very result;
    else None (:func:`plain_spot`)."""
    if not isinstance(hands, (list, tuple)):
        return None
    chosen = game if isinstance(game, Game) else _spot_game(game) if isinstance(game, str) else None
    if chosen is None or not _outcomes_fit(len(hands), chosen.hilo):
        return None
    return plain_spot(hands, board, dead, chosen)


def spot_counts(spots: Sequence[Spot]) -> tuple[np.ndarray, np.ndarray]:
    """The counts of spots of one shape (:attr:`Spot.shape`), one kernel call.

    Returns
    -------
    counts : (spot_count, player_count, STAT_COUNT) int64
        Each spot's counts (``counters`` layout: equity in pot units, the rest in boards).
    low_boards : (spot_count,) int64
        Boards on which some player has a qualifying low.

    Raises
    ------
    ValueError
        Spots of different shapes (a programming error).
    """
    from ._many_spots_kernels import enumerate_spots

    first = spots[0]
    if any(spot.shape != first.shape for spot in spots):
        raise ValueError("spot_counts needs spots of one shape")
    spot_count, player_count = len(spots), len(first.hands)
    hole_cards = np.array([spot.hands for spot in spots], dtype=np.int8).reshape(
        spot_count, player_count, first.game.hole_count)
    board_cards = np.array([spot.board for spot in spots], dtype=np.int8).reshape(spot_count, len(first.board))
    dead_cards = np.array([spot.dead for spot in spots], dtype=np.int8).reshape(spot_count, len(first.dead))
    return enumerate_spots(hole_cards, board_cards, dead_cards, *_kernel_tables("enumerate_spots"), first.game.hilo,
                           _pot_units(player_count, first.game.hilo))


@functools.cache
def _kernel_tables(kernel_name: str) -> tuple[np.ndarray, ...]:
    """The evaluator's tables the spot kernels read (``colex, pair_board, flush, low``), loaded
    once, with the first-use notice of the kernel about to read them (only that one: a shell
    that never runs a batch never compiles ``enumerate_spots``) and the folder's marker
    (``runtime.cache``)."""
    from ..evaluate.tables import load_tables  # numba and the tables only when spots are scored
    from ..runtime import cache

    tables = load_tables()
    cache.announce_compiling((kernel_name,))
    cache.mark_in_use()
    return tables.colex, tables.pair_board, tables.flush, tables.low


# pots.pot_units of (players, hi/lo), worked out once per shape (an lcm per query costs more than
# the river's one board)
_pot_units = functools.cache(pot_units)


def one_spot_counts(spot: Spot) -> list[int]:
    """One spot's counts from one call of the fused kernel ``_many_spots_kernels.one_spot``
    (its cards in one array, its counts in one array back).

    Returns
    -------
    list of int, player_count * STAT_COUNT + 1 long
        Each player's counts in ``counters`` layout one after another (equity in pot units,
        :func:`spot_units`; the rest in boards, :attr:`Spot.board_count` in all), then the
        boards on which some player has a qualifying low.
    """
    one_spot = _one_spot_kernel()
    game = spot.game
    player_count = len(spot.hands)
    cards = [card for hand in spot.hands for card in hand]
    cards += spot.board
    cards += spot.dead
    return one_spot(np.array(cards, dtype=np.int8), player_count, game.hole_count, len(spot.board),
                    *_kernel_tables("one_spot"), game.hilo, _pot_units(player_count, game.hilo)).tolist()


@functools.cache
def _one_spot_kernel():
    """``_many_spots_kernels.one_spot``, imported once (numba loads on the first spot; an import
    statement run on every query would cost a tenth of a river query)."""
    from ._many_spots_kernels import one_spot

    return one_spot


def spot_units(spot: Spot) -> int:
    """The pot units a spot's equity counts are in (``pots.pot_units`` of its players and game)."""
    return _pot_units(len(spot.hands), spot.game.hilo)


def spot_equity(spot: Spot) -> EquityResult:
    """The result ``calculate_equity`` gives for one spot (:func:`one_spot_counts`)."""
    values = one_spot_counts(spot)
    rows = [values[start:start + STAT_COUNT] for start in range(0, len(spot.hands) * STAT_COUNT, STAT_COUNT)]
    return spot_result(spot, rows, values[-1])


def spot_result(spot: Spot, counts: Sequence[Sequence[int]], low_boards: int) -> EquityResult:
    """The result ``calculate_equity`` gives for the spot, from its counts (:func:`spot_counts`:
    ``counts`` (player_count, STAT_COUNT) as lists of ints, or an array)."""
    game, player_count = spot.game, len(spot.hands)
    board_count = spot_board_count(player_count * game.hole_count + len(spot.board) + len(spot.dead),
                                   len(spot.board))
    units = _pot_units(player_count, game.hilo)
    hands = tuple([format_cards(cards, sort=True) for cards in spot.hands])
    rows = counts.tolist() if isinstance(counts, np.ndarray) else counts
    return EquityResult(
        game=game, hands=hands, board=format_cards(spot.board), dead=format_cards(spot.dead, sort=True),
        method=Method.EXACT, sample_count=board_count, seed=None,
        players=tuple([PlayerEquity.from_counts(hand, row if isinstance(row, list) else list(row), units,
                                                board_count, board_count)
                       for hand, row in zip(hands, rows)]),
        low_board_count=int(low_boards), weight_total=board_count, hand_combinations=1, board_count=board_count,
    )
