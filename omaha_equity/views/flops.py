"""What ``omaha-equity flops`` shows: a range across the flops, one row per flop class or
texture and a last row for the whole board range, for the shared renderer
(``omaha_equity.views.render``). CSV and JSON carry every category; the table shows groups of
them so that it fits a terminal."""

from __future__ import annotations

from typing import Any

from .render import render
from ..studies.flops import MADE_HAND_GROUPS, FlopRow, FlopStudy


def _column_name(section: str, name: str) -> str:
    return name if section == "made hand" else f"{section}: {name}"


def flop_rows(study: FlopStudy) -> list[dict[str, Any]]:
    """One row per flop class or texture, then the total (the CSV columns): shares as fractions
    0..1 of the range's weight, hand combinations summed over the concrete flops."""
    rows = []
    for row in (*study.rows, study.total):
        entry: dict[str, Any] = {"flop" if study.by == "flop" else "texture": row.label}
        if study.by == "flop":
            entry["texture"] = row.texture
        entry.update(flops=row.flops, classes=row.classes, combinations=row.combinations)
        for (section, name), share in zip(study.columns, row.shares):
            entry[_column_name(section, name)] = share
        if study.vs is not None:
            entry.update(equity=row.equity, standard_error=row.standard_error)
        rows.append(entry)
    return rows


def _row_data(study: FlopStudy, row: FlopRow) -> dict[str, Any]:
    data: dict[str, Any] = {"label": row.label, "texture": row.texture, "flops": row.flops, "classes": row.classes,
                            "combinations": row.combinations,
                            "shares": {_column_name(section, name): share
                                       for (section, name), share in zip(study.columns, row.shares)},
                            "counts": {_column_name(section, name): count
                                       for (section, name), count in zip(study.columns, row.counts)}}
    if study.vs is not None:
        data.update(equity=row.equity, standard_error=row.standard_error)
    return data


def flops_data(study: FlopStudy) -> dict[str, Any]:
    """JSON data: the query, every row and the total."""
    return {
        "game": study.game.name, "range": study.expression, "vs": study.vs, "board_range": study.board_range,
        "dead": study.dead, "filter": study.filter, "by": study.by, "method": study.method, "seed": study.seed,
        "trials_per_flop": study.trials, "flops_run": study.orbits,
        "rows": [_row_data(study, row) for row in study.rows], "total": _row_data(study, study.total),
    }


def flops_title(study: FlopStudy) -> str:
    dead = f" | dead: {study.dead}" if study.dead else ""
    title = (f"{study.game.title} | {study.expression!r} on {study.total.flops:,} flops of {study.board_range!r} "
             f"({study.total.classes:,} classes){dead}")
    if study.vs is not None:
        method = "exact" if study.method == "exact" else \
            f"Monte Carlo, {study.trials:,} deals a flop, seed {study.seed}"
        title += f" | against {study.vs}: {method}"
    return title


def flops_report(study: FlopStudy, format_name: str = "table", style: str = "simple") -> str:
    """The study as a ``table`` (made hands in groups, the nuts, the filter and equity), ``csv``
    or ``json`` (every category)."""
    if format_name != "table":
        return render(format_name, flop_rows(study), flops_data(study))
    index = {_column_name(section, name): position for position, (section, name) in enumerate(study.columns)}
    percent_columns = [header for header, _ in MADE_HAND_GROUPS] + ["nuts"]
    rows = []
    for row in (*study.rows, study.total):
        entry: dict[str, Any] = {"flop" if study.by == "flop" else "texture": row.label}
        if study.by == "flop":
            entry["texture"] = row.texture
        entry["flops"] = f"{row.flops:,}"
        for header, members in MADE_HAND_GROUPS:
            entry[header] = sum(row.shares[index[name]] for name in members)
        entry["nuts"] = row.shares[index["nut status: nuts"]]
        if study.filter is not None:
            entry[study.filter] = row.shares[-1]
        if study.vs is not None:
            entry["equity"] = row.equity
            if study.method != "exact":
                entry["± s.e."] = f"{row.standard_error * 100:.2f}" if row.standard_error is not None else "n/a"
        rows.append(entry)
    if study.filter is not None:
        percent_columns.append(study.filter)
    if study.vs is not None:
        percent_columns.append("equity")
    footer = ("shares: of the range's weight, pooled over each row's concrete flops; the last row is every flop "
              "of the board range; every category in -f csv or json (docs/flops.md)")
    return render("table", rows, None, percent_columns=percent_columns, title=flops_title(study), footer=footer,
                  style=style)
