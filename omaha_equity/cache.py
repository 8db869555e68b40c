"""Where cached files live, and the one-line notice of a cold first run.

Two things are cached under :func:`cache_dir`: the lookup tables (``evaluate/tables.py``) and
numba's compiled kernels. Numba keys its cache on the source file of each compiled function
only, so a kernel whose callee (in another file) changed would load stale machine code; the
kernels are therefore cached in a folder named after a hash of all compiled sources. Several
installations (versions) can share the cache folder; a kernel folder unused for
``STALE_AFTER_DAYS`` is removed.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

CACHE_ENV = "OMAHA_EQUITY_CACHE"
_PACKAGE_DIR = Path(__file__).resolve().parent
# The modules numba compiles, and the table generator.
_COMPILED_SOURCES = (
    "pots.py", "evaluate/_kernels.py", "evaluate/tables.py", "equity/_kernels.py", "equity/_range_kernels.py",
    "ranges/_kernels.py", "rankings/_generate.py", "rankings/_class_kernels.py",
    "equity/_allin_kernels.py",
    "studies/_kernels.py",
)


def cache_dir() -> Path:
    """``$OMAHA_EQUITY_CACHE``, else ``$XDG_CACHE_HOME/omaha-equity``, else
    ``~/.cache/omaha-equity``."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "omaha-equity"


STALE_AFTER_DAYS = 30


@functools.cache
def _kernel_fingerprint() -> str:
    digest = hashlib.sha256()
    for name in _COMPILED_SOURCES:
        path = _PACKAGE_DIR / name
        if path.exists():
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def numba_cache_dir() -> Path:
    """Folder of this installation's compiled kernels."""
    return cache_dir() / f"numba-{_kernel_fingerprint()}"


def redirect_numba_cache() -> str:
    """Point numba's cache at :func:`numba_cache_dir` while a kernel module defines its
    functions (numba fixes a function's cache folder when it is decorated). Returns the
    previous setting for :func:`restore_numba_cache`, so other numba users are unaffected."""
    import numba

    previous = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(numba_cache_dir())
    return previous


def restore_numba_cache(previous: str) -> None:
    import numba

    numba.config.CACHE_DIR = previous


_announced = False
# Kernel names already looked for in this process (callers that run thousands of small
# queries, such as the hand-history replay, should not scan the cache folder each time).
_checked_kernels: set[str] = set()
_marked_in_use = False


def announce_compiling(kernel_names) -> None:
    """Print one line to stderr (once per process) if one of these kernels has never been
    compiled by this version: the run will take a while."""
    global _announced
    if _announced or _checked_kernels.issuperset(kernel_names):
        return
    _checked_kernels.update(kernel_names)
    folder = numba_cache_dir()
    try:
        cached = {path.name for path in folder.rglob("*.nbi")}
    except OSError:
        cached = set()
    missing = [name for name in kernel_names if not any(f".{name}-" in file_name for file_name in cached)]
    if missing:
        _announced = True
        print("omaha-equity: first use: building lookup tables and compiling kernels (cached; up to a minute)...",
              file=sys.stderr)


def mark_in_use() -> None:
    """Note that this version's kernel folder was used, and remove folders of other versions
    unused for ``STALE_AFTER_DAYS`` (once per process)."""
    global _marked_in_use
    if _marked_in_use:
        return
    _marked_in_use = True
    current = numba_cache_dir()
    try:
        if current.is_dir():
            os.utime(current)
        now = time.time()
        for folder in current.parent.glob("numba-*"):
            if folder != current and now - folder.stat().st_mtime > STALE_AFTER_DAYS * 86400:
                shutil.rmtree(folder, ignore_errors=True)
    except OSError:
        pass
