"""Every exit code of the program, decided here: usage errors, Ctrl-C, output faults and closed
pipes each become one line on stderr (or none) and their exit code (docs/errors.md).

:class:`OneLineErrors` is the class of the command group (``cli.app.main``); :func:`usage_errors`
turns the library's ``InputError`` inside a command into a usage error.
"""

from __future__ import annotations

import errno
import functools
import signal
import sys

import click

from ..errors import ClosedPipeError, InputError, InterruptReported, OutputError, bounded_message, caused_by_interrupt
from .fast_parse import FastParseCommand
from ..runtime.output_faults import (STREAM_NAMES, discard_pending_output, guarded_standard_streams,
                                     reserve_standard_descriptors)

# Exit codes of the program (docs/errors.md): success; a fault of the machine or of a file (a
# full disk, an unreadable file) or failed rows; a usage error; an interrupt; a reader that
# went away. (batch's 3, workers lost, is batch.command's.)
EXIT_OK = 0
EXIT_FAULT = 1
EXIT_USAGE = 2  # click's own for a usage error; also play's for a hand the rules engine refused
EXIT_INTERRUPTED = 130
EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a program a closed pipe stopped


# Signals that stop the program the way Ctrl-C does (``finally`` blocks run: temporary files
# removed, worker processes stopped), with exit code 128 + the signal's number as a shell
# reports for a program the signal killed.
STOPPING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Terminated(KeyboardInterrupt):
    """A stopping signal (SIGTERM, SIGHUP), raised where the program is, as Ctrl-C's
    ``KeyboardInterrupt``; ``signal_number`` says which."""

    def __init__(self, signal_number: int):
        super().__init__(signal_number)
        self.signal_number = signal_number


# The stopping signal received during this run, if any: its exit code wins over Ctrl-C's even
# where a command reports the interrupt its own way (batch's summary line).
_received: list[int] = []


def _raise_terminated(signal_number, frame) -> None:
    if not _received:
        _received.append(signal_number)
        raise Terminated(signal_number)


def handle_stopping_signals() -> None:
    """SIGTERM and SIGHUP raise :class:`Terminated` in the main thread (where not ignored)."""
    for signal_number in STOPPING_SIGNALS:
        if signal.getsignal(signal_number) == signal.SIG_DFL:
            signal.signal(signal_number, _raise_terminated)


# click 8.2 and later raise this usage error (its message the whole help) for a group called
# with no command; older versions print the help themselves
_NO_ARGUMENTS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


def say(line: str) -> None:
    """Print ``line`` on stderr, if stderr can still be written."""
    try:
        click.echo(line, err=True)
    except (OutputError, ClosedPipeError, OSError):
        discard_pending_output("stderr")


def say_interrupted() -> None:
    """The one line of Ctrl-C. On a terminal it starts on a new line: the terminal's own ``^C``
    echo is still on the current one."""
    terminal = sys.stderr is not None and sys.stderr.isatty()
    say(("\n" if terminal else "") + "Aborted!")


class _Interrupted(Exception):
    """A KeyboardInterrupt (``interrupt``) from a command, carried past click's own handling."""

    def __init__(self, interrupt: KeyboardInterrupt):
        super().__init__("interrupted")
        self.interrupt = interrupt


class OneLineErrors(click.Group, FastParseCommand):
    """Reports every usage error as one ``Error: ...`` line (exit code 2) echoing at most a
    bounded piece of what was typed; Ctrl-C as one line, exit code 130, even inside a compiled
    kernel: ``Aborted!``, or the command's own line (``InterruptReported``: the batch's summary
    says where the finished rows are); an output that cannot be written (``output_faults``) as one line, exit
    code 1; a closed pipe quietly (exit code 141); any other ``OSError`` (a file that cannot be
    read) as one line, exit code 1."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        typed = sys.argv[1:] if args is None else list(args)
        reserve_standard_descriptors()
        handle_stopping_signals()
        with guarded_standard_streams():
            code = self.run_words(typed, prog_name, complete_var, **extra)
        if _received and code == EXIT_INTERRUPTED:
            code = 128 + _received[0]
        sys.exit(code)

    def invoke(self, ctx):
        # click answers a KeyboardInterrupt from a command with a line of its own (a blank one,
        # then its Abort): carried past click as _Interrupted, Ctrl-C gives one line in all
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as interrupt:
            raise _Interrupted(interrupt) from interrupt

    def run_words(self, args, prog_name, complete_var, **extra) -> int:
        """The command's exit code; every failure reported on stderr in one line."""
        try:
            result = super().main(args, prog_name, complete_var, False, **extra)
            if sys.stdout is not None:  # None when closed (>&-): click.echo then writes nothing
                sys.stdout.flush()  # what is still buffered fails here, while it can be reported
            return result if isinstance(result, int) else 0
        except click.ClickException as error:
            if isinstance(error, _NO_ARGUMENTS_IS_HELP):  # the bare program: its whole help, as --help
                click.echo(error.ctx.get_help())
                sys.stdout.flush()
                return EXIT_OK
            say(f"Error: {bounded_message(error.format_message(), args)}")
            return error.exit_code
        except _Interrupted as stop:
            if not isinstance(stop.interrupt, InterruptReported):  # else the command's own line said it
                say_interrupted()
            return EXIT_INTERRUPTED
        except (KeyboardInterrupt, click.Abort):
            say_interrupted()
            return EXIT_INTERRUPTED
        except SystemError as error:
            # an interrupt landing in numba's calls back into Python comes out as a chain of
            # SystemError (kernels run under threads.deferred_interrupt avoid it)
            if not caused_by_interrupt(error):
                raise
            say_interrupted()
            return EXIT_INTERRUPTED
        except MemoryError:
            say("Error: not enough memory for this command (ask for less: a narrower range, fewer hands or "
                "trials, or the exact method off)")
            return EXIT_FAULT
        except OutputError as error:
            if error.target in STREAM_NAMES.values():
                discard_pending_output(error.target)
            say(f"Error: {error}")
            return EXIT_FAULT
        except ClosedPipeError as error:
            discard_pending_output(str(error))
            return EXIT_CLOSED_PIPE
        except OSError as error:
            if error.errno == errno.EPIPE:  # a pipe other than ours, as a plain OSError
                discard_pending_output("stdout")
                return EXIT_CLOSED_PIPE
            where = f": {error.filename}" if error.filename is not None else ""
            say(f"Error: {bounded_message(f'{error.strerror or error}{where}', args)}")
            return EXIT_FAULT


def usage_errors(command):
    """Turn the library's InputError into a usage error (exit code 2, no traceback)."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except InputError as error:
            raise click.UsageError(str(error)) from None

    return wrapper
