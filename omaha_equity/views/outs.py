"""What ``omaha-equity outs`` shows: each card that can come next, and the totals."""

from __future__ import annotations

from typing import Any

from ..studies.outs import HandOuts
from .render import render


def outs_rows(outs: HandOuts) -> list[dict[str, Any]]:
    """One row per next card (the CSV columns)."""
    rows = []
    for out in outs.cards:
        row: dict[str, Any] = {"card": out.card, "hand_type": out.hand_type, "high": out.high,
                               "high_status": out.high_status}
        if outs.game.hilo:
            row.update(low=out.low or "", low_status=out.low_status)
        row.update(category=out.category, improves=out.improves)
        if outs.vs is not None:
            row.update(equity=out.equity, equity_exact=str(out.equity_fraction) if out.equity_fraction else "")
        rows.append(row)
    return rows


def outs_data(outs: HandOuts) -> dict[str, Any]:
    """JSON data: the hand now, the totals and every card."""
    return {"game": outs.game.name, "hand": outs.hand, "board": outs.board, "dead": outs.dead, "vs": outs.vs,
            "blockers": outs.blockers, "hand_type": outs.hand_type, "high": outs.high,
            "high_status": outs.high_status, "category": outs.category, "equity": outs.equity,
            "type_counts": outs.type_counts, "improving": outs.improving_count, "nut_outs": outs.nut_count,
            "second_nut_outs": outs.second_nut_count, "nut_low_outs": outs.low_nut_count, "cards": outs_rows(outs)}


def outs_report(outs: HandOuts, format_name: str = "table", style: str = "simple") -> str:
    """The cards as a ``table`` (with the totals under it), ``csv`` or ``json``."""
    if format_name != "table":
        return render(format_name, outs_rows(outs), outs_data(outs))
    rows = outs_rows(outs)
    for row in rows:
        row["improves"] = "yes" if row["improves"] else ""
        row.pop("equity_exact", None)
    status = f" ({outs.high_status})" if outs.high_status else ""
    equity = f" | equity {outs.equity * 100:.2f}% against {outs.vs}" if outs.equity is not None else ""
    nut_rule = "hand and dead cards out" if outs.blockers else "board only out, as the categories"
    title = (f"{outs.game.title} | {outs.hand} on {outs.board}: {outs.high}{status}, {outs.category}{equity} | "
             f"{len(outs.cards)} cards to come")
    totals = ", ".join(f"{name} {count}" for name, count in outs.type_counts.items() if count)
    footer = (f"improving: {outs.improving_count} | nut outs: {outs.nut_count}, second-nut outs: "
              f"{outs.second_nut_count}" + (f", nut-low outs: {outs.low_nut_count}" if outs.game.hilo else "")
              + f" | by hand type: {totals} | nut status: {nut_rule}")
    return render("table", rows, None, percent_columns=("equity",), title=title, footer=footer, style=style)
