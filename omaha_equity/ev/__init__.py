"""All-in EV and luck of played hands, over sessions of hand-history files (``omaha-equity ev``).

Layers, lowest first (each imports only those below it, and :mod:`omaha_equity.hand_history`):
:mod:`.hand_ev` (one replayed hand's all-in EV, the per-player summary), :mod:`.session`
(every hand of the files: read, replay, check, evaluate, streamed), :mod:`.output` (the
tables, CSV and JSON the ``ev`` command prints). docs/hand-histories.md.

Example::

    from omaha_equity.ev import analyze_session
    session = analyze_session(["hands/"])
    for player in session.players:
        print(player.name, player.net_won, player.luck)
"""

from __future__ import annotations

from .hand_ev import HandEV, PlayerHandEV, PlayerSummary, evaluate_hand, summarize
from .output import SessionWriter
from .session import SessionEV, SessionTotals, analyze_session, iter_session

__all__ = [
    "HandEV", "PlayerHandEV", "PlayerSummary", "SessionEV", "SessionTotals", "SessionWriter", "analyze_session",
    "evaluate_hand", "iter_session", "summarize",
]
