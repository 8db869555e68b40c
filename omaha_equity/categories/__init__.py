"""What a hand holds on a board: made hands with the hole cards' role, nut status, draws by
counted outs, and lows (docs/categories.md)."""

from __future__ import annotations

from .categorize import HandCategory, categorize, categorize_hands
from .names import KNOWN_NAMES, LOW_CLASSES, MADE_HANDS

__all__ = ["HandCategory", "KNOWN_NAMES", "LOW_CLASSES", "MADE_HANDS", "categorize", "categorize_hands"]
