"""The command line: outputs, formats, determinism, help, and bad input (exit code 2)."""

import csv
import io
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from omaha_equity.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_calc_heads_up_preflop_prints_exact_equities():
    result = run("calc", "AsAhKsKh", "JdTd9c8c")
    assert result.exit_code == 0, result.output
    assert "61.48%" in result.output and "38.52%" in result.output
    assert "166923/271502" in result.output and "104579/271502" in result.output
    assert "exact enumeration of 1,086,008 boards" in result.output


def test_calc_csv_is_one_row_per_player_with_fractions():
    result = run("calc", "As2sKdQd", "Ah3h9c9d", "-g", "o8", "-b", "4c5d8h", "-f", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [row["player"] for row in rows] == ["1", "2"]
    assert rows[0]["equity_exact"] == "423/656"
    assert float(rows[0]["equity"]) == pytest.approx(423 / 656)
    assert float(rows[1]["lo_win"]) == pytest.approx(108 / 820)
    assert rows[0]["method"] == "exact" and rows[0]["sample_count"] == "820"


def test_calc_json_holds_inputs_method_and_statistics():
    result = run("calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s", "-f", "json")
    data = json.loads(result.stdout)
    assert data["game"] == "omaha" and data["board"] == "Qd7h2s" and data["method"] == "exact"
    assert data["sample_count"] == 820 and data["seed"] is None
    assert data["players"][0]["equity_exact"] == "168/205"
    assert data["players"][0]["counts"]["win"] == 672


def test_calc_monte_carlo_same_seed_same_output_for_any_thread_count():
    base = ("calc", "AsAhKsKh", "JdTd9c8c", "--mc", "--trials", "200000", "--seed", "11", "-f", "json")
    one = json.loads(run(*base, "--threads", "1").stdout)
    two = json.loads(run(*base, "--threads", "2").stdout)
    assert one == two
    assert one["method"] == "monte-carlo" and one["seed"] == 11 and one["sample_count"] == 200000
    other = json.loads(run(*base[:-4], "--seed", "12", "-f", "json").stdout)
    assert other["players"][0]["equity"] != one["players"][0]["equity"]


def test_calc_table_shows_standard_error_for_monte_carlo():
    result = run("calc", "AsAhKsKh", "JdTd9c8c", "--trials", "100000", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "Monte Carlo, 131,072 boards" not in result.output
    assert "Monte Carlo, 100,000 boards, seed 1" in result.output
    assert "± s.e." in result.output


def test_show_reads_the_worked_example():
    result = run("show", "6h6c4h2c", "AsKdQh9c", "-b", "8c6s4s3hAc", "-g", "omaha8")
    assert result.exit_code == 0, result.output
    assert "three sixes, A-8 kickers" in result.output
    assert "6-4-3-2-A low" in result.output
    assert "high: player 1; low: player 1" in result.output


def test_show_quartered_pot_shares_as_fractions():
    result = run("show", "AdKd3s2s", "Ah2c9c9d", "-b", "Jd4d3cQd5h", "-g", "o8", "-f", "csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [row["share"] for row in rows] == ["3/4", "1/4"]


@pytest.mark.parametrize("command", ["calc", "show", "range", "rank"])
def test_every_command_has_help_with_an_example(command):
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "Example: omaha-equity " + command in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["calc", "AsKsQhJh", "JdTd9c8c", "-b", "Ab2c3c"], "unknown card 'Ab'"),
        (["calc", "AsKsQhJh", "JdTd9c8c", "-d", "1s"], "unknown card '1s'"),
        (["calc", "AsKsQhJh", "JdTd9c8c", "-b", "Zz"], "unknown card 'Zz'"),
        (["show", "AxKsQhJh", "JdTd9c8c", "-b", "2c3c4c5c6c"], "unknown card 'Ax'"),
        (["calc", "AsAsQhJh", "JdTd9c8c"], "duplicate card As in player 1"),
        (["calc", "AsKsQhJh", "AsTd9c8c"], "duplicate card As in player 1 and player 2"),
        (["calc", "AsKsQhJh", "JdTd9c8c", "-b", "Ah2h3hJd"], "duplicate card Jd in player 2 and board"),
        (["calc", "AsKsQhJh", "JdTd9c8c", "-b", "Ah2h3h", "-d", "2h"], "duplicate card 2h in board and dead cards"),
        (["calc", "AsKsQhJhTd", "JdTd9c8c"], "expected 4 hole cards for omaha, got 5 in 'AsKsQhJhTd'"),
        (["calc", "AsKsQhJh2c2d", "JdTd9c8c7c", "-g", "plo5"], "expected 5 hole cards for omaha5, got 6"),
        (["show", "AsKsQh", "JdTd9c8c", "-b", "2c3c4c5c6c"], "expected 4 hole cards for omaha, got 3 in 'AsKsQh'"),
        (["calc", "AsKsQhJh", "JdTd9c8c", "-b", "2c3c4c5c6c7c"], "expected at most 5 board cards, got 6"),
        (["calc", "AsKsQhJh"], "expected at least 2 players, got 1"),
        (["calc", "AsKsQhJh", "JdTd9c8c", "-g", "razz"], "unknown game 'razz'"),
        (["calc", "AsKsQhJh", "JdTd9c8c", "-g", "binglao"], "binglao needs the die roll"),
        (["calc", "AsKsQhJh", "JdTd9c8c", "-g", "binglao", "--die", "7"], "--die"),
        (["calc", "AsKsQhJh", "JdTd9c8c", "--trials", "0"], "--trials"),
        (["calc", "AsKsQhJh", "JdTd9c8c", "--precision", "-1"], "--precision"),
        (["calc", "AsKsQhJh", "JdTd9c8c", "--exact", "--mc"], "--exact and --mc cannot be used together"),
        (["calc", "AsKsQhJh", "JdTd9c8c", "--exact", "--trials", "10"], "apply to Monte Carlo"),
        (["show", "AsKsQhJh", "JdTd9c8c", "-b", "2c3c4c"], "complete board of 5 cards"),
        (["calc", "AsKsQhJh", "JdTd9c8c", "--exact", "--seed", "5"], "--seed applies to Monte Carlo"),
        (["calc", "AsKsQhJh", "JdTd9c8c", "--threads", "0"], "--threads"),
    ],
)
def test_bad_input_is_a_one_line_usage_error(args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert result.output.strip().splitlines() == [result.output.strip()]  # one line
    assert result.output.startswith("Error: ")


def test_too_many_players_for_the_deck():
    deck = [f"{rank}{suit}" for rank in "AKQJT98765432" for suit in "shdc"]
    hands = ["".join(deck[i:i + 4]) for i in range(0, 48, 4)]  # 12 players need 53 cards
    result = run("calc", *hands)
    assert result.exit_code == 2
    assert "too many players: 12 players x 4 hole cards + 5 board cards + 0 dead cards = 53 cards" in result.output


def test_eleven_players_fit_the_deck():
    deck = [f"{rank}{suit}" for rank in "AKQJT98765432" for suit in "shdc"]
    result = run("calc", *["".join(deck[i:i + 4]) for i in range(0, 44, 4)], "-f", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["sample_count"] == 56  # C(8, 5) boards from the 8 cards left
    assert sum(player["equity"] for player in data["players"]) == pytest.approx(1.0)


def test_module_entry_point_and_real_process_exit_code():
    version = subprocess.run([sys.executable, "-m", "omaha_equity", "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and "0.1.0" in version.stdout
    bad = subprocess.run([sys.executable, "-m", "omaha_equity", "calc", "AsKsQhJh", "*", "-b", "Ax"],
                         capture_output=True, text=True)
    assert bad.returncode == 2
    assert "unknown card 'Ax'" in bad.stderr and "Traceback" not in bad.stderr


def test_calc_hand_against_a_random_hand_on_the_flop():
    result = run("calc", "AsKsQhJh", "*", "-b", "Qd7h2s", "--seed", "3", "-f", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["method"] == "monte-carlo" and data["hands"] == ["AsKsQhJh", "*"]
    assert 0.70 < data["players"][0]["equity"] < 0.74


def test_calc_range_against_a_partial_hand_exact_on_the_river():
    result = run("calc", "AA:xxyy", "KhKd", "-b", "Qd7h2s3c9h", "-f", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["method"] == "exact" and data["players"][0]["equity_exact"] is not None


def test_range_command_counts_and_samples():
    result = run("range", "AA:$ds")
    assert result.exit_code == 0, result.output
    assert "864 hands of 270,725" in result.output
    rows = list(csv.DictReader(io.StringIO(run("range", "AA:$ds", "-f", "csv").stdout)))
    assert len(rows) == 864 and rows[0] == {"hand": "AsAhKsKh", "weight": "1.0"}
    data = json.loads(run("range", "AA", "-d", "AsAh", "-f", "json").stdout)
    assert data["size"] == 1128  # AdAc with any two of the other 48 cards
    bad = run("range", "AA", "-d", "AsAhAd")
    assert bad.exit_code == 2 and "no hand in range 'AA' is possible with dead cards AsAhAd" in bad.output
    wrong_way = run("range", "[T-A]")
    assert wrong_way.exit_code == 2 and "at position 1 in '[T-A]'" in wrong_way.output


def test_precision_not_reached_within_the_trials_says_so():
    result = run("calc", "AsAhKsKh", "JdTd9c8c", "--precision", "0.001", "--trials", "70000", "--seed", "1")
    assert result.exit_code == 0
    assert "note: precision 0.001 not reached after 70,000 boards" in result.output


def test_suit_symbols_with_emoji_presentation_selectors():
    result = run("calc", "A\u2660\ufe0fA\u2665\ufe0fK\u2660\ufe0fK\u2665\ufe0f", "JdTd9c8c", "-b", "Qd7h2s", "-f", "csv")
    assert result.exit_code == 0, result.output
    assert "168/205" in result.output


def test_calc_double_suited_aces_against_the_top_fifteen_percent():
    result = run("calc", "AA:$ds", "15%", "-g", "omaha", "--trials", "200000", "--seed", "1", "-f", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["hands"] == ["AA:$ds", "15%"] and data["method"] == "monte-carlo"
    aces = data["players"][0]
    assert 0.60 < aces["equity"] < 0.72  # double-suited aces are big favourites over a 15% range
    assert aces["standard_error"] < 0.002


def test_rank_command_places_the_best_and_a_bad_hand():
    best = json.loads(run("rank", "AsAhKsKh", "-f", "json").stdout)
    assert best["class_rank"] == 1 and best["top_percent"] < 0.01
    bad = json.loads(run("rank", "8s7h3d2c", "-f", "json").stdout)
    assert bad["top_percent"] > 90
    wrong = run("rank", "AsAhKsKh", "-g", "plo5")
    assert wrong.exit_code == 2 and "expected 5 hole cards for omaha5" in wrong.output
