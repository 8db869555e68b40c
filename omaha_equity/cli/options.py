"""Option groups that several commands share, each added by one decorator so that it reads and
behaves the same everywhere (sqlite-utils' option groups):

- :func:`output_options`: ``-f/--format`` and ``--table-style``;
- :func:`game_options`: ``-g/--game`` and ``--die`` (binglao's die roll);
- :func:`run_options`: ``--exact``, ``--mc``, ``--trials``, ``--precision``, ``--seed`` and
  ``--threads`` (and ``--device`` where asked), handed to the command as one checked
  ``RunOptions`` (keyword ``run``);
- :func:`board_option`: ``-b/--board``, a board or a board range (``AK*``, ``Ks**``, ``$mono``).

A decorator that checks its options wraps the command: its check runs before the command's
own, and before those of the decorators below it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import click

from ..cards import NO_CARDS, parse_cards
from ..errors import InputError
from ..games import GAME_NAMES
from ..views.render import FORMATS
from .params import DEFAULT_TABLE_STYLE, PRECISION, SEED, THREADS, TRIALS, GameType, TableStyleType

EXACT_HELP = "Force exact enumeration of every board."
MONTE_CARLO_HELP = "Force Monte Carlo sampling."
SEED_HELP = "Monte Carlo seed (same seed, same numbers)."
TABLE_STYLES_HELP = "STYLE: one of tabulate's formats (simple, grid, github, pipe, psql, rst, ...)."
# ``equity.query.DEVICES``, written out: that module loads numpy, which --help skips
DEVICES = ("cpu", "gpu", "auto")
DEVICE_HELP = ("Where the kernels run: cpu, gpu (a CUDA GPU, needs omaha-equity[gpu]) or auto (a GPU for big work "
               "when one is found); docs/gpu.md.")
THREADS_HELP = ("Worker threads (default: one per core; more than the cores run as many as the cores; any count "
                "gives the same numbers).")


def output_options(command=None, *, formats=FORMATS, table_style_help: str = "tabulate style of the table."):
    """``-f/--format`` (one of ``formats``, ``table`` first and the default) and
    ``--table-style`` (tabulate's styles), as the keywords ``format_name`` and ``table_style``.
    Used bare (``@output_options``) or with arguments (``@output_options(formats=...)``)."""

    def decorate(command):
        # the styles are named by a metavar, not listed: tabulate's 38 names made a line of 370
        # characters in every help page
        command = click.option("--table-style", default=DEFAULT_TABLE_STYLE, show_default=True, metavar="STYLE",
                               type=TableStyleType(), help=f"{table_style_help} {TABLE_STYLES_HELP}")(command)
        command = click.option("-f", "--format", "format_name", default="table", show_default=True,
                               type=click.Choice(formats), help="Output format.")(command)
        return command

    return decorate if command is None else decorate(command)


def plot_option(drawing: str):
    """``--plot FILE`` (the keyword ``plot_path``): also draw ``drawing`` (e.g. "a heat map") to
    a PNG or SVG file."""
    return click.option("--plot", "plot_path", type=click.Path(dir_okay=False),
                        help=f"Also draw {drawing} to FILE.png or FILE.svg (needs omaha-equity[plot]).")


def game_options(original):
    """``-g/--game`` (a name or alias, as its key) and ``--die`` (1..6), which binglao needs."""

    @functools.wraps(original)
    def command(*args, **kwargs):
        # the library asks for "a die"; here it is an option
        if kwargs.get("game") == "binglao" and kwargs.get("die") is None:
            raise click.UsageError("binglao needs the die roll: expected --die 1..6")
        return original(*args, **kwargs)

    command = click.option("--die", type=click.IntRange(1, 6),
                           help="Binglao only: the die roll 1..6 picking the game.")(command)
    command = click.option("-g", "--game", default="omaha", show_default=True, type=GameType(),
                           help=f"Game: {', '.join(GAME_NAMES)} (aliases: plo, o8, plo8, big-o, ...).")(command)
    return command


def run_options(*, trials_help: str, precision_help: str | None = None, with_threads: bool = True,
                with_device: bool = False,
                exact_help: str = EXACT_HELP, monte_carlo_help: str = MONTE_CARLO_HELP,
                seed_needs_monte_carlo: bool = False) -> Callable:
    """How a query runs: ``--exact``, ``--mc``, ``--trials``, ``--precision`` (when
    ``precision_help`` is given), ``--seed`` and ``--threads`` (``with_threads``), in this order,
    handed to the command as one ``RunOptions`` in the keyword ``run``
    (:func:`checked_run_options`).

    Parameters
    ----------
    trials_help, precision_help, exact_help, monte_carlo_help : str
        The options' help: what a trial is, and what the precision measures, differ by command.
    with_threads : bool
        Whether the command takes ``--threads``.
    with_device : bool
        Whether the command takes ``--device cpu|gpu|auto`` (after ``--threads``).
    seed_needs_monte_carlo : bool
        Refuse ``--seed`` with ``--exact`` (where an exact run would silently ignore it).
    """

    def decorate(original):
        @functools.wraps(original)
        def command(*args, exact: bool, mc: bool, trials: int | None, seed: int | None,
                    precision: float | None = None, threads: int | None = None, device: str = "cpu", **kwargs):
            kwargs["run"] = checked_run_options(exact, mc, trials=trials, precision=precision, seed=seed,
                                                threads=threads, seed_needs_monte_carlo=seed_needs_monte_carlo,
                                                device=device)
            return original(*args, **kwargs)

        # click lists the options in the order they are written above a command, that is the
        # reverse of the order they are applied in here
        if with_device:
            command = click.option("--device", type=click.Choice(DEVICES), default="cpu", show_default=True,
                                   help=DEVICE_HELP)(command)
        if with_threads:
            command = click.option("--threads", type=THREADS, help=THREADS_HELP)(command)
        command = click.option("--seed", type=SEED, help=SEED_HELP)(command)
        if precision_help is not None:
            command = click.option("--precision", type=PRECISION, help=precision_help)(command)
        command = click.option("--trials", type=TRIALS, help=trials_help)(command)
        command = click.option("--mc", is_flag=True, help=monte_carlo_help)(command)
        command = click.option("--exact", is_flag=True, help=exact_help)(command)
        return command

    return decorate


def checked_run_options(exact: bool, monte_carlo: bool, *, trials: int | None = None, precision: float | None = None,
                        seed: int | None = None, threads: int | None = None, seed_needs_monte_carlo: bool = False,
                        device: str = "cpu"):
    """The ``RunOptions`` of what was typed: method ``exact`` (``--exact``), ``monte-carlo``
    (``--mc``) or ``auto``, and the numbers as given (click's types have bounded them already).

    Raises
    ------
    click.UsageError
        ``--exact`` with ``--mc``; ``--seed`` with ``--exact`` where ``seed_needs_monte_carlo``;
        anything ``RunOptions.checked`` refuses.
    """
    if exact and monte_carlo:
        raise click.UsageError("--exact and --mc cannot be used together")
    if seed_needs_monte_carlo and exact and seed is not None:
        raise click.UsageError("--seed applies to Monte Carlo, not to --exact")
    # lazy for cost: the equity package loads numpy, which --help and the other commands skip
    from ..equity.query import RunOptions

    method = "exact" if exact else "monte-carlo" if monte_carlo else "auto"
    try:
        return RunOptions.checked(method, trials=trials, precision=precision, seed=seed, threads=threads,
                                  device=device)
    except InputError as error:
        raise click.UsageError(str(error)) from None


class BoardType(click.ParamType):
    """A board (``Qd7h2s``, ``-`` for none) or a board range (``AK*``, ``Ks**``, ``$mono``,
    docs/ranges.md). Plain cards stay a board; text that is not cards is read as a board range,
    and its error names the offending token. The value stays text: a command tells the two
    apart with :func:`is_board_range`."""

    name = "board"

    def convert(self, value, param, ctx):
        if value.strip() == NO_CARDS:
            return ""
        try:
            parse_cards(value)
            return value
        except InputError as card_error:
            from ..boards import parse_board_range  # numpy: only for a board range

            try:
                parse_board_range(value)
            except InputError as range_error:
                range_syntax = any(character in value for character in "*$[]():!")
                self.fail(str(range_error if range_syntax else card_error), param, ctx)
        return value


def is_board_range(board: str) -> bool:
    """Whether a ``-b`` value (checked by :class:`BoardType`) is a board range, not cards."""
    if not board:
        return False
    try:
        parse_cards(board)
    except InputError:
        return True
    return False


def board_option(help_text: str = "Known board cards (0 to 5), or a board range of flops such as 'AK*', "
                 "'Ks**', '$mono' (docs/ranges.md).", **settings):
    """``-b/--board`` (the keyword ``board``): a board or a board range (:class:`BoardType`)."""
    if not settings.get("required"):  # a required board has no default: click names the missing option itself
        settings["default"] = ""
    return click.option("-b", "--board", type=BoardType(), help=help_text, **settings)
