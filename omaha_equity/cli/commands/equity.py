"""The equity commands: ``calc`` (with its studies ``--streets`` and ``--next-card``), ``show``
(a showdown), ``range`` (a range's hands) and ``rank`` (a hand's place in the ranking).

The library and its views are imported inside each command: importing the command line stays
cheap (no numpy, no numba) for ``--help`` and the other commands.
"""

from __future__ import annotations

import click

from ...games import get_game
from ..errors import usage_errors
from ..fast_parse import FastParseCommand
from ..hands import warn_of_wide_ranges, without_separators
from ..options import board_option, game_options, is_board_range, output_options, run_options
from ..params import CardsType, FiniteFloatRange
from ..progress import FlopProgress, deals_progress


@click.command(cls=FastParseCommand)
@click.argument("hands", nargs=-1, required=True, metavar="HAND...", callback=without_separators)
@board_option()
@click.option("-d", "--dead", default="", type=CardsType(none_marker=True), help="Dead cards (out of play).")
@game_options
@run_options(trials_help="Monte Carlo boards to sample (default 1,000,000; the cap with --precision; over a board "
             "range, deals per run, default 10,000).",
             precision_help="Monte Carlo: stop when every equity's standard error is below this many percentage "
             "points.", seed_needs_monte_carlo=True, with_device=True)
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
@click.option("--streets", is_flag=True, help="Equity on each street as the board comes (board of 3 to 5 cards).")
@click.option("--next-card", "next_card", is_flag=True,
              help="Equity after each possible next card, on a flop or a turn, by player 1's change.")
@click.option("--above", type=FiniteFloatRange(0, 1),
              help="With --next-card: count the cards after which player 1's equity is above this (default 0.5).")
@click.option("--hand-types", "hand_types", is_flag=True,
              help="How often each HAND (or range, over its hands) ends with each hand type by the river (and that "
              "type or better; hi/lo: made, nut and counterfeited lows), from a flop or a turn, every river board "
              "enumerated; other ranges remove no cards.")
@output_options
@usage_errors
def calc(hands, board, dead, game, die, run, quiet, streets, next_card, above, hand_types, format_name,
         table_style):
    """Equity of each HAND against the others.

    A HAND is a hand (AsKsQhJh), a partial hand (AsAh: the other cards dealt at random), a
    random hand (*) or a range in the generic syntax (AA:$ds, KK-TT, 15%, ...); vs between
    hands is allowed.

    Exact enumeration when the work is affordable, Monte Carlo otherwise (or when asked with
    --mc, --trials or --precision).

    --streets shows the equity on each street up to the board; --next-card the equity after
    each possible turn (on a flop) or river (on a turn); --hand-types how often each hand ends
    with each hand type by the river (docs/studies.md).

    A board range for -b ('AK*', 'Ks**', '$mono', docs/ranges.md) gives each HAND's equity on a
    flop dealt at random from it, every concrete flop weighing the same.

    Example: omaha-equity calc AsAhKsKh JdTd9c8c -b Qd7h2s
    """
    if not quiet:
        warn_of_wide_ranges(hands, game, die)
    if is_board_range(board):
        if run.device.value != "cpu":
            raise click.UsageError("--device applies to a board, not to a board range (its flops run on the CPU)")
        _calc_board_range(list(hands), board, dead, game, die, run, quiet,
                          streets or next_card or above is not None or hand_types, format_name, table_style)
        return
    if hand_types:
        if streets or next_card or above is not None:
            raise click.UsageError("--hand-types cannot be used with --streets, --next-card or --above")
        if run.device.value != "cpu":
            raise click.UsageError("--device applies to the equity on the board given, not to --hand-types (it runs "
                                   "on the CPU)")
        if run.method.value != "auto" or run.trials or run.precision or run.seed is not None:
            raise click.UsageError("--hand-types enumerates every river board: --exact, --mc, --trials, "
                                   "--precision and --seed do not apply")
        from ...studies.hand_types import hand_types_by_river
        from ...views.studies import hand_types_report

        click.echo(hand_types_report(hand_types_by_river(list(hands), board, dead, game, die=die), format_name,
                                     table_style))
        return
    # the query's options, as calculate_equity and the studies take them
    query = dict(dead=dead, game=game, die=die, method=run.method.value, trials=run.trials, precision=run.precision,
                 seed=run.seed, threads=run.threads)
    if streets or next_card or above is not None:
        if run.device.value != "cpu":
            raise click.UsageError("--device applies to the equity on the board given, not to --streets or "
                                   "--next-card (they run on the CPU)")
        _calc_study(list(hands), board, query, streets=streets, next_card=next_card, above=above,
                    format_name=format_name, table_style=table_style)
        return
    from ...equity.calculate import calculate_equity
    from ...views.equity import equity_report

    with deals_progress(quiet) as progress:
        result = calculate_equity(list(hands), board, progress=progress, device=run.device.value, **query)
    click.echo(equity_report(result, format_name, table_style))
    errors = [player.standard_error for player in result.players]
    precision = run.precision
    if precision is not None and (None in errors or max(errors) * 100 >= precision):
        largest = ("undefined: a standard error needs at least 2 boards" if None in errors
                   else f"{max(errors) * 100:.3f} points")
        click.echo(f"note: precision {precision:g} not reached after {result.sample_count:,} boards (largest "
                   f"standard error {largest}): raise --trials", err=True)


def _calc_board_range(hands: list, board_range: str, dead: str, game: str, die, run, quiet: bool, study: bool,
                      format_name: str, table_style: str) -> None:
    """``calc -b BOARDRANGE``: the equity over the board range's flops."""
    if study:
        raise click.UsageError("--streets, --next-card, --above and --hand-types take a board, not a board range")
    from ...studies.board_ranges import equity_over_board_range
    from ...views.equity import board_range_report

    progress = FlopProgress(quiet)
    try:
        result = equity_over_board_range(hands, board_range, game, dead=dead, die=die, options=run, progress=progress)
    finally:
        progress.close()
    click.echo(board_range_report(result, format_name, table_style))


def _calc_study(hands: list, board: str, query: dict, *, streets: bool, next_card: bool, above: float | None,
                format_name: str, table_style: str) -> None:
    """``calc --streets`` and ``calc --next-card``: the studies' API and views.
    ``query`` holds the keyword options the studies share with ``calculate_equity`` (dead,
    game, die, method, trials, precision, seed, threads)."""
    if streets and next_card:
        raise click.UsageError("--streets and --next-card cannot be used together")
    if above is not None and not next_card:
        raise click.UsageError("--above applies to --next-card")
    from ...studies import equity_by_street, next_card_equity
    from ...studies.next_card import DEFAULT_ABOVE
    from ...views.studies import next_card_report, streets_report

    if streets:
        click.echo(streets_report(equity_by_street(hands, board, **query), format_name, table_style))
    else:
        result = next_card_equity(hands, board, above=DEFAULT_ABOVE if above is None else above, **query)
        click.echo(next_card_report(result, format_name, table_style))


@click.command()
@click.argument("hands", nargs=-1, required=True, type=CardsType(separators=True), callback=without_separators)
@click.option("-b", "--board", required=True, type=CardsType(none_marker=True), help="The complete board (5 cards).")
@game_options
@output_options
@usage_errors
def show(hands, board, game, die, format_name, table_style):
    """Read a showdown: each HAND's best high and low, the winners and the shares of the pot.

    Example: omaha-equity show 6h6c4h2c AsKdQh9c -b 8c6s4s3hAc -g omaha8
    """
    from ...evaluate.showdown import read_showdown
    from ...views.equity import showdown_report

    click.echo(showdown_report(read_showdown(list(hands), board, game, die=die), format_name, table_style))


@click.command(name="range")
@click.argument("expression")
@click.option("-b", "--board", default="", type=CardsType(none_marker=True),
              help="Board cards to remove from the range.")
@click.option("-d", "--dead", default="", type=CardsType(none_marker=True), help="Dead cards to remove from the range.")
@game_options
# the bound is views.MAX_TABLE_SAMPLE
@click.option("--sample", "sample_size", default=20, show_default=True, type=click.IntRange(1, 10_000),
              help="Hands shown in the table (at most 10,000; -f csv or -f json lists every hand).")
@output_options
@usage_errors
def range_command(expression, board, dead, game, die, sample_size, format_name, table_style):
    """Count the hands of a range EXPRESSION and show a sample of them.

    The generic range syntax: AA (at least two aces), AxAyxy (double-suited aces), RRON,
    [A-T], KK-TT, TT+, AA:$ds, JJ!JJJ, AA@10,KK@5, 15%, 5%-10%, 15%6h, ... (see the README).

    Example: omaha-equity range 'AA:$ds' -g omaha
    """
    from ...cards import check_no_duplicates, format_cards
    from ...deal import parse_board_and_dead
    from ...ranges import parse_range
    from ...views.equity import range_pieces, range_report

    resolved = get_game(game, die)
    board_cards, dead_cards = parse_board_and_dead(board, dead)
    check_no_duplicates([("board", board_cards), ("dead cards", dead_cards)])
    removed = [f"board {format_cards(board_cards)}" if board_cards else "",
               f"dead cards {format_cards(dead_cards)}" if dead_cards else ""]
    excluded_text = " and ".join(part for part in removed if part)
    hand_range = parse_range(expression, resolved, excluded=board_cards + dead_cards, excluded_reason=excluded_text,
                             board=board_cards)
    if format_name == "table":
        click.echo(range_report(hand_range, resolved, excluded_text, format_name, sample_size, table_style))
        return
    for piece in range_pieces(hand_range, resolved, excluded_text, format_name):  # streamed: ranges can be huge
        click.echo(piece, nl=False)


@click.command()
@click.argument("hand", type=CardsType())
@game_options
@click.option("--six-handed", is_flag=True, help="Use the 6-handed ranking instead of the full-ring one.")
@output_options
@usage_errors
def rank(hand, game, die, six_handed, format_name, table_style):
    """Where HAND stands in our starting-hand ranking (the one percent ranges use).

    Example: omaha-equity rank AsAhKsKh -g omaha
    """
    from ...rankings import hand_ranking
    from ...views.equity import rank_report

    resolved = get_game(game, die)
    click.echo(rank_report(hand_ranking(resolved, hand, six_handed), resolved, format_name, table_style))
