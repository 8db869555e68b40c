"""Winamax text hand histories on their real files (tests/data/winamax, sources in its README):
every hand is read and replays to the chips each player collected, and each Winamax quirk is
read on a real hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from omaha_equity.hand_history.errors import HandHistoryError
from omaha_equity.hand_history.file_replay import replay_checked
from omaha_equity.hand_history.records import SessionHand
from site_hands import read_hands, replayed

DATA = Path(__file__).parent / "data" / "winamax"
COUNTS = {
    "PLO-FR-EUR-0.02-0.05-201009.Sample.txt": 60, "5-Card-PLO8-6max-EUR-1.00-2.00-201611.txt": 1,
    "PLO8-2max-play-0.05-0.10-201610.export.txt": 1, "PLO-5max-EUR-1.00-2.00-201407.ante.raise.txt": 2,
    "PLO-5max-EUR-2-4-202104.no.colon.txt": 1,
}


def _hands(name: str) -> list[SessionHand]:
    return read_hands(DATA / name)


@pytest.mark.parametrize("name, count", sorted(COUNTS.items()))
def test_every_hand_is_read_and_replays_to_the_chips_collected(name, count):
    hands = _hands(name)
    assert len(hands) == count and {hand.format for hand in hands} == {"winamax"}
    assert [result for result in map(replay_checked, hands) if isinstance(result, HandHistoryError)] == []


@pytest.mark.parametrize("name, variant, currency", [
    ("PLO-FR-EUR-0.02-0.05-201009.Sample.txt", "PO", "EUR"),
    ("5-Card-PLO8-6max-EUR-1.00-2.00-201611.txt", "P5O/8", "EUR"),
    ("PLO8-2max-play-0.05-0.10-201610.export.txt", "PO/8", "XXX"),
])
def test_games_and_currencies(name, variant, currency):
    history = _hands(name)[0].history
    assert (history.variant, history.currency) == (variant, currency)


def test_an_unmatched_bet_stays_in_the_pot_and_is_collected():
    # Player1 "raises 85€ to 110.50€", Player0 folds; "Player1 collected 167€", Total pot 167€ | Rake 3€
    played = replayed(_hands("PLO-5max-EUR-2-4-202104.no.colon.txt")[0])
    player1 = played.names.index("Player1")
    assert played.won[player1] + 8500 == 16700


def test_seats_not_in_the_hand_are_left_out():
    hand = _hands("PLO-FR-EUR-0.02-0.05-201009.Sample.txt")[1]  # Player7 and Player0 seated, not in it
    assert "Player7" not in hand.history.players and len(hand.history.players) == 6


def test_a_raise_among_the_blinds_is_a_small_and_big_blind_post():
    # "Player3 raises 1€ to 3€" then "Player3 posts small blind 1€": 2€ live, 2€ dead
    played = replayed(_hands("PLO-5max-EUR-1.00-2.00-201407.ante.raise.txt")[0])
    player3 = played.names.index("Player3")
    assert played.dead_chips[player3] == 200 and played.committed[player3] == 400


def test_hi_lo_halves_collected():
    played = replayed(_hands("PLO8-2max-play-0.05-0.10-201610.export.txt")[0])
    assert sum(played.won) > 0 and all(won > 0 for won in played.won)
