"""All-in EV and luck of played hands, over sessions of hand-history files (``omaha-equity ev``).

Layers, lowest first (each imports only those below it, and :mod:`omaha_equity.hand_history`):
:mod:`.hand_ev` (one replayed hand's all-in EV, the per-player summary), :mod:`.session`
(every hand of the files: read, replay, check, evaluate, streamed). The tables, CSV and JSON
the ``ev`` command prints are :mod:`omaha_equity.views.ev`'s. docs/hand-histories.md.

Example::

    from omaha_equity.ev import analyze_session
    session = analyze_session(["hands/"])
    for player in session.players:
        print(player.name, player.net_won, player.luck)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .hand_ev import HandEV, PlayerHandEV, PlayerSummary, evaluate_hand, summarize
from .session import SessionEV, SessionTotals, analyze_session, iter_session

if TYPE_CHECKING:
    from ..views.ev import SessionWriter

__all__ = [
    "HandEV", "PlayerHandEV", "PlayerSummary", "SessionEV", "SessionTotals", "SessionWriter", "analyze_session",
    "evaluate_hand", "iter_session", "summarize",
]


def __getattr__(name: str) -> object:
    """``SessionWriter``, the ``ev`` command's writer, now lives with the other renderers in
    :mod:`omaha_equity.views.ev` (a layer above this package, which imports it): offered here
    on first use so that ``from omaha_equity.ev import SessionWriter`` keeps working. Imported
    at the top, it would run the views module half-loaded whenever the views are imported
    first."""
    if name == "SessionWriter":
        from ..views.ev import SessionWriter

        return SessionWriter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
