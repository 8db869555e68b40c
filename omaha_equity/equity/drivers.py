"""The drivers of a run, written once for both payoffs (pot shares and chips per pot) and for
both kinds of inputs (every hand fixed, hand lists).

A compiled kernel takes a range of *units* (board slices, chunks of samples, hands of the first
list) and returns arrays with one row per slab of them; :func:`sum_pieces` runs it over all
the units in calls of bounded time (``threads.run_in_pieces``: Ctrl-C and progress between
calls) shared among threads (``threads.across_threads``), and adds up every output over its
rows. What differs between the payoffs is data: the kernel and its bundles (bound in ``call``),
what to report after each call, and when to stop. Every output is an integer sum (or, for the
samplers, sums over chunks with their own random streams), so the totals do not depend on how
the units are cut into calls or shared among threads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import comb

import numpy as np

from ..errors import caused_by_interrupt
from ..runtime.threads import across_threads, run_in_pieces
from . import plan
from .fixed.hands import Prepared, exact_slices


def run_kernel(call: Callable[[int, int], tuple], first: int, count: int, uneven: bool = False,
               threads: int | None = None) -> tuple:
    """``call(first, count)``, a compiled kernel over units ``first ..``, cut into pieces that
    threads take one at a time (``threads.across_threads``; ``uneven``: several pieces per
    thread, for work uneven across units). Ctrl-C during the call comes out as a plain
    KeyboardInterrupt: when a piece runs on this thread, Python sees the interrupt as the kernel
    hands control back, often inside one of numba's own callbacks, which then reports it as a
    SystemError chained to the KeyboardInterrupt."""
    try:
        return across_threads(call, first, count, uneven=uneven, threads=threads)
    except SystemError as error:
        if caused_by_interrupt(error):
            raise KeyboardInterrupt from None
        raise


def sum_pieces(call: Callable[[int, int], tuple], unit_total: int, *, threads: int | None = None,
               uneven: bool = False, multiple: int | None = None, first: int | None = None,
               seconds: float | None = None, growth: int | None = None, from_last_call: bool = False,
               boundary: int | None = None,
               report: Callable[[int], None] | None = None,
               stop: Callable[[Sequence[np.ndarray], int], bool] | None = None) -> tuple[list[np.ndarray], int]:
    """Run ``call(first, count)`` over units ``0 .. unit_total - 1`` and add up its outputs.

    Parameters
    ----------
    call : callable(first, count) -> tuple of arrays
        A compiled kernel with its bundles bound; each output has one row per slab of units.
    unit_total : int
        Units of the whole run.
    threads : int, optional
        Threads to share a call among (None: numba's setting).
    uneven : bool
        Work uneven across units: several pieces per thread (``threads.across_threads``).
    multiple, first, seconds, growth, from_last_call : optional
        Calls of a multiple of ``multiple`` units (default: numba's thread count), the first
        call's units, the length of the later ones and how they are sized
        (``threads.run_in_pieces``).
    boundary : int, optional
        A call never crosses a multiple of it (where ``stop`` is asked).
    report : callable(units done), optional
        Called after each call (progress).
    stop : callable(sums, units done) -> bool, optional
        Called after each call that ends on a multiple of ``boundary`` or at the end (after
        every call without a ``boundary``); True ends the run there.

    Returns
    -------
    sums : list of arrays
        Each output summed over its rows (shape of one row).
    done : int
        Units run.
    """
    sums: list[np.ndarray] = []
    done = 0
    pieces = run_in_pieces(lambda first_unit, count: run_kernel(call, first_unit, count, uneven, threads),
                           unit_total, boundary=boundary, multiple=multiple,
                           first=first, seconds=seconds, growth=growth, from_last_call=from_last_call)
    for first_unit, count, outputs in pieces:
        rows = [output.sum(axis=0) for output in outputs]
        sums = rows if not sums else [total + row for total, row in zip(sums, rows)]
        done = first_unit + count
        if report is not None:
            report(done)
        at_check = boundary is None or done % boundary == 0 or done == unit_total
        if stop is not None and at_check and stop(sums, done):
            break
    return sums, done


def _as_outputs(outputs) -> tuple:
    """A kernel's outputs as a tuple (a kernel with one output returns the array itself)."""
    return outputs if isinstance(outputs, tuple) else (outputs,)


def enumerate_fixed_hands(prepared: Prepared, kernel: Callable, payoff_arguments: tuple,
                          progress: Callable[[int, int], None] | None, threads: int | None) -> tuple[int, list]:
    """Every completion of the board for fixed hands, on ``threads`` threads (None: numba's
    setting), in short calls: ``kernel`` is ``fixed._kernels.enumerate_boards`` (pot shares) or
    ``fixed._allin_kernels.enumerate_allin_boards`` (chips, with the pots' ``payoff_arguments``).
    ``progress(boards done, boards)`` after each call.

    Returns ``(boards, the kernel's outputs summed over slabs)``."""
    completions = comb(len(prepared.deck), prepared.dealt_count)
    total_slices = exact_slices(completions, prepared.high_rows.shape[0])
    sums, _ = sum_pieces(
        lambda first, count: _as_outputs(kernel(*prepared.kernel_arguments(), plan.BINOMIALS, prepared.hilo,
                                                *payoff_arguments, first, count, total_slices)),
        total_slices, threads=threads, multiple=threads,
        report=None if progress is None else lambda done: progress(completions * done // total_slices, completions))
    return completions, sums
