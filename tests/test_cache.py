"""The on-disk cache (omaha_equity/runtime/cache.py, evaluate/tables.py): damaged files are rebuilt and the
run goes on, kernels never land beside the sources, cleanup removes only this tool's own files.

The command runs in a subprocess with ``OMAHA_EQUITY_CACHE`` pointing into ``tmp_path``. Compiling
the kernels into an empty folder takes about a minute, so one warmed folder is made per module
and every test works on its own copy.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from omaha_equity.runtime import cache
from omaha_equity.evaluate import tables
from omaha_equity.rankings import store

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "omaha_equity"
QUERY = ["calc", "AsAhKsKh", "JdTd9c8c", "-b", "2c3d4h5s"]
# On the board 2c3d4h5s the aces and kings hold a straight to the ace (every river), the other
# hand at best the same straight's lower end: 100% / 0%, exact over the 40 rivers.
EXPECTED_ROW = "AsAhKsKh  100%"


def run_command(cache_folder: Path, *args: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, cache.CACHE_ENV: str(cache_folder)}
    return subprocess.run([sys.executable, "-m", "omaha_equity", *args], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=600)


def run_python(cache_folder: Path, code: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, cache.CACHE_ENV: str(cache_folder)}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True,
                          timeout=600)


def kernel_folder(cache_folder: Path) -> Path:
    return cache_folder / cache.numba_cache_dir().name


def tables_file(cache_folder: Path) -> Path:
    return cache_folder / tables.tables_path().name


def compiled_files(folder: Path) -> set[Path]:
    return {path for pattern in ("*.nbi", "*.nbc") for path in folder.rglob(pattern)}


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory) -> Path:
    """A cache folder holding the tables and the query's compiled kernels. The kernel folder of
    the cache the suite already uses is copied in when it exists (only to save the compile);
    the query then compiles whatever is missing."""
    folder = tmp_path_factory.mktemp("warm") / "cache"
    folder.mkdir()
    existing = cache.numba_cache_dir()
    if cache.is_marked(existing):
        shutil.copytree(existing, folder / existing.name)
    result = run_command(folder, *QUERY)
    assert result.returncode == 0, result.stderr
    assert EXPECTED_ROW in result.stdout
    assert tables_file(folder).is_file()
    return folder


@pytest.fixture
def cache_copy(warm_cache, tmp_path) -> Path:
    folder = tmp_path / "cache"
    shutil.copytree(warm_cache, folder)
    return folder


def test_warm_cache_runs_without_notice(cache_copy):
    result = run_command(cache_copy, *QUERY)
    assert result.returncode == 0, result.stderr
    assert EXPECTED_ROW in result.stdout
    assert result.stderr == ""
    assert cache.is_marked(kernel_folder(cache_copy))


def _one_file(folder: Path, pattern: str) -> Path:
    matches = sorted(folder.rglob(pattern))
    assert len(matches) == 1, f"expected one cached file {pattern} in {folder}, found {matches}"
    return matches[0]


# Two small kernels, so that recompiling them costs seconds: each call prints its result.
SMALL_KERNELS = (
    "from omaha_equity.evaluate import _kernels\n"
    "print(_kernels.low_rank_bit(12), _kernels.low_rank_bit(0), _kernels.bit_count(0b1011))\n"
)


def test_unreadable_kernel_files_are_removed_and_recompiled(cache_copy):
    first = run_python(cache_copy, SMALL_KERNELS)  # compiles and caches both for these arguments
    assert first.returncode == 0 and first.stdout.split() == ["1", "2", "3"], first.stderr
    folder = kernel_folder(cache_copy)
    empty_index = _one_file(folder, "*.low_rank_bit-*.nbi")
    empty_index.write_bytes(b"")  # a zero-byte index made click print "Aborted!" (EOFError)
    truncated_data = _one_file(folder, "*.bit_count-*.1.nbc")
    truncated_data.write_bytes(truncated_data.read_bytes()[:100])  # UnpicklingError before

    result = run_python(cache_copy, SMALL_KERNELS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1", "2", "3"]
    assert result.stderr.count("removed an unreadable cached kernel") == 1
    assert "Traceback" not in result.stderr
    assert empty_index.stat().st_size > 0
    assert truncated_data.stat().st_size > 100
    # the rebuilt files load: the next run neither recompiles nor complains
    again = run_python(cache_copy, SMALL_KERNELS)
    assert again.returncode == 0 and again.stdout.split() == ["1", "2", "3"] and again.stderr == ""


def test_unreadable_tables_file_is_rebuilt_and_only_own_files_are_cleaned(cache_copy):
    # a zero-byte file (click printed "Aborted!" on its EOFError); the other kinds of damage go
    # through the same read_tables, checked one by one below
    current = tables_file(cache_copy)
    content = current.read_bytes()
    current.write_bytes(b"")
    # this tool's tables file of another version, and files of the user's with the same names
    old_own = cache_copy / "tables-0123456789abcdef.npz"
    old_own.write_bytes(content)
    users_tables = cache_copy / "tables-mine.npz"
    np.savez(users_tables, data=np.arange(3))
    users_kernels = cache_copy / "numba-mine"
    users_kernels.mkdir()
    (users_kernels / "notes.txt").write_text("mine")
    old_own_kernels = cache_copy / "numba-0123456789abcdef"
    old_own_kernels.mkdir()
    (old_own_kernels / cache.MARKER_NAME).write_text(cache.MARKER_TEXT)
    long_ago = time.time() - (cache.STALE_AFTER_DAYS + 1) * 86400
    for folder in (users_kernels, old_own_kernels):
        os.utime(folder, (long_ago, long_ago))

    result = run_command(cache_copy, *QUERY)
    assert result.returncode == 0, result.stderr
    assert EXPECTED_ROW in result.stdout
    assert "Traceback" not in result.stderr and "Aborted" not in result.stderr
    assert tables.read_tables(current) is not None
    assert not old_own.exists() and not old_own_kernels.exists()
    assert users_tables.exists() and (users_kernels / "notes.txt").read_text() == "mine"
    assert cache.is_marked(kernel_folder(cache_copy))


@pytest.mark.parametrize("problem", ["not a folder", "another user"])
def test_without_a_usable_cache_kernels_compile_in_memory(tmp_path, problem):
    if problem == "not a folder":
        blocker = tmp_path / "file"
        blocker.write_text("")
        folder = blocker / "cache"
        expected = "cannot write to"
    else:
        if not hasattr(os, "getuid") or os.getuid() != 0:
            pytest.skip("giving a folder to another user needs root")
        folder = tmp_path / "cache"
        foreign = kernel_folder(folder)
        foreign.mkdir(parents=True)
        os.chown(foreign, 4242, 4242)
        expected = "belongs to another user"
    before = compiled_files(PACKAGE)
    code = (
        "from omaha_equity.evaluate import _kernels, tables\n"
        "assert _kernels.low_rank_bit(12) == 1 and _kernels.low_rank_bit(0) == 2 and _kernels.low_rank_bit(7) == 0\n"
        "assert tables.load_tables().low.shape == (256, 256)\n"
    )
    result = run_python(folder, code)
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("kernels are compiled in memory for this run") == 1
    assert expected in result.stderr
    assert compiled_files(PACKAGE) == before
    if problem == "another user":
        assert compiled_files(folder) == set() and not (foreign / cache.MARKER_NAME).exists()


def _tables_file(path: Path, **changed: np.ndarray) -> None:
    """A tables file as this tool writes it: the marker and the generated tables, with any
    table replaced by ``changed``."""
    arrays = {**tables.build_tables().__dict__, **changed}
    np.savez(path, **{tables.MARKER_KEY: np.array(tables.MARKER_VALUE)}, **arrays)


def test_generated_tables_match_the_digest_built_into_the_package():
    # a change to the generator must come with a new TABLES_DIGEST (else every cached file is rebuilt)
    assert tables.tables_digest(tables.build_tables()) == tables.TABLES_DIGEST


def test_read_tables_accepts_only_a_complete_marked_file_with_the_right_values(tmp_path):
    good = tmp_path / "good.npz"
    _tables_file(good)
    assert tables.read_tables(good) is not None
    content = good.read_bytes()
    middle = len(content) // 2
    damaged = {
        "missing": None,
        "empty": b"",
        "truncated": content[:middle],
        "garbage": bytes(range(256)) * 8,
        # one byte changed inside the stored (uncompressed) data: the zip's CRC catches it
        "flipped": content[:middle] + bytes([content[middle] ^ 0xFF]) + content[middle + 1:],
    }
    for name, data in damaged.items():
        path = tmp_path / f"{name}.npz"
        if data is not None:
            path.write_bytes(data)
        assert tables.read_tables(path) is None, name
    unmarked = tmp_path / "unmarked.npz"
    np.savez(unmarked, **tables.build_tables().__dict__)
    assert tables.read_tables(unmarked) is None
    for name, array in {"wrong_shape": np.zeros((255, 256), np.int16), "wrong_dtype": np.zeros((256, 256), np.int32),
                        # well formed, marked, CRC intact: only the digest tells
                        "changed_values": np.zeros((256, 256), np.int16)}.items():
        path = tmp_path / f"{name}.npz"
        _tables_file(path, low=array)
        assert tables.read_tables(path) is None, name
    link = tmp_path / "link.npz"
    link.symlink_to(good)
    assert tables.read_tables(link) is None  # not followed: it could lead anywhere (a FIFO, /dev/zero)
    fifo = tmp_path / "fifo.npz"
    if hasattr(os, "mkfifo"):
        os.mkfifo(fifo)
        assert tables.read_tables(fifo) is None  # and does not block


# Issue 15, item 16: the audit's query; tampered tables made it 49.82%.
TRUST_QUERY = ["calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s"]
TRUST_ROW = "AsAhKsKh  81.95%"


def _tamper(path: Path) -> None:
    built = tables.build_tables()
    _tables_file(path, pair_board=np.ascontiguousarray(built.pair_board[::-1]))  # the values of other boards
    assert tables.read_tables(path) is None


def _notices(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("omaha-equity:")]


def test_a_tampered_tables_file_is_rebuilt_with_one_notice(cache_copy):
    path = tables_file(cache_copy)
    _tamper(path)
    result = run_command(cache_copy, *TRUST_QUERY)
    assert result.returncode == 0, result.stderr
    assert TRUST_ROW in result.stdout
    assert _notices(result.stderr) == [f"omaha-equity: the cached lookup tables {path} did not match the package's "
                                       "digest (changed since written): rebuilt them"]
    assert tables.read_tables(path) is not None
    again = run_command(cache_copy, *TRUST_QUERY)
    assert TRUST_ROW in again.stdout and again.stderr == ""


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owner and mode bits")
def test_a_world_writable_cache_folder_of_ours_is_made_private_and_its_tables_checked(cache_copy):
    # the audit's case: a world-writable cache folder, the tables file changed (and given to
    # another user, when the tests run as root)
    cache_copy.chmod(0o777)
    path = tables_file(cache_copy)
    _tamper(path)
    if os.getuid() == 0:
        os.chown(path, 4242, 4242)
    result = run_command(cache_copy, *TRUST_QUERY)
    assert result.returncode == 0, result.stderr
    assert TRUST_ROW in result.stdout
    assert _notices(result.stderr) == [
        f"omaha-equity: {cache_copy} could be written by other users: made writable by you alone",
        f"omaha-equity: the cached lookup tables {path} did not match the package's digest (changed since "
        "written): rebuilt them",
    ]
    assert cache_copy.stat().st_mode & 0o777 == 0o755
    assert tables.read_tables(path) is not None and path.stat().st_uid == os.getuid()


def _untrusted_root_run(root: Path, reason: str):
    """The trust query with the cache folder ``root`` refused: right answer, one notice with
    ``reason``, nothing of the cache folder read or written."""
    before = {path: path.stat().st_mtime_ns for path in root.rglob("*")} if root.is_dir() else {}
    result = run_command(root, *TRUST_QUERY)
    assert result.returncode == 0, result.stderr
    assert TRUST_ROW in result.stdout
    notices = _notices(result.stderr)
    assert len(notices) == 1 and "kernels are compiled in memory for this run" in notices[0], result.stderr
    assert reason in notices[0]
    if root.is_dir():
        assert {path: path.stat().st_mtime_ns for path in root.rglob("*")} == before


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="giving a folder to another user needs root")
def test_a_cache_folder_of_another_user_that_others_can_write_is_not_used(cache_copy):
    _tamper(tables_file(cache_copy))
    os.chown(cache_copy, 4242, 4242)
    cache_copy.chmod(0o777)
    _untrusted_root_run(cache_copy, f"{cache_copy} belongs to another user")


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owner and mode bits")
def test_a_symbolic_link_as_cache_folder_is_not_used(cache_copy, tmp_path):
    _tamper(tables_file(cache_copy))
    link = tmp_path / "link"
    link.symlink_to(cache_copy)
    _untrusted_root_run(link, f"{link} is a symbolic link")
    assert tables.read_tables(tables_file(cache_copy)) is None  # the target was not touched either


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owner and mode bits")
def test_a_cache_folder_in_a_folder_anyone_can_write_is_not_used(tmp_path):
    # anyone could rename the cache folder (and the kernel folder checked in it) away
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    _untrusted_root_run(shared / "cache", f"{shared} can be written by anyone")
    assert not (shared / "cache").exists() or not any((shared / "cache").iterdir())


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owner and mode bits")
def test_the_cache_folder_is_created_private(fresh_kernel_state):
    root, reason = cache.cache_root_state()
    assert root == fresh_kernel_state and reason == ""
    assert root.stat().st_mode & 0o777 == 0o700


def test_damaged_ranking_file_raises_oserror(tmp_path):
    path = tmp_path / "omaha.full-ring.npz"
    store.write_ranking(path, np.arange(10, dtype=np.uint16), {"game": "omaha"})
    equity, header = store.read_ranking(path)
    assert equity.tolist() == list(range(10)) and header == {"game": "omaha"}
    content = path.read_bytes()
    for data in (b"", content[: len(content) // 2], content[:-1]):
        path.write_bytes(data)
        with pytest.raises(OSError, match="not a ranking file"):
            store.read_ranking(path)


@pytest.fixture
def fresh_kernel_state(monkeypatch, tmp_path):
    """``kernel_cache_state`` decided anew for a cache folder in ``tmp_path`` (and again after)."""
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    cache.cache_root_state.cache_clear()
    cache.kernel_cache_state.cache_clear()
    yield tmp_path / "cache"
    cache.cache_root_state.cache_clear()
    cache.kernel_cache_state.cache_clear()


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owner and mode bits")
def test_kernel_folder_is_created_private_and_marked(fresh_kernel_state):
    folder, reason = cache.kernel_cache_state()
    assert folder == kernel_folder(fresh_kernel_state) and reason == ""
    assert folder.stat().st_mode & 0o777 == 0o700
    assert (folder / cache.MARKER_NAME).read_text() == cache.MARKER_TEXT


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owner and mode bits")
def test_own_kernel_folder_writable_by_others_is_tightened(fresh_kernel_state):
    existing = kernel_folder(fresh_kernel_state)
    existing.mkdir(parents=True)
    existing.chmod(0o777)
    folder, reason = cache.kernel_cache_state()
    assert folder == existing and reason == ""
    assert existing.stat().st_mode & 0o777 == 0o755


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owner and mode bits")
def test_inside_the_kernel_folder_writable_folders_are_tightened_writable_files_removed(fresh_kernel_state, capsys):
    existing = kernel_folder(fresh_kernel_state)
    inner = existing / "equity"
    inner.mkdir(parents=True)
    inner.chmod(0o777)
    kernel_file = inner / "_kernels.enumerate_boards-1.py311.nbi"
    kernel_file.write_bytes(b"anyone could have written this")
    kernel_file.chmod(0o666)
    kept = inner / "_kernels.sample_boards-1.py311.nbi"
    kept.write_bytes(b"ours")
    kept.chmod(0o644)
    folder, reason = cache.kernel_cache_state()
    assert folder == existing and reason == ""
    assert inner.stat().st_mode & 0o777 == 0o755
    assert not kernel_file.exists() and kept.read_bytes() == b"ours"
    assert capsys.readouterr().err.count("removed cached kernel files others could write") == 1


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owner and mode bits")
def test_a_symbolic_link_inside_the_kernel_folder_makes_it_untrusted(fresh_kernel_state, tmp_path):
    existing = kernel_folder(fresh_kernel_state)
    existing.mkdir(parents=True)
    (existing / "equity").symlink_to(tmp_path)
    folder, reason = cache.kernel_cache_state()
    assert folder is None and "is a symbolic link" in reason


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owner and mode bits")
def test_saved_kernels_are_writable_by_their_owner_alone_whatever_the_umask(tmp_path):
    # a group-writable umask must not make the next run distrust (and remove) our own files
    code = (
        "import os\n"
        "os.umask(0o002)\n"
        "from omaha_equity.evaluate import _kernels\n"
        "assert _kernels.low_rank_bit(12) == 1\n"
    )
    result = run_python(tmp_path / "cache", code)
    assert result.returncode == 0, result.stderr
    saved = [path for path in kernel_folder(tmp_path / "cache").rglob("*") if path.suffix in (".nbi", ".nbc")]
    assert saved and all(path.stat().st_mode & 0o022 == 0 for path in saved)
    again = run_python(tmp_path / "cache", code)
    assert again.returncode == 0 and "removed cached kernel files" not in again.stderr


def test_numba_s_runtime_is_cached_and_a_damaged_copy_silently_rebuilt(cache_copy):
    # cache.initialize_runtime: numba's runtime functions are loaded from the kernel folder
    runtime = _one_file(kernel_folder(cache_copy), f"{cache.RUNTIME_FILE_PREFIX}*{cache.RUNTIME_FILE_SUFFIX}")
    assert runtime.stat().st_mode & 0o077 == 0  # private, as the kernels
    runtime.write_bytes(runtime.read_bytes()[:100])
    result = run_command(cache_copy, *QUERY)
    assert result.returncode == 0 and EXPECTED_ROW in result.stdout and result.stderr == ""
    assert runtime.stat().st_size > 100  # written again whole
    again = run_command(cache_copy, *QUERY)
    assert again.returncode == 0 and EXPECTED_ROW in again.stdout and again.stderr == ""


def test_the_kernel_folder_hash_covers_every_compiled_module_and_nothing_compiles_around_the_decorators():
    # Every module whose functions the decorators of runtime/numba.py compiled is among the
    # sources the kernel folder's name hashes, found without importing them, and no module
    # calls numba's jit itself (its kernels would miss the kernel folder).
    import importlib
    import pkgutil

    import omaha_equity
    from omaha_equity.runtime import numba as compiled

    for module in pkgutil.walk_packages(omaha_equity.__path__, "omaha_equity."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    compiled_files = {name.removeprefix("omaha_equity.").replace(".", "/") + ".py"
                      for name in compiled.compiled_modules()}
    assert compiled_files == set(cache.compiled_sources())
    assert {"pots.py", "evaluate/_kernels.py", "runtime/random_state.py", "ranges/_kernels.py"} <= compiled_files
    for path in PACKAGE.rglob("*.py"):
        if path != PACKAGE / "runtime" / "numba.py":
            assert "njit" not in path.read_text() and "numba.jit" not in path.read_text(), path
