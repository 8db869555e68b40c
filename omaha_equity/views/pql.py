"""What ``omaha-equity pql`` shows: each selector's answer as rows (a histogram one row per bar),
a title and JSON data for the shared renderer (``omaha_equity.views.render``)."""

from __future__ import annotations

from typing import Any

from ..pql import PqlResult
from .render import render


def _error(value: float | None) -> str:
    return "" if value is None else f"{value * 100:.3f}"


def pql_rows(result: PqlResult) -> list[dict[str, Any]]:
    """One row per selector, or per bar of a histogram (the CSV columns): shares and averages
    as numbers, the exact fraction when exact, the standard error (fraction)."""
    rows = []
    for selector in result.selectors:
        if selector.kind == "histogram":
            for bucket in selector.buckets:
                rows.append({"name": selector.name, "selector": selector.kind, "bucket": bucket.label,
                             "value": bucket.share, "exact": str(bucket.fraction) if bucket.fraction else "",
                             "standard_error": bucket.standard_error})
        else:
            rows.append({"name": selector.name, "selector": selector.kind, "bucket": "", "value": selector.value,
                         "exact": str(selector.fraction) if selector.fraction is not None else "",
                         "standard_error": selector.standard_error})
    return rows


def pql_data(result: PqlResult) -> dict[str, Any]:
    """JSON data: the query, how it ran, and every selector."""
    return {"query": result.query, "game": result.game.name, "players": dict(result.players), "board": result.board,
            "dead": result.dead, "method": result.method, "deals": result.deal_count, "seed": result.seed,
            "where_share": result.where_share, "rows": pql_rows(result)}


def pql_title(result: PqlResult) -> str:
    players = ", ".join(f"{name}={expression!r}" for name, expression in result.players)
    board = f" | board {result.board}" if result.board else ""
    method = "exact" if result.method == "exact" else f"Monte Carlo, seed {result.seed}"
    where = f" | where: {result.where_share * 100:.2f}% of deals" if result.where_share != 1.0 else ""
    return f"{result.game.title} | {players}{board} | {method}, {result.deal_count:,} deals{where}"


def pql_report(result: PqlResult, format_name: str = "table", style: str = "simple") -> str:
    """The answers as a ``table`` (count and histogram shares as percentages, avg as a number),
    ``csv`` or ``json``."""
    if format_name != "table":
        return render(format_name, pql_rows(result), pql_data(result))
    rows = []
    for row, selector_kind in zip(pql_rows(result), (row["selector"] for row in pql_rows(result))):
        value = row["value"]
        if value is None:
            shown = "n/a"
        elif selector_kind in ("count", "histogram"):
            shown = f"{value * 100:.2f}%"
        else:
            shown = f"{value:.6g}"
        entry = {"name": row["name"], "bucket": row["bucket"], "value": shown, "exact": row["exact"]}
        if result.method != "exact":
            scale = 100 if selector_kind in ("count", "histogram") else 1
            error = row["standard_error"]
            entry["± s.e."] = "" if error is None else f"{error * scale:.3g}"
        rows.append(entry)
    if not any(row["bucket"] for row in rows):
        for row in rows:
            del row["bucket"]
    return render("table", rows, None, title=pql_title(result), style=style,
                  footer="count and histogram: shares of the deals that pass where; ± s.e.: the Monte Carlo standard "
                         "error (percentage points for shares)")
