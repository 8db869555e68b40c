"""The layout of a row of the equity kernels' counts: one row per player, one column per
statistic. Kept apart from the kernels so that results read counts without loading numba.

Every statistic is counted in boards (weighted deals with ranges), except ``EQUITY`` and
``EQUITY_LOW`` (the part of it won from the low half), counted in pot units
(``pots.pot_units``). ``WIN``, ``TIE`` and ``SPLIT`` are disjoint (``fixed._kernels.score_board``).
"""

EQUITY, WIN, TIE, HI_WIN, HI_TIE, LO_WIN, LO_TIE, QUARTERED, HAS_LOW, EQUITY_LOW, SPLIT = range(11)
STAT_COUNT = 11
