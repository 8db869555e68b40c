"""The ``flops`` command: a range across every flop of a board range, by category, and with
``--vs`` its equity, per flop class or texture (docs/flops.md)."""

from __future__ import annotations

import click

from ..errors import usage_errors
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
@output_options
@usage_errors
def flops(expression, vs, board_range, dead, game, die, filter_text, by, run, plot_path, format_name, table_style):
    """RANGE on every flop of the board range (every flop by default): the share of the range in
    each made hand and nut status (as hits shows them; the lows in hi/lo games), and with --vs
    its equity; a row per flop class with its weight, or per texture, and a last row for all of
    them. Progress on stderr.

    Example: omaha-equity flops '15%' --by texture
    """
    if vs is None and (run.method != "auto" or run.trials is not None or run.seed is not None):
        raise click.UsageError("--exact, --mc, --trials and --seed apply to --vs")
    from ...studies.flops import flop_study
    from ...views.flops import flops_report

    if plot_path is not None:
        from ...studies.plot import check_plot_target

        check_plot_target(plot_path)  # before the work: a bad name or no matplotlib fails at once
    progress = FlopProgress()
    try:
        study = flop_study(expression, game, vs=vs, board_range=board_range, dead=dead, die=die, filter=filter_text,
                           by=by, options=run, progress=progress)
    finally:
        progress.close()
    click.echo(flops_report(study, format_name, table_style))
    if plot_path is not None:
        from ...studies.flops_plot import plot_flops

        click.echo(f"plot written to {plot_flops(study, plot_path)}", err=True)
