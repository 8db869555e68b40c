"""The ``allin`` command: every hand all in, the chips each one expects back from the main pot
and each side pot, and its net EV.
"""

from __future__ import annotations

import functools

import click

from ...errors import quoted
from ..errors import usage_errors
from ..hands import warn_of_wide_ranges, without_separators
from ..options import board_option, game_options, is_board_range, output_options, run_options
from ..params import CardsType, ChipsListType
from ..progress import FlopProgress, deals_progress


def _stacks_or_committed(original):
    """Refuse both or neither of ``--stacks`` and ``--committed``: checked after the game and
    before the run options."""

    @functools.wraps(original)
    def command(*args, **kwargs):
        if (kwargs["stacks"] is None) == (kwargs["committed"] is None):
            raise click.UsageError("give either --stacks or --committed (one amount per player)")
        return original(*args, **kwargs)

    return command


@click.command()
@click.argument("hands", nargs=-1, required=True, metavar="HAND...", callback=without_separators)
@click.option("--stacks", type=ChipsListType("stack", 1),
              help="Each player's stack, all in (S1,S2,...; the biggest is capped at the next biggest).")
@click.option("--committed", type=ChipsListType("committed amount", 1),
              help="Chips each player has already put in, all in (C1,C2,...), instead of --stacks.")
@click.option("--folded", type=ChipsListType("folded amount", 0),
              help="Chips put in by players who folded (dead money in the pots they reach).")
@click.option("--pot", "dead_money", default=0, type=click.IntRange(min=0),
              help="Extra dead money in the main pot (chips).")
@board_option()
@click.option("-d", "--dead", default="", type=CardsType(none_marker=True), help="Dead cards (out of play).")
@game_options
@_stacks_or_committed
@run_options(trials_help="Monte Carlo deals to sample (default 1,000,000; the cap with --precision).",
             precision_help="Monte Carlo: stop when every player's standard error is below this percent of the chips.",
             seed_needs_monte_carlo=True, with_device=True)
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
@output_options
@usage_errors
def allin(hands, stacks, committed, folded, dead_money, board, dead, game, die, run, quiet, format_name, table_style):
    """Every HAND all in: expected chips back from the main pot and each side pot, and net EV.

    List the players in seat order starting left of the button (it decides odd chips). Give
    --stacks (everyone all in) or --committed (chips already in). A HAND is a hand, a partial
    hand, * or a range, as in calc. Each pot is split high/low among its own eligible players.

    A board range for -b ('AK*', 'Ks**', '$mono', docs/ranges.md) gives the chips expected on a
    flop dealt at random from it, every concrete flop weighing the same.

    Example: omaha-equity allin AsAhKsKh JdTd9c8c 2c3d4h5s --stacks 300,200,100 -b Qd7h2s -g omaha8
    """
    from ...equity.expected_chips import calculate_allin, committed_from_stacks
    from ...views.chips import allin_report

    if not quiet:
        warn_of_wide_ranges(hands, game, die)
    amounts, option = (stacks, "--stacks") if stacks is not None else (committed, "--committed")
    if len(amounts) != len(hands):
        hand_count = f"{len(hands)} hand{'' if len(hands) == 1 else 's'}"
        raise click.UsageError(f"expected one amount per hand in {option} ({hand_count}), got {len(amounts)}: "
                               f"{quoted(','.join(str(amount) for amount in amounts))}")
    if stacks is not None:
        amounts = committed_from_stacks(stacks, folded or ())
    if is_board_range(board):
        if run.device.value != "cpu":
            raise click.UsageError("--device applies to a board, not to a board range (its flops run on the CPU)")
        _allin_board_range(list(hands), amounts, board, dead, game, die, folded, dead_money, run, quiet, format_name,
                           table_style)
        return
    with deals_progress(quiet) as progress:
        result = calculate_allin(
            list(hands), amounts, board, dead, game, die=die, folded=folded or (), pot=dead_money,
            method=run.method.value, trials=run.trials, precision=run.precision, seed=run.seed, threads=run.threads,
            progress=progress, device=run.device.value,
        )
    click.echo(allin_report(result, format_name, table_style))
    errors = [player.standard_error for player in result.players]
    chips = sum(pot.amount for pot in result.pots)
    precision = run.precision
    if precision is not None and (None in errors or max(errors) * 100 >= precision * chips):
        click.echo(f"note: precision {precision:g} not reached after {result.sample_count:,} deals: raise --trials",
                   err=True)


def _allin_board_range(hands: list, amounts, board_range: str, dead: str, game: str, die, folded, dead_money: int,
                       run, quiet: bool, format_name: str, table_style: str) -> None:
    """``allin -b BOARDRANGE``: the chips expected over the board range's flops."""
    from ...studies.board_ranges import allin_over_board_range
    from ...views.board_ranges import covered_report
    from ...views.chips import allin_report, allin_rows

    progress = FlopProgress(quiet)
    try:
        covered = allin_over_board_range(hands, amounts, board_range, dead, game, die=die, folded=folded or (),
                                         pot=dead_money, options=run, progress=progress)
    finally:
        progress.close()
    click.echo(covered_report(covered, allin_report, allin_rows, lambda result: result.to_dict(), format_name,
                              table_style))
