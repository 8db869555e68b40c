"""Speed figures for omaha-equity (and the poker-equity package side by side when installed).

Run: ``make bench`` or ``python benchmarks/bench.py [--threads 2] [--skip-cold]``.

Prints, for this machine:
- exact heads-up preflop enumeration (1,086,008 boards), Omaha hi and hi/lo: kernel time and
  the whole ``calculate_equity`` call, warm, best of several runs;
- Monte Carlo throughput in player-boards per second with fixed hands;
- the studies (issue 8): equity after every turn card on a flop (one pass, and 41 separate
  queries for comparison) and the distribution over each hand of a 5% range on a flop;
- the CLI's wall time for ``omaha-equity calc AsAhKsKh JdTd9c8c`` warm, and cold (fresh table
  and numba caches, in temporary folders);
- the same exact and Monte Carlo queries with ``poker_equity`` (PyPI ``poker-equity``) and the
  ratio, when it can be imported.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numba

from omaha_equity.deal import make_deal
from omaha_equity.equity import calculate as calc_module
from omaha_equity.equity.calculate import calculate_equity

HI = ("omaha", ["AsAhKsKh", "JdTd9c8c"])
HILO = ("omaha8", ["As2sKdQd", "Ah3h9c9d"])
MC_TRIALS = 10_000_000


def best_of(function, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def exact_figures(game: str, hands: list[str], repeats: int) -> tuple[float, float]:
    """(kernel seconds, whole-call seconds) for an exact preflop enumeration."""
    prepared = calc_module._prepare(make_deal(hands, "", "", game))
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


def percent_ranges_seconds() -> float:
    """1,000 different 5% ranges of 4-card Omaha parsed and expanded (issue 3)."""
    from omaha_equity.ranges import parse_range

    parse_range("0%-5%")  # load the ranking once
    expressions = [f"{start * 0.095:.3f}%-{start * 0.095 + 5:.3f}%" for start in range(1000)]
    start_time = time.perf_counter()
    sizes = [parse_range(expression).size for expression in expressions]
    assert min(sizes) > 0
    return time.perf_counter() - start_time


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


def cli_seconds(environment: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "omaha_equity", "calc", "AsAhKsKh", "JdTd9c8c"],
                   check=True, capture_output=True, env=environment)
    return time.perf_counter() - start


def cold_cli_seconds() -> float:
    """The CLI with empty table and kernel caches (a temporary cache folder)."""
    folder = tempfile.mkdtemp(prefix="omaha-equity-cold-")
    try:
        environment = dict(os.environ, OMAHA_EQUITY_CACHE=folder)
        return cli_seconds(environment)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=min(2, numba.config.NUMBA_NUM_THREADS))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--skip-cold", action="store_true", help="skip the cold-cache CLI run (about a minute)")
    arguments = parser.parse_args()
    numba.set_num_threads(arguments.threads)
    print(f"omaha-equity benchmarks, {arguments.threads} threads, best of {arguments.repeats}")

    ours = {}
    for label, (game, hands) in (("omaha", HI), ("omaha8", HILO)):
        kernel, whole = exact_figures(game, hands, arguments.repeats)
        ours[f"exact {game}"] = kernel
        print(f"exact heads-up preflop {label:7s} {' vs '.join(hands)}: kernel {kernel:.4f} s, "
              f"calculate_equity {whole:.4f} s (1,086,008 boards)")
    for label, (game, hands) in (("omaha", HI), ("omaha8", HILO)):
        rate = monte_carlo_rate(game, hands, arguments.repeats)
        ours[f"mc {game}"] = rate
        print(f"Monte Carlo {label:7s} fixed hands: {rate / 1e6:.1f} M player-boards/s ({MC_TRIALS:,} boards)")
    rate = random_opponent_rate(arguments.repeats)
    print(f"Monte Carlo AsKsQhJh vs a random hand, preflop: {rate / 1e6:.1f} M deals/s")
    print(f"1,000 ranges of 5% (omaha) parsed and expanded: {percent_ranges_seconds():.2f} s")
    study, one_by_one = next_card_seconds(arguments.repeats)
    print(f"next card on a flop (41 turns, exact, one pass): {study:.3f} s; 41 calculate_equity calls: "
          f"{one_by_one:.3f} s")
    seconds, hand_count = distribution_seconds(arguments.repeats)
    print(f"distribution by hand, AsAhJs9h vs 5% on Qd7h2s ({hand_count:,} hands x 820 boards, exact): "
          f"{seconds:.2f} s")
    warm = min(cli_seconds() for _ in range(arguments.repeats))
    print(f"CLI warm 'omaha-equity calc AsAhKsKh JdTd9c8c': {warm:.2f} s wall")
    if not arguments.skip_cold:
        print(f"CLI cold (empty table and numba caches): {cold_cli_seconds():.1f} s wall")

    peer = peer_figures(arguments.repeats, arguments.threads)
    if peer is None:
        print("poker-equity not installed: no side-by-side figures (pip install poker-equity==0.1.1)")
        return
    print("poker-equity 0.1.1, same queries (its exact mode runs on one thread):")
    for key in ("exact omaha", "exact omaha8"):
        print(f"  {key}: {peer[key]:.3f} s  -> omaha-equity kernel is {peer[key] / ours[key]:.1f}x faster")
    for key in ("mc omaha", "mc omaha8"):
        print(f"  {key}: {peer[key] / 1e6:.1f} M player-boards/s -> omaha-equity is {ours[key] / peer[key]:.1f}x faster")


if __name__ == "__main__":
    main()
