"""Plot how a hand's equity spreads over a range and over the next card (needs omaha-equity[plot]).

Usage: python examples/distribution_plot.py [OUTPUT_FOLDER] [RANGE]

Writes ``by_hand.svg`` (the share of the opponent's range per 10% band of our equity) and
``by_next_card.png`` (the chance of each band after the turn card), and prints both histograms.
"""

import sys
from pathlib import Path

from omaha_equity.studies import equity_distribution, plot_distribution
from omaha_equity.views.studies import distribution_report

HAND, BOARD = "AsKsQhJh", "Td9h2c"


def main() -> int:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(".")
    opponent = sys.argv[2] if len(sys.argv) > 2 else "10%"
    folder.mkdir(parents=True, exist_ok=True)
    for by, name in (("hand", "by_hand.svg"), ("next-card", "by_next_card.png")):
        spread = equity_distribution(HAND, opponent, BOARD, by=by)
        print(distribution_report(spread))
        print(f"-> {plot_distribution(spread, folder / name)}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
