"""Rendering results as a table (tabulate), CSV or JSON: rows are dicts, one shared renderer.

Numbers in rows are fractions 0..1 (CSV and JSON keep them so); the table shows the columns
listed as percentages with two decimals, "0" and "100" exactly when a value is exactly 0 or 1.
"""

from __future__ import annotations

import csv
import functools
import io
import json
from collections.abc import Iterable, Sequence
from typing import Any

FORMATS = ("table", "csv", "json")

#: tabulate's default style, the one :func:`simple_table` writes itself.
SIMPLE_STYLE = "simple"

# tabulate's "simple" style: columns two spaces apart, each at least its header's width plus
# this (tabulate.MIN_PADDING), a line of dashes under the headers.
_COLUMN_GAP = "  "
_HEADER_PADDING = 2

# Characters beyond printable ASCII that a plain cell may hold: one column wide in any terminal
# (and to tabulate's width function, wcwidth or len).
_NARROW_CHARACTERS = frozenset("±")

# Cells tabulate reads as a bool even with number parsing off (its _isbool): left to tabulate.
_BOOL_TEXTS = frozenset({"True", "False"})


def percent(value: float) -> str:
    """``0.6148131 -> '61.48%'``; exact 0 and 1 print as ``0%`` and ``100%``."""
    if value == 0:
        return "0%"
    if value == 1:
        return "100%"
    return f"{value * 100:.2f}%"


def render_table(rows: Sequence[dict[str, Any]], *, percent_columns: Iterable[str] = (),
                 title: str | None = None, footer: str | None = None, style: str = "simple") -> str:
    """Rows as a tabulate table; ``percent_columns`` shown as percentages."""
    percent_columns = set(percent_columns)
    shown = [
        {key: percent(value) if key in percent_columns and value is not None else value for key, value in row.items()}
        for row in rows
    ]
    lines = [title] if title else []
    table = simple_table(shown) if style == SIMPLE_STYLE else None
    if table is None:
        from tabulate import tabulate  # lazy: CSV and JSON output do not need it (it reads package metadata)

        table = tabulate(shown, headers="keys", tablefmt=style, disable_numparse=True)
    lines.append(table)
    if footer:
        lines.append(footer)
    return "\n".join(lines)


def _plain_cell(value: Any) -> str | None:
    """``value`` as the text tabulate's "simple" style shows with number parsing off, when that
    is the text itself (ints and plain one-line strings, no surrounding blanks); else None."""
    kind = type(value)
    if kind is int:
        return str(value)
    if kind is not str or not value or value in _BOOL_TEXTS or value[0] == " " or value[-1] == " ":
        return None
    if value.isascii():  # printable ASCII has no blank but the space, checked at both ends above
        return value if value.isprintable() else None
    return value if value == value.strip() and value.isprintable() and all(
        c.isascii() or c in _NARROW_CHARACTERS for c in value) else None


def _plain_cells(values: Iterable[Any]) -> list[str] | None:
    """Each of ``values`` as :func:`_plain_cell` shows it, or None when one is not plain."""
    cells = []
    for value in values:
        cell = _plain_cell(value)
        if cell is None:
            return None
        cells.append(cell)
    return cells


def simple_table(rows: Sequence[dict[str, Any]]) -> str | None:
    """Rows as tabulate's "simple" style writes them (``headers="keys"``, no number parsing:
    every column flush left), without tabulate's generality, when every row has the same keys
    and every cell is plain (:func:`_plain_cell`); else None (tabulate then writes it).

    tabulate's rules kept: a column is as wide as its widest cell and at least its header's
    width plus 2; cells two spaces apart; trailing blanks dropped from each line.

    >>> print(simple_table([{"player": 1, "equity": "61.48%"}, {"player": 2, "equity": "38.52%"}]))
    player    equity
    --------  --------
    1         61.48%
    2         38.52%
    """
    if not rows:
        return None
    keys = list(rows[0])
    headers = _plain_cells(keys)
    if not headers:
        return None
    columns = []
    for row in rows:
        cells = _plain_cells(row.values()) if list(row) == keys else None
        if cells is None:
            return None
        columns.append(cells)
    return plain_table_text(headers, columns)


def plain_table_text(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Headers and rows of cells already plain (:func:`simple_table`'s checks passed, or cells
    known to be plain: numbers, percentages, cards) laid out as tabulate's "simple" style."""
    widths = [len(header) + _HEADER_PADDING for header in headers]
    if rows:
        widths = [max(width, max(map(len, column))) for width, column in zip(widths, zip(*rows))]
    line, rule = _line_layout(tuple(widths))
    lines = [line.format(*headers).rstrip(), rule]
    lines += [line.format(*cells).rstrip() for cells in rows]
    return "\n".join(lines)


@functools.lru_cache(maxsize=256)
def _line_layout(widths: tuple[int, ...]) -> tuple[str, str]:
    """The format string of a line of cells this wide (each left-aligned, two spaces apart) and
    the line of dashes under the headers: kept per widths, since the shell writes thousands of
    tables of a few shapes a second."""
    return (_COLUMN_GAP.join([f"{{:<{width}}}" for width in widths]),
            _COLUMN_GAP.join(["-" * width for width in widths]))


def render_csv(rows: Sequence[dict[str, Any]]) -> str:
    """Rows as CSV with a header row (the keys of the first row)."""
    buffer = io.StringIO()
    if rows:
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return buffer.getvalue().rstrip("\n")


def render_json(data: Any) -> str:
    """Data as indented JSON."""
    return json.dumps(data, indent=2)


def render(format_name: str, rows: Sequence[dict[str, Any]], data: Any, *, percent_columns: Iterable[str] = (),
           title: str | None = None, footer: str | None = None, style: str = "simple") -> str:
    """One of the three formats: ``table`` and ``csv`` show ``rows``; ``json`` shows ``data``."""
    if format_name == "json":
        return render_json(data)
    if format_name == "csv":
        return render_csv(rows)
    return render_table(rows, percent_columns=percent_columns, title=title, footer=footer, style=style)
