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


def test_flop_spots_batch_writes_a_row_per_player_and_an_error_row_per_bad_spot(tmp_path):
    """The README's recipe: ``omaha-equity batch examples/flop_spots.csv -o spots_out.csv``."""
    import csv

    from click.testing import CliRunner

    from omaha_equity.cli import main

    output = tmp_path / "spots_out.csv"
    result = CliRunner().invoke(main, ["batch", str(EXAMPLES / "flop_spots.csv"), "-o", str(output), "--seed", "1",
                                       "--workers", "1"])
    assert result.exit_code == 1, result.output  # two spots are bad
    assert result.stderr.startswith("batch: 8 queries done, 2 failed; 19 rows in ")
    assert result.stderr.rstrip().endswith("seed 1; failed ids: dup-card, bad-rank")
    with open(output, newline="") as file:
        rows = list(csv.DictReader(file))
    assert [row["id"] for row in rows] == (["aces-dry"] * 2 + ["aces-wet"] * 2 + ["set-vs-wrap"] * 2
                                           + ["flush-draw"] * 2 + ["hilo-low-draw"] * 2 + ["three-way"] * 3
                                           + ["big-o"] * 2 + ["vs-random"] * 2 + ["dup-card", "bad-rank"])
    by_spot = {(row["id"], row["player"]): row for row in rows}
    assert by_spot["aces-dry", "1"]["equity_exact"] == "168/205"
    assert by_spot["set-vs-wrap", "2"]["dead"] == "Ts" and by_spot["set-vs-wrap", "2"]["equity_exact"] == "7/20"
    assert [by_spot["three-way", player]["equity_exact"] for player in "123"] == ["127/333", "91/222", "139/666"]
    assert by_spot["hilo-low-draw", "1"]["scoop"] == "0.4121951219512195"
    assert by_spot["big-o", "1"]["game"] == "omaha5-8"
    sampled = by_spot["vs-random", "1"]
    assert (sampled["method"], sampled["sample_count"], sampled["equity_exact"]) == ("monte-carlo", "20000", "")
    from omaha_equity.batch import derive_seed

    assert sampled["seed"] == str(derive_seed(1, "vs-random"))
    assert sampled["equity"] == "0.539775"  # 20,000 deals of the random hand and board (s.e. about 0.35 points)
    errors = [(row["id"], row["hand"], row["error"]) for row in rows if row["error"]]
    assert errors == [
        ("dup-card", "AsAhKsKh|AsTd9c8c", "duplicate card As in player 1 and player 2"),
        ("bad-rank", "AsAhKsKh|JdTd9c1c",
         "unknown rank '1' at position 6 in 'JdTd9c1c': expected a rank 2-9, T or 10, J, Q, K or A"),
    ]


def test_cluster_batch_example_gives_identical_rows_on_a_local_cluster_and_here():
    pytest.importorskip("distributed")
    result = run_example("cluster_batch.py")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("on the Dask LocalCluster tcp://") and lines[0].endswith("(2 workers):")
    assert lines[20] == "in this process:"
    assert lines[1:20] == lines[21:40]  # the same 19 rows, printed from each run
    assert lines[1].split() == ["aces-dry", "1", "AsAhKsKh", "Qd7h2s", "81.95%", "=", "168/205", "(exact,", "820",
                                "boards)"]
    assert lines[18].split()[:3] == ["dup-card", "error:", "duplicate"]
    assert lines[-1] == "identical: 19 rows (10 spots, 2 error rows), seed 1"


def test_every_example_is_run_by_a_test():
    tests_text = "".join(path.read_text() for path in Path(__file__).resolve().parent.glob("test_*.py"))
    examples = [path.name for path in EXAMPLES.iterdir() if path.suffix in (".py", ".csv")]
    assert "cluster_batch.py" in examples and "flop_spots.csv" in examples
    assert [name for name in examples if f'"{name}"' not in tests_text] == []
