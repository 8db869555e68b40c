"""Inputs a user can get wrong (issue 15): impossible dead money in ``allin`` (item 17) and error
messages that echo a huge input whole (item 18)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from omaha_equity import InputError, calculate_allin
from omaha_equity.cli import main
from omaha_equity.equity.expected_chips import committed_from_stacks
from omaha_equity.errors import MESSAGE_LIMIT, bounded

ROOT = Path(__file__).resolve().parents[1]
TWO = ["AsAhKsKh", "JdTd9c8c"]


def run(*args):
    return CliRunner().invoke(main, [str(arg) for arg in args])


def one_error_line(result) -> str:
    lines = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    assert result.exit_code == 2 and len(lines) == 1, result.output
    return lines[0]


# --- item 17: dead money no betting can produce -------------------------------------------------

FOLDED_TOO_MUCH = ("folded amount 5,000 (folded player 1) is more than any all-in player put in (at most 300): a "
                   "player folds only to a bigger bet, and whoever made it is still in the hand (antes and other dead "
                   "money go in the pot amount)")


def test_a_folded_amount_above_every_committed_amount_is_refused_in_one_line():
    # it was taken as dead money in the main pot: 5,300 chips from 300 + 100 all in
    line = one_error_line(run("allin", *TWO, "--committed", "300,100", "--folded", "5000", "-b", "Qd7h2s"))
    assert line == f"Error: {FOLDED_TOO_MUCH}"
    with pytest.raises(InputError, match=re.escape(FOLDED_TOO_MUCH)):
        calculate_allin(TWO, [300, 100], "Qd7h2s", folded=[5000])
    # the largest committed amount itself is possible (a player who folded with nothing more to call)
    result = calculate_allin(TWO, [300, 100], "Qd7h2s", folded=[300])
    assert [pot.amount for pot in result.pots] == [300, 400]


def test_with_stacks_a_folded_amount_sets_what_the_biggest_stack_put_in():
    # stacks 100 and 300, a player folded after putting in 200: the 300 stack bet at least 200
    # (else nobody would fold) and gets back only what nobody matched. It was capped at 100
    # before, and the folder's other 100 went to the main pot that player 1 can win.
    assert committed_from_stacks([100, 300], folded=[200]) == (100, 200)
    result = run("allin", *TWO, "--stacks", "100,300", "--folded", "200", "-b", "Qd7h2s", "-f", "csv")
    assert result.exit_code == 0, result.output
    assert "main pot 300" not in result.output
    pots = calculate_allin(TWO, committed_from_stacks([100, 300], folded=[200]), "Qd7h2s", folded=[200]).pots
    assert [(pot.amount, pot.eligible) for pot in pots] == [(300, (0, 1)), (200, (1,))]
    line = one_error_line(run("allin", *TWO, "--stacks", "100,300", "--folded", "400", "-b", "Qd7h2s"))
    assert "folded amount 400 (folded player 1) is more than any all-in player put in (at most 300)" in line


@pytest.mark.parametrize("option, value", [("--folded", "-50"), ("--folded", "10,-1"), ("--pot", "-5"),
                                           ("--committed", "-100,100"), ("--folded", "²"), ("--folded", "1²")])
def test_negative_or_non_ascii_chips_are_refused_in_one_line(option, value):
    args = ["--committed", "100,100"] if option != "--committed" else []
    line = one_error_line(run("allin", *TWO, "-b", "Qd7h2s", *args, option, value))
    assert f"'{option}'" in line


@pytest.mark.parametrize("call", [
    lambda: calculate_allin(TWO, [100, 100], folded=[-1]),
    lambda: calculate_allin(TWO, [100, 100], pot=-1),
    lambda: calculate_allin(TWO, [100, -100]),
])
def test_negative_chips_are_refused_in_the_api(call):
    with pytest.raises(InputError, match="expected a whole number of chips"):
        call()


@pytest.mark.parametrize("args", [["pot-limit", "--fixed-limit", "²/4"], ["pot-limit", "--fixed-limit", "2/4",
                                                                          "--round", "²"]])
def test_digits_int_cannot_read_are_usage_errors_not_tracebacks(args):
    assert one_error_line(run(*args)).startswith("Error: Invalid value for")


# --- item 18: every error echoes a bounded piece of the input ----------------------------------

ECHO_LIMIT = 200


def _phh(path: Path, **fields) -> Path:
    text = dict(variant='"PO"', antes="[0, 0]", blinds_or_straddles="[5, 10]", min_bet="10",
                starting_stacks="[1000, 1000]", actions='["d dh p1 AsAhKsKh", "d dh p2 JdTd9c8c", "p2 f"]')
    text.update(fields)
    path.write_text("".join(f"{name} = {value}\n" for name, value in text.items()))
    return path


# Each case: the command with HUGE where a huge token goes; the token is UNIT repeated.
HUGE_CASES = {
    "calc hand": (["calc", "HUGE", "JdTd9c8c"], "Zz"),
    "calc range weight": (["calc", "AA@HUGE", "KK"], "9"),
    "calc board": (["calc", *TWO, "-b", "HUGE"], "9"),
    "calc dead with spaces": (["calc", *TWO, "-d", "HUGE"], "Ah "),
    "calc game": (["calc", *TWO, "-g", "HUGE"], "x"),
    "calc trials": (["calc", *TWO, "--trials", "HUGE"], "9"),
    "calc seed": (["calc", *TWO, "--seed", "HUGE"], "9"),
    "calc precision": (["calc", *TWO, "--precision", "HUGE"], "9"),
    "calc threads": (["calc", *TWO, "--threads", "HUGE"], "x"),
    "calc die": (["calc", *TWO, "-g", "binglao", "--die", "HUGE"], "9"),
    "calc format": (["calc", *TWO, "-f", "HUGE"], "x"),
    "calc table style": (["calc", *TWO, "--table-style", "HUGE"], "x"),
    "calc above": (["calc", *TWO, "-b", "Qd7h2s", "--next-card", "--above", "HUGE"], "9"),
    "unknown option": (["calc", *TWO, "--HUGE"], "x"),
    "unknown command": (["HUGE"], "x"),
    "extra argument": (["rank", "AsAhKsKh", "HUGE"], "x"),
    "show board": (["show", *TWO, "-b", "HUGE"], "9"),
    "range": (["range", "HUGE"], "A"),
    "range sample": (["range", "AA", "--sample", "HUGE"], "9"),
    "rank": (["rank", "HUGE"], "9"),
    "allin committed": (["allin", *TWO, "--committed", "HUGE,100"], "9"),
    "allin stacks": (["allin", *TWO, "--stacks", "HUGE"], "x"),
    "allin folded": (["allin", *TWO, "--committed", "100,100", "--folded", "HUGE"], "9"),
    "allin pot": (["allin", *TWO, "--committed", "100,100", "--pot", "HUGE"], "9"),
    "allin many amounts": (["allin", *TWO, "--committed", "HUGE100"], "100,"),
    "pot-limit pot": (["pot-limit", "--pot", "HUGE"], "9"),
    "pot-limit bets": (["pot-limit", "--bets", "HUGE"], "9"),
    "pot-limit stack": (["pot-limit", "--pot", "10", "--stack", "HUGE"], "9"),
    "pot-limit fixed limit": (["pot-limit", "--fixed-limit", "HUGE"], "9"),
    "pot-limit round": (["pot-limit", "--fixed-limit", "2/4", "--round", "HUGE"], "x"),
    "pot-limit round number": (["pot-limit", "--fixed-limit", "2/4", "--round", "HUGE"], "9"),
    "pot-limit fixed limit big": (["pot-limit", "--fixed-limit", "2/HUGE"], "9"),
    "distribution range": (["distribution", "AsAhKsKh", "HUGE"], "9"),
    "distribution plot": (["distribution", "AsAhKsKh", "KK", "--plot", "HUGE.png"], "x"),
    "distribution by": (["distribution", "AsAhKsKh", "KK", "--by", "HUGE"], "x"),
    "distribution bins": (["distribution", "AsAhKsKh", "KK", "--bins", "HUGE"], "9"),
    "ev missing file": (["ev", "TMP/HUGE"], "x"),
    "play missing file": (["play", "TMP/HUGE.phh"], "x"),
    "play huge stack": (["play", "PHH:starting_stacks=[HUGE, 1000]"], "9"),
    "play huge variant": (["play", "PHH:variant=\"HUGE\""], "x"),
    "play huge action": (["play", "PHH:actions=[\"d dh p1 HUGE\"]"], "As"),
    "ev huge stack": (["ev", "PHH:starting_stacks=[HUGE, 1000]"], "9"),
}


def _echoed(output: str, unit: str) -> int:
    """Characters of ``output`` in runs of ``unit`` repeated (four times or more): the echo."""
    return sum(len(match) for match in re.findall(f"(?:{re.escape(unit)}){{4,}}", output))


def _run_huge(case: str, size: int, folder: Path):
    args, unit = HUGE_CASES[case]
    huge = unit * size
    filled = []
    for arg in args:
        if arg.startswith("PHH:"):
            name, _, value = arg[4:].partition("=")
            arg = str(_phh(folder / f"hand-{size}.phh", **{name: value.replace("HUGE", huge)}))
        filled.append(arg.replace("TMP", str(folder)).replace("HUGE", huge))
    return run(*filled)


def _error_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.lower().startswith("error")]


@pytest.mark.parametrize("case", HUGE_CASES)
def test_every_error_echoes_a_bounded_piece_of_a_huge_input(case, tmp_path):
    unit = HUGE_CASES[case][1]
    for size in (1_000, 10_000):  # 10,000 digits: more than Python's int() reads
        result = _run_huge(case, size, tmp_path)
        assert result.exception is None or isinstance(result.exception, SystemExit), (size, result.exception)
        errors = _error_lines(result.output)
        assert errors or result.exit_code == 0, result.output[-2000:]
        assert result.exit_code != 0 or size < 10_000, result.output[-2000:]
        assert _echoed("\n".join(errors), unit) <= ECHO_LIMIT, errors
        assert all(len(line) <= MESSAGE_LIMIT for line in errors)


def test_bounded_keeps_short_messages_whole_and_cuts_long_ones():
    assert bounded("bad stack 12: expected more") == "bad stack 12: expected more"
    assert bounded("x " * 1000).startswith("x x x") and len(bounded("x " * 1000)) <= MESSAGE_LIMIT
    error = InputError("bad amount " + "9" * 5_000)
    assert len(str(error)) < 120 and str(error).endswith("(5,000 characters)")
