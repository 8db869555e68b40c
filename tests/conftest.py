"""Suite-wide set-up: with worker processes (``pytest -n 2``, as ``make test`` runs), compile the
main kernels once, in two processes side by side, before the workers start, and say so as it runs.

Without it, on a cold cache both workers begin with the same early test files and compile the
same kernels at the same time (numba compiles per process), which doubles the largest cost of a
first run. Each warm-up process compiles a different half; the workers then load the cached
kernels. On a warm cache this costs two short processes (loading, not compiling).

Each warm-up step prints its name when done; the lines appear before the first test's dot, so a
first run does not sit silent for a minute.
"""

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

import pytest

# Each process runs its steps in order and prints "<what was compiled>" after each. Together the two
# touch the kernels that tests in many files use (with those the workers still compiled after the
# warm-up of a fresh-clone run); the steps are split so that both take about as long on a cold
# cache (measured on a busy machine: 'fixed hands' done at 200 s, 'ranges' at 206 s).
WARM_UPS = {
    "fixed hands": (
        "from omaha_equity import calculate_allin, calculate_equity\n"
        "from omaha_equity.ranges import parse_range\n"
        "from omaha_equity.studies import equity_distribution, next_card_equity\n"
        "from omaha_equity.studies.hand_types import hand_types_by_river\n"
        "from omaha_equity.studies.outs import hand_outs",
        ("exact equity", 'calculate_equity(["AsAhKsKh", "JdTd9c8c"], threads=2)'),
        ("Monte Carlo equity",
         'calculate_equity(["AsAhKsKh", "JdTd9c8c", "8s7s6d5d"], seed=1, trials=2_000, threads=2)'),
        ("hi/lo equity", 'calculate_equity(["As2sKdQd", "Ah3h9c9d"], "2c3d4h", game="omaha8", threads=2)'),
        ("exact all-in with side pots",
         'calculate_allin(["KsKd9h9c", "QsQhThTc", "As3sJhJc"], [301, 301, 101], board="2c5d7h", game="omaha8")'),
        ("Monte Carlo all-in", 'calculate_allin(["AsAhKsKh", "JdTd9c8c"], [600, 250], seed=1, trials=2_000)'),
        ("all-in against a random hand",
         'calculate_allin(["AsAhKsKh", "JdTd9c8c", "*"], [600, 600, 250], seed=1, trials=2_000)'),
        ("next-card study", 'next_card_equity(["AsAhKsKh", "JdTd9c8c"], board="Qd7h2s")'),
        ("exact all-in of fixed hands", 'calculate_allin(["AsAhKsKh", "JdTd9c8c"], [600, 250])'),
        ("Monte Carlo equity distribution",
         'equity_distribution("AsAhJs9h", "KK:$ds", board="Qd7h2s", seed=1, trials=200)'),
        ("weighted range", 'parse_range("AA:$ds@50, KK").size'),
        ("river spot", 'calculate_equity(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s5c9h")'),
        ("outs", 'hand_outs("AsKsQdJh", "Ts9s2c")'),
        ("hand types", 'hand_types_by_river(["AA:$ds", "Ah3h9c9d"], "2c7h8d", game="omaha8")'),
    ),
    "ranges": (
        "from omaha_equity import calculate_equity\n"
        "from omaha_equity.pql import run\n"
        "from omaha_equity.ranges import parse_range\n"
        "from omaha_equity.studies import equity_distribution",
        ("range parsing", 'parse_range("AA:$ds").size'),
        ("exact range equity", 'calculate_equity(["AA:$ds", "KK"], "2c3d4h5s", threads=2)'),
        ("Monte Carlo against a random hand", 'calculate_equity(["AsKsQhJh", "*"], seed=1, trials=2_000, threads=2)'),
        ("Monte Carlo range against range",
         'calculate_equity(["15%", "15%", "15%"], seed=1, trials=2_000, threads=2)'),
        ("equity distribution", 'equity_distribution("AsAhJs9h", "KK:$ds", board="Qd7h2s")'),
        ("exact range against range",
         'calculate_equity(["AA:$ds", "KK:$ds"], "2c3d4h5s6h", method="exact", threads=2)'),
        ("hands by category", 'parse_range("{straight-draw}", board="9h8c2d").size'),
        ("range against range by hand", 'equity_distribution("AA:$ds", "KK:$ds", board="Qd7h2s5c9h")'),
        ("query language", "run(\"select avg(HvHequity(hero, flop)), avg(riverEquity(hero)), count(nutHi(hero, river)) "
                           "from hero='AsAhKsKh', villain='JdTd9c8c', board='Qd7h2s'\")"),
    ),
}


def pytest_configure(config):
    """Let Ctrl-C reach the programs the tests start, as it does from a terminal.

    A shell that runs a command in the background without job control (``make test &`` in a
    script) starts it with SIGINT ignored, and every child inherits that: the tests that press
    Ctrl-C in a child program (tests/test_long_runs.py, tests/test_multiway_ranges.py) would then
    wait out their time-outs and fail. A Python handler, unlike "ignored", is not inherited.
    """
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def warm_up_script(imports: str, steps) -> str:
    """The program one warm-up process runs: the imports, then each step followed by its name."""
    lines = [imports, "import time", "start = time.perf_counter()"]
    for name, code in steps:
        lines += [code, f"print({name!r}, round(time.perf_counter() - start), flush=True)"]
    return "\n".join(lines)


def relay(label: str, process: subprocess.Popen, write, lock: threading.Lock) -> None:
    """Pass each finished step of one warm-up process to the terminal as it arrives."""
    for line in process.stdout:
        name, _, seconds = line.rstrip("\n").rpartition(" ")
        with lock:
            write(f"  kernel warm-up ({label}): {name} ready at {seconds} s")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """Before xdist starts its workers (its own hook runs last), compile the kernels they share."""
    config = session.config
    is_worker = hasattr(config, "workerinput")
    uses_workers = bool(getattr(config.option, "numprocesses", None))
    if is_worker or not uses_workers or os.environ.get("OMAHA_EQUITY_SKIP_WARM_UP"):
        return
    terminal = config.pluginmanager.get_plugin("terminalreporter")
    write = terminal.write_line if terminal else (lambda text: print(text, file=sys.stderr, flush=True))
    write(f"kernel warm-up: compiling the numba kernels in {len(WARM_UPS)} processes before the test workers "
          "start (about a minute on a cold cache, a few seconds when cached; "
          "OMAHA_EQUITY_SKIP_WARM_UP=1 skips it)")
    start = time.perf_counter()
    lock = threading.Lock()
    started = []
    for label, (imports, *steps) in WARM_UPS.items():
        errors = tempfile.TemporaryFile("w+")  # a file, not a pipe: a full pipe would stall the process
        process = subprocess.Popen([sys.executable, "-c", warm_up_script(imports, steps)], stdout=subprocess.PIPE,
                                   stderr=errors, text=True)
        thread = threading.Thread(target=relay, args=(label, process, write, lock), daemon=True)
        thread.start()
        started.append((process, thread, errors))
    for process, thread, errors in started:
        process.wait()
        thread.join()
        errors.seek(0)
        message = errors.read()[-2000:]
        errors.close()
        if process.returncode != 0:  # not fatal: the tests compile what they need and report real failures
            with lock:
                write(f"kernel warm-up failed (the tests compile what they need):\n{message}")
    write(f"kernel warm-up: done in {time.perf_counter() - start:.0f} s; starting the test workers")
