"""Files the user names for output (`ev --summary FILE`, `convert -o FILE`) under a full disk
(issue 15, item 14, as a fresh-clone tester found it): one line ``no space left writing 'FILE'``,
exit code 1, and nothing half-written under the file's name: the output goes to a temporary
file renamed when complete, removed on failure; a device (``/dev/full``) is written in place,
never renamed over."""

from __future__ import annotations

import os
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from omaha_equity.cli import main
from omaha_equity.errors import OutputError
from omaha_equity.runtime.output_files import output_file

ROOT = Path(__file__).parent.parent
QUIRKS = ROOT / "tests" / "data" / "pokerstars-quirks"
ONE_HAND = QUIRKS / "converted-unmatched-bet.txt"  # one hand, no all-in: fast to replay
FULL_DEVICE = (1, 7)  # Linux's /dev/full: every write fails with ENOSPC


@pytest.fixture
def full_device(tmp_path) -> Path:
    """A /dev/full of the test's own (a code that renamed a file over it, as root can, would
    replace this node, not the system's), or /dev/full itself where nodes cannot be made."""
    node = tmp_path / "full"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(*FULL_DEVICE))
        with open(node, "w") as probe:
            probe.write("x")
            probe.flush()
    except PermissionError:
        if os.geteuid() == 0 or not Path("/dev/full").exists():
            pytest.skip("needs a device that is always full")
        return Path("/dev/full")
    except OSError as error:
        if error.errno != 28:
            pytest.skip("needs a device that is always full")
    return node


def _is_full_device(path: Path) -> bool:
    status = path.stat()
    return stat.S_ISCHR(status.st_mode) and (os.major(status.st_rdev), os.minor(status.st_rdev)) == FULL_DEVICE


@pytest.mark.parametrize("format_name", ["csv", "table", "json"])
def test_ev_summary_to_a_full_device_is_one_line_and_exit_1(full_device, format_name):
    result = CliRunner().invoke(main, ["ev", str(QUIRKS), "-f", format_name, "--summary", str(full_device)])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == f"Error: no space left writing {str(full_device)!r}"
    assert _is_full_device(full_device)  # written in place, not replaced by a regular file


def _run_with_file_size_limit(arguments: list[str], limit: int) -> subprocess.CompletedProcess:
    def limit_file_size():  # a file that cannot grow past the limit: a disk that fills up
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    # No .pyc files from a process that cannot write past the limit: Python renames a short write
    # into place, and a truncated .pyc breaks that module's import in every later process.
    return subprocess.run([sys.executable, "-m", "omaha_equity", *arguments], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, preexec_fn=limit_file_size,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})


@pytest.mark.parametrize("format_name", ["csv", "table", "json"])
def test_ev_summary_on_a_disk_that_fills_up_is_one_line_and_no_file(tmp_path, format_name):
    summary = tmp_path / "players.txt"
    summary.write_text("the earlier summary\n")
    result = _run_with_file_size_limit(["ev", str(QUIRKS), "-f", format_name, "--summary", str(summary)], 40)
    assert result.returncode == 1, result.stderr
    assert result.stderr.splitlines()[-1] == f"Error: no space left writing {str(summary)!r}", result.stderr
    assert "Traceback" not in result.stderr
    assert summary.read_text() == "the earlier summary\n"  # the earlier file as it was
    assert sorted(path.name for path in tmp_path.iterdir()) == ["players.txt"]  # no temporary file left


def test_convert_on_a_disk_that_fills_up_is_one_line_and_no_file(tmp_path):
    out = tmp_path / "session.phhs"
    result = _run_with_file_size_limit(["convert", str(ONE_HAND), "-o", str(out)], 100)
    assert (result.returncode, result.stderr) == (1, f"Error: no space left writing {str(out)!r}\n")
    assert list(tmp_path.iterdir()) == []


def test_output_file_is_written_whole_and_keeps_other_errors_as_they_are(tmp_path):
    target = tmp_path / "out.txt"
    with output_file(target) as stream:
        stream.write("done\n")
        assert not target.exists()  # under its own name only when complete
    assert target.read_text() == "done\n"
    with pytest.raises(FileNotFoundError), output_file(target) as stream:
        stream.write("half\n")
        open(tmp_path / "missing-input.txt")  # the block's own OSError: not a write error
    assert target.read_text() == "done\n" and [path.name for path in tmp_path.iterdir()] == ["out.txt"]


def test_output_file_on_a_full_device_raises_output_error(full_device):
    with pytest.raises(OutputError, match=r"^no space left writing '.*full'$"):
        with output_file(full_device) as stream:
            stream.write("x" * 10)
    assert _is_full_device(full_device)
