"""Where cached files live, and the one-line notice of a cold first run.

Lookup tables are saved in the cache folder; numba caches compiled kernels beside the
package (``__pycache__``). A marker file records that this installation has compiled its
kernels once, so a cold run can say why it is slow.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

CACHE_ENV = "OMAHA_EQUITY_CACHE"
_PACKAGE_DIR = Path(__file__).resolve().parent


def cache_dir() -> Path:
    """``$OMAHA_EQUITY_CACHE``, else ``$XDG_CACHE_HOME/omaha-equity``, else
    ``~/.cache/omaha-equity``."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "omaha-equity"


# The modules numba compiles (and the table generator): a change to one means a slow run.
_COMPILED_SOURCES = ("pots.py", "evaluate/_kernels.py", "evaluate/tables.py", "equity/_kernels.py")


def _kernel_fingerprint() -> str:
    """Hash of this installation's kernel sources and location: a new install or a changed
    kernel means numba compiles again."""
    digest = hashlib.sha256(str(_PACKAGE_DIR).encode())
    for name in _COMPILED_SOURCES:
        digest.update((_PACKAGE_DIR / name).read_bytes())
    return digest.hexdigest()[:16]


def _marker() -> Path:
    return cache_dir() / f"compiled-{_kernel_fingerprint()}"


def announce_cold_start() -> bool:
    """Print one line to stderr if kernels were never compiled by this installation.

    Returns True when it printed (the caller then calls :func:`mark_warm` after success).
    """
    try:
        if _marker().exists():
            return False
    except OSError:
        return False
    print(
        "omaha-equity: first run: building lookup tables and compiling kernels (cached; up to a minute)...",
        file=sys.stderr,
    )
    return True


def mark_warm() -> None:
    try:
        marker = _marker()
        marker.parent.mkdir(parents=True, exist_ok=True)
        for stale in marker.parent.glob("compiled-*"):
            stale.unlink(missing_ok=True)
        marker.touch()
    except OSError:
        pass
