"""The ``batch`` command: many equity queries from a CSV or JSON Lines file, on local worker
processes or a Dask cluster (the work is ``batch.command``'s).
"""

from __future__ import annotations

import sys

import click

from ...runtime.executor import DEFAULT_WORKER_TIMEOUT, MAX_WORKER_TIMEOUT, MAX_WORKERS
from ..errors import usage_errors
from ..options import DEVICE_HELP, DEVICES
from ..params import SEED, FiniteFloatRange
from ..progress import batch_progress_bar


@click.command()
@click.argument("input_file", default="-", metavar="[FILE|-]")
@click.option("-o", "--output", default="-", metavar="FILE", help="Where the rows go (default: standard output).")
@click.option("--input-format", type=click.Choice(("csv", "jsonl")),
              help="Input format (default: by the extension, .csv or .jsonl; CSV for standard input).")
@click.option("--delimiter", default=",", show_default=True, metavar="CHARACTER",
              help="The CSV input's cell separator (';' for many spreadsheets' CSV).")
@click.option("-f", "--format", "output_format", type=click.Choice(("csv", "jsonl")),
              help="Output format (default: by the -o extension, else CSV).")
@click.option("--seed", type=SEED,
              help="Batch seed: a query without a seed gets one derived from it and its id "
                   "(default: random, reported).")
@click.option("--workers", type=click.IntRange(1, MAX_WORKERS),
              help=f"Local worker processes (default: one per core; at most one per core without --oversubscribe, "
                   f"{MAX_WORKERS} with it; 1: run in this process).")
@click.option("--oversubscribe", is_flag=True, help="Start every --workers process asked for, even beyond the cores.")
@click.option("--scheduler", metavar="ADDRESS", help="Run on a Dask cluster: its scheduler, e.g. tcp://HOST:8786.")
@click.option("--scheduler-file", type=click.Path(exists=True, dir_okay=False),
              help="Run on a Dask cluster named by a scheduler file.")
@click.option("--worker-timeout", type=FiniteFloatRange(0, MAX_WORKER_TIMEOUT, min_open=True),
              default=DEFAULT_WORKER_TIMEOUT, show_default=True, metavar="SECONDS",
              help="Dask: how long to wait for the scheduler and for a worker before stopping (at most "
                   f"{MAX_WORKER_TIMEOUT:,.0f}, a day).")
@click.option("--chunk-size", type=click.IntRange(min=1),
              help="Queries per task (default 16 on local workers, 64 on Dask).")
@click.option("--resume", is_flag=True, help="Go on with the -o file of a stopped run: skip the queries in it.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
@click.option("--device", type=click.Choice(DEVICES), default="cpu", show_default=True, help=DEVICE_HELP)
@usage_errors
@click.pass_context
def batch(ctx, input_file, output, input_format, delimiter, output_format, seed, workers, oversubscribe, scheduler,
          scheduler_file, worker_timeout, chunk_size, resume, quiet, device):
    """Run many equity queries from a CSV or JSON Lines FILE (or - for standard input).

    Each row is a query: columns game, die, board, dead, hand1, hand2, ... (or one hands column,
    players separated by |), and optionally trials, precision, seed, method, id. Writes one row
    per player per query, in input order, with every statistic of calc; a bad row gives one row
    with an error column and the batch goes on. -o FILE is written as FILE.part and renamed
    when the run is complete. Exit codes: 0 all ran, 1 some failed or the output could not be
    written, 2 usage error (nothing written), 3 workers lost (finished rows kept), 130 Ctrl-C.

    Example: omaha-equity batch spots.csv -o equities.csv --seed 1
    """
    from ...batch.command import BatchOptions, run_batch_command

    options = BatchOptions(input_file=input_file, output=output, input_format=input_format,
                           output_format=output_format, seed=seed, workers=workers, scheduler=scheduler,
                           scheduler_file=scheduler_file, chunk_size=chunk_size, resume=resume, quiet=quiet,
                           worker_timeout=worker_timeout, oversubscribe=oversubscribe, delimiter=delimiter,
                           device=device)
    ctx.exit(run_batch_command(options, report=lambda line: click.echo(line, err=True),
                               progress_bar=batch_progress_bar if sys.stderr is not None and sys.stderr.isatty()
                               else None))
