"""The ``flops`` command: a range across every flop of a board range, by category, and with
``--vs`` its equity, per flop class or texture (docs/flops.md)."""

from __future__ import annotations

import click

from ...errors import InterruptReported
from ..errors import say, usage_errors
from ..options import game_options, output_options, plot_option, run_options
from ..params import CardsType
from ..progress import FlopProgress

@click.command()
@click.argument("expression", metavar="RANGE")
@click.option("--vs", "vs", metavar="HAND|RANGE", help="Also the range's equity against this hand or range.")
@click.option("-b", "--board", "board_range", default="*", show_default=True, metavar="BOARDRANGE",
              help="The flops: a board range such as 'AK*', 'Ks**', '$mono', '$twotone:[T+]**' (docs/ranges.md).")
@click.option("-d", "--dead", default="", type=CardsType(none_marker=True), help="Dead cards (out of play).")
@game_options
@click.option("--filter", "filter_text", metavar="'{CATEGORY,...}'",
              help="Also the share of the range in these categories, e.g. '{set+}' (docs/categories.md).")
@click.option("--by", "by", default="flop", show_default=True, type=click.Choice(["flop", "texture"]),
              help="A row per flop class (the 1,755 suit-isomorphic flops) or per texture.")
@run_options(exact_help="With --vs: enumerate every flop exactly.",
             monte_carlo_help="With --vs: Monte Carlo on every flop.",
             trials_help="With --vs: Monte Carlo deals per flop (default 10,000).")
@plot_option("a heat map")
@click.option("-o", "--output", default="-", metavar="FILE",
              help="Write the report to FILE (default: standard output). A stopped run (Ctrl-C, kill) keeps its "
                   "finished flops in FILE.part, and the same command goes on from there.")
@output_options
@usage_errors
def flops(expression, vs, board_range, dead, game, die, filter_text, by, run, plot_path, output, format_name,
          table_style):
    """RANGE on every flop of the board range (every flop by default): the share of the range in
    each made hand and nut status (as hits shows them; the lows in hi/lo games), and with --vs
    its equity; a row per flop class with its weight, or per texture, and a last row for all of
    them. Progress on stderr.

    Exit codes: 0 done, 1 the output could not be written, 2 usage error, 130 Ctrl-C (with -o
    FILE, the finished flops are kept in FILE.part: the same command goes on).

    Example: omaha-equity flops '15%' --by texture
    """
    if vs is None and (run.method != "auto" or run.trials is not None or run.seed is not None):
        raise click.UsageError("--exact, --mc, --trials and --seed apply to --vs")
    from ...runtime.output_files import is_regular_or_missing, write_atomically
    from ...studies.flops import FlopRun, flop_study
    from ...views.flops import flops_report

    if plot_path is not None:
        from ...studies.plot import check_plot_target

        check_plot_target(plot_path)  # before the work: a bad name or no matplotlib fails at once
    part = None
    if output != "-" and is_regular_or_missing(output):
        from ...studies.flops_file import FlopsPart

        study_run = FlopRun(expression, game, vs=vs, board_range=board_range, dead=dead, die=die, filter=filter_text,
                            by=by, options=run)
        part = FlopsPart(output, study_run)
        if part.started_over:
            say(f"flops: {part.name} holds another query's flops: starting over")
        elif part.finished:
            say(f"flops: going on from {part.name}: {len(part.finished):,} of {study_run.orbit_count:,} flops "
                "already run")
    progress = FlopProgress()
    try:
        if part is None:
            study = flop_study(expression, game, vs=vs, board_range=board_range, dead=dead, die=die,
                               filter=filter_text, by=by, options=run, progress=progress)
        else:
            study = part.run(progress)
    except KeyboardInterrupt:
        if part is None:
            raise
        progress.close()
        say(f"flops: interrupted: {len(part.finished):,} of {part.study_run.orbit_count:,} flops are kept in "
            f"{part.name}; the same command goes on")
        raise InterruptReported from None
    finally:
        progress.close()
    report = flops_report(study, format_name, table_style)
    if output == "-":
        click.echo(report)
    else:  # whole or not at all (a device or a pipe: in place)
        write_atomically(output, report + "\n")
        if part is not None:
            part.remove()
    if plot_path is not None:
        from ...studies.flops_plot import plot_flops

        click.echo(f"plot written to {plot_flops(study, plot_path)}", err=True)
