"""Generate the starting-hand rankings shipped in ``omaha_equity/rankings/data``.

For each game and table: list the hands up to suit isomorphism (16,432 classes of 4 cards,
134,459 of 5, 962,988 of 6; checked here), estimate each class's equity against random
opponents by Monte Carlo with the package's own evaluator
(``omaha_equity/rankings/_generate.py``), and write ``<game>.<table>.npz`` (equity per class as
uint16 plus a JSON header: method, opponents, samples, seeds, timing, script version).

Reproducible: class ``i`` of a file draws from the SplitMix64 stream of ``(seed, i)`` where
``seed`` is derived from ``--seed``, the game and the table, and the sums are integers, so the
same command gives the same equities on any machine and thread count.

Usage::

    python scripts/generate_rankings.py                       # everything, default samples
    python scripts/generate_rankings.py --games omaha --tables full-ring --samples 4=5000
    python scripts/generate_rankings.py --check-counts        # only verify the class counts
    python scripts/generate_rankings.py --workers 2           # 2 local processes x 1 thread
    python scripts/generate_rankings.py --scheduler tcp://HOST:8786 --samples 4=100000 --output /tmp/r

On a Dask cluster (``pip install 'omaha-equity[cluster]'``) the classes go out in tasks of
``--batch-deals`` deals (20 million, about a second on one core: a task costs about a
millisecond) and each task runs its kernel on ``--task-threads`` numba threads (default 1: start
the workers with one thread per core, ``dask worker tcp://HOST:8786 --nworkers auto --nthreads 1``).
The files are the same wherever they are computed.
"""

from __future__ import annotations

import argparse
import datetime
import sys
import time
import zlib
from math import comb
from pathlib import Path

import numpy as np

import numba

import omaha_equity
from omaha_equity.games import get_game
from omaha_equity.pots import pot_units
from omaha_equity.rankings import classes, store

SCRIPT_VERSION = 1
DEFAULT_SEED = 1
# Deals per class by hole-card count, so that all twelve files take well under a quarter of an
# hour on 2 cores (the 6-card games have 59 times as many classes as Omaha). Measured for the
# shipped files on a shared 2-core machine: 4 cards 116 s, 5 cards 124 s, 6 cards 261 s, about
# 8.5 minutes in all (each file's header records its own time). Mean standard errors of a
# class's equity: 0.003 (4 cards), 0.009 (5), 0.022 (6).
DEFAULT_SAMPLES = {4: 10000, 5: 1000, 6: 200}
BATCH_DEALS = 20_000_000  # deals per kernel call (progress is printed after each)
METHOD = (
    "Monte Carlo: each class (hand up to suit isomorphism) is represented by one hand and dealt "
    "{samples} times {opponents} random opponent hands and a random 5-card board from the other "
    "{remaining} cards; equity = mean share of the pot (split pots and hi/lo halves as fractions, "
    "8-or-better low for hi/lo); class i uses the SplitMix64 stream of (seed, i). Classes are ranked "
    "by equity (stored as round(equity * 65535)), ties in class order."
)


def file_seed(base_seed: int, game_name: str, table: str) -> int:
    """The kernel seed of one file: a hash of the base seed, the game and the table."""
    return zlib.crc32(f"{base_seed}/{game_name}/{table}".encode())


def estimate(hands: np.ndarray, opponent_count: int, sample_count: int, seed: int, hilo: bool,
             batch_classes: int, progress, executor=None, task_threads: int | None = None
             ) -> tuple[np.ndarray, np.ndarray]:
    """Share sums and square sums of every class (see ``sample_class_shares``), in chunks of
    ``batch_classes`` classes run on ``executor`` (default: this process, every core)."""
    from omaha_equity.runtime.executor import InProcessExecutor
    from omaha_equity.rankings.sampling import ClassChunk, sample_chunk

    executor = executor or InProcessExecutor()
    units = pot_units(opponent_count + 1, hilo)
    class_count = len(hands)
    share_sums = np.zeros(class_count, dtype=np.int64)
    square_sums = np.zeros(class_count, dtype=np.int64)
    firsts = range(0, class_count, batch_classes)
    chunks = (ClassChunk(hands[first:first + batch_classes], first, opponent_count, sample_count, seed, hilo, units,
                         task_threads) for first in firsts)
    for first, (sums, squares) in zip(firsts, executor.map(sample_chunk, chunks)):
        stop = min(first + batch_classes, class_count)
        share_sums[first:stop] = sums
        square_sums[first:stop] = squares
        progress(stop, class_count)
    return share_sums, square_sums


def generate(game_name: str, table: str, sample_count: int, base_seed: int, folder: Path, executor=None,
             task_threads: int | None = None, batch_deals: int = BATCH_DEALS) -> dict:
    """Generate and write one ranking file; returns its header."""
    game = get_game(game_name)
    hole_count = game.hole_count
    started = time.perf_counter()
    classes.check_counts(hole_count)
    hands = classes.representatives(hole_count)
    opponent_count = store.opponent_count(hole_count, table)
    seed = file_seed(base_seed, game_name, table)
    units = pot_units(opponent_count + 1, game.hilo)
    batch_classes = max(1, batch_deals // sample_count)

    def progress(done: int, total: int) -> None:
        elapsed = time.perf_counter() - started
        print(f"  {game_name} {table}: {done:,}/{total:,} classes, {elapsed:.0f} s", file=sys.stderr, flush=True)

    share_sums, square_sums = estimate(hands, opponent_count, sample_count, seed, game.hilo, batch_classes, progress,
                                       executor, task_threads)
    equity = share_sums / (sample_count * units)
    variance = np.maximum(square_sums / (sample_count * units**2) - equity**2, 0.0)
    standard_error = np.sqrt(variance / max(sample_count - 1, 1))
    quantized = np.rint(equity * store.EQUITY_SCALE).astype(np.uint16)
    seconds = time.perf_counter() - started
    header = {
        "format": store.FORMAT_VERSION,
        "game": game_name,
        "title": game.title,
        "table": table,
        "player_count": opponent_count + 1,
        "opponent_count": opponent_count,
        "hole_count": hole_count,
        "hilo": game.hilo,
        "class_count": len(hands),
        "hand_count": comb(52, hole_count),
        "class_keys_digest": classes.class_keys_digest(hole_count),
        "sample_count": sample_count,
        "seed": seed,
        "base_seed": base_seed,
        "method": METHOD.format(samples=sample_count, opponents=opponent_count,
                                remaining=52 - hole_count),
        "equity_scale": store.EQUITY_SCALE,
        "mean_equity": float(equity.mean()),
        "mean_standard_error": round(float(standard_error.mean()), 6),
        "generation_seconds": round(seconds, 1),
        "deals_per_second": round(len(hands) * sample_count / seconds),
        "threads": numba.get_num_threads() if executor is None else None,
        "ran_on": "this process" if executor is None else executor.description,
        "script": "scripts/generate_rankings.py",
        "script_version": SCRIPT_VERSION,
        "package_version": omaha_equity.__version__,
        "created": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
    }
    path = store.ranking_path(game_name, table, folder)
    store.write_ranking(path, quantized, header)
    header["file_bytes"] = path.stat().st_size
    return header


def parse_samples(values: list[str]) -> dict[int, int]:
    samples = dict(DEFAULT_SAMPLES)
    for value in values:
        hole_count, _, count = value.partition("=")
        if int(hole_count) not in samples or int(count) < 1:
            raise SystemExit(f"bad --samples {value!r}: expected HOLE_COUNT=N, e.g. 4=2000")
        samples[int(hole_count)] = int(count)
    return samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(store.RANKED_GAMES.values()),
                        help="comma-separated games (default: all six)")
    parser.add_argument("--tables", default=",".join(store.TABLES), help="full-ring, 6-handed or both")
    parser.add_argument("--samples", action="append", default=[], metavar="HOLE_COUNT=N",
                        help=f"deals per class for one hole-card count (default {DEFAULT_SAMPLES})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="base seed (default %(default)s)")
    parser.add_argument("--output", type=Path, default=store.DATA_DIR, help="folder (default: the package's)")
    parser.add_argument("--check-counts", action="store_true", help="only check the class counts")
    parser.add_argument("--workers", type=int, help="local worker processes, one numba thread each "
                        "(default: this process, one numba thread per core)")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="run on a Dask cluster, e.g. tcp://HOST:8786 "
                        "(pip install 'omaha-equity[cluster]')")
    parser.add_argument("--scheduler-file", metavar="FILE", help="run on the Dask cluster of this scheduler file")
    parser.add_argument("--task-threads", type=int, help="numba threads per task (default: 1 on workers "
                        "or a cluster, where the workers are the parallelism; every core in this process)")
    parser.add_argument("--batch-deals", type=int, default=BATCH_DEALS,
                        help="deals per task (default %(default)s: about a second of work on one core)")
    arguments = parser.parse_args(argv)

    if arguments.check_counts:
        for hole_count in classes.HOLE_COUNTS:
            classes.check_counts(hole_count)
            print(f"{hole_count} cards: {len(classes.class_keys(hole_count)):,} classes, "
                  f"{int(classes.class_sizes(hole_count).sum()):,} hands")
        return 0
    samples = parse_samples(arguments.samples)
    games = [name.strip() for name in arguments.games.split(",") if name.strip()]
    tables = [name.strip() for name in arguments.tables.split(",") if name.strip()]
    for name in games:
        if name not in store.RANKED_GAMES.values():
            raise SystemExit(f"unknown ranked game {name!r}: expected one of {', '.join(store.RANKED_GAMES.values())}")
    for table in tables:
        if table not in store.TABLES:
            raise SystemExit(f"unknown table {table!r}: expected one of {', '.join(store.TABLES)}")
    executor = None
    if arguments.workers is not None or arguments.scheduler or arguments.scheduler_file:
        from omaha_equity.errors import InputError
        from omaha_equity.runtime.executor import make_executor

        try:
            executor = make_executor(arguments.workers, arguments.scheduler, arguments.scheduler_file)
        except InputError as error:
            raise SystemExit(f"error: {error}") from None
        print(f"running on {executor.description}", file=sys.stderr, flush=True)
    task_threads = arguments.task_threads or (1 if executor is not None else None)
    total_started = time.perf_counter()
    try:
        for name in games:
            for table in tables:
                header = generate(name, table, samples[get_game(name).hole_count], arguments.seed, arguments.output,
                                  executor, task_threads, arguments.batch_deals)
                print(
                    f"{name:9} {table:9} {header['player_count']} players  {header['class_count']:>7,} classes x "
                    f"{header['sample_count']:>5,} deals  {header['generation_seconds']:7.1f} s  "
                    f"{header['deals_per_second'] / 1e6:.2f} M deals/s  mean s.e. "
                    f"{header['mean_standard_error']:.4f}  {header['file_bytes']:>9,} bytes",
                    flush=True,
                )
    finally:
        if executor is not None:
            executor.close()
    print(f"total {time.perf_counter() - total_started:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
