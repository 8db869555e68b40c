"""``omaha-equity batch``: files and terminal around :func:`run_batch` (opening the input and
output, ``--resume``, the progress bar, the summary on stderr and the exit code)."""

from __future__ import annotations

import contextlib
import io
import secrets
import sys
import time

import click

from ..errors import InputError, quoted
from .files import RowWriter, finished_ids, format_for_path, read_records
from .run import run_batch

# Failed ids named in the summary (the error rows name them all).
SUMMARY_FAILED_IDS = 10


def _count_records(path: str, input_format: str) -> int | None:
    """Queries in a file, for the progress bar (non-blank lines, less the CSV header)."""
    try:
        with open(path, encoding="utf-8-sig") as file:
            lines = sum(1 for line in file if line.strip())
    except (OSError, UnicodeDecodeError):  # the run itself reports a file it cannot read
        return None
    return max(lines - (input_format == "csv"), 0)


def run_batch_command(input_file: str, output: str, input_format: str | None, output_format: str | None,
                      seed: int | None, workers: int | None, scheduler: str | None, scheduler_file: str | None,
                      chunk_size: int | None, resume: bool, quiet: bool) -> int:
    """Run the command; returns the exit code (0: every query succeeded, 1: some failed).

    Raises
    ------
    InputError
        Unreadable files, a bad CSV header, ``--resume`` without ``-o FILE``, conflicting
        options (the CLI shows it as a one-line usage error, exit code 2).
    """
    input_format = input_format or format_for_path(input_file)
    output_format = output_format or format_for_path(output)
    if resume and output == "-":
        raise InputError("--resume needs the output file of the earlier run: -o FILE")
    if scheduler is not None and scheduler_file is not None:
        raise InputError("--scheduler and --scheduler-file name the same thing: give one")
    if workers is not None and (scheduler is not None or scheduler_file is not None):
        raise InputError("--workers applies to this machine; a Dask cluster has its own workers")
    skip_ids = finished_ids(output, output_format) if resume else set()
    seed = secrets.randbits(63) if seed is None else seed
    show_progress = not quiet and sys.stderr.isatty()
    total = _count_records(input_file, input_format) if show_progress and input_file != "-" else None
    done = failed = rows_written = 0
    failed_ids: list[str] = []
    started = time.perf_counter()
    interrupted = False
    with contextlib.ExitStack() as stack:
        try:
            # standard input read like a file: UTF-8 with or without a byte-order mark, strict
            source = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig", newline="") if input_file == "-" \
                else stack.enter_context(open(input_file, newline="", encoding="utf-8-sig"))
            appending = resume and bool(skip_ids or (output != "-" and _non_empty(output)))
            sink = sys.stdout if output == "-" else stack.enter_context(
                open(output, "a" if appending else "w", newline="", encoding="utf-8"))
        except OSError as error:
            raise InputError(f"cannot open {error.filename!r}: {error.strerror}") from None
        writer = RowWriter(sink, output_format, header=not appending)
        records = read_records(source, input_format)
        bar = stack.enter_context(click.progressbar(length=total, label="queries", file=sys.stderr)) \
            if show_progress else None
        try:
            for outcome in run_batch(records, seed=seed, workers=workers, scheduler=scheduler,
                                     scheduler_file=scheduler_file, chunk_size=chunk_size, skip_ids=skip_ids):
                rows = outcome.rows()
                writer.write(rows)
                rows_written += len(rows)
                done += 1
                if not outcome.ok:
                    failed += 1
                    if len(failed_ids) < SUMMARY_FAILED_IDS:
                        failed_ids.append(outcome.query_id)
                if bar is not None:
                    bar.update(1)
        except KeyboardInterrupt:
            interrupted = True
        except UnicodeDecodeError as error:
            name = "standard input" if input_file == "-" else quoted(input_file)
            raise InputError(f"{name} is not UTF-8 text (byte 0x{error.object[error.start]:02x} cannot be read); "
                             f"{done:,} queries before it were written") from None
    if not quiet:
        elapsed = time.perf_counter() - started
        succeeded = done - failed
        parts = [f"{succeeded:,} {'query' if succeeded == 1 else 'queries'} done", f"{failed:,} failed"]
        if skip_ids:
            parts.append(f"{len(skip_ids):,} skipped (already in {output})")
        summary = f"batch: {', '.join(parts)}; {rows_written:,} rows in {elapsed:.1f} s; seed {seed}"
        if failed_ids:
            summary += f"; failed ids: {', '.join(failed_ids)}{' ...' if failed > len(failed_ids) else ''}"
        if interrupted:
            summary += f"; interrupted: every finished query is written (--resume -o {output} goes on)" \
                if output != "-" else "; interrupted: every finished query is written"
        click.echo(summary, err=True)
    if interrupted:
        raise KeyboardInterrupt
    return 1 if failed else 0


def _non_empty(path: str) -> bool:
    try:
        with open(path, "rb") as file:
            return bool(file.read(1))
    except OSError:
        return False
