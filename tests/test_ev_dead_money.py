"""All-in EV with dead money (issue 14, item 1, through ``ev``): a big blind all in on a
big-blind ante plays for the ante pot only, in the EV as in the engine's settlement.

The hand: NL 50/100 with a 100-chip big-blind ante, stacks 300/100/300; the big blind's ante
puts him all in, the button shoves 300 and the small blind calls. Pots (the engine's): the
ante, 100 chips for all three players, and 600 for the small blind and the button. The
independent check: the big blind's EV is 100 x his three-way equity; each other player's is
100 x the three-way equity plus 600 x the heads-up equity against the other, the big
blind's cards out of the deck (no three-way
ties of odd chips on these hands: every tie is two-way, so the fractions are exact).
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from omaha_equity.cli import main
from omaha_equity.equity.expected_chips import calculate_allin
from omaha_equity.equity.calculate import calculate_equity
from omaha_equity.errors import InputError

HOLE_CARDS = ["7c7hQdJd", "KhKd5c6c", "9c9d2h3h"]  # small blind, big blind, button
HAND = f"""variant = "NO"
antes = [0, 100, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [300, 100, 300]
actions = [
    "d dh p1 {HOLE_CARDS[0]}", "d dh p2 {HOLE_CARDS[1]}", "d dh p3 {HOLE_CARDS[2]}",
    "p3 cbr 300", "p1 cc",
    "p1 sm {HOLE_CARDS[0]}", "p2 sm {HOLE_CARDS[1]}", "p3 sm {HOLE_CARDS[2]}",
    "d db 2c7d9h", "d db Ks", "d db 4s",
]
"""


def test_ev_of_a_big_blind_all_in_on_a_big_blind_ante_counts_only_the_ante_pot(tmp_path):
    path = tmp_path / "bb-ante-all-in.phh"
    path.write_text(HAND)
    result = CliRunner().invoke(main, ["ev", str(path), "--all-hands", "-f", "json"])
    assert result.exit_code == 0, result.output
    players = json.loads(result.output[:result.output.rindex("}") + 1])["hands"][0]["players"]
    evs = [Fraction(player["all_in_ev_exact"]) for player in players]

    three_way = [player.equity_fraction for player in calculate_equity(HOLE_CARDS).players]
    heads_up = [player.equity_fraction for player in calculate_equity([HOLE_CARDS[0], HOLE_CARDS[2]], dead=HOLE_CARDS[1]).players]
    assert evs == [100 * three_way[0] + 600 * heads_up[0], 100 * three_way[1], 100 * three_way[2] + 600 * heads_up[1]]
    assert evs[1] == Fraction(3833150, 82251)  # 46.60 chips: never more than the 100-chip ante pot
    assert sum(evs) == 700 and [player["won"] for player in players] == [0, 100, 600]


def test_calculate_allin_takes_dead_chips_that_make_the_first_pot():
    result = calculate_allin(HOLE_CARDS, [300, 0, 300], dead_chips=[0, 100, 0], board="2c7d9h")
    assert [(pot.amount, pot.eligible) for pot in result.pots] == [(100, (0, 1, 2)), (600, (0, 2))]
    assert sum(result.expected) == pytest.approx(700)


@pytest.mark.parametrize("committed, dead_chips, message", [
    ([300, 0, 300], [], "at least 1"),
    ([300, 0, 300], [0, 0, 0], "bad committed amount 0 for player 2"),
    ([300, 0, 0], [0, 100, 0], "at least 1 chip, live or dead"),
    ([300, 100, 300], [0, 100], "dead chips for each of the 3 players, got 2"),
    ([300, 100, 300], [0, -1, 0], "bad dead chips -1 for player 2"),
])
def test_calculate_allin_refuses_bad_dead_chips(committed, dead_chips, message):
    with pytest.raises(InputError, match=message):
        calculate_allin(HOLE_CARDS, committed, dead_chips=dead_chips)
