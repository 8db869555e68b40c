"""Exact river-equity queries answered from the equity calculator's tallies.

A query whose selectors are all ``avg`` or ``count`` of one river-outcome function of one player
(``riverEquity``, ``fractionalRiverEquity``, ``winsHi``, ``tiesHi``, ``winsLo``, ``tiesLo``,
``scoops``) asks for sums that the exact equity kernels already keep, per player, over every
combination of hands and every completion of the board (``equity.counters``): the pot share in
pot units, sole and shared high and low wins, whole pots. Such a query is seated on the same
hand lists the block evaluator would deal (:func:`prepare`) and run on the query core
(``equity.calculate.run_equity``), which enumerates each board once as a set of cards and scores
the boards of many hands at once, instead of building every deal in arrays.

A ``where`` clause qualifies when it is made of ``inRange`` tests only, joined by ``and``, each
part (``and``/``or``/``not`` of ``inRange`` tests) about one player: it then keeps hands from
each player's list, and the counts are those of the smaller lists.

The answers are the block evaluator's exactly (the same deals with the same weights): the
evaluator deals the turn and the river in order and the flop as a set, so each board set of the
kernels stands for ``(5 - k)! / (3 - k)!`` of its deals with ``k < 3`` board cards known, 2 with
a flop, 1 with a turn or river; every combination of hands has the same number of board
completions, so a ``where`` clause on hands passes the share of the combinations' weight that it
keeps.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..cards import DECK_SIZE
from ..deal import Deal
from ..equity.counters import EQUITY, HI_TIE, HI_WIN, LO_TIE, LO_WIN, WIN
from ..equity.players import DEALT, FIXED, RANGE, Seat
from ..equity.query import SeatedQuery
from ..errors import InputError
from ..games import Game
from ..categories.streets import card_masks
from .syntax import Binary, Call, Expression, Name, Selector, Text, Unary

#: The river-outcome functions (lower-case names) and the counter of ``equity.counters`` each
#: one reads: ``scoops`` is the whole pot alone (``WIN``), in hi/lo the high alone with the low
#: alone or no low at all.
RIVER_COUNTERS = {"riverequity": EQUITY, "fractionalriverequity": EQUITY, "winshi": HI_WIN, "tieshi": HI_TIE,
                  "winslo": LO_WIN, "tieslo": LO_TIE, "scoops": WIN}
_SELECTOR_KINDS = ("avg", "count")
#: Combinations of hands built at once when a ``where`` clause's weights are added up.
_COMBINATION_BLOCK = 1 << 20


@dataclass(frozen=True)
class RiverQuery:
    """A query that the equity tallies answer (:func:`prepare`).

    Attributes
    ----------
    selectors : tuple of (player index, counter index) pairs, one per selector.
    everyone : SeatedQuery, the players seated on every hand bound.
    kept : SeatedQuery or None, the players seated on the hands the ``where`` clause keeps (the
        same as ``everyone`` without one); None when it keeps no combination of hands.
    masks, weights : per player, (n,) int64 card masks and (n,) float64 weights of every hand
        bound; keeps : per player, (n,) bool, the hands ``where`` keeps (None: every hand).
    """

    selectors: tuple[tuple[int, int], ...]
    everyone: SeatedQuery
    kept: SeatedQuery | None
    masks: tuple[np.ndarray, ...]
    weights: tuple[np.ndarray, ...]
    keeps: tuple[np.ndarray | None, ...]

    @property
    def filtered(self) -> bool:
        """A ``where`` clause keeps some players' hands."""
        return any(keep is not None for keep in self.keeps)

    @property
    def exact_work(self) -> int:
        """Player-boards of the exact enumeration (``SeatedQuery.exact_work``, an upper bound),
        0 when nothing is left to enumerate."""
        return self.kept.exact_work if self.kept is not None else 0

    @property
    def exact_rate(self) -> int:
        """Player-boards a second of the exact kernel that will run (``SeatedQuery.exact_rate``)."""
        return self.everyone.exact_rate


@dataclass(frozen=True)
class RiverAnswer:
    """:func:`answer`.

    Attributes
    ----------
    values : tuple of Fraction or None, per selector its answer (a fraction 0..1 of the weight
        that passed ``where``), None for each when ``where`` keeps no deal.
    deal_count : int, the deals the block evaluator would enumerate (before ``where``).
    where_share : float, the share of the deals' weight that passes ``where`` (1.0 without one).
    """

    values: tuple[Fraction | None, ...]
    deal_count: int
    where_share: float


def river_selectors(selectors: Sequence[Selector], players: dict[str, int]) -> tuple[tuple[int, int], ...] | None:
    """Each selector's (player, counter) when every selector is ``avg`` or ``count`` of one
    river-outcome function of a player named in ``players`` (lower-case name -> index), else
    None."""
    result = []
    for selector in selectors:
        expression = selector.expression
        if selector.kind not in _SELECTOR_KINDS or not isinstance(expression, Call):
            return None
        counter = RIVER_COUNTERS.get(expression.name.lower())
        if counter is None or len(expression.arguments) != 1:
            return None
        player = _player(expression.arguments[0], players)
        if player is None:
            return None
        result.append((player, counter))
    return tuple(result)


def _player(node: Expression, players: dict[str, int]) -> int | None:
    text = node.name if isinstance(node, Name) else node.value if isinstance(node, Text) else None
    return None if text is None else players.get(text.lower())


def _conjuncts(node: Expression) -> list[Expression]:
    if isinstance(node, Binary) and node.operator == "and":
        return [*_conjuncts(node.left), *_conjuncts(node.right)]
    return [node]


def _hand_players(node: Expression, players: dict[str, int]) -> set[int] | None:
    """The players an expression of ``inRange`` tests (with ``and``, ``or``, ``not``) is
    about, or None when it is anything else."""
    if isinstance(node, Call):
        if node.name.lower() != "inrange" or len(node.arguments) != 2 or not isinstance(node.arguments[1], Text):
            return None
        player = _player(node.arguments[0], players)
        return None if player is None else {player}
    if isinstance(node, Unary) and node.operator == "not":
        return _hand_players(node.operand, players)
    if isinstance(node, Binary) and node.operator in ("and", "or"):
        left, right = _hand_players(node.left, players), _hand_players(node.right, players)
        return None if left is None or right is None else left | right
    return None


def _kept(node: Expression, hand_masks: np.ndarray, range_masks: Callable[[Text], np.ndarray]) -> np.ndarray:
    """(n,) bool: the hands (card masks ``hand_masks``) for which an expression of one player's
    ``inRange`` tests holds."""
    if isinstance(node, Call):
        return np.isin(hand_masks, range_masks(node.arguments[1]))
    if isinstance(node, Unary):
        return ~_kept(node.operand, hand_masks, range_masks)
    combine = np.logical_and if node.operator == "and" else np.logical_or
    return combine(_kept(node.left, hand_masks, range_masks), _kept(node.right, hand_masks, range_masks))


def where_keeps(where: Expression | None, hands: Sequence[np.ndarray], players: dict[str, int],
                range_masks: Callable[[Text], np.ndarray]) -> list[np.ndarray | None] | None:
    """Per player, the hands a ``where`` clause on hands keeps ((n,) bool, None: every hand), or
    None when the clause is not one (module docstring); ``range_masks`` reads an ``inRange``
    range into sorted card masks."""
    keeps: list[np.ndarray | None] = [None] * len(hands)
    if where is None:
        return keeps
    for part in _conjuncts(where):
        about = _hand_players(part, players)
        if about is None or len(about) != 1:
            return None
        player = about.pop()
        kept = _kept(part, card_masks(hands[player]), range_masks)
        keeps[player] = kept if keeps[player] is None else keeps[player] & kept
    return keeps


def combination_weights(masks: Sequence[np.ndarray], weights: Sequence[np.ndarray]) -> tuple[int, float]:
    """How many combinations of one hand per list share no card, and their total weight (the
    product of the hands' weights), a block of the first list at a time.

    Parameters
    ----------
    masks : per list, (n,) int64 card masks of its hands.
    weights : per list, (n,) float64 weights.
    """
    rest = math.prod(mask.shape[0] for mask in masks[1:])
    step = max(1, _COMBINATION_BLOCK // max(rest, 1))
    count, total = 0, 0.0
    for first in range(0, masks[0].shape[0], step):
        combined = masks[0][first:first + step]
        weight = weights[0][first:first + step]
        for player in range(1, len(masks)):
            left, right = np.nonzero((combined[:, None] & masks[player][None, :]) == 0)
            combined = combined[left] | masks[player][right]
            weight = weight[left] * weights[player][right]
        count += int(combined.shape[0])
        total += float(weight.sum())
    return count, total


def board_orderings(known_count: int) -> int:
    """The block evaluator's deals per board set with ``known_count`` board cards known: the
    missing flop cards as a set, the turn and the river in order (module docstring)."""
    return math.factorial(5 - known_count) // math.factorial(3 - known_count) if known_count < 3 else \
        2 if known_count == 3 else 1


def _read_only(array: np.ndarray) -> np.ndarray:
    """A read-only copy, as the ranges hand theirs out (the kernels compile one signature)."""
    array = np.array(array)
    array.flags.writeable = False
    return array


def seat_lists(game: Game, names: Sequence[str], hands: Sequence[np.ndarray], weights: Sequence[np.ndarray],
               board: tuple[int, ...], dead: tuple[int, ...]) -> SeatedQuery | None:
    """The players seated as the equity calculator seats them, on exactly these hand lists: a
    list of one hand is a fixed hand; the other lists lose the hands holding a fixed hand's card;
    a list of every hand left, equally weighted, is dealt at random. None when a list is left
    empty (no deal).

    Raises
    ------
    InputError
        Ranges that leave no deal without a shared card (``players.check_some_deal``).
    """
    from ..equity.players import check_some_deal

    fixed = {player: tuple(int(card) for card in hands[player][0]) for player in range(len(hands))
             if hands[player].shape[0] == 1}
    known = [card for cards in fixed.values() for card in cards] + list(board) + list(dead)
    fixed_mask = int(card_masks(np.array([known]))[0]) if known else 0
    seats = []
    for player, name in enumerate(names):
        if player in fixed:
            seats.append(Seat(name, FIXED, fixed[player]))
            continue
        keep = (card_masks(hands[player]) & fixed_mask) == 0
        if not keep.any():
            return None
        player_hands, player_weights = hands[player][keep], weights[player][keep]
        if (player_hands.shape[0] == math.comb(DECK_SIZE - len(known), game.hole_count)
                and np.all(player_weights == player_weights[0])):
            seats.append(Seat(name, DEALT))
        else:
            seats.append(Seat(name, RANGE, (), _read_only(player_hands.astype(np.int8)),
                              _read_only(player_weights.astype(np.float64))))
    check_some_deal(seats, known)
    deal = Deal(game, tuple(fixed[player] for player in range(len(names))), board, dead) \
        if len(fixed) == len(names) else None
    return SeatedQuery(game, tuple(seats), board, dead, deal)


def prepare(selectors: Sequence[Selector], where: Expression | None, game: Game, names: Sequence[str],
            hands: Sequence[np.ndarray], weights: Sequence[np.ndarray], board: tuple[int, ...],
            dead: tuple[int, ...], range_masks: Callable[[Text], np.ndarray]) -> RiverQuery | None:
    """The query as a :class:`RiverQuery` when the tallies answer it (module docstring), else
    None (the block evaluator answers it; also when the lists leave no deal, so that its error
    is the one reported). Only seats the players: nothing is enumerated yet.

    Parameters
    ----------
    names : the players' names, in binding order.
    hands, weights : per player, (n, hole_count) int8 hands and (n,) float64 weights, as bound.
    board, dead : the known board (at most 5 cards, dealing order) and dead cards.
    range_masks : reads an ``inRange`` range argument into sorted card masks.
    """
    players = {name.lower(): index for index, name in enumerate(names)}
    chosen = river_selectors(selectors, players)
    if chosen is None:
        return None
    keeps = where_keeps(where, hands, players, range_masks)
    if keeps is None:
        return None
    try:
        everyone = seat_lists(game, names, hands, weights, board, dead)
    except InputError:
        return None
    if everyone is None:
        return None
    kept: SeatedQuery | None = everyone
    if any(keep is not None for keep in keeps):
        kept_hands = [player_hands if keep is None else player_hands[keep] for player_hands, keep in zip(hands, keeps)]
        kept_weights = [player_weights if keep is None else player_weights[keep]
                        for player_weights, keep in zip(weights, keeps)]
        try:
            kept = seat_lists(game, names, kept_hands, kept_weights, board, dead) if all(
                player_hands.shape[0] for player_hands in kept_hands) else None
        except InputError:
            kept = None  # no deal left once the where clause has kept its hands
    masks = tuple(card_masks(player_hands) for player_hands in hands)
    return RiverQuery(chosen, everyone, kept, masks, tuple(np.asarray(w, dtype=np.float64) for w in weights),
                      tuple(keeps))


def answer(query: RiverQuery) -> RiverAnswer:
    """Each selector's answer from one exact run of the equity calculator (``run_equity``) on
    the hands ``where`` keeps: a counter over the weight of every deal (pot shares over the
    pot's units).

    Raises
    ------
    InputError
        What the equity calculator's plan refuses (weights too far apart for 64-bit sums).
    """
    from ..equity.calculate import run_equity
    from ..equity.query import RunOptions

    everyone = query.everyone
    completions = everyone.board_count * board_orderings(len(everyone.board))
    values: list[Fraction | None] = [None] * len(query.selectors)
    combinations = 0
    if query.kept is not None:
        result = run_equity(query.kept, RunOptions.checked("exact"))
        combinations = result.hand_combinations or 0
        for index, (player, counter) in enumerate(query.selectors):
            row = result.players[player]
            if counter == EQUITY:
                values[index] = row.equity_fraction
                continue
            count = {HI_WIN: row.hi_win_count, HI_TIE: row.hi_tie_count, LO_WIN: row.lo_win_count,
                     LO_TIE: row.lo_tie_count, WIN: row.win_count}[counter]
            values[index] = Fraction(count, row.weight_total)
    if not query.filtered:
        return RiverAnswer(tuple(values), combinations * completions, 1.0)
    combinations, total = combination_weights(query.masks, query.weights)
    kept_masks = [mask if keep is None else mask[keep] for mask, keep in zip(query.masks, query.keeps)]
    kept_weights = [weight if keep is None else weight[keep] for weight, keep in zip(query.weights, query.keeps)]
    kept_total = combination_weights(kept_masks, kept_weights)[1] if query.kept is not None else 0.0
    return RiverAnswer(tuple(values), combinations * completions, kept_total / total if total else 0.0)
