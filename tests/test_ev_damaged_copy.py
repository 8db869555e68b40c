"""A damaged copy of a hand does not hide a good copy read later (issue 14, section 3: the same
hand in two files counts once; the copy that counts is the first one that can be read).

The damaged copy: the real file cut off in its third hand (its first 120 lines), read before
the whole file: the cut hand is an error at its file, and the whole file's copy of it replays.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from omaha_equity.cli import main
from omaha_equity.hand_history.sessions import read_session_items

REAL = Path(__file__).parent / "data" / "pokerstars" / "PLO-FR-USD-0.01-0.02-201006.sidepots.txt"


def cut_copy(tmp_path) -> Path:
    cut = tmp_path / "a-cut-copy.txt"
    cut.write_text("".join(REAL.read_text(encoding="utf-8").splitlines(keepends=True)[:120]), encoding="utf-8")
    return cut


def test_a_damaged_first_copy_does_not_hide_the_good_copy(tmp_path):
    items = list(read_session_items([cut_copy(tmp_path), REAL]))
    kinds = [type(item).__name__ for item in items]
    # the cut file: two hands whole, the third cut off; the whole file: the first two hands
    # duplicates, the third read
    assert kinds == ["SessionHand", "SessionHand", "HandHistoryError", "DuplicateHand", "DuplicateHand",
                     "SessionHand"]
    assert items[2].hand_id == items[5].hand_id == "60920749213"


def test_ev_replays_every_hand_when_a_cut_copy_comes_first(tmp_path):
    result = CliRunner().invoke(main, ["ev", str(cut_copy(tmp_path)), str(REAL), "-f", "json"])
    counts = json.loads(result.stdout[:result.stdout.rindex("}") + 1])["counts"]
    # read: the three hands and the cut copy (an error of its own); every hand replayed
    assert (counts["read"], counts["replayed"], counts["duplicates"], counts["failed"]) == (4, 3, 2, 1)
