"""Rooms that write PokerStars' format under their own name (Run It Once Poker, PokerMaster), on
their real files (tests/data/pokerstars-variants, sources in its README): every hand is read,
every hand but one damaged hand replays to the chips each player collected, and each quirk of
the rooms is read on a real hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from omaha_equity.cli import main
from omaha_equity.cli.commands.hand_histories import SITES as CLI_SITES
from omaha_equity.ev.hand_ev import evaluate_hand
from omaha_equity.hand_history.errors import HandHistoryError
from omaha_equity.hand_history.file_replay import PlayedHand, replay_checked
from omaha_equity.hand_history.records import SessionHand
from omaha_equity.hand_history.sessions import read_session
from omaha_equity.hand_history.sites import SITES, detect_site
from omaha_equity.errors import InputError
from omaha_equity.rules import ForcedBets, Hand, HandSettings, NoLimit
from site_hands import hand_by_id, read_hands, replayed

DATA = Path(__file__).parent / "data" / "pokerstars-variants"
RIO_1 = DATA / "PLO-6max-EUR-0.10-0.20-202005.RIO.1031503_45238934.txt"
RIO_2 = DATA / "PLO-6max-EUR-0.10-0.20-202005.RIO.1031503_45241627.txt"
RIO_SIDE_POTS = DATA / "PLO-6max-EUR-0.10-0.20-201904.RIO.Side.Pots.txt"
POKERMASTER = DATA / "5-Card-PLO-6max-USD-15-30-201905.PokerMaster.txt"




@pytest.mark.parametrize("path, count", [(RIO_1, 109), (RIO_2, 77), (RIO_SIDE_POTS, 1), (POKERMASTER, 1)])
def test_every_hand_is_read_and_replays_to_the_chips_collected(path, count):
    hands = read_hands(path)
    assert len(hands) == count
    failed = [result for result in map(replay_checked, hands) if isinstance(result, HandHistoryError)]
    if path == RIO_SIDE_POTS:
        # the room's "Uncalled bet (€8.43)" is Shaun J's stack behind: the bets leave €1.36
        # unmatched, which the summary's pots (main €62.60 + side €20.98 = total €83.58) agree with
        assert [error.reason for error in failed] == [
            "the replay gives Shaun J 136 back (pots won and uncalled chips returned), the file says 843 "
            "(chips of the smallest unit)"]
    else:
        assert failed == []


def test_site_is_told_from_the_first_line_and_sites_are_one_list():
    assert detect_site("Run It Once Poker Hand #45239444:  Omaha Pot Limit (€0.10/€0.20)") == "runitonce"
    assert detect_site("PokerMaster Hand #1905261509100000: Omaha Pot Limit ($15/$30 USD)") == "pokermaster"
    assert detect_site("PokerStars Hand #1: Omaha Pot Limit ($0.01/$0.02 USD)") == "pokerstars"
    assert detect_site("something else") is None
    assert CLI_SITES == SITES


def test_euro_sign_in_utf8_and_as_the_windows_1252_byte_0x80():
    assert RIO_SIDE_POTS.read_bytes().count(b"\x80") > 0
    for path in (RIO_1, RIO_SIDE_POTS):
        history = read_hands(path)[0].history
        assert history.currency == "EUR" and history.custom("_chip_value") == "0.01"
    history = read_hands(RIO_SIDE_POTS)[0].history
    assert dict(zip(history.players, history.starting_stacks)) == {
        "Dillion O": 2000, "Gary Q": 2080, "Hero": 3129, "Karl J": 2000, "Shaun J": 3972, "Terry C": 1893}


def test_splash_the_pot_money_is_dead_money_carried_by_p1_and_not_counted_as_paid():
    # STP added: €0.80; Total pot €17.70 | Main pot €16.90 | STP €0.80 | Rake €0.76; Brad A collected €16.94
    hand = hand_by_id(RIO_1, "45241640")
    history = hand.history
    assert history.custom("_added_to_pot") == {"p1": 80}
    assert history.players[0] == "Curtis B" and history.starting_stacks[0] == 4959 + 80
    assert history.custom("_dead_blinds")[0] == 80
    played = replayed(hand)
    brad = played.names.index("Brad A")
    assert played.won[brad] == 1694
    curtis = played.names.index("Curtis B")
    assert played.committed[curtis] == 90 and played.paid(curtis) == 10  # his small blind
    assert [player.committed for player in evaluate_hand(played).players][curtis] == 10


def test_seats_sitting_out_are_not_dealt_in():
    text = RIO_2.read_text(encoding="utf-8")
    marked = {block.split(":")[0].split("#")[1] for block in text.split("Run It Once Poker Hand #")[1:]
              for block in ["#" + block] if "Conner B (€19.30 in chips) - Sitting Out" in block}
    assert len(marked) == 3
    for hand in read_hands(RIO_2):
        if hand.hand_id in marked:
            assert "Conner B" not in hand.history.players


def test_shows_without_a_colon_are_read():
    # "Zach Y shows [Kc Kd 9c 2s] for Three of Kind ..."
    hand = hand_by_id(RIO_1, "45241594")
    assert "p6 sm KcKd9c2s" in hand.history.actions or any("sm KcKd9c2s" in action for action in hand.history.actions)
    assert isinstance(replay_checked(hand), PlayedHand)


def test_checks_printed_after_the_betting_is_over_are_left_out():
    # "Brandon C: calls €0.15" puts him all in (no mark); the room then prints
    # "Avery I: checks" and "Brandon C: checks and is all-in" on the turn
    played = replayed(hand_by_id(RIO_1, "45242415"))
    assert played.all_in_board_count == 3
    assert played.won[played.names.index("Avery I")] == 4001


def test_a_raise_nobody_could_call_is_read_with_the_site_setting():
    # Shaun J "raises €1.36 to €30.25" when Hero is all in and Gary Q covered
    history = read_hands(RIO_SIDE_POTS)[0].history
    assert history.custom("_raise_when_nobody_can_call") is True
    assert not any(hand.history.custom("_raise_when_nobody_can_call") for hand in read_hands(RIO_2))


def test_the_engine_refuses_a_raise_nobody_can_call_unless_the_setting_says_so():
    # the button folds, the small blind is all in for 100: the big blind can only call
    for setting in (False, True):
        table = Hand("omaha", NoLimit(2), [100, 1000, 1000], button=2, seed=1,
                     forced_bets=ForcedBets(antes=(0, 0, 0), blinds=(1, 2, 0)),
                     settings=HandSettings(raise_when_nobody_can_call=setting))
        table.fold()
        table.bet_or_raise_to(100)
        if not setting:
            with pytest.raises(InputError, match="nobody could call a raise"):
                table.bet_or_raise_to(150)
        else:
            table.bet_or_raise_to(150)  # any size: the unmatched 50 comes back
            assert table.returned[1] == 50


def test_pokermaster_five_card_game_named_omaha_and_its_json_line():
    hand = read_hands(POKERMASTER)[0]
    assert hand.history.variant == "P5O" and hand.format == "pokermaster"
    played = replayed(hand)
    assert played.won[played.names.index("pp1863696")] == 40900


def test_site_option_forces_a_reader_and_a_mixed_folder_reads_each_site(tmp_path):
    (tmp_path / "rio.txt").write_bytes(RIO_SIDE_POTS.read_bytes())
    (tmp_path / "pm.txt").write_bytes(POKERMASTER.read_bytes())
    stars = Path(__file__).parent / "data" / "pokerstars" / "PLO-FR-USD-0.01-0.02-201006.sidepots.txt"
    (tmp_path / "stars.txt").write_bytes(stars.read_bytes())
    formats = sorted({hand.format for hand in read_session([tmp_path]) if isinstance(hand, SessionHand)})
    assert formats == ["pokermaster", "pokerstars", "runitonce"]
    runner = CliRunner()
    forced = runner.invoke(main, ["ev", "--site", "pokerstars", str(tmp_path / "pm.txt")])
    assert forced.exit_code == 1 and "failed 1" in forced.output
    read = runner.invoke(main, ["ev", "--site", "pokermaster", str(tmp_path / "pm.txt")])
    assert read.exit_code == 0 and "replayed 1" in read.output
