"""`omaha-equity convert FILE... -o OUT` (issue 14, section 4): PokerStars text and PHH in, PHH out;
one error line per hand that cannot be converted, the others go on; OUT written whole or not at
all. Every converted hand replays through `play` to the stacks of the original file, rake
included, and every converted pot-limit Omaha hand (`PO`) loads in pokerkit and replays there
to the same stacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from omaha_equity.cli import main
from omaha_equity.hand_history import load_all
from omaha_equity.hand_history.pokerstars import read_pokerstars
from omaha_equity.hand_history.errors import HandHistoryError
from omaha_equity.hand_history.sessions import read_hand_history_file

DATA = Path(__file__).parent / "data"
POKERSTARS = DATA / "pokerstars"
QUIRKS = DATA / "pokerstars-quirks"
WSOP = DATA / "wsop-2023-43"


def _convert(*args):
    return CliRunner().invoke(main, ["convert", *map(str, args)])


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    """Every real hand and every quirk file converted to one .phhs file."""
    out = tmp_path_factory.mktemp("convert") / "all.phhs"
    result = _convert(POKERSTARS, WSOP, QUIRKS, "-o", out)
    return out, result


def _file_stacks(path: Path) -> dict[str, list[int]]:
    """The stacks after each PokerStars hand, from the file alone: each seat's stack, less what
    its actions and posts put in, plus what it collected and was returned."""
    stacks = {}
    for hand in read_pokerstars(path):
        if isinstance(hand, HandHistoryError):
            continue
        put_in = {seat.name: 0 for seat in hand.seats}
        for post in hand.posts:
            put_in[post.name] += post.amount
        round_bets: dict[str, int] = {}
        street = "preflop"
        for post in hand.posts:
            if post.kind != "ante":
                round_bets[post.name] = round_bets.get(post.name, 0) + post.amount - post.dead
        for action in hand.actions:
            if action.street != street:
                street, round_bets = action.street, {}
            before = round_bets.get(action.name, 0)
            after = action.amount if action.kind == "raise" else before + action.amount
            round_bets[action.name] = after
            put_in[action.name] += after - before
        stacks[hand.hand_id] = {seat.name: seat.stack - put_in[seat.name] + (
            hand.collected_by(seat.name) if any(entry.name == seat.name for entry in hand.collected)
            else hand.summary_won.get(seat.name, 0)) + hand.uncalled.get(seat.name, 0)
            + RETURNED_WITHOUT_A_LINE.get(hand.hand_id, {}).get(seat.name, 0) for seat in hand.seats}
    return stacks


# Chips a file returned without an "Uncalled bet" line (a 2005 file): Hero's $1.60 flop bet,
# which nobody called, left out of the total pot and of what he collected.
RETURNED_WITHOUT_A_LINE = {"2453460001": {"Hero": 160}}


def test_convert_writes_every_hand_and_one_line_per_hand_it_cannot_convert(converted):
    out, result = converted
    assert result.exit_code == 1  # three quirk files hold a bad hand on purpose
    lines = result.stderr.splitlines()
    assert [line.split(",")[0] for line in lines if line.startswith("error:")] == [
        f"error: {QUIRKS / 'empty-street-cards.txt'}", f"error: {QUIRKS / 'garbled-street-cards.txt'}",
        f"error: {QUIRKS / 'post-by-unseated-name.txt'}"]
    # a live big blind posted out of the blinds: written, and a note says pokerkit cannot replay it
    assert [line.split(": ")[1].split(", ")[-1] for line in lines if line.startswith("note:")] == [
        "hand 14311270221", "hand 22865231671"]
    assert all("not in pokerkit" in line for line in lines if line.startswith("note:"))
    assert [line for line in lines if line.startswith("skipped:")] == [
        f"skipped: {QUIRKS / 'cancelled.txt'}, line 6, hand 900000000006: hand cancelled by the site: no chips moved"]
    assert lines[-1] == (f"hands written 120 to {out}, failed 3, skipped 1 (not Omaha or cancelled), "
                         "duplicates 0")
    assert len(load_all(out)) == 120  # 97 real PokerStars hands, 10 WSOP hands, 13 quirk hands


def test_every_converted_hand_replays_through_play_to_the_original_files_stacks(converted):
    out, _ = converted
    result = CliRunner().invoke(main, ["play", str(out), "-f", "json"])
    assert result.exit_code == 0, result.stderr
    replays = json.loads(result.stdout)["hands"]
    histories = [history for _, history in load_all(out)]
    expected = {}
    for path in sorted(POKERSTARS.glob("*.txt")) + sorted(QUIRKS.glob("*.txt")):
        expected |= _file_stacks(path)
    checked = 0
    for history, replayed in zip(histories, replays, strict=True):
        assert replayed["complete"] and replayed["finishing_stacks_match"], (history.hand, replayed)
        if history.custom("_source") == "pokerstars":
            # the converted hand counts in the file's smallest unit (cents), as _file_stacks does
            assert dict(zip(history.players, replayed["finishing_stacks"])) == expected[str(history.hand)], history.hand
            checked += 1
    assert checked == 110
    raked = [history for history in histories if history.custom("_rake")]
    assert len(raked) == 15  # the rake is part of the stacks that agree


def _pokerkit_rake(amounts, rakes):
    """pokerkit's rake rule: the rake the file states for each pot, known by its amount. pokerkit
    asks again each time it lists the pots (a rule cannot count them), and once the losers are
    out it merges pots the winner alone is left in: a run of our pots is one of its pots."""
    by_amount: dict[int, int] = {}
    for start in range(len(amounts)):
        for end in range(start + 1, len(amounts) + 1):
            total, taken = sum(amounts[start:end]), sum(rakes[start:end])
            assert by_amount.setdefault(total, taken) == taken  # no two readings of one amount

    def rake(amount, state=None):
        taken = by_amount.get(amount, 0)
        return taken, amount - taken
    return rake


# PokerStars lets a player fold with nothing to call (a quirk file does): pokerkit warns and goes on.
@pytest.mark.filterwarnings("ignore:There is no reason for this player to fold")
def test_converted_pot_limit_omaha_hands_load_and_replay_in_pokerkit(converted):
    pokerkit = pytest.importorskip("pokerkit")
    from omaha_equity.hand_history import dumps
    from omaha_equity.hand_history.file_replay import replay_session_hand

    out, _ = converted
    pot_limit, live_posts = 0, []
    for item in read_hand_history_file(out):
        history = item.history
        if history.variant != "PO":
            continue
        if any(history.blinds_or_straddles[2:]):
            # A big blind posted by a player joining the table, out of the blinds, is a live post
            # that acts in turn; pokerkit reads every blind after the second as a straddle, which
            # acts last: such a hand has no pokerkit reading (docs/hand-histories.md).
            live_posts.append(history.hand)
            continue
        played = replay_session_hand(item)  # our engine's pots and the rake the file states for each
        rake = _pokerkit_rake(played.pot_amounts, played.pot_rakes)
        states = list(pokerkit.HandHistory.loads(dumps(history), rake=rake))
        assert list(states[-1].stacks) == list(history.finishing_stacks), history.hand
        pot_limit += 1
    # 3 + 2 real PokerStars hands, 4 WSOP hands, 9 quirk hands
    assert pot_limit == 16 and live_posts == ["14311270221", "22865231671"]


def test_phh_hands_are_written_as_read(tmp_path):
    out = tmp_path / "wsop.phhs"
    result = _convert(WSOP, "-o", out)
    assert result.exit_code == 0, result.stderr
    originals = [history for path in sorted(WSOP.glob("*.phh")) for _, history in load_all(path)]
    assert [history for _, history in load_all(out)] == originals


def test_one_hand_to_a_phh_file(tmp_path):
    out = tmp_path / "hand.phh"
    result = _convert(QUIRKS / "fold-when-check-possible.txt", "-o", out)
    assert result.exit_code == 0, result.stderr
    [(_, history)] = load_all(out)
    assert history.hand == "900000000003" and history.custom("_fold_when_check_allowed") is True
    assert history.players == ("Boris", "Hero", "Anna") and history.finishing_stacks == (990, 990, 1019)
    assert history.custom("_rake") == 1


def test_several_hands_to_a_phh_file_is_refused_and_nothing_is_written(tmp_path):
    out = tmp_path / "hand.phh"
    out.write_text("kept\n")
    result = _convert(QUIRKS / "old-headers.txt", "-o", out)
    assert result.exit_code == 2 and "holds one hand" in result.stderr and ".phhs" in result.stderr
    assert out.read_text() == "kept\n" and sorted(tmp_path.iterdir()) == [out]  # no temporary file left


def test_output_name_and_folder_are_checked_before_anything_is_read(tmp_path):
    result = _convert(QUIRKS, "-o", tmp_path / "hands.txt")
    assert result.exit_code == 2 and "expected a name ending .phh" in result.stderr
    result = _convert(QUIRKS, "-o", tmp_path / "missing" / "hands.phhs")
    assert result.exit_code == 2 and "no such folder" in result.stderr
    result = _convert(tmp_path / "nothing.txt", "-o", tmp_path / "hands.phhs")
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_no_hand_converted_writes_no_file(tmp_path):
    out = tmp_path / "none.phhs"
    result = _convert(QUIRKS / "post-by-unseated-name.txt", "-o", out)
    assert result.exit_code == 2 and "no hand converted" in result.stderr
    assert "error:" in result.stderr and list(tmp_path.iterdir()) == []


def test_a_hand_read_twice_is_written_once(tmp_path):
    out = tmp_path / "twice.phhs"
    result = _convert(QUIRKS / "action-markers.txt", QUIRKS / "action-markers.txt", "-o", out)
    assert result.exit_code == 0 and "duplicate:" in result.stderr and len(load_all(out)) == 1
