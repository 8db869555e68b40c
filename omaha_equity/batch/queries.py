"""One batch query: what it holds, how a row of a CSV or JSON Lines file becomes one, and the
seed a query gets when it has none of its own.

A row's keys (CSV header columns or JSON object keys):

==============  ================================================================================
``id``          the query's name in the output (default: its position in the input, from 1)
``game``        ``omaha`` (default), ``omaha8``, ... or an alias, as in ``calc -g``
``die``         Binglao only: the die roll 1..6
``board``       known board cards, 0..5 (default none), or a board range of flops (``AK*``, docs/ranges.md)
``dead``        dead cards (default none)
``hand1`` ...   one column per player (trailing empty cells ignored), *or*
``hands``       every player in one cell, ``|`` between players (a JSON list also works)
``method``      ``auto`` (default), ``exact``, ``monte-carlo`` (or ``mc``)
``trials``      Monte Carlo boards (as ``calc --trials``)
``precision``   Monte Carlo target standard error in percentage points (as ``calc --precision``)
``seed``        Monte Carlo seed 0..2**64-1 (default: derived, see :func:`derive_seed`)
==============  ================================================================================

Empty cells and JSON ``null`` mean "not given".
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import InputError, quoted
from ..validate import is_whole_number

SCALAR_KEYS = ("id", "game", "die", "board", "dead", "hands", "method", "trials", "precision", "seed")
_HAND_KEY = re.compile(r"hand(\d+)$")
# Between the players of a "hands" cell: "|", or a word as typed between hands ("AsAhKsKh vs JdTd9c8c").
_PLAYER_SEPARATOR = re.compile(r"\||\s+(?:vs\.?|v\.?|versus)\s+", re.IGNORECASE)
_METHOD_ALIASES = {"mc": "monte-carlo", "montecarlo": "monte-carlo", "monte_carlo": "monte-carlo"}


@dataclass(frozen=True)
class Query:
    """One equity query of a batch: the arguments of ``calculate_equity`` plus a name.

    Attributes
    ----------
    hands : tuple of str
        Each player's hand, partial hand, ``*`` or range, as in ``calc``.
    board, dead : str
        Known board cards and dead cards (card text, possibly empty).
    game : str
        Game name or alias.
    die : int or None
        Binglao's die roll.
    method : str
        ``auto``, ``exact`` or ``monte-carlo``.
    trials : int or None
    precision : float or None
        Percentage points.
    seed : int or None
        The query's own Monte Carlo seed; None: derived from the batch seed and the id.
    query_id : str or None
        Name in the output; None: the query's position in the input (from 1).
    """

    hands: tuple[str, ...]
    board: str = ""
    dead: str = ""
    game: str = "omaha"
    die: int | None = None
    method: str = "auto"
    trials: int | None = None
    precision: float | None = None
    seed: int | None = None
    query_id: str | None = None


def derive_seed(batch_seed: int, query_id: str) -> int:
    """The Monte Carlo seed of a query that has none: the first 8 bytes, read as a big-endian
    unsigned integer (0..2**64-1), of the SHA-256 digest of the UTF-8 text
    ``"<batch_seed>:<query_id>"``.

    It depends only on the batch seed and the query's id, so a query gets the same numbers
    whatever the batch size, the worker count or the order the queries run in, and the seed
    can be recomputed anywhere (``hashlib.sha256(b"1:7").digest()[:8]`` for seed 1, id 7).

    >>> derive_seed(1, "7") == int.from_bytes(hashlib.sha256(b"1:7").digest()[:8], "big")
    True
    """
    digest = hashlib.sha256(f"{batch_seed}:{query_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _given(value: Any) -> bool:
    return value is not None and not (isinstance(value, str) and value.strip() == "")


def _whole_number(key: str, value: Any, low: int, high: int | None = None) -> int:
    """A whole number from a cell: ``7``, ``"7"``, ``"1e6"``, ``"1_000_000"`` or ``7.0``."""
    number = None
    if isinstance(value, bool):
        number = None
    elif is_whole_number(value):
        number = int(value)
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str):
        text = value.strip().replace("_", "")
        try:
            number = int(text)
        except ValueError:
            try:
                as_float = float(text)
            except ValueError:
                as_float = None
            if as_float is not None and as_float.is_integer() and abs(as_float) < 2**53:
                number = int(as_float)
    upper = "" if high is None else f"..{high}"
    if number is None or number < low or (high is not None and number > high):
        raise InputError(f"bad {key} {quoted(value)}: expected a whole number {low}{upper or ' or more'}")
    return number


def _positive_number(key: str, value: Any) -> float:
    try:
        number = float(value.strip() if isinstance(value, str) else value)
    except (TypeError, ValueError):
        number = None
    if number is None or isinstance(value, bool) or not 0 < number < float("inf"):
        raise InputError(f"bad {key} {quoted(value)}: expected a positive number of percentage points")
    return number


def _text(key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise InputError(f"bad {key} {quoted(value)}: expected text such as 'Qd7h2s'")
    return value.strip()


@functools.lru_cache(maxsize=256)
def _hand_keys(keys: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """The ``handN`` keys among a row's keys, with their numbers, after :func:`check_keys`
    (kept per set of keys: every row of a CSV file has its header's)."""
    check_keys(keys)
    return tuple((int(match.group(1)), key) for key in keys if (match := _HAND_KEY.match(key)))


def _hands(record: Mapping[str, Any], hand_keys: tuple[tuple[int, str], ...]) -> tuple[str, ...]:
    numbered = {number: record[key] for number, key in hand_keys}
    given = {number: value for number, value in numbered.items() if _given(value)}
    if _given(record.get("hands")):
        if given:
            raise InputError("give the players either in one 'hands' column or in 'hand1', 'hand2', ..., not both")
        value = record["hands"]
        parts = value if isinstance(value, list) else _PLAYER_SEPARATOR.split(_text("hands", value))
        if not all(isinstance(part, str) for part in parts):
            raise InputError(f"bad hands {quoted(value)}: expected text such as 'AsAhKsKh|JdTd9c8c' or a list of hands")
        return tuple(part.strip() for part in parts)
    if not given:
        raise InputError("no hands: expected columns 'hand1', 'hand2', ... or 'hands' ('AsAhKsKh|JdTd9c8c')")
    last = max(given)
    missing = [number for number in range(1, last + 1) if number not in given]
    if missing:
        raise InputError(f"hand{missing[0]} is empty but hand{last} is not: players are numbered without gaps")
    return tuple(_text(f"hand{number}", given[number]) for number in range(1, last + 1))


def check_keys(keys) -> None:
    """Raises InputError naming a key that is neither a query key nor ``handN``."""
    for key in keys:
        if key not in SCALAR_KEYS and not _HAND_KEY.match(key):
            raise InputError(f"unknown column {quoted(key)}: expected {', '.join(SCALAR_KEYS[:-1])}, hand1, hand2, ... "
                             f"(see 'omaha-equity batch --help')")


def record_id(record: Mapping[str, Any] | Query, position: int) -> str:
    """The query's id as text: its ``id`` when given, else its position (from 1).

    Raises
    ------
    InputError
        An id that is not text or a number (a JSON list or object), or holds a line break
        (an output row is one line).
    """
    if isinstance(record, Query):
        value = record.query_id
    elif isinstance(record, Mapping):
        value = record.get("id")
    else:
        return str(position)
    if not _given(value):
        return str(position)
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise InputError(f"bad id {quoted(value)}: expected text or a number")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    if "\n" in text or "\r" in text:
        raise InputError(f"bad id {quoted(text)}: an id cannot hold a line break")
    return text


def query_from_record(record: Mapping[str, Any] | Query) -> Query:
    """The :class:`Query` of an input row (a mapping of the keys above; a Query is returned
    unchanged). Values may be text (CSV) or JSON values.

    Raises
    ------
    InputError
        An unknown key, no hands, both ways of giving hands, or a value of the wrong kind
        (the message names the key and the value). Cards, games and ranges are checked when
        the query runs.
    """
    if isinstance(record, Query):
        return record
    if not isinstance(record, Mapping):
        raise InputError(f"expected a query (an object of keys such as 'hands' and 'board'), got {quoted(record)}")
    fields: dict[str, Any] = {"hands": _hands(record, _hand_keys(tuple(record)))}
    # each key looked up once; a key the row lacks (most of them in most files) costs no call
    get = record.get
    for key in ("board", "dead", "game"):
        value = get(key)
        if value is not None and _given(value):
            fields[key] = _text(key, value)
    value = get("method")
    if value is not None and _given(value):
        method = _text("method", value).lower()
        fields["method"] = _METHOD_ALIASES.get(method, method)
    value = get("die")
    if value is not None and _given(value):
        fields["die"] = _whole_number("die", value, 1, 6)
    value = get("trials")
    if value is not None and _given(value):
        fields["trials"] = _whole_number("trials", value, 1)
    value = get("precision")
    if value is not None and _given(value):
        fields["precision"] = _positive_number("precision", value)
    value = get("seed")
    if value is not None and _given(value):
        fields["seed"] = _whole_number("seed", value, 0, 2**64 - 1)
    value = get("id")
    if value is not None and _given(value):
        fields["query_id"] = record_id(record, 0)
    return Query(**fields)


def written_fields(record: Mapping[str, Any] | Query) -> dict[str, str]:
    """The game, board, dead cards and hands of a row as written (for an error row)."""
    if isinstance(record, Query):
        return {"game": record.game, "board": record.board, "dead": record.dead, "hand": "|".join(record.hands)}
    if not isinstance(record, Mapping):
        return {"game": "", "board": "", "dead": "", "hand": ""}
    cell = _written_cell
    hands = cell(record.get("hands"))
    if not hands:
        keys = _numbered_hand_keys(tuple(record))
        if keys is None:  # two keys of one number (hand1, hand01): ordered by value as well
            numbered = sorted((int(match.group(1)), value) for key, value in record.items()
                              if (match := _HAND_KEY.match(key)) and _given(value))
            hands = "|".join([cell(value) for _, value in numbered])
        else:
            hands = "|".join([cell(value) for key in keys if _given(value := record[key])])
    return {"game": cell(record.get("game")), "board": cell(record.get("board")),
            "dead": cell(record.get("dead")), "hand": hands}


def _written_cell(value: Any) -> str:
    """A cell as written, on one line (an output row is one line)."""
    text = value if isinstance(value, str) else "" if value is None \
        else "|".join(map(str, value)) if isinstance(value, list) else str(value)
    return " ".join(text.splitlines()) if "\n" in text or "\r" in text else text


@functools.lru_cache(maxsize=256)
def _numbered_hand_keys(keys: tuple[str, ...]) -> tuple[str, ...] | None:
    """The ``handN`` keys among a row's keys in the order of their numbers (kept per set of
    keys: every row of a CSV file has its header's), None when two have one number; other keys
    are not checked here."""
    numbered = sorted((int(match.group(1)), key) for key in keys if (match := _HAND_KEY.match(key)))
    if len({number for number, _ in numbered}) < len(numbered):
        return None
    return tuple(key for _, key in numbered)


@dataclass(frozen=True)
class UnreadableRow:
    """An input row that is not even a set of keys (a JSON line that does not parse, a CSV row
    with more cells than the header): it becomes an error row, the batch goes on.

    Attributes
    ----------
    message : str
        What is wrong, e.g. ``not JSON: Expecting value at column 1``.
    text : str
        The row as read, shown in the error row's ``hand`` column (cut to 200 characters).
    """

    message: str
    text: str = ""
