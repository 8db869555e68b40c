"""Running a query: bind the ``from`` clause, check and compile the expressions, deal the deals a
block at a time (every deal exactly, or Monte Carlo), evaluate each block's selectors and
``where`` clause as arrays (:mod:`.functions`), and add the blocks up into a :class:`PqlResult`.

Exact or Monte Carlo (docs/pql.md, "What exact enumerates"): exact enumerates every combination
of the players' hands (each weighted by the product of its range weights) that shares no card,
with every completion of the board (flop cards as a set, then the turn and the river in order),
so each deal weighs what it stands for. ``auto`` enumerates when that is at most
:data:`EXACT_DEALS` deals; ``exact`` refuses beyond :data:`EXACT_CEILING` deals and offers Monte
Carlo. Monte Carlo deals hands by their range weights and boards uniformly, and redeals any deal
whose cards collide, which samples the same deals as exact with the same weights.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..cards import DECK_SIZE, check_no_duplicates, format_card, format_cards, parse_card, parse_cards
from ..errors import InputError
from ..games import Game, get_game, normalize_game_name
from ..pots import pot_units
from ..ranges import parse_range
from ..boards.flops import all_flops
from ..categories.streets import card_masks
from ..equity import plan
from . import functions, river_tallies
from .functions import FLOP_CATEGORIES, FUNCTIONS, HAND_TYPE_NAMES, STREETS, Block
from .syntax import Binary, Call, Expression, Name, Number, PqlError, Query, Text, Unary, parse_query

#: PQL's game names, as our games (ProPokerTools' PQL overview lists these four Omaha names).
PQL_GAMES = {"omahahi": "omaha", "omaha8": "omaha8", "omahahi5": "omaha5", "omaha85": "omaha5-8"}
#: Monte Carlo deals when the query names none: Odds Oracle's default.
DEFAULT_TRIALS = 600_000
#: ``auto`` enumerates exactly up to this many deals (a few seconds of river functions).
EXACT_DEALS = 3_000_000
#: ``exact`` refuses beyond this many deals (minutes of work), offering Monte Carlo.
EXACT_CEILING = 200_000_000
#: Deals per block: a few MB of arrays per function.
BLOCK_DEALS = 1 << 16
_RESERVED = {"game", "board", "dead", "trials", "seed", "exact", "syntax"}


@dataclass(frozen=True)
class Bucket:
    """One bar of a histogram: its label, its share of the weight that passed ``where``
    (fraction 0..1), the exact share when exact, and the Monte Carlo standard error."""

    label: str
    share: float
    fraction: Fraction | None
    standard_error: float | None


@dataclass(frozen=True)
class SelectorResult:
    """One selector's answer.

    Attributes
    ----------
    name : str, the ``as`` name or the selector as written.
    kind : str, ``avg``, ``count``, ``histogram``, ``min`` or ``max``.
    value : float or None, the answer (``count``: a share 0..1 of the weight that passed
        ``where``); None for a histogram.
    fraction : Fraction or None, the answer exactly, when exact and on a grid of pot shares.
    standard_error : float or None, Monte Carlo's (0.0 when exact, None for min and max).
    buckets : tuple of Bucket, a histogram's bars (empty otherwise).
    """

    name: str
    kind: str
    value: float | None
    fraction: Fraction | None
    standard_error: float | None
    buckets: tuple[Bucket, ...] = ()


@dataclass(frozen=True)
class PqlResult:
    """:func:`run`'s answer.

    Attributes
    ----------
    query : str
    game : Game
    players : tuple of (name, range) pairs, in the order bound.
    board, dead : str, as bound (the board may be a board range).
    method : str, ``exact`` or ``monte-carlo``.
    deal_count : int, deals enumerated or sampled.
    where_share : float, the share of the weight that passed ``where`` (1.0 without one).
    seed : int or None, Monte Carlo's seed.
    selectors : tuple of SelectorResult.
    """

    query: str
    game: Game
    players: tuple[tuple[str, str], ...]
    board: str
    dead: str
    method: str
    deal_count: int
    where_share: float
    seed: int | None
    selectors: tuple[SelectorResult, ...]


# -- binding ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Bound:
    game: Game
    names: tuple[str, ...]
    expressions: tuple[str, ...]
    hands: tuple[np.ndarray, ...]
    weights: tuple[np.ndarray, ...]
    board: tuple[int, ...]
    flop_mask: np.ndarray | None
    board_text: str
    dead: tuple[int, ...]
    trials: int | None
    seed: int | None
    exact: bool


def _game(name: str, query: Query, column: int) -> Game:
    key = PQL_GAMES.get(name.strip().lower(), name)
    try:
        return get_game(key)
    except InputError:
        choices = (*PQL_GAMES, "omaha", "omaha8", "omaha5", "omaha5-8", "omaha6", "omaha6-8", "courchevel",
                   "courchevel8")
        raise PqlError(f"unknown game {name!r}", query.text, column, normalize_game_name(name), choices) from None


def _written_hands(expression: str, game: Game, excluded: set[int]) -> np.ndarray | None:
    """``(n, hole_count) int8``: the hands of a range written as whole hands separated by commas
    (``'JdTd9c8c, QcQd7c6c'``), in the ranges' canonical order (each hand's cards descending, the
    hands descending), read without the range machinery, which walks the whole deck for a list
    (seconds for 6-card hands); None when the expression is anything else or a hand holds an
    excluded card (``parse_range`` then reads it, and says so)."""
    hands = set()
    for part in expression.split(","):
        try:
            cards = parse_cards(part)
        except InputError:
            return None
        if len(cards) != game.hole_count or len(set(cards)) != len(cards) or excluded & set(cards):
            return None
        hands.add(tuple(sorted(cards, reverse=True)))
    result = np.array(sorted(hands, reverse=True), dtype=np.int8)
    result.flags.writeable = False
    return result


def bind(query: Query, *, game: str | None = None, trials: int | None = None, seed: int | None = None,
         method: str = "auto") -> Bound:
    """The ``from`` clause read: the game, players' ranges, board, dead cards and run settings
    (a binding in the query wins over the keyword given here)."""
    values: dict[str, Any] = {}
    players = []
    for binding in query.bindings:
        key = binding.name.lower()
        if key in values or any(name.lower() == key for name, _, _ in players):
            raise PqlError(f"{binding.name} is bound twice", query.text, binding.column)
        if key in _RESERVED:
            values[key] = (binding.value, binding.column)
        else:
            if not isinstance(binding.value, str):
                raise PqlError(f"player {binding.name} needs a range in quotes, such as '15%'", query.text,
                               binding.column)
            players.append((binding.name, binding.value, binding.column))
    if not players:
        raise PqlError("no player bound: expected a binding such as hero='AA**'", query.text, len(query.text) + 1)
    game_value = values.get("game", (game or "omaha", None))
    bound_game = _game(str(game_value[0]), query, game_value[1] or 1)
    try:
        dead = parse_cards(str(values.get("dead", ("", 0))[0]))
    except InputError as error:
        raise PqlError(f"bad dead cards: {error}", query.text, values["dead"][1]) from None
    board_text = str(values.get("board", ("", 0))[0]).strip()
    board: tuple[int, ...] = ()
    flop_mask = None
    if board_text and board_text != "*":
        try:
            board = parse_cards(board_text)
        except InputError:
            try:
                flop_mask = functions.board_range_mask(board_text)
            except InputError as error:
                raise PqlError(f"bad board {board_text!r}: {error}", query.text, values["board"][1]) from None
        if len(board) > 5:
            raise PqlError(f"board {board_text!r} has {len(board)} cards: expected at most 5", query.text,
                           values["board"][1])
    check_no_duplicates([("board", board), ("dead cards", dead)])
    hands, weights, expressions = [], [], []
    for name, expression, column in players:
        listed = _written_hands(expression, bound_game, {*board, *dead})
        if listed is not None:
            hands.append(listed)
            weights.append(np.ones(listed.shape[0], dtype=np.float64))
            expressions.append(expression)
            continue
        try:
            hand_range = parse_range(expression, bound_game, excluded=(*board, *dead),
                                     board=board if len(board) >= 3 else ())
        except InputError as error:
            raise PqlError(f"bad range for {name}: {error}", query.text, column) from None
        hands.append(hand_range.hands)
        weights.append(hand_range.weights)
        expressions.append(expression)
    if len(players) * bound_game.hole_count + 5 + len(dead) > DECK_SIZE:
        raise PqlError(f"{len(players)} players of {bound_game.name} need more cards than the deck holds",
                       query.text, players[-1][2])
    bound_trials = values.get("trials", (trials, None))[0]
    bound_seed = values.get("seed", (seed, None))[0]
    exact = bool(values.get("exact", (method == "exact", None))[0])
    if bound_trials is not None and (not float(bound_trials).is_integer() or bound_trials < 1):
        raise PqlError(f"bad trials {bound_trials}: expected a whole number of at least 1", query.text,
                       values.get("trials", (0, 1))[1] or 1)
    if method == "monte-carlo" and bound_trials is None:
        bound_trials = DEFAULT_TRIALS
    return Bound(bound_game, tuple(name for name, _, _ in players), tuple(expressions), tuple(hands), tuple(weights),
                 board, flop_mask, board_text, dead, None if bound_trials is None else int(bound_trials),
                 None if bound_seed is None else int(bound_seed), exact)


# -- checking and compiling expressions -------------------------------------------------------

Compiled = Callable[[Block], Any]
_NUMERIC = ("number", "fraction", "boolean")


class _Compiler:
    def __init__(self, query: Query, bound: Bound) -> None:
        self.query = query
        self.bound = bound
        self.players = {name.lower(): index for index, name in enumerate(bound.names)}

    def fail(self, message: str, column: int, name: str = "", choices=()) -> PqlError:
        return PqlError(message, self.query.text, column, name.lower(), choices)

    def compile(self, node: Expression) -> tuple[str, Compiled]:
        if isinstance(node, Number):
            return "number", lambda block, value=node.value: value
        if isinstance(node, Text):
            return "text", lambda block, value=node.value: value
        if isinstance(node, Name):
            raise self.fail(f"unknown name {node.name!r}: a name stands for a player, street, hand type or flop "
                            "category only as a function's argument or in a comparison", node.column, node.name,
                            (*self.players, *STREETS, *HAND_TYPE_NAMES, *FUNCTIONS))
        if isinstance(node, Call):
            return self.call(node)
        if isinstance(node, Unary):
            kind, operand = self.compile(node.operand)
            if node.operator == "not":
                self.expect(kind, ("boolean",), node.operand, "'not'")
                return "boolean", lambda block: ~np.asarray(operand(block), dtype=bool)
            self.expect(kind, _NUMERIC, node.operand, "'-'")
            return "number", lambda block: -np.asarray(operand(block), dtype=np.float64)
        return self.binary(node)

    def expect(self, kind: str, allowed: tuple[str, ...], node: Expression, where: str) -> None:
        if kind not in allowed:
            raise self.fail(f"{where} needs {' or '.join(allowed)}, got {kind}", getattr(node, "column", 1))

    def binary(self, node: Binary) -> tuple[str, Compiled]:
        operator = node.operator
        if operator in ("and", "or"):
            left_kind, left = self.compile(node.left)
            right_kind, right = self.compile(node.right)
            self.expect(left_kind, ("boolean",), node.left, f"'{operator}'")
            self.expect(right_kind, ("boolean",), node.right, f"'{operator}'")
            combine = np.logical_and if operator == "and" else np.logical_or
            return "boolean", lambda block: combine(left(block), right(block))
        if operator in "+-*/":
            left_kind, left = self.compile(node.left)
            right_kind, right = self.compile(node.right)
            self.expect(left_kind, _NUMERIC, node.left, f"'{operator}'")
            self.expect(right_kind, _NUMERIC, node.right, f"'{operator}'")
            operation = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.divide}[operator]

            def arithmetic(block):
                with np.errstate(divide="ignore", invalid="ignore"):
                    return operation(np.asarray(left(block), dtype=np.float64),
                                     np.asarray(right(block), dtype=np.float64))
            return "number", arithmetic
        left_kind, left = self.operand(node.left, node.right)
        right_kind, right = self.operand(node.right, node.left)
        if left_kind in _NUMERIC and right_kind in _NUMERIC:
            pass
        elif left_kind != right_kind or left_kind == "text":
            raise self.fail(f"cannot compare {left_kind} with {right_kind}", node.column)
        elif left_kind in ("flopcategory", "card") and operator not in ("=", "<>"):
            raise self.fail(f"a {left_kind} compares with '=' or '<>' only", node.column)
        compare = {"=": np.equal, "<>": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater,
                   ">=": np.greater_equal}[operator]
        return "boolean", lambda block: compare(left(block), right(block))

    def operand(self, node: Expression, other: Expression) -> tuple[str, Compiled]:
        """A comparison's side: a hand type, flop category or card written as a name or text
        takes the type of the other side."""
        if isinstance(node, (Name, Text)):
            other_kind = self.compile(other)[0] if not isinstance(other, (Name, Text)) else "text"
            if other_kind in ("handtype", "flopcategory", "card"):
                return other_kind, self.constant(node, other_kind)
        return self.compile(node)

    def constant(self, node: Name | Text, kind: str) -> Compiled:
        text = node.name if isinstance(node, Name) else node.value
        value = self.named_value(text, kind, node.column)
        return lambda block: value

    def named_value(self, text: str, kind: str, column: int) -> int:
        key = text.strip().lower()
        if kind == "handtype":
            if key not in HAND_TYPE_NAMES:
                raise self.fail(f"unknown hand type {text!r}", column, key, HAND_TYPE_NAMES)
            return HAND_TYPE_NAMES.index(key)
        if kind == "flopcategory":
            if key not in FLOP_CATEGORIES:
                raise self.fail(f"unknown flop category {text!r}", column, key, FLOP_CATEGORIES)
            return FLOP_CATEGORIES.index(key)
        try:
            return parse_card(text.strip())
        except InputError:
            raise self.fail(f"unknown card {text!r}: expected a card such as 'As'", column) from None

    def call(self, node: Call) -> tuple[str, Compiled]:
        function = FUNCTIONS.get(node.name.lower())
        if function is None:
            raise self.fail(f"unknown function {node.name!r}", node.column, node.name,
                            sorted({function.name for function in FUNCTIONS.values()}))
        if len(node.arguments) != len(function.arguments):
            signature = ", ".join(function.arguments)
            raise self.fail(f"{function.name} takes {len(function.arguments)} arguments ({signature}), got "
                            f"{len(node.arguments)}", node.column)
        values = [self.argument(kind, argument, function.name)
                  for kind, argument in zip(function.arguments, node.arguments)]
        streets = [value for kind, value in zip(function.arguments, values) if kind == "street"]
        if streets:
            self.check_street(function.name, streets[0], node)
        compute = function.compute
        return function.result, lambda block: compute(block, *values)

    def check_street(self, name: str, street: int, node: Call) -> None:
        key = name.lower()
        if street == 0 and key not in ("hvhequity", "equity", "minhvhequity"):
            raise self.fail(f"{name} needs a flop, turn or river, got preflop", node.column)
        if street == 5 and key in ("outstohandtype", "minoutstohandtype", "nuthiouts"):
            raise self.fail(f"{name} counts the cards to come: expected flop or turn, got river", node.column)

    def argument(self, kind: str, node: Expression, function: str):
        column = getattr(node, "column", 1)
        if kind in ("player", "street", "handtype", "flopcategory"):
            if not isinstance(node, (Name, Text)):
                raise self.fail(f"{function} expects a {kind} here", column)
            text = node.name if isinstance(node, Name) else node.value
            if kind == "player":
                if text.lower() not in self.players:
                    raise self.fail(f"unknown player {text!r}", column, text, self.bound.names)
                return self.players[text.lower()]
            if kind == "street":
                if text.lower() not in STREETS:
                    raise self.fail(f"unknown street {text!r}", column, text, STREETS)
                return STREETS[text.lower()]
            return self.named_value(text, kind, column)
        if kind == "number":
            sign = 1.0
            if isinstance(node, Unary) and node.operator == "-":
                sign, node = -1.0, node.operand
            if not isinstance(node, Number):
                raise self.fail(f"{function} expects a number here", column)
            return sign * node.value
        if not isinstance(node, Text):
            raise self.fail(f"{function} expects a quoted text here", column)
        if kind == "range":
            return self.range_masks(node)
        if kind == "boardrange":
            try:
                return functions.board_range_mask(node.value)
            except InputError as error:
                raise self.fail(f"bad board range: {error}", column) from None
        if kind == "text" and function.lower() == "category":
            from ..categories.names import parse_term

            for term in node.value.strip().strip("{}").split(","):
                try:
                    parse_term(term)
                except InputError as error:
                    raise self.fail(str(error), column) from None
        return node.value

    def range_masks(self, node: Text) -> np.ndarray:
        board = self.bound.board
        if "{" in node.value and len(board) < 3:
            raise self.fail("inRange with a category filter needs a board of 3 or more cards in the from clause; "
                            "use category(player, street, '{...}') on dealt boards", node.column)
        try:
            hand_range = parse_range(node.value, self.bound.game, board=board if len(board) >= 3 else ())
        except InputError as error:
            raise self.fail(f"bad range: {error}", node.column) from None
        return np.sort(card_masks(hand_range.hands))


# -- dealing ---------------------------------------------------------------------------------

def _flop_rows(bound: Bound) -> np.ndarray:
    """(n, 3) int8: the flops the board allows (the board range's, or every flop)."""
    flops = all_flops()
    return flops[bound.flop_mask] if bound.flop_mask is not None else flops


def _board_completions(bound: Bound) -> np.ndarray:
    """(n, 5) int8: every completion of the board, flop cards as a set, turn and river in order,
    dead cards out (the hands' cards are taken out later)."""
    taken = set(bound.board) | set(bound.dead)
    deck = [card for card in range(DECK_SIZE) if card not in taken]
    known = len(bound.board)
    if known < 3:
        if bound.flop_mask is not None:
            flops = [tuple(row) for row in _flop_rows(bound).tolist() if not taken & set(row)]
        else:
            flops = [(*bound.board, *rest) for rest in itertools.combinations(deck, 3 - known)]
    else:
        flops = [bound.board[:3]]
    rows = np.array(flops, dtype=np.int8).reshape(-1, 3)
    for slot in range(3, 5):
        if slot < known:
            rows = np.concatenate([rows, np.full((rows.shape[0], 1), bound.board[slot], dtype=np.int8)], axis=1)
            continue
        used = card_masks(rows)
        cards = np.array(deck, dtype=np.int64)
        free = ((used[:, None] >> cards[None, :]) & 1) == 0
        row_index, card_index = np.nonzero(free)
        rows = np.concatenate([rows[row_index], cards[card_index, None].astype(np.int8)], axis=1)
    return rows


def exact_size(bound: Bound) -> int:
    """Deals of an exact enumeration before card collisions are taken out (an upper bound)."""
    size = math.prod(hands.shape[0] for hands in bound.hands)
    known = len(bound.board)
    free = DECK_SIZE - known - len(bound.dead) - len(bound.hands) * bound.game.hole_count
    flops = 1 if known >= 3 else (int(bound.flop_mask.sum()) if bound.flop_mask is not None
                                  else math.comb(max(free, 0), 3 - known))
    later = 1
    for slot in range(max(known, 3), 5):
        later *= max(free - (slot - 3) - (3 - min(known, 3)), 1)
    return size * flops * later


def _hand_combinations(bound: Bound):
    """Every combination of the players' hands that shares no card: ``(indexes (n, players),
    masks (n,), weights (n,))``."""
    masks = [card_masks(hands) for hands in bound.hands]
    indexes = np.arange(bound.hands[0].shape[0])[:, None]
    combined = masks[0]
    weights = bound.weights[0].copy()
    for player in range(1, len(bound.hands)):
        left, right = np.nonzero((combined[:, None] & masks[player][None, :]) == 0)
        indexes = np.concatenate([indexes[left], right[:, None]], axis=1)
        combined = combined[left] | masks[player][right]
        weights = weights[left] * bound.weights[player][right]
    return indexes, combined, weights


def exact_blocks(bound: Bound):
    """The exact enumeration, a block at a time: ``(Block, weights)``."""
    indexes, hand_masks, hand_weights = _hand_combinations(bound)
    boards = _board_completions(bound)
    board_masks = card_masks(boards)
    per_block = max(1, BLOCK_DEALS // max(boards.shape[0], 1))
    dead_mask = int(card_masks(np.array([bound.dead]))[0]) if bound.dead else 0
    for first in range(0, indexes.shape[0], per_block):
        piece = slice(first, first + per_block)
        hand_index, board_index = np.nonzero((hand_masks[piece, None] & board_masks[None, :]) == 0)
        if hand_index.size == 0:
            continue
        rows = indexes[piece][hand_index]
        hands = np.stack([bound.hands[player][rows[:, player]] for player in range(len(bound.hands))], axis=1)
        block = Block(bound.game, np.ascontiguousarray(hands), np.ascontiguousarray(boards[board_index]), dead_mask,
                      bound.board)
        yield block, hand_weights[piece][hand_index]


def sampled_blocks(bound: Bound, trials: int, seed: int):
    """Monte Carlo deals, a block at a time: ``(Block, weights of 1)``."""
    generator = np.random.default_rng(seed)
    # a range of equal weights deals by index; weighted ranges by their cumulative weights
    cumulative = [None if np.all(weights == weights[0]) else np.cumsum(weights) for weights in bound.weights]
    masks = [card_masks(hands) for hands in bound.hands]
    dead_mask = int(card_masks(np.array([bound.dead]))[0]) if bound.dead else 0
    fixed_mask = dead_mask | (int(card_masks(np.array([bound.board]))[0]) if bound.board else 0)
    flops = _flop_rows(bound) if len(bound.board) < 3 and bound.flop_mask is not None else None
    flop_masks = card_masks(flops) if flops is not None else None
    done = 0
    while done < trials:
        count = min(BLOCK_DEALS, trials - done)
        hands_parts, board_parts = [], []
        kept = 0
        attempts = 0
        acceptance = 1.0
        while kept < count:
            attempts += 1
            if attempts > 1000:
                raise InputError("the ranges and board almost never fit together without sharing a card: "
                                 "no deal found in a thousand tries")
            # enough deals for the colliding ones to leave what is still needed, in one pass or two
            draw = int((count - kept) / acceptance * 1.2) + 16
            picks = [generator.integers(0, bound.hands[player].shape[0], draw) if cumulative[player] is None else
                     np.minimum(np.searchsorted(cumulative[player], generator.random(draw) * cumulative[player][-1],
                                                side="right"), cumulative[player].shape[0] - 1)
                     for player in range(len(bound.hands))]
            used = np.full(draw, fixed_mask, dtype=np.int64)
            collide = np.zeros(draw, dtype=bool)
            for player, pick in enumerate(picks):
                collide |= (used & masks[player][pick]) != 0
                used |= masks[player][pick]
            boards = np.zeros((draw, 5), dtype=np.int8)
            boards[:, :len(bound.board)] = bound.board
            if flops is not None:
                flop_pick = generator.integers(0, flops.shape[0], draw)
                collide |= (used & flop_masks[flop_pick]) != 0
                used |= flop_masks[flop_pick]
                boards[:, :3] = flops[flop_pick]
            good = ~collide
            acceptance = max(float(good.mean()), 0.001)
            good = np.flatnonzero(good)[:count - kept]
            hands_parts.append(np.stack([bound.hands[player][pick[good]] for player, pick in enumerate(picks)], axis=1))
            boards, used = boards[good], used[good]
            first_free = 3 if flops is not None else len(bound.board)
            for slot in range(first_free, 5):
                cards = generator.integers(0, DECK_SIZE, boards.shape[0])
                taken = ((used >> cards) & 1) == 1
                while taken.any():
                    cards[taken] = generator.integers(0, DECK_SIZE, int(taken.sum()))
                    taken = ((used >> cards) & 1) == 1
                boards[:, slot] = cards
                used |= np.left_shift(np.int64(1), cards.astype(np.int64))
            board_parts.append(boards)
            kept += boards.shape[0]
        block = Block(bound.game, np.ascontiguousarray(np.concatenate(hands_parts)),
                      np.ascontiguousarray(np.concatenate(board_parts)), dead_mask, bound.board)
        done += count
        yield block, np.ones(count, dtype=np.float64)


# -- adding up -------------------------------------------------------------------------------

class _Tally:
    """One selector's sums over the blocks."""

    def __init__(self, kind: str, value_kind: str, grid: int) -> None:
        self.kind, self.value_kind, self.grid = kind, value_kind, grid
        self.weight = 0.0
        self.total = 0.0
        self.squares = 0.0
        self.count = 0
        self.exact_total: int | None = 0
        self.exact_weight = 0
        self.low = math.inf
        self.high = -math.inf
        self.histogram: dict[float, float] = {}
        self.histogram_exact: dict[float, int] = {}

    def add(self, values, weights: np.ndarray, whole: bool) -> None:
        values = np.broadcast_to(np.asarray(values, dtype=np.float64), weights.shape)
        passed = weights > 0
        self.count += int(passed.sum())
        self.weight += float(weights.sum())
        self.total += float((weights * values).sum())
        self.squares += float((weights * values * values).sum())
        if passed.any():
            self.low = min(self.low, float(values[passed].min()))
            self.high = max(self.high, float(values[passed].max()))
        if whole:
            integer_weights = weights.astype(np.int64)
            self.exact_weight += int(integer_weights.sum())
            if self.exact_total is not None:
                scaled = values * self.grid
                if np.all(scaled[passed] == np.round(scaled[passed])):
                    self.exact_total += int((integer_weights * np.round(scaled).astype(np.int64)).sum())
                else:
                    self.exact_total = None
        if self.kind == "histogram" and passed.any():
            distinct, inverse = np.unique(values[passed], return_inverse=True)
            sums = np.bincount(inverse.reshape(-1), weights=weights[passed])
            for value, total in zip(distinct.tolist(), sums.tolist()):
                self.histogram[value] = self.histogram.get(value, 0.0) + total
            if whole:
                integer_sums = np.bincount(inverse.reshape(-1), weights=weights[passed].astype(np.int64))
                for value, total in zip(distinct.tolist(), integer_sums.tolist()):
                    self.histogram_exact[value] = self.histogram_exact.get(value, 0) + int(round(total))

    def result(self, name: str, exact: bool, whole: bool) -> SelectorResult:
        if self.weight == 0:
            return SelectorResult(name, self.kind, None, None, None)
        mean = self.total / self.weight
        if self.kind in ("min", "max"):
            return SelectorResult(name, self.kind, self.low if self.kind == "min" else self.high, None, None)
        variance = max(self.squares / self.weight - mean * mean, 0.0)
        error = 0.0 if exact else math.sqrt(variance / max(self.count - 1, 1))
        if self.kind == "histogram":
            return SelectorResult(name, self.kind, None, None, None, self.buckets(exact, whole))
        fraction = None
        if exact and whole and self.exact_total is not None and self.exact_weight:
            fraction = Fraction(self.exact_total, self.grid * self.exact_weight)
        return SelectorResult(name, self.kind, float(fraction) if fraction is not None else mean, fraction, error)

    def buckets(self, exact: bool, whole: bool) -> tuple[Bucket, ...]:
        items = sorted(self.histogram.items())
        merged: list[tuple[str, float, int | None]] = []
        if self.value_kind == "number" and len(items) > 20:
            low, high = items[0][0], items[-1][0]
            edges = np.linspace(0.0, 1.0, 11) if 0.0 <= low and high <= 1.0 else np.linspace(low, high, 11)
            for number in range(10):
                start, end = edges[number], edges[number + 1]
                inside = [(value, weight) for value, weight in items
                          if start <= value < end or (number == 9 and value == end)]
                exact_sum = sum(self.histogram_exact.get(value, 0) for value, _ in inside) if whole else None
                merged.append((f"{start:.4g}-{end:.4g}", sum(weight for _, weight in inside), exact_sum))
        else:
            for value, weight in items:
                merged.append((_label(value, self.value_kind), weight, self.histogram_exact.get(value) if whole
                               else None))
        result = []
        for label, weight, exact_weight in merged:
            share = weight / self.weight
            fraction = Fraction(exact_weight, self.exact_weight) if exact and whole and self.exact_weight else None
            error = 0.0 if exact else math.sqrt(share * (1 - share) / max(self.count, 1))
            result.append(Bucket(label, float(fraction) if fraction is not None else share, fraction, error))
        return tuple(result)


def _label(value: float, kind: str) -> str:
    if kind == "handtype":
        return HAND_TYPE_NAMES[int(value)]
    if kind == "flopcategory":
        return FLOP_CATEGORIES[int(value)]
    if kind == "card":
        return format_card(int(value))
    if kind == "boolean":
        return "true" if value else "false"
    if kind == "fraction":
        return str(Fraction(value).limit_denominator(720))
    return f"{value:g}"


def _river_tallies(query: str, parsed: Query, bound: Bound, compiler: _Compiler, whole: bool) -> PqlResult | None:
    """The answer from the equity calculator's exact tallies (:mod:`.river_tallies`) when the
    query asks only for river outcomes, with no ``where`` clause or one on hands only, and exact
    enumeration is asked for or affordable by the calculator's own rule (``plan.choose_method``);
    None otherwise, for the block evaluator."""
    if bound.flop_mask is not None or bound.trials is not None:
        return None
    river = river_tallies.prepare(parsed.selectors, parsed.where, bound.game, bound.names, bound.hands,
                                  bound.weights, bound.board, bound.dead, compiler.range_masks)
    if river is None:
        return None
    try:
        method = plan.choose_method("exact" if bound.exact else "auto", river.exact_work, rate=river.exact_rate)
    except InputError:
        raise PqlError(f"exact enumeration would score about {river.exact_work:.1e} player-boards (boards x hands "
                       "x players), beyond the ceiling of the equity calculator: drop 'exact' for Monte Carlo "
                       "(trials=)", parsed.text, 1) from None
    if method != plan.Method.EXACT:
        return None
    try:
        answer = river_tallies.answer(river)
    except InputError:
        return None  # weights too far apart for the calculator's 64-bit sums: the block evaluator's floats
    selectors = tuple(
        SelectorResult(selector.name, selector.kind, None, None, None) if value is None else
        SelectorResult(selector.name, selector.kind, float(value), value if whole else None, 0.0)
        for selector, value in zip(parsed.selectors, answer.values))
    return PqlResult(
        query=query, game=bound.game, players=tuple(zip(bound.names, bound.expressions)),
        board=format_cards(bound.board), dead=format_cards(bound.dead, sort=True), method="exact",
        deal_count=answer.deal_count, where_share=answer.where_share, seed=None, selectors=selectors)


def run(query: str, *, game: str | None = None, trials: int | None = None, seed: int | None = None,
        method: str = "auto") -> PqlResult:
    """Run one PQL query (docs/pql.md).

    Parameters
    ----------
    query : str, e.g. ``"select avg(riverEquity(hero)) from game='omahahi', hero='AA**', villain='15%'"``.
    game : str, the game when the query binds none (default omaha).
    trials, seed : Monte Carlo deals (default :data:`DEFAULT_TRIALS`) and seed, when the query
        binds none (``trials=``, ``seed=``).
    method : ``auto``, ``exact`` or ``monte-carlo``; the binding ``exact`` asks for exact too.

    Returns
    -------
    PqlResult

    Raises
    ------
    PqlError
        A syntax, name or type error (column and caret), a bad binding, or an exact query beyond
        the ceiling.

    Examples
    --------
    >>> result = run("select count(winsHi(hero)) from hero='AsAhKsKh', villain='JdTd9c8c', board='Qd7h2s5c'")
    >>> result.method, result.selectors[0].fraction
    ('exact', Fraction(9, 10))
    """
    if method not in ("auto", "exact", "monte-carlo"):
        raise InputError(f"unknown method {method!r}: expected auto, exact or monte-carlo")
    parsed = parse_query(query)
    bound = bind(parsed, game=game, trials=trials, seed=seed, method=method)
    compiler = _Compiler(parsed, bound)
    compiled = [(selector, *compiler.compile(selector.expression)) for selector in parsed.selectors]
    for selector, kind, _ in compiled:
        if selector.kind == "count" and kind != "boolean":
            raise PqlError(f"count needs a true-or-false expression, got {kind}", parsed.text, selector.column)
        if selector.kind in ("avg", "min", "max") and kind not in _NUMERIC:
            raise PqlError(f"{selector.kind} needs a number, got {kind}", parsed.text, selector.column)
    where = None
    if parsed.where is not None:
        where_kind, where = compiler.compile(parsed.where)
        if where_kind != "boolean":
            raise PqlError(f"where needs a true-or-false expression, got {where_kind}", parsed.text, 1)
    if bound.exact and bound.trials is not None:
        raise PqlError("exact and trials= do not go together: drop one", parsed.text, 1)
    whole = all(np.all(weights == np.round(weights)) for weights in bound.weights)
    river = _river_tallies(query, parsed, bound, compiler, whole)
    if river is not None:
        return river
    size = exact_size(bound)
    exact = bound.exact or (bound.trials is None and size <= EXACT_DEALS)
    if exact and size > EXACT_CEILING:
        raise PqlError(f"exact enumeration would deal up to {size:,} deals, beyond the ceiling of "
                       f"{EXACT_CEILING:,}: drop 'exact' for Monte Carlo (trials=)", parsed.text, 1)
    grid = pot_units(len(bound.names), bound.game.hilo)
    seed_used = None
    if exact:
        blocks = exact_blocks(bound)
    else:
        seed_used = bound.seed if bound.seed is not None else int(np.random.SeedSequence().entropy % 2**63)
        blocks = sampled_blocks(bound, bound.trials or DEFAULT_TRIALS, seed_used)
    tallies = [_Tally(selector.kind, kind, grid) for selector, kind, _ in compiled]
    deal_count = 0
    total_weight = 0.0
    passed_weight = 0.0
    equities: dict = {}
    for block, weights in blocks:
        block.equities = equities
        deal_count += block.deal_count
        total_weight += float(weights.sum())
        if where is not None:
            weights = weights * np.asarray(where(block), dtype=bool)
        passed_weight += float(weights.sum())
        for tally, (_, _, compute) in zip(tallies, compiled):
            tally.add(compute(block), weights, whole)
    if deal_count == 0:
        raise InputError("no deal is possible: the players' ranges, board and dead cards always share a card")
    return PqlResult(
        query=query, game=bound.game, players=tuple(zip(bound.names, bound.expressions)),
        board=format_cards(bound.board) if bound.flop_mask is None else bound.board_text,
        dead=format_cards(bound.dead, sort=True), method="exact" if exact else "monte-carlo", deal_count=deal_count,
        where_share=passed_weight / total_weight if total_weight else 0.0, seed=seed_used,
        selectors=tuple(tally.result(selector.name, exact, whole)
                        for tally, (selector, _, _) in zip(tallies, compiled)),
    )
