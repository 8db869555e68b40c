"""Output that must not mislead (issue 9, section 4, and the undefined standard error of
section 2): hi/lo statistics, deals against boards in the header, partial hands marked, the CSV
columns, any thread count, streamed range output."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import numba
import pytest
from click.testing import CliRunner

from omaha_equity.views import equity as views
from omaha_equity.batch.run import BATCH_COLUMNS
from omaha_equity.cards import format_cards
from omaha_equity.cli import main
from omaha_equity.equity.calculate import calculate_equity
from omaha_equity.equity.results.equity import standard_error
from omaha_equity.games import get_game
from omaha_equity.ranges import parse_range

# pandas reads these cell texts as a missing value by default (pandas.read_csv, ``na_values``).
PANDAS_MISSING = {"", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
                  "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"}


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


# --- 1. hi/lo statistics ------------------------------------------------------------------------

# River: player 1 has three kings (Ks + KcKd) and no low; player 2 has two pair and the
# 8-4-3-2-A low (Ah4d + 8h3s2c). One wins the high, the other the low: a split, not a tie.
SPLIT_RIVER = (["KsQsQhJh", "Ah4d9s9c"], "KcKd8h3s2c")


def test_high_to_one_player_and_low_to_another_is_a_split_not_a_tie():
    result = calculate_equity(*SPLIT_RIVER, game="omaha8")
    high, low = result.players
    assert (high.win_count, high.tie_count, high.split_count) == (0, 0, 1)
    assert (low.win_count, low.tie_count, low.split_count) == (0, 0, 1)
    assert (high.equity_high_fraction, high.equity_low_fraction) == (Fraction(1, 2), 0)
    assert (low.equity_high_fraction, low.equity_low_fraction) == (0, Fraction(1, 2))
    assert result.no_low == 0 and result.low_possible == 1


def test_sharing_a_half_is_a_tie_and_a_quarter():
    # plo8_river_quartered (tests/test_reference_cases.py): player 1 quad kings and player 2
    # tie the low; player 3 gets nothing
    result = calculate_equity(["KsKhAd2d", "As2c9c9d", "QcJcTs8s"], "KdKc3h4s7d", game="omaha8")
    first, second, third = result.players
    assert [p.equity_fraction for p in result.players] == [Fraction(3, 4), Fraction(1, 4), 0]
    assert (first.tie_count, first.split_count, second.tie_count, second.quartered_count) == (1, 0, 1, 1)
    assert (first.equity_high_fraction, first.equity_low_fraction) == (Fraction(1, 2), Fraction(1, 4))
    assert (third.win_count, third.tie_count, third.split_count) == (0, 0, 0)


def test_equity_high_plus_equity_low_is_equity_exactly_and_the_halves_add_up():
    result = calculate_equity(["As2sKdQd", "Ah3h9c9d"], "4c5d8h", game="omaha8")
    assert [str(p.equity_fraction) for p in result.players] == ["423/656", "233/656"]
    for player in result.players:
        assert player.equity_high_fraction + player.equity_low_fraction == player.equity_fraction
        assert player.win_count + player.tie_count + player.split_count <= result.sample_count
    # the low half goes out whole on every board with a low, the high half (or pot) always
    low_half = Fraction(result.low_board_count, 2 * result.weight_total)
    assert sum(p.equity_low_fraction for p in result.players) == low_half
    assert sum(p.equity_high_fraction for p in result.players) == 1 - low_half
    assert [p.equity_low_fraction for p in result.players] == [Fraction(1415, 3280), Fraction(225, 3280)]


def test_ranges_exact_and_monte_carlo_give_the_halves_too():
    exact = calculate_equity(["AA:xxyy", "KhKd"], "Qd7h2s3c9h", game="omaha8")
    assert exact.method == "exact"
    for player in exact.players:
        assert player.equity_high_fraction + player.equity_low_fraction == player.equity_fraction
    sampled = calculate_equity(["As2sKdQd", "Ah3h9c9d"], "4c5d8h", game="omaha8", trials=20_000, seed=5)
    for player in sampled.players:
        assert player.equity_high + player.equity_low == pytest.approx(player.equity, abs=1e-12)
        assert player.equity_high_fraction is None and player.split_count > 0


def test_high_only_games_have_no_split_and_no_low_half():
    result = calculate_equity(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", game="omaha")
    for player in result.players:
        assert player.split_count == 0 and player.equity_low_fraction == 0
        assert player.equity_high_fraction == player.equity_fraction
    assert result.no_low is None and result.low_possible is None


def test_hilo_outputs_show_the_new_statistics_and_batch_has_every_calc_column():
    args = ("calc", *SPLIT_RIVER[0], "-b", SPLIT_RIVER[1], "-g", "o8")
    table = run(*args)
    assert table.exit_code == 0, table.output
    header = table.output.splitlines()[1].split()
    assert header[:10] == ["player", "hand", "equity", "eq.", "high", "eq.", "low", "scoop", "split", "tie"]
    assert "no low (the high takes the whole pot): 0%" in table.output
    rows = csv_rows(run(*args, "-f", "csv").stdout)
    assert [(row["split"], row["tie"], row["equity_high"], row["equity_low"]) for row in rows] == [
        ("1.0", "0.0", "0.5", "0.0"), ("1.0", "0.0", "0.0", "0.5")]
    assert rows[0]["no_low"] == "0.0"
    player = json.loads(run(*args, "-f", "json").stdout)["players"][1]
    assert (player["equity_low_exact"], player["split"], player["counts"]["split"]) == ("1/2", 1.0, 1)
    calc_columns = set(rows[0]) - {"player"}
    assert calc_columns <= set(BATCH_COLUMNS), calc_columns - set(BATCH_COLUMNS)


# --- 2. deals and boards apart in the header ---------------------------------------------------

def test_header_states_deals_hand_combinations_and_boards_apart():
    result = calculate_equity(["AsAh", "KsKhQdJd"], "Qc7h2s5c")
    # the partial hand's two cards come from 42 cards (C(42, 2) = 861), then 40 rivers
    assert (result.hand_combinations, result.board_count, result.sample_count) == (861, 40, 34_440)
    assert "exact enumeration of 34,440 deals (861 hand combinations x 40 boards)" in views.equity_title(result)
    fixed = calculate_equity(["AsAhKcKd", "KsKhQdJd"], "Qc7h2s5c")
    assert "exact enumeration of 40 boards" in views.equity_title(fixed)
    assert (fixed.hand_combinations, fixed.board_count) == (1, 40)
    data = json.loads(run("calc", "AsAh", "KsKhQdJd", "-b", "Qc7h2s5c", "-f", "json").stdout)
    assert (data["hand_combinations"], data["board_count"], data["sample_count"]) == (861, 40, 34_440)
    sampled = run("calc", "AsAh", "KsKhQdJd", "--trials", "1000", "--seed", "1")
    assert "Monte Carlo, 1,000 deals of hands and board, seed 1" in sampled.output


# --- 3. partial hands marked ----------------------------------------------------------------------

def test_a_partial_hand_is_marked_in_every_output_and_named_in_the_header():
    args = ("calc", "As2sKdQd", "Ah3h9c9dTc", "-b", "4c5d8h7s6s", "-g", "omaha5")
    table = run(*args)
    assert table.exit_code == 0, table.output
    assert "partial hands completed at random: AsKdQd2s+1 (1 card dealt at random)" in table.output
    assert "AsKdQd2s+1" in table.output.splitlines()[-2]
    assert csv_rows(run(*args, "-f", "csv").stdout)[0]["hand"] == "AsKdQd2s+1"
    data = json.loads(run(*args, "-f", "json").stdout)
    assert data["hands"] == ["AsKdQd2s+1", "AhTc9d9c3h"]
    assert [(p["hand"], p["random_cards"]) for p in data["players"]] == [("AsKdQd2s+1", 1), ("AhTc9d9c3h", 0)]
    random_hand = calculate_equity(["AsKsQhJh", "*"], "Qd7h2s3c9h")
    assert [p.random_card_count for p in random_hand.players] == [0, 4]
    assert "partial" not in views.equity_title(random_hand)


# --- 4. CSV columns -------------------------------------------------------------------------------

def test_csv_has_seed_and_low_possible_and_no_cell_pandas_reads_as_missing_for_no_cards():
    sampled = csv_rows(run("calc", "As2sKdQd", "Ah3h9c9d", "-g", "o8", "--trials", "5000", "--seed", "7",
                           "-f", "csv").stdout)
    assert [row["seed"] for row in sampled] == ["7", "7"]
    assert [row["board"] for row in sampled] == ["-", "-"] and [row["dead"] for row in sampled] == ["-", "-"]
    assert float(sampled[0]["low_possible"]) == 0.5  # 2,500 of 5,000 boards (exactly: 50.44%)
    assert float(sampled[0]["low_possible"]) + float(sampled[0]["no_low"]) == pytest.approx(1.0)
    exact = csv_rows(run("calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s", "-f", "csv").stdout)
    assert exact[0]["seed"] == "" and exact[0]["low_possible"] == "" and exact[0]["dead"] == "-"
    assert "-" not in PANDAS_MISSING
    with_dead = csv_rows(run("calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s", "-d", "2c", "-f", "csv").stdout)
    assert with_dead[0]["dead"] == "2c"


def test_no_cards_is_dash_in_every_csv_and_empty_in_every_json_and_dash_reads_back_as_no_cards():
    spots = "id,game,board,dead,hand1,hand2\ngood,omaha,Qd7h2s,,AsAhKsKh,JdTd9c8c\nbad,omaha,,,AsAhKsKh,\n"
    batch_csv = csv_rows(run("batch", "-", "--workers", "1", input=spots).stdout)
    assert [(row["id"], row["board"], row["dead"]) for row in batch_csv] == [
        ("good", "Qd7h2s", "-"), ("good", "Qd7h2s", "-"), ("bad", "-", "-")]  # the error row too
    batch_json = [json.loads(line) for line in run("batch", "-", "--workers", "1", "-f", "jsonl",
                                                   input=spots).stdout.splitlines()]
    assert [(row["id"], row["board"], row["dead"]) for row in batch_json] == [
        ("good", "Qd7h2s", ""), ("good", "Qd7h2s", ""), ("bad", "", "")]
    calc_json = json.loads(run("calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s", "-f", "json").stdout)
    assert (calc_json["board"], calc_json["dead"]) == ("Qd7h2s", "")
    # a CSV row fed back: '-' is no cards, on the command line, in a batch file and in the API
    assert run("calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s", "-d", "-", "-f", "json").stdout == run(
        "calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s", "-f", "json").stdout
    again = csv_rows(run("batch", "-", "--workers", "1", input="id,game,board,dead,hand1,hand2\n"
                                                                 "good,omaha,Qd7h2s,-,AsAhKsKh,JdTd9c8c\n").stdout)
    assert [row["equity_exact"] for row in again] == [row["equity_exact"] for row in batch_csv[:2]]
    assert calculate_equity(["AsAhKsKh", "JdTd9c8c"], "-", "-").players == calculate_equity(
        ["AsAhKsKh", "JdTd9c8c"]).players
    assert run("calc", "AsAhKsKh", "JdTd9c8c", "-b", "--").exit_code == 2  # only '-' alone means none
    # show needs five board cards: '-' is no cards there too, so the error says what is missing
    show = run("show", "AsAhKsKh", "JdTd9c8c", "-b", "-")
    assert show.exit_code == 2 and "showdown needs a complete board of 5 cards, got 0" in show.output


# --- 5. any thread count --------------------------------------------------------------------------

def test_more_threads_than_cores_are_accepted_with_the_same_numbers():
    cores = numba.config.NUMBA_NUM_THREADS
    before = numba.get_num_threads()
    one = calculate_equity(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", trials=50_000, seed=3, threads=1)
    many = calculate_equity(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", trials=50_000, seed=3, threads=cores + 1)
    assert many.players == one.players
    assert numba.get_num_threads() == before
    base = ("calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s", "--trials", "20000", "--seed", "3", "-f", "json")
    assert run(*base, "--threads", str(cores + 1)).stdout == run(*base, "--threads", "1").stdout
    assert run(*base, "--threads", "0").exit_code == 2


# --- 6. range output streamed ---------------------------------------------------------------------

@pytest.mark.parametrize("expression", ["KK-TT:ds", "AA@2,KK:ds"])  # equal weights, then mixed
def test_range_csv_and_json_are_written_in_pieces_equal_to_the_whole(monkeypatch, expression):
    monkeypatch.setattr(views, "RANGE_PIECE_HANDS", 100)
    game = get_game("omaha")
    hand_range = parse_range(expression, game)
    expected = [{"hand": format_cards(hand, sort=True), "weight": float(weight)}
                for hand, weight in zip(hand_range.hands, hand_range.weights)]
    pieces = list(views.range_pieces(hand_range, game, "", "json"))
    assert len(pieces) == 2 + -(-hand_range.size // 100)
    data = json.loads("".join(pieces))
    assert data["hands"] == expected and data["size"] == hand_range.size == len(expected)
    csv_text = "".join(views.range_pieces(hand_range, game, "", "csv"))
    assert csv_rows(csv_text) == [{"hand": row["hand"], "weight": repr(row["weight"])} for row in expected]
    command = run("range", expression, "-f", "json")
    assert command.exit_code == 0 and json.loads(command.stdout)["hands"] == expected


def test_range_table_sample_has_a_limit():
    assert run("range", "AA", "--sample", "10000").exit_code == 0
    too_many = run("range", "AA", "--sample", "10001")
    assert too_many.exit_code == 2 and "--sample" in too_many.output


# --- section 2: a standard error from one sample ----------------------------------------------------

def test_one_sample_has_an_undefined_standard_error_and_precision_is_not_reached():
    assert standard_error(3, 9, 1, 6) is None and standard_error(0, 0, 0, 2) is None
    assert standard_error(1, 1, 2, 1) == pytest.approx(0.5)  # shares 1 and 0: s.d. 0.707, / sqrt(2)
    result = calculate_equity(["AsAhKsKh", "JdTd9c8c"], trials=1, precision=0.1, seed=1)
    assert result.sample_count == 1 and not result.standard_errors_defined
    assert [player.standard_error for player in result.players] == [None, None]
    args = ("calc", "AsAhKsKh", "JdTd9c8c", "--trials", "1", "--precision", "0.1", "--seed", "1")
    table = run(*args)
    assert table.exit_code == 0, table.output
    assert "0.000" not in table.output and table.output.count("n/a") >= 2
    assert "note: precision 0.1 not reached after 1 boards (largest standard error undefined" in table.output
    data = json.loads(run(*args, "-f", "json").stdout)
    assert [player["standard_error"] for player in data["players"]] == [None, None]
    assert [row["standard_error"] for row in csv_rows(run(*args, "-f", "csv").stdout)] == ["", ""]


def test_allin_one_sample_has_an_undefined_standard_error_too():
    args = ("allin", "AsAhKsKh", "JdTd9c8c", "--stacks", "100,100", "--trials", "1", "--precision", "0.1", "--seed",
            "1")
    table = run(*args)
    assert table.exit_code == 0, table.output
    assert table.output.count("n/a") == 2 and "note: precision 0.1 not reached after 1 deals" in table.output
    player = json.loads(run(*args, "-f", "json").stdout)["players"][0]
    assert player["standard_error"] is None and player["pots"][0]["standard_error"] is None
