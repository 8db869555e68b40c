"""GGPoker text hand histories on their real files (tests/data/ggpoker, sources in its README):
every hand is read and replays to the chips each player collected, and each GGPoker quirk is
read on a real hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from omaha_equity.hand_history.errors import HandHistoryError
from omaha_equity.hand_history.file_replay import PlayedHand, replay_checked
from omaha_equity.hand_history.ggpoker import parse_ggpoker_block
from omaha_equity.hand_history.records import SessionHand
from omaha_equity.hand_history.sites import detect_site
from omaha_equity.hand_history.text_files import TextBlock
from site_hands import read_hands, replayed

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


def test_insurance_and_ev_cashout_are_refused_with_their_line():
    lines = (DATA / "PLO-6max-USD-0.01-0.02-202104.STP.txt").read_text().splitlines()
    lines.insert(30, "Hero: Chooses to EV Cashout")
    error = parse_ggpoker_block(TextBlock("x.txt", 1, tuple(lines)))
    assert isinstance(error, HandHistoryError) and error.line_number == 31 and "EV Cashout" in error.reason
