"""The players' hands as typed on the command line: the separators people type between them
(``AsAhKsKh vs JdTd9c8c``) dropped, and a warning for a hand argument that is a wide range with
no card rank in it (``vs`` read as a range: any hand with a spade), most likely a typing slip.
"""

from __future__ import annotations

import math

import click

from ..errors import InputError, quoted
from .errors import say
from .params import SEPARATORS
# A hand argument with any of these holds a card or a percent the user meant; without one, a
# range that covers most hands was likely not meant as one.
_RANK_CHARACTERS = frozenset("0123456789TJQKAtjqka")
#: Share of all hands above which a range with no rank in it is warned of.
WIDE_RANGE_SHARE = 0.5


def without_separators(ctx, param, hands: tuple[str, ...]) -> tuple[str, ...]:
    """A click callback for ``HAND...`` arguments: the hands, without the separator words.

    Raises
    ------
    click.BadParameter
        Nothing but separators.
    """
    kept = tuple(hand for hand in hands if hand.strip().lower() not in SEPARATORS)
    if hands and not kept:
        raise click.BadParameter(f"no hand in {quoted(' '.join(hands))}", ctx=ctx, param=param)
    return kept


def warn_of_wide_ranges(hands: tuple[str, ...], game: str, die: int | None) -> None:
    """One line on stderr for each hand argument that is a range of more than half of all hands
    with no digit or rank letter in it (``*``, a random hand typed on purpose, excepted)."""
    for index, hand in enumerate(hands, start=1):
        text = hand.strip()
        if text == "*" or any(character in _RANK_CHARACTERS for character in text):
            continue
        from ..games import get_game
        from ..ranges.hand_range import parse_range

        try:
            resolved = get_game(game, die)
            covered = parse_range(text, resolved).size
        except InputError:  # the command says what is wrong with it
            continue
        share = covered / math.comb(52, resolved.hole_count)
        if share > WIDE_RANGE_SHARE:
            say(f"warning: player {index}'s {quoted(text)} is a range of {share:.1%} of all hands, with no card "
                "rank in it: give cards such as AsAhKsKh, or * for any hand (--quiet hides this)")
