"""Equity over a board range: every flop of ``AK*``, ``Ks**`` or ``$mono`` with the same hands,
the typed core run once per orbit of the suit renamings the query keeps and the results combined,
each concrete flop weighing the same (a flop dealt at random from the board range).

``calc HANDS -b BOARDRANGE`` is this function's job; ``flops`` (:mod:`.flops`) is the per-flop
view with categories.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..boards import orbits, parse_board_range, suit_group
from ..cards import format_cards, parse_cards
from ..deal import CardsLike, parse_board_and_dead
from ..equity import plan
from ..equity.calculate import run_equity
from ..equity.query import RunOptions, seat_cards
from ..errors import InputError, quoted
from ..games import Game, get_game
from ..ranges import is_specific_hand
from ..validate import MAX_SEED, check_hands
from .flops import written_suits


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
    standard_error : float
        0.0 when exact.
    """

    hand: str
    equity: float
    equity_fraction: Fraction | None
    win: float
    tie: float
    standard_error: float


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


def equity_over_board_range(
    hands: Sequence[str],
    board_range: str,
    game: str | Game = "omaha",
    *,
    dead: CardsLike = "",
    die: int | None = None,
    options: RunOptions | None = None,
    progress: Callable[[int, int], None] | None = None,
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
        Method, trials (per flop run), seed; each run is planned on its own (``auto``: exact
        where the planner's budget allows).
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
    _, dead_cards = parse_board_and_dead("", dead or "")
    board_set = parse_board_range(board_range)
    fixed = {card & 3 for card in dead_cards}
    taken = set(dead_cards)
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
    run_orbits = orbits(flop_indexes, suit_group(fixed))
    seed = None
    if options.method != plan.Method.EXACT:
        seed = plan.draw_seed() if options.seed is None else options.seed
    weights = []
    results = []
    for number, orbit in enumerate(run_orbits):
        run_seed = None if seed is None else (seed + number) % (MAX_SEED + 1)
        run = RunOptions(options.method, options.trials, options.precision, run_seed, options.threads)
        results.append(run_equity(seat_cards(list(hands), orbit.cards, dead_cards, game), run))
        weights.append(orbit.weight)
        if progress is not None:
            progress(number + 1, len(run_orbits))
    total = sum(weights)
    exact = all(result.method == plan.Method.EXACT.value for result in results)
    players = []
    for index in range(len(hands)):
        figures = [result.players[index] for result in results]
        equity_fraction = sum((Fraction(weight) * player.equity_fraction for weight, player in zip(weights, figures)),
                              Fraction(0)) / total if exact else None
        players.append(BoardRangePlayer(
            hand=figures[0].hand,
            equity=float(equity_fraction) if exact else sum(w * p.equity for w, p in zip(weights, figures)) / total,
            equity_fraction=equity_fraction,
            win=sum(w * p.win for w, p in zip(weights, figures)) / total,
            tie=sum(w * p.tie for w, p in zip(weights, figures)) / total,
            standard_error=0.0 if exact else float(np.sqrt(sum((w * (p.standard_error or 0.0)) ** 2
                                                               for w, p in zip(weights, figures)))) / total,
        ))
    method = plan.Method.EXACT.value if exact else plan.Method.MONTE_CARLO.value
    return BoardRangeEquity(game=game, board_range=board_set.text, dead=format_cards(dead_cards, sort=True),
                            players=tuple(players), flops=total, runs=len(run_orbits), method=method,
                            seed=None if exact else seed)
