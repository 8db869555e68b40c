"""A range across every flop: its made hands, nut status and equity by texture, to a CSV file and
a heat map (needs omaha-equity[plot] for the picture).

Usage: python examples/all_flops_study.py [OUTPUT_FOLDER] [RANGE] [--vs HAND] [--board BOARDRANGE]
                                          [--trials N] [--seed N]

Runs ``RANGE`` (default ``15%``) on every flop class of the board range (default ``*``: the 1,755
classes of all 22,100 flops, a few minutes on two cores) against ``--vs`` (default
``AsKsQdJh``), groups the flops by texture, and writes:

- ``flops_by_texture.csv``: a row per texture and one for all flops, with every made hand's and
  nut status's share of the range (0..1), the range's equity and its standard error;
- ``flops_by_texture.png``: a heat map of the same, textures by category, the range's share of
  each in percent and its equity in the last column.

It prints the table the command line prints (``omaha-equity flops RANGE --vs HAND --by texture``).
"""

import argparse
import sys
from pathlib import Path

import numpy as np

from omaha_equity.equity.query import RunOptions
from omaha_equity.studies.flops import flop_study
from omaha_equity.views.flops import flops_report


def draw_heat_map(study, path):
    """Textures (rows) by made hand and nut status (columns, percent of the range), and the
    range's equity as the last column."""
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    rows = [*study.rows, study.total]
    # the made hands some texture holds, then the nut status
    shown = [position for position, (section, _) in enumerate(study.columns)
             if section != "made hand" or any(row.shares[position] > 0 for row in rows)]
    headers = [name if section == "made hand" else name.replace("second nuts", "2nd nuts")
               for section, name in (study.columns[position] for position in shown)] + ["equity"]
    values = np.array([[row.shares[position] for position in shown] + [row.equity] for row in rows]) * 100
    figure, axes = plt.subplots(figsize=(2 + 0.55 * len(headers), 1.5 + 0.45 * len(rows)))
    image = axes.imshow(values, aspect="auto", cmap="magma", vmin=0, vmax=100)
    axes.set_xticks(range(len(headers)), headers, rotation=45, ha="right", fontsize=8)
    axes.set_yticks(range(len(rows)), [row.label for row in rows], fontsize=8)
    for row_number, row_values in enumerate(values):
        for column, value in enumerate(row_values):
            axes.text(column, row_number, f"{value:.0f}", ha="center", va="center", fontsize=7,
                      color="white" if value < 50 else "black")
    title = f"{study.expression} against {study.vs} on {study.total.flops:,} flops of {study.board_range}"
    axes.set_title(title.replace("$", r"\$"), fontsize=10)  # "$" would start matplotlib's math text
    figure.colorbar(image, ax=axes, label="% of the range (equity: %)")
    figure.tight_layout()
    # no date in the file, so the same study draws the same bytes
    figure.savefig(path, metadata={"Software": None})
    plt.close(figure)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=".", type=Path)
    parser.add_argument("range", nargs="?", default="15%")
    parser.add_argument("--vs", default="AsKsQdJh")
    parser.add_argument("--board", default="*", help="board range (default: every flop)")
    parser.add_argument("--trials", type=int, help="Monte Carlo deals a flop (default: exact where cheap)")
    parser.add_argument("--seed", type=int)
    arguments = parser.parse_args()
    options = RunOptions.checked("auto" if arguments.trials is None else "monte-carlo", trials=arguments.trials,
                                 seed=arguments.seed)
    study = flop_study(arguments.range, vs=arguments.vs, board_range=arguments.board, by="texture",
                       options=options)
    print(flops_report(study))
    arguments.folder.mkdir(parents=True, exist_ok=True)
    table = arguments.folder / "flops_by_texture.csv"
    table.write_text(flops_report(study, "csv") + "\n", encoding="utf-8")
    print(f"-> {table}")
    print(f"-> {draw_heat_map(study, arguments.folder / 'flops_by_texture.png')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
