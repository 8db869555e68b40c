"""Where cached files live, and the one-line notice of a cold first run.

Two things are cached under :func:`cache_dir`: the lookup tables (``evaluate/tables.py``) and
numba's compiled kernels. Numba keys its cache on the source file of each compiled function
only, so a kernel whose callee (in another file) changed would load stale machine code; the
kernels are therefore cached in a folder named after a hash of all compiled sources and of
this installation's location, and older folders are removed.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import sys
from pathlib import Path

CACHE_ENV = "OMAHA_EQUITY_CACHE"
_PACKAGE_DIR = Path(__file__).resolve().parent
# The modules numba compiles, and the table generator.
_COMPILED_SOURCES = (
    "pots.py", "evaluate/_kernels.py", "evaluate/tables.py", "equity/_kernels.py", "equity/_range_kernels.py",
)


def cache_dir() -> Path:
    """``$OMAHA_EQUITY_CACHE``, else ``$XDG_CACHE_HOME/omaha-equity``, else
    ``~/.cache/omaha-equity``."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "omaha-equity"


@functools.cache
def _kernel_fingerprint() -> str:
    digest = hashlib.sha256(str(_PACKAGE_DIR).encode())
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


def announce_cold_start() -> bool:
    """Print one line to stderr if this installation's kernels were never compiled.

    Returns True when it printed (the caller then calls :func:`mark_warm` after success).
    """
    folder = numba_cache_dir()
    if folder.is_dir() and any(folder.rglob("*.nbi")):
        return False
    print(
        "omaha-equity: first run: building lookup tables and compiling kernels (cached; up to a minute)...",
        file=sys.stderr,
    )
    return True


def mark_warm() -> None:
    """Remove compiled-kernel folders of other versions of the sources."""
    current = numba_cache_dir()
    for folder in current.parent.glob("numba-*"):
        if folder != current:
            shutil.rmtree(folder, ignore_errors=True)
