"""The runnable examples run and print the right numbers."""

import subprocess
import sys

import pytest
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


def test_range_study_example_writes_one_row_per_range_hand():
    from omaha_equity import calculate_equity

    result = subprocess.run([sys.executable, str(EXAMPLES / "range_study.py"), "KK:$ds", "Qd7h2s"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0] == "opponent_hand,range_share,equity,equity_exact"
    assert len(lines) == 1 + 627  # as `omaha-equity range 'KK:$ds' -b Qd7h2s -d AsAhJs9h` counts
    hand, share, equity, exact = lines[1].split(",")
    single = calculate_equity(["AsAhJs9h", hand], "Qd7h2s", threads=1)
    assert exact == str(single.players[0].equity_fraction) and float(share) == pytest.approx(1 / 627, abs=1e-8)
    assert "AsAhJs9h against 'KK:$ds' on Qd7h2s: 627 hands, equity 78.85%" in result.stderr


def test_distribution_plot_example_draws_both_plots(tmp_path):
    result = subprocess.run([sys.executable, str(EXAMPLES / "distribution_plot.py"), str(tmp_path), "KK:$ds"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "equity across the opponent's hands" in result.stdout and "equity across the next card" in result.stdout
    assert (tmp_path / "by_hand.svg").read_text().lstrip().startswith("<?xml")
    assert (tmp_path / "by_next_card.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
