"""The steps every query shares, whatever it computes (equity, all-in chips, studies):
:func:`seat_query` checks the input and seats the players; ``plan.plan_query`` plans it (a
:class:`~omaha_equity.equity.plan.QueryPlan`); :func:`run_plan` runs the plan's kernels with
its threads. Each calculation supplies only what differs: its kernels, its 64-bit limit, its
result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..runtime import cache
from ..cards import DECK_SIZE, format_cards
from ..deal import CardsLike, Deal, parse_board_and_dead
from ..games import Game, get_game
from ..errors import InputError, quoted
from ..validate import check_hands, check_run_options
from . import plan
from ..runtime.threads import threads_to_run, use_threads
from .lists.exact import board_completions, exact_rate, exact_work
from .players import FIXED, Seat, reseat_players, seat_players
from .plan import Family, Method, QueryPlan

# progress(done, total): called after each piece of work (boards, deals or player-boards)
ProgressCallback = Callable[[int, int], None]
_Output = TypeVar("_Output")


@dataclass(frozen=True)
class RunOptions:
    """How a query runs, checked once (:meth:`checked`); every calculation and study takes one.

    Attributes
    ----------
    method : Method
        ``auto`` (exact enumeration when affordable, ``plan.choose_method``), ``exact`` or
        ``monte-carlo``.
    trials : int or None
        Monte Carlo boards to sample, 1..2**62 (None: ``plan.DEFAULT_TRIALS``; with a
        precision, the most to sample).
    precision : float or None
        Monte Carlo: stop once every standard error is below this many percentage points.
    seed : int or None
        Monte Carlo seed, 0..2**64-1 (None: drawn at random and reported).
    threads : int or None
        Kernel threads, at least 1 (None: numba's setting, one per core).
    """

    method: Method = Method.AUTO
    trials: int | None = None
    precision: float | None = None
    seed: int | None = None
    threads: int | None = None

    @classmethod
    def checked(cls, method: str = "auto", *, trials: object = None, precision: object = None, seed: object = None,
                threads: object = None) -> RunOptions:
        """Run options from what a caller gave (text or numbers), checked.

        Raises
        ------
        InputError
            Trials, precision, seed or threads out of range (``validate.check_run_options``),
            or a method that is not one of ``auto``, ``exact``, ``monte-carlo``.
        """
        trials, precision, seed, threads = check_run_options(trials=trials, precision=precision, seed=seed,
                                                             threads=threads)
        if method not in plan.METHODS:
            raise InputError(f"unknown method {quoted(method)}: expected one of {', '.join(plan.METHODS)}")
        return cls(Method(method), trials, precision, seed, threads)

    @property
    def sampling_asked(self) -> bool:
        """Trials or a precision were given: Monte Carlo is asked for."""
        return self.trials is not None or self.precision is not None

    def choose_method(self, exact_work: int, rate: int = plan.EXACT_RATE) -> Method:
        """``EXACT`` or ``MONTE_CARLO`` for work of ``exact_work`` player-boards on a kernel of
        ``rate`` player-boards a second (``plan.choose_method``).

        Raises
        ------
        InputError
            Trials or a precision with exact enumeration; exact enumeration beyond the ceiling.
        """
        return Method(plan.choose_method(self.method, exact_work, sampling_asked=self.sampling_asked, rate=rate))

    def plan(self, method: Method, family: Family, kernels: tuple[str, ...], player_count: int,
             exact_work: int) -> QueryPlan:
        """The query plan of ``method`` on ``family`` with these options (``plan.plan_query``)."""
        return plan.plan_query(method, exact_work, player_count, family=family, kernels=kernels, trials=self.trials,
                               precision=self.precision, seed=self.seed, threads=self.threads)


@dataclass(frozen=True)
class SeatedQuery:
    """A query's players seated with the known cards, all checked (:func:`seat_query`).

    Attributes
    ----------
    game : Game
    seats : tuple of Seat
        One per player, in the order given.
    board, dead : tuple of int
        Known board cards (dealing order) and dead cards.
    deal : Deal or None
        The deal when every hand is fixed (the per-hand-row kernels' input), else None.
    """

    game: Game
    seats: tuple[Seat, ...]
    board: tuple[int, ...]
    dead: tuple[int, ...]
    deal: Deal | None

    @property
    def player_count(self) -> int:
        return len(self.seats)

    @property
    def all_fixed(self) -> bool:
        return self.deal is not None

    @property
    def exact_work(self) -> int:
        """Player-boards of an exact enumeration (boards x hand combinations x players)."""
        if self.deal is not None:
            return plan.board_completions(DECK_SIZE - len(self.deal.known_cards), len(self.board)) * len(self.seats)
        return exact_work(list(self.seats), self.board, self.dead, self.game)

    @property
    def exact_rate(self) -> int:
        """Player-boards a second of the exact kernel that would run (``plan.EXACT_RATE`` for
        fixed hands; ranges: ``lists.exact.exact_rate``), which sizes the exact budget."""
        if self.deal is not None:
            return plan.EXACT_RATE
        return exact_rate(list(self.seats), self.board, self.game)

    @property
    def board_count(self) -> int:
        """Completions of the board once every player holds their cards."""
        return board_completions(len(self.seats), self.board, self.dead, self.game)

    @property
    def hands(self) -> tuple[str, ...]:
        """Each player's hole cards (canonical text) or range, as results report them."""
        return tuple(seat.expression for seat in self.seats)

    def on_board(self, board: tuple[int, ...]) -> SeatedQuery:
        """The same players on a board that adds cards to this one (the next card, the next
        street), re-seated from what is already parsed (``players.reseat_players``).

        Raises
        ------
        ValueError
            ``board`` does not hold every card of this query's board (a programming error).
        InputError
            A new card written in a hand; a range with no hand left; ranges that leave no deal.
        """
        if board == self.board:
            return self
        if not set(self.board) <= set(board):
            raise ValueError(f"re-seating needs a board that adds cards to {self.board}, got {board}")
        return _seated(self.game, tuple(reseat_players(self.seats, board, self.dead, self.game)), board, self.dead)

    def header_fields(self, query: QueryPlan, sample_count: int) -> dict[str, Any]:
        """The first fields of a result (``results.header.QueryHeader``) for a run of ``query``
        that went through ``sample_count`` deals: game, hands, board, dead cards (as text), method
        and deals."""
        return {"game": self.game, "hands": self.hands, "board": format_cards(self.board),
                "dead": format_cards(self.dead, sort=True), "method": query.method, "sample_count": sample_count}

    def hand_combinations(self, query: QueryPlan, sample_count: int) -> int | None:
        """The combinations of hands a run went through: 1 for fixed hands, those enumerated
        exactly, None when sampled (Monte Carlo draws the hands of each deal)."""
        return 1 if self.all_fixed else sample_count // self.board_count if query.exact else None


def seat_query(hands: object, board: CardsLike, dead: CardsLike, game: str | Game, die: int | None) -> SeatedQuery:
    """Check a query's hands, game, board and dead cards, and seat the players
    (:func:`seat_cards`).

    Raises
    ------
    InputError
        Anything invalid, the message naming the offending token.
    """
    hands = check_hands(hands)
    game = get_game(game, die)
    board_cards, dead_cards = parse_board_and_dead(board or "", dead or "")
    return seat_cards(hands, board_cards, dead_cards, game)


def seat_cards(hands: Sequence[CardsLike], board: tuple[int, ...], dead: tuple[int, ...], game: Game) -> SeatedQuery:
    """Seat the players (``players.seat_players``: fixed, partial and random hands, ranges
    expanded) with a board, dead cards and a game already parsed; ``hands`` already checked
    (``validate.check_hands``).

    Raises
    ------
    InputError
        A bad hand or range, a card written twice, ranges that leave no deal.
    """
    return _seated(game, tuple(seat_players(hands, board, dead, game)), board, dead)


def _seated(game: Game, seats: tuple[Seat, ...], board: tuple[int, ...], dead: tuple[int, ...]) -> SeatedQuery:
    deal = None
    if all(seat.kind == FIXED for seat in seats):
        deal = Deal(game, tuple(seat.known_cards for seat in seats), board, dead)
    return SeatedQuery(game, seats, board, dead, deal)


def run_plan(query: QueryPlan, run: Callable[[int | None], _Output]) -> _Output:
    """Run a planned query: announce a first compile, then ``run(threads)`` with the plan's
    threads, and note the kernel cache in use.

    The fixed-hand kernels run on our own thread pool (``threads.across_threads``): ``run`` gets
    the thread count to pass down, and numba's setting is left alone (setting and restoring it
    costs a small query a tenth of its time). The hand-list kernels follow numba's setting
    (some are numba parallel loops): it is set around ``run``, which gets None.
    """
    cache.announce_compiling(query.kernels)
    if query.family == plan.Family.FIXED_HANDS:
        output = run(threads_to_run(query.kernel_threads))
    else:
        with use_threads(query.kernel_threads):
            output = run(None)
    cache.mark_in_use()
    return output
