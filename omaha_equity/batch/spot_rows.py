"""The CSV lines of a spot's result (``equity.many_spots``), written straight from its counts.

A batch of small queries spends most of its time turning results into rows: an
``EquityResult`` with its fractions, one dict per player, each cell looked at by the CSV
writer. A spot's rows are the same text made directly: the statistics of a player (from
``equity`` to ``no_low``) depend only on its counts, so they are formatted once per distinct
counts and kept (a heads-up river has three outcomes), and the rest of the line is the query's.
The text is what ``files.RowWriter`` writes for the same rows, byte for byte
(``tests/test_batch_spots.py`` compares them): every number as ``str`` gives it, fractions in
lowest terms as ``Fraction`` prints them, text cells escaped (``cells.escape_cell``) and quoted
as the ``csv`` module quotes them.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from math import gcd

from ..cards import NO_CARDS, format_cards
from ..equity.counters import (EQUITY, EQUITY_LOW, HAS_LOW, HI_TIE, HI_WIN, LO_TIE, LO_WIN, QUARTERED, SPLIT, TIE,
                               WIN)
from ..equity.many_spots import Spot
from ..pots import pot_units
from .cells import escape_cell

# pots.pot_units per (players, hi/lo), worked out once
_pot_units = functools.cache(pot_units)
# Formatted statistics kept at most (then forgotten all at once): a few megabytes.
_MAX_KEPT = 50_000
_kept: dict[tuple, str] = {}
# The characters that make the csv module quote a cell (QUOTE_MINIMAL, ',' and '"', line end '\n').
_QUOTED_CHARACTERS = frozenset(',"\n')
# A high-only game's hi/lo cells (equity_high .. has_low, 10) and low_possible, no_low: empty.
_NO_HILO_CELLS = "," * 12


def text_cell(text: str) -> str:
    """A text cell as ``files.RowWriter`` writes it: escaped for spreadsheets, then quoted
    when the csv module would quote it."""
    text = escape_cell(text)
    if _QUOTED_CHARACTERS.isdisjoint(text):
        return text
    return '"' + text.replace('"', '""') + '"'


def _exact_text(numerator: int, denominator: int) -> str:
    """``str(Fraction(numerator, denominator))`` without making the Fraction."""
    divisor = gcd(numerator, denominator)
    numerator //= divisor
    denominator //= divisor
    return str(numerator) if denominator == 1 else f"{numerator}/{denominator}"


def statistics_cells(counts: Sequence[int], units: int, board_count: int, hilo: bool, low_boards: int) -> str:
    """The cells ``equity`` .. ``no_low`` of one player's row, joined by commas, as
    ``results.table_rows.equity_rows`` and ``PlayerEquity.from_counts`` make them from the
    same counts (an exact result: standard error 0.0, every fraction over ``board_count``)."""
    key = (tuple(counts), units, board_count, hilo, low_boards if hilo else 0)
    text = _kept.get(key)
    if text is not None:
        return text
    share, low = counts[EQUITY], counts[EQUITY_LOW]
    denominator = units * board_count
    cells = [str(share / denominator), _exact_text(share, denominator), "0.0", str(counts[WIN] / board_count),
             str(counts[TIE] / board_count)]
    if hilo:
        cells += [str((share - low) / denominator), str(low / denominator)]
        cells += [str(counts[index] / board_count) for index in (SPLIT, HI_WIN, HI_TIE, LO_WIN, LO_TIE, WIN,
                                                                  QUARTERED, HAS_LOW)]
        cells += [str(low_boards / board_count), str((board_count - low_boards) / board_count)]
        text = ",".join(cells)
    else:
        text = ",".join(cells) + _NO_HILO_CELLS
    if len(_kept) >= _MAX_KEPT:
        _kept.clear()
    _kept[key] = text
    return text


def spot_csv_text(query_id: str, seed: int | None, spot: Spot, counts: Sequence[Sequence[int]],
                  low_boards: int) -> str:
    """Every player's CSV line of a spot's result (``run.BatchResult.rows`` as CSV)."""
    game = spot.game
    hilo = game.hilo
    units = _pot_units(len(spot.hands), hilo)
    board_count = spot.board_count
    # cards as text are ranks and suits only: nothing to escape or quote (a lone "-" neither)
    tail = (f"{text_cell(game.name)},{format_cards(spot.board) or NO_CARDS},"
            f"{format_cards(spot.dead, sort=True) or NO_CARDS},exact,{board_count},"
            f"{'' if seed is None else seed},\n")
    head = text_cell(query_id)
    return "".join([
        f"{head},{player},{format_cards(cards, sort=True)},"
        f"{statistics_cells(row, units, board_count, hilo, low_boards)},{tail}"
        for player, (cards, row) in enumerate(zip(spot.hands, counts), start=1)])
