"""Checks of the numbers and containers the public functions take, in one place.

The command line checks the same limits with click parameter types built from the constants
here, so a bad number gets the same bounds in both (``--trials 2**64`` once reached the
compiled kernels and overflowed there). Every check raises :class:`~omaha_equity.errors.InputError`
naming the argument and the accepted values. Booleans are refused wherever a number is expected
(``seed=True`` is a mistake, not seed 1), and so are floats where a whole number is expected
(``threads=1.5``, ``die=3.0``).
"""

from __future__ import annotations

import math
import numbers
from typing import Any, TypeGuard, cast

from .errors import InputError, quoted

#: Most Monte Carlo trials: the kernels count in 64-bit integers, and chunk offsets
#: (chunk index x chunk size) must stay below 2**63.
MAX_TRIALS = 2**62
#: Seeds are 64-bit unsigned integers.
MAX_SEED = 2**64 - 1
#: Most worker threads one may ask for. Any count up to this is accepted: the work is cut into
#: fixed chunks, so the numbers never depend on it; counts above the cores are simply capped.
MAX_THREADS = 4096
#: Binglao's die.
DIE_FACES = range(1, 7)


def is_whole_number(value: object) -> TypeGuard[int]:
    """True for Python and numpy integers, False for bools, floats and anything else."""
    # A TypeGuard on int: a numpy integer passes too, and compares, indexes and converts like one.
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_whole_number(value: object, name: str, low: int, high: int, high_text: str | None = None) -> int:
    """``value`` as an ``int`` when it is a whole number in ``low..high``.

    Raises
    ------
    InputError
        ``bad trials 1.5: expected a whole number 1..2**62``.
    """
    if not is_whole_number(value) or not low <= value <= high:
        raise InputError(f"bad {name} {quoted(value)}: expected a whole number {low}..{high_text or high}")
    return int(value)


def check_trials(trials: object) -> int | None:
    """``None`` or a whole number ``1..MAX_TRIALS``, returned as an ``int``."""
    return None if trials is None else check_whole_number(trials, "trials", 1, MAX_TRIALS, "2**62")


def check_precision(precision: object) -> float | None:
    """``None`` or a positive, finite number of percentage points (not a bool).

    Raises
    ------
    InputError
        ``bad precision nan: expected a positive number of percentage points``.
    """
    if precision is None:
        return None
    if (not isinstance(precision, numbers.Real) or isinstance(precision, bool)
            or not math.isfinite(precision) or precision <= 0):
        raise InputError(f"bad precision {quoted(precision)}: expected a positive number of percentage points")
    # any real number (an int, a Fraction) is returned as given: it does a float's arithmetic
    return cast(float, precision)


def check_seed(seed: object) -> int | None:
    """``None`` or a whole number ``0..2**64-1``, returned as an ``int``."""
    return None if seed is None else check_whole_number(seed, "seed", 0, MAX_SEED, "2**64-1")


def check_threads(threads: object) -> int | None:
    """``None`` or a whole number ``1..MAX_THREADS`` (more threads than cores is fine), returned
    as an ``int``."""
    return None if threads is None else check_whole_number(threads, "threads", 1, MAX_THREADS)


def check_die(die: object) -> int:
    """Binglao's die roll as an ``int`` 1..6.

    Raises
    ------
    InputError
        ``bad die roll 3.0 for binglao: expected a whole number 1..6``.
    """
    if not is_whole_number(die) or die not in DIE_FACES:
        raise InputError(f"bad die roll {quoted(die)} for binglao: expected a whole number 1..6")
    return int(die)


def check_run_options(*, trials: object = None, precision: object = None, seed: object = None,
                      threads: object = None) -> tuple[int | None, float | None, int | None, int | None]:
    """The options every equity query shares: :func:`check_trials`, :func:`check_precision`,
    :func:`check_seed`, :func:`check_threads`. Returns them checked, ``(trials, precision,
    seed, threads)``, whole numbers as ``int`` (a numpy integer would wrap around in the
    chunk arithmetic)."""
    return check_trials(trials), check_precision(precision), check_seed(seed), check_threads(threads)


def check_hands(hands: object) -> list[Any]:
    """The players' hands as a list: ``hands`` must be a list or tuple (one entry per player),
    each entry text (``"AsKsQhJh"``, ``"AA:$ds"``, ``"*"``) or a list or tuple of cards.

    A generator is refused rather than read: it could be read only once, and the result
    repeats the hands.

    Raises
    ------
    InputError
        ``expected a list of hands, one per player (e.g. ['AsAhKsKh', 'JdTd9c8c']), got ...``.
    """
    if isinstance(hands, (list, tuple)) and all(isinstance(hand, (str, list, tuple)) for hand in hands):
        return list(hands)
    shown = f"a {type(hands).__name__}" if not isinstance(hands, (str, list, tuple)) else quoted(hands)
    raise InputError(f"expected a list of hands, one per player (e.g. ['AsAhKsKh', 'JdTd9c8c']), got {shown}")
