"""``flops``: a range across every flop of a board range, checked against a direct count over
the concrete flops (``range_composition`` on each) and direct equities."""

from __future__ import annotations

import os

import numpy as np
import pytest

from omaha_equity import calculate_equity
from omaha_equity.boards import parse_board_range
from omaha_equity.cards import format_cards, parse_cards
from omaha_equity.errors import InputError
from omaha_equity.studies.flops import flop_study
from omaha_equity.studies.hits import range_composition


def direct_counts(expression, board_range, columns, game="omaha"):
    """Per column, hand combinations summed over every concrete flop (one ``hits`` per flop)."""
    totals = dict.fromkeys(columns, 0)
    combinations = 0
    for flop in parse_board_range(board_range).flops.tolist():
        try:
            composition = range_composition(expression, format_cards(flop), game)
        except InputError:
            continue  # no hand of the range on this flop
        combinations += composition.combinations
        for row in composition.rows:
            if row.level == 0 and (row.section, row.name) in totals:
                totals[(row.section, row.name)] += row.combinations
    return combinations, [totals[column] for column in columns]


@pytest.mark.parametrize("expression, board_range", [
    ("AA:$ds", "AK[T+]"),       # no suit written: one run per class
    ("AsKQ*", "QJ*:$twotone"),  # a suit written: one run per orbit of the renamings keeping spades
    ("AA:$ds", "$mono:[K+]**"),  # a texture macro with a rank condition
])
def test_all_flop_aggregate_equals_a_direct_count_over_the_flops(expression, board_range):
    study = flop_study(expression, board_range=board_range)
    combinations, counts = direct_counts(expression, board_range, study.columns)
    assert study.total.combinations == combinations
    assert list(study.total.counts) == counts
    assert study.total.flops == parse_board_range(board_range).count
    assert sum(row.flops for row in study.rows) == study.total.flops
    assert sum(row.combinations for row in study.rows) == combinations


@pytest.mark.skipif(not os.environ.get("OMAHA_EQUITY_LONG_TESTS"), reason="22,100 flops: set OMAHA_EQUITY_LONG_TESTS=1")
def test_every_flop_aggregate_equals_a_direct_count_over_all_22100_flops():
    study = flop_study("AAKK")
    combinations, counts = direct_counts("AAKK", "*", study.columns)
    assert study.total.flops == 22_100 and len(study.rows) == 1_755
    assert (study.total.combinations, list(study.total.counts)) == (combinations, counts)


def test_by_texture_pools_the_same_flops():
    by_flop = flop_study("AA", board_range="A**")
    by_texture = flop_study("AA", board_range="A**", by="texture")
    assert by_texture.total == by_flop.total
    assert sum(row.flops for row in by_texture.rows) == parse_board_range("A**").count


def test_equity_against_a_hand_is_the_mean_over_the_concrete_flops():
    # one run per class on one flop against the hand's renamed copies, against every flop by
    # hand, exactly: the mean over the deals (flop, range hand), each flop weighing its deals
    from omaha_equity.equity.query import RunOptions

    board_range = "K72, Q72"  # 128 flops, 10 classes; the hand meets half of the Q72 flops
    study = flop_study("AA:$ds", vs="QsQhJdJc", board_range=board_range, options=RunOptions.checked("exact"))
    assert study.orbits == 10
    assert study.method == "exact"
    equities, weights = [], []
    for flop in parse_board_range(board_range).flops.tolist():
        if set(flop) & {43, 42, 37, 36}:
            continue
        result = calculate_equity(["AA:$ds", "QsQhJdJc"], board=format_cards(flop), method="exact")
        equities.append(result.players[0].equity)
        weights.append(range_composition("AA:$ds", format_cards(flop), vs="QsQhJdJc").combinations)
    assert study.total.equity == pytest.approx(np.average(equities, weights=weights), abs=1e-12)
    assert study.total.standard_error == 0.0


def test_monte_carlo_equity_is_repeatable_with_a_seed():
    first = flop_study("AA", vs="KK", board_range="Q**:$paired", options=None)
    assert first.method in ("exact", "monte-carlo")
    from omaha_equity.equity.query import RunOptions

    options = RunOptions.checked("monte-carlo", trials=2_000, seed=7)
    one = flop_study("15%", vs="AsKsQdJh", board_range="AK*:$mono", options=options)
    two = flop_study("15%", vs="AsKsQdJh", board_range="AK*:$mono", options=options)
    assert one == two and one.method == "monte-carlo" and one.seed == 7 and one.total.standard_error > 0


@pytest.mark.parametrize("kwargs, message", [
    (dict(expression="15%", board_range="AK"), "pattern 'AK' of 2 cards"),
    (dict(expression="15%", filter="set+"), "bad filter 'set+': expected categories in braces"),
    (dict(expression="15%", filter="{sett}"), "unknown category 'sett'"),
    (dict(expression="15%", by="suit"), "unknown grouping 'suit': expected one of flop, texture"),
    (dict(expression=""), "expected a range"),
    (dict(expression="AsAhAdAc", board_range="As**"), "no hand of range 'AsAhAdAc' is possible on any flop"),
])
def test_errors(kwargs, message):
    with pytest.raises(InputError, match=None) as error:
        flop_study(**kwargs)
    assert message in str(error.value)


def test_equity_over_a_board_range_is_the_mean_over_its_concrete_flops():
    from fractions import Fraction

    from omaha_equity.studies.board_ranges import equity_over_board_range

    hands = ["AsKsQdJh", "8c7c6d5d"]
    result = equity_over_board_range(hands, "QJ*:$twotone")
    flops = [flop for flop in parse_board_range("QJ*:$twotone").flops.tolist()
             if not set(flop) & set(parse_cards("AsKsQdJh8c7c6d5d"))]
    expected = sum((calculate_equity(hands, board=format_cards(flop), method="exact").players[0].equity_fraction
                    for flop in flops), Fraction(0)) / len(flops)
    assert result.method == "exact" and result.flops == len(flops)
    assert result.players[0].equity_fraction == expected
    assert result.runs == len(flops)  # every suit written: one run per flop


def test_equity_over_a_board_range_runs_once_per_class_without_written_suits():
    from omaha_equity.equity.query import RunOptions
    from omaha_equity.studies.board_ranges import equity_over_board_range

    hands = ["AAKK", "QQJJ"]
    result = equity_over_board_range(hands, "AK2, QJ2", options=RunOptions.checked("exact"))
    assert result.runs == 10 and result.flops == 128
    one_by_one = [calculate_equity(hands, board=format_cards(flop), method="exact").players[0].equity_fraction
                  for flop in parse_board_range("AK2, QJ2").flops.tolist()]
    assert result.players[0].equity_fraction == sum(one_by_one) / len(one_by_one)


def test_the_flops_command_renders_table_csv_and_json():
    import json

    from click.testing import CliRunner

    from omaha_equity.cli import main

    runner = CliRunner()
    table = runner.invoke(main, ["flops", "AA:$ds", "-b", "AKQ:$twotone", "--filter", "{set+}"])
    assert table.exit_code == 0, table.output
    assert "'AA:$ds' on 36 flops of 'AKQ:$twotone' (3 classes)" in table.output
    assert "AsKsQh" in table.stdout and "all flops" in table.stdout and "{set+}" in table.stdout
    # stdout alone: a busy machine may show progress on stderr
    rows = runner.invoke(main, ["flops", "AA:$ds", "-b", "AKQ:$twotone", "-f", "csv"]).stdout.splitlines()
    assert rows[0].startswith("flop,texture,flops,classes,combinations,straight-flush,") and len(rows) == 5
    data = json.loads(runner.invoke(main, ["flops", "AA", "-b", "AK*", "--by", "texture", "-f", "json"]).stdout)
    assert data["total"]["flops"] == 752 and data["by"] == "texture" and data["flops_run"] == 59
    assert sum(row["flops"] for row in data["rows"]) == 752


@pytest.mark.parametrize("arguments, message", [
    (["flops", "AA", "-b", "AK"], "pattern 'AK' of 2 cards"),
    (["flops", "AA", "--seed", "1"], "--exact, --mc, --trials and --seed apply to --vs"),
    (["flops", "AA", "--by", "suit"], "Invalid value for '--by'"),
    (["flops", "AA", "--filter", "{sett}"], "unknown category 'sett'"),
])
def test_the_flops_command_refuses_bad_input_in_one_line(arguments, message):
    from click.testing import CliRunner

    from omaha_equity.cli import main

    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 2 and message in result.output


class _StopAfter:
    """A progress callback that presses Ctrl-C after ``count`` flop runs."""

    def __init__(self, count):
        self.count = count

    def __call__(self, done, total):
        if done >= self.count:
            raise KeyboardInterrupt


def _flop_run(board_range="AK*", **kwargs):
    from omaha_equity.studies.flops import FlopRun

    return FlopRun("AA:$ds", board_range=board_range, **kwargs)


def test_a_stopped_run_goes_on_from_its_part_file_to_the_same_study(tmp_path):
    from omaha_equity.equity.query import RunOptions
    from omaha_equity.studies.flops_file import FlopsPart
    from omaha_equity.views.flops import flops_report

    output = str(tmp_path / "flops.csv")
    options = RunOptions.checked("monte-carlo", trials=100)  # no seed: drawn once, kept in the part file
    board_range = "AKQ, AKJ, AKT, AK9"  # 20 classes
    first = FlopsPart(output, _flop_run(board_range, vs="QsQhJdJc", options=options))
    with pytest.raises(KeyboardInterrupt):
        first.run(_StopAfter(8))
    seed = first.study_run.seed
    assert len(first.finished) == 8
    # a kill while writing: the last line cut short is dropped, its flop runs again
    with open(output + ".part", "rb+") as part:
        part.truncate(part.seek(0, 2) - 5)
    second = FlopsPart(output, _flop_run(board_range, vs="QsQhJdJc", options=options))
    assert len(second.finished) == 7 and not second.started_over and second.study_run.seed == seed
    resumed = second.run()
    assert resumed.orbits == 20 and resumed.method == "monte-carlo"
    whole = flop_study("AA:$ds", board_range=board_range, vs="QsQhJdJc",
                       options=RunOptions.checked("monte-carlo", trials=100, seed=seed))
    assert resumed == whole
    for format_name in ("csv", "json", "table"):
        assert flops_report(resumed, format_name) == flops_report(whole, format_name)
    second.remove()
    assert not os.path.exists(output + ".part")


def test_a_part_file_of_another_query_starts_over_and_a_foreign_one_is_refused(tmp_path):
    from omaha_equity.studies.flops_file import FlopsPart

    output = str(tmp_path / "flops.csv")
    with pytest.raises(KeyboardInterrupt):
        FlopsPart(output, _flop_run()).run(_StopAfter(3))
    other = FlopsPart(output, _flop_run(filter="{set+}"))
    assert other.started_over and not other.finished
    assert other.run() == flop_study("AA:$ds", board_range="AK*", filter="{set+}")
    (tmp_path / "flops.csv.part").write_text("id,player,hand\n1,1,AsAhKsKh\n")
    with pytest.raises(InputError, match=r"cannot go on from '.*flops.csv.part': line 1 is not JSON \(it is left"):
        FlopsPart(output, _flop_run())
    assert (tmp_path / "flops.csv.part").read_text().startswith("id,player")


def test_the_flops_command_stopped_with_ctrl_c_goes_on_to_the_same_bytes(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from omaha_equity.cli import main
    from omaha_equity.cli import progress

    arguments = ["flops", "AA:$ds", "-b", "AK*", "--by", "texture", "-f", "csv"]
    runner = CliRunner()
    whole = tmp_path / "whole.csv"
    assert runner.invoke(main, [*arguments, "-o", str(whole)]).exit_code == 0
    assert not (tmp_path / "whole.csv.part").exists()
    stopped = tmp_path / "stopped.csv"
    with monkeypatch.context() as patch:
        patch.setattr(progress.FlopProgress, "__call__", _StopAfter(25).__call__.__func__.__get__(_StopAfter(25)))
        result = runner.invoke(main, [*arguments, "-o", str(stopped)])
    assert result.exit_code == 130
    assert "flops: interrupted: 25 of 59 flops are kept in" in result.stderr and "Aborted!" not in result.stderr
    assert not stopped.exists() and (tmp_path / "stopped.csv.part").exists()
    result = runner.invoke(main, [*arguments, "-o", str(stopped)])
    assert result.exit_code == 0 and "going on from" in result.stderr and "25 of 59 flops already run" in result.stderr
    assert stopped.read_bytes() == whole.read_bytes()
    assert not (tmp_path / "stopped.csv.part").exists()


def test_categories_without_draws_keep_every_field_the_flops_read():
    from omaha_equity.categories import categorize_hands, names
    from omaha_equity.ranges import parse_range

    hands = parse_range("10%", "omaha8").hands
    read = [names.MADE, names.BEATEN, names.LOW, names.LOW_OUTS, names.LOW_BEATEN, names.COUNTERFEIT]
    for flop in ("Ks7h2d", "9s8s7s", "AhAd4c", "5c4d3h"):
        board = tuple(parse_cards(flop))
        kept = hands[~np.isin(hands, board).any(axis=1)]
        whole, made_only = categorize_hands(kept, board, True), categorize_hands(kept, board, True, draws=False)
        assert (whole[:, read] == made_only[:, read]).all()
        assert (made_only[:, names.STRAIGHT_OUTS] == 0).all() and (made_only[:, names.FLUSH_CLASS] == -1).all()


def test_the_all_flops_example_writes_the_study_as_csv_and_a_heat_map(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    from omaha_equity.equity.query import RunOptions
    from omaha_equity.views.flops import flops_report

    example = Path(__file__).resolve().parent.parent / "examples" / "all_flops_study.py"
    arguments = ["AA:$ds", "--vs", "AsKsQdJh", "--board", "AKQ, AKJ", "--trials", "200", "--seed", "1"]
    result = subprocess.run([sys.executable, str(example), str(tmp_path), *arguments], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    assert "'AA:$ds' on 128 flops of 'AKQ, AKJ' (10 classes) | against AsKsQdJh: Monte Carlo" in result.stdout
    study = flop_study("AA:$ds", vs="AsKsQdJh", board_range="AKQ, AKJ", by="texture",
                       options=RunOptions.checked("monte-carlo", trials=200, seed=1))
    written = (tmp_path / "flops_by_texture.csv").read_text()
    assert written == flops_report(study, "csv") + "\n"
    assert written.splitlines()[-1].startswith("all flops,128,10,")
    assert (tmp_path / "flops_by_texture.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
