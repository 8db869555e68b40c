"""``-b BOARDRANGE`` on calc, allin, distribution, hits and batch: each checked against the same
query run directly on every concrete flop of the board range."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from omaha_equity import calculate_equity
from omaha_equity.boards import parse_board_range
from omaha_equity.cards import format_cards, parse_cards
from omaha_equity.cli import main
from omaha_equity.equity.expected_chips import calculate_allin
from omaha_equity.studies.board_ranges import (allin_over_board_range, composition_over_board_range,
                                               distribution_over_board_range, equity_over_board_range)
from omaha_equity.studies.hits import range_composition

HANDS = ["AsAhKsKh", "JdTd9c8c"]
BOARD_RANGE = "AK2, QJ2"


def concrete_flops(board_range, known):
    return [flop for flop in parse_board_range(board_range).flops.tolist() if not set(flop) & set(known)]


def test_calc_over_a_board_range_is_the_mean_over_its_concrete_flops():
    flops = concrete_flops(BOARD_RANGE, parse_cards("".join(HANDS)))
    direct = sum((calculate_equity(HANDS, format_cards(flop)).players[0].equity_fraction for flop in flops),
                 Fraction(0)) / len(flops)
    result = equity_over_board_range(HANDS, BOARD_RANGE)
    assert result.flops == len(flops)
    assert result.players[0].equity_fraction == direct
    assert result.players[0].equity_fraction + result.players[1].equity_fraction == 1


def test_allin_over_a_board_range_is_the_mean_over_its_concrete_flops():
    hands = HANDS + ["5s4h3d2c"]
    flops = concrete_flops("AK2", parse_cards("".join(hands)))
    direct = sum((calculate_allin(hands, [200, 200, 100], format_cards(flop), game="omaha8").players[2].expected_exact
                  for flop in flops), Fraction(0)) / len(flops)
    covered = allin_over_board_range(hands, [200, 200, 100], "AK2", game="omaha8")
    assert covered.flops == len(flops)
    assert covered.result.players[2].expected_exact == direct
    assert covered.result.board == "AK2"


def test_distribution_over_a_board_range_averages_to_calc():
    covered = distribution_over_board_range("AsAhKsKh", "AA", "QJ2:$mono, 972:$rainbow")
    calc = equity_over_board_range(["AsAhKsKh", "AA"], "QJ2:$mono, 972:$rainbow")
    assert covered.result.equity_fraction == calc.players[0].equity_fraction
    assert sum(item.weight for item in covered.result.items) == pytest.approx(1.0)
    mean = sum(item.weight * item.equity for item in covered.result.items)
    assert mean == pytest.approx(calc.players[0].equity)


def test_hits_over_a_board_range_sums_the_combinations_of_every_flop():
    covered = composition_over_board_range("AA:$ds", "QJ*:$mono")
    flops = concrete_flops("QJ*:$mono", ())
    direct = {}
    total = 0
    for flop in flops:
        composition = range_composition("AA:$ds", format_cards(flop))
        total += composition.combinations
        for row in composition.rows:
            if row.level == 0:
                direct[(row.section, row.name)] = direct.get((row.section, row.name), 0) + row.combinations
    assert covered.flops == len(flops)
    assert covered.result.combinations == total
    pooled = {(row.section, row.name): row.combinations for row in covered.result.rows if row.level == 0}
    assert pooled == direct
    made = [row.share for row in covered.result.rows if row.level == 0 and row.section == "made hand"]
    assert sum(made) == pytest.approx(1.0)


def test_commands_take_a_board_range_and_say_what_it_covered():
    runner = CliRunner()
    table = runner.invoke(main, ["calc", *HANDS, "-b", BOARD_RANGE, "-q"])
    assert table.exit_code == 0, table.output
    assert "board range: AK2, QJ2 | 64 flops" in table.stdout
    data = json.loads(runner.invoke(main, ["calc", *HANDS, "-b", BOARD_RANGE, "-f", "json"]).stdout)
    assert data["flops"] == 64 and data["board_range"] == "AK2, QJ2"
    rows = runner.invoke(main, ["allin", *HANDS, "--stacks", "100,100", "-b", "AK2", "-f", "csv"]).stdout
    assert rows.splitlines()[0].endswith(",board_range,flops,runs")
    hits = runner.invoke(main, ["hits", "AA:$ds", "-b", "QJ2", "--no-draws"])
    assert hits.exit_code == 0 and "| 64 flops (" in hits.stdout.splitlines()[0]
    plain = runner.invoke(main, ["calc", *HANDS, "-b", "Qd7h2s"]).stdout
    assert plain.splitlines()[0] == "Omaha hi | board: Qd7h2s | exact enumeration of 820 boards"


@pytest.mark.parametrize("board, token", [("QJ*:$twotoned", "'$twotoned'"), ("AK*Q*", "'Q'"), ("[A-", "'['")])
def test_bad_board_ranges_are_one_line_usage_errors(board, token):
    for command in (["calc", *HANDS], ["hits", "AA"], ["distribution", "AsAhKsKh", "AA"]):
        result = CliRunner().invoke(main, [*command, "-b", board])
        assert result.exit_code == 2
        assert token in result.output and len(result.output.strip().splitlines()[-1]) > 0
        assert "Traceback" not in result.output


def test_calc_refuses_a_study_over_a_board_range():
    result = CliRunner().invoke(main, ["calc", *HANDS, "-b", "AK*", "--streets"])
    assert result.exit_code == 2 and "board range" in result.output


def test_a_batch_row_takes_a_board_range():
    from omaha_equity.batch import run_batch

    outcome = next(run_batch([{"hands": "|".join(HANDS), "board": BOARD_RANGE}], workers=1))
    rows = outcome.rows()
    assert rows[0]["board"] == BOARD_RANGE and rows[0]["sample_count"] == 64
    assert rows[0]["equity_exact"] == str(equity_over_board_range(HANDS, BOARD_RANGE).players[0].equity_fraction)
