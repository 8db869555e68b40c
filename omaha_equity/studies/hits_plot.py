"""``hits --plot``: a range's composition as one stacked bar of shares (matplotlib, the optional
extra ``omaha-equity[plot]``), a segment per made hand, best at the bottom; with ``--vs`` each
segment is coloured by the part's equity (red 0% to green 100%), else by its place in the
ladder. Files are reproducible, as :mod:`.plot`'s."""

from __future__ import annotations

from pathlib import Path

from .hits import MADE_SECTION, Composition
from .plot import check_plot_target, figure_file

# Segments below this share are drawn but not labelled (their text would overlap).
LABEL_MIN_SHARE = 0.025


def plot_composition(composition: Composition, path: str | Path) -> Path:
    """Draw the made-hand shares of a composition to a PNG or SVG file; returns the path.

    Raises
    ------
    InputError
        Another suffix than .png or .svg; no matplotlib; the file cannot be written.
    """
    path = check_plot_target(path)
    rows = [row for row in composition.section(MADE_SECTION) if row.level == 0]
    with figure_file(path, (6, 7)) as (matplotlib, figure, axes):
        colormap = matplotlib.colormaps["RdYlGn"]
        bottom = 0.0
        for position, row in enumerate(rows):
            shade = row.equity if row.equity is not None else 1 - position / max(len(rows) - 1, 1)
            axes.bar([0], [row.share * 100], bottom=[bottom], width=0.6, color=colormap(shade), edgecolor="white")
            if row.share >= LABEL_MIN_SHARE:
                text = row.name if row.equity is None else f"{row.name}: {row.equity * 100:.1f}%"
                axes.text(0, bottom + row.share * 50, f"{text} ({row.share * 100:.1f}% of the range)",
                          ha="center", va="center", fontsize=8)
            bottom += row.share * 100
        axes.set_xlim(-0.5, 0.5)
        axes.set_ylim(0, 100)
        axes.set_xticks([])
        axes.set_ylabel("share of the range (%)")
        against = f", equity against {composition.vs}" if composition.vs else ""
        title = f"{composition.expression} on {composition.board} ({composition.game.title}){against}"
        axes.set_title(title.replace("$", r"\$"), fontsize=9)
        if composition.vs is not None:
            scale = matplotlib.cm.ScalarMappable(norm=matplotlib.colors.Normalize(0, 100), cmap=colormap)
            figure.colorbar(scale, ax=axes, label="the part's equity (%)")
    return path
