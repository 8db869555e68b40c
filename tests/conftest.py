"""Suite-wide set-up: with worker processes (``pytest -n 2``, as ``make test`` runs), compile the
main kernels once, in two processes side by side, before the workers start.

Without it, on a cold cache both workers begin with the same early test files and compile the
same kernels at the same time (numba compiles per process), which doubles the largest cost of a
first run. Each warm-up process compiles a different half; the workers then load the cached
kernels. On a warm cache this costs two short processes (loading, not compiling).
"""

import os
import subprocess
import sys

# Each string runs in its own process; together they touch the kernels most tests use.
WARM_UPS = (
    # fixed hands: exact and Monte Carlo, hi and hi/lo; all-in with fixed hands
    """
from omaha_equity import calculate_allin, calculate_equity
calculate_equity(["AsAhKsKh", "JdTd9c8c"], threads=2)
calculate_equity(["AsAhKsKh", "JdTd9c8c", "8s7s6d5d"], seed=1, trials=2_000, threads=2)
calculate_equity(["As2sKdQd", "Ah3h9c9d"], "2c3d4h", game="omaha8", threads=2)
calculate_allin(["KsKd9h9c", "QsQhThTc", "As3sJhJc"], [301, 301, 101], board="2c5d7h", game="omaha8")
calculate_allin(["AsAhKsKh", "JdTd9c8c"], [600, 250], seed=1, trials=2_000)
""",
    # ranges: parsing, exact and Monte Carlo equity; studies; all-in with ranges
    """
from omaha_equity import calculate_allin, calculate_equity
from omaha_equity.ranges import parse_range
from omaha_equity.studies import equity_distribution, next_card_equity
parse_range("AA:$ds").size
calculate_equity(["AA:$ds", "KK"], "2c3d4h5s", threads=2)
calculate_equity(["AsKsQhJh", "*"], seed=1, trials=2_000, threads=2)
calculate_equity(["15%", "15%", "15%"], seed=1, trials=2_000, threads=2)
next_card_equity(["AsAhKsKh", "JdTd9c8c"], board="Qd7h2s")
equity_distribution("AsAhJs9h", "KK:$ds", board="Qd7h2s")
calculate_allin(["AsAhKsKh", "JdTd9c8c", "*"], [600, 600, 250], seed=1, trials=2_000)
""",
)


def pytest_configure(config):
    is_worker = hasattr(config, "workerinput")
    uses_workers = bool(getattr(config.option, "numprocesses", None))
    if is_worker or not uses_workers or os.environ.get("OMAHA_EQUITY_SKIP_WARM_UP"):
        return
    processes = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                 for code in WARM_UPS]
    for process in processes:
        _, errors = process.communicate()
        if process.returncode != 0:  # not fatal: the tests compile what they need and report real failures
            print(f"kernel warm-up failed:\n{errors.decode(errors='replace')[-2000:]}", file=sys.stderr)
