"""Drawing an equity distribution with matplotlib (the optional extra ``omaha-equity[plot]``).

matplotlib is imported only here, and only when a plot is drawn. SVG output is byte-for-byte
reproducible: the ids matplotlib writes are hashed from a fixed salt (``svg.hashsalt``) and no
date is stored (metadata ``Date: None``); PNG files carry no date either.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import InputError, OutputError, out_of_space, quoted
from ..runtime.output_files import output_file
from .distribution import BY_HAND, EquityDistribution

PLOT_FORMATS = (".png", ".svg")
INSTALL_HINT = "plotting needs matplotlib: pip install 'omaha-equity[plot]'"
SVG_HASH_SALT = "omaha-equity"


def load_pyplot():
    try:
        import matplotlib
    except ImportError:
        raise InputError(INSTALL_HINT) from None
    matplotlib.use("Agg", force=True)  # files only; never open a window
    import matplotlib.pyplot as pyplot

    return matplotlib, pyplot


def check_plot_target(path: str | Path) -> Path:
    """Check a plot file name (``.png`` or ``.svg``) and that matplotlib is installed.

    Raises
    ------
    InputError
        Another suffix, or no matplotlib (the message says ``pip install 'omaha-equity[plot]'``).
    """
    path = Path(path)
    if path.suffix.lower() not in PLOT_FORMATS:
        raise InputError(f"unknown plot format {path.name!r}: expected a file name ending in .png or .svg")
    load_pyplot()
    return path


def save_figure(figure, path: Path) -> None:
    """Write a figure with no date in it (reproducible files).

    Raises
    ------
    OutputError
        The file cannot be written (exit code 1): the disk is full (``no space left writing
        FILE``) or another reason (``cannot write the plot to 'FILE': REASON``); nothing
        half-written is left under the name.
    """
    suffix = path.suffix.lower()
    metadata = {"Date": None} if suffix == ".svg" else {"Software": None}
    # the one rule of every output (runtime.output_files): a temporary file renamed over the name
    try:
        with output_file(path, binary=True, name=str(path)) as stream:
            figure.savefig(stream, format=suffix[1:], metadata=metadata)
    except OutputError as error:
        if out_of_space(error.error):
            raise
        raise OutputError(f"the plot to {quoted(str(path))}", error.error) from None


@contextmanager
def figure_file(path: Path, size: tuple[float, float]) -> Iterator[tuple[Any, Any, Any]]:
    """A matplotlib figure with one axes, drawn with reproducible SVG settings and, when the
    block ends without an error, laid out and saved to ``path``; closed in any case.

    Parameters
    ----------
    path : Path
        Output file, already checked by :func:`check_plot_target`.
    size : tuple of float
        Width and height in inches.

    Yields
    ------
    tuple
        ``(matplotlib, figure, axes)``.

    Raises
    ------
    OutputError
        The file cannot be written (see :func:`save_figure`).
    """
    matplotlib, pyplot = load_pyplot()
    with matplotlib.rc_context({"svg.hashsalt": SVG_HASH_SALT, "svg.fonttype": "path"}):
        figure, axes = pyplot.subplots(figsize=size)
        try:
            yield matplotlib, figure, axes
            figure.tight_layout()
            save_figure(figure, path)
        finally:
            pyplot.close(figure)


def plot_distribution(distribution: EquityDistribution, path: str | Path) -> Path:
    """Draw the histogram of a distribution (share of the range or of the next cards per equity
    bin, with player 1's mean equity marked) to a PNG or SVG file.

    Parameters
    ----------
    distribution : EquityDistribution
    path : str or Path
        Output file; the suffix ``.png`` or ``.svg`` picks the format.

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    InputError
        Another suffix; matplotlib not installed (the message says how to install it); the
        file cannot be written.
    """
    path = check_plot_target(path)
    bins = distribution.bins
    width = (bins[0].high - bins[0].low) * 100
    centers = [(entry.low + entry.high) * 50 for entry in bins]
    heights = [entry.weight * 100 for entry in bins]
    share = "share of the opponent's range (%)" if distribution.by == BY_HAND else "chance of the next card (%)"
    with figure_file(path, (8, 4.5)) as (_, _, axes):
        axes.bar(centers, heights, width=width * 0.92, color="#4472c4", edgecolor="#2f4f8f")
        axes.axvline(distribution.equity * 100, color="#c0392b", linestyle="--",
                     label=f"mean equity {distribution.equity * 100:.2f}%")
        axes.set_xlim(0, 100)
        axes.set_xlabel("player 1's equity (%)")
        axes.set_ylabel(share)
        board = distribution.board or "no board"
        # "$" would start matplotlib's math text ("AA:$ds"): shown literally
        title = f"{distribution.hand} against {distribution.opponent} ({board}, {distribution.game.title})"
        axes.set_title(title.replace("$", r"\$"), fontsize=10)
        axes.legend(loc="upper left")
    return path
