"""The ids of a batch: which query first used an id, how often the input repeats it, and how
many of its queries an earlier run already wrote (``--resume``), kept on disk so that memory
does not grow with the number of rows.

A million ids held in a Python dict cost over a hundred megabytes; here they live in a private
temporary SQLite database (the standard library's ``sqlite3``): SQLite keeps at most
:data:`CACHE_KIBIBYTES` of it in memory and the rest in a temporary file that is deleted when
the database is closed (on Linux, unlinked as soon as it is made: nothing is left behind even
after ``kill -9``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass

# SQLite page cache of the ids database (its own default is 2,000 KiB).
CACHE_KIBIBYTES = 4096
# Ids looked up in one statement (SQLite allows 999 parameters in its oldest builds).
_IDS_PER_STATEMENT = 900


@dataclass(frozen=True)
class Arrival:
    """What the registry knows of an id when a query carrying it arrives.

    Attributes
    ----------
    first_position : int
        The input position (from 1) of the first query with this id.
    occurrence : int
        Which query with this id this one is: 1 for the first, 2 for the first repeat, ...
    written : int
        How many queries with this id an earlier run wrote (``--resume``): this one is already
        in the output when ``occurrence <= written``.
    """

    first_position: int
    occurrence: int
    written: int

    @property
    def already_written(self) -> bool:
        return self.occurrence <= self.written


class QueryIds:
    """Ids seen in a batch input and ids found in an earlier output, in a temporary database.

    Use as a context manager (or call :meth:`close`).
    """

    def __init__(self, written: Mapping[str, int] | None = None):
        self._database = sqlite3.connect("")  # "": a private temporary database, on disk when large
        self._database.execute(f"PRAGMA cache_size = -{CACHE_KIBIBYTES}")
        self._database.execute("PRAGMA journal_mode = OFF")  # nothing to roll back: it dies with the run
        self._database.execute("PRAGMA synchronous = OFF")
        self._database.execute("CREATE TABLE ids (id TEXT PRIMARY KEY, first_position INTEGER, "
                               "seen INTEGER NOT NULL DEFAULT 0, written INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID")
        for query_id, count in (written or {}).items():
            for _ in range(count):
                self.add_written(query_id)

    def add_written(self, query_id: str) -> None:
        """Count one query with this id as already in the output (``--resume``)."""
        self._database.execute("INSERT INTO ids (id, written) VALUES (?, 1) "
                               "ON CONFLICT (id) DO UPDATE SET written = written + 1", (query_id,))

    def arrive(self, query_id: str, position: int) -> Arrival:
        """Record that the query at ``position`` (from 1) carries ``query_id``."""
        first_position, seen, written = self._database.execute(
            "INSERT INTO ids (id, first_position, seen) VALUES (?, ?, 1) ON CONFLICT (id) DO UPDATE "
            "SET seen = seen + 1, first_position = coalesce(first_position, excluded.first_position) "
            "RETURNING first_position, seen, written", (query_id, position)).fetchone()
        return Arrival(first_position, seen, written)

    def arrive_many(self, arrivals: list[tuple[str, int]]) -> list[Arrival]:
        """:meth:`arrive` for each ``(query_id, position)`` in turn, in two statements for the
        whole list rather than one per query (a statement costs tens of microseconds, more than
        a small query's kernel): the earlier state of the ids is read at once, the list's own
        repeats counted here, and the new counts written back at once."""
        if not arrivals:
            return []
        distinct = list(dict.fromkeys(query_id for query_id, _ in arrivals))
        known: dict[str, tuple[int | None, int, int]] = {}
        for start in range(0, len(distinct), _IDS_PER_STATEMENT):
            part = distinct[start:start + _IDS_PER_STATEMENT]
            rows = self._database.execute(
                f"SELECT id, first_position, seen, written FROM ids WHERE id IN ({','.join('?' * len(part))})", part)
            for query_id, first_position, seen, written in rows:
                known[query_id] = (first_position, seen, written)
        results = []
        added: dict[str, list[int]] = {}  # id: [first position in this list, queries in this list]
        for query_id, position in arrivals:
            first_position, seen, written = known.get(query_id, (None, 0, 0))
            here = added.get(query_id)
            if here is None:
                here = added[query_id] = [position, 0]
            here[1] += 1
            results.append(Arrival(here[0] if first_position is None else first_position, seen + here[1], written))
        self._database.executemany(
            "INSERT INTO ids (id, first_position, seen) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE "
            "SET seen = seen + excluded.seen, first_position = coalesce(first_position, excluded.first_position)",
            [(query_id, first, count) for query_id, (first, count) in added.items()])
        return results

    def close(self) -> None:
        self._database.close()

    def __enter__(self) -> QueryIds:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
