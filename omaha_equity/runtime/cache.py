"""Where cached files live, how numba's compiled kernels are cached, and the cache notices.

Two things are cached under :func:`cache_dir`: the lookup tables (``evaluate/tables.py``) and
numba's compiled kernels. Compiled kernels are machine code that runs as the user, so:

- they are cached only in this tool's own kernel folder, never beside the package sources (numba
  would otherwise fall back to the package's ``__pycache__``, keyed on each source file alone);
- numba keys a cached kernel on its own source file only, so a kernel whose callee (in another
  file) changed would load stale machine code: the kernel folder is named after a hash of all
  compiled sources (``numba-<hash>``);
- the kernel folder must belong to the user and be writable by nobody else; when it cannot be
  created, written or trusted, kernels are compiled in memory for the run (said once on stderr);
- a cache file that cannot be read (truncated, corrupted, empty) is a cache miss: it is removed
  and the kernel recompiled, said once on stderr;
- every folder this tool creates holds a marker file (:data:`MARKER_NAME`), and cleanup removes
  only marked folders: a user's own ``numba-*`` folder in the cache folder is never touched;
- the cache folder itself (:func:`cache_root_state`) must be a real folder (not a symbolic link)
  of this user (or of root) that nobody else can write, in a folder that not everyone can write
  (without the sticky bit): whoever can write there could rename the checked kernel folder away
  and put their own in its place. Our own folder writable by others is made private (said once);
  any other problem means nothing is read from or written to the cache for the run;
- the lookup tables read back are checked against a digest built into the package
  (``evaluate/tables.py``), so a changed file is caught whoever owns it.

Several installations (versions) can share the cache folder; a marked kernel folder unused for
``STALE_AFTER_DAYS`` is removed.

The decorators of ``runtime/numba.py`` give each compiled function this module's cache
(:func:`use_kernel_cache`) instead of numba's default one.
"""

from __future__ import annotations

import contextlib
import functools
import glob
import hashlib
import os
import re
import shutil
import stat
import sys
import tempfile
import time
from pathlib import Path

from ..errors import ClosedPipeError, OutputError

CACHE_ENV = "OMAHA_EQUITY_CACHE"
# The package this module belongs to (omaha_equity, one folder up from runtime/).
_PACKAGE_DIR = Path(__file__).resolve().parent.parent
_PACKAGE_NAME = __name__.split(".")[0]
# A line that imports the decorators of runtime/numba.py (relatively, from runtime/ or from any
# depth elsewhere, or by the full name): its module is one that numba compiles.
_COMPILED_MODULE_IMPORT = re.compile(
    rb"^from (?:\.+(?:runtime\.)?|" + _PACKAGE_NAME.encode() + rb"\.runtime\.)numba import", re.MULTILINE)
# Written into every folder this tool creates in the cache folder; cleanup removes only folders
# that hold it.
MARKER_NAME = ".omaha-equity-cache"
MARKER_TEXT = (
    "Created by omaha-equity: compiled kernels (machine code that runs as the user).\n"
    "Removed by omaha-equity when unused for 30 days; safe to delete at any time.\n"
)
STALE_AFTER_DAYS = 30


def read_only(array):
    """A read-only view of the numpy ``array`` (no copy). A kernel that only reads an argument
    gets it this way from every caller: numba compiles a writeable and a read-only array as two
    signatures, each a compile on a first run (seconds)."""
    view = array.view()
    view.flags.writeable = False
    return view


def cache_dir() -> Path:
    """``$OMAHA_EQUITY_CACHE``, else ``$XDG_CACHE_HOME/omaha-equity``, else
    ``~/.cache/omaha-equity``."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "omaha-equity"


def compiled_sources() -> dict[str, bytes]:
    """The source of every module of the package that numba compiles (those that import the
    decorators of ``runtime/numba.py``), by path relative to the package folder (``/``-separated),
    in path order. Read from the package folder, imported or not: about a hundred small files,
    a few milliseconds, once per process (:func:`numba_cache_dir`)."""
    paths = []
    for folder, folders, files in os.walk(_PACKAGE_DIR):
        folders[:] = [name for name in folders if name != "__pycache__"]
        paths.extend(os.path.join(folder, name) for name in files if name.endswith(".py"))
    sources = {}
    for path in sorted(paths):
        with open(path, "rb") as file:
            source = file.read()
        if b"numba import" in source and _COMPILED_MODULE_IMPORT.search(source):
            sources[Path(path).relative_to(_PACKAGE_DIR).as_posix()] = source
    return sources


@functools.cache
def _kernel_fingerprint() -> str:
    """Hash of every compiled module's source: numba keys a cached kernel on its own source file
    only, and a process imports only some of the compiled modules, yet all of them share the
    one kernel folder."""
    digest = hashlib.sha256()
    for source in compiled_sources().values():
        digest.update(source)
    return digest.hexdigest()[:16]


def numba_cache_dir() -> Path:
    """Folder of this installation's compiled kernels."""
    return cache_dir() / f"numba-{_kernel_fingerprint()}"


def is_marked(folder: Path) -> bool:
    """Whether ``folder`` was created by this tool (holds the marker file; symlinks are not)."""
    return folder.is_dir() and not folder.is_symlink() and (folder / MARKER_NAME).is_file()


def _write_marker(folder: Path) -> None:
    marker = folder / MARKER_NAME
    if marker.is_file():
        return
    temporary = folder / f"{MARKER_NAME}.{os.getpid()}.tmp"
    temporary.write_text(MARKER_TEXT)
    os.chmod(temporary, 0o644)  # whatever the umask: a file others could write is removed (_trust_problem)
    os.replace(temporary, marker)


def _trust_problem(folder: Path) -> str | None:
    """Why the kernels in ``folder`` cannot be trusted, or None. Loading a cached kernel runs its
    machine code, so the folder and everything in it must belong to this user and be writable
    by nobody else: a folder writable by the group or others is tightened, such a file is
    removed (someone may have changed it; the kernel is compiled again), and an entry of
    another user or a symbolic link (it could lead anywhere) makes the whole folder untrusted."""
    if not hasattr(os, "getuid"):  # Windows: no POSIX owner and mode bits to check
        return None
    user = os.getuid()
    entries = [folder]
    for root, folders, files in os.walk(folder):
        entries.extend(Path(root, name) for name in folders + files)
    for entry in entries:
        status = entry.lstat()
        if entry.is_symlink():
            return f"{entry} is a symbolic link"
        if status.st_uid != user:
            return f"{entry} belongs to another user"
        if status.st_mode & 0o022 and entry.is_dir():
            # ours, but group- or world-writable (an old folder or a permissive umask): tighten it
            os.chmod(entry, status.st_mode & ~0o022)
        elif status.st_mode & 0o022:
            entry.unlink()
            notify_once("writable", f"removed cached kernel files others could write ({entry.name}, ...); "
                                     "compiling them again")
    return None


def _root_problem(root: Path) -> str | None:
    """Why the cache folder ``root`` (which exists) cannot be trusted, or None; an own folder
    others can write is made private first (said once)."""
    status = os.lstat(root)
    if stat.S_ISLNK(status.st_mode):
        return f"{root} is a symbolic link (set {CACHE_ENV} to the folder itself)"
    if not stat.S_ISDIR(status.st_mode):
        return f"{root} is not a folder"
    if not hasattr(os, "getuid"):  # Windows: no POSIX owner and mode bits to check
        return None
    user = os.getuid()
    if status.st_uid not in (user, 0):
        return f"{root} belongs to another user"
    if status.st_mode & 0o022:
        if status.st_uid != user:
            return f"{root} can be written by other users"
        os.chmod(root, stat.S_IMODE(status.st_mode) & ~0o022)
        notify_once("root", f"{root} could be written by other users: made writable by you alone")
    parent = os.stat(root.parent)
    if parent.st_mode & 0o002 and not parent.st_mode & stat.S_ISVTX:
        # anyone could rename the cache folder away and put another in its place
        return f"{root.parent} can be written by anyone (it has no sticky bit)"
    return None


@functools.cache
def cache_root_state() -> tuple[Path | None, str]:
    """``(root, "")`` when the cache folder :func:`cache_dir` can be trusted (created private if
    missing; see the module docstring); ``(None, reason)`` when nothing may be read from or
    written to it this run. Decided once per process (a few ``lstat`` calls)."""
    root = cache_dir()
    try:
        if not os.path.lexists(root):
            root.parent.mkdir(parents=True, exist_ok=True)
            root.mkdir(mode=0o700, exist_ok=True)
        problem = _root_problem(root)
    except OSError as error:
        return None, f"cannot write to {root} ({error.strerror or error})"
    return (None, problem) if problem else (root, "")


@functools.cache
def kernel_cache_state() -> tuple[Path | None, str]:
    """``(folder, "")`` when compiled kernels can be cached in ``folder`` (in a trusted cache
    folder, created with the marker, owned by this user, writable by nobody else, writable by
    us); ``(None, reason)`` when they must be compiled in memory for this run. Decided once per
    process."""
    root, problem = cache_root_state()
    if root is None:
        return None, problem
    folder = numba_cache_dir()
    try:
        if not os.path.lexists(folder):
            folder.mkdir(mode=0o700, exist_ok=True)
        if folder.is_symlink() or not folder.is_dir():
            return None, f"{folder} is not a folder"
        problem = _trust_problem(folder)
        if problem:
            return None, problem
        _write_marker(folder)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as error:
        return None, f"cannot write to {folder} ({error.strerror or error})"
    return folder, ""


_notices: set[str] = set()


def notify_once(key: str, text: str) -> None:
    """Print ``omaha-equity: text`` on stderr, once per process for each ``key``. A notice that
    cannot be written (stderr full or closed) is dropped: it must not stop the work."""
    if key not in _notices:
        _notices.add(key)
        try:
            print(f"omaha-equity: {text}", file=sys.stderr)
        except (OSError, OutputError, ClosedPipeError):
            pass


def notify_not_cached() -> None:
    """Say once that compiled kernels are not cached this run, and why (see
    :func:`kernel_cache_state`)."""
    notify_once("memory", (
        f"kernels are compiled in memory for this run, not cached: {kernel_cache_state()[1]}; "
        f"set {CACHE_ENV} to a folder of your own (compiling takes up to a minute)..."
    ))


@functools.cache
def _numba_cache_classes():
    """numba's cache classes specialised for this package (built on first use: numba is
    imported lazily)."""
    from numba.core.caching import CompileResultCacheImpl, FunctionCache, NullCache, UserProvidedCacheLocator

    class KernelCacheLocator(UserProvidedCacheLocator):
        """Every kernel of this package is cached under the kernel folder, in a subfolder per
        source folder (numba's own naming), and never anywhere else."""

        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            folder, _ = kernel_cache_state()
            self._cache_path = os.path.join(folder, self.get_suitable_cache_subpath(py_file))

        @classmethod
        def from_function(cls, py_func, py_file):
            if kernel_cache_state()[0] is None:
                return None
            # numba's source-file locator: checks the file exists and the folder is writable,
            # without UserProvidedCacheLocator's test of numba.config.CACHE_DIR
            return super(UserProvidedCacheLocator, cls).from_function(py_func, py_file)

    class KernelCacheImpl(CompileResultCacheImpl):
        _locator_classes = [KernelCacheLocator]

    class KernelCache(FunctionCache):
        """numba's per-function cache, where a file that cannot be read is a miss: it is
        removed and the kernel recompiled (and saved again). A failed save leaves no file.

        Loading skips numba's refresh of the whole target context (importing and registering
        every typing and lowering module: about 0.07 s of each warm command, half the cost of
        loading the first kernel). Rebuilding a cached kernel needs only numba's runtime (NRT)
        whose functions the machine code calls (:func:`initialize_runtime`, itself cached); a
        compile refreshes the context itself. Nor does
        it import numba's own modules behind the helpers a kernel calls (``np.empty`` is
        ``numba.np.arrayobj``, 0.06 s of imports): :func:`_environments_without_imports`.
        Should that ever fail, numba's own loading is tried before the file counts as
        unreadable."""

        _impl_class = KernelCacheImpl

        def load_overload(self, sig, target_context):
            initialize_runtime(target_context)
            try:
                with self._guard_against_spurious_io_errors(), _environments_without_imports():
                    return self._load_overload(sig, target_context)
            except Exception:  # noqa: BLE001 (numba's own way below decides)
                pass
            try:
                return super().load_overload(sig, target_context)
            except Exception as error:  # noqa: BLE001 (any unreadable cache file is a miss)
                self._remove_files()
                notify_once("unreadable", (
                    f"removed an unreadable cached kernel ({self._impl.filename_base}: "
                    f"{type(error).__name__}); recompiling (up to a minute)..."
                ))
                return None

        def save_overload(self, sig, data):
            try:
                super().save_overload(sig, data)
                # writable by us alone whatever the umask: a file others could write is not
                # trusted on the next run (_trust_problem)
                for path in self._files():
                    os.chmod(path, os.stat(path).st_mode & ~0o022)
            except Exception:  # noqa: BLE001 (not saving only costs a compile next run)
                self._remove_files()

        def _files(self) -> list[str]:
            """This function's index and data files."""
            base = glob.escape(os.path.join(self._cache_path, self._impl.filename_base))
            return glob.glob(base + ".nbi") + glob.glob(base + ".*.nbc")

        def _remove_files(self):
            """Remove this function's index and data files."""
            for path in self._files():
                try:
                    os.unlink(path)
                except OSError:
                    pass

    class InMemoryCache(NullCache):
        """No cache: kernels compile in memory for this run; the first compile says so."""

        def load_overload(self, sig, target_context):
            notify_not_cached()
            return None

    return KernelCache, InMemoryCache


RUNTIME_FILE_PREFIX = "runtime-"
RUNTIME_FILE_SUFFIX = ".nrt"


def initialize_runtime(target_context) -> None:
    """Make numba's runtime (NRT: the reference counting and allocation functions compiled
    kernels call) ready, as ``numba.core.runtime.rtsys.initialize`` does, with its few compiled
    functions loaded from the kernel folder instead of compiled by LLVM in every process (about
    0.04 s of each warm command). The file is keyed on numba's and llvmlite's versions and the
    machine (numba's codegen ``magic_tuple``) and written the first time. Without a usable kernel
    folder, with numba's allocation statistics on, or should anything fail, numba's own
    initialization runs."""
    from numba.core import config
    from numba.core.runtime import rtsys

    if rtsys._init:
        return
    folder, _ = kernel_cache_state()
    if folder is None or config.NRT_STATS:
        rtsys.initialize(target_context)
        return
    try:
        _initialize_cached_runtime(folder, target_context)
    except Exception:  # noqa: BLE001 (numba's own initialization decides)
        rtsys.initialize(target_context)


def _initialize_cached_runtime(folder: Path, target_context) -> None:
    import pickle

    import llvmlite
    import numba
    from llvmlite import binding
    from numba.core.compiler_lock import global_compiler_lock
    from numba.core.runtime import _nrt_python, nrtdynmod, rtsys

    codegen = target_context.codegen()
    key = hashlib.sha256(repr((numba.__version__, llvmlite.__version__, codegen.magic_tuple())).encode())
    path = folder / f"{RUNTIME_FILE_PREFIX}{key.hexdigest()[:16]}{RUNTIME_FILE_SUFFIX}"
    with global_compiler_lock:
        if rtsys._init:
            return
        for name, address in _nrt_python.c_helpers.items():  # as rtsys.initialize registers them
            binding.add_symbol(name if name.startswith("_") else f"NRT_{name}", address)
        library = None
        try:
            with open(os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)), "rb") as file:
                library = codegen.unserialize_library(pickle.load(file))
        except FileNotFoundError:
            pass
        except Exception:  # noqa: BLE001 (an unreadable file is compiled and written again)
            path.unlink(missing_ok=True)
        if library is None:
            module, library = nrtdynmod.create_nrt_module(target_context)
            library.enable_object_caching()
            library.add_ir_module(module)
            library.finalize()
            temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            try:
                with open(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as file:
                    pickle.dump(library.serialize_using_object_code(), file, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(temporary, path)
            except OSError:  # not saving only costs this compile next time
                temporary.unlink(missing_ok=True)
        rtsys._library = library
        rtsys._init = True


@contextlib.contextmanager
def _environments_without_imports():
    """While a cached kernel is unpickled: the environment of a compiled helper that lives in a
    numba module not imported yet (numba's ``np.empty`` and friends are jitted functions of
    ``numba.np.arrayobj``) gets a namespace holding only the module's name, instead of the
    module, imported for it. An environment's namespace serves object-mode code alone (numba's
    ``pylowering``); the package's kernels are nopython code, which reads only its constants.
    The unpickling runs under numba's compiler lock, so nothing else sees the swap."""
    from numba.core import environment

    rebuild = environment._rebuild_env

    def rebuild_without_import(module_name, constants, environment_name):
        if module_name in sys.modules or not module_name.startswith("numba."):
            return rebuild(module_name, constants, environment_name)
        found = environment.lookup_environment(environment_name)
        if found is not None:
            return found
        created = environment.Environment({"__name__": module_name})
        created.consts[:] = constants
        created.env_name = environment_name
        environment.Environment._memo[environment_name] = created
        return created

    environment._rebuild_env = rebuild_without_import
    try:
        yield
    finally:
        environment._rebuild_env = rebuild


def use_kernel_cache(dispatcher) -> None:
    """Give a numba ``dispatcher`` of this package :class:`KernelCache` (or compile it in memory
    when the kernel folder cannot be used), where numba's ``cache=True`` would give it numba's
    own cache. Called by the decorators of ``runtime/numba.py`` for every function they
    compile."""
    import numba

    dispatcher.typeof_pyval = functools.partial(_typeof_argument, dispatcher.typeof_pyval)
    kernel_cache, in_memory_cache = _numba_cache_classes()
    # numba lets NUMBA_CACHE_LOCATOR_CLASSES replace every locator list: not for these kernels
    locators = getattr(numba.config, "CACHE_LOCATOR_CLASSES", None)
    if locators:
        numba.config.CACHE_LOCATOR_CLASSES = ""
    try:
        dispatcher._cache = kernel_cache(dispatcher.py_func)
    except RuntimeError:  # no locator: the kernel folder cannot be used
        dispatcher._cache = in_memory_cache()
    finally:
        if locators:
            numba.config.CACHE_LOCATOR_CLASSES = locators


def _typeof_argument(typeof_pyval, value):
    """numba's type of a kernel argument, for a plain numpy array without numba's check that it
    is not a masked array: that check imports ``numpy.ma`` (0.02 s of the first kernel call of
    each process), and a value whose type is exactly ``ndarray`` is none. The same type numba's
    ``typeof`` gives (``numba.core.typing.typeof._typeof_ndarray``); anything else goes to
    ``typeof_pyval``, the dispatcher's own."""
    import numpy as np
    from numba.core import types
    from numba.np import numpy_support

    if type(value) is not np.ndarray:
        return typeof_pyval(value)
    return types.Array(numpy_support.from_dtype(value.dtype), value.ndim, numpy_support.map_layout(value),
                       readonly=not value.flags.writeable)


# Kernel names already looked for in this process (callers that run thousands of small
# queries, such as the hand-history replay, should not scan the cache folder each time).
_checked_kernels: set[str] = set()
_marked_in_use = False


def announce_compiling(kernel_names) -> None:
    """Print one line to stderr (once per process) if one of these kernels has never been
    compiled by this version: the run will take a while. (Without a usable kernel folder, the
    first in-memory compile says so instead.)"""
    if "compiling" in _notices or _checked_kernels.issuperset(kernel_names):
        return
    _checked_kernels.update(kernel_names)
    folder, _ = kernel_cache_state()
    if folder is None:
        return
    try:
        cached = {path.name for path in folder.rglob("*.nbi")}
    except OSError:
        cached = set()
    missing = [name for name in kernel_names if not any(f".{name}-" in file_name for file_name in cached)]
    if missing:
        notify_once("compiling",
                     "first use: building lookup tables and compiling kernels (cached; up to a minute)...")


def mark_in_use() -> None:
    """Note that this version's kernel folder was used, and remove kernel folders of other
    versions unused for ``STALE_AFTER_DAYS`` (once per process). Only folders holding the
    marker are touched."""
    global _marked_in_use
    if _marked_in_use:
        return
    _marked_in_use = True
    if kernel_cache_state()[0] is None:  # an untrusted or unusable cache folder is left alone
        return
    current = numba_cache_dir()
    try:
        if is_marked(current):
            os.utime(current)
        now = time.time()
        for folder in current.parent.glob("numba-*"):
            if folder != current and is_marked(folder) and now - folder.stat().st_mtime > STALE_AFTER_DAYS * 86400:
                shutil.rmtree(folder, ignore_errors=True)
    except OSError:
        pass
