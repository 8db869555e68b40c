"""The public range API: :class:`HandRange`, :func:`parse_range`, :func:`is_specific_hand`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np

from ..runtime.cache import read_only
from ..cards import DECK_SIZE, format_cards, parse_cards
from ..errors import InputError, quoted
from ..games import Game, get_game
from ..rankings import canonical_percent_range, percent_range
from ..categories import categorize_hands
from ..categories.filters import category_hands, terms_mask
from ..categories.names import LOW_FIELDS, parse_term
from .hand_lists import HandList, list_hands
from .program import Program, compile_program, weigh_signature
from .syntax import CategoryFilter, Pattern, Percent, check_expression, parse_expression

# Chunks per expansion: enough to balance two to eight threads, few enough to stay cheap.
_CHUNK_HANDS = 16_384
_MAX_CHUNKS = 256


@dataclass(frozen=True, eq=False)
class HandRange:
    """The hands of a range, expanded for one hole-card count.

    Attributes
    ----------
    expression : str
        The range as written, e.g. ``"AA:$ds, KK@0.5"``.
    hole_count : int
        Cards per hand: 4, 5 or 6.
    hands : (size, hole_count) int8, read-only
        One hand per row, cards (``rank * 4 + suit``) descending within the row; rows unique, in
        the canonical order: descending by the bit mask ``sum(1 << card)``, which is
        lexicographically descending rows (``AsAhAdAc`` first, ``5c4c3c2c`` last).
    weights : (size,) float64, read-only
        Relative sampling weight of each hand, positive; all 1.0 unless ``@N`` was used.
    """

    expression: str
    hole_count: int
    hands: np.ndarray
    weights: np.ndarray

    @property
    def size(self) -> int:
        """Number of hands in the range."""
        return int(self.hands.shape[0])

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"HandRange({self.expression!r}, hole_count={self.hole_count}, size={self.size})"

    def without(self, cards: Iterable[int] | str, reason: str = "") -> HandRange:
        """The hands that hold none of ``cards`` (dead cards, board, other players' cards).

        Parameters
        ----------
        cards : iterable of int, or str
            Card ints 0..51 (or card text such as ``"AsAhAd"``).
        reason : str
            How the error names the removed cards, e.g. ``"dead cards AsAhAd"``; by default
            ``"AsAhAd removed"``.

        Returns
        -------
        HandRange
            ``self`` when no hand holds any of the cards, else a new range (same expression,
            order and weights of the remaining hands).

        Raises
        ------
        InputError
            ``no hand in range 'AA' is possible with dead cards AsAhAd`` when nothing remains.
        """
        removed = sorted(set(parse_cards(cards)), reverse=True)
        if not removed:
            return self
        lookup = np.zeros(DECK_SIZE, dtype=np.bool_)
        lookup[removed] = True
        hit = lookup[self.hands].any(axis=1) if self.size else np.zeros(0, dtype=np.bool_)
        if not hit.any():
            return self
        keep = ~hit
        if not keep.any():
            raise InputError(_empty_message(self.expression, removed, reason))
        return HandRange(self.expression, self.hole_count, _frozen(self.hands[keep]), _frozen(self.weights[keep]))


def parse_range(
    expression: str,
    game: str | Game = "omaha",
    die: int | None = None,
    excluded: Iterable[int] | str = (),
    excluded_reason: str = "",
    board: Iterable[int] | str = (),
) -> HandRange:
    """Parse a range in the generic syntax and expand it to hands of the game's hole-card count.

    Parameters
    ----------
    expression : str
        E.g. ``"AA:$ds, KK@0.5"``, ``"RxRyOxOy"``, ``"15%6h"``, ``"AsKhJd2c"``, ``"*"`` (the
        syntax is in the :mod:`omaha_equity.ranges` docstring).
    game : str or Game
        Name or alias (:func:`omaha_equity.games.get_game`); sets the hole-card count 4, 5 or 6
        and the ranking used by percent ranges.
    die : int, optional
        Binglao's die roll.
    excluded : iterable of int, or str
        Cards no hand may hold (board, dead cards, other players' known cards).
    excluded_reason : str
        How the error names the excluded cards, e.g. ``"dead cards AsAhAd"``.
    board : iterable of int, or str
        The board (3 to 5 cards) that category filters such as ``{set+}`` read
        (docs/categories.md); its cards are also excluded.

    Returns
    -------
    HandRange
        ``hands`` (size, hole_count) int8 in canonical order, ``weights`` (size,) float64.

    Raises
    ------
    InputError
        Bad syntax (the message names the 0-based position), a pattern with more cards than the
        hand, a percent range outside 0..100 or in a game without a ranking, or a range with no
        hand left (``no hand in range 'AA' is possible with dead cards AsAhAd``).

    Examples
    --------
    >>> parse_range("AA").size
    6961
    >>> parse_range("AA!AAA", excluded="As").size
    3384
    """
    check_expression(expression)
    game = get_game(game, die)
    board_cards = tuple(parse_cards(board))
    removed = sorted(set(parse_cards(excluded)) | set(board_cards), reverse=True)
    try:
        program = _program(expression, game.hole_count, game.name)
    except RecursionError:
        # only long chains of '!' (and not) still nest one level per term
        raise InputError(
            f"range {quoted(expression)} nests too deeply: split long chains of '!' with parentheses"
        ) from None
    hands, weights = _expand(program, game, removed, board_cards, expression)
    if hands.shape[0] == 0:
        if removed and not any(isinstance(source, CategoryFilter) for source in program.sets) and \
                _expand(program, game, [], board_cards, expression)[0].shape[0] > 0:
            raise InputError(_empty_message(expression, removed, excluded_reason))
        raise InputError(
            f"no hand in range {quoted(expression)} is possible: "
            f"no {game.hole_count}-card hand of {game.name} matches it"
        )
    return HandRange(expression, game.hole_count, _frozen(hands), _frozen(weights))


def is_specific_hand(expression: str, game: str | Game = "omaha", die: int | None = None) -> bool:
    """True when ``expression`` is exactly one fully written hand, e.g. ``AsKhJd2c`` in omaha.

    Callers keep their fixed-hand path for these. Card text is as flexible as elsewhere
    (``as kh jd 2c``, ``10s``, ``A♠``); a weight, span or combinator makes it a range.

    Raises
    ------
    InputError
        For bad syntax, like :func:`parse_range`.
    """
    game = get_game(game, die)
    node = parse_expression(expression)
    if not isinstance(node, Pattern) or len(node.cards) != game.hole_count:
        return False
    return all(
        card.rank >= 0 and card.suit >= 0 and not card.rank_variable and not card.suit_variable
        for card in node.cards
    )


# -- expansion ----------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _program(expression: str, hole_count: int, game_name: str) -> Program:
    return compile_program(parse_expression(expression), hole_count, game_name, expression)


@lru_cache(maxsize=1)
def _binomials() -> np.ndarray:
    """``(53, 8) int64``: ``C(n, k)`` for n 0..52, k 0..7."""
    table = np.array([[comb(n, k) for k in range(8)] for n in range(DECK_SIZE + 1)], dtype=np.int64)
    table.flags.writeable = False
    return table


def _frozen(array: np.ndarray) -> np.ndarray:
    array = np.ascontiguousarray(array)
    array.flags.writeable = False
    return array


def _empty_message(expression: str, removed: list[int], reason: str) -> str:
    return f"no hand in range {quoted(expression)} is possible with {reason or format_cards(removed) + ' removed'}"


def deck_indexes(hands: np.ndarray) -> np.ndarray:
    """Canonical position of each hand among all hands of its size.

    Parameters
    ----------
    hands : (n, hole_count) integer array, cards descending within each row

    Returns
    -------
    (n,) int64: ``C(52, hole_count) - 1 - colex rank``, so position 0 is ``AsAhAd...``.
    """
    binomials = _binomials()
    hole_count = hands.shape[1]
    ascending = hands[:, ::-1].astype(np.int64)
    colex = np.zeros(hands.shape[0], dtype=np.int64)
    for position in range(hole_count):
        colex += binomials[ascending[:, position], position + 1]
    return comb(DECK_SIZE, hole_count) - 1 - colex


def _percent_hands(percent: Percent, game: Game) -> np.ndarray:
    """A percent range's hands from the shipped ranking, canonical: (n, hole_count) int8."""
    return _ranked_hands(game, percent.low, percent.high, percent.six_handed, percent.text)


@lru_cache(maxsize=64)
def _ranked_hands(game: Game, low: float, high: float, six_handed: bool, text: str) -> np.ndarray:
    # canonical already when the ranking keeps its hands' positions (4 and 5 hole cards)
    canonical = canonical_percent_range(game, low, high, six_handed)
    hands = np.asarray(percent_range(game, low, high, six_handed) if canonical is None else canonical)
    if hands.ndim != 2 or (hands.shape[0] and hands.shape[1] != game.hole_count):
        raise InputError(f"percent range {quoted(text)} did not give {game.hole_count}-card hands for {game.name}")
    hands = hands.astype(np.int8, copy=False)
    return _frozen(hands if canonical is not None else canonical_rows(hands))


def canonical_rows(hands: np.ndarray) -> np.ndarray:
    """Hands in the canonical order, each once.

    Parameters
    ----------
    hands : (n, hole_count) int8, cards 0..51

    Returns
    -------
    (m, hole_count) int8, m <= n: the distinct hands, cards descending within each row, rows
    lexicographically descending (``AsAhAdAc...`` first). A radix sort of the rows packed into
    integers (:func:`._kernels.canonical_rows`): a percent range's slice of the ranking costs
    tens of microseconds instead of an argsort of deck positions.
    """
    from . import _kernels as kernels  # lazy: importing numba is slow

    rows = np.empty_like(hands)
    count = kernels.canonical_rows(read_only(hands), rows)
    if count < 0:  # some row's cards are not in descending order: order them first
        hands = np.ascontiguousarray(np.sort(hands, axis=1)[:, ::-1])
        count = kernels.canonical_rows(read_only(hands), rows)
    return rows[:count]


@lru_cache(maxsize=16)
def _listed(hand_list: HandList, hole_count: int) -> tuple[np.ndarray, np.ndarray, list]:
    return list_hands(hand_list, hole_count)


def _set_hands(source: Percent | HandList, game: Game) -> np.ndarray:
    """The hands of a set atom (a percent range or a list of written hands), canonical."""
    if isinstance(source, HandList):
        return _listed(source, game.hole_count)[0]
    return _percent_hands(source, game)


def _check_filter(source: CategoryFilter, game: Game, board: tuple[int, ...], expression: str) -> None:
    """Raises InputError without a board of 3 to 5 cards, or for a low term in a high-only game."""
    if not 3 <= len(board) <= 5:
        given = f"got {len(board)} board cards ({format_cards(board)})" if board else "got no board"
        raise InputError(f"category filter {quoted(source.text)} at position {source.position} in {quoted(expression)} "
                         f"needs a board of 3 to 5 cards (a flop, turn or river; -b in the command line): {given}")
    if not game.hilo and any(field in LOW_FIELDS
                             for term in source.terms for field, _, _ in parse_term(term).conditions):
        raise InputError(f"category filter {quoted(source.text)} at position {source.position} in {quoted(expression)} "
                         f"names a low category: {game.name} has no low (expected a hi/lo game such as omaha8)")


def _expand(program: Program, game: Game, removed: list[int], board: tuple[int, ...] = (),
            expression: str = "") -> tuple[np.ndarray, np.ndarray]:
    """Run the kernels (or, for a lone set: a percent range, a list of written hands or a
    category filter, filter its hands): ``hands``, ``weights``.

    Category filters are worked out on the hands that can matter only: a first pass takes
    every filter as holding every hand where that can only add hands (and none where it stands
    after a '!'), which gives a superset of the range; those hands are categorized, and a
    second pass runs with the filters' real hands. ``15%:{set+}`` categorizes the 15%, not the
    deck."""
    from . import _kernels as kernels  # lazy: importing numba is slow

    hole_count = game.hole_count
    filters = [index for index, source in enumerate(program.sets) if isinstance(source, CategoryFilter)]
    for index in filters:
        _check_filter(program.sets[index], game, board, expression)
    operations = program.operations
    if operations.shape[0] <= 2 and operations[0, 0] == kernels.OP_SET:  # 'P%', 'P%@N', a list, a filter
        source = program.sets[0]
        hands = (category_hands(source.terms, hole_count, tuple(sorted(board)), game.hilo) if filters
                 else _set_hands(source, game))
        if removed:
            lookup = np.zeros(DECK_SIZE, dtype=np.bool_)
            lookup[removed] = True
            hands = hands[~lookup[hands].any(axis=1)]
        if not program.weighted:
            return np.ascontiguousarray(hands), np.ones(hands.shape[0], dtype=np.float64)
        return np.ascontiguousarray(hands), _weights(program, hands, None, game)

    removed_set = set(removed)
    required = [card for card in program.required_cards if card not in removed_set]
    if len(required) < len(program.required_cards) or len(required) > hole_count:
        return np.zeros((0, hole_count), dtype=np.int8), np.zeros(0, dtype=np.float64)
    unavailable = removed_set | set(required)
    deck = np.array([card for card in range(DECK_SIZE) if card not in unavailable], dtype=np.int64)
    deck_arguments = (deck, np.array(required, dtype=np.int64), hole_count)
    if program.sets:
        sets = np.zeros((len(program.sets), comb(DECK_SIZE, hole_count)), dtype=np.uint8)
        for index, source in enumerate(program.sets):
            if index in filters:
                sets[index] = 0 if program.set_negated[index] else 1
            else:
                sets[index, deck_indexes(_set_hands(source, game))] = 1
    else:
        sets = np.zeros((0, 0), dtype=np.uint8)
    hands = _matched_hands(kernels, program, deck_arguments, sets)
    if filters:
        fields = categorize_hands(hands, tuple(sorted(board)), game.hilo)
        for index in filters:
            sets[index] = 0
            held = terms_mask(fields, program.sets[index].terms, hands, tuple(sorted(board)))
            sets[index, deck_indexes(hands[held])] = 1
        hands = _matched_hands(kernels, program, deck_arguments, sets)
    if not program.weighted:
        return hands, np.ones(hands.shape[0], dtype=np.float64)
    return hands, _weights(program, hands, sets, game)


def _matched_hands(kernels, program: Program, deck_arguments: tuple, sets: np.ndarray) -> np.ndarray:
    """The hands of the deck (around the required cards) that the program holds, canonical."""
    deck, _, hole_count = deck_arguments
    total = comb(deck.shape[0], hole_count - deck_arguments[1].shape[0])
    chunk_count = max(1, min(_MAX_CHUNKS, total // _CHUNK_HANDS))
    program_arguments = (program.card_allowed, program.card_info, program.pattern_info, sets, _binomials())
    matched = np.empty(total, dtype=np.uint8)
    chunk_counts = np.zeros(chunk_count, dtype=np.int64)
    kernels.match_hands(*deck_arguments, program.operations, *program_arguments, chunk_count, matched, chunk_counts)
    match_count = int(chunk_counts.sum())
    hands = np.empty((match_count, hole_count), dtype=np.int8)
    if match_count:
        offsets = np.concatenate(([0], np.cumsum(chunk_counts)[:-1])).astype(np.int64)
        kernels.collect_hands(*deck_arguments, _binomials(), chunk_count, matched, offsets, hands)
    return hands


def _weights(program: Program, hands: np.ndarray, sets: np.ndarray | None, game: Game) -> np.ndarray:
    """Weights of a weighted range's hands: one Python evaluation per distinct set of atoms a
    hand holds and, for weighted lists of written hands, per distinct weight it has in them.
    ``sets`` is None when the range is one set atom (which holds every hand)."""
    from . import _kernels as kernels

    operations = program.operations
    atoms = np.ascontiguousarray(operations[operations[:, 0] <= kernels.OP_SET])
    word_count = max(1, -(-atoms.shape[0] // 62))
    if sets is None:
        signatures = np.ones((hands.shape[0], 1), dtype=np.int64)
    else:
        signatures = np.zeros((hands.shape[0], word_count), dtype=np.int64)
        chunk_count = max(1, min(_MAX_CHUNKS, hands.shape[0] // _CHUNK_HANDS))
        kernels.atom_signatures(hands, atoms, program.card_allowed, program.card_info, program.pattern_info,
                                sets, _binomials(), chunk_count, signatures)
    listed = [(atom, program.sets[argument]) for atom, (operation, argument) in enumerate(atoms.tolist())
              if operation == kernels.OP_SET and isinstance(program.sets[argument], HandList)
              and program.sets[argument].weighted]
    columns, list_values = [signatures], []
    for _, hand_list in listed:
        list_hands_, codes, values = _listed(hand_list, game.hole_count)
        columns.append(_list_codes(hands, list_hands_, codes)[:, None])
        list_values.append(values)
    keys = np.concatenate(columns, axis=1)
    # distinct rows by 1-D uniques, column by column (much faster than a unique over rows)
    inverse = np.zeros(keys.shape[0], dtype=np.int64)
    for column in range(keys.shape[1]):
        values, positions = np.unique(keys[:, column], return_inverse=True)
        _, inverse = np.unique(inverse * values.shape[0] + positions.reshape(-1), return_inverse=True)
    inverse = inverse.reshape(-1)
    first = np.zeros(int(inverse.max()) + 1 if inverse.size else 0, dtype=np.int64)
    first[inverse[::-1]] = np.arange(inverse.shape[0] - 1, -1, -1)
    distinct = keys[first]
    weights = []
    for row in distinct.tolist():
        matched = [bool((row[atom // 62] >> (atom % 62)) & 1) for atom in range(atoms.shape[0])]
        own = {atom: values[row[word_count + index]]
               for index, ((atom, _), values) in enumerate(zip(listed, list_values)) if row[word_count + index] >= 0}
        weights.append(weigh_signature(program, matched, own))
    return np.array(weights, dtype=np.float64)[inverse.reshape(-1)]


def _list_codes(hands: np.ndarray, list_hands_: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Each hand's weight code in a list of written hands (-1 for a hand not in it); both
    arrays of hands canonical (descending card bit mask)."""
    ascending = (np.int64(1) << list_hands_.astype(np.int64)).sum(axis=1)[::-1]
    wanted = (np.int64(1) << hands.astype(np.int64)).sum(axis=1)
    where = np.minimum(np.searchsorted(ascending, wanted), max(ascending.shape[0] - 1, 0))
    found = ascending[where] == wanted if ascending.shape[0] else np.zeros(wanted.shape[0], dtype=bool)
    return np.where(found, codes[::-1][where] if codes.shape[0] else -1, -1)
