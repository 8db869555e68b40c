"""What does his flop-calling range hold, and how do I fare against each part?

Usage: python examples/flop_calling_range.py [HAND] [BOARD] [RANGE]

Defaults: aces with the nut flush draw, AhAsKsQh, on Jh8h3c, against a 20% pre-flop range that
calls the flop with a pair or better or any draw: '20%:{pair+, fd, straight-draw}' (a category
filter, docs/categories.md). Prints the range's made hands with each part's exact equity against
the hand (every turn and river), then the parts the hand is behind.
"""

import sys

from omaha_equity.studies import range_composition
from omaha_equity.views.hits import composition_report


def main() -> int:
    hand = sys.argv[1] if len(sys.argv) > 1 else "AhAsKsQh"
    board = sys.argv[2] if len(sys.argv) > 2 else "Jh8h3c"
    calling = sys.argv[3] if len(sys.argv) > 3 else "20%:{pair+, fd, straight-draw}"
    composition = range_composition(calling, board, vs=hand)
    print(composition_report(composition, draws=False))  # the CSV and JSON keep the draw rows
    made = [row for row in composition.section("made hand") if row.level == 0]
    mine = sum(row.share * row.vs_equity for row in made)
    print(f"\n{hand} against {calling!r} on {board}: {composition.combinations:,} hands, equity {mine:.2%}")
    behind = [row for row in made if row.vs_equity < 0.5]
    for row in behind:
        print(f"  behind {row.name}: {row.share:.1%} of the range, {row.vs_equity:.1%} against it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
