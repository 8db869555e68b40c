"""The ``omaha-equity`` program: the command group :func:`main`, gathering the commands of
:mod:`.commands` (and the ``shell``, which runs the group itself), and :func:`run`, the console
script, which ends with a fast exit.
"""

from __future__ import annotations

import click

from .. import __version__
from .commands.batch import batch
from .commands.chips import allin
from .commands.equity import calc, range_command, rank, show
from .commands.flops import flops
from .commands.hand_histories import convert, ev_command, play
from .commands.outs import outs
from .commands.pql import pql
from .commands.rules import raise_limits_command
from .commands.studies import distribution, hits
from .errors import OneLineErrors
from .fast_exit import exit_program


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="omaha-equity")
def main():
    """Omaha equity: exact enumeration or Monte Carlo, for every Omaha variant.

    Example: omaha-equity calc AsAhKsKh JdTd9c8c
    """


for _command in (calc, show, range_command, rank, allin, distribution, hits, raise_limits_command, ev_command, convert,
                 play, batch, flops, pql, outs):
    main.add_command(_command)


@main.command()
@click.pass_context
def shell(ctx):
    """An interactive session: type any command of the program as on the command line, without
    'omaha-equity' in front. Kernels and tables stay loaded, so a small query answers at once.

    In a terminal: line editing, history and completion (needs omaha-equity[shell]). Reading
    standard input (omaha-equity shell < commands.txt): each line runs as a command, no prompt;
    the exit code is that of the last command that failed. Type help, help COMMAND, exit or quit;
    Ctrl-C stops the running command, Ctrl-D leaves. See docs/shell.md.

    Example: omaha-equity shell
    """
    from .quick_calc import quick_calc
    from .shell import run_shell  # lazy: prompt_toolkit and the shell's code only for the shell

    ctx.exit(run_shell(main, lambda words: main.run_words(words, ctx.find_root().info_name, None),
                       quick_command=quick_calc))


def run() -> None:
    """The ``omaha-equity`` program (console script and ``python -m omaha_equity``): :func:`main`,
    then a fast exit once the output is flushed (:mod:`omaha_equity.cli.fast_exit`). Tests and other
    code that call :func:`main` in their own process keep the ordinary ``SystemExit``."""
    try:
        main()
    except SystemExit as stop:
        exit_program(stop.code)
