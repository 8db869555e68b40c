"""Bovada text hand histories on their real files (tests/data/bovada, sources in its README):
every hand is read, every complete hand replays to the chips each player collected (Bovada's
odd-chip rule included), and each Bovada quirk is read on a real hand."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from omaha_equity.hand_history.errors import HandHistoryError
from omaha_equity.hand_history.file_replay import replay_checked
from omaha_equity.hand_history.records import SessionHand
from omaha_equity.hand_history.sessions import read_hand_history_file
from omaha_equity.hand_history.sites import detect_site
from site_hands import hand_by_id, read_hands, replayed

DATA = Path(__file__).parent / "data" / "bovada"
CASH = "PLO8-9max-USD-0.02-0.05-201408.corrupted.lines.txt"
ALL_IN = "PLO-USD-2.00-4.00-201205.multiway.allin.txt"
TOURNAMENT = "PLO8-9max-USD-10-MTT-201207.txt"
COUNTS = {CASH: 51, ALL_IN: 1, TOURNAMENT: 1}


def _hands(name: str) -> list[SessionHand]:
    return read_hands(DATA / name)


def _hand(name: str, hand_id: str) -> SessionHand:
    return hand_by_id(DATA / name, hand_id)


@pytest.mark.parametrize("name, count", sorted(COUNTS.items()))
def test_every_hand_is_read_and_replays_to_the_chips_collected(name, count):
    hands = _hands(name)
    assert len(hands) == count and {hand.format for hand in hands} == {"bovada"}
    failed = {hand.hand_id: result for hand in hands
              if isinstance(result := replay_checked(hand), HandHistoryError)}
    assert failed == {}


@pytest.mark.parametrize("hand_id, won", [
    # pot $9.62 after rake: high half 481 to Dealer, low half 481 split with [ME]: 240 each,
    # the odd cent to the high winner (Dealer 4.82 HI + 2.40 LO, [ME] 2.40 LO, as the file says)
    ("2902256725", {"Dealer": 722, "[ME]": 240}),
    # pot $0.95 after rake: high 48, low 47 split two ways: 23 each, the odd cent to the high
    # (Big Blind 0.49 HI, Small Blind and UTG+3 0.23 LO each)
    ("2902266598", {"Big Blind": 49, "Small Blind": 23, "UTG+3": 23}),
])
def test_bovada_pays_the_odd_cent_of_a_split_low_half_to_the_high_winner(hand_id, won):
    hand = _hand(CASH, hand_id)
    assert hand.history.custom("_odd_chip") == "low remainder to high"
    played = replayed(hand)
    assert {name: chips for name, chips in zip(played.names, played.won) if chips} == won
    # the engine's own rule pays that cent to the first low winner left of the button instead
    default = dataclasses.replace(hand, history=hand.history.replace(user_defined_fields={
        key: value for key, value in hand.history.user_defined_fields.items() if key != "_odd_chip"}))
    result = replay_checked(default)
    assert isinstance(result, HandHistoryError) and "back (pots won and uncalled chips returned)" in result.reason


def test_the_site_is_told_from_the_first_line():
    assert detect_site("Bovada Hand #2605762685 TBL#1218245 OMAHA Pot Limit - 2012-05-14 00:54:46") == "bovada"


def test_positions_name_the_players_and_the_user_is_me():
    # "Seat 2: Dealer [ME] ($124 in chips)", "Dealer  [ME] : Card dealt to a spot [Js Ad Jd 9h]"
    history = _hands(ALL_IN)[0].history
    assert set(history.players) == {"UTG+2", "[ME]", "Small Blind", "Big Blind", "UTG", "UTG+1"}
    assert history.variant == "PO" and history.currency == "USD"
    assert "d dh p" in history.actions[0] and "??" not in " ".join(history.actions[:6])


def test_all_in_raises_and_the_side_pot_replay():
    # "Dealer [ME] : All-in(raise) $124", "Big Blind : All-in(raise) $400", "UTG : Calls $324";
    # "Big Blind : Hand result-Side pot $550.22", "Dealer [ME] : Hand result $376.78", Rake ($3)
    played = replayed(_hands(ALL_IN)[0])
    assert played.won[played.names.index("Big Blind")] == 55022
    assert played.won[played.names.index("[ME]")] == 37678


def test_raises_to_and_no_rake_written():
    # "UTG+4 : Raises $0.10 to $0.10"; "Total Pot($1.80)" while "UTG+4 : Hand result $1.71"
    hand = _hand(CASH, "2902233667")
    assert hand.history.custom("_rake") == 9
    replayed(hand)


def test_table_events_inside_a_hand_carry_no_chips():
    # "Dealer : Seat stand", "Dealer : Table leave user" between actions (hand 2902238171)
    replayed(_hand(CASH, "2902238171"))


def test_a_dealer_line_without_a_name_is_an_empty_button_seat():
    # "Set dealer/Bring in spot" alone: no seat 6, the small blind is seat 7
    history = _hand(CASH, "2902237475").history
    assert history.players[0] == "Small Blind" and history.seats[0] == 7
    replayed(_hand(CASH, "2902237475"))


def test_a_hand_without_a_small_blind_still_has_its_stakes():
    # hand 2902236874: only "Big blind/Bring in $0.05" is posted
    replayed(_hand(CASH, "2902236874"))


def test_a_tournament_hand_without_its_flop_line():
    # "Big Blind : Call 100", "Big Blind : Checks" (the flop: no '*** FLOP ***' line), "UTG+5 : Bets
    # 450", "Return uncalled portion of bet 450", "Hand Result 450"; Board [5d 5h 9d]
    hand = _hands(TOURNAMENT)[0]
    assert hand.history.currency is None
    assert "d db 5d5h9d" in hand.history.actions
    replayed(hand)


def test_a_line_that_lost_its_name_makes_its_hand_one_error_and_the_rest_go_on(tmp_path):
    lines = (DATA / CASH).read_bytes().split(b"\n")
    number = next(index for index, line in enumerate(lines) if line.startswith(b"UTG+1 : Calls $0.05")) + 1
    lines[number - 1] = b"Calls $0.05 "
    damaged = tmp_path / CASH
    damaged.write_bytes(b"\n".join(lines))
    items = read_hand_history_file(damaged)
    errors = [item for item in items if isinstance(item, HandHistoryError)]
    assert len(items) == 51 and len(errors) == 1
    assert errors[0].line_number == number and "Calls $0.05" in errors[0].reason
