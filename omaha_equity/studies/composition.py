"""``range_composition``: what a range holds on a board, by category, and (with ``vs``) how each
part of it fares against another player (docs/categories.md).

The table reads top-down from the best made hand. Each made hand is split by the draws it
holds (flush draw class x straight draw class; flop and turn only); then come the nut status
and, in hi/lo games, the low classes. Every row carries the category filter that selects it,
so ``(RANGE):{set}:{nfd}:{no-straight-draw}`` in any command is exactly that row's hands.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..cards import check_no_duplicates, format_cards, parse_cards
from ..categories import categorize_hands, names
from ..categories.categorize import check_board
from ..categories.filters import each_deck_chunk, terms_mask
from ..deal import CardsLike, parse_board_and_dead
from ..errors import InputError, quoted
from ..games import Game, get_game
from ..ranges import is_specific_hand, parse_range

MADE_SECTION, NUT_SECTION, LOW_SECTION = "made hand", "nut status", "low"
# Draw parts of a made hand's rows: (label, filter term) per flush class and per straight class.
FLUSH_PARTS = (("nfd", "nfd"), ("second-nfd", "second-nfd"), ("weak-fd", "weak-fd"), ("", "no-flush-draw"))
STRAIGHT_PARTS = (("wrap", "wrap"), ("oesd", "oesd"), ("gutshot", "gutshot"), ("", "no-straight-draw"))
NUT_ROWS = (("nuts", ("nuts",), ()), ("second nuts", ("second-nuts",), ()),
            ("beaten by 2 or more", (), ("second-nuts+",)))


@dataclass(frozen=True)
class CategoryRow:
    """One part of the range.

    Attributes
    ----------
    section : str
        ``"made hand"``, ``"nut status"`` or ``"low"``.
    name : str
        The category (``"set"``), or for a made hand's draw rows the draws (``"nfd + wrap"``,
        ``"no draw"``).
    level : int
        0 for a category, 1 for a draw row nested under the made hand above it.
    terms, excluded_terms : tuple of str
        The filter: the hands that hold every term and none of the excluded terms.
    combinations : int
        Hand combinations of the range in this part.
    share : float
        Its share of the range's weight, 0..1.
    equity, equity_fraction, standard_error : float, Fraction or None, float or None
        With ``vs``: this part's equity against the other player (fraction 0..1), exactly when
        enumerated, and its standard error when sampled (0.0 when exact).
    vs_equity : float or None
        The other player's equity against this part (``1 - equity`` heads-up).
    """

    section: str
    name: str
    level: int
    terms: tuple[str, ...]
    excluded_terms: tuple[str, ...]
    combinations: int
    share: float
    equity: float | None = None
    equity_fraction: Fraction | None = None
    standard_error: float | None = None
    vs_equity: float | None = None

    @property
    def filter(self) -> str:
        """The row as range syntax to append to a range: ``:{set}:{nfd}``, ``!{second-nuts+}``."""
        return "".join(f":{{{term}}}" for term in self.terms) + "".join(f"!{{{term}}}" for term in self.excluded_terms)


@dataclass(frozen=True)
class Composition:
    """A range's composition on a board.

    Attributes
    ----------
    game : Game
    expression, board, dead : str
        The range as written, the board and dead cards (canonical text).
    vs : str or None
        The other player's hand or range (``--vs``).
    method : str or None
        With ``vs``: ``"exact"`` or ``"monte-carlo"`` (the least exact of the rows).
    seed : int or None
        The Monte Carlo seed.
    combinations : int
        Hand combinations in the range (less the board, dead cards and ``vs``'s cards).
    rows : tuple of CategoryRow
        The made-hand section (with draw rows), then the nut status, then (hi/lo) the lows.
    """

    game: Game
    expression: str
    board: str
    dead: str
    vs: str | None
    method: str | None
    seed: int | None
    combinations: int
    rows: tuple[CategoryRow, ...]

    def section(self, name: str) -> tuple[CategoryRow, ...]:
        return tuple(row for row in self.rows if row.section == name)

    def row(self, name: str, section: str = MADE_SECTION) -> CategoryRow:
        """The first row of a section with this name (``composition.row("set")``).

        Raises
        ------
        KeyError
            When the section has no such row (a part with no hand is left out).
        """
        for row in self.rows:
            if row.section == section and row.name == name and row.level == 0:
                return row
        raise KeyError(name)


def row_masks(fields: np.ndarray, terms, excluded_terms) -> np.ndarray:
    """Which hands (rows of category fields) hold every term and none of the excluded ones: the
    meaning of a row's filter text, ``:{term}...!{excluded}...``."""
    selected = np.ones(fields.shape[0], dtype=bool)
    for term in terms:
        selected &= terms_mask(fields, (term,))
    return selected & ~terms_mask(fields, tuple(excluded_terms))


def _draw_label(flush_label: str, straight_label: str) -> str:
    return " + ".join(part for part in (flush_label, straight_label) if part) or "no draw"


# A hand's cell: made hand x flush-draw part x straight-draw part (the made-hand rows), its nut
# bucket (nuts, second nuts, beaten by 2 or more) and its low class: counted with one bincount
# each instead of a mask per row.
_PARTS = len(FLUSH_PARTS) * len(STRAIGHT_PARTS)
_MADE_CELLS = len(names.MADE_HANDS) * _PARTS
# straight outs (capped at 9) -> straight part: wrap 0, oesd 1, gutshot 2, none 3
_STRAIGHT_PART = np.array([3, 2, 2, 2, 2, 1, 1, 1, 1, 0], dtype=np.int64)


def row_specs(board_count: int, hilo: bool) -> list[tuple[str, str, int, tuple, tuple, str, tuple]]:
    """Every possible row: (section, name, level, terms, excluded terms, cell kind, cells), in
    table order; the cells are the row's indexes in :func:`hand_cells`' counts of that kind."""
    specs = []
    for made_index, made in enumerate(names.MADE_HANDS):
        first = made_index * _PARTS
        specs.append((MADE_SECTION, made, 0, (made,), (), "made", tuple(range(first, first + _PARTS))))
        if board_count < 5:
            for part, ((flush_label, flush_term), (straight_label, straight_term)) in enumerate(
                    itertools.product(FLUSH_PARTS, STRAIGHT_PARTS)):
                specs.append((MADE_SECTION, _draw_label(flush_label, straight_label), 1,
                              (made, flush_term, straight_term), (), "made", (first + part,)))
    specs.extend((NUT_SECTION, name, 0, terms, excluded, "nut", (bucket,))
                 for bucket, (name, terms, excluded) in enumerate(NUT_ROWS))
    if hilo:
        specs.extend((LOW_SECTION, name, 0, (name,), (), "low", (index,)) for index, name in enumerate(names.LOW_CLASSES))
    return specs


def hand_cells(fields: np.ndarray) -> dict[str, np.ndarray]:
    """Each hand's cell of each kind (``made``, ``nut``, ``low``) from its category fields."""
    flush_class = fields[:, names.FLUSH_CLASS].astype(np.int64)
    flush_part = np.where(flush_class < 0, 3, np.minimum(flush_class, 2))
    straight_part = _STRAIGHT_PART[np.minimum(fields[:, names.STRAIGHT_OUTS], 9)]
    return {
        "made": fields[:, names.MADE].astype(np.int64) * _PARTS + flush_part * len(STRAIGHT_PARTS) + straight_part,
        "nut": np.minimum(fields[:, names.BEATEN], 2).astype(np.int64),
        "low": np.maximum(fields[:, names.LOW], 0).astype(np.int64),
    }


_CELL_COUNTS = {"made": _MADE_CELLS, "nut": len(NUT_ROWS), "low": len(names.LOW_CLASSES)}


class CellTally:
    """Hand counts and weights per cell, added chunk by chunk; rows sum their cells."""

    def __init__(self, specs):
        self.specs = specs
        self.counts = {kind: np.zeros(size, dtype=np.int64) for kind, size in _CELL_COUNTS.items()}
        self.weights = {kind: np.zeros(size, dtype=np.float64) for kind, size in _CELL_COUNTS.items()}
        self.cells: dict[str, np.ndarray] | None = None

    def add(self, fields: np.ndarray, weights: np.ndarray | None, keep_cells: bool = False) -> None:
        cells = hand_cells(fields)
        for kind, size in _CELL_COUNTS.items():
            self.counts[kind] += np.bincount(cells[kind], minlength=size)
            self.weights[kind] += np.bincount(cells[kind], weights=weights, minlength=size)
        if keep_cells:
            self.cells = cells

    def row_count(self, spec) -> int:
        return int(self.counts[spec[5]][list(spec[6])].sum())

    def row_weight(self, spec) -> float:
        return float(self.weights[spec[5]][list(spec[6])].sum())

    def row_mask(self, spec) -> np.ndarray:
        """Which of the hands of the last ``add(..., keep_cells=True)`` are in a row."""
        return np.isin(self.cells[spec[5]], spec[6])


def range_composition(
    expression: str,
    board: CardsLike,
    game: str | Game = "omaha",
    *,
    dead: CardsLike = "",
    vs: str | None = None,
    die: int | None = None,
    method: str = "auto",
    trials: int | None = None,
    seed: int | None = None,
) -> Composition:
    """What the range ``expression`` holds on ``board``, by category; with ``vs``, each part's
    equity against that hand or range.

    Parameters
    ----------
    expression : str
        A range (``"15%"``, ``"AA:$ds"``, ``"*"``: every hand, streamed in chunks).
    board : str
        3 to 5 board cards.
    game, die : as in :func:`~omaha_equity.calculate_equity`.
    dead : str
        Dead cards (removed from the range, not from the outs: docs/categories.md).
    vs : str, optional
        The other player: a hand (each part's equity exact, from one pass over the range), or a
        range, partial hand or ``*`` (each part a ``calculate_equity`` query of ``(RANGE)`` plus
        the row's filter: exact where affordable, Monte Carlo with standard errors otherwise).
    method, trials, seed : as in :func:`~omaha_equity.calculate_equity`, for ``vs``.

    Returns
    -------
    Composition

    Raises
    ------
    InputError
        Bad cards, game or range; a board of fewer than 3 cards; a range with no hand left.
    """
    check_range_text(expression)
    game = get_game(game, die)
    board_cards, dead_cards = parse_board_and_dead(board or "", dead or "")
    check_board(board_cards, "a range's composition and category filters")
    vs_cards: tuple[int, ...] = ()
    if vs is not None and is_specific_hand(vs, game):
        vs_cards = parse_cards(vs)
    check_no_duplicates([("board", board_cards), ("dead cards", dead_cards), ("--vs", vs_cards)])
    specs = row_specs(len(board_cards), game.hilo)
    tally = CellTally(specs)
    known = board_cards + dead_cards + vs_cards
    if expression.strip() == "*" and vs is None:
        total = _stream_deck(tally, known, board_cards, game)
        hands = weights = None
    else:
        reason = "the known cards " + format_cards(sorted(known, reverse=True))
        hand_range = parse_range(expression, game, excluded=known, excluded_reason=reason, board=board_cards)
        hands, weights = hand_range.hands, hand_range.weights
        fields = categorize_hands(hands, board_cards, game.hilo)
        tally.add(fields, weights, keep_cells=vs is not None)
        total = hand_range.size
    total_weight = float(np.sum(weights)) if weights is not None else float(total)
    equities = [None] * len(specs)
    chosen_method = used_seed = None
    if vs is not None:
        from .hits_equity import part_equities  # the equity engine: only with --vs

        masks = [tally.row_mask(spec) if tally.row_count(spec) else None for spec in specs]
        equities, chosen_method, used_seed = part_equities(
            expression, vs, vs_cards, specs, masks, hands, weights, board_cards, dead_cards, game,
            method=method, trials=trials, seed=seed)
    rows = []
    for index, spec in enumerate(specs):
        section, name, level, terms, excluded = spec[:5]
        if tally.row_count(spec) == 0:
            continue
        equity = equities[index]
        rows.append(CategoryRow(
            section=section, name=name, level=level, terms=terms, excluded_terms=excluded,
            combinations=tally.row_count(spec), share=tally.row_weight(spec) / total_weight,
            equity=None if equity is None else equity[0], equity_fraction=None if equity is None else equity[1],
            standard_error=None if equity is None else equity[2],
            vs_equity=None if equity is None else 1.0 - equity[0],
        ))
    rows = _drop_lone_draw_rows(rows)
    return Composition(game=game, expression=expression.strip(), board=format_cards(board_cards),
                       dead=format_cards(dead_cards, sort=True), vs=vs.strip() if vs else None,
                       method=chosen_method, seed=used_seed, combinations=int(total), rows=tuple(rows))


def _drop_lone_draw_rows(rows: list[CategoryRow]) -> list[CategoryRow]:
    """A made hand whose hands all share one draw row keeps that row only when it says something
    (not ``no draw``): the row would repeat its parent."""
    kept = []
    for position, row in enumerate(rows):
        if row.level == 1:
            parent = next(candidate for candidate in reversed(rows[:position]) if candidate.level == 0)
            if row.combinations == parent.combinations and row.name == "no draw":
                continue
        kept.append(row)
    return kept


def _stream_deck(tally: CellTally, known, board_cards, game: Game) -> int:
    """Categorize every hand of the deck less ``known`` in chunks (flat memory): the count."""
    total = 0
    for chunk in each_deck_chunk(known, game.hole_count):
        tally.add(categorize_hands(chunk, board_cards, game.hilo), None)
        total += chunk.shape[0]
    return total


def check_range_text(expression) -> str:
    if not isinstance(expression, str) or not expression.strip():
        raise InputError(f"expected a range such as '15%' or 'AA:$ds', got {quoted(expression)}")
    return expression
