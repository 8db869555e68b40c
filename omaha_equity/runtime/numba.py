"""The package's only way to compile a function with numba: four decorators, each one set of
numba options, each caching its kernels in this tool's kernel folder (``runtime/cache.py``).

=====================  ==========================================================  ==========
decorator              numba options                                               used for
=====================  ==========================================================  ==========
``helper``             ``cache=True, nogil=True, inline="always"``                 helpers
``kernel``             ``cache=True, nogil=True`` (``nogil=False`` on request)     entry points
``threaded_kernel``    ``cache=True, nogil=True, error_model="numpy"``             thread work
``parallel_kernel``    ``cache=True, parallel=`` :data:`PRANGE_ONLY`               prange loops
=====================  ==========================================================  ==========

Why each option:

- ``cache=True`` everywhere: compiling the kernels takes up to a minute, so their machine code
  is saved on disk, in this tool's kernel folder only (:func:`cache.use_kernel_cache` sets the
  dispatcher's cache: checked folder, unreadable files are misses, in memory without a usable
  folder).
- ``nogil=True``: kernels run on the worker threads of ``threads.across_threads`` side by side,
  which needs the GIL released while they run. The few kernels written without it
  (``@kernel(nogil=False)``: called once from the main thread) keep their compiled wrapper.
- ``inline="always"`` on helpers: numba pastes a helper's code into each caller before typing,
  so a call costs nothing and the caller's own options apply to it; a helper's other options
  matter only when a test calls it from Python.
- ``error_model="numpy"`` on the kernels that run on threads and the functions they call
  un-inlined: no zero-divisor check (and exception path) on each integer division, whose
  divisors are never zero there, as numba compiles a parallel loop's body; Monte Carlo is about
  a tenth faster. Elsewhere numba's default (``"python"``).
- ``parallel``: only the range matchers of ``ranges._kernels`` run numba parallel loops
  (``prange``), with :data:`PRANGE_ONLY`: numba's other automatic parallelisation (array
  expressions, ``np.zeros`` and friends, loop fusion) only adds parallel regions around one-off
  allocations and gufuncs to compile.
- No ``fastmath`` anywhere (floating-point sums must add up in the written order: results are
  pinned to the last bit), and no ``boundscheck`` (numba's default: off, unless
  ``NUMBA_BOUNDSCHECK`` is set to debug).

A function's options are part of its compiled code: a kernel moved to another decorator may
compute differently. Every decorated function's module is recorded
(:func:`compiled_modules`); the kernel folder's name hashes the source of every module that
imports this one (``cache.compiled_sources``), whether this process imported it or not, so a
new kernel file needs nothing else.

Importing this module imports numba (about half a second): only the compiled modules import it,
and they are imported lazily, when a command computes.
"""

from __future__ import annotations

from collections.abc import Callable

import numba

from . import cache

# numba parallel options of ``parallel_kernel`` (see the module docstring).
PRANGE_ONLY = {"comprehension": False, "reduction": False, "inplace_binop": False, "setitem": False,
               "numpy": False, "stencil": False, "fusion": False}

_compiled_modules: set[str] = set()


def compiled_modules() -> frozenset[str]:
    """Names of the modules whose functions were compiled with these decorators in this
    process."""
    return frozenset(_compiled_modules)


def _compile(function: Callable, **options) -> Callable:
    """``numba.njit(**options)(function)`` cached in this tool's kernel folder, as
    ``njit(cache=True, ...)`` would cache it in numba's (numba's own ``cache=True`` only
    creates the dispatcher's cache object, which :func:`cache.use_kernel_cache` replaces)."""
    _compiled_modules.add(function.__module__)
    dispatcher = numba.njit(**options)(function)
    if dispatcher is not function:  # NUMBA_DISABLE_JIT=1 returns the Python function itself
        cache.use_kernel_cache(dispatcher)
    return dispatcher


def helper(function: Callable) -> Callable:
    """A compiled helper, inlined into the compiled functions that call it
    (``inline="always"``)."""
    return _compile(function, nogil=True, inline="always")


def kernel(function: Callable | None = None, *, nogil: bool = True) -> Callable:
    """A compiled function called from Python or, un-inlined, from other kernels. ``@kernel``
    releases the GIL while it runs; ``@kernel(nogil=False)`` keeps it."""
    options = {"nogil": True} if nogil else {}  # as those kernels were always compiled: no nogil key
    if function is None:
        return lambda function: _compile(function, **options)
    return _compile(function, **options)


def threaded_kernel(function: Callable) -> Callable:
    """A kernel that runs on worker threads (``threads.across_threads``), or a function such a
    kernel calls un-inlined: numpy's error model (no zero-divisor checks)."""
    return _compile(function, nogil=True, error_model="numpy")


def parallel_kernel(function: Callable) -> Callable:
    """A kernel with numba parallel loops (``prange``), parallelised in those loops only."""
    return _compile(function, parallel=dict(PRANGE_ONLY))  # numba consumes the dict it is given
