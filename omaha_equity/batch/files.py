"""Batch output files: writing result rows as CSV or JSON Lines one query at a time, and
reading an earlier output back for ``--resume`` (which ids it holds, where its last query starts)."""

from __future__ import annotations

import bisect
import csv
import io
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..cards import NO_CARDS
from ..errors import InputError, quoted
from .cells import escape_cell, unescape_cell
from .ids import QueryIds
from .records import MAX_LINE_CHARACTERS
from .run import BATCH_COLUMNS

OUTPUT_FORMATS = ("csv", "jsonl")
_JSONL_SUFFIXES = (".jsonl", ".ndjson", ".json")
# An output row holds at most one input line's text (the hands of an error row) and the numbers.
_MAX_OUTPUT_LINE_BYTES = 8 * MAX_LINE_CHARACTERS
# How every JSON Lines output row starts (the first of BATCH_COLUMNS): a line cut short that
# does not is not ours, and --resume refuses the file rather than cut it.
_JSON_ROW_START = b'{"id": '


def format_for_path(path: str | os.PathLike | None, default: str = "csv") -> str:
    """``jsonl`` for a ``.jsonl``/``.ndjson``/``.json`` file name, ``csv`` for ``.csv``, else
    ``default`` (also for standard input and output, ``-`` or None)."""
    if path is None or str(path) == "-":
        return default
    suffix = Path(path).suffix.lower()
    if suffix in _JSONL_SUFFIXES:
        return "jsonl"
    if suffix == ".csv":
        return "csv"
    return default


def _json_value(value: Any) -> Any:
    return None if isinstance(value, float) and not math.isfinite(value) else value


# No board or dead cards: ``-`` in CSV (an empty cell reads as a missing value), "" in JSON
# Lines (as ``calc -f json`` writes it); error rows too, whatever the input cell held.
_CARD_COLUMNS = ("board", "dead")


def _with_card_cells(row: dict[str, Any], none_text: str) -> dict[str, Any]:
    """``row`` with an empty board or dead list written as ``none_text``."""
    changes = {key: none_text for key in _CARD_COLUMNS if row[key] in ("", None, NO_CARDS) and row[key] != none_text}
    return {**row, **changes} if changes else row


def _csv_row(row: dict[str, Any]) -> dict[str, Any]:
    """A row's CSV cells: text made safe for spreadsheets (:mod:`.cells`), numbers as they are."""
    return {key: escape_cell(value) if isinstance(value, str) else value
            for key, value in _with_card_cells(row, NO_CARDS).items()}


class RowWriter:
    """Writes result rows (keys ``BATCH_COLUMNS``) as CSV (with a header row, written unless
    ``header=False``) or as JSON Lines, flushing after each :meth:`write` so that every finished
    query is on disk even if the run is stopped.

    Raises
    ------
    OSError
        From the stream (a full disk: ``errno.ENOSPC``), in the constructor or :meth:`write`.
    """

    def __init__(self, stream: IO[str], output_format: str, header: bool = True):
        if output_format not in OUTPUT_FORMATS:
            raise InputError(f"unknown output format {quoted(output_format)}: "
                             f"expected one of {', '.join(OUTPUT_FORMATS)}")
        self.stream = stream
        self.output_format = output_format
        self._csv = csv.DictWriter(stream, fieldnames=BATCH_COLUMNS, lineterminator="\n") \
            if output_format == "csv" else None
        self._text_buffer = io.StringIO()
        self._text_csv = csv.DictWriter(self._text_buffer, fieldnames=BATCH_COLUMNS, lineterminator="\n")
        self.results_on_disk: list = []
        if self._csv is not None and header:
            self._csv.writeheader()
            stream.flush()

    def write_results(self, results: list) -> int:
        """Write the rows of several results (``run.BatchResult``) in order in one piece, then
        flush once; a spot's CSV lines come straight from its counts (``BatchResult.csv_text``,
        the same text). Returns the rows written.

        When writing fails (``OSError``), :attr:`results_on_disk` holds the results whose rows
        all reached the file before the fault (by the file's size; none on a pipe)."""
        self.results_on_disk = []
        pieces = []
        ends = []  # bytes of the output after each result's rows
        size = 0
        rows_written = 0
        for result in results:
            text = result.csv_text() if self._csv is not None else None
            if text is None:
                rows = result.rows()
                text = self._rows_text(rows)
                rows_written += len(rows)
            else:
                rows_written += text.count("\n")
            pieces.append(text)
            size += len(text) if text.isascii() else len(text.encode("utf-8"))
            ends.append(size)
        start = self._file_size()
        try:
            self.stream.write("".join(pieces))
            self.stream.flush()
        except OSError:
            reached = self._file_size()
            if start is not None and reached is not None:
                self.results_on_disk = results[:bisect.bisect_right(ends, reached - start)]
            raise
        return rows_written

    def _rows_text(self, rows: list[dict[str, Any]]) -> str:
        """Rows as the text :meth:`write` writes."""
        if self._csv is None:
            return "".join(json.dumps({key: _json_value(value) for key, value in _with_card_cells(row, "").items()})
                           + "\n" for row in rows)
        self._text_csv.writerows(_csv_row(row) for row in rows)
        text = self._text_buffer.getvalue()
        self._text_buffer.seek(0)
        self._text_buffer.truncate()
        return text

    def _file_size(self) -> int | None:
        """Bytes of the output file on disk (None when the stream is not a file)."""
        try:
            return os.fstat(self.stream.fileno()).st_size
        except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
            return None

    def write(self, rows: list[dict[str, Any]]) -> None:
        """Write one query's rows in one piece, then flush."""
        if self._csv is not None:
            self._csv.writerows(_csv_row(row) for row in rows)
        else:
            self.stream.write("".join(
                json.dumps({key: _json_value(value) for key, value in _with_card_cells(row, "").items()}) + "\n"
                for row in rows))
        self.stream.flush()


@dataclass(frozen=True)
class ResumePoint:
    """Where a resumed run goes on in an earlier output.

    Attributes
    ----------
    cut : int
        Bytes of the file to keep: everything before its last query (whose rows may have
        been cut short when the run was stopped: it runs again) and before any cut line.
    query_count : int
        Queries kept (counted in the :class:`QueryIds` given to :func:`scan_output`).
    """

    cut: int
    query_count: int


def _not_a_batch_output(path: str, what: str) -> InputError:
    return InputError(f"cannot resume into {path!r}: {what} (it is left as it is)")


def _row_key(line: bytes, number: int, output_format: str, name: str) -> tuple[str, bool]:
    """(id, whether the row starts a query) of one complete output line."""
    try:
        text = line.decode("utf-8")
        if output_format == "csv":
            cells = next(csv.reader([text], strict=True))
            if len(cells) != len(BATCH_COLUMNS):
                raise ValueError
            return unescape_cell(cells[0]), cells[1] in ("", "0", "1")
        row = json.loads(text)
        return str(row["id"]), row["player"] in (None, 0, 1)
    except (UnicodeDecodeError, ValueError, csv.Error, StopIteration, KeyError, TypeError, RecursionError):
        raise _not_a_batch_output(name, f"line {number} is not a batch {output_format.upper()} row") from None


def scan_output(path: str | os.PathLike, output_format: str, ids: QueryIds, name: str | None = None) -> ResumePoint:
    """Read an earlier output of ``batch`` for ``--resume``, one line at a time, without
    changing it: count each query it holds in ``ids`` (but the last one) and say where to cut.

    A query starts at a row of player 1 or an error row (player 0). The last query in the file
    is left out and cut off, with any line cut short after it: its rows may be incomplete
    (the run stopped while writing them) and running it again gives the same rows.

    ``name`` is the file's name in messages (default: ``path``).

    Raises
    ------
    InputError
        The file cannot be read, or is not a batch output in this format (another CSV header,
        a line that is not a batch row).
    """
    path = str(path)
    name = name or path
    header = (",".join(BATCH_COLUMNS) + "\n").encode()
    try:
        file = open(path, "rb")
    except OSError as error:
        raise InputError(f"cannot read {name!r} to resume: {error.strerror}") from None
    with file:
        offset = 0
        if output_format == "csv":
            first = file.readline(len(header) + 1)
            if not first.endswith(b"\n"):  # empty, or a header cut short: start again
                if not header.startswith(first):
                    raise _not_a_batch_output(name, "its header is not that of a batch CSV output "
                                              f"({','.join(BATCH_COLUMNS[:4])},...)")
                return ResumePoint(0, 0)
            if first != header:
                raise _not_a_batch_output(name, "its header is not that of a batch CSV output "
                                          f"({','.join(BATCH_COLUMNS[:4])},...)")
            offset = len(first)
        cut, count, last_id, number = offset, 0, None, int(output_format == "csv")
        while True:
            line = file.readline(_MAX_OUTPUT_LINE_BYTES + 1)
            if not line.endswith(b"\n"):  # the end, or a line cut short
                foreign = output_format == "jsonl" and not _JSON_ROW_START.startswith(line[:len(_JSON_ROW_START)])
                if len(line) > _MAX_OUTPUT_LINE_BYTES or foreign:
                    raise _not_a_batch_output(name, f"line {number + 1} is not a batch {output_format.upper()} row")
                break
            number += 1
            query_id, starts = _row_key(line, number, output_format, name)
            if starts:
                if last_id is not None:
                    ids.add_written(last_id)
                    count += 1
                last_id, cut = query_id, offset
            elif last_id is None:
                raise _not_a_batch_output(name, f"line {number} continues a query that is not there")
            offset += len(line)
    return ResumePoint(cut, count)
