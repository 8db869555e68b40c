"""The ``play`` command: replaying the example hand files (side pots, quartered pots, odd chips,
heads-up blinds) to the right payouts, its JSON, and illegal actions (exit code 2)."""

import json
from pathlib import Path

from click.testing import CliRunner

from omaha_equity.cli import main

HANDS = Path(__file__).resolve().parent.parent / "examples" / "hands"
WSOP = Path(__file__).resolve().parent / "data" / "wsop-2023-43"


def play(*args):
    # in this process (the real program's exit path is tested in test_cli.py and test_startup.py)
    return CliRunner().invoke(main, ["play", *map(str, args)])


def test_three_handed_pot_limit_hi_lo_short_all_in_pays_main_and_side_pot():
    # Blinds 5/10; p3 raises to 30, p1 and p2 call (pot 90). Flop 2c5d9h: p1 bets 90, p2 calls
    # all-in for 60 (short), p3 calls. Turn Kd: p1 bets 150, p3 calls. River 7s: checks.
    #   main pot   = 3 x 90           = 270, eligible p1 p2 p3
    #   side pot 1 = 2 x 30 + 2 x 150 = 360, eligible p1 p3
    # High: p2 three kings > p3 three nines > p1 ace high. Low: p1 (Ah3h) and p3 (Ad3c) tie with
    # 7-5-3-2-A; p2 has none.
    #   main: high half 135 to p2; low half 135 split 68 (p1, first tied player left of the
    #         button p3, takes the odd chip) + 67 (p3)
    #   side: high half 180 to p3; low half 180 split 90 + 90
    #   p1: 1000 - 270 + 68 + 90 = 888;  p2: 90 - 90 + 135 = 135;  p3: 1000 - 270 + 67 + 270 = 1067
    result = play(HANDS / "plo8-short-all-in.phh", "-f", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [pot["amount"] for pot in data["pots"]] == [270, 360]
    assert [pot["eligible"] for pot in data["pots"]] == [["p1", "p2", "p3"], ["p1", "p3"]]
    assert [player["pots_won"] for player in data["players"]] == [[68, 90], [135, 0], [67, 270]]
    assert data["finishing_stacks"] == [888, 135, 1067]
    assert [player["starting_stack"] for player in data["players"]] == [1000, 90, 1000]
    assert [player["finishing_stack"] for player in data["players"]] == [888, 135, 1067]
    assert data["finishing_stacks_match"] is True


def test_two_all_ins_make_two_side_pots_and_the_uncalled_bet_comes_back():
    # main 160 (p1 p2 p3): high p2 (eights full) 80, low p3 (8-5-3-2-A) 80;
    # side 1 480 (p1 p3): high p1 (three jacks) 240, low p3 240; side 2 400 (p1 alone: p4
    # folded to the river bet, whose 300 is returned).
    result = CliRunner().invoke(main, ["play", str(HANDS / "plo8-two-side-pots.phh"), "-f", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [pot["amount"] for pot in data["pots"]] == [160, 480, 400]
    assert [player["pots_won"] for player in data["players"]] == [[0, 240, 400], [80, 0, 0], [80, 240, 0],
                                                                  [0, 0, 0]]
    assert data["finishing_stacks"] == [1240, 80, 320, 600]


def test_play_table_prints_history_and_settlement():
    result = play(HANDS / "plo8-short-all-in.phh")
    assert result.exit_code == 0, result.stderr
    assert "p2 calls 60 and is all-in" in result.stdout
    assert "Side pot 1 360; eligible: p1, p3" in result.stdout
    settlement = result.stdout.split("\n\n")[-1].splitlines()
    assert settlement[0].split() == ["player", "stack", "before", "put", "in", "main", "pot", "side", "pot", "1",
                                     "stack", "after"]
    assert settlement[2].split() == ["p1", "1000", "270", "68", "90", "888"]
    assert settlement[-1] == "finishing stacks: as in the file"


def test_a_phhs_file_plays_every_hand():
    result = CliRunner().invoke(main, ["play", str(HANDS / "session.phhs"), "-f", "json"])
    assert result.exit_code == 0, result.output
    hands = json.loads(result.stdout)["hands"]
    assert [hand["hand"] for hand in hands] == ["1", "2", "3"]
    assert [hand["finishing_stacks"] for hand in hands] == [[888, 135, 1067], [1240, 80, 320, 600], [100, 100]]


def test_wsop_hand_plays_to_its_finishing_stacks():
    result = CliRunner().invoke(main, ["play", str(WSOP / "hand-77_03_25_05.phh"), "-f", "json"])
    assert json.loads(result.stdout)["finishing_stacks"] == [125000, 6125000, 22150000, 1300000]


def test_an_illegal_action_is_one_error_line_with_its_index_and_exit_code_2(tmp_path):
    text = (HANDS / "plo8-short-all-in.phh").read_text().replace('"p1 cbr 90",  # a pot-sized bet', '"p1 cbr 500",')
    (tmp_path / "over.phh").write_text(text)
    result = play(tmp_path / "over.phh")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        f"Error: {tmp_path / 'over.phh'}: action 7 'p1 cbr 500': bet to 500 is over the pot-limit maximum 90"]


def test_a_bad_hand_in_a_phhs_file_is_reported_and_the_others_play(tmp_path):
    good = (HANDS / "plo8-short-all-in.phh").read_text()
    bad = good.replace('"p3 cbr 30",', '"p2 cbr 30",')
    (tmp_path / "two.phhs").write_text(f"[1]\n{bad}\n[2]\n{good}")
    result = play(tmp_path / "two.phhs", "-f", "json")
    assert result.exit_code == 2
    hands = json.loads(result.stdout)["hands"]
    assert hands[0] == {"hand": "1", "error": f"{tmp_path / 'two.phhs'}, hand [1]: action 3 'p2 cbr 30': it is "
                                              "p3's turn, not p2's"}
    assert hands[1]["finishing_stacks"] == [888, 135, 1067]
    assert result.stderr.strip() == f"Error: {hands[0]['error']}"


def test_a_file_that_is_not_phh_is_a_usage_error(tmp_path):
    (tmp_path / "notes.phh").write_text("hello = 'world'\n")
    result = CliRunner().invoke(main, ["play", str(tmp_path / "notes.phh")])
    assert result.exit_code == 2
    assert "notes.phh: unknown field 'hello'" in result.output
