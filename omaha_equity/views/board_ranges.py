"""A command's result over a board range (``-b 'AK*'``): the command's own table, CSV or JSON,
saying how many concrete flops it covered.

The table's title gains ``| 1,152 flops (96 runs)``; each CSV row gains the columns
``board_range``, ``flops`` and ``runs``; the JSON object the keys of the same names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .render import render_csv, render_json


def coverage_text(flops: int, runs: int) -> str:
    """``1,152 flops (96 runs)``: the concrete flops covered and the queries run."""
    return f"{flops:,} flop{'' if flops == 1 else 's'} ({runs:,} run{'' if runs == 1 else 's'})"


def covered_report(covered, report: Callable[..., str], rows: Callable[[Any], list[dict[str, Any]]],
                   data: Callable[[Any], dict[str, Any]], format_name: str = "table", style: str = "simple") -> str:
    """``covered.result`` rendered by the command's own ``report`` (table), ``rows`` (CSV) or
    ``data`` (JSON), with what the board range covered (module docstring).

    Parameters
    ----------
    covered : omaha_equity.studies.board_ranges.Covered
    report : callable
        ``report(result, format_name, style) -> str``, the command's renderer.
    rows, data : callable
        The command's CSV rows and JSON data of a result.
    """
    extra = {"board_range": covered.board_range, "flops": covered.flops, "runs": covered.runs}
    if format_name == "csv":
        return render_csv([{**row, **extra} for row in rows(covered.result)])
    if format_name == "json":
        return render_json({**data(covered.result), **extra})
    title, _, rest = report(covered.result, "table", style).partition("\n")
    return f"{title} | {coverage_text(covered.flops, covered.runs)}\n{rest}"
