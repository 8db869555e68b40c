"""Bet sizing (``docs/rules.md``, "Betting structures"), the ``pot-limit`` command that prints it,
the docstring examples of the rules engine, and its input errors."""

from __future__ import annotations

import csv
import doctest
import io
import json

import pytest
from click.testing import CliRunner

from omaha_equity.cli import main
from omaha_equity.errors import InputError
from omaha_equity.rules import (
    FixedLimit, ForcedBets, Hand, HandSettings, NoLimit, PotLimit, Rake, Street, WagerKind, pot_limit_maximum,
    table_raise_limits,
)


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_pot_limit_maximum_is_the_pot_after_the_call_added_on_top_of_the_call():
    assert pot_limit_maximum(200, 100, 0) == 400  # pot 100, a bet of 100
    assert pot_limit_maximum(28 + 14 + 17, 17, 0) == 93  # pot 28 with bets of 14 and 17
    assert pot_limit_maximum(15, 10, 0) == 35  # OM-18: under the gun at 5/10
    assert pot_limit_maximum(15, 10, 5) == 30  # OM-18: the small blind, folded to
    assert pot_limit_maximum(600, 200, 200) == 800  # OM-18: the big blind's option after limp and complete


def test_table_sizing_per_structure():
    call, limits = table_raise_limits(PotLimit(2), pot=100, bets=[100])
    assert (call, limits.minimum, limits.maximum, limits.kind) == (100, 200, 400, WagerKind.RAISE)
    call, limits = table_raise_limits(PotLimit(2), pot=28, bets=[14, 17])
    assert (call, limits.minimum, limits.maximum) == (17, 31, 93)  # 17 was a short all-in over 14
    call, limits = table_raise_limits(NoLimit(10), pot=0, bets=[5, 10], stack=500)
    assert (call, limits.minimum, limits.maximum) == (10, 20, 500)
    call, limits = table_raise_limits(NoLimit(10), pot=40, bets=[], stack=25)
    assert (call, limits.minimum, limits.maximum, limits.kind) == (0, 10, 25, WagerKind.BET)
    call, limits = table_raise_limits(FixedLimit(2, 4), pot=0, bets=[1, 2])  # OM-20
    assert (call, limits.minimum, limits.maximum) == (2, 4, 4)
    call, limits = table_raise_limits(FixedLimit(2, 4), pot=20, bets=[4, 8], street=Street.TURN)
    assert (call, limits.minimum, limits.maximum) == (8, 12, 12)
    call, limits = table_raise_limits(FixedLimit(2, 4), pot=20, bets=[4, 8, 12, 16], street=Street.RIVER)
    assert (call, limits) == (16, None)  # capped at four bets
    call, limits = table_raise_limits(PotLimit(2), pot=100, bets=[100], stack=60)
    assert (call, limits) == (60, None)  # the stack does not cover more than the call
    call, limits = table_raise_limits(PotLimit(2), pot=100, bets=[100], stack=150)
    assert (limits.minimum, limits.maximum) == (150, 150)  # all-in for less than a full raise
    with pytest.raises(InputError, match="bad bet -5"):
        table_raise_limits(PotLimit(2), pot=0, bets=[-5])


def test_pot_limit_command_prints_min_and_max_raise_to():
    result = run("pot-limit", "--pot", "100", "--bets", "100")
    assert result.exit_code == 0, result.output
    header, _, row = result.output.splitlines()[1:4]
    assert header.split() == ["call", "action", "min_to", "max_to"] and row.split() == ["100", "raise", "200", "400"]
    data = json.loads(run("pot-limit", "--pot", "28", "--bets", "14,17", "-f", "json").output)
    assert (data["call"], data["min_raise_to"], data["max_raise_to"]) == (17, 31, 93)
    data = json.loads(run("pot-limit", "--bets", "10", "--own", "5", "--blind", "10", "-f", "json").output)
    assert (data["call"], data["min_raise_to"], data["max_raise_to"]) == (5, 20, 30)


def test_pot_limit_command_no_limit_and_fixed_limit():
    data = json.loads(run("pot-limit", "--no-limit", "--bets", "5,10", "--blind", "10", "--stack", "400",
                          "-f", "json").output)
    assert (data["structure"], data["min_raise_to"], data["max_raise_to"]) == ("no limit", 20, 400)
    result = run("pot-limit", "--fixed-limit", "2/4", "--round", "3", "--bets", "4,8", "-f", "csv")
    assert result.exit_code == 0, result.output
    (values,) = csv.DictReader(io.StringIO(result.output))
    assert (values["round"], values["call"], values["min_raise_to"], values["max_raise_to"]) == ("turn", "8", "12", "12")
    capped = json.loads(run("pot-limit", "--fixed-limit", "2/4", "--round", "flop", "--bets", "2,4,6,8",
                            "-f", "json").output)
    assert (capped["action"], capped["min_raise_to"], capped["max_raise_to"]) == ("none", None, None)


@pytest.mark.parametrize("args, message", [
    (["--bets", "1,x"], "bad bet 'x' in '1,x'"),
    (["--fixed-limit", "2-4"], "bad fixed-limit sizes '2-4'"),
    (["--fixed-limit", "4/2", "--bets", "1"], "bad fixed-limit sizes '4/2': expected SMALL/BIG such as 2/4 (the big bet"),
    (["--round", "5", "--fixed-limit", "2/4"], "bad round '5'"),
    (["--no-limit", "--fixed-limit", "2/4"], "cannot be used together"),
    (["--pot", "10"], "give --blind"),
])
def test_pot_limit_command_bad_input_is_a_one_line_usage_error(args, message):
    result = run("pot-limit", *args)
    assert result.exit_code == 2 and message in result.output


def test_docstring_examples_of_the_rules_engine_hold():
    from omaha_equity.rules import hand, sizing

    for module in (hand, sizing):
        failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert tried > 0 and failures == 0


@pytest.mark.parametrize("make, message", [
    (lambda: Hand.with_blinds("omaha", PotLimit(2), [100], button=0, small_blind=1, big_blind=2),
     "at least 2 players"),
    (lambda: Hand.with_blinds("omaha6", PotLimit(2), [100] * 8, button=0, small_blind=1, big_blind=2),
     "8 players is more than omaha6 deals (at most 7"),
    (lambda: Hand.with_blinds("omaha", PotLimit(2), [100, 0], button=0, small_blind=1, big_blind=2),
     "bad stack 0 for seat 2"),
    (lambda: Hand.with_blinds("omaha", PotLimit(2), [100, 100], button=2, small_blind=1, big_blind=2),
     "bad button seat 2"),
    (lambda: Hand("omaha", PotLimit(2), [100, 100], button=0, forced_bets=ForcedBets((0, 0, 0), (1, 2, 0))),
     "forced bets are for 3 seats"),
    (lambda: Hand.with_blinds("omaha", PotLimit(2), [100, 100], button=0, small_blind=1, big_blind=2,
                              hole_cards=["AsKsQsJs", "AsKdQdJd"]), "duplicate card As"),
    (lambda: Hand.with_blinds("omaha", PotLimit(2), [100, 100], button=0, small_blind=1, big_blind=2,
                              hole_cards=["AsKsQs", None]), "expected 4 hole cards for omaha, got 3"),
    (lambda: FixedLimit(0, 4), "bad small bet 0"),
    (lambda: PotLimit(2.5), "bad minimum bet 2.5"),
    (lambda: ForcedBets((0, -1), (1, 2)), "bad ante -1"),
    (lambda: Rake(120), "bad rake percent 120"),
    (lambda: HandSettings(run_count=0), "bad run count 0"),
])
def test_bad_input_is_an_input_error_naming_the_value(make, message):
    with pytest.raises(InputError) as error:
        make()
    assert message in str(error.value)


def test_rake_of_the_running_total_main_pot_first_with_a_cap():
    rake = Rake(5, cap=10)
    assert Rake(5).of(254) == 12 and rake.of(254) == 10 and Rake(5).split([137, 45, 72]) == [6, 3, 3]  # PokerStars, see test_rules_engine
    assert Rake(5).split([247, 93, 30]) == [12, 5, 1]  # the hand before it in the same file: rake 18
    assert rake.split([150, 100, 50]) == [7, 3, 0]  # the cap reached: later pots pay nothing
    assert Rake("2.5").of(100) == 2
