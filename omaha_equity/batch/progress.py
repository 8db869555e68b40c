"""The batch progress bar's time left, from the work finished so far.

Results arrive in chunks, after the workers have started and loaded their kernels: timing the
first query from the start of the run (as a generic progress bar does) charges the start-up to
every query left, and once said a 10-second run had two hours to go. :class:`TimeLeft` measures
the rate from the first finished query on, over everything finished since, and says nothing
until a second has passed that way.
"""

from __future__ import annotations

import time
from collections.abc import Callable

# Seconds of finished work before a rate is trusted.
MIN_MEASURED_SECONDS = 1.0


class TimeLeft:
    """Estimates the seconds left of a run of ``total`` queries.

    Parameters
    ----------
    total : int or None
        Queries in the run (None: unknown, no estimate).
    clock : callable
        Seconds (``time.monotonic``), replaceable in tests.
    """

    def __init__(self, total: int | None, clock: Callable[[], float] = time.monotonic):
        self.total = total
        self._clock = clock
        self._first_at: float | None = None
        self._done_at_first = 0
        self.done = 0

    def update(self, done: int) -> None:
        """``done`` queries are finished now."""
        if self._first_at is None and done > 0:
            self._first_at = self._clock()
            self._done_at_first = done
        self.done = done

    def seconds(self) -> float | None:
        """Seconds left, at the rate since the first finished query; None while unknown."""
        if self.total is None or self._first_at is None:
            return None
        elapsed = self._clock() - self._first_at
        measured = self.done - self._done_at_first
        if elapsed < MIN_MEASURED_SECONDS or measured <= 0:
            return None
        return max(self.total - self.done, 0) * elapsed / measured

    def text(self) -> str:
        """``"1:02:03 left"`` (hours only when needed), or ``""`` while unknown."""
        seconds = self.seconds()
        if seconds is None:
            return ""
        minutes, second = divmod(int(seconds + 0.5), 60)
        hours, minute = divmod(minutes, 60)
        return f"{hours}:{minute:02d}:{second:02d} left" if hours else f"{minute}:{second:02d} left"
