"""Studies built on the equity engine: equity street by street, after each possible next card,
and the distribution of a hand's equity across a range or the next card (with plots).

::

    from omaha_equity.studies import equity_by_street, equity_distribution, next_card_equity
    streets = equity_by_street(["AsAhKsKh", "JdTd9c8c"], board="Qd7h2s5c9d")
    turns = next_card_equity(["AsAhKsKh", "JdTd9c8c"], board="Qd7h2s")
    spread = equity_distribution("AsAhKsKh", "15%", board="Qd7h2s")

Results are frozen dataclasses; ``omaha_equity.studies.views`` renders them as the command
line does, and ``plot_distribution`` draws a distribution (needs ``omaha-equity[plot]``).
"""

from .hits import CategoryRow, Composition, range_composition
from .distribution import DistributionItem, EquityDistribution, HistogramBin, equity_distribution, histogram
from .next_card import NextCardEquity, NextCardResult, next_card_equity
from .plot import plot_distribution
from .streets import StreetEquity, StreetsResult, equity_by_street

__all__ = [
    "CategoryRow", "Composition", "range_composition",
    "DistributionItem", "EquityDistribution", "HistogramBin", "NextCardEquity", "NextCardResult", "StreetEquity",
    "StreetsResult", "equity_by_street", "equity_distribution", "histogram", "next_card_equity",
    "plot_distribution",
]
