"""PHH hand histories: reading and writing the specification's fields and action notation,
replaying hands through the rules engine (the WSOP 2023 Event #43 hands to their finishing
stacks), and the errors that name the file, hand, field or action."""

from decimal import Decimal
from pathlib import Path

import pytest

from omaha_equity.cards import parse_cards
from omaha_equity.hand_history import (HandHistory, PhhError, ReplayError, dumps, dumps_all, load, load_all, loads,
                                       loads_all, parse_action, replay)

WSOP = Path(__file__).resolve().parent / "data" / "wsop-2023-43"
WSOP_FILES = sorted(WSOP.glob("*.phh"))


def three_handed(**changes):
    fields = dict(variant="PO", antes=[0, 0, 0], blinds_or_straddles=[5, 10, 0], min_bet=10,
                  starting_stacks=[1000, 1000, 1000], actions=[])
    fields.update(changes)
    return HandHistory(**fields)


@pytest.mark.parametrize("path", WSOP_FILES, ids=lambda path: path.stem)
def test_wsop_hand_replays_to_its_finishing_stacks(path):
    hand_history = load(path)
    result = replay(hand_history)
    assert result.complete
    assert result.finishing_stacks == hand_history.finishing_stacks
    assert sum(result.finishing_stacks) == sum(hand_history.starting_stacks)


def test_wsop_files_are_the_ten_hands_of_both_variants():
    variants = [load(path).variant for path in WSOP_FILES]
    assert variants.count("FO/8") == 6 and variants.count("PO") == 4
