"""``flops --plot``: a heat map of a flop study, textures by made-hand group (the share of the
range in each, or with ``--vs`` a last column of equity), drawn with matplotlib (the optional
extra ``omaha-equity[plot]``); files are reproducible, as :mod:`.plot`'s."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .flops import MADE_HAND_GROUPS, FlopStudy
from .plot import check_plot_target, figure_file



def plot_flops(study: FlopStudy, path: str | Path) -> Path:
    """Draw the study's rows (textures or flop classes) by made-hand group to a PNG or SVG file;
    returns the path.

    Raises
    ------
    InputError
        Another suffix than .png or .svg; no matplotlib; the file cannot be written.
    """
    path = check_plot_target(path)
    index = {name: position for position, (section, name) in enumerate(study.columns) if section == "made hand"}
    rows = list(study.rows) + [study.total]
    labels = [row.label for row in rows]
    values = np.array([[sum(row.shares[index[name]] for name in members) for _, members in MADE_HAND_GROUPS]
                       for row in rows]) * 100
    headers = [label for label, _ in MADE_HAND_GROUPS]
    if study.vs is not None:
        values = np.column_stack([values, [100 * row.equity if row.equity is not None else np.nan for row in rows]])
        headers.append("equity")
    values[[row.combinations == 0 for row in rows]] = np.nan  # no hand of the range there: left blank
    height = min(4 + 0.3 * len(rows), 200)
    with figure_file(path, (8, height)) as (_, figure, axes):
        image = axes.imshow(values, aspect="auto", cmap="viridis", vmin=0, vmax=100)
        axes.set_xticks(range(len(headers)), headers, rotation=30, ha="right")
        axes.set_yticks(range(len(labels)), labels, fontsize=8 if len(labels) < 60 else 4)
        if len(rows) <= 40:
            for row_number, row_values in enumerate(values):
                for column, value in enumerate(row_values):
                    if np.isnan(value):
                        continue
                    axes.text(column, row_number, f"{value:.0f}", ha="center", va="center", fontsize=7,
                              color="white" if value < 50 else "black")
        # "$" would start matplotlib's math text ("AA:$ds"): shown literally
        axes.set_title(f"{study.expression} on {study.board_range} (% of the range; equity in %)".replace(
            "$", r"\$"), fontsize=10)
        figure.colorbar(image, ax=axes, label="%")
    return path


