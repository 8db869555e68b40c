"""What ``omaha-equity hits`` shows: a range's composition as rows, a title and JSON data for the
shared renderer (``omaha_equity.views.render``)."""

from __future__ import annotations

from typing import Any

from .render import render
from ..studies.hits import Composition

_PERCENT_COLUMNS = ("share", "equity", "vs")


def composition_rows(composition: Composition) -> list[dict[str, Any]]:
    """One row per part (the CSV columns): fractions 0..1, the part's filter in range syntax."""
    rows = []
    for row in composition.rows:
        entry: dict[str, Any] = {"section": row.section, "category": row.name, "level": row.level,
                                 "combinations": row.combinations, "share": row.share}
        if composition.vs is not None:
            entry.update(equity=row.equity,
                         equity_exact=str(row.equity_fraction) if row.equity_fraction is not None else "",
                         standard_error=row.standard_error, vs_equity=row.vs_equity)
        entry["filter"] = row.filter
        rows.append(entry)
    return rows


def composition_data(composition: Composition) -> dict[str, Any]:
    """JSON data: the query and every row."""
    return {
        "game": composition.game.name, "range": composition.expression, "board": composition.board,
        "dead": composition.dead, "vs": composition.vs, "method": composition.method, "seed": composition.seed,
        "combinations": composition.combinations, "rows": composition_rows(composition),
    }


def composition_title(composition: Composition) -> str:
    dead = f" | dead: {composition.dead}" if composition.dead else ""
    title = (f"{composition.game.title} | {composition.expression!r} on {composition.board}{dead} | "
             f"{composition.combinations:,} hand combinations")
    if composition.vs is not None:
        method = "exact" if composition.method == "exact" else f"Monte Carlo, seed {composition.seed}"
        title += f" | against {composition.vs}: {method}"
    return title


def composition_report(composition: Composition, format_name: str = "table", style: str = "simple",
                       draws: bool = True) -> str:
    """The composition as a ``table`` (sections one after another, draws indented under their
    made hand; ``draws=False`` leaves the draw rows out of the table), ``csv`` or ``json``."""
    if format_name != "table":
        return render(format_name, composition_rows(composition), composition_data(composition))
    rows = []
    previous_section = None
    for row in composition.rows:
        if row.level and not draws:
            continue
        section = row.section if row.section != previous_section else ""
        previous_section = row.section
        entry: dict[str, Any] = {"": section, "category": ("· " * row.level) + row.name,
                                 "hands": f"{row.combinations:,}", "share": row.share}
        if composition.vs is not None:
            entry["equity"] = row.equity
            if composition.method != "exact":
                entry["± s.e."] = f"{row.standard_error * 100:.2f}" if row.standard_error is not None else "n/a"
            entry["vs"] = row.vs_equity
        rows.append(entry)
    footer = ("share: of the range's weight; draws (flop and turn) split each made hand; equity: the part's "
              "against the other player, vs: the other player's against it" if composition.vs is not None else
              "share: of the range's weight; draws (flop and turn) split each made hand; categories in "
              "docs/categories.md")
    return render("table", rows, None, percent_columns=_PERCENT_COLUMNS, title=composition_title(composition),
                  footer=footer, style=style)
