"""Ending the ``omaha-equity`` program quickly once its work is done and its output written.

A normal interpreter exit tears down every module and object, and numba's share (its typing
and target contexts, the LLVM engine, the kernel threads) makes that cost about a tenth of a
second, a sixth of a small command's whole run. :func:`exit_program` flushes the output, runs
the ``atexit`` handlers (logging, temporary folders, multiprocessing's own cleanup) and then
ends the process at once with ``os._exit``. Only the program's entry point calls it (never a
library function, never a test runner that invokes the CLI in its own process).

It falls back to the ordinary ``sys.exit`` whenever skipping the teardown could lose work:
output that cannot be flushed (the entry point has reported it: ``output_faults``), another Python
thread still running (a Dask client, a thread pool: the interpreter would wait for it), or a
child process still alive (worker pools join their children at exit). Threads named with
:data:`ABANDONABLE_THREAD_PREFIX` do not count: the kernel threads (``threads``) only ever
run compiled computations, which leave nothing to write or close. A thread no longer in
``threading.enumerate()`` may still be dropping its last references (running their
finalizers, which ``os._exit`` would cut): whoever starts a thread joins it before the program
ends (the worker pools do: ``runtime.executor``).
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import NoReturn

from ..runtime.threads import ABANDONABLE_THREAD_PREFIX


def _only_this_thread_and_process() -> bool:
    """True when nothing else of ours runs: no other Python thread (but abandonable ones), no
    live child process."""
    if threading.current_thread() is not threading.main_thread():
        return False
    if any(thread is not threading.main_thread() and not thread.name.startswith(ABANDONABLE_THREAD_PREFIX)
           for thread in threading.enumerate()):
        return False
    multiprocessing = sys.modules.get("multiprocessing")
    # imported by someone: ask it (active_children also reaps finished children)
    return multiprocessing is None or not multiprocessing.active_children()


def _flush_output() -> bool:
    """Flush standard output and error; False if either cannot be written."""
    for stream in (sys.stdout, sys.stderr):
        if stream is None:
            continue
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe, a closed stream
            return False
    return True


def exit_program(code: int | str | None = 0) -> NoReturn:
    """End the process with ``code`` as ``sys.exit`` would, skipping the interpreter teardown
    when that is safe (see the module docstring).

    Parameters
    ----------
    code : int, str or None
        As for ``sys.exit``: None is 0; a string is printed to stderr and the status is 1 (that
        case takes the ordinary path).
    """
    if code is None:
        code = 0
    if not isinstance(code, int) or not _only_this_thread_and_process() or not _flush_output():
        sys.exit(code)
    atexit._run_exitfuncs()  # what the interpreter would run before tearing down
    if not _flush_output():  # a handler's last words could not be written: the usual path
        sys.exit(code)
    os._exit(code & 0xFF)
