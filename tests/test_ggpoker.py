"""GGPoker text hand histories on their real files (tests/data/ggpoker, sources in its README):
every hand is read and replays to the chips each player collected, and each GGPoker quirk is
read on a real hand."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from omaha_equity.hand_history.errors import HandHistoryError
from omaha_equity.hand_history.file_replay import PlayedHand, replay_checked
from omaha_equity.hand_history.records import SessionHand
from omaha_equity.hand_history.sessions import read_hand_history_file
from omaha_equity.hand_history.sites import detect_site
from site_hands import hand_by_id, read_hands, replayed

DATA = Path(__file__).parent / "data" / "ggpoker"
COUNTS = {
    "PLO-6max-MTT-USD-1k-202006.txt": 67, "PLO-6max-USD-0.5-1.00-202006.txt": 13,
    "PLO-6max-USD-2-5-202101.RIT.txt": 1, "PLO5-6max-USD-0.1-0.25-202104.over.straddle.txt": 1,
    "PLO5-6max-USD-2-5-202104.missed.txt": 1, "PLO-6max-USD-0.01-0.02-202104.STP.txt": 1,
    "PLO5-6max-USD-25-50-202104.straddle.txt": 1,
}


def _hands(name: str) -> list[SessionHand]:
    return read_hands(DATA / name)


def _played(name: str) -> PlayedHand:
    return replayed(_hands(name)[0])


@pytest.mark.parametrize("name, count", sorted(COUNTS.items()))
def test_every_hand_is_read_and_replays_to_the_chips_collected(name, count):
    hands = _hands(name)
    assert len(hands) == count and {hand.format for hand in hands} == {"ggpoker"}
    assert [result for result in map(replay_checked, hands) if isinstance(result, HandHistoryError)] == []


def test_header_hand_id_game_and_currency():
    assert detect_site("Poker Hand #OM232657303: PLO ($2/$5) - 2021/01/21 02:41:55") == "ggpoker"
    hand = _hands("PLO-6max-USD-2-5-202101.RIT.txt")[0]
    assert hand.hand_id == "OM232657303" and hand.history.variant == "PO" and hand.history.currency == "USD"
    assert _hands("PLO5-6max-USD-2-5-202104.missed.txt")[0].history.variant == "P5O"
    tournament = _hands("PLO-6max-MTT-USD-1k-202006.txt")[0]
    assert tournament.hand_id.startswith("TM") and tournament.history.currency is None
    assert tournament.history.custom("_tournament") == "5948181"


def test_run_twice_one_collection_per_run_and_a_missed_blind_as_dead_money():
    # 3b7dff87 posts missed blind $2 and big blind $5; all in preflop, run twice:
    # $48.93 to 3b7dff87 on the first board, $48.92 to Hero on the second (rake $5.15)
    hand = _hands("PLO-6max-USD-2-5-202101.RIT.txt")[0]
    assert hand.history.custom("_run_count") == 2
    played = _played("PLO-6max-USD-2-5-202101.RIT.txt")
    assert len(played.boards) == 2
    short = played.names.index("3b7dff87")
    assert played.won[short] == 4893 and played.won[played.names.index("Hero")] == 4892
    assert played.dead_chips[short] == 200 and played.all_in_board_count == 0


def test_cash_drop_is_dead_money_and_the_jackpot_is_taken_beside_the_rake():
    # Cash Drop to Pot : total $0.2; Total pot $2.81 | Rake $0.06 | Jackpot $0.02; collected $2.73
    hand = _hands("PLO-6max-USD-0.01-0.02-202104.STP.txt")[0]
    assert hand.history.custom("_added_to_pot") == {"p1": 20} and hand.history.custom("_rake") == 8
    played = _played("PLO-6max-USD-0.01-0.02-202104.STP.txt")
    assert played.won[played.names.index("291a0936")] == 273
    assert played.paid(0) == played.committed[0] - 20


def test_a_straddle_is_the_players_new_total():
    # the big blind's "straddle $100" makes his bet 100 (Total pot $255 with three $10 antes)
    played = _played("PLO5-6max-USD-25-50-202104.straddle.txt")
    assert played.committed[played.names.index("ce67ea41")] == 10000 + 1000
    # the button's "straddle $0.5" then "straddle $15.35 and is all-in": his stack, $15.10 returned
    over = _hands("PLO5-6max-USD-0.1-0.25-202104.over.straddle.txt")[0]
    assert over.history.custom("_returned")[over.history.players.index("9e7f64d4")] == 1510


def test_2020_cash_summary_without_a_rake_field():
    # "Total pot $7.5" alone: the fee is what the pot left after what was collected
    assert all(isinstance(replay_checked(hand), PlayedHand) for hand in _hands("PLO-6max-USD-0.5-1.00-202006.txt"))


# Money settled with GGPoker outside the pot (EV Cashout, all-in insurance): hands written for
# this project in GGPoker's line shapes (tests/data/ggpoker-written/README.md gives the sources).
WRITTEN = Path(__file__).parent / "data" / "ggpoker-written" / "PLO-6max-USD-0.5-1-outside.pot.txt"


def _settled(hand_id):
    from omaha_equity.ev.hand_ev import evaluate_hand

    played = replayed(hand_by_id(WRITTEN, hand_id))
    return played, {player.name: player for player in evaluate_hand(played).players}


def test_ev_cashout_is_kept_apart_from_the_pot_the_replay_checks():
    played, players = _settled("OM900000001")
    hero = players["Hero"]
    # the pot is played and collected as the file says: Hero won $76 after $3 rake and $1 jackpot
    assert hero.won == 7600 and hero.committed == 4000 and sum(played.pot_rakes) == 400
    assert (hero.outside_pot.kind, hero.outside_pot.paid, hero.outside_pot.received) == ("EV Cashout", 264, 0)
    # he took home the cash-out, $73.36: the pot less the risk paid; his all-in EV on the flop
    # is 270180/41 cents (tests/test_site_all_in_ev.py checks it by brute force)
    assert hero.took_home == 7336 and hero.all_in_ev == Fraction(270180, 41)
    assert hero.luck == 7600 - Fraction(270180, 41)  # the pot's luck, as for any hand
    assert hero.outside_pot_against_ev == 7336 - Fraction(270180, 41)
    assert played.outside_pot and "_outside_pot" in hand_by_id(WRITTEN, "OM900000001").history.user_defined_fields


def test_a_cashed_out_player_who_loses_the_pot_receives_the_cash_out():
    _, players = _settled("OM900000002")
    hero = players["Hero"]
    assert hero.won == 0 and hero.outside_pot.received == 14286 and hero.took_home == 14286
    assert hero.outside_pot_against_ev == 14286 - Fraction(543160, 41)


def test_all_in_insurance_premium_and_compensation_are_kept_apart():
    _, players = _settled("OM900000003")
    hero = players["Hero"]
    assert (hero.outside_pot.kind, hero.outside_pot.paid, hero.outside_pot.received) == ("all-in insurance", 440, 1200)
    assert hero.won == 0 and hero.took_home == 760 and players["23aca38f"].outside_pot is None


def test_ev_reports_money_outside_the_pot_in_the_note_and_the_summary():
    from omaha_equity.ev.session import analyze_session
    from omaha_equity.views.ev import hand_rows, player_rows

    session = analyze_session([WRITTEN])
    assert session.failed_count == 0
    [row] = [row for row in hand_rows(session.hands[0]) if row["player"] == "Hero"]
    assert row["won"] == "76.00" and row["note"] == (
        "EV Cashout: Hero paid 2.64, received 0.00 outside the pot: took home 73.36, 7.46 above the all-in EV")
    hero = next(row for row in player_rows(session.players) if row["player"] == "Hero")
    assert hero["outside_pot"] == "147.82"  # -2.64 + 142.86 - 4.40 + 12.00


def test_a_settlement_line_we_do_not_read_and_one_naming_no_player_are_errors(tmp_path):
    text = WRITTEN.read_text()
    for old, new, reason in [
        ("Hero: Chooses to EV Cashout", "Hero: buys an insurance plan", "money settled outside the pot that is not read"),
        ("Hero: Pays Cashout Risk ($2.64)", "Nobody: Pays Cashout Risk ($2.64)", "'Nobody' settles money outside the pot"),
    ]:
        path = tmp_path / "bad.txt"
        path.write_text(text.replace(old, new, 1))
        results = read_hand_history_file(path)
        assert isinstance(results[0], HandHistoryError) and reason in results[0].reason
        assert results[0].line_number == text.splitlines().index(old) + 1
