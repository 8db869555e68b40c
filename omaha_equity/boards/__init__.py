"""Boards as sets: every flop, its suit-isomorphic class and texture, and board ranges
(``AK*``, ``Ks**``, ``*``, ``$mono``), parsed once here for every command (and PQL).

::

    from omaha_equity.boards import parse_board_range, flop_classes
    parse_board_range("Ks**").count        # 1,275 flops holding the king of spades
    parse_board_range("$mono:AK*").count   # 44
    len(flop_classes())                    # 1,755 classes, weights summing to 22,100
"""

from __future__ import annotations

from .flops import FLOP_CLASS_COUNT, FLOP_COUNT, FlopClass, Orbit, all_flops, class_of_flops, flop_classes, \
    orbits, suit_group
from .syntax import BoardRange, looks_like_board_range, parse_board_range
from .texture import TEXTURE_GROUPS, texture_groups

__all__ = [
    "FLOP_CLASS_COUNT", "FLOP_COUNT", "BoardRange", "FlopClass", "Orbit", "TEXTURE_GROUPS", "all_flops",
    "class_of_flops", "flop_classes", "looks_like_board_range", "orbits", "parse_board_range", "suit_group",
    "texture_groups",
]
