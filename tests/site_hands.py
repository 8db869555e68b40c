"""Reading the site files under tests/data/ for the hand-history tests of each site: every
hand of a file (no file-level error allowed), one hand by id, a hand replayed and checked."""

from __future__ import annotations

from pathlib import Path

from omaha_equity.hand_history.errors import HandHistoryError
from omaha_equity.hand_history.file_replay import PlayedHand, replay_checked
from omaha_equity.hand_history.records import SessionHand
from omaha_equity.hand_history.sessions import read_hand_history_file


def read_hands(path: Path) -> list[SessionHand]:
    """Every hand of the file at ``path``; fails the test on any hand that could not be read."""
    hands = read_hand_history_file(path)
    assert not [hand for hand in hands if isinstance(hand, HandHistoryError)]
    return [hand for hand in hands if isinstance(hand, SessionHand)]


def hand_by_id(path: Path, hand_id: str) -> SessionHand:
    """The hand ``hand_id`` of the file at ``path``."""
    return next(hand for hand in read_hands(path) if hand.hand_id == hand_id)


def replayed(hand: SessionHand) -> PlayedHand:
    """``hand`` replayed and checked against its file; fails the test if it does not replay."""
    played = replay_checked(hand)
    assert isinstance(played, PlayedHand), played
    return played
