"""The runnable examples run and print the right numbers."""

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run_example(name):
    return subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, timeout=120)


def test_heads_up_example_prints_exact_equities():
    result = run_example("heads_up.py")
    assert result.returncode == 0, result.stderr
    assert "AsAhKsKh: 61.48% (exactly 166923/271502)" in result.stdout
    assert "AsAhKsKh: 81.95% (exactly 168/205)" in result.stdout


def test_matchups_example_reports_the_bad_row_and_keeps_the_others():
    result = run_example("matchups_to_csv.py")
    assert result.returncode == 1
    assert "row 5: unknown rank '1' at position 0 in '1s2s3c4d'" in result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 4  # header + rows 2, 3, 4
    assert lines[2].startswith("3,AsKdQd2s,Ah9d9c3h,4c5d8h,0.644817,0.355183")


def test_showdown_example_prints_the_quartered_pot():
    result = run_example("showdown.py")
    assert result.returncode == 0, result.stderr
    assert "share 3/4" in result.stdout and "share 1/4" in result.stdout


def test_all_in_example_prints_the_pots_and_exact_net_ev():
    result = run_example("all_in.py")
    assert result.returncode == 0, result.stderr
    assert "main pot: 360 chips, players 1, 2, 3" in result.stdout
    assert "side pot 1: 460 chips, players 1, 2" in result.stdout
    assert "net EV +112.52 (exactly 12490/111)" in result.stdout
