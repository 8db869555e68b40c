"""Reading the queries of a batch input, CSV or JSON Lines, one line at a time in bounded memory.

Every input line is read on its own, at most :data:`MAX_LINE_CHARACTERS` characters of it held
at once, so a damaged line spoils only itself:

- a line longer than that becomes an error row (its rest is read and dropped, in pieces);
- CSV: a quoted cell that is not closed on its line (a stray ``"``) becomes an error row at the
  line where it starts, and the next line is read as a row of its own (a cell cannot hold a
  line break; a batch cell never needs one);
- JSON Lines: a line nested deeper than :data:`MAX_JSON_DEPTH` (an object, and lists of hands in
  it) becomes an error row before it is parsed, so nesting costs no recursion.

Each check is linear in the line's length.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from typing import IO, Any

from ..errors import InputError, quoted
from .queries import UnreadableRow, check_keys

INPUT_FORMATS = ("csv", "jsonl")
# Characters of one input line, its line break included. A query with nine players given as
# long ranges is a few hundred characters; this is a hundred times that, and far below the
# CSV module's cell limit (131,072), which would otherwise stop the whole run.
MAX_LINE_CHARACTERS = 65_536
# Characters read of one line with no line end before the input is given up: a line cut into
# pieces this long is not a damaged query but something else (``/dev/zero``, a binary file).
MAX_UNENDED_CHARACTERS = 1024 * MAX_LINE_CHARACTERS
# Levels of JSON brackets a query line may open: the query object, and a list of hands in it.
MAX_JSON_DEPTH = 2

_LINE_ENDS = ("\n", "\r")
# The characters that matter for JSON nesting: brackets, and quotes and backslashes (strings).
_JSON_STRUCTURE = re.compile(r'[\[\]{}"\\]')


class InputWithoutLineEnds(InputError):
    """A line with no end after :data:`MAX_UNENDED_CHARACTERS`: the input is not read further."""


def bounded_lines(stream: IO[str], limit: int = MAX_LINE_CHARACTERS,
                  give_up: int = MAX_UNENDED_CHARACTERS) -> Iterator[tuple[int, str | None]]:
    """``(line number from 1, line)`` for every line of ``stream``; the line is None when it is
    longer than ``limit`` characters (it is then read to its end in pieces and dropped).

    Raises
    ------
    UnicodeDecodeError
        From the stream: bytes that are not UTF-8.
    InputWithoutLineEnds
        A line goes on for more than ``give_up`` characters (``/dev/zero``).
    """
    number = 0
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        number += 1
        if len(line) > limit and not line.endswith(_LINE_ENDS):
            length = len(line)
            while True:
                rest = stream.readline(limit)
                if not rest or rest.endswith(_LINE_ENDS):
                    break
                length += len(rest)
                if length > give_up:
                    raise InputWithoutLineEnds(f"line {number} has no line end after {give_up:,} characters: not a "
                                               "CSV or JSON Lines file; stopped reading")
            yield number, None
            continue
        yield number, line


def _too_long(number: int) -> UnreadableRow:
    return UnreadableRow(f"line {number} is longer than {MAX_LINE_CHARACTERS:,} characters: not a query")


# Separators a spreadsheet writes instead of commas (Excel in many languages writes ';').
_OTHER_DELIMITERS = {";": "semicolon", "\t": "tab", "|": "vertical bar"}


def _csv_cells(line: str, number: int, delimiter: str = ",") -> list[str] | UnreadableRow:
    """The cells of one CSV line, or what is wrong with it."""
    try:
        rows = list(csv.reader([line], strict=True, delimiter=delimiter))
    except csv.Error as error:
        if "unexpected end of data" in str(error):
            return UnreadableRow(f"line {number}: a quoted cell is not closed on its line (a stray '\"'?); "
                                 "a cell cannot hold a line break", line.strip())
        return UnreadableRow(f"line {number}: not CSV ({error})", line.strip())
    return rows[0] if rows else []


def json_too_deep(line: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the JSON text ``line`` opens more than ``limit`` levels of ``[`` and ``{``
    (brackets inside strings do not count). Linear in the length; the text need not be valid."""
    depth = 0
    in_string = False
    escaped_until = -1  # a backslash in a string hides the character after it
    for match in _JSON_STRUCTURE.finditer(line):
        position = match.start()
        if position <= escaped_until:
            continue
        character = match.group()
        if in_string:
            if character == "\\":
                escaped_until = position + 1
            elif character == '"':
                in_string = False
        elif character == '"':
            in_string = True
        elif character in "[{":
            depth += 1
            if depth > limit:
                return True
        elif character in "]}":
            depth -= 1
    return False


def _json_record(line: str, number: int) -> dict[str, Any] | UnreadableRow:
    if json_too_deep(line):
        return UnreadableRow(f"line {number}: JSON nested more than {MAX_JSON_DEPTH} levels deep: a query is one "
                             "object of text and numbers (hands may be a list)", line.strip())
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        return UnreadableRow(f"line {number}: not JSON: {error.msg} at column {error.colno}", line.strip())
    if not isinstance(record, dict):
        return UnreadableRow(f"line {number}: expected a JSON object such as {{\"hands\": \"AsAhKsKh|JdTd9c8c\"}}",
                             line.strip())
    return {str(key).lower(): value for key, value in record.items()}


def _csv_header(lines: Iterator[tuple[int, str | None]], delimiter: str = ",") -> list[str] | None:
    """The column names of the first non-blank line (None: no line at all).

    Raises
    ------
    InputError
        A header that is too long, not CSV, or has an unknown or repeated column; a header of
        one cell that another separator splits (a semicolon-separated file read with commas)
        says which ``--delimiter`` to give.
    """
    for number, line in lines:
        if line is None:
            raise InputError(f"the CSV header (line {number}) is longer than {MAX_LINE_CHARACTERS:,} characters")
        if not line.strip():
            continue
        cells = _csv_cells(line, number, delimiter)
        if isinstance(cells, UnreadableRow):
            raise InputError(f"the CSV header: {cells.message}")
        if len(cells) == 1:
            for other, name in _OTHER_DELIMITERS.items():
                if other != delimiter and other in line:
                    shown = "'\\t'" if other == "\t" else f"'{other}'"
                    raise InputError(f"the CSV header (line {number}) is one cell with {name}s in it: this looks "
                                     f"like a {name}-separated file: use --delimiter {shown}")
        header = [name.strip().lower() for name in cells]
        check_keys([name for name in header if name])
        repeated = sorted({name for name in header if header.count(name) > 1 and name})
        if repeated:
            raise InputError(f"column {quoted(repeated[0])} appears twice in the CSV header")
        return header
    return None


def _csv_records(header: list[str], lines: Iterator[tuple[int, str | None]],
                 delimiter: str = ",") -> Iterator[dict | UnreadableRow]:
    for number, line in lines:
        if line is None:
            yield _too_long(number)
            continue
        cells = _csv_cells(line, number, delimiter)
        if isinstance(cells, UnreadableRow):
            yield cells
            continue
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) > len(header):
            yield UnreadableRow(f"line {number}: the row has {len(cells)} cells, more than the header's "
                                f"{len(header)}", ",".join(cells))
            continue
        yield {name: cell for name, cell in zip(header, cells) if name}


def _json_records(lines: Iterator[tuple[int, str | None]]) -> Iterator[dict | UnreadableRow]:
    for number, line in lines:
        if line is None:
            yield _too_long(number)
        elif line.strip():
            yield _json_record(line, number)


def open_records(stream: IO[str], input_format: str, delimiter: str = ",") -> Iterator[dict[str, Any] | UnreadableRow]:
    """The rows of a batch input: dicts of the row's keys, or :class:`UnreadableRow`. The CSV
    header is read and checked now; the rows are read lazily, as the work goes.

    CSV needs a header row (keys as in ``omaha_equity.batch.queries``), its cells separated by
    ``delimiter`` (one character: ``,``, or ``;`` as many spreadsheets write); JSON Lines holds
    one JSON object per line. Blank lines are skipped. See the module docstring for the bounds.

    Raises
    ------
    InputError
        An unknown input format, or a CSV header with an unknown or repeated column, or one
        that cannot be read.
    """
    if input_format not in INPUT_FORMATS:
        raise InputError(f"unknown input format {quoted(input_format)}: expected one of {', '.join(INPUT_FORMATS)}")
    if len(delimiter) != 1 or delimiter in "\r\n\"":
        raise InputError(f"bad delimiter {quoted(delimiter)}: expected one character such as ',' or ';'")
    lines = bounded_lines(stream)
    if input_format == "jsonl":
        return _json_records(lines)
    header = _csv_header(lines, delimiter)
    return iter(()) if header is None else _csv_records(header, lines, delimiter)

