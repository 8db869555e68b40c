"""The rules engine: one hand of any Omaha game, from the forced bets to the settlement.

Pure Python (not a hot path); it shares the evaluator and the pot-splitting code with the
equity calculator. Rules: ``docs/rules.md`` ("Blinds, antes, dealing", "Betting rounds",
"Betting structures", "All-ins and side pots", "Showdown").

Example::

    from omaha_equity.rules import Hand, PotLimit
    hand = Hand.with_blinds("omaha", PotLimit(10), [1000, 1000, 1000], button=2,
                            small_blind=5, big_blind=10, seed=7)
    hand.legal_actions()          # seat 2 (the button) to act: call 10, raise to 20..35
    hand.bet_or_raise_to(35)
    hand.fold(); hand.check_or_call()
    ...
    print(hand.history())
"""

from __future__ import annotations

from .actions import Action, ActionKind, IllegalActionError, LegalActions
from .forced import ForcedBets
from .hand import Hand
from .settings import HandSettings, Rake, ShowdownOrder, StatedRake
from .settlement import PlayerResult, PotResult, PotRun, Settlement
from .sizing import RaiseLimits, WagerKind, pot_limit_maximum, raise_limits, table_raise_limits
from .streets import Phase, Street
from .structures import BettingStructure, FixedLimit, NoLimit, PotLimit, StructureKind

__all__ = [
    "Action", "ActionKind", "BettingStructure", "FixedLimit", "ForcedBets", "Hand", "HandSettings",
    "IllegalActionError", "LegalActions", "NoLimit", "Phase", "PlayerResult", "PotLimit", "PotResult", "PotRun",
    "RaiseLimits", "Rake", "Settlement", "ShowdownOrder", "StatedRake", "Street", "StructureKind", "WagerKind",
    "pot_limit_maximum", "raise_limits", "table_raise_limits",
]
