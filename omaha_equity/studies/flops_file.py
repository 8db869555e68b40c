"""``flops -o FILE``: a run that keeps each finished orbit in ``FILE.part`` as it goes, so that a
stopped run (Ctrl-C, ``kill``, a lost machine) goes on where it stopped on the next same command.

``FILE.part`` is JSON Lines, written and flushed a line at a time:

- a header: ``{"flops_part": 1, "query": ..., "seed": ...}``, the query's identity
  (:meth:`.flops.FlopRun.identity`: what the sums depend on) and the Monte Carlo seed the run
  uses (drawn when none was given, so that the run that goes on uses the same one);
- one line per finished orbit: ``{"orbit": i, ...}``, its :class:`.flops.OrbitSums` (floats
  written as Python writes them, which read back exactly: a resumed run prints the same bytes as
  one that was never stopped).

The next run whose identity is the same reads the finished orbits back and runs the others; a
last line cut short (the run was killed while writing it) is cut off and its orbit runs again.
A ``FILE.part`` of another query is started over; one that is not a flops file at all is left as
it is and refused. ``FILE`` itself is written by the caller whole, once the study is complete
(``runtime.output_files``), and only then is ``FILE.part`` removed (:meth:`FlopsPart.remove`):
nothing half-written ever has the name ``FILE``. The part file is opened as the batch's is
(``batch.output.open_part``: never through a symbolic link).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict

from ..batch.output import PART_SUFFIX, open_part
from ..errors import InputError, writing
from .flops import FlopRun, FlopStudy, OrbitSums, ProgressCallback

# The header's key and the file's version: a file without it is not a flops part file.
PART_KEY = "flops_part"
PART_VERSION = 1


class FlopsPart:
    """The part file of one ``flops -o FILE`` run (see the module docstring).

    Reading it changes nothing; nothing is written before :meth:`run`.

    Parameters
    ----------
    path : str
        ``FILE`` (the part file is ``FILE.part``).
    run : FlopRun
        The prepared study; when the part file is of the same query, its seed is set to the one
        the file holds.

    Attributes
    ----------
    finished : dict of int to OrbitSums
        The orbits the file holds (empty for a new run).
    started_over : bool
        A part file of another query was there: it is replaced when the run starts.

    Raises
    ------
    InputError
        ``FILE.part`` cannot be read, or is not a flops part file (left as it is).
    """

    def __init__(self, path: str, run: FlopRun):
        self.path = path
        self.part = path + PART_SUFFIX
        self.name = repr(self.part)
        self.study_run = run
        self.finished: dict[int, OrbitSums] = {}
        self.started_over = False
        self._keep = 0  # bytes of the part file that hold whole lines of this query
        self._read()

    def _read(self) -> None:
        try:
            file = open(self.part, "rb")
        except FileNotFoundError:
            return
        except OSError as error:
            raise InputError(f"cannot read {self.name} to go on: {error.strerror}") from None
        with file:
            header = file.readline()
            if not header.endswith(b"\n"):  # empty, or cut short before the first orbit: start again
                if header and not header.startswith(b'{"' + PART_KEY.encode()):
                    raise self._foreign("its first line is not a flops header")
                return
            record = self._record(header, 1)
            if record.get(PART_KEY) != PART_VERSION or "query" not in record:
                raise self._foreign("its first line is not a flops header")
            if record["query"] != self.study_run.identity():
                self.started_over = True
                return
            if self.study_run.seed is not None:
                self.study_run.seed = record.get("seed")
            keep = len(header)
            number = 1
            while (line := file.readline()).endswith(b"\n"):
                number += 1
                self._add_orbit(self._record(line, number), number)
                keep += len(line)
        self._keep = keep

    def _record(self, line: bytes, number: int) -> dict:
        try:
            record = json.loads(line)
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise self._foreign(f"line {number} is not JSON") from None
        if not isinstance(record, dict):
            raise self._foreign(f"line {number} is not a JSON object")
        return record

    def _add_orbit(self, record: dict, number: int) -> None:
        try:
            orbit = record.pop("orbit")
            sums = OrbitSums(**{**record, "counts": tuple(record["counts"]), "weights": tuple(record["weights"])})
        except (KeyError, TypeError):
            raise self._foreign(f"line {number} is not a finished flop") from None
        if not (isinstance(orbit, int) and 0 <= orbit < self.study_run.orbit_count) or orbit in self.finished:
            raise self._foreign(f"line {number} names flop run {orbit!r}, not one of this query's left")
        self.finished[orbit] = sums

    def _foreign(self, what: str) -> InputError:
        return InputError(f"cannot go on from {self.name}: {what} (it is left as it is: remove it, or name "
                          "another output)")

    def run(self, progress: ProgressCallback | None = None) -> FlopStudy:
        """Run the orbits the file does not hold, appending each to it as it finishes; the study.

        ``progress(done, total)`` counts the orbits of this run (those left).

        Raises
        ------
        OutputError
            The part file cannot be written (a full disk).
        InputError
            The range has no hand on any flop (the part file is removed: the same command would
            say the same).
        KeyboardInterrupt
            Ctrl-C: every orbit finished so far is in the part file.
        """
        left = [number for number in range(self.study_run.orbit_count) if number not in self.finished]
        with writing(self.name):
            stream = open_part(self.part, os.O_APPEND if self._keep else os.O_TRUNC)
        try:
            with writing(self.name):
                if self._keep:
                    stream.buffer.raw.truncate(self._keep)  # a line cut short: its orbit runs again
                else:
                    header = {PART_KEY: PART_VERSION, "query": self.study_run.identity(), "seed": self.study_run.seed}
                    stream.write(json.dumps(header) + "\n")
                    stream.flush()
            for done, number in enumerate(left, 1):
                sums = self.study_run.run_orbit(number)
                with writing(self.name):
                    stream.write(json.dumps({"orbit": number, **asdict(sums)}) + "\n")
                    stream.flush()
                self.finished[number] = sums
                if progress is not None:
                    progress(done, len(left))
        finally:
            try:
                stream.close()
            except OSError:  # what could not be flushed is lost; the lines before it are whole
                pass
        try:
            return self.study_run.study([self.finished[number] for number in range(self.study_run.orbit_count)])
        except InputError:
            self.remove()
            raise

    def remove(self) -> None:
        """Remove the part file: ``FILE`` now holds the whole study."""
        try:
            os.unlink(self.part)
        except FileNotFoundError:
            pass
