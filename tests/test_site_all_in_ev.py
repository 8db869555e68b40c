"""All-in EVs of the other sites' hands (GGPoker, Winamax, Bovada, Run It Once) against an
independent computation: a brute force over every remaining board with the slow reference
evaluator (tests/naive_ev.py), on turn all-ins of the real files (tests/data, sources in each
README: a few dozen boards each) and on the written GGPoker hands of money settled outside the
pot; the values are pinned too."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from naive_ev import brute_force_ev
from omaha_equity.cards import format_cards
from omaha_equity.ev.hand_ev import evaluate_hand
from site_hands import hand_by_id, replayed

DATA = Path(__file__).parent / "data"

CASES = [
    # (file, hand, {player: all-in EV in chips}) -- heads-up, three-way with a side pot, hi/lo
    ("ggpoker/PLO-6max-MTT-USD-1k-202006.txt", "TM106348907",
     {"87ed49bb": Fraction(106329, 4), "b59f4585": Fraction(60099, 4)}),
    ("winamax/PLO-FR-EUR-0.02-0.05-201009.Sample.txt", "270777-182-1284849563",
     {"Player7": Fraction(227, 4), "Player4": Fraction(681, 4)}),
    ("winamax/PLO-FR-EUR-0.02-0.05-201009.Sample.txt", "270777-204-1284852148",
     {"Player5": Fraction(86, 3), "Player7": Fraction(430, 3)}),
    ("bovada/PLO8-9max-USD-0.02-0.05-201408.corrupted.lines.txt", "2902252277",
     {"UTG+1": Fraction(7855, 16), "UTG+2": Fraction(609, 8), "UTG+3": Fraction(12511, 16)}),
    ("bovada/PLO8-9max-USD-0.02-0.05-201408.corrupted.lines.txt", "2902245653",
     {"Big Blind": Fraction(507, 2), "UTG+4": Fraction(741, 2)}),
    ("pokerstars-variants/PLO-6max-EUR-0.10-0.20-202005.RIO.1031503_45238934.txt", "45242318",
     {"Brandon C": Fraction(11547, 28), "MiamiBlues": Fraction(96225, 28)}),
    ("ggpoker-written/PLO-6max-USD-0.5-1-outside.pot.txt", "OM900000001",
     {"Hero": Fraction(270180, 41), "7d31e0aa": Fraction(41420, 41)}),
]


@pytest.mark.parametrize("name, hand_id, pinned", CASES, ids=[case[1] for case in CASES])
def test_all_in_ev_equals_a_brute_force_over_the_remaining_boards(name, hand_id, pinned):
    played = replayed(hand_by_id(DATA / name, hand_id))
    hand_ev = evaluate_hand(played)
    contestants = [index for index, folded in enumerate(played.folded) if not folded]
    folders = [index for index in range(len(played.names)) if index not in contestants and played.committed[index]]
    known = played.boards[0][:played.all_in_board_count]
    expected = brute_force_ev([format_cards(played.hole_cards[index], separator="") for index in contestants],
                              [played.committed[index] for index in contestants],
                              [played.committed[index] for index in folders], format_cards(known, separator=""),
                              list(played.pot_rakes), hilo=played.game.endswith("8"),
                              dead=format_cards(played.dead_cards, separator=""))
    evs = {hand_ev.players[index].name: hand_ev.players[index].all_in_ev for index in contestants}
    assert list(evs.values()) == expected
    assert evs == pinned
