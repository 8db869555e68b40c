"""Equity after each possible next card: the turn on a flop, the river on a turn.

Exact by default: one enumeration pass over every completion of the board (and every
combination of the players' hands), each board credited to each of its dealt cards
(``_kernels.enumerate_by_next_card``), so a flop costs one pass over its turn-and-river
completions rather than one query per turn card. When that enumeration is over the work budget
(``equity.plan.EXACT_WORK_BUDGET``, wide ranges multiway), or Monte Carlo is asked for, each
next card is a Monte Carlo query of its own (``trials`` boards each, the same seed for every
card), and so is the current board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from ..runtime import cache
from ..cards import format_card, format_cards
from ..deal import CardsLike, parse_board_and_dead
from ..equity import plan
from ..equity.lists import exact as range_equity
from ..equity.lists.inputs import ExactLists, ScoreTables, available_cards, hand_masks
from ..equity.calculate import run_equity
from ..equity.plan import Family, Method
from ..equity.query import RunOptions, SeatedQuery, seat_cards
from ..runtime.threads import across_threads, use_threads
from ..equity.players import RANGE
from ..equity.results.equity import EquityResult, PlayerEquity
from ..errors import InputError, quoted
from ..games import BOARD_SIZE, Game, get_game
from ..pots import pot_units
from ..validate import check_hands
from . import _kernels, seat_lists

# Monte Carlo boards per next card when neither trials nor precision is given (a flop has up
# to 45 next cards; 100,000 boards give a standard error of at most 0.16 points each).
NEXT_CARD_DEFAULT_TRIALS = 100_000
DEFAULT_ABOVE = 0.5


@dataclass(frozen=True)
class NextCardEquity:
    """Every player's equity once one more card is dealt.

    Attributes
    ----------
    card : str
        The next card (``"Kd"``).
    probability : float or None
        Chance that this card comes next, 0..1, given the players' hands and ranges (hands
        drawn by weight); None in Monte Carlo when two or more players hold ranges (the cards
        the ranges take up interact and are not counted).
    probability_fraction : Fraction or None
        The same as an exact fraction, when known.
    result : EquityResult
        The equity on the board plus this card (``result.board`` includes it).
    change : float
        Player 1's equity after the card minus player 1's equity now (fraction, -1..1).
    """

    card: str
    probability: float | None
    probability_fraction: Fraction | None
    result: EquityResult
    change: float

    @property
    def equities(self) -> tuple[float, ...]:
        return self.result.equities


@dataclass(frozen=True)
class NextCardResult:
    """Equity now and after each possible next card.

    Attributes
    ----------
    game : Game
    hands : tuple of str
        Each player's hand or range, as in :class:`~omaha_equity.EquityResult`.
    board, dead : str
        The current board (a flop or a turn) and the dead cards.
    street : str
        The card that comes next: ``"turn"`` or ``"river"``.
    method : str
        ``"exact"`` or ``"monte-carlo"``.
    seed : int or None
        The Monte Carlo seed (every card's query uses it); None when exact.
    current : EquityResult
        The equity on the current board.
    cards : tuple of NextCardEquity
        Every card that can come next, sorted by player 1's change in equity, largest first
        (ties: card order, aces first).
    above : float
        The threshold of :attr:`above_count`, fraction 0..1.
    """

    game: Game
    hands: tuple[str, ...]
    board: str
    dead: str
    street: str
    method: str
    seed: int | None
    current: EquityResult
    cards: tuple[NextCardEquity, ...]
    above: float

    @property
    def above_count(self) -> int:
        """Next cards after which player 1's equity is above :attr:`above`."""
        return sum(1 for entry in self.cards if entry.result.players[0].equity > self.above)

    @property
    def above_probability(self) -> float | None:
        """Chance that player 1's equity is above :attr:`above` after the next card (None when
        the cards' probabilities are not known)."""
        if any(entry.probability is None for entry in self.cards):
            return None
        return sum(entry.probability for entry in self.cards if entry.result.players[0].equity > self.above)


def equity_change(before: PlayerEquity, after: PlayerEquity) -> float:
    """``after.equity - before.equity``, from the exact fractions when both are known (so an
    unchanged equity is exactly 0)."""
    if before.equity_fraction is not None and after.equity_fraction is not None:
        return float(after.equity_fraction - before.equity_fraction)
    return after.equity - before.equity


def parse_next_card_board(board: CardsLike, dead: CardsLike) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The board (3 or 4 cards) and dead cards of a next-card query.

    Raises
    ------
    InputError
        A board that is not a flop or a turn.
    """
    board_cards, dead_cards = parse_board_and_dead(board or "", dead or "")
    if len(board_cards) not in (3, 4):
        shown = f" in {format_cards(board_cards)!r}" if board_cards else ""
        raise InputError(f"the next card needs a flop or a turn: expected 3 or 4 board cards, "
                         f"got {len(board_cards)}{shown}")
    return board_cards, dead_cards


def next_card_equity(
    hands: Sequence[CardsLike], board: CardsLike, dead: CardsLike = "", game: str | Game = "omaha", *,
    die: int | None = None,
    method: str = "auto", trials: int | None = None, precision: float | None = None, seed: int | None = None,
    threads: int | None = None,
    above: float = DEFAULT_ABOVE,
) -> NextCardResult:
    """Every player's equity after each possible next card (the turn on a flop, the river on a
    turn), sorted by the change in player 1's equity.

    Parameters
    ----------
    hands, dead, game, die : as in :func:`~omaha_equity.calculate_equity` (hands, partial hands,
        ``*`` and ranges).
    board : str
        The flop (3 cards) or the turn (4 cards).
    method : {"auto", "exact", "monte-carlo"}
        ``auto``: exact when enumerating the board's completions for every combination of hands
        fits ``equity.plan.EXACT_WORK_BUDGET``, Monte Carlo otherwise.
    trials, precision : optional
        Monte Carlo, per next card (and for the current board): boards to sample (default
        ``NEXT_CARD_DEFAULT_TRIALS``), or the target standard error in percentage points.
    seed : int, optional
        Monte Carlo seed, used by every card's query (drawn at random and reported if omitted).
    threads : int, optional
        Worker threads (default: one per core).
    above : float
        Threshold (fraction 0..1) of :attr:`NextCardResult.above_count`; default 0.5.

    Returns
    -------
    NextCardResult

    Raises
    ------
    InputError
        A board that is not a flop or a turn; anything :func:`calculate_equity` rejects; a
        threshold outside 0..1.
    """
    hands = check_hands(hands)
    game = get_game(game, die)
    board_cards, dead_cards = parse_next_card_board(board, dead)
    if not isinstance(above, (int, float)) or not 0 <= above <= 1:
        raise InputError(f"bad threshold {quoted(above)}: expected a fraction of the pot 0..1 (0.5 for 50%)")
    options = RunOptions.checked(method, trials=trials, precision=precision, seed=seed, threads=threads)
    return next_card_of(seat_cards(hands, board_cards, dead_cards, game), options, float(above))


def next_card_of(seated: SeatedQuery, options: RunOptions, above: float = DEFAULT_ABOVE) -> NextCardResult:
    """The typed core of :func:`next_card_equity`: the players seated on a flop or a turn, the
    run options checked, ``above`` a fraction 0..1.

    Raises
    ------
    InputError
        Anything the plan refuses; exact enumeration asked for range weights too far apart;
        ranges that leave no deal on some next card.
    """
    seats, board_cards, dead_cards, game = list(seated.seats), seated.board, seated.dead, seated.game
    units = pot_units(len(seats), game.hilo)
    exact_work = range_equity.exact_work(seats, board_cards, dead_cards, game)
    # one pass over every next card and board (exact), or a Monte Carlo query per card
    chosen = options.choose_method(exact_work)
    weights = None
    if chosen == Method.EXACT:
        weights = range_equity.whole_weights(seats, board_cards, dead_cards, game, units)
        if weights is None:
            chosen = plan.exact_or_fallback(
                options.method,
                "the range weights are too far apart for exact enumeration (64-bit sums): use Monte Carlo")
    query = options.plan(chosen, Family.HAND_LISTS, ("enumerate_by_next_card",) if chosen == Method.EXACT else (),
                         len(seats), exact_work)
    if query.exact:
        with use_threads(options.threads):
            current, entries = _exact(seats, board_cards, dead_cards, game, units, weights)
    else:
        current, entries = _monte_carlo(seated, replace(options, method=Method.MONTE_CARLO, seed=query.seed))
    cards = [NextCardEquity(card=format_card(card), probability=probability, probability_fraction=fraction,
                            result=result, change=equity_change(current.players[0], result.players[0]))
             for card, probability, fraction, result in entries]
    # largest change first; ties by card, aces first (the deck order reversed)
    order = sorted(range(len(cards)), key=lambda position: (-cards[position].change, -entries[position][0]))
    return NextCardResult(
        game=game, hands=current.hands, board=format_cards(board_cards), dead=format_cards(dead_cards, sort=True),
        street="turn" if len(board_cards) == 3 else "river", method=query.method, seed=query.seed, current=current,
        cards=tuple(cards[position] for position in order), above=above,
    )


def _exact(seats, board_cards, dead_cards, game: Game, units: int, weights_by_seat):
    """One pass of ``enumerate_by_next_card``: ``(current, [(card, probability, fraction, result)])``."""
    cache.announce_compiling(["enumerate_by_next_card"])
    lists = ExactLists(seats, board_cards, dead_cards, game, weights_by_seat)
    order = lists.order
    dealt_count = BOARD_SIZE - len(board_cards)
    tables = ScoreTables.of(game)
    counts, low_boards, weight_totals, deal_totals = across_threads(
        lambda first_slab, slab_count: _kernels.enumerate_by_next_card(
            *lists.kernel_arguments(), *tables.kernel_arguments(), plan.BINOMIALS, units, first_slab, slab_count,
            lists.chunk_count),
        0, lists.chunk_count, uneven=True,
    )
    cache.mark_in_use()
    # back to the players' order: (52, players, STATS)
    summed = counts.sum(axis=0)
    by_player = np.empty_like(summed)
    for position, player in enumerate(order):
        by_player[:, player] = summed[:, position]
    low_by_card = low_boards.sum(axis=0)
    weight_by_card = weight_totals.sum(axis=0)
    deals_by_card = deal_totals.sum(axis=0)
    all_weight = int(weight_by_card.sum())
    if all_weight == 0:
        raise InputError("no deal is possible: every combination of the players' hands shares a card")
    hands = tuple(seat.expression for seat in seats)
    dead_text = format_cards(dead_cards, sort=True)
    # every board is credited to each of its dealt cards, so the totals over cards are
    # dealt_count times the current board's
    current = seat_lists.exact_result(
        game, hands, format_cards(board_cards), dead_text, by_player.sum(axis=0) // dealt_count, units,
        int(deals_by_card.sum()) // dealt_count, all_weight // dealt_count, int(low_by_card.sum()) // dealt_count,
    )
    entries = []
    for card in range(52):
        weight = int(weight_by_card[card])
        if weight == 0:
            continue
        result = seat_lists.exact_result(game, hands, format_cards(board_cards + (card,)), dead_text, by_player[card],
                                      units, int(deals_by_card[card]), weight, int(low_by_card[card]))
        fraction = Fraction(weight, all_weight)
        entries.append((card, float(fraction), fraction, result))
    return current, entries


def _card_probabilities(seats, cards: list[int]) -> dict[int, float] | None:
    """Chance of each possible next card when at most one player holds a range: given that
    range's hand, every card nobody holds is equally likely, so a card's chance is proportional
    to the weight of the range hands without it. None with two or more ranges."""
    ranges = [seat for seat in seats if seat.kind == RANGE]
    if len(ranges) > 1:
        return None
    if not ranges:
        return {card: 1 / len(cards) for card in cards}
    seat = ranges[0]
    masks = hand_masks(np.asarray(seat.hands))
    weights = np.asarray(seat.weights, dtype=np.float64)
    free = {card: float(weights[(masks >> card) & 1 == 0].sum()) for card in cards}
    total = sum(free.values())
    return {card: value / total for card, value in free.items()}


def _monte_carlo(seated: SeatedQuery, options: RunOptions):
    """One Monte Carlo query per next card, the players re-seated on each board
    (``SeatedQuery.on_board``): ``(current, [(card, probability, fraction, result)])``."""
    if not options.sampling_asked:
        options = replace(options, trials=NEXT_CARD_DEFAULT_TRIALS)
    seats = list(seated.seats)
    current = run_equity(seated, options)
    cards = []
    for card in available_cards(seats, seated.board, seated.dead):
        # a card that every hand of some range holds cannot come next
        if any(seat.kind == RANGE and bool(((hand_masks(np.asarray(seat.hands)) >> card) & 1).all())
               for seat in seats):
            continue
        cards.append(card)
    probabilities = _card_probabilities(seats, cards)
    entries = []
    for card in cards:
        result = run_equity(seated.on_board(seated.board + (card,)), options)
        entries.append((card, probabilities[card] if probabilities is not None else None, None, result))
    return current, entries
