"""The study commands: ``distribution`` (a hand's equity across a range, the next card or the
range's made hands) and ``hits`` (what a range holds on a board), each with an optional plot.
"""

from __future__ import annotations

import dataclasses

import click

from ..errors import usage_errors
from ..options import board_option, game_options, is_board_range, output_options, plot_option, run_options
from ..progress import FlopProgress
from ..params import CardsType, FiniteFloatRange


@click.command()
@click.argument("hand", metavar="HAND|RANGE_A")
@click.argument("opponent", metavar="RANGE")
@board_option()
@click.option("-d", "--dead", default="", type=CardsType(none_marker=True), help="Dead cards (out of play).")
@game_options
@click.option("--by", "by", default="hand", show_default=True, type=click.Choice(["hand", "next-card", "category"]),
              help="Across the opponent's range hands, across the next card (on a flop or a turn), or across the "
              "opponent's made hands (category, on a flop, turn or river).")
@click.option("--bins", "bin_count", default=None, type=click.IntRange(1, 100),
              help="Equal histogram bins over 0-100% (default 10; 4 for a range RANGE_A: 0-25, 25-50, 50-75, "
              "75-100%).")
@click.option("--min-equity", "minimum_equity", type=FiniteFloatRange(0, 1), metavar="FRACTION",
              help="Keep only the items (hands or cards) with at least this equity, a fraction 0..1 (0.5 for 50%): "
              "listed under the histogram; the bins still sum up every item.")
@click.option("--max-equity", "maximum_equity", type=FiniteFloatRange(0, 1), metavar="FRACTION",
              help="Keep only the items with at most this equity, a fraction 0..1.")
@run_options(exact_help="Force exact enumeration.", monte_carlo_help="Force Monte Carlo.",
             trials_help="Monte Carlo boards per range hand (default 5,000), board completions for a range RANGE_A "
             "(default 400) or boards per next card (default 100,000).",
             with_device=True)
@plot_option("the histogram")
@output_options
@usage_errors
def distribution(hand, opponent, board, dead, game, die, by, bin_count, minimum_equity, maximum_equity, run,
                 plot_path, format_name, table_style):
    """The distribution of HAND's equity across the hands of RANGE (each weighted by its range
    weight), across the next card (--by next-card) or across RANGE's made hands (--by category,
    docs/categories.md): a histogram, CSV or JSON, and a plot.

    With a range RANGE_A instead of HAND (--by hand), every hand of RANGE_A gets its equity
    against the whole of RANGE (card removal per hand: RANGE's hands that share a card with it
    are dropped), summed up in equity buckets; exact on a turn or river, Monte Carlo over board
    completions on a flop when enumerating would be slow (docs/studies.md). --min-equity and
    --max-equity keep the hands above or below an equity.

    A board range for -b ('AK*', 'Ks**', '$mono', docs/ranges.md) pools the flops dealt from it,
    every concrete flop weighing the same (by hand or by category).

    Example: omaha-equity distribution '15%' '15%' -b Qh7d2c5s9c --min-equity 0.75
    """
    from ...studies import equity_distribution
    from ...studies.distribution import keep_by_equity
    from ...studies.plot import check_plot_target, plot_distribution
    from ...views.studies import distribution_data, distribution_report, distribution_rows

    if plot_path is not None:
        check_plot_target(plot_path)  # before the work: a bad name or no matplotlib fails at once
    if is_board_range(board):
        if run.device.value != "cpu":
            raise click.UsageError("--device applies to a board, not to a board range (its flops run on the CPU)")
        from ...studies.board_ranges import distribution_over_board_range
        from ...views.board_ranges import covered_report

        progress = FlopProgress()
        try:
            covered = distribution_over_board_range(hand, opponent, board, dead, game, die=die, by=by,
                                                    bin_count=bin_count or 10, options=run, progress=progress)
        finally:
            progress.close()
        covered = dataclasses.replace(covered, result=keep_by_equity(covered.result, minimum_equity,
                                                                     maximum_equity))
        result = covered.result
        click.echo(covered_report(covered, distribution_report, distribution_rows, distribution_data, format_name,
                                  table_style))
    else:
        result = equity_distribution(hand, opponent, board, dead, game, die=die, by=by, bin_count=bin_count,
                                     method=run.method.value, trials=run.trials, seed=run.seed, threads=run.threads,
                                     device=run.device.value, minimum_equity=minimum_equity,
                                     maximum_equity=maximum_equity)
        click.echo(distribution_report(result, format_name, table_style))
    if plot_path is not None:
        click.echo(f"plot written to {plot_distribution(result, plot_path)}", err=True)


@click.command()
@click.argument("expression", metavar="RANGE")
@board_option("The board: a flop, turn or river (3 to 5 cards), or a board range of flops such as 'AK*', 'Ks**', "
              "'$mono' (docs/ranges.md).", required=True)
@click.option("-d", "--dead", default="", type=CardsType(none_marker=True), help="Dead cards (removed from the range).")
@game_options
@click.option("--vs", "vs", metavar="HAND|RANGE", help="Equity of each part of RANGE against this hand or range.")
@run_options(exact_help="With --vs: force exact enumeration.", monte_carlo_help="With --vs: force Monte Carlo.",
             trials_help="With --vs: Monte Carlo boards per hand (a hand) or deals per part (a range).",
             with_threads=False)
@click.option("--no-draws", "no_draws", is_flag=True, help="Table without the draw rows under each made hand.")
@plot_option("the shares as a stacked bar")
@output_options
@usage_errors
def hits(expression, board, dead, game, die, vs, run, no_draws, plot_path, format_name, table_style):
    """What RANGE holds on the board: made hands (split by draws), nut status and lows, with
    the hand combinations and share of each part; with --vs, each part's equity.

    The categories and their rules are in docs/categories.md; each row's filter (CSV column
    'filter') selects the same hands in any range, e.g. '15%:{set}'.

    A board range for -b ('AK*', 'Ks**', '$mono', docs/ranges.md) pools every concrete flop of it
    (hand combinations summed; each flop's shares and equities weighted by the range's hands on it).

    Example: omaha-equity hits '15%' -b Qh7d2c --vs AsKsQdJh
    """
    if vs is None and (run.method != "auto" or run.trials is not None or run.seed is not None):
        raise click.UsageError("--exact, --mc, --trials and --seed apply to --vs")
    from ...studies.hits import range_composition
    from ...views.hits import composition_report

    if plot_path is not None:
        from ...studies.plot import check_plot_target

        check_plot_target(plot_path)  # before the work: a bad name or no matplotlib fails at once
    if is_board_range(board):
        from ...studies.board_ranges import composition_over_board_range
        from ...views.board_ranges import covered_report
        from ...views.hits import composition_data, composition_rows

        progress = FlopProgress()
        try:
            covered = composition_over_board_range(expression, board, game, dead=dead, vs=vs, die=die, options=run,
                                                   progress=progress)
        finally:
            progress.close()
        composition = covered.result
        click.echo(covered_report(covered, lambda result, name, style: composition_report(
            result, name, style, draws=not no_draws), composition_rows, composition_data, format_name, table_style))
    else:
        composition = range_composition(expression, board, game, dead=dead, vs=vs, die=die,
                                        method=run.method.value, trials=run.trials, seed=run.seed)
        click.echo(composition_report(composition, format_name, table_style, draws=not no_draws))
    if plot_path is not None:
        from ...studies.hits_plot import plot_composition

        click.echo(f"plot written to {plot_composition(composition, plot_path)}", err=True)
