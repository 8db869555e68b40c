"""Numbers at the boundary in PokerStars files (issue 14, item 5, and section 2: errors point at
the line that caused them): a stack too large for the rules engine, or one that is not a
number of chips, is refused at its seat line, naming the player, in one short line.

The files are the first hand of the real file ``PLO-FR-USD-0.01-0.02-201006.sidepots.txt``
(tests/data/pokerstars) with one seat's stack changed (line 5: Hero's seat).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from omaha_equity.hand_history.errors import HandHistoryError
from omaha_equity.hand_history.sessions import read_hand_history_file

REAL = Path(__file__).parent / "data" / "pokerstars" / "PLO-FR-USD-0.01-0.02-201006.sidepots.txt"
HERO_SEAT = "Seat 3: Hero ($0.65 in chips)"


def hand_with_hero_stack(tmp_path, stack: str) -> Path:
    lines = REAL.read_text(encoding="utf-8").splitlines(keepends=True)[:47]
    assert lines[4].strip() == HERO_SEAT  # the file begins with an empty line
    lines[4] = f"Seat 3: Hero ({stack} in chips)\n"
    path = tmp_path / "hand.txt"
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("stack, reason", [
    ("$" + "9" * 400, "bad stack of 'Hero' '$999999"),
    ("$100000000000000000000000", "bad stack of 'Hero' '$100000000000000000000000': expected at most "
                                  "9,223,372,036,854,775,807 chips"),
    ("$92233720368547758.08", "expected at most 9,223,372,036,854,775,807 chips"),  # 2**63 cents
    ("$1e-100000", "bad seat line 'Seat 3: Hero ($1e-100000 in chips)'"),
])
def test_a_stack_out_of_bounds_is_refused_at_its_seat_line(tmp_path, stack, reason):
    [result] = read_hand_history_file(hand_with_hero_stack(tmp_path, stack))
    assert isinstance(result, HandHistoryError)
    message = str(result)
    assert result.line_number == 5 and reason in message and len(message) < 300, message


def test_the_largest_stack_the_engine_settles_is_read(tmp_path):
    # 2**63 - 1 cents is the largest stack read; the hand then fails later only because the
    # others' stacks and the file's payouts no longer add up, never on the number itself
    [result] = read_hand_history_file(hand_with_hero_stack(tmp_path, "$92233720368547758.07"))
    assert not (isinstance(result, HandHistoryError) and "bad stack" in str(result))
