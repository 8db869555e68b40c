"""The types of the command-line arguments: each checks its syntax and fails with a usage error
(exit code 2) that quotes the input, before any work starts (sqlite-utils' ``click.ParamType``
subclasses).
"""

from __future__ import annotations

import math

import click

from ..cards import NO_CARDS, parse_cards
from ..errors import InputError, quoted
from ..games import GAME_NAMES, get_game, normalize_game_name
from ..validate import MAX_SEED, MAX_THREADS, MAX_TRIALS


#: Words typed between hands, as in "AsAhKsKh vs JdTd9c8c": not hands (case-insensitive).
SEPARATORS = frozenset({"vs", "vs.", "v", "v.", "versus"})


class CardsType(click.ParamType):
    """Card text such as ``AsKsQhJh``, ``"As Ks Qh Jh"`` or ``As,Ks,Qh,Jh``; with
    ``none_marker``, also ``-`` (no cards, how CSV output writes an empty board or dead list);
    with ``separators``, also the words typed between hands (``vs``)."""

    name = "cards"

    def __init__(self, none_marker: bool = False, separators: bool = False):
        self.none_marker = none_marker
        self.separators = separators  # "vs" between hands: passed on, for cli.hands to drop

    def convert(self, value, param, ctx):
        if self.none_marker and value.strip() == NO_CARDS:
            return ""
        if self.separators and value.strip().lower() in SEPARATORS:
            return value
        try:
            parse_cards(value)
        except InputError as error:
            self.fail(str(error), param, ctx)
        return value


class GameType(click.ParamType):
    """A game name or alias, case-insensitive."""

    name = "game"

    def convert(self, value, param, ctx):
        key = normalize_game_name(value)
        if key not in GAME_NAMES:
            try:
                get_game(value)
            except InputError as error:
                self.fail(str(error), param, ctx)
        return key


class FiniteFloatRange(click.FloatRange):
    """click's FloatRange without nan and infinities (nan passes every bound check)."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{quoted(value)} is not a finite number.", param, ctx)
        return number


# Python's int() reads at most this many digits (sys.get_int_max_str_digits, 4,300 by default).
_MAX_DIGITS = 4_000


def _is_whole_number_text(text: str) -> bool:
    """ASCII digits only (``str.isdigit`` also accepts '²' and '٣', which ``int`` refuses or
    reads), and no more of them than ``int`` reads."""
    return text.isascii() and text.isdigit() and len(text) <= _MAX_DIGITS


# The bounds of the numbers every equity command takes (omaha_equity.validate checks the same
# in the API): out-of-range values are usage errors before any work starts.
TRIALS = click.IntRange(1, MAX_TRIALS)
SEED = click.IntRange(0, MAX_SEED)
THREADS = click.IntRange(1, MAX_THREADS)
PRECISION = FiniteFloatRange(min=0, min_open=True)


DEFAULT_TABLE_STYLE = "simple"


class TableStyleType(click.Choice):
    """tabulate's table formats, looked up in tabulate only when a style other than the default
    is given, or the choices are listed (completion, an unknown style's error): importing
    tabulate costs about 0.02 s, wasted on CSV and JSON output."""

    def __init__(self):
        super().__init__((DEFAULT_TABLE_STYLE,))

    @property
    def choices(self):
        from tabulate import tabulate_formats

        return tuple(tabulate_formats)

    @choices.setter
    def choices(self, value):  # click.Choice.__init__ assigns them: they come from tabulate instead
        pass

    def convert(self, value, param, ctx):
        if value == DEFAULT_TABLE_STYLE:
            return value
        return super().convert(value, param, ctx)

class ChipsListType(click.ParamType):
    """Chip amounts separated by commas, such as ``500,200,1000`` (whole numbers, at least
    ``minimum``); an empty value is an empty tuple when ``allow_empty``."""

    name = "chips"

    def __init__(self, what: str, minimum: int, allow_empty: bool = False):
        self.what = what
        self.minimum = minimum
        self.allow_empty = allow_empty

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        if not str(value).strip():
            if self.allow_empty:
                return ()
            self.fail(f"expected {self.what}s in chips separated by commas, got nothing", param, ctx)
        amounts = []
        for token in str(value).split(","):
            token = token.strip().replace("_", "")
            if not _is_whole_number_text(token.removeprefix("-")) or int(token) < self.minimum:
                self.fail(f"bad {self.what} {quoted(token)} in {quoted(value)}: expected whole numbers of chips, "
                          f"at least {self.minimum}, separated by commas", param, ctx)
            amounts.append(int(token))
        return tuple(amounts)


class FixedLimitType(click.ParamType):
    """Fixed-limit sizes ``SMALL/BIG``, e.g. ``2/4``."""

    name = "small/big"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        from ..rules.chips import MAX_CHIPS

        small, _, big = value.partition("/")
        digit_count = len(str(MAX_CHIPS))
        if not (_is_whole_number_text(small) and _is_whole_number_text(big) and len(small) <= digit_count
                and len(big) <= digit_count and 0 < int(small) <= int(big) <= MAX_CHIPS):
            self.fail(f"bad fixed-limit sizes {quoted(value)}: expected SMALL/BIG such as 2/4 (the big bet at "
                      f"least the small bet, at most {MAX_CHIPS:,})", param, ctx)
        return int(small), int(big)


class RoundType(click.ParamType):
    """A betting round: 1..4 or pre-flop, flop, turn, river."""

    name = "round"

    def convert(self, value, param, ctx):
        from ..rules.streets import Street

        if isinstance(value, Street):
            return value
        text = str(value).strip()
        try:
            return Street.of(int(text) - 1 if _is_whole_number_text(text) else text)
        except InputError:
            self.fail(f"bad round {quoted(value)}: expected 1..4 or pre-flop, flop, turn, river", param, ctx)


class TableChipsType(click.ParamType):
    """Chips on the table for ``pot-limit``: one whole amount, or several separated by commas
    (``list_of``), each ``minimum`` to the engine's ``MAX_CHIPS`` (``rules.chips.parse_chips``)."""

    name = "chips"

    def __init__(self, what: str, minimum: int = 0, list_of: bool = False):
        self.what = what
        self.minimum = minimum
        self.list_of = list_of

    def convert(self, value, param, ctx):
        from ..rules.chips import parse_chips

        if isinstance(value, int | tuple):
            return value
        text = str(value)
        try:
            if not self.list_of:
                return parse_chips(text, self.what, self.minimum)
            tokens = text.split(",") if text.strip() else []
            return tuple(parse_chips(token.strip(), self.what, self.minimum, within=text) for token in tokens)
        except InputError as error:
            self.fail(str(error), param, ctx)
