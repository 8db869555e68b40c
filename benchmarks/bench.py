"""Speed figures for omaha-equity (and the poker-equity package side by side when installed).

Run: ``make bench`` or ``python benchmarks/bench.py [--threads 2] [--skip-cold]``.

Prints, for this machine:
- first, issue 18's table (``--only-limits`` prints just it; ``benchmarks/limits.py``): every
  workload of "Speed to the limit" beside its C limit or poker-equity, its goal and whether it
  is met, with the machine, the date and the load;
- exact heads-up preflop enumeration (1,086,008 boards), Omaha hi and hi/lo: kernel time and
  the whole ``calculate_equity`` call, warm, best of several runs;
- Monte Carlo throughput in player-boards per second with fixed hands;
- start-up (issue 9; ``--only-startup`` prints just these): the warm CLI below in wall and CPU
  seconds of fresh processes, beside its floor (the interpreter alone, importing the CLI,
  importing numba) and poker-equity's same query through ``python -c``; the warm command beside
  ``python -c "import numba"`` (issue 18: medians of fresh processes in turn), its imports by
  package (``-X importtime``) and a query typed into ``omaha-equity shell``; the cold CLI; a
  small query's fixed cost in process; 1,000 different 5% ranges;
- the studies (issue 8): equity after every turn card on a flop (one pass, and 41 separate
  queries for comparison) and the distribution over each hand of a 5% range on a flop;
- a heads-up river query asked with 2 threads while another process burns a core (issue 9);
- the CLI's wall time for ``omaha-equity calc AsAhKsKh JdTd9c8c`` warm, and cold (fresh table
  and numba caches, in temporary folders);
- the same exact and Monte Carlo queries with ``poker_equity`` (PyPI ``poker-equity``) and the
  ratio, when it can be imported;
- multiway narrow ranges (issue 9): six ``15%`` ranges, Monte Carlo deals per second (weighted
  sequential deals) and the effective share of the deals (Kish), and 1,000 deals of 3-way ranges;
- ``ev``: 10,000 PokerStars hand histories read, replayed by the rules engine and all-in
  evaluated (issue 7), made from the real files of ``tests/data/pokerstars``;
- long ranges (issue 9, ``--only-parse``): a weighted list of 9,000 hands and 100 KB chains;
- batch memory (issue 15, only with ``--batch-memory``: about ten minutes): the peak memory of
  ``omaha-equity batch`` on 1,000 and on 1,000,000 heads-up river queries, fresh and
  ``--resume``d over its own whole output.
- the limit (issue 18, ``--only-c-limit``): the exact and Monte Carlo fixed-hand kernels beside a
  C program of the same algorithm (``benchmarks/c_limit.py``), ns per player-board and ratio;
- hand categories (issue 16, ``--only-hits``): the composition of every 4-card hand on a flop
  and a turn, of every 5- and 6-card hand on a flop (time and peak traced memory), ``hits '15%'
  -b Qh7d2c --vs AsKsQdJh`` in process and as a whole command, and a filtered range against the
  same hands written out.
- every flop (``--only-flops``, a few minutes): ``flops '15%'`` (composition on the 1,755 flop
  classes) and ``flops '15%' --vs AsKsQdJh``, each as a whole command: wall time and peak memory.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numba
from c_limit import c_limit_figures
from limits import limits_table
from small_studies import LAUNCHER
from measure import (BYTECODE_ENVIRONMENT, CLI_QUERY, HI, HILO, NUMBA_IMPORT, PEER_QUERY, RANGE_EXACT, SIX_RANGES,
                     WARM_MARGIN_GOAL, best_of, best_process_seconds, cold_cli_seconds, per_query_fixed_cost,
                     percent_ranges_seconds, range_exact_rates, shell_query_seconds, six_ranges_rate,
                     warm_command_over_numba)

from omaha_equity.deal import make_deal
from omaha_equity.equity import calculate as calc_module
from omaha_equity.equity.calculate import calculate_equity
from omaha_equity.equity.fixed.hands import prepare

MC_TRIALS = 10_000_000

# Sections kept in their own scripts of benchmarks/, printed in this order by the full run:
# (module, function of no arguments that prints the section). Add one with one line here; a
# module that is not there is skipped with a note.
SECTIONS = [
    ("small_studies", "small_studies_figures"),  # many small queries: the table of every row, goals
    ("hand_types_bench", "hand_types_figures"),  # calc --hand-types over a range
    ("pql_bench", "main"),  # the query language and outs
    ("flops_bench", "main"),  # flops '15%' and flops '15%' --vs AsKsQdJh as whole commands
]


def print_sections() -> None:
    """Run every :data:`SECTIONS` entry whose module can be imported."""
    for module_name, function_name in SECTIONS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            print(f"section {module_name}: benchmarks/{module_name}.py not found, skipped")
            continue
        getattr(module, function_name)()


def exact_figures(game: str, hands: list[str], repeats: int) -> tuple[float, float]:
    """(kernel seconds, whole-call seconds) for an exact preflop enumeration."""
    prepared = prepare(make_deal(hands, "", "", game))
    calc_module._enumerate(prepared, None)  # load the compiled kernel
    kernel = best_of(lambda: calc_module._enumerate(prepared, None), repeats)
    whole = best_of(lambda: calculate_equity(hands, game=game), repeats)
    return kernel, whole


def monte_carlo_rate(game: str, hands: list[str], repeats: int) -> float:
    """Player-boards per second."""
    calculate_equity(hands, game=game, trials=100_000, seed=1)
    seconds = best_of(lambda: calculate_equity(hands, game=game, trials=MC_TRIALS, seed=1), repeats)
    return MC_TRIALS * len(hands) / seconds


def random_opponent_rate(repeats: int) -> float:
    """Deals per second of a hand against a random hand, preflop, Monte Carlo (issue 3)."""
    hands = ["AsKsQhJh", "*"]
    calculate_equity(hands, trials=100_000, seed=1)
    seconds = best_of(lambda: calculate_equity(hands, trials=MC_TRIALS, seed=1), repeats)
    return MC_TRIALS / seconds


def multiway_range_figures(repeats: int) -> tuple[float, float, float]:
    """Six 15% ranges preflop (issue 9): (deals/s, effective samples / deals, seconds for
    1,000 deals of three 15% ranges, ranges parsed included)."""
    from omaha_equity.equity.lists import sampling as range_sampling
    from omaha_equity.equity.players import seat_players
    from omaha_equity.games import get_game
    from omaha_equity.pots import pot_units

    rate = six_ranges_rate(repeats)
    game = get_game("omaha")
    run = range_sampling.sample_range_equity(seat_players(SIX_RANGES, (), (), game), (), (), game, pot_units(6, False),
                                             1, 100_000)
    three = best_of(lambda: calculate_equity(["15%"] * 3, trials=1_000, seed=1), repeats)
    return rate, run.effective_samples / run.deals, three


ALLIN_FLOP = (["As2sKdQd", "Ah3h9c9d", "5c4c8h8s"], [500, 350, 120], "Kh7s2d")
ALLIN_PREFLOP = (["AsAhKsKh", "JdTd9c8c", "Ac2c3d4d", "QsJhTh9s"], [1000, 700, 400, 150])


def allin_figures(repeats: int) -> tuple[float, float, float]:
    """All-in with side pots (issue 7): (seconds for an exact 3-way flop all-in hi/lo,
    seconds for an exact heads-up preflop all-in, Monte Carlo deals/s of a 4-way preflop all-in
    with three side pots)."""
    from omaha_equity.equity.expected_chips import calculate_allin

    hands, committed, board = ALLIN_FLOP
    calculate_allin(hands, committed, board, game="omaha8")
    flop = best_of(lambda: calculate_allin(hands, committed, board, game="omaha8"), repeats)
    calculate_allin(HI[1], [300, 100])
    preflop = best_of(lambda: calculate_allin(HI[1], [300, 100]), repeats)
    hands, committed = ALLIN_PREFLOP
    calculate_allin(hands, committed, trials=100_000, seed=1)
    seconds = best_of(lambda: calculate_allin(hands, committed, trials=MC_TRIALS, seed=1), repeats)
    return flop, preflop, MC_TRIALS / seconds


def next_card_seconds(repeats: int) -> tuple[float, float]:
    """(study seconds, seconds of one calculate_equity query per turn card) for the equity after
    every turn card on a flop, AsAhKsKh vs JdTd9c8c on Qd7h2s, exact (issue 8)."""
    from omaha_equity.cards import format_card, parse_cards
    from omaha_equity.studies import next_card_equity

    hands, board = ["AsAhKsKh", "JdTd9c8c"], "Qd7h2s"
    next_card_equity(hands, board)
    study = best_of(lambda: next_card_equity(hands, board), repeats)
    known = set(parse_cards("".join(hands) + board))
    turns = [board + format_card(card) for card in range(52) if card not in known]
    one_by_one = best_of(lambda: [calculate_equity(hands, turn) for turn in turns], repeats)
    return study, one_by_one


def distribution_seconds(repeats: int) -> tuple[float, int]:
    """(seconds, range hands) for AsAhJs9h's equity against each hand of the top 5% on Qd7h2s,
    exact (issue 8; the percent range is parsed once beforehand)."""
    from omaha_equity.studies import equity_distribution

    spread = equity_distribution("AsAhJs9h", "5%", "Qd7h2s")
    return best_of(lambda: equity_distribution("AsAhJs9h", "5%", "Qd7h2s"), repeats), len(spread.items)


def startup_figures(repeats: int, skip_cold: bool) -> None:
    """The whole command warm (issue 9: at most 0.35 s, and faster than poker-equity through
    python -c), what no command can go below (the interpreter, importing the CLI, importing
    numba), and the cold command (at most 5 s)."""
    wall, cpu = best_process_seconds(CLI_QUERY, repeats)
    print(f"CLI warm 'omaha-equity calc AsAhKsKh JdTd9c8c': {wall:.3f} s wall, {cpu:.3f} s CPU "
          f"(best of {repeats} processes)")
    floors = (("the interpreter alone", [sys.executable, "-c", "pass"]),
              ("importing the CLI", [sys.executable, "-c", "import omaha_equity.cli"]),
              ("importing numba", [sys.executable, "-c", "import numba"]))
    print("  floor (wall / CPU): " + "; ".join(
        "{} {:.3f} / {:.3f} s".format(label, *best_process_seconds(command, repeats)) for label, command in floors))
    try:
        import poker_equity  # noqa: F401
    except ImportError:
        print("  poker-equity not installed: no side-by-side start-up figure")
    else:
        wall, cpu = best_process_seconds([sys.executable, "-c", PEER_QUERY], repeats)
        print(f"  poker-equity, the same query through python -c: {wall:.3f} s wall, {cpu:.3f} s CPU")
    lean_start_figures(repeats)
    if not skip_cold:
        print(f"CLI cold (empty table and numba caches): {cold_cli_seconds():.1f} s wall")


def import_seconds_by_package() -> dict[str, float]:
    """Seconds of the warm command's imports (``python -X importtime``, each module's own time),
    by what brings them: numba (and numpy, and what importing numba imports), click, tabulate
    (and wcwidth, which it imports when installed), omaha_equity, the rest."""
    numba_modules = set(subprocess.run(
        [sys.executable, "-c", "import sys, numba; print(chr(10).join(sys.modules))"],
        capture_output=True, text=True, check=True, env=BYTECODE_ENVIRONMENT).stdout.split())
    trace = subprocess.run([sys.executable, "-X", "importtime", *CLI_QUERY[1:]], capture_output=True, text=True,
                           check=True, env=BYTECODE_ENVIRONMENT).stderr
    groups = {"numba": 0.0, "click": 0.0, "tabulate": 0.0, "omaha_equity": 0.0, "other": 0.0}
    for line in trace.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, _, name = (part.strip() for part in line.removeprefix("import time:").split("|"))
        top = name.split(".")[0]
        group = ("numba" if name in numba_modules else "omaha_equity" if top in ("omaha_equity", "__editable___omaha_equity_0_1_0_finder")
                 else top if top in groups else "tabulate" if top == "wcwidth" else "other")
        groups[group] += int(own) / 1e6
    return groups


def lean_start_figures(repeats: int) -> None:
    """Issue 18, section 3: the warm command beside importing numba, where its imports go, and the
    shell's answer time."""
    rounds = max(repeats, 7)
    load = os.getloadavg()[0]
    (command, command_cpu), (numba_import, numba_cpu) = warm_command_over_numba(rounds)
    print(f"warm 'omaha-equity calc AsAhKsKh JdTd9c8c' {command:.3f} s vs python -c 'import numba' {numba_import:.3f} s: "
          f"+{command - numba_import:.3f} s wall, +{command_cpu - numba_cpu:.3f} s CPU (goal at most "
          f"+{WARM_MARGIN_GOAL:.2f} s wall; medians of {rounds} fresh processes each, in turn, .pyc written; load "
          f"{load:.1f})")
    groups = import_seconds_by_package()
    print("  its imports (python -X importtime, own times): " + ", ".join(
        f"{name} {seconds:.3f} s" for name, seconds in groups.items()))
    shell = shell_query_seconds(repeats)
    print(f"shell, heads-up query typed in a warm session (in process, median): river {shell['river'] * 1e3:.2f} ms, "
          f"flop {shell['flop'] * 1e3:.2f} ms (goal at most 5 ms)")


def peer_figures(repeats: int, threads: int):
    """poker-equity's exact times (it enumerates on one thread) and Monte Carlo rate, or None."""
    try:
        import poker_equity
    except ImportError:
        return None
    peer_games = {"omaha": "omaha", "omaha8": "omaha_hi_lo"}
    figures = {}
    for game, hands in (HI, HILO):
        variant = peer_games[game]
        poker_equity.exact_from_text(variant, hands)
        figures[f"exact {game}"] = best_of(lambda: poker_equity.exact_from_text(variant, hands), repeats)
        trials = 2_000_000
        seconds = best_of(lambda: poker_equity.chunk_from_text(variant, hands, board="", dead="", samples=trials,
                                                               seed=1, threads=threads), repeats)
        figures[f"mc {game}"] = trials * len(hands) / seconds
    return figures


EV_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "pokerstars")
# How often each kind of real hand recurs in the generated session: a session of mostly ordinary
# hands, about 1 % all in pre-flop and 3 % all in on the flop (the real files are rich in all-ins).
EV_WEIGHTS = {"preflop": 1, "flop": 2, "turn": 2, None: 10}


def ev_session_text(hand_count: int) -> tuple[str, dict]:
    """A PokerStars session of ``hand_count`` hands made from the real files: each real hand
    recurs by its kind (EV_WEIGHTS), each copy with a new hand number and its suits relabelled
    (one of the 24 permutations), so the cards differ while the play and amounts stay legal."""
    import itertools
    import re

    from omaha_equity.ev.hand_ev import evaluate_hand
    from omaha_equity.hand_history.pokerstars import parse_pokerstars_blocks, split_hands
    from omaha_equity.hand_history.file_replay import replay_pokerstars_hand

    kinds = []
    for name in sorted(os.listdir(EV_DATA)):
        if name.endswith(".txt"):
            with open(os.path.join(EV_DATA, name), encoding="utf-8") as file:
                blocks = split_hands(file.read())
            for block, hand in zip(blocks, parse_pokerstars_blocks(blocks, name)):
                kinds.append(("\n".join(block[1]), evaluate_hand(replay_pokerstars_hand(hand)).all_in_street))
    pool = [text for text, kind in kinds for _ in range(EV_WEIGHTS[kind])]
    permutations = list(itertools.permutations("cdhs"))
    cards = re.compile(r"\[([^\]]*)\]")
    texts, counts = [], {}
    for number in range(hand_count):
        text = pool[number % len(pool)]
        kind = kinds[[k for k, _ in kinds].index(text)][1]
        counts[kind] = counts.get(kind, 0) + 1
        suits = dict(zip("cdhs", permutations[(number // len(pool)) % len(permutations)]))
        relabel = lambda match: "[" + re.sub(r"([2-9TJQKA])([cdhs])", lambda m: m.group(1) + suits[m.group(2)],
                                              match.group(1)) + "]"
        text = cards.sub(relabel, text)
        texts.append(re.sub(r"(Hand|Game) #\d+", f"Hand #{900000000000 + number}", text, count=1))
    return "\n\n\n".join(texts) + "\n", counts


def _cpu_seconds() -> float:
    import resource

    return sum(usage.ru_utime + usage.ru_stime for usage in (resource.getrusage(resource.RUSAGE_SELF),
                                                             resource.getrusage(resource.RUSAGE_CHILDREN)))


def ev_session_seconds(hand_count: int, jobs: int) -> tuple[float, float, object, dict]:
    """Wall seconds and CPU seconds (this process and its workers) of ``analyze_session``
    (read, replay, check, all-in EV) on a generated session file, the session, and the kinds of
    hands in it. On a busy machine the CPU seconds divided by the cores is the better guide."""
    from omaha_equity.ev.session import analyze_session

    text, kinds = ev_session_text(hand_count)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "session.txt")
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        analyze_session([os.path.join(EV_DATA, "5-Card-PLO-6max-USD-3.00-6.00-201303.txt")])  # warm the kernels
        start, cpu_start = time.perf_counter(), _cpu_seconds()
        session = analyze_session([path], workers=jobs)
        return time.perf_counter() - start, _cpu_seconds() - cpu_start, session, kinds


def batch_spots(count: int, board_size: int, seed: int = 1) -> list:
    """``count`` random heads-up Omaha spots with ``board_size`` board cards (batch queries)."""
    import random

    from omaha_equity.batch import Query
    from omaha_equity.cards import format_cards

    rng = random.Random(seed)
    spots = []
    for _ in range(count):
        deck = rng.sample(range(52), 8 + board_size)
        spots.append(Query((format_cards(deck[0:4]), format_cards(deck[4:8])), board=format_cards(deck[8:])))
    return spots


def river_under_load(repeats: int) -> tuple[float, float]:
    """(median, best) seconds of one heads-up river query asked with 2 threads, in-process,
    while another process burns a core (issue 9: idle OpenMP threads that spin made such a
    query cost about 0.19 s on a loaded machine)."""
    hands, board = ["AsAhKsKh", "JdTd9c8c"], "2c3d4h5s7s"
    calculate_equity(hands, board, threads=2)
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.2)
        times = []
        for _ in range(20 * repeats):
            start = time.perf_counter()
            calculate_equity(hands, board, threads=2)
            times.append(time.perf_counter() - start)
    finally:
        burner.kill()
        burner.wait()
    times.sort()
    return times[len(times) // 2], times[0]


def batch_figures(skip_cluster: bool) -> None:
    """Issue 8 targets on 2 cores: 1,000 heads-up flop queries exact and 10,000 river queries,
    each under 2 s. Timed through ``run_batch`` (rows built, nothing written), in this process
    (1 thread), on local worker processes (one per core; 'cold' includes starting them) and on
    a Dask LocalCluster of one worker process per core."""
    from omaha_equity.batch import run_batch
    from omaha_equity.batch.run import warm_up
    from omaha_equity.runtime.executor import DaskExecutor, make_executor

    workloads = (("1,000 flop queries", batch_spots(1000, 3)), ("10,000 river queries", batch_spots(10_000, 5)))

    def timed(queries, **where) -> float:
        start = time.perf_counter()
        for outcome in run_batch(queries, seed=1, **where):
            assert outcome.ok, outcome.error
            outcome.rows()
        return time.perf_counter() - start

    warm_up()
    for label, queries in workloads:
        print(f"batch {label}, in this process (1 thread): {timed(queries, workers=1):.2f} s")
    start = time.perf_counter()
    with make_executor(warm_up=warm_up) as executor:
        started = time.perf_counter() - start
        for label, queries in workloads:
            cold = timed(queries, executor=executor)
            warm = timed(queries, executor=executor)
            print(f"batch {label}, {executor.description}: {warm:.2f} s warm ({cold:.2f} s first run; "
                  f"starting the workers took {started:.2f} s)")
    if skip_cluster:
        return
    try:
        import distributed
    except ImportError:
        print("Dask not installed: no LocalCluster figures (pip install 'omaha-equity[cluster]')")
        return
    from omaha_equity.runtime.executor import local_core_count

    start = time.perf_counter()
    with distributed.LocalCluster(n_workers=local_core_count(), threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        executor = DaskExecutor(client=client, warm_up=warm_up)
        started = time.perf_counter() - start
        for label, queries in workloads:
            cold = timed(queries, executor=executor)
            warm = timed(queries, executor=executor)
            print(f"batch {label}, Dask LocalCluster ({executor.worker_count} worker processes): {warm:.2f} s warm "
                  f"({cold:.2f} s first run; starting the cluster took {started:.2f} s)")


def batch_command_figures(count: int = 10_000) -> None:
    """Many small queries: ``omaha-equity batch`` of ``count`` heads-up river spots, CSV in and
    CSV out, as a whole command (wall and CPU of fresh processes, workers included) with 1
    worker, 2 workers and the count chosen from the measured work (no --workers), and the work
    after start-up in process (``run_batch_command``, CPU seconds). Goal: at most 0.25 s of work;
    2 workers faster than 1, or 1 chosen."""
    from omaha_equity.batch.command import BatchOptions, run_batch_command

    folder = tempfile.mkdtemp(prefix="omaha-equity-batch-")
    try:
        spots = os.path.join(folder, "spots.csv")
        write_river_spots(spots, count)
        output = os.path.join(folder, "out.csv")
        options = BatchOptions(input_file=spots, output=output, workers=1, seed=1, quiet=True)
        run_batch_command(options, report=print)  # load the kernels
        cpu = best_of(lambda: run_batch_command(options, report=print), 3, time.process_time)
        print(f"batch of {count:,} heads-up river spots, the work after start-up (in process, CPU): {cpu:.3f} s "
              "(goal at most 0.25 s)")
        for label, extra in (("1 worker", ["--workers", "1"]), ("2 workers", ["--workers", "2"]),
                             ("workers chosen from the work", [])):
            command = [sys.executable, "-m", "omaha_equity", "batch", spots, "-o", output, "--seed", "1", "-q", *extra]
            wall, cpu = best_process_seconds(command, 3)
            print(f"  the whole command, {label}: {wall:.2f} s wall, {cpu:.2f} s CPU (best of 3 processes)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def write_river_spots(path: str, count: int, seed: int = 1) -> None:
    """A batch CSV of ``count`` random heads-up river spots (one board each: the quickest
    queries that still run a kernel, about half a millisecond each)."""
    import random

    from omaha_equity.cards import format_cards

    cards = [format_cards([card]) for card in range(52)]
    rng = random.Random(seed)
    with open(path, "w") as file:
        file.write("hand1,hand2,board\n")
        for _ in range(count):
            deck = [cards[card] for card in rng.sample(range(52), 13)]
            file.write(f"{''.join(deck[0:4])},{''.join(deck[4:8])},{''.join(deck[8:])}\n")


# Runs the CLI in a fresh process and prints that process's peak resident memory (KiB) last.
_PEAK_MEMORY_CHILD = """
import resource, sys
from omaha_equity.cli import main
try:
    main(sys.argv[1:], prog_name="omaha-equity")
except SystemExit:
    pass
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def range_by_hand_figures(repeats: int) -> tuple[float, float, float]:
    """(seconds in process, command seconds, command peak MB) for every hand of 15% against 15%
    on Qh7d2c5s9c, exact (the ranges parsed once beforehand in process; the command in a fresh
    process, everything included)."""
    from omaha_equity.studies import equity_distribution

    query = ("15%", "15%", "Qh7d2c5s9c")
    equity_distribution(*query)
    seconds = best_of(lambda: equity_distribution(*query), repeats)
    megabytes, command_seconds = peak_memory_megabytes(["distribution", "15%", "15%", "-b", "Qh7d2c5s9c",
                                                        "--by", "hand"])
    return seconds, command_seconds, megabytes


def peak_memory_megabytes(arguments: list[str]) -> tuple[float, float]:
    """(peak resident memory in MB, wall seconds) of ``omaha-equity ARGUMENTS`` in a fresh
    process (Linux: ``ru_maxrss`` of that process alone, not of worker processes), started from
    ``small_studies.LAUNCHER``, a small process, so that the peak is the command's own."""
    done = subprocess.run([sys.executable, "-c", LAUNCHER, sys.executable, "-c", _PEAK_MEMORY_CHILD, *arguments],
                          capture_output=True, text=True, check=True)
    wall, _, kilobytes, _, _ = json.loads(done.stdout)
    return kilobytes / 1024, wall


def batch_memory_figures(row_counts: tuple[int, ...] = (1_000, 1_000_000)) -> None:
    """Peak memory of ``batch`` (issue 15, item 7: within 50 MB of a 1,000-row batch for a
    million rows, fresh and resumed). Every query runs in the measured process (``--workers
    1``: the kernels' memory is the same for any row count, and no worker hides the rest)."""
    folder = tempfile.mkdtemp(prefix="omaha-equity-batch-memory-")
    try:
        figures = {}
        for count in row_counts:
            spots, output = os.path.join(folder, f"spots{count}.csv"), os.path.join(folder, f"out{count}.csv")
            write_river_spots(spots, count)
            common = ["batch", spots, "-o", output, "--workers", "1", "--seed", "1", "-q"]
            fresh, fresh_seconds = peak_memory_megabytes(common)
            resumed, resumed_seconds = peak_memory_megabytes(common + ["--resume"])
            figures[count] = fresh, resumed
            print(f"batch peak memory, {count:,} river queries: {fresh:.0f} MB fresh ({fresh_seconds:.0f} s), "
                  f"{resumed:.0f} MB --resume over the whole output ({resumed_seconds:.0f} s)")
        smallest = min(figures)
        for count in sorted(figures)[1:]:
            print(f"  {count:,} rows vs {smallest:,}: +{figures[count][0] - figures[smallest][0]:.0f} MB fresh, "
                  f"+{figures[count][1] - figures[smallest][1]:.0f} MB resumed (goal: under 50 MB)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=min(2, numba.config.NUMBA_NUM_THREADS))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--skip-cold", action="store_true",
                        help="skip the start-up section's cold-cache CLI run (the limits table always has one)")
    parser.add_argument("--only-startup", action="store_true",
                        help="only start-up: the CLI warm and cold, a small query, 1,000 percent ranges (issue 9)")
    parser.add_argument("--only-ev", action="store_true", help="run only the hand-history EV benchmark")
    parser.add_argument("--only-batch", action="store_true", help="only the batch figures (issue 8)")
    parser.add_argument("--skip-cluster", action="store_true", help="no Dask LocalCluster batch figures")
    parser.add_argument("--only-parse", action="store_true", help="only the long-range parsing figures (issue 9)")
    parser.add_argument("--batch-memory", nargs="*", type=int, metavar="ROWS",
                        help="only the batch peak memory, on 1,000 and 1,000,000 rows or the row counts given "
                             "(issue 15; about ten minutes)")
    parser.add_argument("--only-hits", action="store_true", help="only the hand-category figures (issue 16)")
    parser.add_argument("--only-flops", action="store_true",
                        help="only the every-flop figures: flops '15%%' and flops '15%%' --vs AsKsQdJh (a few minutes)")
    parser.add_argument("--only-c-limit", action="store_true",
                        help="only the kernels beside a C program of the same algorithm (issue 18, benchmarks/c_limit.py)")
    parser.add_argument("--only-limits", "--limits", action="store_true",
                        help="only issue 18's table: each workload beside its C limit or peer, goal and whether it "
                             "is met (benchmarks/limits.py; `make bench` prints it first)")
    parser.add_argument("--readme-table", action="store_true",
                        help="only the headline figures, printed as the Markdown table of docs/speed.md (issue 17)")
    arguments = parser.parse_args()
    if arguments.batch_memory is not None:
        batch_memory_figures(tuple(arguments.batch_memory) or (1_000, 1_000_000))
        return
    numba.set_num_threads(arguments.threads)
    if arguments.readme_table:
        print(readme_table(arguments.repeats, arguments.threads))
        return
    command = " ".join(["python", "benchmarks/bench.py", *sys.argv[1:]])
    if arguments.only_limits:
        print(limits_table(arguments.repeats, arguments.threads, command))
        return
    if not any((arguments.only_startup, arguments.only_ev, arguments.only_parse, arguments.only_hits, arguments.only_flops,
                arguments.only_c_limit, arguments.only_batch)):
        print(limits_table(arguments.repeats, arguments.threads, command))
        print()
    print(f"omaha-equity benchmarks, {arguments.threads} threads, best of {arguments.repeats}")
    if arguments.only_startup:
        startup_figures(arguments.repeats, arguments.skip_cold)
        print(f"fixed cost of a small query (heads-up river, 1 thread): "
              f"{per_query_fixed_cost(arguments.repeats) * 1e3:.3f} ms")
        print(f"1,000 ranges of 5% (omaha) parsed and expanded: {percent_ranges_seconds():.2f} s")
        return
    if arguments.only_ev:
        print_ev_figure(arguments.threads)
        return
    if arguments.only_parse:
        parse_figures()
        return
    if arguments.only_hits:
        hits_figures(arguments.repeats)
        return
    if arguments.only_flops:
        flops_figures()
        return
    c_limit_figures(arguments.repeats)
    if arguments.only_c_limit:
        return
    print(f"fixed cost of a small query (heads-up river, 1 thread): {per_query_fixed_cost(arguments.repeats) * 1e3:.3f} ms")
    if numba.config.NUMBA_NUM_THREADS >= 2:
        median, best = river_under_load(arguments.repeats)
        print(f"river query asked with 2 threads while another process burns a core: {median * 1e3:.2f} ms median, "
              f"{best * 1e3:.2f} ms best")
    if arguments.only_batch:
        batch_command_figures()  # the full run has these in the many-small-queries table (a section)
    batch_figures(arguments.skip_cluster)
    if arguments.only_batch:
        return

    ours = {}
    for label, (game, hands) in (("omaha", HI), ("omaha8", HILO)):
        kernel, whole = exact_figures(game, hands, arguments.repeats)
        ours[f"exact {game}"] = kernel
        print(f"exact heads-up preflop {label:7s} {' vs '.join(hands)}: kernel {kernel:.4f} s, "
              f"calculate_equity {whole:.4f} s (1,086,008 boards)")
    range_rate, fixed_rate = range_exact_rates(arguments.repeats)
    print(f"range exact {' vs '.join(RANGE_EXACT)} (16 combinations): {range_rate / 1e6:.1f} M player-boards/s; "
          f"fixed hands {' vs '.join(HI[1])}: {fixed_rate / 1e6:.1f} M player-boards/s "
          f"(range {fixed_rate / range_rate:.2f}x slower)")
    for label, (game, hands) in (("omaha", HI), ("omaha8", HILO)):
        rate = monte_carlo_rate(game, hands, arguments.repeats)
        ours[f"mc {game}"] = rate
        print(f"Monte Carlo {label:7s} fixed hands: {rate / 1e6:.1f} M player-boards/s ({MC_TRIALS:,} boards)")
    rate = random_opponent_rate(arguments.repeats)
    print(f"Monte Carlo AsKsQhJh vs a random hand, preflop: {rate / 1e6:.1f} M deals/s")
    print(f"1,000 ranges of 5% (omaha) parsed and expanded: {percent_ranges_seconds():.2f} s")
    parse_figures()
    rate, efficiency, three = multiway_range_figures(arguments.repeats)
    print(f"six 15% ranges, Monte Carlo: {rate:,.0f} deals/s ({efficiency:.2f} effective samples per deal); "
          f"1,000 deals of three 15% ranges: {three * 1e3:.1f} ms")

    flop, preflop, allin_rate = allin_figures(arguments.repeats)
    print(f"all-in EV, exact 3-way flop hi/lo with 3 pots (666 boards): {flop:.4f} s; exact heads-up preflop "
          f"(1,086,008 boards): {preflop:.3f} s; Monte Carlo 4-way preflop, 4 pots: {allin_rate / 1e6:.1f} M deals/s")
    study, one_by_one = next_card_seconds(arguments.repeats)
    print(f"next card on a flop (41 turns, exact, one pass): {study:.3f} s; 41 calculate_equity calls: "
          f"{one_by_one:.3f} s")
    seconds, hand_count = distribution_seconds(arguments.repeats)
    print(f"distribution by hand, AsAhJs9h vs 5% on Qd7h2s ({hand_count:,} hands x 820 boards, exact): "
          f"{seconds:.2f} s")
    range_seconds, range_command_seconds, range_megabytes = range_by_hand_figures(arguments.repeats)
    print(f"distribution '15%' '15%' -b Qh7d2c5s9c --by hand (river, exact): {range_seconds:.2f} s in process; "
          f"the command {range_command_seconds:.2f} s, peak {range_megabytes:,.0f} MB (goal: 5 s, 500 MB)")
    startup_figures(arguments.repeats, skip_cold=True)  # the table printed first has the cold run
    hits_figures(arguments.repeats)
    print_sections()

    print_ev_figure(arguments.threads)

    peer = peer_figures(arguments.repeats, arguments.threads)
    if peer is None:
        print("poker-equity not installed: no side-by-side figures (pip install poker-equity==0.1.1)")
        return
    print("poker-equity 0.1.1, same queries (its exact mode runs on one thread):")
    for key in ("exact omaha", "exact omaha8"):
        print(f"  {key}: {peer[key]:.3f} s  -> omaha-equity kernel is {peer[key] / ours[key]:.1f}x faster")
    for key in ("mc omaha", "mc omaha8"):
        print(f"  {key}: {peer[key] / 1e6:.1f} M player-boards/s -> omaha-equity is {ours[key] / peer[key]:.1f}x faster")


def parse_figures() -> None:
    """Long ranges (issue 9): a weighted list of 9,000 written hands and 100 KB chains, parsed and
    expanded (omaha), each once after a warm-up of the kernels; they took minutes before the
    long-union rewrites of ``omaha_equity.ranges.hand_lists``."""
    import random

    from omaha_equity.cards import format_cards
    from omaha_equity.ranges import parse_range

    parse_range("AA@2, KK:$ds")  # compile and load the kernels first
    rng = random.Random(1)
    listed: dict[str, str] = {}
    while len(listed) < 9_000:
        listed.setdefault(format_cards(sorted(rng.sample(range(52), 4), reverse=True)), rng.choice(["0.5", "2", "3"]))
    inputs = {
        "weighted list of 9,000 hands": ",".join(f"{hand}@{weight}" for hand, weight in listed.items()),
        "chain AA:AA:...": ":".join(["AA"] * 33_333),
        "chain *!AsKsQhJh!...": "*" + "!AsKsQhJh!AhKhQdJd" * 5_555,
        "list AAK,KKQ,$ds,xxyy,...": ",".join(["AAK", "KKQ", "$ds", "xxyy"] * 6_250),
    }
    for label, text in inputs.items():
        started = time.perf_counter()
        size = parse_range(text).size
        print(f"parse {label} ({len(text) / 1000:.0f} KB, {size:,} hands): {time.perf_counter() - started:.2f} s")


def flops_figures() -> None:
    """Every flop (targets: ``flops '15%'`` within 60 s and ``flops '15%' --vs AsKsQdJh`` within
    3 minutes on two cores, each within 500 MB): each once, warm, as a whole command in a fresh
    process (wall seconds and peak resident memory); once each, as a run takes minutes."""
    peak_memory_megabytes(["flops", "AA", "-b", "AK*"])  # compile and cache the kernels first
    for arguments in (["flops", "15%"], ["flops", "15%", "--vs", "AsKsQdJh", "--seed", "1"]):
        megabytes, seconds = peak_memory_megabytes(arguments + ["-f", "csv"])
        print(f"flops: {' '.join(arguments)} (1,755 flop classes): {seconds:.1f} s wall, "
              f"peak memory {megabytes:.0f} MB")


def hits_figures(repeats: int) -> None:
    """Hand categories (issue 16; targets: 0.3 s for every 4-card hand on a flop, 0.2 s on a
    turn, 3 s for 5-card hands, 30 s and flat memory for 6-card hands, 1 s for the hits query
    with --vs, and a filtered range no dearer than the same hands written out)."""
    import tracemalloc

    from omaha_equity.cards import format_cards
    from omaha_equity.ranges import parse_range
    from omaha_equity.studies import range_composition
    from omaha_equity.views.hits import composition_report

    range_composition("*", "Qh7d2c")  # load the kernels
    for board in ("Qh7d2c", "Qh7d2c5s"):
        seconds = best_of(lambda: range_composition("*", board), repeats)
        size = range_composition("*", board).combinations
        print(f"hits: composition of every 4-card hand on {board} ({size:,} hands): {seconds:.3f} s")
    for game in ("omaha5", "omaha6"):
        tracemalloc.start()
        started = time.perf_counter()
        size = range_composition("*", "Qh7d2c", game).combinations
        seconds = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"hits: composition of every {game} hand on Qh7d2c ({size:,} hands): {seconds:.2f} s, "
              f"peak traced memory {peak / 2**20:.0f} MiB")
    query = lambda: composition_report(range_composition("15%", "Qh7d2c", vs="AsKsQdJh"))  # noqa: E731
    query()
    print(f"hits: '15%' -b Qh7d2c --vs AsKsQdJh in process (exact over turn and river): {best_of(query, repeats):.2f} s")
    command = [sys.executable, "-m", "omaha_equity", "hits", "15%", "-b", "Qh7d2c", "--vs", "AsKsQdJh"]
    wall, cpu = best_process_seconds(command, repeats)
    print(f"hits: the same as a whole command, warm: {wall:.2f} s wall, {cpu:.2f} s CPU")
    filtered = parse_range("15%:{set+}", board="Qh7d2c")
    listed = ",".join(format_cards(hand, sort=True) for hand in filtered.hands.tolist())
    parse_range(listed)
    filter_seconds = best_of(lambda: calculate_equity(["15%:{set+}", "AsKsQdJh"], "Qh7d2c"), repeats)
    listed_seconds = best_of(lambda: calculate_equity([listed, "AsKsQdJh"], "Qh7d2c"), repeats)
    print(f"hits: calc '15%:{{set+}}' vs AsKsQdJh on Qh7d2c ({filtered.size:,} hands): {filter_seconds:.3f} s; the same "
          f"hands written out ({len(listed) / 1000:.0f} KB): {listed_seconds:.3f} s")
    from omaha_equity.categories.filters import category_hands
    from omaha_equity.ranges.hand_range import _program

    def parse_cold(text: str, board: str = "") -> None:
        category_hands.cache_clear()  # nothing remembered from an earlier parse
        _program.cache_clear()
        parse_range(text, board=board)

    filter_parse = best_of(lambda: parse_cold("15%:{set+}", "Qh7d2c"), repeats)
    listed_parse = best_of(lambda: parse_cold(listed), repeats)
    print(f"hits: parse '15%:{{set+}}' on Qh7d2c, nothing cached: {filter_parse:.3f} s; its hands written out: "
          f"{listed_parse:.3f} s")


def print_ev_figure(jobs: int) -> None:
    seconds, cpu, session, kinds = ev_session_seconds(10_000, jobs)
    print(f"ev: 10,000 PokerStars hands read, replayed and all-in evaluated ({jobs} processes): {seconds:.1f} s "
          f"wall, {cpu:.1f} s CPU "
          f"({kinds.get('preflop', 0)} all in pre-flop, {kinds.get('flop', 0)} on the flop; "
          f"{session.replayed_count:,} replayed, {session.evaluated_count:,} evaluated, {session.failed_count} failed)")


def readme_table(repeats: int, threads: int) -> str:
    """The headline figures as the Markdown table docs/speed.md shows, with the machine and the
    date it was measured on (issue 17: copy this output, never type a figure)."""
    import datetime
    import platform

    rows = []
    for label, (game, hands) in (("Omaha", HI), ("Omaha hi/lo", HILO)):
        kernel, whole = exact_figures(game, hands, repeats)
        rows.append((f"exact heads-up preflop {label}, {' vs '.join(hands)} (1,086,008 boards)",
                     f"{kernel:.3f} s (kernel); {whole:.3f} s (`calculate_equity`)"))
    for label, (game, hands) in (("Omaha", HI), ("Omaha hi/lo", HILO)):
        rate = monte_carlo_rate(game, hands, repeats)
        rows.append((f"Monte Carlo, fixed hands, {label}", f"{rate / 1e6:.1f} M player-boards/s"))
    rows.append(("Monte Carlo, AsKsQhJh vs a random hand, preflop",
                 f"{random_opponent_rate(repeats) / 1e6:.1f} M deals/s"))
    rows.append(("a small query (heads-up river, in process, one thread)",
                 f"{per_query_fixed_cost(repeats) * 1e3:.2f} ms"))
    flop, preflop, allin_rate = allin_figures(repeats)
    rows.append(("`allin`: exact 3-way flop hi/lo, 3 pots (666 boards) / exact heads-up preflop",
                 f"{flop * 1e3:.2f} ms / {preflop:.3f} s"))
    rows.append(("`allin`: Monte Carlo 4-way preflop, 4 pots", f"{allin_rate / 1e6:.1f} M deals/s"))
    seconds, hand_count = distribution_seconds(repeats)
    rows.append((f"`distribution` by hand, AsAhJs9h vs 5% on Qd7h2s ({hand_count:,} hands, exact)", f"{seconds:.2f} s"))
    wall, cpu = best_process_seconds(CLI_QUERY, repeats)
    rows.append(("`omaha-equity calc AsAhKsKh JdTd9c8c`, the whole command, warm caches",
                 f"{wall:.2f} s wall, {cpu:.2f} s CPU"))
    lines = ["| query | time |", "|---|---|", *(f"| {query} | {figure} |" for query, figure in rows)]
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines.append("")
    lines.append(f"Measured {when} with `python benchmarks/bench.py --readme-table` on {os.cpu_count()} cores "
                 f"({platform.machine()}, Python {platform.python_version()}), {threads} kernel threads, "
                 f"best of {repeats}, load average {os.getloadavg()[0]:.1f} at the end.")
    return "\n".join(lines)


if __name__ == "__main__":
    bench_started = time.perf_counter()
    main()
    print(f"bench: {time.perf_counter() - bench_started:.0f} s in all (load average {os.getloadavg()[0]:.1f} at the "
          "end)")
