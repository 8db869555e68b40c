"""A scripted study: many hi/lo matchups from a CSV file to a CSV of equities.

Usage: python examples/matchups_to_csv.py [matchups.csv] > equities.csv

The input has columns ``hand1, hand2, board``; without a file a small built-in list is used.
A bad row is reported on stderr with its row number and skipped; the others still run.
"""

import csv
import io
import sys

from omaha_equity import InputError, calculate_equity

BUILT_IN = """hand1,hand2,board
As2sKdQd,Ah3h9c9d,
As2sKdQd,Ah3h9c9d,4c5d8h
AdAc2h3s,KsKhQdJd,9h8h2c
1s2s3c4d,KsKhQdJd,
"""


def main() -> int:
    source = open(sys.argv[1], newline="") if len(sys.argv) > 1 else io.StringIO(BUILT_IN)
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(["row", "hand1", "hand2", "board", "equity1", "equity2", "scoop1", "scoop2", "low_possible"])
    failures = 0
    for row_number, row in enumerate(csv.DictReader(source), start=2):
        try:
            result = calculate_equity([row["hand1"], row["hand2"]], board=row["board"], game="omaha8")
        except InputError as error:
            print(f"row {row_number}: {error}", file=sys.stderr)
            failures += 1
            continue
        first, second = result.players
        writer.writerow([row_number, first.hand, second.hand, result.board, f"{first.equity:.6f}",
                         f"{second.equity:.6f}", f"{first.scoop:.6f}", f"{second.scoop:.6f}",
                         f"{result.low_possible:.6f}"])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
