"""An output that cannot be written (issue 15, item 14): a full disk on standard output or on a
file named by the user gives one line (``no space left writing stdout|FILE``) and exit code 1,
never a traceback; a reader that goes away (``| head``) ends the program quietly (exit code 141).

Each command runs as the real program (``python -m omaha_equity``) in a subprocess, its standard
output the Linux device ``/dev/full``, where every write fails with ENOSPC.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HANDS = ROOT / "examples" / "hands"
FULL = Path("/dev/full")

pytestmark = pytest.mark.skipif(not FULL.exists(), reason="needs the Linux device /dev/full")

# Every command that writes to standard output (batch has its own tests, tests/test_batch.py).
COMMANDS = {
    "calc": ["calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s"],
    "calc json": ["calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s", "-f", "json"],
    "calc streets": ["calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s3c", "--streets"],
    "show": ["show", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s3c4d"],
    "range table": ["range", "AA:$ds"],
    "range csv (streamed)": ["range", "*", "-f", "csv"],
    "rank": ["rank", "AsAhKsKh"],
    "pot-limit": ["pot-limit", "--pot", "100", "--bets", "100"],
    "allin": ["allin", "AsAhKsKh", "JdTd9c8c", "--stacks", "300,200", "-b", "Qd7h2s"],
    "distribution": ["distribution", "AsAhKsKh", "KK:$ds", "-b", "Qd7h2s", "--bins", "4"],
    "ev": ["ev", str(HANDS / "session.phhs")],
    "play": ["play", str(HANDS / "plo8-short-all-in.phh")],
}


def program(args, **options) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "omaha_equity", *args], cwd=ROOT, capture_output=False,
                          stderr=subprocess.PIPE, text=True, timeout=300, **options)


@pytest.mark.parametrize("name", COMMANDS)
def test_a_full_disk_on_standard_output_is_one_line_and_exit_code_1(name):
    with FULL.open("w") as full:
        result = program(COMMANDS[name], stdout=full)
    lines = [line for line in result.stderr.splitlines() if not line.startswith("omaha-equity:")]  # cache notices
    assert lines == ["Error: no space left writing stdout"], result.stderr
    assert result.returncode == 1


def test_the_same_commands_write_fine_elsewhere():
    # the fault above is the device's: the same command writes its rows to a pipe
    result = program(COMMANDS["play"], stdout=subprocess.PIPE)
    assert result.returncode == 0 and result.stderr == ""


def test_a_full_disk_under_a_plot_file_is_one_line_and_leaves_no_plot(tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "spread.png"
    target.symlink_to(FULL)  # the plot's file is on a full disk
    with open(os.devnull, "w") as null:
        result = program([*COMMANDS["distribution"], "--plot", str(target)], stdout=null)
    lines = [line for line in result.stderr.splitlines() if not line.startswith("omaha-equity:")]
    assert lines == [f"Error: no space left writing {target}"], result.stderr
    assert result.returncode == 1


@pytest.mark.parametrize("name", ["range csv (streamed)", "calc"])
def test_a_reader_that_goes_away_ends_the_program_quietly(name):
    process = subprocess.Popen([sys.executable, "-m", "omaha_equity", *COMMANDS[name]], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # as `| head -0` does: every write meets a closed pipe
    errors = process.stderr.read().decode()
    assert process.wait(timeout=300) == 141
    assert [line for line in errors.splitlines() if not line.startswith("omaha-equity:")] == []


def test_a_full_standard_error_does_not_turn_an_error_into_a_traceback():
    with FULL.open("w") as full:
        result = subprocess.run([sys.executable, "-m", "omaha_equity", "calc", "AsAhKsKh", "--trials", "0"], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=full, text=True, timeout=300)
    assert result.returncode == 2 and result.stdout == ""


def test_a_notice_that_cannot_be_written_does_not_stop_the_work(tmp_path):
    # a cache folder that is a symbolic link gets a notice on stderr; stderr is full
    (tmp_path / "cache").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "cache")
    environment = {**os.environ, "OMAHA_EQUITY_CACHE": str(tmp_path / "link")}
    command = ["show", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s3c4d"]
    seen = subprocess.run([sys.executable, "-m", "omaha_equity", *command], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=300)
    assert "is a symbolic link" in seen.stderr  # the notice the full stderr drops below
    with FULL.open("w") as full:
        result = subprocess.run([sys.executable, "-m", "omaha_equity", *command], cwd=ROOT, env=environment,
                                stdout=subprocess.PIPE, stderr=full, text=True, timeout=300)
    assert result.returncode == 0 and "high: player 1" in result.stdout
