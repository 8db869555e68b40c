"""``omaha-equity pql``: answer PQL queries, one given or one a line from a file."""

from __future__ import annotations

import click

from ..errors import usage_errors
from ..options import game_options, output_options, run_options


@click.command()
@click.argument("query", required=False)
@click.option("-F", "--file", "query_file", type=click.File("r"), help="Run every query of FILE, one a line "
              "(blank lines and lines starting with # skipped).")
@game_options
@run_options(trials_help="Monte Carlo deals when the query binds no trials= (default 600,000).",
             with_threads=False)
@output_options
@usage_errors
def pql(query, query_file, game, die, run, format_name, table_style):
    """Answer a Poker Query Language QUERY for any Omaha game: exact when the deals are few,
    else Monte Carlo with a standard error. Bindings in the query (game=, trials=, seed=,
    exact) win over the options. The language, its functions and their rules: docs/pql.md.

    Example: omaha-equity pql "select avg(riverEquity(hero)) from game='omahahi', hero='AA**', villain='15%'"
    """
    from ...pql import run as run_query
    from ...views.pql import pql_report

    if (query is None) == (query_file is None):
        raise click.UsageError("expected a QUERY or --file FILE (one of them)")
    queries = [query] if query is not None else [line.strip() for line in query_file
                                                 if line.strip() and not line.lstrip().startswith("#")]
    if die is not None:
        raise click.UsageError("pql does not play binglao: bind a game in the query")
    for text in queries:
        result = run_query(text, game=game, trials=run.trials, seed=run.seed, method=run.method.value)
        click.echo(pql_report(result, format_name, table_style))
