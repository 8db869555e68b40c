"""``range_composition`` and ``omaha-equity hits``: counts, shares, equity per part."""

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from omaha_equity import calculate_equity
from omaha_equity.cards import format_cards, parse_cards
from omaha_equity.categories import categorize_hands, names
from omaha_equity.cli import main
from omaha_equity.games import GAMES
from omaha_equity.ranges import parse_range
from omaha_equity.studies import range_composition
from omaha_equity.studies.hits import LOW_SECTION, MADE_SECTION, NUT_SECTION


def test_counts_and_shares_agree_with_the_categorizer():
    composition = range_composition("15%", "Th9s4h")
    board = parse_cards("Th9s4h")
    hands = parse_range("15%", excluded=board).hands
    fields = categorize_hands(hands, board, False)
    assert composition.combinations == hands.shape[0] == 32_214
    for section in (MADE_SECTION, NUT_SECTION):
        top = [row for row in composition.section(section) if row.level == 0]
        assert sum(row.combinations for row in top) == composition.combinations
        assert sum(row.share for row in top) == pytest.approx(1.0)
    set_row = composition.row("set")
    assert set_row.combinations == int((fields[:, names.MADE] == names.SET).sum()) == 1_874
    position = composition.rows.index(set_row) + 1
    draws = list(itertools.takewhile(lambda row: row.level == 1, composition.rows[position:]))
    assert sum(row.combinations for row in draws) == set_row.combinations  # the set's draw rows
    assert composition.row("nuts", NUT_SECTION).combinations == int((fields[:, names.BEATEN] == 0).sum())


def test_every_hand_of_the_deck_streamed_in_chunks_matches_the_listed_range():
    streamed = range_composition("*", "Qh7d2c5s")
    listed = range_composition("100%", "Qh7d2c5s")
    assert streamed.combinations == listed.combinations == 194_580
    assert [(row.name, row.combinations) for row in streamed.rows] == [(row.name, row.combinations) for row in listed.rows]


def test_hilo_adds_the_low_section():
    composition = range_composition("*", "As5d3c", "omaha8")
    lows = [row for row in composition.section(LOW_SECTION) if row.level == 0]
    assert {row.name for row in lows} >= {"nut-low", "second-nut-low", "weak-low", "no-low"}
    assert sum(row.combinations for row in lows) == composition.combinations


def test_equity_per_part_against_a_hand_is_exact():
    board, hero = "Kh7d2c", "AsAdQhJh"
    composition = range_composition("KK,77", board, vs=hero)
    assert composition.method == "exact"
    set_row = composition.row("set")
    assert set_row.equity_fraction is not None
    board_cards = parse_cards(board)
    hands = parse_range("KK,77", excluded=board_cards + parse_cards(hero)).hands
    fields = categorize_hands(hands, board_cards, False)
    part = hands[fields[:, names.MADE] == names.SET]
    assert part.shape[0] == set_row.combinations
    listed = ",".join(format_cards(hand, sort=True) for hand in part.tolist())
    expected = calculate_equity([listed, hero], board).players[0].equity_fraction
    assert set_row.equity_fraction == expected
    assert set_row.vs_equity == pytest.approx(1 - float(expected))


def test_hits_command_formats():
    runner = CliRunner()
    table = runner.invoke(main, ["hits", "15%", "-b", "Qh7d2c"])
    assert table.exit_code == 0, table.output
    assert "set" in table.output and "2,317" in table.output
    data = json.loads(runner.invoke(main, ["hits", "15%", "-b", "Qh7d2c", "-f", "json"]).output)
    assert data["combinations"] == 32_846
    assert data["rows"][0] == {"section": "made hand", "category": "set", "level": 0, "combinations": 2317,
                               "share": pytest.approx(2317 / 32846), "filter": ":{set}"}
    csv_text = runner.invoke(main, ["hits", "15%", "-b", "Qh7d2c", "--vs", "AsKsQdJh", "-f", "csv"]).output
    header, first = csv_text.splitlines()[:2]
    assert header.split(",")[-5:] == ["equity", "equity_exact", "standard_error", "vs_equity", "filter"]
    assert Fraction(first.split(",")[6]) == Fraction(235643, 251904)


@pytest.mark.parametrize("arguments, message", [
    (["hits", "15%", "-b", "Qh7d"], "need a board of 3 to 5 cards"),
    (["hits", "15%"], "Missing option '-b'"),
    (["hits", "15%", "-b", "Qh7d2c", "--vs", "Qh7d2c5s"], "duplicate card Qh"),
    (["hits", "15%", "-b", "Qh7d2c", "--seed", "1"], "apply to --vs"),
    (["hits", "AA", "-b", "AsAhAd"], "no hand in range 'AA' is possible"),
])
def test_hits_usage_errors(arguments, message):
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_equity_per_part_against_a_range_matches_the_listed_hands():
    board, villain = "Kh7d2c", "AsAh9c8d, AsAd9h8c"
    composition = range_composition("KcKs,7s7h", board, vs=villain)
    assert composition.method == "exact"
    board_cards = parse_cards(board)
    hands = parse_range("KcKs,7s7h", excluded=board_cards).hands
    fields = categorize_hands(hands, board_cards, False)
    part = hands[fields[:, names.BEATEN] == 1]  # the sets of sevens: only the set of kings is better
    listed = ",".join(format_cards(hand, sort=True) for hand in part.tolist())
    expected = calculate_equity([listed, villain], board).players[0].equity_fraction
    assert composition.row("second nuts", NUT_SECTION).equity_fraction == expected
    sampled = range_composition("KcKs,7s7h", board, vs=villain, method="monte-carlo", trials=5_000, seed=3)
    assert sampled.method == "monte-carlo" and sampled.seed == 3
    row = sampled.row("second nuts", NUT_SECTION)
    assert abs(row.equity - float(expected)) < 5 * row.standard_error


def test_distribution_by_category_groups_the_hands_by_made_hand():
    from omaha_equity.studies import equity_distribution

    by_hand = equity_distribution("AsKsQdJh", "15%", "Qh7d2c")
    by_category = equity_distribution("AsKsQdJh", "15%", "Qh7d2c", by="category")
    composition = range_composition("15%", "Qh7d2c", vs="AsKsQdJh")
    assert [item.label for item in by_category.items] == [row.name for row in composition.section(MADE_SECTION)
                                                          if row.level == 0]
    set_item = by_category.items[0]
    assert (set_item.label, set_item.hand_count) == ("set", 768)
    assert set_item.equity_fraction == 1 - composition.row("set").equity_fraction
    assert sum(item.hand_count for item in by_category.items) == len(by_hand.items)
    assert by_category.equity_fraction == by_hand.equity_fraction
    assert {item.category for item in by_hand.items} == {item.label for item in by_category.items}


def test_distribution_command_by_category_and_the_category_column():
    runner = CliRunner()
    table = runner.invoke(main, ["distribution", "AsKsQdJh", "15%", "-b", "Qh7d2c", "--by", "category"])
    assert table.exit_code == 0, table.output
    assert "set " in table.output and "768" in table.output and "6.46%" in table.output
    csv_text = runner.invoke(main, ["distribution", "AsKsQdJh", "15%", "-b", "Qh7d2c", "-f", "csv"]).output
    header, first = csv_text.splitlines()[:2]
    assert header.endswith(",category") and first.endswith(",underpair")
    no_board = runner.invoke(main, ["distribution", "AsKsQdJh", "15%", "--by", "category"])
    assert no_board.exit_code == 2 and "needs a board of 3 to 5 cards" in no_board.output


def test_hits_plot_is_a_reproducible_svg(tmp_path):
    runner = CliRunner()
    first, second = tmp_path / "first.svg", tmp_path / "second.svg"
    for path in (first, second):
        result = runner.invoke(main, ["hits", "KK", "-b", "Qh7d2c", "--vs", "AsAdQsJh", "--plot", str(path)])
        assert result.exit_code == 0, result.output
    assert first.read_bytes() == second.read_bytes()
    assert b"<svg" in first.read_bytes()
    bad = runner.invoke(main, ["hits", "15%", "-b", "Qh7d2c", "--plot", str(tmp_path / "plot.gif")])
    assert bad.exit_code == 2 and "expected a file name ending in .png or .svg" in bad.output


@pytest.mark.parametrize("board, game", [
    ("Th9s4h", "omaha"), ("As5d3c8h", "omaha8"), ("Qh7d2c5s9h", "omaha5"), ("Kh7d7c", "omaha"), ("7h7d7c", "omaha"),
    ("Ah6h5s", "omaha8"), ("Jc8c4c2d", "omaha"), ("9s8s2h", "omaha5-8"),
])
def test_each_row_holds_exactly_the_hands_its_filter_selects(board, game):
    # every row of every section, the boat, backdoor and counterfeit-risk rows included, on
    # flops, turns and a river, unpaired, paired and trips boards
    from omaha_equity.studies.hits import CellTally, row_masks, row_specs

    board_cards = parse_cards(board)
    hilo = GAMES[game].hilo
    hands = parse_range("20%" if GAMES[game].hole_count == 4 else "4%", game, excluded=board_cards).hands
    fields = categorize_hands(hands, board_cards, hilo)
    specs = row_specs(board_cards, hilo)
    tally = CellTally(specs)
    tally.add(fields, None, keep_cells=True)
    for spec in specs:
        assert np.array_equal(tally.row_mask(spec), row_masks(fields, spec[3], spec[4])), spec[:5]
    # and each made hand's (each made low's) rows below it split it exactly
    for section_kind in ("made", "low"):
        parents = [spec for spec in specs if spec[5] == section_kind and spec[2] == 0]
        for parent in parents:
            children = [spec for spec in specs if spec[5] == section_kind and spec[2] == 1
                        and set(spec[6]) <= set(parent[6])]
            if children:
                assert sorted(cell for child in children for cell in child[6]) == sorted(parent[6]), parent[:2]


def test_boat_backdoor_and_counterfeit_rows_parse_as_their_filters_say():
    # the filter column, read by the range parser, gives back each new row's hands
    for expression, board, game in (("15%", "Th9s4h", "omaha"), ("15%", "Kh7d7c", "omaha"), ("15%", "As5d3c", "omaha8")):
        composition = range_composition(expression, board, game)
        new_rows = [row for row in composition.rows if row.level == 1 and any(
            word in row.name for word in ("boat-draw", "backdoor", "counterfeit"))]
        assert new_rows
        for row in new_rows:
            hands = parse_range(f"({expression}){row.filter}", game, board=board).hands
            assert hands.shape[0] == row.combinations, (board, row.name, row.filter)


def test_boat_draw_rows_nest_under_the_made_hand():
    composition = range_composition("15%", "Kh7d7c")
    rows = [(row.name, row.level, row.filter) for row in composition.rows]
    trips = rows.index(("trips", 0, ":{trips}"))
    board_pair = rows.index(("board-pair-plus-pair", 0, ":{board-pair-plus-pair}"))
    # trips always draw to a full house or quads: said only where it is the only draw
    assert ("boat-draw", 1, ":{trips}:{no-draw}!{backdoor-fd, backdoor-sd}") in rows[trips:board_pair]
    assert ("backdoor-fd + backdoor-sd + boat-draw", 1, ":{board-pair-plus-pair}:{backdoor-fd}:{backdoor-sd}:{boat-draw}") \
        in rows[board_pair:]
    assert ("backdoor-fd + backdoor-sd", 1, ":{board-pair-plus-pair}:{backdoor-fd}:{backdoor-sd}!{boat-draw}") \
        in rows[board_pair:]
    turn = range_composition("15%", "Kh7d7c2s")
    assert not any("backdoor" in row.name for row in turn.rows)  # a flop's draws
    assert ":{board-pair-plus-pair}:{no-draw}!{boat-draw}" in [row.filter for row in turn.rows]
    river = range_composition("15%", "Kh7d7c2s3d")
    assert all(row.level == 0 for row in river.rows)


def test_counterfeit_risk_rows_nest_under_made_lows():
    composition = range_composition("15%", "As5d3c", "omaha8")
    lows = [(row.name, row.level, row.combinations, row.filter) for row in composition.section(LOW_SECTION)]
    weak = lows.index(("weak-low", 0, 4_609, ":{weak-low}"))
    assert lows[weak + 1:weak + 3] == [("counterfeit-risk", 1, 2_730, ":{weak-low}:{counterfeit-risk}"),
                                       ("no counterfeit risk", 1, 1_879, ":{weak-low}!{counterfeit-risk}")]
    board = parse_cards("As5d3c")
    fields = categorize_hands(parse_range("15%", "omaha8", excluded=board).hands, board, True)
    weak_lows = fields[:, names.LOW] == names.WEAK_LOW
    assert int((weak_lows & (fields[:, names.COUNTERFEIT] == 1)).sum()) == 2_730


@pytest.mark.parametrize("board, game", [("Qh7d2c", "omaha"), ("Th9s4h", "omaha"), ("Kh7d7c", "omaha"),
                                         ("Jc8c4c2d", "omaha"), ("Kh7d7c2s", "omaha"), ("9s8s2h", "omaha5")])
def test_sets_trips_and_two_pair_always_draw_to_a_boat(board, game):
    # why their rows leave the boat draw out of the filter: on every hand of the deck
    from omaha_equity.studies.hits import ALWAYS_BOAT_DRAW

    board_cards = parse_cards(board)
    fields = categorize_hands(parse_range("*", game, excluded=board_cards).hands, board_cards, False)
    always = np.isin(fields[:, names.MADE], ALWAYS_BOAT_DRAW)
    pairs = (fields[:, names.MADE] >= names.OVERPAIR) & (fields[:, names.MADE] <= names.LOW_PAIR)
    assert always.any() and (fields[always, names.BOAT_OUTS] > 0).all()
    assert (fields[pairs, names.BOAT_OUTS] == 0).all()  # and a pair never does


@pytest.mark.parametrize("vs, options", [
    ("AsAh9c8d, AsAd9h8c", {}),
    ("AsAh9c8d, AsAd9h8c", {"method": "monte-carlo", "trials": 2_000, "seed": 5}),
    ("As9h", {"method": "monte-carlo", "trials": 2_000, "seed": 5}),  # a partial hand: its cards leave the parts
])
def test_parts_against_a_range_seated_from_their_hands_are_the_queries_of_their_filters(vs, options):
    """Each part is seated from the range's hands already listed; the numbers are those of the
    part's filter written out as a query."""
    composition = range_composition("KK,77", "Kh7d2c", vs=vs, **options)
    for row in composition.rows:
        expected = calculate_equity([f"(KK,77){row.filter}", vs], "Kh7d2c", **options).players[0]
        assert (row.equity, row.equity_fraction) == (expected.equity, expected.equity_fraction), row.name
