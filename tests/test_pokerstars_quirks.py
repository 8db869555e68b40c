"""PokerStars files as they really are (issue 14, section 2): each quirk of real files in a small
file written by hand in the site's format (tests/data/pokerstars-quirks, README there), and the
two real files that showed them (tests/data/pokerstars: the knockout sit-and-go and the
converted file, from the fpdb project's regression files)."""

from __future__ import annotations

from pathlib import Path

import pytest

from omaha_equity.hand_history.pokerstars import read_pokerstars
from omaha_equity.hand_history.file_replay import replay_pokerstars_hand
from omaha_equity.hand_history.pokerstars_phh import to_hand_history
from omaha_equity.ev.session import analyze_session
from omaha_equity.hand_history.errors import CancelledHandError, HandHistoryError

QUIRKS = Path(__file__).parent / "data" / "pokerstars-quirks"
REAL = Path(__file__).parent / "data" / "pokerstars"
KNOCKOUT = REAL / "NLO8-USD-STT-201109.Knockout.sample.txt"
CONVERTED = REAL / "PLO-6max-USD-5-10-201509.converted.uncalled.bet.txt"


def _line_of(path: Path, text: str, start: int = 0) -> int:
    """1-based number of the first line equal to ``text`` after line ``start``."""
    lines = path.read_text().splitlines()
    return lines.index(text, start) + 1


def _won(played) -> dict[str, int]:
    return dict(zip(played.names, played.won))


def test_seat_sitting_out_that_posts_and_folds_is_kept_and_one_taking_no_part_is_left_out():
    [hand] = read_pokerstars(QUIRKS / "sitting-out-posts.txt")
    assert hand.names == ["Anna", "Boris", "Carla", "Hero"]  # Dmitri sat out and did nothing
    assert [(post.name, post.amount) for post in hand.posts] == [("Anna", 25), ("Boris", 50)]
    played = replay_pokerstars_hand(hand)
    assert dict(zip(played.names, played.committed)) == {"Anna": 300, "Boris": 50, "Carla": 300, "Hero": 0}
    assert _won(played)["Carla"] == 650  # Boris's blind is in the pot: 300 + 50 + 300


def test_post_by_a_name_without_a_seat_is_an_error_at_its_line():
    path = QUIRKS / "post-by-unseated-name.txt"
    [error] = read_pokerstars(path)
    assert isinstance(error, HandHistoryError)
    assert error.line_number == _line_of(path, "Boris: posts big blind 50")
    assert "'Boris' posts but has no seat" in error.reason


def test_chat_that_reads_like_an_action_is_not_one(tmp_path):
    text = (QUIRKS / "action-markers.txt").read_text()
    path = tmp_path / "chat.txt"
    path.write_text(_replaced(text, "Anna: doesn't show hand", 'Anna: doesn\'t show hand\nBoris said, "me: folds, lol"'))
    [hand] = read_pokerstars(path)
    assert _won(replay_pokerstars_hand(hand))["Anna"] == 62


def test_fold_with_nothing_to_call_replays_and_says_so_in_phh():
    [hand] = read_pokerstars(QUIRKS / "fold-when-check-possible.txt")
    history, _ = to_hand_history(hand)
    assert history.custom("_fold_when_check_allowed") is True
    assert _won(replay_pokerstars_hand(hand)) == {"Boris": 0, "Hero": 0, "Anna": 29}
    # a hand without such a fold does not carry the setting
    [plain] = read_pokerstars(QUIRKS / "action-markers.txt")
    assert to_hand_history(plain)[0].custom("_fold_when_check_allowed") is None


def test_all_in_raise_nobody_calls_in_full_returns_the_excess_and_the_winner_cashes_out():
    [hand] = read_pokerstars(QUIRKS / "all-in-raise-uncalled-cash-out.txt")
    assert hand.uncalled == {"Hero": 300} and hand.cash_outs == {"Hero": (880, 9)}
    played = replay_pokerstars_hand(hand)
    assert dict(zip(played.names, played.committed)) == {"Boris": 5, "Hero": 500, "Anna": 500}
    assert _won(played) == {"Boris": 0, "Hero": 955, "Anna": 0}  # 1005 less the 50 rake
    assert played.received(played.names.index("Hero")) == 880  # the cash-out instead of the pot


def test_actions_with_a_trailing_disconnect_or_timeout_marker():
    [hand] = read_pokerstars(QUIRKS / "action-markers.txt")
    assert [(action.name, action.kind) for action in hand.actions if action.kind == "fold"] == [
        ("Boris", "fold"), ("Hero", "fold")]
    assert _won(replay_pokerstars_hand(hand))["Anna"] == 62


def test_cancelled_hand_is_counted_as_cancelled_not_failed():
    path = QUIRKS / "cancelled.txt"
    cancelled, hand = read_pokerstars(path)
    assert isinstance(cancelled, CancelledHandError) and cancelled.line_number == _line_of(path, "Hand cancelled")
    assert "cancelled" in cancelled.reason and "field" not in cancelled.reason
    session = analyze_session([path])
    assert (session.read_count, session.replayed_count, session.failed_count, session.totals.cancelled_count) == (
        2, 1, 0, 1)
    assert [error.hand_id for error in session.cancelled] == ["900000000006"]


def test_old_zoom_and_mixed_game_headers_are_read():
    hands = read_pokerstars(QUIRKS / "old-headers.txt")
    assert not [hand for hand in hands if isinstance(hand, HandHistoryError)]
    old, zoom, mixed_tournament, mixed_cash = hands
    assert (old.max_seats, old.button_seat, old.currency, old.stakes) == (0, 2, "USD", (10, 25))
    assert (zoom.tournament_id, zoom.currency, zoom.stakes, zoom.game) == ("2000001", None, (10, 20), "omaha")
    assert (mixed_tournament.tournament_id, mixed_tournament.game, mixed_tournament.stakes) == (
        "2000002", "omaha8", (15, 30))
    assert (mixed_cash.game, mixed_cash.currency, mixed_cash.stakes) == ("omaha", "USD", (5, 10))
    assert [_won(replay_pokerstars_hand(hand))["Hero"] for hand in hands] == [48, 120, 60, 10]
    assert to_hand_history(old)[0].seat_count is None  # the table size is not known


def test_street_printed_as_empty_brackets_takes_the_board_from_the_summary():
    path = QUIRKS / "empty-street-cards.txt"
    hand, unknown = read_pokerstars(path)
    assert hand.boards == ["Jd 7s 3h 9c 4d"]
    assert _won(replay_pokerstars_hand(hand)) == {"Anna": 0, "Hero": 19}
    # Without a summary board the board is unknown: an error at the first "[]" street.
    assert isinstance(unknown, HandHistoryError)
    assert unknown.line_number == _line_of(path, "*** FLOP *** []", hand.last_line)
    assert "printed as '[]'" in unknown.reason


def test_converted_file_booking_an_unmatched_bet_as_collected_replays():
    [hand] = read_pokerstars(QUIRKS / "converted-unmatched-bet.txt")
    assert hand.uncalled == {} and hand.collected_by("PLR_1") == 5000
    played = replay_pokerstars_hand(hand)  # each player's net chips agree with the file
    assert _won(played) == {"PLR_2": 0, "PLR_3": 0, "PLR_1": 2500}  # and 2500 returned
    history = to_hand_history(hand)[0]
    assert dict(zip(history.players, history.finishing_stacks)) == {"PLR_1": 80000 - 3500 + 5000,
                                                                     "PLR_2": 27053 - 500, "PLR_3": 59700 - 1000}


def test_payout_that_differs_is_reported_at_the_players_collected_line(tmp_path):
    text = (QUIRKS / "action-markers.txt").read_text().replace("Anna collected $0.62", "Anna collected $0.63")
    path = tmp_path / "differs.txt"
    path.write_text(text)
    [error] = analyze_session([path]).failures
    assert error.line_number == _line_of(path, "Anna collected $0.63 from pot")
    assert "gives Anna 107 back" in error.reason and "the file says 108" in error.reason  # and 45 returned


def test_real_knockout_file_replays_every_hand_with_its_sitting_out_seats_and_fold_for_nothing():
    hands = read_pokerstars(KNOCKOUT)
    assert len(hands) == 73 and not [hand for hand in hands if isinstance(hand, HandHistoryError)]
    # 68174129317: barlowdog1 sits out, posts the big blind 50 and folds: the winner's 650 holds it.
    sitting_out = next(hand for hand in hands if hand.hand_id == "68174129317")
    assert "barlowdog1" in sitting_out.names
    assert _won(replay_pokerstars_hand(sitting_out))["StaKuGorPS"] == 650
    # 68173332012: APTEM-89 folds on the river when all checked to him.
    fold = next(hand for hand in hands if hand.hand_id == "68173332012")
    assert to_hand_history(fold)[0].custom("_fold_when_check_allowed") is True
    session = analyze_session([KNOCKOUT])
    assert (session.read_count, session.replayed_count, session.all_in_count, session.evaluated_count,
            session.failed_count) == (73, 73, 21, 21, 0)


def test_real_converted_file_replays():
    [hand] = read_pokerstars(CONVERTED)
    played = replay_pokerstars_hand(hand)
    assert _won(played)["PLR_7233719GD"] == 1000  # the file's $15: the $10 pot and his $5 unmatched
    history = to_hand_history(hand)[0]
    assert dict(zip(history.players, history.finishing_stacks))["PLR_7233719GD"] == 190787 - 1000 + 1500


@pytest.mark.parametrize("old, new, at", [
    ("Dealt to Hero [2c 7d 8h Kc]", "Dealt to Hero [2c 7d 8h Kx]", "Dealt to Hero [2c 7d 8h Kx]"),  # not a card
    ("Dealt to Hero [2c 7d 8h Kc]", "Dealt to Hero [2c 7d 8h 8h]", "Dealt to Hero [2c 7d 8h 8h]"),  # twice in a hand
    ("Dealt to Hero [2c 7d 8h Kc]", "Dealt to Hero [2c 7d 9s Kc]", "*** FLOP *** [Ah 9s 3d]"),  # in a hand and the board
])
def test_a_bad_card_is_reported_at_the_line_that_shows_it(tmp_path, old, new, at):
    text = (QUIRKS / "fold-when-check-possible.txt").read_text()
    path = tmp_path / "cards.txt"
    path.write_text(_replaced(text, old, new))
    [error] = analyze_session([path]).failures
    assert error.line_number == _line_of(path, at)


def _replaced(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new)


@pytest.mark.parametrize("header, tournament, game, stakes", [
    ("PokerStars Zoom Hand #123456789012: Tournament #2000001, $3.30+$0.20 USD Omaha Pot Limit - Level I (10/20)"
     " - 2014/05/01 20:00:00 ET", "2000001", "omaha", (10, 20)),
    ("PokerStars Hand #123456789012: Rush Tournament #2000001, $3.30+$0.20 USD Omaha Pot Limit - Level I (10/20)"
     " - 2014/05/01 20:00:00 ET", "2000001", "omaha", (10, 20)),
    ("PokerStars Hand #123456789012: Tournament #2000001, Freeroll  Omaha Pot Limit - Level I (10/20)"
     " - 2014/05/01 20:00:00 ET", "2000001", "omaha", (10, 20)),
    ("PokerStars Hand #123456789012: Tournament #2000001, Table #7, $3.30+$0.20 USD Omaha Pot Limit - Level I "
     "(10/20) - 2014/05/01 20:00:00 ET", "2000001", "omaha", (10, 20)),
    ("PokerStars Hand #123456789012: Tournament #2000001, $10+$1 USD Mixed Omaha (Omaha Pot Limit) - Level I "
     "(10/20) - 2014/05/01 20:00:00 ET", "2000001", "omaha", (10, 20)),
])
def test_tournament_header_forms(tmp_path, header, tournament, game, stakes):
    zoom = (QUIRKS / "old-headers.txt").read_text().split("\n\n\n\n")[1]
    path = tmp_path / "header.txt"
    path.write_text(header + "\n" + zoom.split("\n", 1)[1])
    [hand] = read_pokerstars(path)
    assert (hand.tournament_id, hand.game, hand.stakes, hand.currency) == (tournament, game, stakes, None)
    assert _won(replay_pokerstars_hand(hand))["Hero"] == 120


def test_a_2005_hand_without_an_uncalled_bet_line_returns_the_unmatched_bet():
    # Hero's $1.60 flop bet is not called: the file prints no "Uncalled bet" line, and its
    # total pot ($1.60) and Hero's $1.55 collected leave the bet out
    [hand] = read_pokerstars(QUIRKS / "no-uncalled-line-2005.txt")
    assert hand.uncalled == {}
    history = to_hand_history(hand)[0]
    assert dict(zip(history.players, history.custom("_returned"))) == {"Anna": 0, "Boris": 0, "Hero": 160}
    assert dict(zip(history.players, history.finishing_stacks)) == {"Anna": 2390, "Boris": 6325, "Hero": 2680}
    played = replay_pokerstars_hand(hand)
    assert _won(played) == {"Anna": 0, "Boris": 0, "Hero": 155}
    # converted files book the unmatched bet as collected: nothing is inferred there
    [converted] = read_pokerstars(QUIRKS / "converted-unmatched-bet.txt")
    assert to_hand_history(converted)[0].custom("_returned") == (0, 0, 0)


def test_a_garbled_street_line_takes_the_board_from_the_summary_with_a_note():
    path = QUIRKS / "garbled-street-cards.txt"
    hand, unknown = read_pokerstars(path)
    assert hand.boards == ["2s 3d 3c 8d 6s"]
    flop_line = _line_of(path, "*** FLOP *** [2s] [2s3d 3c]")
    assert len(hand.notes) == 2 and hand.notes[1] == (
        f"line {flop_line}: the street's cards are garbled ('*** FLOP *** [2s] [2s3d 3c]'); "
        "the board is the summary's [2s 3d 3c 8d 6s]")
    played = replay_pokerstars_hand(hand)
    assert _won(played) == {"Hero": 0, "Anna": 3100}
    session = analyze_session([path])
    [read] = session.hands
    assert read.note.startswith(f"line {_line_of(path, '*** HOLE CARDS *** [2s]*** HOLE CARDSPRE-FLOP *** [2s]')}: ")
    # with no whole summary board the garbled line is the hand's error
    assert isinstance(unknown, HandHistoryError)
    assert unknown.line_number == _line_of(path, "*** FLOP *** [Jh] [Jh5d 2c]")
    [failure] = session.failures
    assert failure.hand_id == "900000000021"
