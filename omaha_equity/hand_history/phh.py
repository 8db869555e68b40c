"""PHH hand histories: the model of one hand, and reading and writing ``.phh`` / ``.phhs`` files.

PHH (github.com/uoftcprg/phh-std, paper arXiv:2312.11753) is a TOML file of fields: required
ones that build and play the hand (``variant``, ``antes``, ``blinds_or_straddles``,
``small_bet``/``big_bet`` or ``min_bet``, ``starting_stacks``, ``actions``) and optional ones
that describe it (``players``, ``event``, ``finishing_stacks``, ...). Fields beginning with ``_``
are user-defined (the specification's style guide); ours are listed in ``docs/phh.md``.

A ``.phhs`` file holds many hands, one TOML table each (``[1]``, ``[2]``, ...), the bulk layout
pokerkit reads and writes (``HandHistory.load_all``/``dump_all``, referenced by the
specification's ``tooling.rst``).

Positions (specification, ``spec.rst``, "Position"): every per-player array lists the players
in clockwise order from the small blind; the last player has the button. Heads-up, the antes
and blinds arrays are "reverse-assigned": ``blinds_or_straddles = [1, 2]`` means the button (p2)
posts 1 and p1 posts 2.
"""

from __future__ import annotations

import datetime
import sys
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from decimal import Decimal
from pathlib import Path
from typing import Any

import tomli_w

from ..errors import QUOTE_LIMIT, InputError, quoted
from ..validate import is_whole_number
from .notation import Amount, amount_problem, parse_action
from .variants import Variant, get_variant


class PhhError(InputError):
    """A PHH file or hand that breaks the specification. The message names the file, the hand
    (in a ``.phhs`` file) and the field or action: ``hands.phhs, hand [3]: field 'antes': expected
    5 values (one per player), got 4``. A ``ValueError`` through ``InputError``."""


# Field kinds: how a value is checked. "amounts" are int or Decimal chips.
_KINDS: dict[str, str] = {
    "variant": "str", "ante_trimming_status": "bool", "antes": "amounts", "blinds_or_straddles": "amounts",
    "bring_in": "amount", "small_bet": "amount", "big_bet": "amount", "min_bet": "amount",
    "starting_stacks": "amounts", "actions": "strs",
    "author": "str", "event": "str", "url": "str", "venue": "str", "address": "str", "city": "str",
    "region": "str", "postal_code": "str", "country": "str", "time": "time", "time_zone": "str",
    "time_zone_abbreviation": "str", "day": "int", "month": "int", "year": "int", "hand": "str_or_int",
    "level": "int", "seats": "ints", "seat_count": "int", "table": "str_or_int", "players": "strs",
    "finishing_stacks": "amounts", "winnings": "amounts", "currency": "str", "currency_symbol": "str",
    "time_limit": "amount", "time_banks": "amounts",
}
# Arrays with one element per player (specification, "Position").
_PER_PLAYER = ("antes", "blinds_or_straddles", "seats", "players", "finishing_stacks", "winnings", "time_banks")


@dataclass(frozen=True, kw_only=True)
class HandHistory:
    """One hand in PHH: the specification's fields, by their PHH names.

    Build it with keyword arguments (lists may be given for the arrays; they are stored as
    tuples), or read it with :func:`loads` / :func:`load_all`. Amounts are ``int`` chips, or
    ``Decimal`` when a file gives fractions (``0.25``).

    Attributes
    ----------
    variant : str
        ``"PO"`` (pot-limit Omaha) or ``"FO/8"`` (fixed-limit Omaha hi/lo) from the
        specification, or one of our codes (``"PO/8"``, ``"N5O"``, ...; ``docs/phh.md``).
    antes, blinds_or_straddles : tuple of Amount
        Per player, p1 (small blind) first, the button last; heads-up reverse-assigned.
    small_bet, big_bet : Amount or None
        Fixed-limit codes (``F...``) only.
    min_bet : Amount or None
        Pot-limit and no-limit codes only: the minimum bet (the big blind).
    bring_in : Amount or None
        Stud games only: must stay None for Omaha.
    starting_stacks : tuple of Amount
        Per player; ``Decimal("Infinity")`` (TOML ``inf``) for an unknown stack.
    actions : tuple of str
        The action notation (``omaha_equity.hand_history.notation``), in order.
    ante_trimming_status : bool
        The specification's ante uniformity flag (default False).
    author, event, url, venue, address, city, region, postal_code, country, time, time_zone,
    time_zone_abbreviation, day, month, year, hand, level, seats, seat_count, table, players,
    finishing_stacks, winnings, currency, currency_symbol, time_limit, time_banks
        The specification's optional fields (``optional.rst``), None when absent.
    user_defined_fields : Mapping[str, Any]
        Fields whose names begin with ``_`` (ours: ``_die``, ``_dead_blinds``, ``_run_count``,
        ... in ``docs/phh.md``); kept as read and written back.

    Raises
    ------
    PhhError
        A missing required field, a field of the wrong type or length, a field the variant
        does not use, a malformed action (``action 7 'p3 rase 500': ...``).

    Examples
    --------
    >>> hand = HandHistory(variant="PO", antes=[0, 0, 0], blinds_or_straddles=[5, 10, 0], min_bet=10,
    ...                    starting_stacks=[1000, 1000, 1000], actions=["d dh p1 AsKsQsJs", "p3 f"])
    >>> hand.player_count, hand.actions[1]
    (3, 'p3 f')
    """

    variant: str
    ante_trimming_status: bool = False
    antes: tuple[Amount, ...]
    blinds_or_straddles: tuple[Amount, ...]
    bring_in: Amount | None = None
    small_bet: Amount | None = None
    big_bet: Amount | None = None
    min_bet: Amount | None = None
    starting_stacks: tuple[Amount, ...]
    actions: tuple[str, ...] = ()
    author: str | None = None
    event: str | None = None
    url: str | None = None
    venue: str | None = None
    address: str | None = None
    city: str | None = None
    region: str | None = None
    postal_code: str | None = None
    country: str | None = None
    time: datetime.time | None = None
    time_zone: str | None = None
    time_zone_abbreviation: str | None = None
    day: int | None = None
    month: int | None = None
    year: int | None = None
    hand: str | int | None = None
    level: int | None = None
    seats: tuple[int, ...] | None = None
    seat_count: int | None = None
    table: str | int | None = None
    players: tuple[str, ...] | None = None
    finishing_stacks: tuple[Amount, ...] | None = None
    winnings: tuple[Amount, ...] | None = None
    currency: str | None = None
    currency_symbol: str | None = None
    time_limit: Amount | None = None
    time_banks: tuple[Amount, ...] | None = None
    user_defined_fields: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        for name in _KINDS:
            value = getattr(self, name)
            if isinstance(value, list):
                object.__setattr__(self, name, tuple(value))
        object.__setattr__(self, "user_defined_fields",
                           {key: _frozen(value) for key, value in dict(self.user_defined_fields).items()})
        self._check()

    # ------------------------------------------------------------------ checks

    def _check(self) -> None:
        for name, kind in _KINDS.items():
            value = getattr(self, name)
            if value is None:
                if name in ("variant", "antes", "starting_stacks"):
                    raise PhhError(f"missing required field {name!r}")
                continue
            _check_kind(name, kind, value)
        variant = self.variant_info
        if self.blinds_or_straddles is None:
            raise PhhError("missing required field 'blinds_or_straddles' (Omaha is a button game)")
        if self.bring_in is not None:
            raise PhhError("field 'bring_in' is for stud games: Omaha has blinds (blinds_or_straddles)")
        sizes = ("small_bet", "big_bet") if variant.fixed_limit else ("min_bet",)
        unused = ("min_bet",) if variant.fixed_limit else ("small_bet", "big_bet")
        for name in sizes:
            if getattr(self, name) is None:
                raise PhhError(f"missing required field {name!r} for variant {quoted(self.variant)}")
            if getattr(self, name) <= 0:
                raise PhhError(f"field {name!r}: expected a positive amount, got {getattr(self, name)}")
        for name in unused:
            if getattr(self, name) is not None:
                kind = "fixed-limit" if variant.fixed_limit else "pot-limit and no-limit"
                raise PhhError(f"field {name!r} is not used by variant {quoted(self.variant)} ({kind})")
        player_count = len(self.starting_stacks)
        if player_count < 2:
            raise PhhError(f"field 'starting_stacks': expected 2 or more players, got {player_count}")
        for index, stack in enumerate(self.starting_stacks):
            if stack <= 0:
                raise PhhError(f"field 'starting_stacks': stack {index + 1} is {stack}, expected more than 0")
        for name in _PER_PLAYER:
            value = getattr(self, name)
            if value is not None and len(value) != player_count:
                raise PhhError(f"field {name!r}: expected {player_count} values (one per player), got {len(value)}")
        for key in self.user_defined_fields:
            if not isinstance(key, str) or not key.startswith("_"):
                raise PhhError(f"user-defined field {quoted(key)}: names must begin with '_'")
        for index, text in enumerate(self.actions):
            try:
                action = parse_action(text)
            except InputError as error:
                raise PhhError(f"action {index} {quoted(text)}: {str(error).split(': ', 1)[-1]}") from None
            if action.player is not None and action.player > player_count:
                raise PhhError(f"action {index} {quoted(text)}: no player p{action.player} at a table of "
                               f"{player_count}")

    # ------------------------------------------------------------------ views

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    @property
    def variant_info(self) -> Variant:
        """The game and betting structure of ``variant`` (raises PhhError if unknown)."""
        try:
            return get_variant(self.variant)
        except InputError as error:
            raise PhhError(f"field 'variant': {error}") from None

    def custom(self, name: str, default: Any = None) -> Any:
        """A user-defined field (``name`` with its leading ``_``), or ``default``."""
        return self.user_defined_fields.get(name, default)

    def replace(self, **changes: Any) -> HandHistory:
        """A copy with some fields changed (checked again)."""
        values = {item.name: getattr(self, item.name) for item in fields(self)}
        values.update(changes)
        return HandHistory(**values)

    # ------------------------------------------------------------------ dict form

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandHistory:
        """A hand from its PHH fields as TOML gives them (user-defined fields included).

        Raises
        ------
        PhhError
            An unknown field whose name does not begin with ``_``, or any check of the class.
        """
        values: dict[str, Any] = {}
        custom: dict[str, Any] = {}
        for key, value in data.items():
            if key.startswith("_"):
                custom[key] = value
            elif key in _KINDS:
                values[key] = value
            else:
                raise PhhError(f"unknown field {quoted(key)}: not a PHH field (user-defined fields begin with '_')")
        for name in ("variant", "antes", "blinds_or_straddles", "starting_stacks", "actions"):
            if name not in values and name != "actions":
                raise PhhError(f"missing required field {name!r}")
        return cls(**values, user_defined_fields=custom)

    def to_dict(self) -> dict[str, Any]:
        """The PHH fields in the file's order: required first (those of the variant), then the
        optional fields that are set, then the user-defined ones. Arrays as lists."""
        data: dict[str, Any] = {}
        for name in _KINDS:
            value = getattr(self, name)
            if value is None:
                continue
            data[name] = list(value) if isinstance(value, tuple) else value
        data.update(self.user_defined_fields)
        return data


def _frozen(value: Any) -> Any:
    """Arrays of user-defined fields as tuples (the hand is immutable; files read and hands
    built in Python compare equal)."""
    if isinstance(value, list | tuple):
        return tuple(_frozen(item) for item in value)
    if isinstance(value, dict):
        return {key: _frozen(item) for key, item in value.items()}
    return value


def _check_kind(name: str, kind: str, value: Any) -> None:
    def shown(item: Any) -> str:
        # TOML floats are read as Decimal: show them as written (1e400 is Infinity), not as a repr;
        # a long value is shortened (errors.quoted)
        if isinstance(item, Decimal):
            text = str(item)
            return text if len(text) <= QUOTE_LIMIT else quoted(text)
        return quoted(item)

    def bad(expected: str) -> PhhError:
        return PhhError(f"field {name!r}: expected {expected}, got {shown(value)}")

    def is_amount(item: Any) -> bool:
        return (is_whole_number(item) and item >= 0) or (
            isinstance(item, Decimal) and item.is_finite() and item >= 0)

    def check_bounds(item: Any, where: str) -> None:
        problem = amount_problem(item)
        if problem:
            raise PhhError(f"field {name!r}: {where}{shown(item)}: {problem}")

    if kind == "str" and not isinstance(value, str):
        raise bad("a string")
    if kind == "bool" and not isinstance(value, bool):
        raise bad("true or false")
    if kind == "int" and not is_whole_number(value):
        raise bad("an integer")
    if kind == "str_or_int" and not (isinstance(value, str) or is_whole_number(value)):
        raise bad("a string or an integer")
    if kind == "time" and not isinstance(value, datetime.time):
        raise bad("a TOML local time (hh:mm:ss)")
    if kind == "amount":
        if not is_amount(value):
            raise bad("a finite number >= 0")
        check_bounds(value, "")
    if kind in ("amounts", "ints", "strs"):
        if not isinstance(value, tuple):
            raise bad("an array")
        for index, item in enumerate(value):
            if kind == "amounts":
                if not is_amount(item):
                    raise PhhError(f"field {name!r}: value {index + 1} is {shown(item)}, expected a finite "
                                   "number >= 0")
                check_bounds(item, f"value {index + 1} is ")
            if kind == "ints" and not is_whole_number(item):
                raise PhhError(f"field {name!r}: value {index + 1} is {quoted(item)}, expected an integer")
            if kind == "strs" and not isinstance(item, str):
                raise PhhError(f"field {name!r}: value {index + 1} is {quoted(item)}, expected a string")


# ---------------------------------------------------------------------------- reading


def _context(source: str | None, label: str | None) -> str:
    parts = [part for part in (source, f"hand [{label}]" if label is not None else None) if part]
    return ", ".join(parts)


def _with_context(error: InputError, source: str | None, label: str | None) -> PhhError:
    where = _context(source, label)
    return PhhError(f"{where}: {error}" if where else str(error))


def _parse_toml(text: str, source: str | None) -> dict[str, Any]:
    """The TOML tables of a file. A PHH value nests at most an array in a table of a ``.phhs``
    file; arrays or inline tables nested hundreds deep exhaust tomllib's recursion: refused with
    one line, as is an integer too long for Python to read (over 4,300 digits)."""
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        raise PhhError(f"{source or 'PHH text'}: not valid TOML: {error}") from None
    except RecursionError:
        raise PhhError(f"{source or 'PHH text'}: arrays or tables nested too deeply (a PHH file nests an "
                       "array in a table at most)") from None
    except ValueError:  # int() of a number longer than sys.get_int_max_str_digits()
        raise PhhError(f"{source or 'PHH text'}: a number longer than {sys.get_int_max_str_digits():,} digits: "
                       "expected amounts of at most 2**63 - 1 chips") from None


def _hand_from(data: Mapping[str, Any], source: str | None, label: str | None) -> HandHistory:
    try:
        return HandHistory.from_dict(data)
    except InputError as error:
        raise _with_context(error, source, label) from None


def _is_bulk(data: Mapping[str, Any]) -> bool:
    return bool(data) and all(isinstance(value, dict) for value in data.values())


def loads(text: str, *, source: str | None = None) -> HandHistory:
    """One hand from ``.phh`` text.

    Parameters
    ----------
    text : str
        The TOML text.
    source : str, optional
        A file name for error messages.

    Raises
    ------
    PhhError
        Not TOML, a bulk file of several hands, or a hand that breaks the specification.
    """
    data = _parse_toml(text, source)
    if _is_bulk(data):
        if len(data) == 1:
            label, table = next(iter(data.items()))
            return _hand_from(table, source, label)
        raise PhhError(f"{source or 'PHH text'}: {len(data)} hands (a .phhs file): use loads_all")
    return _hand_from(data, source, None)


def loads_all(text: str, *, source: str | None = None) -> list[tuple[str | None, HandHistory]]:
    """Every hand of ``.phhs`` text (tables ``[1]``, ``[2]``, ...), or the one hand of ``.phh``
    text, with its table name (None for a ``.phh`` hand).

    Raises
    ------
    PhhError
        The first hand that breaks the specification, naming its table.
    """
    data = _parse_toml(text, source)
    if _is_bulk(data):
        return [(label, _hand_from(table, source, label)) for label, table in data.items()]
    return [(None, _hand_from(data, source, None))]


def loads_each(text: str, *, source: str | None = None) -> list[tuple[str | None, HandHistory | PhhError]]:
    """Like :func:`loads_all`, but a hand that breaks the specification comes back as its
    :class:`PhhError` and the others still load (a batch goes on past a bad hand).

    Raises
    ------
    PhhError
        Text that is not TOML at all.
    """
    data = _parse_toml(text, source)
    tables = list(data.items()) if _is_bulk(data) else [(None, data)]
    hands: list[tuple[str | None, HandHistory | PhhError]] = []
    for label, table in tables:
        try:
            hands.append((label, _hand_from(table, source, label)))
        except PhhError as error:
            hands.append((label, error))
    return hands


def load_each(path: str | Path) -> list[tuple[str | None, HandHistory | PhhError]]:
    """Every hand of a ``.phh`` or ``.phhs`` file, bad ones as errors (see :func:`loads_each`)."""
    path = Path(path)
    return loads_each(_read_text(path), source=str(path))


def load(path: str | Path) -> HandHistory:
    """One hand from a ``.phh`` file (see :func:`loads`)."""
    path = Path(path)
    return loads(_read_text(path), source=str(path))


def load_all(path: str | Path) -> list[tuple[str | None, HandHistory]]:
    """Every hand of a ``.phhs`` file, or the one hand of a ``.phh`` file (see :func:`loads_all`)."""
    path = Path(path)
    return loads_all(_read_text(path), source=str(path))


# Bounds of a PHH file read whole (TOML is parsed whole): its size, and a line's (a PHH line is
# a field or one action; ``/dev/zero`` or a file with no line end stops at once). Read in blocks,
# so that Ctrl-C is honoured while reading.
MAX_PHH_BYTES = 256 << 20
MAX_PHH_LINE_BYTES = 1 << 20
_READ_BLOCK_BYTES = 1 << 20


def _read_text(path: Path) -> str:
    """The text of a PHH file: UTF-8, with or without a byte-order mark (as Windows editors
    write it), within the bounds above.

    Raises
    ------
    PhhError
        Unreadable, not UTF-8, larger than :data:`MAX_PHH_BYTES` or with a line longer than
        :data:`MAX_PHH_LINE_BYTES`.
    """
    blocks: list[bytes] = []
    size = line_length = lines = 0
    try:
        with path.open("rb") as stream:
            while block := stream.read(_READ_BLOCK_BYTES):
                size += len(block)
                if size > MAX_PHH_BYTES:
                    raise PhhError(f"{path}: larger than {MAX_PHH_BYTES:,} bytes: not a PHH file we read")
                pieces = block.split(b"\n")
                for index, piece in enumerate(pieces):
                    line_length = line_length + len(piece) if index == 0 else len(piece)
                    if line_length > MAX_PHH_LINE_BYTES:
                        raise PhhError(f"{path}: line {lines + index + 1} is longer than {MAX_PHH_LINE_BYTES:,} "
                                       "bytes: not a PHH file")
                lines += len(pieces) - 1
                blocks.append(block)
        return b"".join(blocks).decode("utf-8-sig")
    except OSError as error:
        raise PhhError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise PhhError(f"{path}: not a UTF-8 text file") from None


# ---------------------------------------------------------------------------- writing


def _toml_value(value: Any) -> str:
    """One value as TOML text (tomli_w writes it); arrays of numbers on one line, tables inline
    (so a hand stays one table of a ``.phhs`` file)."""
    if isinstance(value, tuple):
        value = list(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(key)} = {_toml_value(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list) and value and not any(isinstance(item, str | list) for item in value):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    text = tomli_w.dumps({"v": value})
    return text[len("v = "):].rstrip("\n")


def _toml_key(key: str) -> str:
    return tomli_w.dumps({key: 0})[: -len(" = 0\n")]


def dumps(hand: HandHistory) -> str:
    """The hand as ``.phh`` text: one ``key = value`` line per field (the specification's style
    guide: required fields first, spaces around ``=``), one action per line."""
    lines = [f"{_toml_key(key)} = {_toml_value(value)}" for key, value in hand.to_dict().items()]
    return "\n".join(lines) + "\n"


def dumps_all(hands: Iterable[HandHistory]) -> str:
    """Many hands as ``.phhs`` text: tables ``[1]``, ``[2]``, ... (pokerkit's bulk layout)."""
    return "\n".join(f"[{number}]\n{dumps(hand)}" for number, hand in enumerate(hands, start=1))


def dump(hand: HandHistory, path: str | Path) -> None:
    """Write one hand to a ``.phh`` file."""
    Path(path).write_text(dumps(hand), encoding="utf-8")


def dump_all(hands: Sequence[HandHistory], path: str | Path) -> None:
    """Write many hands to a ``.phhs`` file."""
    Path(path).write_text(dumps_all(hands), encoding="utf-8")
