"""``omaha-equity batch``: files around :func:`run_batch` (checking the input, the earlier output
and the cluster before anything is written, the progress, the summary line, and one line and an
exit code for every way a run can stop). The command line (``cli.commands.batch``) draws the progress bar
and prints the lines this module hands it: no click here.

Exit codes (the README's Batch section has the same table):

====  ==========================================================================================
0     every query ran
1     some queries failed (their error rows are written), or the output could not be written
      (``no space left writing FILE``; the rows before it are kept)
2     a usage error: nothing was written
3     the workers could not go on (a local worker died again and again, the Dask scheduler went
      away, no Dask worker for ``--worker-timeout``): finished rows are kept, ``--resume`` goes on
130   Ctrl-C: finished rows are kept
====  ==========================================================================================
"""

from __future__ import annotations

import contextlib
import io
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass

from ..equity.plan import draw_seed
from ..errors import InputError, InterruptReported, OutputError, quoted, writing
from ..runtime.output_faults import discard_pending_output
from ..runtime.output_files import check_not_an_input
from ..runtime.executor import DEFAULT_WORKER_TIMEOUT, ExecutorLost, local_core_count, make_executor
from .files import RowWriter, format_for_path
from .ids import QueryIds
from .output import BatchOutput
from .progress import TimeLeft
from .records import InputWithoutLineEnds, open_records
from .run import run_batch_chunks, warm_up
from .workers import MeasuredWorkers

# Failed ids named in the summary (the error rows name them all).
SUMMARY_FAILED_IDS = 10
EXIT_SOME_FAILED = 1
EXIT_CANNOT_WRITE = 1
EXIT_WORKERS_LOST = 3
# Bytes read at a time when counting an input's lines for the progress bar.
_COUNT_BLOCK_BYTES = 1 << 20


def _count_records(path: str, input_format: str) -> int | None:
    """Queries in a file, for the progress bar (its lines, less the CSV header; blank lines
    count too), read in blocks so that a file of one huge line costs no memory."""
    lines = 0
    last = b"\n"
    try:
        with open(path, "rb") as file:
            while block := file.read(_COUNT_BLOCK_BYTES):
                lines += block.count(b"\n")
                last = block[-1:]
    except OSError:  # the run itself reports a file it cannot read
        return None
    lines += last != b"\n"
    return max(lines - (input_format == "csv"), 0)


@contextlib.contextmanager
def _dask_logs_silenced():
    """Dask's client logs a traceback when its scheduler goes away; the batch says it in one
    line instead."""
    import logging

    try:
        import distributed  # noqa: F401  (sets up the "distributed" log handlers)
    except ImportError:
        yield
        return
    handlers = logging.getLogger("distributed").handlers
    levels = [handler.level for handler in handlers]
    for handler in handlers:
        handler.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for handler, level in zip(handlers, levels):
            handler.setLevel(level)


def _local_workers(workers: int | None, oversubscribe: bool, say) -> int | None:
    """``--workers``, capped at the cores this process may use unless ``--oversubscribe``."""
    cores = local_core_count()
    if workers is None or workers <= cores or oversubscribe:
        return workers
    here = f"the {cores} cores here" if cores > 1 else "the 1 core here"
    running = f"{cores} worker processes" if cores > 1 else "1 worker process"
    say(f"--workers {workers} is more than {here}: running {running} (--oversubscribe starts {workers})")
    return cores


@dataclass(frozen=True)
class BatchOptions:
    """The ``batch`` command's options, named as on the command line (``docs/cli.md``):
    ``input_file`` and ``output`` are paths or ``-``; formats None go by the extension."""

    input_file: str = "-"
    output: str = "-"
    input_format: str | None = None
    output_format: str | None = None
    seed: int | None = None
    workers: int | None = None
    scheduler: str | None = None
    scheduler_file: str | None = None
    chunk_size: int | None = None
    resume: bool = False
    quiet: bool = False
    worker_timeout: float = DEFAULT_WORKER_TIMEOUT
    oversubscribe: bool = False
    delimiter: str = ","
    device: str = "cpu"


#: Draws a progress bar of ``total`` queries: a context manager giving a function called once per
#: finished query with the text to show (the time left).
ProgressBar = Callable[[int], AbstractContextManager[Callable[[str], None]]]


def run_batch_command(options: BatchOptions, *, report: Callable[[str], None],
                      progress_bar: ProgressBar | None = None) -> int:
    """Run the command; returns the exit code (see the module docstring).

    Parameters
    ----------
    options : BatchOptions
    report : callable
        Gets each line for the user (stderr on the command line): notices, the summary, the
        one line of a run that stopped.
    progress_bar : callable, optional
        Given when the user watches a terminal: called with the number of queries (when the
        input file's can be counted, and not ``quiet``).

    Raises
    ------
    InputError
        Unreadable files, a bad CSV header, an earlier output that is not one (``--resume``),
        conflicting options, an unreachable scheduler: the CLI shows it as a one-line usage
        error (exit code 2). Nothing has been written then.
    KeyboardInterrupt
        After Ctrl-C: :class:`~omaha_equity.errors.InterruptReported` once the summary line
        (which says where the finished rows are) is printed, a plain KeyboardInterrupt with
        ``quiet``.
    """
    input_file, output, resume, quiet = options.input_file, options.output, options.resume, options.quiet
    scheduler, scheduler_file, workers = options.scheduler, options.scheduler_file, options.workers
    input_format = options.input_format or format_for_path(input_file)
    output_format = options.output_format or format_for_path(output)
    if resume and output == "-":
        raise InputError("--resume needs the output file of the earlier run: -o FILE")
    if scheduler is not None and scheduler_file is not None:
        raise InputError("--scheduler and --scheduler-file name the same thing: give one")
    if workers is not None and (scheduler is not None or scheduler_file is not None):
        raise InputError("--workers applies to this machine; a Dask cluster has its own workers")
    if options.device == "gpu":
        from ..gpu.device import runs_on_gpu  # lazy: numba.cuda loads only when a GPU is asked for

        runs_on_gpu("gpu", 0)  # none: the one no-GPU line, before anything is written

    def say(message: str) -> None:
        if not quiet:
            report(f"batch: {message}")

    if input_file == "-" and sys.stdin is None:
        raise InputError("standard input is closed: nothing to read (give a FILE, or pipe the queries in)")
    check_not_an_input(output, [input_file], option="-o")
    workers = _local_workers(workers, options.oversubscribe, say)
    seed = draw_seed() if options.seed is None else options.seed
    target = BatchOutput(output, output_format)
    input_name = "standard input" if input_file == "-" else quoted(input_file)
    rows_written = 0
    tally = _Tally()
    stopped: tuple[int, str] | None = None  # (exit code, the one line) of a run that could not finish
    interrupted = False
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        ids = stack.enter_context(QueryIds())
        # 1. the input: opened, and a CSV header checked
        try:
            # standard input read like a file: UTF-8 with or without a byte-order mark, strict
            source = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig", newline="") if input_file == "-" \
                else stack.enter_context(open(input_file, newline="", encoding="utf-8-sig"))
            records = open_records(source, input_format, options.delimiter)
        except OSError as error:
            raise InputError(f"cannot open {error.filename!r}: {error.strerror}") from None
        except UnicodeDecodeError as error:
            raise InputError(f"{input_name} is not UTF-8 text (byte 0x{error.object[error.start]:02x} cannot be "
                             "read); nothing was written") from None
        # 2. the earlier output (--resume), read only
        already = target.check_resume(ids) if resume else 0
        # 3. the workers: the cluster reached, a worker there
        if scheduler is not None or scheduler_file is not None:
            stack.enter_context(_dask_logs_silenced())
        try:
            if workers is None and scheduler is None and scheduler_file is None:
                counted = _count_records(input_file, input_format) if input_file != "-" else None
                executor = MeasuredWorkers(local_core_count(), None if counted is None else max(counted - already, 0),
                                           warm_up, notify=say)
            else:
                executor = make_executor(workers, scheduler, scheduler_file,
                                         warm_up=None if workers == 1 else warm_up,
                                         worker_timeout=options.worker_timeout, notify=say)
        except ExecutorLost as error:
            report(f"Error: {error}; nothing was written")
            return EXIT_WORKERS_LOST
        completed = False
        stack.callback(lambda: executor.close(cancel=not completed))
        # 4. only now the output
        stream, header = target.open()
        total = None
        if not quiet and progress_bar is not None and input_file != "-":
            total = _count_records(input_file, input_format)
            total = None if total is None else max(total - already, 0)
        bar = stack.enter_context(progress_bar(total)) if total else None
        time_left = TimeLeft(total)
        writer = None
        try:
            with writing(_written_name(target)):
                writer = RowWriter(stream, output_format, header=header)
            for outcomes in run_batch_chunks(records, seed=seed, executor=executor, chunk_size=options.chunk_size,
                                             ids=ids, device=options.device):
                with writing(_written_name(target)):
                    rows_written += writer.write_results(outcomes)
                tally.add(outcomes)
                if bar is not None:
                    for finished in range(tally.done - len(outcomes) + 1, tally.done + 1):
                        time_left.update(finished)
                        bar(_progress_text(time_left.text(), executor))
            completed = True
            with writing(_written_name(target)):
                target.finish()
        except KeyboardInterrupt:
            interrupted = True
        except ExecutorLost as error:
            stopped = EXIT_WORKERS_LOST, str(error)
        except OutputError as error:  # a full disk (standard output's, through the CLI's guarded stream too)
            if writer is not None:
                tally.add(writer.results_on_disk)
                rows_written += sum(len(outcome.rows()) for outcome in writer.results_on_disk)
            if target.path == "-":
                discard_pending_output("stdout")  # Python's own flush at exit must not fail again
            stopped = EXIT_CANNOT_WRITE, str(error)
        except InputWithoutLineEnds as error:
            target.abandon()
            raise InputError(f"{input_name}: {error}; {tally.done:,} queries before it were written to "
                             f"{_where(target)}") from None
        except UnicodeDecodeError as error:
            target.abandon()
            raise InputError(f"{input_name} is not UTF-8 text (byte 0x{error.object[error.start]:02x} cannot be "
                             f"read); {tally.done:,} queries before it were written to {_where(target)}") from None
        finally:
            if not completed:
                target.abandon()
    done, failed, failed_ids = tally.done, tally.failed, tally.failed_ids
    kept = "every finished query is written" if target.in_place else \
        f"{done + already:,} finished queries are in {target.part_name} (--resume -o {target.path} goes on)"
    if not quiet:
        elapsed = time.perf_counter() - started
        succeeded = done - failed
        parts = [f"{succeeded:,} {'query' if succeeded == 1 else 'queries'} done", f"{failed:,} failed"]
        if already:
            parts.append(f"{already:,} already in {target.path}")
        summary = f"batch: {', '.join(parts)}; {rows_written:,} rows in {elapsed:.1f} s; seed {seed}"
        if failed_ids:
            summary += f"; failed ids: {', '.join(failed_ids)}{' ...' if failed > len(failed_ids) else ''}"
        if interrupted:
            summary += f"; interrupted: {kept}"
            if bar is None and progress_bar is not None:  # the terminal's "^C" echo is on the current line
                summary = "\n" + summary
        report(summary)
    if stopped is not None:
        code, message = stopped
        report(f"Error: {message}" if target.in_place else f"Error: {message}; {kept}")
        return code
    if interrupted:  # the summary (its "interrupted: ..." part) was the one line, unless --quiet
        raise KeyboardInterrupt if quiet else InterruptReported
    return EXIT_SOME_FAILED if failed else 0


def _written_name(target: BatchOutput) -> str:
    """The output as the one line of a write failure names it: ``stdout``, as every command
    says it (errors.OutputError), or the file."""
    return "stdout" if target.path == "-" else target.name


class _Tally:
    """The queries written so far: how many, how many failed, the first failed ids."""

    def __init__(self) -> None:
        self.done = 0
        self.failed = 0
        self.failed_ids: list[str] = []

    def add(self, outcomes) -> None:
        for outcome in outcomes:
            self.done += 1
            if not outcome.ok:
                self.failed += 1
                if len(self.failed_ids) < SUMMARY_FAILED_IDS:
                    self.failed_ids.append(outcome.query_id)


def _progress_text(time_left: str, executor) -> str:
    """The progress line's text: where the work runs when it was chosen from the work measured
    (:class:`MeasuredWorkers`), and the time left."""
    choice = getattr(executor, "choice", None)
    return ", ".join(part for part in (choice, time_left) if part)


def _where(target: BatchOutput) -> str:
    return target.name if target.in_place else target.part_name
