"""The limit (issue 18 §1): our fixed-hand kernels beside a C program of the same algorithm.

``benchmarks/c/exact_omaha.c`` reads the very rows ``build_player_rows`` makes for a deal
(written here to a temporary file) and enumerates every preflop board with nested loops, or
samples boards as ``sample_boards`` does (same chunks, same SplitMix64 streams). Each row below
is measured interleaved (ours, C, ours, C ...) on 1 and 2 threads, best of the rounds, in
nanoseconds per player-board (1 thread: CPU time of the process, so that a shared machine's
waits for a core do not count; 2 threads: wall time); the ratio is ours over C. Before the figures count, the C
program's results are checked: its outcome tallies must equal ``enumerate_boards``' and its
equity ``calculate_equity(..., method="exact")``'s (Monte Carlo: the same equity as ours for the
same seed, sample for sample). Built with ``cc -O3 -march=native -fopenmp`` (:data:`C_FLAGS`; without
OpenMP if that fails: 1 thread only); with no C compiler the section prints a note and is skipped.

Run: ``python benchmarks/bench.py --only-c-limit`` (about a minute on a quiet 2-core machine).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from math import comb

import numba
import numpy as np

from omaha_equity.deal import make_deal
from omaha_equity.equity import plan
from omaha_equity.equity.fixed import _kernels
from omaha_equity.equity import calculate as calc_module
from omaha_equity.equity.calculate import calculate_equity
from omaha_equity.equity.fixed.hands import prepare

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "c", "exact_omaha.c")

# Hands dealt in order: the first n of a row are the n players' hands.
HANDS = {
    4: ["AsAhKsKh", "JdTd9c8c", "QcQd7h6h", "5s4s3d2d", "KcJh8d8s", "Tc9h7c6s"],
    5: ["AsAhKsKhQc", "JdTd9c8c7d", "QdQh7h6h5c", "5s4s3d2d2c", "KcJh8d8s3h", "Tc9h7c6s4c"],
    6: ["AsAhKsKhQcJs", "JdTd9c8c7d6d", "QdQh7h6h5c4h", "5s4s3d2d2c3c", "KcJh8d8s3h2h", "Tc9h7c6s4c9s"],
}
HILO_HANDS = {
    4: ["As2sKdQd", "Ah3h9c9d"],
    5: ["As2sKdQdJc", "Ah3h9c9dTs"],
    6: ["As2sKdQdJcJh", "Ah3h9c9dTs8s"],
}
GAMES = {4: ("omaha", "omaha8"), 5: ("omaha5", "omaha5-8"), 6: ("omaha6", "omaha6-8")}
MC_SAMPLES = 2_000_000
# The C limit built as fast as the compiler makes it for this machine: -O3 -march=native ran 15-18%
# faster than -O2 (PERF-NOTES, 2026-12-04), so an -O2 build would flatter our ratios.
C_FLAGS = ("-O3", "-march=native")
MC_SEED = 1


def exact_rows() -> list[tuple[str, str, list[str]]]:
    """(label, game, hands) of every exact row: 2, 3 and 6 players with 4, 5 and 6 hole cards
    (high only), and heads-up hi/lo with 4, 5 and 6."""
    rows = []
    for hole_count, (high_game, _) in GAMES.items():
        for players in (2, 3, 6):
            rows.append((f"{high_game} hi, {players} players", high_game, HANDS[hole_count][:players]))
    for hole_count, (_, hilo_game) in GAMES.items():
        rows.append((f"{hilo_game} hi/lo, 2 players", hilo_game, HILO_HANDS[hole_count]))
    return rows


def build(directory: str) -> tuple[str | None, bool, str]:
    """Compile the C program into ``directory``: ``(path or None, with OpenMP, note)``."""
    named = os.environ.get("CC")  # when set, that compiler or none (CC=none: the no-compiler case)
    compiler = shutil.which(named) if named else shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        return None, False, "no C compiler found (set CC): C limit skipped"
    binary = os.path.join(directory, "exact_omaha")
    for flags, openmp in ((["-fopenmp"], True), ([], False)):
        done = subprocess.run([compiler, *C_FLAGS, *flags, "-o", binary, SOURCE], capture_output=True, text=True)
        if done.returncode == 0:
            return binary, openmp, f"{os.path.basename(compiler)} {' '.join(C_FLAGS)}{' -fopenmp' if openmp else ''}"
    return None, False, f"the C program did not compile: {done.stderr.strip().splitlines()[-1:]}"


def write_rows(prepared, path: str) -> None:
    """The rows file ``exact_omaha.c`` reads (its header comment gives the layout)."""
    player_count, row_size = prepared.high_rows.shape
    header = np.array([player_count, len(prepared.deck), int(prepared.hilo), row_size, prepared.units], dtype="<i8")
    with open(path, "wb") as out:
        for array, dtype in ((header, "<i8"), (prepared.deck, "i1"), (prepared.colex, "<i4"),
                             (prepared.high_rows, "<i4"), (prepared.flush_rows, "<i4"), (prepared.low_rows, "<i2")):
            out.write(np.ascontiguousarray(array, dtype=dtype).tobytes())


def run_c(binary: str, rows_path: str, threads: int, arguments: list[str]) -> dict:
    """One run of the C program: its figure and results, parsed."""
    environment = dict(os.environ, OMP_NUM_THREADS=str(threads), OMP_WAIT_POLICY="passive")
    output = subprocess.run([binary, rows_path, *arguments], capture_output=True, text=True, check=True,
                            env=environment).stdout
    parsed: dict = {"outcomes": {}, "has_low": {}, "equity": {}}
    for line in output.splitlines():
        words = line.split()
        if words[0] == "ns_per_player_board":
            parsed["wall"] = float(words[1])
        elif words[0] == "cpu_ns_per_player_board":
            parsed["cpu"] = float(words[1])
        elif words[0] == "outcome":
            parsed["outcomes"][int(words[1])] = int(words[2])
        elif words[0] == "has_low":
            parsed["has_low"][int(words[1])] = int(words[2])
        elif words[0] == "equity":
            parsed["equity"][int(words[1])] = float(words[2])
    return parsed


def check_exact(game: str, hands: list[str], prepared, c_result: dict) -> None:
    """The C program computed what we compute: the same outcome tallies as ``enumerate_boards``
    and the equity of ``calculate_equity(..., method="exact")``."""
    outcomes, has_low = _kernels.enumerate_boards(*prepared.kernel_arguments(), plan.BINOMIALS, prepared.hilo, 0, 1, 1)
    ours = {int(key): int(count) for key, count in enumerate(outcomes[0]) if count}
    if ours != c_result["outcomes"]:
        raise AssertionError(f"C outcome tallies differ from enumerate_boards' for {game} {hands}")
    if prepared.hilo and [int(count) for count in has_low[0]] != [c_result["has_low"][p] for p in range(len(hands))]:
        raise AssertionError(f"C qualifying-low counts differ for {game} {hands}")
    result = calculate_equity(hands, game=game, method="exact")
    for player, equity in enumerate(result.players):
        if abs(float(equity.equity) - c_result["equity"][player]) > 1e-12:
            raise AssertionError(f"C equity {c_result['equity'][player]} != {float(equity.equity)} ({game} {hands})")


def clock(threads: int):
    """The clock a figure on ``threads`` threads is read from: 1 thread, the process's CPU time
    (a busy machine's waits for a core left out, as the C program's ``cpu`` figure); more, the
    wall clock (what the threads are for)."""
    return time.process_time if threads == 1 else time.perf_counter


def c_figure(threads: int) -> str:
    """Which of the C program's figures matches :func:`clock`."""
    return "cpu" if threads == 1 else "wall"


def ours_exact_ns(prepared, threads: int) -> float:
    """Our exact enumeration of the deal (``calculate._enumerate``: the kernel in pieces on the
    kernel threads, the outcomes scored), ns per player-board."""
    boards = comb(len(prepared.deck), prepared.dealt_count)
    now = clock(threads)
    started = now()
    calc_module._enumerate(prepared, None, threads)
    seconds = now() - started
    return seconds * 1e9 / (boards * prepared.high_rows.shape[0])


def ours_monte_carlo(prepared, threads: int) -> tuple[float, list[float]]:
    """Our Monte Carlo of the deal (``calculate._sample``): (ns per
    player-board, equity per player)."""
    player_count = prepared.high_rows.shape[0]
    now = clock(threads)
    started = now()
    samples, counts, _, _ = calc_module._sample(prepared, MC_SEED, MC_SAMPLES, None, None, threads)
    seconds = now() - started
    equity = [int(counts[player, _kernels.EQUITY]) / (prepared.units * samples) for player in range(player_count)]
    return seconds * 1e9 / (samples * player_count), equity


def interleaved(ours, theirs, rounds: int) -> tuple[float, float]:
    """Best of ``rounds`` of each, run ours, theirs, ours, theirs ... (a shared machine's load
    then weighs on both alike)."""
    best_ours = best_theirs = float("inf")
    for _ in range(rounds):
        best_ours = min(best_ours, ours())
        best_theirs = min(best_theirs, theirs())
    return best_ours, best_theirs


def load_note() -> str:
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "load unknown"
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min), {os.cpu_count()} cores"


def thread_counts_for(openmp: bool) -> list[int]:
    """The thread counts compared: 1, and 2 when the C program has OpenMP and numba 2 threads."""
    return [1, 2] if openmp and numba.config.NUMBA_NUM_THREADS >= 2 else [1]


def compared_exact(binary: str, rows_path: str, game: str, hands: list[str], thread_counts: list[int],
                   repeats: int) -> list[tuple[float, float]]:
    """(ours, C) ns per player-board of the exact preflop enumeration of ``hands`` on each of
    ``thread_counts`` (best of ``repeats`` interleaved rounds), after checking that the C program,
    reading our rows (written to ``rows_path``), computes what we compute (:func:`check_exact`)."""
    prepared = prepare(make_deal(hands, "", "", game))
    write_rows(prepared, rows_path)
    check_exact(game, hands, prepared, run_c(binary, rows_path, 1, ["exact", "1"]))
    figures = []
    for threads in thread_counts:
        ours_exact_ns(prepared, threads)  # warm: the kernels loaded, the threads started
        figures.append(interleaved(lambda: ours_exact_ns(prepared, threads),
                                   lambda: run_c(binary, rows_path, threads, ["exact", "1"])[c_figure(threads)],
                                   repeats))
    return figures


def compared_monte_carlo(binary: str, rows_path: str, thread_counts: list[int],
                         repeats: int, hands: list[str] | None = None) -> list[tuple[float, float]]:
    """(ours, C) ns per player-board of MC_SAMPLES Monte Carlo boards of the Omaha deal ``hands``
    (default: heads-up, ``HANDS[4][:2]``) on each of ``thread_counts``, after checking that both
    give the same equity for the same seed."""
    hands = HANDS[4][:2] if hands is None else hands
    prepared = prepare(make_deal(hands, "", "", "omaha"))
    write_rows(prepared, rows_path)
    arguments = ["monte-carlo", "1", str(MC_SAMPLES), str(MC_SEED)]
    figures = []
    for threads in thread_counts:
        _, equity = ours_monte_carlo(prepared, threads)
        c_equity = run_c(binary, rows_path, threads, arguments)["equity"]
        if any(abs(equity[p] - c_equity[p]) > 1e-12 for p in range(len(hands))):
            raise AssertionError(f"C Monte Carlo equity {c_equity} != ours {equity} (same seed)")
        figures.append(interleaved(lambda: ours_monte_carlo(prepared, threads)[0],
                                   lambda: run_c(binary, rows_path, threads, arguments)[c_figure(threads)], repeats))
    return figures


# Calls of a small exact query in one round of compared_whole_call, and the C program's repeats
# per run: a 6 x 5 enumeration takes about half a millisecond, so single calls are the figures.
WHOLE_CALL_CALLS = 20


def compared_whole_call(binary: str, rows_path: str, game: str, hands: list[str],
                        repeats: int) -> tuple[float, float, float]:
    """Milliseconds of the exact preflop query of ``hands`` on 1 thread, CPU time: ``(the whole
    calculate_equity call, our enumeration (calc._enumerate: the kernel and the scoring of its
    outcomes), the C program's enumeration)``, each the best single call of ``repeats``
    interleaved rounds of WHOLE_CALL_CALLS calls, after checking that the C program computes what
    we compute (:func:`check_exact`). The whole call counts everything the enumeration does not:
    reading the hands, building the rows, the plan, the result."""
    prepared = prepare(make_deal(hands, "", "", game))
    write_rows(prepared, rows_path)
    c_result = run_c(binary, rows_path, 1, ["exact", str(WHOLE_CALL_CALLS)])
    check_exact(game, hands, prepared, c_result)
    player_boards = comb(len(prepared.deck), prepared.dealt_count) * len(hands)

    def best_call(call) -> float:
        best = float("inf")
        for _ in range(WHOLE_CALL_CALLS):
            started = time.process_time()
            call()
            best = min(best, time.process_time() - started)
        return best * 1e3

    whole_call = lambda: calculate_equity(hands, game=game, method="exact", threads=1)  # noqa: E731
    enumeration = lambda: calc_module._enumerate(prepared, None, 1)  # noqa: E731
    whole_call()
    enumeration()
    whole = kernel = limit = float("inf")
    for _ in range(repeats):
        whole = min(whole, best_call(whole_call))
        kernel = min(kernel, best_call(enumeration))
        c_ns = run_c(binary, rows_path, 1, ["exact", str(WHOLE_CALL_CALLS)])["cpu"]
        limit = min(limit, c_ns * player_boards * 1e-6)
    return whole, kernel, limit


def cells(figures: list[tuple[float, float]]) -> str:
    return "".join(f" | {ours:7.1f} | {theirs:5.1f} | {ours / theirs:4.2f}x" for ours, theirs in figures)


def c_limit_figures(repeats: int) -> None:
    """Print the C-limit table (see the module docstring)."""
    with tempfile.TemporaryDirectory(prefix="omaha-c-limit-") as directory:
        binary, openmp, note = build(directory)
        if binary is None:
            print(f"C limit: {note}")
            return
        thread_counts = thread_counts_for(openmp)
        rows_path = os.path.join(directory, "rows.bin")
        print(f"C limit (benchmarks/c/exact_omaha.c, {note}): ns per player-board, best of {repeats} interleaved "
              f"rounds, ratio = ours / C; 1 thread in CPU time, 2 threads in wall time; {load_note()} at the start")
        header = "".join(f" | ours {t}t |  C {t}t | ratio" for t in thread_counts)
        print(f"  {'exact preflop':32s}{header}")
        for label, game, hands in exact_rows():
            figures = compared_exact(binary, rows_path, game, hands, thread_counts, repeats)
            print(f"  {label:32s}{cells(figures)}")
        figures = compared_monte_carlo(binary, rows_path, thread_counts, repeats)
        print(f"  {'Monte Carlo omaha, 2 players':32s}{cells(figures)}  ({MC_SAMPLES:,} boards, same equity as C)")
        print(f"  ({load_note()} at the end)")
