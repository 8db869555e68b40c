"""omaha-equity: exact and Monte Carlo equity for every Omaha variant.

The public API::

    from omaha_equity import calculate_equity, read_showdown
    result = calculate_equity(["AsAhKsKh", "JdTd9c8c"])          # exact: 166923/271502
    showdown = read_showdown(["6h6c4h2c", "AsKdQh9c"], "8c6s4s3hAc", game="omaha8")

Importing this package does not import numba; the first call that needs the kernels does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import format_card, format_cards, parse_card, parse_cards
from .errors import InputError
from .games import GAMES, Game, get_game

__version__ = "0.1.0"

if TYPE_CHECKING:
    from .equity.calculate import calculate_equity
    from .equity.result import EquityResult, PlayerEquity
    from .evaluate.showdown import HandReading, MadeHand, Showdown, read_hand, read_showdown
    from .equity.allin import calculate_allin
    from .equity.allin_result import AllinPlayer, AllinResult
    from .studies import equity_by_street, equity_distribution, next_card_equity, plot_distribution

_LAZY = {
    "calculate_equity": "omaha_equity.equity.calculate",
    "EquityResult": "omaha_equity.equity.result",
    "PlayerEquity": "omaha_equity.equity.result",
    "read_hand": "omaha_equity.evaluate.showdown",
    "read_showdown": "omaha_equity.evaluate.showdown",
    "Showdown": "omaha_equity.evaluate.showdown",
    "HandReading": "omaha_equity.evaluate.showdown",
    "MadeHand": "omaha_equity.evaluate.showdown",
    "calculate_allin": "omaha_equity.equity.allin",
    "AllinResult": "omaha_equity.equity.allin_result",
    "AllinPlayer": "omaha_equity.equity.allin_result",
    # studies: streets, next card, distributions
    "equity_by_street": "omaha_equity.studies",
    "next_card_equity": "omaha_equity.studies",
    "equity_distribution": "omaha_equity.studies",
    "plot_distribution": "omaha_equity.studies",
}

__all__ = [
    "AllinPlayer", "AllinResult", "calculate_allin",
    "GAMES", "EquityResult", "Game", "HandReading", "InputError", "MadeHand", "PlayerEquity",
    "Showdown", "calculate_equity", "format_card", "format_cards", "get_game", "parse_card",
    "parse_cards", "read_hand", "read_showdown",
    "equity_by_street", "next_card_equity", "equity_distribution", "plot_distribution",
]


def __getattr__(name: str):
    """Load the numba-backed parts on first use, so ``--help`` and parsing stay fast."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'omaha_equity' has no attribute {name!r}")
