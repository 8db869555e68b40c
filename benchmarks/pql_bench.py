"""The query language's speed figures (docs/pql.md): 600,000 Monte Carlo deals of a three-player
Omaha hi query with river functions; the same with an equity on the flop (one per distinct hands
and flop); an exact riverEquity query against calc's exact enumeration of the same deals (run in
turn, wall and CPU); ``omaha-equity outs`` of one hand in process.

Run: python benchmarks/pql_bench.py (each figure the best of a few runs, after a warm-up)."""

from __future__ import annotations

import time

from omaha_equity.equity.calculate import calculate_equity
from omaha_equity.pql import run
from omaha_equity.studies.outs import hand_outs

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


def interleaved(first, second, rounds: int = 7) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Each work's (best wall, median wall, median CPU) seconds, run in turn ``rounds`` times
    after a warm-up, so that both see the same load."""
    first()
    second()
    figures: list[list[tuple[float, float]]] = [[], []]
    for _ in range(rounds):
        for index, work in enumerate((first, second)):
            wall, cpu = time.perf_counter(), time.process_time()
            work()
            figures[index].append((time.perf_counter() - wall, time.process_time() - cpu))
    result = []
    for runs in figures:
        walls, cpus = sorted(run[0] for run in runs), sorted(run[1] for run in runs)
        result.append((walls[0], walls[len(walls) // 2], cpus[len(cpus) // 2]))
    return result[0], result[1]


def outs_milliseconds(repeats: int = 50) -> tuple[float, float]:
    """``hand_outs`` of one hand on a flop in process: (best, median) milliseconds."""
    hand_outs("AsKsQdJh", "Ts9s2c")
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        hand_outs("AsKsQdJh", "Ts9s2c")
        times.append(time.perf_counter() - start)
    times.sort()
    return times[0] * 1e3, times[len(times) // 2] * 1e3


def main() -> None:
    river = best_seconds(lambda: run(RIVER), 2)
    print(f"pql 600,000 deals, 3 players, river functions: {river:.2f} s (goal 2 s)")
    flop = best_seconds(lambda: run(FLOP), 1)
    print(f"pql 600,000 deals with HvHequity(hero, flop):    {flop:.2f} s (goal 10 s)")
    exact, calc = interleaved(lambda: run(EXACT),
                              lambda: calculate_equity(["AsAhKsKh", "KK"], "Qd7h2s", method="exact"))
    print(f"pql exact riverEquity {exact[0]:.3f} s best, {exact[1]:.3f} s median ({exact[2]:.3f} s CPU); calc "
          f"{calc[0]:.3f} s best, {calc[1]:.3f} s median ({calc[2]:.3f} s CPU): {exact[1] / calc[1]:.2f}x median "
          "(goal 1.5x)")
    best, median = outs_milliseconds()
    print(f"outs of one hand on a flop, in process: {best:.2f} ms best, {median:.2f} ms median (goal 5 ms)")


if __name__ == "__main__":
    main()
