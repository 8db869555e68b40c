"""The query language's speed figures (docs/pql.md): 600,000 Monte Carlo deals of a three-player
Omaha hi query with river functions; the same with an equity on the flop (one per distinct hands
and flop); an exact riverEquity query against calc's exact enumeration of the same deals.

Run: python benchmarks/pql_bench.py (each figure the best of a few runs, after a warm-up)."""

from __future__ import annotations

import time

from omaha_equity.equity.calculate import calculate_equity
from omaha_equity.pql import run

RIVER = ("select avg(riverEquity(hero)), count(winsHi(villain)), histogram(handType(hero, river)) "
         "from game='omahahi', hero='AA**', villain='15%', villain2='*', trials=600000, seed=1")
FLOP = ("select avg(HvHequity(hero, flop)), count(winsHi(hero)) "
        "from game='omahahi', hero='AsAhKsKh', villain='JdTd9c8c', trials=600000, seed=1")
EXACT = "select avg(riverEquity(hero)) from hero='AsAhKsKh', villain='KK', board='Qd7h2s', exact"


def best_seconds(work, repeats: int = 3) -> float:
    work()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    river = best_seconds(lambda: run(RIVER), 2)
    print(f"pql 600,000 deals, 3 players, river functions: {river:.2f} s (goal 2 s)")
    flop = best_seconds(lambda: run(FLOP), 1)
    print(f"pql 600,000 deals with HvHequity(hero, flop):    {flop:.2f} s (goal 10 s)")
    exact = best_seconds(lambda: run(EXACT))
    calc = best_seconds(lambda: calculate_equity(["AsAhKsKh", "KK"], "Qd7h2s", method="exact"))
    print(f"pql exact riverEquity {exact:.3f} s, calc {calc:.3f} s: {exact / calc:.1f}x (goal 1.5x)")


if __name__ == "__main__":
    main()
