"""A batch of flop spots on a Dask cluster and in this process: the rows are identical.

Usage: python examples/cluster_batch.py [SPOTS.csv] [--scheduler tcp://HOST:8786] [--seed S]

Needs the optional extra: pip install 'omaha-equity[cluster]'. Without --scheduler it starts a
Dask LocalCluster of 2 workers on this machine, which the batch reaches over TCP exactly as it
would reach a remote scheduler (the workers are threads of this process, the quickest to start:
the cluster stands in for other machines; on this machine alone `omaha-equity batch` already
uses every core through local processes, without Dask). With --scheduler it uses that cluster
instead: start one with `dask scheduler` and `dask worker tcp://HOST:8786` on each machine.

The spots (default: examples/flop_spots.csv, two of whose rows are deliberately bad) run twice
with the same batch seed: on the cluster, in chunks of queries, and in this process. Both runs
are printed; the script checks that every row (numbers, seeds, error messages) is the same and
exits 0 if so, 1 if not. A query's numbers depend only on the query, its seed (its own, or the
one derived from --seed and its id) and nothing about where it ran.
"""

import argparse
import csv
import sys
from pathlib import Path

from omaha_equity import InputError
from omaha_equity.batch import run_batch

SPOTS = Path(__file__).resolve().parent / "flop_spots.csv"


def read_spots(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8-sig") as file:
        return list(csv.DictReader(file))


def batch_rows(spots: list[dict], seed: int, **where) -> list[dict]:
    """Every output row of the batch (the rows ``omaha-equity batch`` writes), in input order."""
    return [row for outcome in run_batch(spots, seed=seed, **where) for row in outcome.rows()]


def show(title: str, rows: list[dict]) -> None:
    print(title)
    for row in rows:
        if row["error"]:
            print(f"  {row['id']:<14} error: {row['error']}")
        else:
            exact = f" = {row['equity_exact']}" if row["equity_exact"] else f" ± {row['standard_error']:.2%}"
            print(f"  {row['id']:<14} {row['player']}  {row['hand']:<11} {row['board']:<7} "
                  f"{row['equity']:7.2%}{exact}  ({row['method']}, {row['sample_count']:,} boards)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("spots", nargs="?", type=Path, default=SPOTS, help="a batch CSV (default: %(default)s)")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="a running Dask scheduler (default: a LocalCluster)")
    parser.add_argument("--seed", type=int, default=1, help="the batch seed (default %(default)s)")
    arguments = parser.parse_args()
    spots = read_spots(arguments.spots)

    if arguments.scheduler:
        if "HOST" in arguments.scheduler:  # the usage line's placeholder, typed as it is
            print(f"error: {arguments.scheduler} is a placeholder: give your scheduler's address, e.g. "
                  "tcp://192.168.1.10:8786 (or no --scheduler for a LocalCluster)", file=sys.stderr)
            return 2
        try:
            cluster_rows = batch_rows(spots, arguments.seed, scheduler=arguments.scheduler)
        except InputError as error:  # a scheduler that cannot be reached: one line, not a traceback
            print(f"error: {error}", file=sys.stderr)
            return 2
        where = f"Dask cluster {arguments.scheduler}"
    else:
        from distributed import LocalCluster

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://",
                          dashboard_address=":0") as cluster:  # ":0": any free port
            # chunk_size 4: this small batch becomes several tasks spread over both workers
            cluster_rows = batch_rows(spots, arguments.seed, scheduler=cluster.scheduler_address, chunk_size=4)
            where = f"Dask LocalCluster {cluster.scheduler_address} (2 workers)"
    local_rows = batch_rows(spots, arguments.seed, workers=1)

    show(f"on the {where}:", cluster_rows)
    show("in this process:", local_rows)
    failed = sum(1 for row in local_rows if row["error"])
    if cluster_rows != local_rows:
        different = [row["id"] for row, other in zip(cluster_rows, local_rows) if row != other]
        print(f"DIFFERENT: {len(cluster_rows)} rows on the cluster, {len(local_rows)} here; "
              f"first different id: {different[0] if different else '(one run has more rows)'}")
        return 1
    print(f"identical: {len(local_rows)} rows ({len(spots)} spots, {failed} error rows), seed {arguments.seed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
