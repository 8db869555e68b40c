"""Batch files: reading queries from CSV or JSON Lines, writing result rows as CSV or JSON
Lines one query at a time, and finding the ids an earlier run already wrote (``--resume``)."""

from __future__ import annotations

import csv
import json
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from ..cards import NO_CARDS
from ..errors import InputError, quoted
from .queries import UnreadableRow, check_keys
from .run import BATCH_COLUMNS

INPUT_FORMATS = ("csv", "jsonl")
OUTPUT_FORMATS = ("csv", "jsonl")
_JSONL_SUFFIXES = (".jsonl", ".ndjson", ".json")


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


def read_records(stream: IO[str], input_format: str) -> Iterator[dict[str, Any] | UnreadableRow]:
    """The rows of a batch input, lazily: dicts of the row's keys, or :class:`UnreadableRow`.

    CSV needs a header row (keys as in ``omaha_equity.batch.queries``); blank lines are skipped.
    JSON Lines holds one JSON object per line; blank lines are skipped.

    Raises
    ------
    InputError
        A CSV header with an unknown or repeated column (before any row is read).
    """
    if input_format == "csv":
        reader = csv.reader(stream)
        header = next(reader, None)
        if header is None:
            return
        header = [name.strip().lower() for name in header]
        check_keys([name for name in header if name])
        repeated = sorted({name for name in header if header.count(name) > 1 and name})
        if repeated:
            raise InputError(f"column {quoted(repeated[0])} appears twice in the CSV header")
        for cells in reader:
            if not any(cell.strip() for cell in cells):
                continue
            if len(cells) > len(header):
                yield UnreadableRow(f"the row has {len(cells)} cells, more than the header's {len(header)}",
                                    ",".join(cells))
                continue
            yield {name: cell for name, cell in zip(header, cells) if name}
    elif input_format == "jsonl":
        for line in stream:
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                yield UnreadableRow(f"not JSON: {error.msg} at column {error.colno}", line.strip())
                continue
            if not isinstance(record, dict):
                yield UnreadableRow("expected a JSON object such as {\"hands\": \"AsAhKsKh|JdTd9c8c\"}", line.strip())
                continue
            yield {str(key).lower(): value for key, value in record.items()}
    else:
        raise InputError(f"unknown input format {quoted(input_format)}: expected one of {', '.join(INPUT_FORMATS)}")


def _json_value(value: Any) -> Any:
    return None if isinstance(value, float) and not math.isfinite(value) else value


# No board or dead cards: ``-`` in CSV (an empty cell reads as a missing value), "" in JSON
# Lines (as ``calc -f json`` writes it); error rows too, whatever the input cell held.
_CARD_COLUMNS = ("board", "dead")


def _with_card_cells(row: dict[str, Any], none_text: str) -> dict[str, Any]:
    """``row`` with an empty board or dead list written as ``none_text``."""
    changes = {key: none_text for key in _CARD_COLUMNS if row[key] in ("", None, NO_CARDS) and row[key] != none_text}
    return {**row, **changes} if changes else row


class RowWriter:
    """Writes result rows (keys ``BATCH_COLUMNS``) as CSV (with a header row, written unless
    ``header=False``) or as JSON Lines, flushing after each :meth:`write` so that every finished
    query is on disk even if the run is stopped."""

    def __init__(self, stream: IO[str], output_format: str, header: bool = True):
        if output_format not in OUTPUT_FORMATS:
            raise InputError(f"unknown output format {quoted(output_format)}: expected one of {', '.join(OUTPUT_FORMATS)}")
        self.stream = stream
        self.output_format = output_format
        self._csv = csv.DictWriter(stream, fieldnames=BATCH_COLUMNS, lineterminator="\n") \
            if output_format == "csv" else None
        if self._csv is not None and header:
            self._csv.writeheader()
            stream.flush()

    def write(self, rows: list[dict[str, Any]]) -> None:
        """Write one query's rows in one piece, then flush."""
        if self._csv is not None:
            self._csv.writerows(_with_card_cells(row, NO_CARDS) for row in rows)
        else:
            self.stream.write("".join(
                json.dumps({key: _json_value(value) for key, value in _with_card_cells(row, "").items()}) + "\n"
                for row in rows))
        self.stream.flush()


def finished_ids(path: str | os.PathLike, output_format: str) -> set[str]:
    """The ids an earlier run wrote to ``path`` (an output of ``batch``), for ``--resume``.

    A last line cut short (the run was killed while writing) is removed from the file, so the
    resumed run appends whole rows only. A missing or empty file has none.

    Raises
    ------
    InputError
        The file is not a batch output in this format (another CSV header, a line that is not
        a JSON object with an ``id``).
    """
    path = Path(path)
    if not path.exists() or path.stat().st_size == 0:
        return set()
    data = path.read_bytes()
    if not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        with open(path, "r+b") as file:
            file.truncate(cut)
        data = data[:cut]
    lines = data.decode("utf-8").splitlines()
    ids: set[str] = set()
    if output_format == "csv":
        reader = csv.reader(lines)
        header = next(reader, None)
        if header is None:
            return ids
        if tuple(header) != BATCH_COLUMNS:
            raise InputError(f"cannot resume into {str(path)!r}: its header is not that of a batch CSV output "
                             f"({','.join(BATCH_COLUMNS[:4])},...)")
        for cells in reader:
            if cells:
                ids.add(cells[0])
        return ids
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            ids.add(str(row["id"]))
        except (json.JSONDecodeError, KeyError, TypeError):
            raise InputError(f"cannot resume into {str(path)!r}: line {number} is not a batch JSON Lines row") \
                from None
    return ids
