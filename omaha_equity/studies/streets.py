"""Equity street by street: pre-flop, flop, turn and river as the board cards come.

Each street is one equity query (``equity.calculate.run_equity``) on the board dealt so far,
the players seated once and re-seated street by street (``SeatedQuery.on_board``), with the
same options (exact when that street's plan is exact, Monte Carlo otherwise) and one seed for
every street, so the whole run repeats with ``seed``. In Courchevel the first flop
card is exposed before the first betting round (``docs/rules.md``), so its pre-flop street
already shows that card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..cards import format_cards
from ..deal import CardsLike, parse_board_and_dead
from ..equity import plan
from ..equity.calculate import run_equity
from ..equity.plan import Method
from ..equity.query import RunOptions, SeatedQuery, seat_cards
from ..equity.results.equity import EquityResult
from ..errors import InputError, quoted
from ..games import Game, get_game
from ..validate import check_hands

PREFLOP, FLOP, TURN, RIVER = "preflop", "flop", "turn", "river"
STREETS = (PREFLOP, FLOP, TURN, RIVER)


@dataclass(frozen=True)
class StreetEquity:
    """Every player's equity on one street.

    Attributes
    ----------
    street : str
        ``"preflop"``, ``"flop"``, ``"turn"`` or ``"river"``.
    result : EquityResult
        The equity with the board dealt so far (``result.board``).
    """

    street: str
    result: EquityResult


@dataclass(frozen=True)
class StreetsResult:
    """Equity on each street up to the board given.

    Attributes
    ----------
    game, hands : Game, tuple of str
        The game and each player's hand or range, as in :class:`~omaha_equity.EquityResult`.
    board, dead : str
        The whole board given (3 to 5 cards) and the dead cards.
    seed : int or None
        The Monte Carlo seed every street used (None when every street was exact).
    streets : tuple of StreetEquity
        Pre-flop first; as many streets as the board reaches (a flop gives pre-flop and flop).
    """

    game: Game
    hands: tuple[str, ...]
    board: str
    dead: str
    seed: int | None
    streets: tuple[StreetEquity, ...]


def street_boards(board_cards: tuple[int, ...], game: Game) -> list[tuple[str, tuple[int, ...]]]:
    """``[(street, board so far), ...]`` for a board of 3 to 5 cards.

    Raises
    ------
    InputError
        Fewer than 3 board cards.
    """
    if len(board_cards) < 3:
        shown = f" in {format_cards(board_cards)!r}" if board_cards else ""
        raise InputError(f"equity by street needs a board: expected 3 to 5 board cards (a flop at least), "
                         f"got {len(board_cards)}{shown}")
    preflop = board_cards[:1] if game.exposed_first_flop_card else ()
    boards = [(PREFLOP, preflop), (FLOP, board_cards[:3]), (TURN, board_cards[:4]), (RIVER, board_cards[:5])]
    return boards[:len(board_cards) - 1]


def equity_by_street(
    hands: Sequence[CardsLike], board: CardsLike, dead: CardsLike = "", game: str | Game = "omaha", *,
    die: int | None = None,
    method: str = "auto", trials: int | None = None, precision: float | None = None, seed: int | None = None,
    threads: int | None = None,
) -> StreetsResult:
    """Every player's equity pre-flop, on the flop, the turn and the river, as the board comes.

    Parameters
    ----------
    hands, dead, game, die, method, trials, precision, threads :
        As in :func:`~omaha_equity.calculate_equity`, applied to every street.
    board : str
        The board, 3 to 5 cards in dealing order.
    seed : int, optional
        Monte Carlo seed for every street that samples (drawn at random and reported if
        omitted).

    Returns
    -------
    StreetsResult

    Raises
    ------
    InputError
        A board of fewer than 3 cards; a range with a category filter (``15%:{set+}``: it
        would mean other hands on every street); anything :func:`calculate_equity` rejects.
    """
    hands = check_hands(hands)
    for hand in hands:
        if isinstance(hand, str) and "{" in hand:  # '{' only ever opens a category filter
            raise InputError(f"equity by street cannot take the category filter in {quoted(hand)}: a filter reads the "
                             "board, which changes from street to street (ask calc on one street instead)")
    game = get_game(game, die)
    board_cards, dead_cards = parse_board_and_dead(board or "", dead or "")
    boards = street_boards(board_cards, game)
    options = RunOptions.checked(method, trials=trials, precision=precision, seed=seed, threads=threads)
    return streets_equity(seat_cards(hands, boards[0][1], dead_cards, game), board_cards, options)


def streets_equity(seated: SeatedQuery, board: tuple[int, ...], options: RunOptions) -> StreetsResult:
    """The typed core of :func:`equity_by_street`: ``seated`` on the first street's board (none,
    or Courchevel's exposed card), re-seated street by street up to ``board`` (3 to 5 cards),
    every street run with ``options`` and one seed.

    Raises
    ------
    InputError
        Anything :func:`~omaha_equity.equity.calculate.run_equity` rejects on some street.
    """
    seed = plan.draw_seed() if options.seed is None else options.seed
    options = replace(options, seed=seed)
    streets = []
    for street, street_board in street_boards(board, seated.game):
        seated = seated.on_board(street_board)
        streets.append(StreetEquity(street, run_equity(seated, options)))
    sampled = any(entry.result.method == Method.MONTE_CARLO for entry in streets)
    return StreetsResult(game=seated.game, hands=streets[0].result.hands, board=format_cards(board),
                         dead=format_cards(seated.dead, sort=True), seed=seed if sampled else None,
                         streets=tuple(streets))
