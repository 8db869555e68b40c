"""Progress of long runs on stderr: the deals of ``calc`` and ``allin`` (:class:`ProgressBar`,
fed by the library's ``progress(done, total)`` callback) and the queries of ``batch``
(:func:`batch_progress_bar`).
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator

import click

from .errors import say


# Progress of a long run (``calc``, ``allin``) appears once it has run this long, then, when
# stderr is not a terminal (a log, a pipe), as a plain line this often.
PROGRESS_AFTER_SECONDS = 1.0
PROGRESS_LINE_SECONDS = 5.0


class ProgressBar:
    """Progress of a long run on stderr, drawn from the library's ``progress(done, total)``
    callback: nothing for the first ``PROGRESS_AFTER_SECONDS`` (or when the run finishes in its
    first call); then a click progress bar when stderr is a terminal, else a plain line every
    ``PROGRESS_LINE_SECONDS`` such as ``progress: 41% of 2,250,000,000 deals, 0:12 left``
    (the time left at the rate measured since the first call, which excludes loading the
    kernels)."""

    def __init__(self, enabled: bool, terminal: bool, clock=time.monotonic):
        self.enabled = enabled
        self.terminal = terminal
        self.clock = clock
        self.started = clock()
        self.first: tuple[float, int] | None = None
        self.next_line_at = self.started + PROGRESS_AFTER_SECONDS
        self.bar = None

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or done >= total:
            return
        now = self.clock()
        if self.first is None:
            self.first = (now, done)
        if now - self.started < PROGRESS_AFTER_SECONDS:
            return
        if self.terminal:
            if self.bar is None:
                self.bar = click.progressbar(length=total, label="deals", file=sys.stderr)
                self.bar.__enter__()
            self.bar.update(done - self.bar.pos)
        elif now >= self.next_line_at:
            self.next_line_at = now + PROGRESS_LINE_SECONDS
            say(f"progress: {100 * done // total}% of {total:,} deals{self._time_left(now, done, total)}")

    def _time_left(self, now: float, done: int, total: int) -> str:
        first_at, first_done = self.first
        if done <= first_done or now - first_at <= 0:
            return ""
        seconds = int((total - done) * (now - first_at) / (done - first_done) + 0.5)
        minutes, second = divmod(seconds, 60)
        hours, minute = divmod(minutes, 60)
        return f", {hours}:{minute:02d}:{second:02d} left" if hours else f", {minute}:{second:02d} left"

    def close(self, completed: bool = True) -> None:
        """End the bar: full when the run ``completed``, left where it stood when it was stopped
        (Ctrl-C), its line ended either way."""
        if self.bar is None:
            return
        if completed:
            self.bar.update(self.bar.length - self.bar.pos)
        else:
            self.bar.render_finish()


@contextlib.contextmanager
def deals_progress(quiet: bool) -> Iterator[ProgressBar]:
    """The progress of one run of ``calc`` or ``allin`` (none with ``quiet``), closed when the
    run ends, however it ends."""
    progress = ProgressBar(enabled=not quiet, terminal=sys.stderr is not None and sys.stderr.isatty())
    try:
        yield progress
    except BaseException:
        progress.close(completed=False)
        raise
    progress.close()


@contextlib.contextmanager
def batch_progress_bar(total: int):
    """The batch's bar of ``total`` queries on stderr; yields the per-query update (its text:
    the time left)."""
    with click.progressbar(length=total, label="queries", file=sys.stderr, show_eta=False,
                           item_show_func=lambda text: text) as bar:
        yield lambda text: bar.update(1, text)


# Flops: progress appears after this long, then (stderr not a terminal) a line this often.
PROGRESS_AFTER_SECONDS = 1.0
PROGRESS_LINE_SECONDS = 5.0


class FlopProgress:
    """``progress(done, total)`` of the flops run, on stderr: a bar on a terminal, else a line
    such as ``flops: 41% of 1,755 flops, 0:12 left`` every few seconds."""

    def __init__(self, quiet: bool = False) -> None:
        self.quiet = quiet
        self.started = time.monotonic()
        # not a terminal (a log, a pipe): the first line after a whole interval, so a short run
        # writes none
        self.next_line_at = self.started + PROGRESS_LINE_SECONDS
        self.bar = None

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.quiet or now - self.started < PROGRESS_AFTER_SECONDS:
            return
        if sys.stderr.isatty():
            if self.bar is None:
                self.bar = click.progressbar(length=total, label="flops", file=sys.stderr)
                self.bar.__enter__()
            self.bar.update(done - self.bar.pos)
        elif now >= self.next_line_at and done < total:
            self.next_line_at = now + PROGRESS_LINE_SECONDS
            seconds = int((total - done) * (now - self.started) / done + 0.5)
            click.echo(f"flops: {100 * done // total}% of {total:,} flops, {seconds // 60}:{seconds % 60:02d} left",
                       err=True)

    def close(self) -> None:
        """End the bar's line, if one was drawn (once, however often it is called)."""
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None
