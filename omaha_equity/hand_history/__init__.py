"""Hand histories: PHH files (read, write, replay through the rules engine), and PokerStars
text files read as PHH (:mod:`.pokerstars`, :mod:`.pokerstars_phh`), replayed and checked
against their file (:mod:`.file_replay`) for conversion (:mod:`.convert`, ``omaha-equity
convert``) and for the all-in EV of a session (:mod:`omaha_equity.ev`, ``omaha-equity ev``);
docs/hand-histories.md, and docs/layout.md for which module does what.

Example::

    from omaha_equity.hand_history import load_all, replay
    for label, hand_history in load_all("hands.phhs"):
        result = replay(hand_history)
        print(result.history)
        print(result.finishing_stacks)
"""

from __future__ import annotations

from .notation import ActionNotation, parse_action
from .export import to_phh
from .phh import (HandHistory, PhhError, dump, dump_all, dumps, dumps_all, load, load_all, load_each, loads,
                  loads_all, loads_each)
from .replay import Replay, ReplayError, build_hand, replay
from .variants import VARIANTS, Variant, get_variant

__all__ = [
    "ActionNotation", "HandHistory", "PhhError", "Replay", "ReplayError", "VARIANTS", "Variant", "build_hand",
    "dump", "dump_all", "dumps", "dumps_all", "get_variant", "load", "load_all", "load_each", "loads",
    "loads_all", "loads_each", "parse_action", "replay", "to_phh",
]
