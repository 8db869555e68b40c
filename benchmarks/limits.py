"""Issue 18's table: every workload of "Speed to the limit" beside its limit or peer, in one run.

``python benchmarks/bench.py --only-limits`` prints it alone; ``make bench`` prints it first.
One Markdown table (workload | ours | limit or peer | ratio | goal | met?), then the machine
(cores, CPU model), the date and ``uptime`` before and after. The rows, in the issue's order:

1-3. exact heads-up preflop Omaha hi on 1 and 2 threads, and hi/lo on 1, in ns per player-board,
     beside the C program of the same algorithm (``c_limit.py``: it is first checked to compute
     our outcome tallies and equity) and beside poker-equity (PyPI ``poker-equity``, Rust; its
     exact mode runs on one thread); goal within 1.5x of C;
4.   Monte Carlo heads-up on 1 thread, the same way; goal within 1.2x of C;
5.   exact range enumeration ``calc AsAhKsKh AdAcT9`` (16 combinations) in player-boards per
     second beside the fixed-hand query's rate; goal within 1.5x of it;
6.   the whole warm command ``omaha-equity calc AsAhKsKh JdTd9c8c`` beside ``python -c "import
     numba"``, poker-equity's query through ``python -c`` and the C program's process (reading
     our rows of the deal, enumerating, printing); goal at most 0.15 s above importing numba;
7.   the cold first run (empty table and numba caches); goal at most 4 s;
8.   six 15% ranges, Monte Carlo, deals per second on 2 threads; goal at least 300,000;
9.   1,000 different 5% ranges parsed and expanded; goal at most 0.25 s;
10.  a heads-up river query in process (``calculate_equity``, 1 thread) beside poker-equity's
     exact answer; goal at most 0.1 ms;
11.  the same query, river and flop, typed into ``omaha-equity shell``; goal at most 5 ms.

Clocks: the 1-thread ns figures are CPU time (ours and poker-equity's of this process, C's of
its process), so that a shared machine's waits for a core do not count; 2 threads, wall time.
Kernel rows are the best of ``repeats`` interleaved rounds (``c_limit.interleaved``); whole
commands the median of fresh processes run in turn (``measure.medians_in_turn``). Without a C
compiler the C cells say so; without poker-equity its cells say "not installed".
"""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from importlib import metadata

import numba
from c_limit import (HANDS, HILO_HANDS, MC_SAMPLES, build, compared_exact, compared_monte_carlo,
                     ours_exact_ns, ours_monte_carlo, thread_counts_for, write_rows)
from measure import (BYTECODE_ENVIRONMENT, CLI_QUERY, NUMBA_IMPORT, PEER_QUERY, RANGE_EXACT, WARM_MARGIN_GOAL, best_of,
                     cold_cli_seconds, medians_in_turn, peer_river_seconds, per_query_fixed_cost,
                     percent_ranges_seconds, range_exact_rates, shell_query_seconds, six_ranges_rate)

from omaha_equity.deal import make_deal
from omaha_equity.equity.fixed.hands import prepare

PREFLOP_BOARDS = 1_086_008  # C(48, 5): heads-up, 4 hole cards each
KERNEL_GOAL = 1.5  # issue 18: exact kernels and range enumeration within 1.5x of their limit
MONTE_CARLO_GOAL = 1.2
COLD_GOAL_SECONDS = 4.0
SIX_RANGES_GOAL = 300_000  # deals per second on 2 threads
PERCENT_RANGES_GOAL_SECONDS = 0.25
RIVER_GOAL_SECONDS = 0.1e-3
SHELL_GOAL_SECONDS = 5e-3
NOT_INSTALLED = "not installed"
PEER_NAME = "poker-equity"
PEER_GAMES = {"omaha": "omaha", "omaha8": "omaha_hi_lo"}


@dataclass(frozen=True)
class Row:
    workload: str
    ours: str
    limit: str
    ratio: str
    goal: str
    met: bool | None  # None: not measured (no C compiler, one core)

    def markdown(self) -> str:
        met = "—" if self.met is None else "yes" if self.met else "no"
        return f"| {self.workload} | {self.ours} | {self.limit} | {self.ratio} | {self.goal} | {met} |"


def slower(ours: float, theirs: float) -> str:
    """``ours / theirs`` as the issue writes it: "3.96x slower" (or "1.10x faster")."""
    ratio = ours / theirs
    return f"{ratio:.2f}x slower" if ratio >= 1 else f"{1 / ratio:.2f}x faster"


def peer_module():
    """poker_equity, or None when it cannot be imported (``make bench`` installs it)."""
    try:
        import poker_equity
    except ImportError:
        return None
    return poker_equity


def peer_exact_ns(peer, game: str, hands: list[str], repeats: int) -> float:
    """poker-equity's exact preflop enumeration (one thread), CPU ns per player-board."""
    peer.exact_from_text(PEER_GAMES[game], hands)
    seconds = best_of(lambda: peer.exact_from_text(PEER_GAMES[game], hands), repeats, time.process_time)
    return seconds * 1e9 / (PREFLOP_BOARDS * len(hands))


def peer_monte_carlo_ns(peer, hands: list[str], repeats: int) -> float:
    """poker-equity's Monte Carlo of MC_SAMPLES boards on one thread, CPU ns per player-board."""
    sample = lambda: peer.chunk_from_text("omaha", hands, samples=MC_SAMPLES, seed=1, threads=1)  # noqa: E731
    sample()
    return best_of(sample, repeats, time.process_time) * 1e9 / (MC_SAMPLES * len(hands))


def ours_only_ns(game: str, hands: list[str], threads: int, repeats: int) -> float:
    """Our exact enumeration alone (no C program to compare with), ns per player-board."""
    prepared = prepare(make_deal(hands, "", "", game))
    ours_exact_ns(prepared, threads)
    return min(ours_exact_ns(prepared, threads) for _ in range(repeats))


def no_c_cell(c_note: str) -> str:
    """What a C cell says when there is no C program (``c_limit.build``'s note tells why)."""
    return "no C compiler" if c_note.startswith("no C compiler") else "C program did not build"


def kernel_rows(binary: str | None, openmp: bool, c_note: str, directory: str, peer, repeats: int) -> list[Row]:
    """Rows 1-4: our fixed-hand kernels beside C and poker-equity, ns per player-board."""
    rows_path = os.path.join(directory, "rows.bin")
    two_threads = numba.config.NUMBA_NUM_THREADS >= 2
    peer_repeats = min(repeats, 2)  # its exact queries take about a second each
    hi_hands, hilo_hands = HANDS[4][:2], HILO_HANDS[4]
    if binary is not None:
        hi = compared_exact(binary, rows_path, "omaha", hi_hands, thread_counts_for(openmp),
                            repeats)
        hilo = compared_exact(binary, rows_path, "omaha8", hilo_hands, [1], repeats)
        monte_carlo = compared_monte_carlo(binary, rows_path, [1], repeats)
    else:
        hi = [(ours_only_ns("omaha", hi_hands, 1, repeats), None)]
        if two_threads:
            hi.append((ours_only_ns("omaha", hi_hands, 2, repeats), None))
        hilo = [(ours_only_ns("omaha8", hilo_hands, 1, repeats), None)]
        prepared = prepare(make_deal(hi_hands, "", "", "omaha"))
        ours_monte_carlo(prepared, 1)
        monte_carlo = [(min(ours_monte_carlo(prepared, 1)[0] for _ in range(repeats)), None)]
    no_c = no_c_cell(c_note)

    def peer_cell(figure) -> str:
        return f"{PEER_NAME}: {NOT_INSTALLED}" if peer is None else f"{PEER_NAME}: {figure():.1f} (1 thread)"

    def row(workload: str, figures: tuple[float, float | None], limit: str, goal: float, peer_text: str = "") -> Row:
        ours, theirs = figures
        if theirs is None:
            return Row(workload, f"{ours:.1f}", "; ".join(filter(None, [no_c, peer_text])), "", f"within {goal}x of C",
                       None)
        return Row(workload, f"{ours:.1f}", "; ".join(filter(None, [f"{limit}: {theirs:.1f}", peer_text])),
                   slower(ours, theirs), f"within {goal}x of C", ours / theirs <= goal)

    rows = [row("exact heads-up preflop Omaha hi, ns per player-board, 1 thread", hi[0], "C, same algorithm",
                KERNEL_GOAL, peer_cell(lambda: peer_exact_ns(peer, "omaha", hi_hands, peer_repeats)))]
    workload = "the same, 2 threads"
    if len(hi) > 1:
        rows.append(row(workload, hi[1], "C with OpenMP", KERNEL_GOAL))
    elif not two_threads:
        rows.append(Row(workload, "one core: not measured", "", "", f"within {KERNEL_GOAL}x of C", None))
    else:
        rows.append(Row(workload, f"{ours_only_ns('omaha', hi_hands, 2, repeats):.1f}",
                        "C without OpenMP: not measured",
                        "", f"within {KERNEL_GOAL}x of C", None))
    rows.append(row("exact hi/lo heads-up, 1 thread", hilo[0], "C", KERNEL_GOAL,
                    peer_cell(lambda: peer_exact_ns(peer, "omaha8", hilo_hands, peer_repeats))))
    rows.append(row("Monte Carlo heads-up, ns per player-board, 1 thread", monte_carlo[0], "C Monte Carlo",
                    MONTE_CARLO_GOAL, peer_cell(lambda: peer_monte_carlo_ns(peer, hi_hands, peer_repeats))))
    return rows


def range_row(repeats: int, threads: int) -> Row:
    """Row 5: exact range enumeration beside the fixed-hand query's rate."""
    range_rate, fixed_rate = range_exact_rates(repeats, threads)
    seconds = 16 * PREFLOP_BOARDS * 2 / range_rate
    return Row(f"exact range enumeration (`calc {' '.join(RANGE_EXACT)}`, 16 combinations), {threads} threads",
               f"{range_rate / 1e6:.1f} M player-boards/s, {seconds:.2f} s",
               f"our fixed-hand kernel: {fixed_rate / 1e6:.1f} M/s", slower(fixed_rate, range_rate),
               f"within {KERNEL_GOAL}x of the fixed-hand kernel", fixed_rate / range_rate <= KERNEL_GOAL)


def whole_command_row(binary: str | None, c_note: str, directory: str, peer, rounds: int, threads: int) -> Row:
    """Row 6: the warm command beside importing numba, poker-equity through python -c and the C
    process, medians of ``rounds`` fresh processes each, run in turn."""
    commands = [(CLI_QUERY, BYTECODE_ENVIRONMENT), (NUMBA_IMPORT, BYTECODE_ENVIRONMENT)]
    if peer is not None:
        commands.append(([sys.executable, "-c", PEER_QUERY], BYTECODE_ENVIRONMENT))
    if binary is not None:
        rows_path = os.path.join(directory, "command-rows.bin")
        write_rows(prepare(make_deal(CLI_QUERY[-2:], "", "", "omaha")), rows_path)
        commands.append(([binary, rows_path, "exact", "1"],
                         dict(os.environ, OMP_NUM_THREADS=str(threads), OMP_WAIT_POLICY="passive")))
    medians = iter(medians_in_turn(commands, rounds))
    (ours, ours_cpu), (numba_import, _) = next(medians), next(medians)
    peer_text = f"{PEER_NAME} via python -c {next(medians)[0]:.2f} s" if peer is not None else \
        f"{PEER_NAME}: {NOT_INSTALLED}"
    c_text = f"C process {next(medians)[0]:.3f} s" if binary is not None else f"C: {no_c_cell(c_note)}"
    margin = ours - numba_import
    return Row(f"whole command `omaha-equity calc {' '.join(CLI_QUERY[-2:])}`, warm (median of {rounds} processes)",
               f"{ours:.2f} s ({ours_cpu:.2f} s CPU)",
               f"`python -c \"import numba\"` {numba_import:.2f} s; {peer_text}; {c_text}",
               f"{margin:+.2f} s over numba", f"at most +{WARM_MARGIN_GOAL:.2f} s over numba",
               margin <= WARM_MARGIN_GOAL)


def other_rows(peer, repeats: int, threads: int) -> list[Row]:
    """Rows 7-11: start, ranges, small queries."""
    cold = cold_cli_seconds()
    rows = [Row("cold first run (empty caches)", f"{cold:.1f} s", "", "", f"at most {COLD_GOAL_SECONDS:.0f} s",
                cold <= COLD_GOAL_SECONDS)]
    rate = six_ranges_rate(min(repeats, 3), threads)
    rows.append(Row(f"six 15% ranges, Monte Carlo, {threads} threads", f"{rate:,.0f} deals/s", "", "",
                    f"at least {SIX_RANGES_GOAL:,} (2 threads)", rate >= SIX_RANGES_GOAL))
    seconds = percent_ranges_seconds()
    rows.append(Row("1,000 different 5% ranges parsed and expanded", f"{seconds:.2f} s", "", "",
                    f"at most {PERCENT_RANGES_GOAL_SECONDS} s", seconds <= PERCENT_RANGES_GOAL_SECONDS))
    river = per_query_fixed_cost(repeats)
    peer_river = peer_river_seconds(repeats) if peer is not None else None
    rows.append(Row("heads-up river query in process (`calculate_equity`, 1 thread)", f"{river * 1e3:.3f} ms",
                    f"{PEER_NAME}: {NOT_INSTALLED}" if peer_river is None else f"{PEER_NAME}: {peer_river * 1e3:.3f} ms",
                    slower(river, peer_river) if peer_river is not None else "",
                    f"at most {RIVER_GOAL_SECONDS * 1e3:.1f} ms", river <= RIVER_GOAL_SECONDS))
    shell = shell_query_seconds(repeats)
    rows.append(Row("`omaha-equity shell`: heads-up river / flop query typed in, warm",
                    f"{shell['river'] * 1e3:.2f} / {shell['flop'] * 1e3:.2f} ms", "", "",
                    f"at most {SHELL_GOAL_SECONDS * 1e3:.0f} ms", max(shell.values()) <= SHELL_GOAL_SECONDS))
    return rows


def uptime() -> str:
    """``uptime``'s line (load averages over 1, 5 and 15 minutes), or the load averages alone."""
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "load average: " + ", ".join(f"{load:.2f}" for load in os.getloadavg())


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (Linux), else what ``platform`` knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def limits_table(repeats: int, threads: int, command: str = "python benchmarks/bench.py --only-limits") -> str:
    """Issue 18's table, measured now, with the machine, the date and the load under it (see the
    module docstring). ``repeats``: rounds of each kernel row (the slow rows take at most 3, the
    peer's exact queries 2), and 2 x repeats + 1 fresh processes (at least 7) of each whole
    command, the noisiest row and the closest to its goal; ``threads``: kernel threads of rows
    5, 6 and 8; ``command``: the command line the note under the table names. About 40 s with 5
    repeats on the project's 2-core machine."""
    load_before = uptime()
    started = time.perf_counter()

    def measured(what: str, rows: list[Row]) -> list[Row]:
        # a line on stderr per part (the table is stdout's): the whole takes minutes
        print(f"limits: {what} measured ({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
        return rows

    peer = peer_module()
    with tempfile.TemporaryDirectory(prefix="omaha-limits-") as directory:
        binary, openmp, c_note = build(directory)
        rows = measured("kernels beside C and poker-equity",
                        kernel_rows(binary, openmp, c_note, directory, peer, repeats))
        rows += measured("range enumeration", [range_row(min(repeats, 3), threads)])
        rows += measured("whole command",
                         [whole_command_row(binary, c_note, directory, peer, max(2 * repeats + 1, 7), threads)])
    rows += measured("start, ranges and small queries", other_rows(peer, repeats, threads))
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    peer_version = metadata.version("poker-equity") if peer is not None else NOT_INSTALLED
    lines = ["| workload | ours | limit or peer | ratio | goal | met? |", "|---|---|---|---|---|---|",
             *(row.markdown() for row in rows), "",
             f"Measured {when} with `{command}` in {time.perf_counter() - started:.0f} s "
             f"on {os.cpu_count()} cores ({cpu_model()}), Python {platform.python_version()}, numba "
             f"{numba.__version__}, {PEER_NAME} {peer_version}, C: {c_note}. ns figures: best of {repeats} "
             f"interleaved rounds, 1 thread in CPU time, 2 threads in wall time.", "",
             f"`uptime` before: {load_before}  ", f"`uptime` after: {uptime()}"]
    return "\n".join(lines)
