"""The category names: ladders from best to worst, groups, and filter terms (docs/categories.md).

A hand's categories are a row of small integers, one per *field* (:data:`FIELDS`); every
category name is a predicate on one or two fields: an inclusive interval of values. The made
hands, flush draws, straight draws, nut status and lows are *ladders*: ``X+`` means ``X`` or
better on its ladder (``two-pair+``: two pair, a set, trips, ... the straight flush).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from ..errors import InputError, quoted

# Fields of a categorized hand (columns of the kernel's int16 output).
MADE, BEATEN, STRAIGHT_OUTS, CLEAN_STRAIGHT_OUTS, FLUSH_OUTS, FLUSH_CLASS, BOAT_OUTS, BACKDOOR_FLUSH, \
    BACKDOOR_STRAIGHT, LOW, LOW_OUTS, LOW_BEATEN, COUNTERFEIT = range(13)
FIELD_COUNT = 13
FIELDS = ("made", "beaten", "straight_outs", "clean_straight_outs", "flush_outs", "flush_class", "boat_outs",
          "backdoor_flush", "backdoor_straight", "low", "low_outs", "low_beaten", "counterfeit")
# Counts above this are stored as this (beaten by more distinct hands than an int16 holds).
MAX_FIELD = 32_000

#: Made high hands with the hole cards' role, best first (field ``made``).
MADE_HANDS = (
    "straight-flush", "quads", "full-house", "flush", "straight", "set", "trips",
    "top-two", "top-and-bottom", "bottom-two", "board-pair-plus-pair",
    "overpair", "top-pair-top-kicker", "top-pair-weak-kicker", "second-pair", "underpair", "low-pair",
    "nothing",
)
(STRAIGHT_FLUSH_HAND, QUADS, FULL_HOUSE_HAND, FLUSH_HAND, STRAIGHT_HAND, SET, TRIPS, TOP_TWO, TOP_AND_BOTTOM,
 BOTTOM_TWO, BOARD_PAIR_PLUS_PAIR, OVERPAIR, TOP_PAIR_TOP_KICKER, TOP_PAIR_WEAK_KICKER, SECOND_PAIR, UNDERPAIR,
 LOW_PAIR, NOTHING) = range(len(MADE_HANDS))
MADE_GROUPS = {"two-pair": (TOP_TWO, BOARD_PAIR_PLUS_PAIR), "top-pair": (TOP_PAIR_TOP_KICKER, TOP_PAIR_WEAK_KICKER),
               "pair": (OVERPAIR, LOW_PAIR)}

#: Low ladder, best first (field ``low``; -1 in high-only games).
LOW_CLASSES = ("nut-low", "second-nut-low", "weak-low", "nut-low-draw", "weak-low-draw", "backdoor-low", "no-low")
NUT_LOW, SECOND_NUT_LOW, WEAK_LOW, NUT_LOW_DRAW, WEAK_LOW_DRAW, BACKDOOR_LOW, NO_LOW = range(len(LOW_CLASSES))
LOW_GROUPS = {"made-low": (NUT_LOW, WEAK_LOW), "low-draw": (NUT_LOW_DRAW, WEAK_LOW_DRAW)}

#: Straight draws by counted outs: gutshot 1-4, open-ended 5-8, a wrap 9 or more (``wrap13``:
#: exactly 13 outs; ``wrap13+``: at least 13).
GUTSHOT_OUTS, OESD_OUTS, WRAP_OUTS = (1, 4), (5, 8), (9, MAX_FIELD)
#: Fields counted from the next cards rather than categorized (``filters.outs_fields``, after
#: the categorized ones): next cards that give the nut high (``nut-outsN``), then next cards that
#: give each hand type or better (``outs-flushN``), pair .. straight flush.
NUT_OUTS = FIELD_COUNT
OUTS_TYPES = ("pair", "two-pair", "trips", "straight", "flush", "full-house", "quads", "straight-flush")
OUTS_TO_TYPE = {name: NUT_OUTS + 2 + index for index, name in enumerate(OUTS_TYPES)}  # by hand type 1..8
OUTS_FIELD_COUNT = 10
#: Terms that end in a count of outs: prefix -> (field, smallest count, what the count is).
#: ``wrap13`` exactly 13 straight outs, ``clean-sd8+`` at least 8 clean straight outs.
COUNTED_TERMS = {
    "wrap": (STRAIGHT_OUTS, WRAP_OUTS[0], "wrap", "fewer is 'oesd' or 'gutshot'"),
    "clean-sd": (CLEAN_STRAIGHT_OUTS, 1, "clean straight draw", "hands with none: '!{clean-sd1+}'"),
}
#: The same for the counts of next cards (:data:`NUT_OUTS`): ``nut-outs8+`` at least 8 next cards
#: giving the nut high, ``outs-flush9+`` at least 9 next cards giving a flush or better.
OUTS_TERMS = {
    "nut-outs": (NUT_OUTS, 0, "count of nut outs", ""),
    **{f"outs-{name}": (field, 0, f"count of outs to {name.replace('-', ' ')} or better", "")
       for name, field in OUTS_TO_TYPE.items()},
}


@dataclass(frozen=True)
class Term:
    """One filter term: ``name`` (as written, lower case) holds when every ``(field, low, high)``
    holds (``low <= value <= high``)."""

    name: str
    conditions: tuple[tuple[int, int, int], ...]


def _ladder_terms() -> dict[str, tuple[int, int, int, bool]]:
    """name -> (field, low, high, better_is_lower)."""
    terms: dict[str, tuple[int, int, int, bool]] = {}
    for index, name in enumerate(MADE_HANDS):
        terms[name] = (MADE, index, index, True)
    for name, (first, last) in MADE_GROUPS.items():
        terms[name] = (MADE, first, last, True)
    terms["nuts"] = (BEATEN, 0, 0, True)
    terms["second-nuts"] = (BEATEN, 1, 1, True)
    terms["nfd"] = (FLUSH_CLASS, 0, 0, True)
    terms["second-nfd"] = (FLUSH_CLASS, 1, 1, True)
    terms["weak-fd"] = (FLUSH_CLASS, 2, MAX_FIELD, True)
    terms["fd"] = (FLUSH_CLASS, 0, MAX_FIELD, True)
    terms["gutshot"] = (STRAIGHT_OUTS, *GUTSHOT_OUTS, False)
    terms["oesd"] = (STRAIGHT_OUTS, *OESD_OUTS, False)
    terms["wrap"] = (STRAIGHT_OUTS, *WRAP_OUTS, False)
    terms["straight-draw"] = (STRAIGHT_OUTS, 1, MAX_FIELD, False)
    for index, name in enumerate(LOW_CLASSES):
        terms[name] = (LOW, index, index, True)
    for name, (first, last) in LOW_GROUPS.items():
        terms[name] = (LOW, first, last, True)
    return terms


LADDER_TERMS = _ladder_terms()
#: Terms that are not on a ladder (no ``+``).
PLAIN_TERMS = {
    "no-flush-draw": ((FLUSH_CLASS, -1, -1),),
    "no-straight-draw": ((STRAIGHT_OUTS, 0, 0),),
    "no-draw": ((FLUSH_CLASS, -1, -1), (STRAIGHT_OUTS, 0, 0)),
    "boat-draw": ((BOAT_OUTS, 1, MAX_FIELD),),
    "backdoor-fd": ((BACKDOOR_FLUSH, 1, 1),),
    "backdoor-sd": ((BACKDOOR_STRAIGHT, 1, 1),),
    "counterfeit-risk": ((COUNTERFEIT, 1, 1),),
}
LOW_FIELDS = (LOW, LOW_OUTS, LOW_BEATEN, COUNTERFEIT)
#: Every name a filter knows (``wrapN`` stands for wrap9, wrap10, ..., ``clean-sdN`` for
#: clean-sd1, clean-sd2, ...).
KNOWN_NAMES = (*LADDER_TERMS, *(f"{prefix}N" for prefix in (*COUNTED_TERMS, *OUTS_TERMS)), *PLAIN_TERMS)


def known_names_text() -> str:
    return ", ".join(KNOWN_NAMES)


def parse_term(text: str) -> Term:
    """One filter term such as ``set``, ``two-pair+``, ``wrap13+``, ``clean-sd8+``, ``nfd``.

    Raises
    ------
    InputError
        ``unknown category 'sett': expected one of straight-flush, quads, ...``.
    """
    name = text.strip().lower()
    base, plus = (name[:-1], True) if name.endswith("+") else (name, False)
    for prefix, (field, fewest, what, hint) in {**COUNTED_TERMS, **OUTS_TERMS}.items():
        count = base[len(prefix):]
        if base.startswith(prefix) and count.isdigit() and count.isascii():
            outs = int(count)
            if outs < fewest:
                raise InputError(f"bad {what} {quoted(text)}: expected {prefix}{fewest} or more outs ({hint})")
            return Term(name, ((field, outs, MAX_FIELD if plus else outs),))
    if base in PLAIN_TERMS and not plus:
        return Term(name, PLAIN_TERMS[base])
    if base not in LADDER_TERMS:
        hint = f" ('{base}' takes no '+')" if base in PLAIN_TERMS else ""
        # the closest names last: a message too long to keep whole keeps its start and its end
        closest = difflib.get_close_matches(base, KNOWN_NAMES, n=3)
        closest_text = f" (closest: {', '.join(closest)})" if closest and not hint else ""
        raise InputError(f"unknown category {quoted(text.strip())}{hint}: expected one of {known_names_text()}"
                         f"{closest_text}")
    field, low, high, better_is_lower = LADDER_TERMS[base]
    if plus:  # this or better: down to 0 (the best) or up to any count
        low, high = (0, high) if better_is_lower else (low, MAX_FIELD)
    return Term(name, ((field, low, high),))
