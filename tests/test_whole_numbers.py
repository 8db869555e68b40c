"""Whole numbers are checked one way everywhere (issue 19): every public entry point that takes a
count, chips, a seed, trials or threads accepts numpy integers as it accepts Python ints (same
result, stored as ``int``), and refuses bools and floats, through ``validate.is_whole_number``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from omaha_equity import calculate_allin, calculate_equity, get_game
from omaha_equity.batch import run_batch
from omaha_equity.errors import InputError
from omaha_equity.ev import analyze_session
from omaha_equity.pots import side_pots
from omaha_equity.ranges import parse_range
from omaha_equity.rules import HandSettings, PotLimit, Street
from omaha_equity.rules.chips import check_chips
from omaha_equity.rules.hand import Hand
from omaha_equity.studies import equity_by_street, equity_distribution, next_card_equity
from omaha_equity.studies.distribution import DistributionItem, histogram
from omaha_equity.validate import check_whole_number, is_whole_number
from omaha_equity.views.equity import range_report

SESSION = Path(__file__).parent / "data" / "pokerstars" / "5-Card-PLO-6max-USD-3.00-6.00-201303.txt"


def _equity(number):
    result = calculate_equity(["AsAhKsKh", "JdTd9c8c"], board="Qd7h2s", trials=number, seed=number, threads=number)
    return [player.equity for player in result.players]


def _next_card(number):
    result = next_card_equity(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", method="monte-carlo", trials=number, seed=number,
                              threads=number)
    return [(card.card, card.change) for card in result.cards][:3]


def _streets(number):
    result = equity_by_street(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s4c", method="monte-carlo", trials=number, seed=number,
                              threads=number)
    return [[player.equity for player in street.result.players] for street in result.streets]


def _distribution(number):
    result = equity_distribution("AsAhKsKh", "JdTd9c8c", "Qd7h2s", trials=number, seed=number, threads=number,
                                 bin_count=number)
    return [item.equity for item in result.items]


def _allin(chips):
    result = calculate_allin(["AsAhKsKh", "JdTd9c8c"], [chips, chips], board="Qd7h2s4c", pot=chips)
    return [(player.committed, player.pot_chips) for player in result.players]


def _hand(chips):
    # the same number as stacks, button seat and blinds (numpy arithmetic here could wrap)
    hand = Hand.with_blinds("omaha", PotLimit(chips), [chips, chips, chips], button=chips, small_blind=chips,
                            big_blind=chips, seed=1)
    return hand.starting_stacks, hand.button, hand.stacks


def _raise(chips):
    hand = Hand.with_blinds("omaha", PotLimit(2), [100] * 3, button=0, small_blind=1, big_blind=2, seed=8)
    hand.bet_or_raise_to(chips)
    return hand.bets, hand.stacks


def _batch(number):
    result = next(run_batch([{"hands": "AsAhKsKh|JdTd9c8c", "board": "Qd7h2s", "trials": number}],
                            seed=number, workers=1, chunk_size=number))
    return result.seed, [player.equity for player in result.result.players]


def _session(workers):
    totals = analyze_session([SESSION], workers=workers).totals
    return totals.read_count, totals.evaluated_count, totals.failed_count


def _histogram(count):
    return histogram([DistributionItem("AsAhKsKh", 0.5, 1.0, 1, 0.0)], count)


# (entry point, a Python int it accepts): the entry point is called with the int, with numpy
# integer types of the same value, with a bool and with a float of the same value.
CASES = {
    "calculate_equity trials/seed/threads": (_equity, 2),
    "calculate_allin chips/pot": (_allin, 100),
    "next_card_equity trials/seed/threads": (_next_card, 2),
    "equity_by_street trials/seed/threads": (_streets, 2),
    "equity_distribution trials/seed/threads/bins": (_distribution, 2),
    "side_pots contributions": (lambda chips: side_pots([chips, chips, 1], [False, False, False]), 50),
    "check_chips": (lambda chips: check_chips(chips, "stack"), 25),
    "Hand stacks/button/blinds": (_hand, 2),
    "Hand.bet_or_raise_to": (_raise, 6),
    "HandSettings run_count": (lambda count: HandSettings(run_count=count).run_count, 2),
    "Street.of": (lambda index: Street.of(index), 2),
    "get_game die": (lambda die: get_game("binglao", die).hole_count, 3),
    "run_batch seed/trials/chunk_size": (_batch, 3),
    "histogram bin_count": (_histogram, 4),
    "range_report sample_size": (lambda size: range_report(parse_range("AA"), get_game("omaha"), "", sample_size=size),
                                 3),
    "analyze_session workers": (_session, 1),
    "check_whole_number": (lambda number: check_whole_number(number, "count", 0, 10), 7),
}


@pytest.mark.parametrize("numpy_type", [np.int64, np.int32, np.uint16, np.int8])
@pytest.mark.parametrize("case", sorted(CASES))
def test_numpy_integers_are_whole_numbers_everywhere(case, numpy_type):
    entry_point, value = CASES[case]
    expected = entry_point(value)
    got = entry_point(numpy_type(value))
    assert got == expected
    # stored as Python ints: no numpy scalar leaks into results (it would overflow silently)
    assert not _numpy_scalars(got)


def _numpy_scalars(value) -> list:
    if isinstance(value, np.generic) and not isinstance(value, np.floating):
        return [value]
    if isinstance(value, (list, tuple)):
        return [item for part in value for item in _numpy_scalars(part)]
    return []


@pytest.mark.parametrize("bad", [True, np.bool_(True), 2.0, np.float64(2.0), "2"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_bools_and_floats_are_refused_everywhere(case, bad):
    entry_point, _ = CASES[case]
    with pytest.raises(InputError):
        entry_point(bad)


def test_the_one_rule():
    assert [is_whole_number(value) for value in (3, np.int64(3), np.uint64(2**64 - 1), True, np.bool_(False), 3.0,
                                                 "3", None)] == [True, True, True, False, False, False, False, False]
