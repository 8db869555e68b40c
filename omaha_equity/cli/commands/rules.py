"""The rules command ``pot-limit``: the legal minimum and maximum raise-to of the player to act
(pot limit, no limit or fixed limit).
"""

from __future__ import annotations

import click

from ..errors import usage_errors
from ..options import output_options
from ..params import FixedLimitType, RoundType, TableChipsType


@click.command(name="pot-limit")
@click.option("--pot", default=0, show_default=True, type=TableChipsType("pot"),
              help="Chips in the middle from earlier rounds (antes and dead blinds included), not the bets below.")
@click.option("--bets", default="", type=TableChipsType("bet", list_of=True),
              help="The other players' bets this round, "
              "e.g. 14,17 (pre-flop: the blinds).")
@click.option("--own", "own_bet", default=0, show_default=True, type=TableChipsType("own bet"),
              help="The acting player's own bet this round (e.g. the small blind).")
@click.option("--stack", type=TableChipsType("stack"), help="The acting player's chips behind (default: unlimited).")
@click.option("--blind", type=TableChipsType("big blind", 1), help="The big blind: the minimum bet (pot and no limit).")
@click.option("--no-limit", is_flag=True, help="No limit instead of pot limit.")
@click.option("--fixed-limit", type=FixedLimitType(), help="Fixed limit with these small and big bets, e.g. 2/4.")
@click.option("--round", "street", default="1", show_default=True, type=RoundType(),
              help="Fixed limit: the betting round, 1 (pre-flop) .. 4 (river).")
@output_options
@usage_errors
def raise_limits_command(pot, bets, own_bet, stack, blind, no_limit, fixed_limit, street, format_name, table_style):
    """The legal minimum and maximum raise-to of the player to act.

    Pot limit by default: the maximum raise-to is the pot after calling, added on top of the
    call. The bets are read as a sequence of full bets and raises (the minimum raise is the
    largest step between them, at least --blind).

    Example: omaha-equity pot-limit --pot 100 --bets 100
    """
    from ...rules.structures import FixedLimit, NoLimit, PotLimit
    from ...views.rules import sizing_report, sizing_row

    if no_limit and fixed_limit:
        raise click.UsageError("--no-limit and --fixed-limit cannot be used together")
    if not fixed_limit and blind is None and not bets and not own_bet:
        raise click.UsageError("nothing on the table: give --blind (the big blind, the minimum bet)")
    if fixed_limit:
        structure = FixedLimit(*fixed_limit)
    elif no_limit:
        structure = NoLimit(blind or 1)
    else:
        structure = PotLimit(blind or 1)
    row = sizing_row(structure, pot=pot, bets=bets, player_bet=own_bet, stack=stack, street=street,
                     blind_given=blind is not None)
    click.echo(sizing_report(row, format_name, table_style))
