"""``range_composition``: what a range holds on a board, by category, and (with ``vs``) how each
part of it fares against another player (docs/categories.md).

The table reads top-down from the best made hand. Each made hand is split by the draws it
holds (flush draw x straight draw x full-house/quads draw, with the backdoor draws on the flop;
flop and turn only); then come the nut status and, in hi/lo games, the low classes, each made
low split by counterfeit risk. Every row carries the category filter that selects it, so
``(RANGE):{set}:{nfd}:{no-straight-draw}!{backdoor-sd}`` in any command is exactly that row's
hands.
"""

from __future__ import annotations

import itertools
from collections import Counter
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
from .memory import NARROWER_RANGE, check_study_memory

MADE_SECTION, NUT_SECTION, LOW_SECTION = "made hand", "nut status", "low"
# A made hand's draws, three ways (flop and turn): the flush draw, the straight draw and the
# full-house/quads draw. Each way's parts, best first, as (label, filter term); a hand is in
# exactly one part of each way (part indexes: hand_cells). The last part of each holds none of
# its draws; the backdoor parts exist on the flop only.
FLUSH_PARTS = (("nfd", "nfd"), ("second-nfd", "second-nfd"), ("weak-fd", "weak-fd"), ("backdoor-fd", "backdoor-fd"),
               ("", "no-flush-draw"))
STRAIGHT_PARTS = (("wrap", "wrap"), ("oesd", "oesd"), ("gutshot", "gutshot"), ("backdoor-sd", "backdoor-sd"),
                  ("", "no-straight-draw"))
BOAT_PARTS = (("boat-draw", "boat-draw"), ("", None))
_BACKDOOR_PART = 3
NUT_ROWS = (("nuts", ("nuts",), ()), ("second nuts", ("second-nuts",), ()),
            ("beaten by 2 or more", (), ("second-nuts+",)))
# Rows of a part holding no draw: left out when they would only repeat the row above them.
_NOTHING_TO_ADD = ("no draw", "no counterfeit risk")


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
        """The row as range syntax to append to a range: ``:{set}:{nfd}``,
        ``:{overpair}:{no-draw}!{backdoor-fd, backdoor-sd}``, ``!{second-nuts+}``."""
        return filter_text(self.terms, self.excluded_terms)


def filter_text(terms, excluded_terms) -> str:
    """``:{term}`` per term, then ``!{excluded, ...}``: the hands that hold every term and none
    of the excluded terms."""
    excluded = f"!{{{', '.join(excluded_terms)}}}" if excluded_terms else ""
    return "".join(f":{{{term}}}" for term in terms) + excluded


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


# A hand's cell of each kind, so that each row is a sum of cells counted with one bincount per
# kind instead of a mask per row: made hand x flush part x straight part x boat part (the
# made-hand rows), the nut bucket (nuts, second nuts, beaten by 2 or more) and the low class x
# counterfeit risk (yes, no).
_PARTS = len(FLUSH_PARTS) * len(STRAIGHT_PARTS) * len(BOAT_PARTS)
_MADE_CELLS = len(names.MADE_HANDS) * _PARTS
# straight outs (capped at 9) -> straight part: wrap 0, oesd 1, gutshot 2, none 4
_STRAIGHT_PART = np.array([4, 2, 2, 2, 2, 1, 1, 1, 1, 0], dtype=np.int64)
# Made hands that may or may not draw to a full house or quads, and those that always do on a
# flop or turn: a set (the fourth card of its rank, or a board card paired), trips (the fourth
# card) and two pair of the hole cards (two cards left of each pair's rank: a third would make
# a set); tests/test_hits.py checks it on whole decks.
_BOAT_MADE_HANDS = (names.FLUSH_HAND, names.STRAIGHT_HAND, names.BOARD_PAIR_PLUS_PAIR)
ALWAYS_BOAT_DRAW = (names.SET, names.TRIPS, names.TOP_TWO, names.TOP_AND_BOTTOM, names.BOTTOM_TWO)
_MADE_LOWS = (names.NUT_LOW, names.SECOND_NUT_LOW, names.WEAK_LOW)


def _made_cell(made: int, flush_part: int, straight_part: int, boat_part: int) -> int:
    return ((made * len(FLUSH_PARTS) + flush_part) * len(STRAIGHT_PARTS) + straight_part) * len(BOAT_PARTS) + boat_part


def _ways(made: int, board: tuple[int, ...]) -> list[list[tuple[str, tuple, tuple, tuple]]]:
    """The draw ways that can split ``made`` on ``board``, each a list of parts (label, terms,
    excluded terms, part indexes). A way that cannot split the made hand is one part with no
    label and no term holding every index, so the rows' filters name only what splits them:
    flush draws below a flush, straight draws below a straight (each with its backdoor part on
    the flop), boat draws for a flush, a straight, a board pair plus a pair, and for no made
    hand on a board of three of a rank (one card pairing a hole card then makes a full house).
    A pair never draws to a boat in one card: its five cards would need three of a rank and a
    pair, two hole cards and a board pair it does not have; a set, trips and two pair of the
    hole cards always do (``ALWAYS_BOAT_DRAW``). (tests/test_hits.py checks every row's filter
    against its cells.)"""
    flop = len(board) == 3
    ways = []
    for parts, live in ((FLUSH_PARTS, made > names.FLUSH_HAND), (STRAIGHT_PARTS, made > names.STRAIGHT_HAND)):
        if not live:
            ways.append([("", (), (), tuple(range(len(parts))))])
            continue
        way = [(label, (term,), (), (index,)) for index, (label, term) in enumerate(parts[:_BACKDOOR_PART])]
        if flop:
            label, term = parts[_BACKDOOR_PART]
            way.append((label, (term,), (), (_BACKDOOR_PART,)))
            way.append(("", (parts[-1][1],), (term,), (_BACKDOOR_PART + 1,)))
        else:  # no backdoor draw on the turn: its part is always empty
            way.append(("", (parts[-1][1],), (), (_BACKDOOR_PART, _BACKDOOR_PART + 1)))
        ways.append(way)
    board_trips = max(Counter(card >> 2 for card in board).values()) >= 3
    if made in _BOAT_MADE_HANDS or (made == names.NOTHING and board_trips):
        label, term = BOAT_PARTS[0]
        ways.append([(label, (term,), (), (0,)), ("", (), (term,), (1,))])
    else:
        ways.append([("", (), (), (0, 1))])
    return ways


def _draw_row(made: int, parts) -> tuple[str, tuple, tuple, tuple]:
    """A made hand's draw row from one part of each way: label, terms, excluded terms, cells.
    The rows of a made hand that always draws to a boat say so only when it is the only draw."""
    label = " + ".join(part[0] for part in parts if part[0]) or (
        "boat-draw" if made in ALWAYS_BOAT_DRAW else "no draw")
    terms = [term for part in parts for term in part[1]]
    if "no-flush-draw" in terms and "no-straight-draw" in terms:  # the two in one word
        terms = ["no-draw" if term == "no-flush-draw" else term for term in terms if term != "no-straight-draw"]
    excluded = tuple(term for part in parts for term in part[2])
    cells = tuple(_made_cell(made, *indexes) for indexes in itertools.product(*(part[3] for part in parts)))
    return label, (names.MADE_HANDS[made], *terms), excluded, cells


def row_specs(board: tuple[int, ...], hilo: bool) -> list[tuple[str, str, int, tuple, tuple, str, tuple]]:
    """Every possible row on ``board`` (card ints): (section, name, level, terms, excluded terms,
    cell kind, cells), in table order; the cells are the row's indexes in :func:`hand_cells`'
    counts of that kind."""
    specs = []
    draws = len(board) < 5
    for made, made_name in enumerate(names.MADE_HANDS):
        first = made * _PARTS
        specs.append((MADE_SECTION, made_name, 0, (made_name,), (), "made", tuple(range(first, first + _PARTS))))
        ways = _ways(made, board)
        if not draws or all(len(way) == 1 for way in ways):
            continue
        for parts in itertools.product(*ways):
            label, terms, excluded, cells = _draw_row(made, parts)
            specs.append((MADE_SECTION, label, 1, terms, excluded, "made", cells))
    specs.extend((NUT_SECTION, name, 0, terms, excluded, "nut", (bucket,))
                 for bucket, (name, terms, excluded) in enumerate(NUT_ROWS))
    if hilo:
        for index, name in enumerate(names.LOW_CLASSES):
            specs.append((LOW_SECTION, name, 0, (name,), (), "low", (2 * index, 2 * index + 1)))
            if draws and index in _MADE_LOWS:  # a made low, and a card to come that may counterfeit it
                specs.append((LOW_SECTION, "counterfeit-risk", 1, (name, "counterfeit-risk"), (), "low", (2 * index,)))
                specs.append((LOW_SECTION, "no counterfeit risk", 1, (name,), ("counterfeit-risk",), "low",
                              (2 * index + 1,)))
    return specs


def hand_cells(fields: np.ndarray) -> dict[str, np.ndarray]:
    """Each hand's cell of each kind (``made``, ``nut``, ``low``) from its category fields."""
    flush_class = fields[:, names.FLUSH_CLASS].astype(np.int64)
    no_flush_part = np.where(fields[:, names.BACKDOOR_FLUSH] > 0, _BACKDOOR_PART, _BACKDOOR_PART + 1)
    flush_part = np.where(flush_class < 0, no_flush_part, np.minimum(flush_class, 2))
    straight_part = _STRAIGHT_PART[np.minimum(fields[:, names.STRAIGHT_OUTS], 9)]
    straight_part = np.where((straight_part == _BACKDOOR_PART + 1) & (fields[:, names.BACKDOOR_STRAIGHT] > 0),
                             _BACKDOOR_PART, straight_part)
    boat_part = (fields[:, names.BOAT_OUTS] == 0).astype(np.int64)
    return {
        "made": _made_cell(fields[:, names.MADE].astype(np.int64), flush_part, straight_part, boat_part),
        "nut": np.minimum(fields[:, names.BEATEN], 2).astype(np.int64),
        "low": 2 * np.maximum(fields[:, names.LOW], 0).astype(np.int64) + (fields[:, names.COUNTERFEIT] == 0),
    }


_CELL_COUNTS = {"made": _MADE_CELLS, "nut": len(NUT_ROWS), "low": 2 * len(names.LOW_CLASSES)}


class CellTally:
    """Hand counts and weights per cell, added chunk by chunk; rows sum their cells."""

    def __init__(self, specs):
        self.specs = specs
        self.counts = {kind: np.zeros(size, dtype=np.int64) for kind, size in _CELL_COUNTS.items()}
        self.weights = {kind: np.zeros(size, dtype=np.float64) for kind, size in _CELL_COUNTS.items()}
        self.cells: dict[str, np.ndarray] | None = None
        self._groups: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def add(self, fields: np.ndarray, weights: np.ndarray | None, keep_cells: bool = False) -> None:
        cells = hand_cells(fields)
        for kind, size in _CELL_COUNTS.items():
            self.counts[kind] += np.bincount(cells[kind], minlength=size)
            self.weights[kind] += np.bincount(cells[kind], weights=weights, minlength=size)
        if keep_cells:
            self.cells = cells
            self._groups = {}

    def row_count(self, spec) -> int:
        return int(self.counts[spec[5]][list(spec[6])].sum())

    def row_weight(self, spec) -> float:
        return float(self.weights[spec[5]][list(spec[6])].sum())

    def row_hands(self, spec) -> np.ndarray:
        """The indexes, ascending, of the hands of the last ``add(..., keep_cells=True)`` in a
        row: ``(row_count,) int64`` (each cell's hands found once, by one sort per kind, rather
        than a pass over every hand per row)."""
        kind = spec[5]
        if kind not in self._groups:
            cells = self.cells[kind]
            order = np.argsort(cells, kind="stable")
            starts = np.zeros(_CELL_COUNTS[kind] + 1, dtype=np.int64)
            np.cumsum(np.bincount(cells, minlength=_CELL_COUNTS[kind]), out=starts[1:])
            self._groups[kind] = order, starts
        order, starts = self._groups[kind]
        return np.sort(np.concatenate([order[starts[cell]:starts[cell + 1]] for cell in spec[6]]))

    def row_mask(self, spec) -> np.ndarray:
        """Which of the hands of the last ``add(..., keep_cells=True)`` are in a row."""
        mask = np.zeros(self.cells[spec[5]].shape[0], dtype=bool)
        mask[self.row_hands(spec)] = True
        return mask


# Hands categorized at a time when no part's hands are kept (the composition alone).
CATEGORIZE_CHUNK = 1 << 20

# What the parts' equities against another player hold per hand of the range: its category
# fields (26 bytes) and cells (24), their sort (24), and what the parts against a hand add
# (hits_equity.AGAINST_HAND_BYTES_PER_HAND); the whole command on a 6-card range of 678,792 hands
# peaked about 85 MB above the range itself (125 bytes a hand), rounded up.
VS_BYTES_PER_HAND = 200


def range_composition(
    expression: str, board: CardsLike, game: str | Game = "omaha", *, dead: CardsLike = "", vs: str | None = None,
    die: int | None = None, method: str = "auto", trials: int | None = None, seed: int | None = None,
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
        Bad cards, game or range; a board of fewer than 3 cards; a range with no hand left;
        with ``vs``, a range of more hands than the memory budget allows
        (:func:`.memory.check_study_memory`), before any work on it.
    """
    check_range_text(expression)
    game = get_game(game, die)
    board_cards, dead_cards = parse_board_and_dead(board or "", dead or "")
    check_board(board_cards, "a range's composition and category filters")
    vs_cards: tuple[int, ...] = ()
    if vs is not None and is_specific_hand(vs, game):
        vs_cards = parse_cards(vs)
    check_no_duplicates([("board", board_cards), ("dead cards", dead_cards), ("--vs", vs_cards)])
    specs = row_specs(board_cards, game.hilo)
    tally = CellTally(specs)
    known = board_cards + dead_cards + vs_cards
    if expression.strip() == "*" and vs is None:
        total = _stream_deck(tally, known, board_cards, game)
        hands = weights = None
    else:
        reason = "the known cards " + format_cards(sorted(known, reverse=True))
        hand_range = parse_range(expression, game, excluded=known, excluded_reason=reason, board=board_cards)
        hands, weights = hand_range.hands, hand_range.weights
        total = hand_range.size
        if vs is None:  # a chunk at a time: the category fields of 14 million 6-card hands take 364 MB
            for first in range(0, total, CATEGORIZE_CHUNK):
                chunk = slice(first, first + CATEGORIZE_CHUNK)
                tally.add(categorize_hands(hands[chunk], board_cards, game.hilo), weights[chunk])
        else:
            check_study_memory("the parts' equities against another player", total, VS_BYTES_PER_HAND,
                               NARROWER_RANGE)
            tally.add(categorize_hands(hands, board_cards, game.hilo), weights, keep_cells=True)
    total_weight = float(np.sum(weights)) if weights is not None else float(total)
    equities = [None] * len(specs)
    chosen_method = used_seed = None
    if vs is not None:
        from .hits_equity import part_equities  # the equity engine: only with --vs

        part_hands = (tally.row_hands(spec) if tally.row_count(spec) else None for spec in specs)  # one at a time
        equities, chosen_method, used_seed = part_equities(
            expression, vs, vs_cards, specs, part_hands, hands, weights, board_cards, dead_cards, game,
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
            if row.combinations == parent.combinations and row.name in _NOTHING_TO_ADD:
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
