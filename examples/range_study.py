"""A range study: double-suited aces against each hand of a calling range on a flop, to CSV.

Usage: python examples/range_study.py [RANGE] [BOARD] [HAND] > study.csv

Defaults: AsAhJs9h (aces double suited) against the top 15% of hands on Qd7h2s. Every hand of
the range is enumerated exactly on the flop (every turn and river) in one compiled pass; the CSV
has one row per range hand, highest equity first, with its share of the range, and a summary
goes to stderr: the equity against the whole range and how much of the range we beat.
"""

import csv
import sys

from omaha_equity.studies import equity_distribution


def main() -> int:
    opponent = sys.argv[1] if len(sys.argv) > 1 else "15%"
    board = sys.argv[2] if len(sys.argv) > 2 else "Qd7h2s"
    hand = sys.argv[3] if len(sys.argv) > 3 else "AsAhJs9h"
    study = equity_distribution(hand, opponent, board)
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(["opponent_hand", "range_share", "equity", "equity_exact"])
    for item in study.items:
        writer.writerow([item.label, f"{item.weight:.8f}", f"{item.equity:.6f}", item.equity_fraction])
    ahead = sum(item.weight for item in study.items if item.equity > 0.5)
    print(f"{study.hand} against {opponent!r} on {study.board}: {len(study.items):,} hands, equity "
          f"{study.equity:.2%}; ahead (equity above 50%) against {ahead:.1%} of the range", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
