"""``omaha-equity outs``: every card that can come next, what it makes and its nut status."""

from __future__ import annotations

import click

from ..errors import usage_errors
from ..options import game_options, output_options
from ..params import CardsType


@click.command()
@click.argument("hand")
@click.option("-b", "--board", required=True, type=CardsType(), help="The board: a flop or a turn (3 or 4 cards).")
@click.option("-d", "--dead", default="", type=CardsType(none_marker=True), help="Dead cards (never dealt).")
@game_options
@click.option("--vs", "vs", metavar="HAND|RANGE", help="Also the equity after each card against this hand or range.")
@click.option("--blockers", is_flag=True, help="Decide nut status with HAND's and the dead cards out (PQL's way); "
              "by default only the board is out, as the categories do.")
@output_options
@usage_errors
def outs(hand, board, dead, game, die, vs, blockers, format_name, table_style):
    """Each card that can come next on a flop or turn: the hand it makes (high and low), whether
    that is the nuts or second nuts, the made-hand category after it and, with --vs, the equity;
    totals of outs to each hand type and of nut outs (docs/outs.md).

    Example: omaha-equity outs AsKsQdJh -b Ts9s2c --vs 'TT'
    """
    from ...studies.outs import hand_outs
    from ...views.outs import outs_report

    click.echo(outs_report(hand_outs(hand, board, game, dead=dead, vs=vs, blockers=blockers, die=die), format_name,
                           table_style))
