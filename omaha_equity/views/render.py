"""Rendering results as a table (tabulate), CSV or JSON: rows are dicts, one shared renderer.

Numbers in rows are fractions 0..1 (CSV and JSON keep them so); the table shows the columns
listed as percentages with two decimals, "0" and "100" exactly when a value is exactly 0 or 1.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from typing import Any

FORMATS = ("table", "csv", "json")


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
    from tabulate import tabulate  # lazy: CSV and JSON output do not need it (it reads package metadata)

    lines = [title] if title else []
    lines.append(tabulate(shown, headers="keys", tablefmt=style, disable_numparse=True))
    if footer:
        lines.append(footer)
    return "\n".join(lines)


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
