"""Starting-hand rankings: our own preflop ranking of every hand, for percent ranges.

Modules: :mod:`.ranking` (which ranking a game uses, percent ranges, a hand's percentile and the
boundary rule, in its docstring), :mod:`.store` (the shipped ranking files and their opponent
counts), :mod:`.classes` (hands up to suit isomorphism), :mod:`.sampling` and :mod:`._generate`
(the Monte Carlo that made the files, ``scripts/generate_rankings.py``).

Example::

    >>> from omaha_equity.rankings import percent_range, hand_percentile
    >>> percent_range("omaha", 0, 5, six_handed=False).shape[1]
    4
    >>> hand_percentile("omaha", "AsAhKsKh") < 1
    True
"""

from __future__ import annotations

from . import store
from .ranking import (
    CANONICAL_MAX_HANDS, HandRanking, RankingInfo, canonical_percent_range, hand_percentile, hand_ranking,
    percent_range, ranking_game_name, ranking_info,
)

__all__ = [
    "CANONICAL_MAX_HANDS", "HandRanking", "RankingInfo", "canonical_percent_range", "hand_percentile", "hand_ranking",
    "percent_range", "ranking_game_name", "ranking_info", "store",
]
