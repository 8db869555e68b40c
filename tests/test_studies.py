"""Studies (issue 8, section 3): equity by street, after each next card, and distributions.

Every study is checked against separate ``calculate_equity`` queries (themselves checked
against the slow reference in ``tests/naive.py``): a street against the board dealt so far, a
next card against the board plus that card, a range hand against that hand alone.
"""

import csv
import io
import json
import sys
import xml.etree.ElementTree as ElementTree
from fractions import Fraction

import pytest
from click.testing import CliRunner

from omaha_equity import InputError, calculate_equity
from omaha_equity.cli import main
from omaha_equity.studies import (
    DistributionItem, equity_by_street, equity_distribution, histogram, next_card_equity, plot_distribution,
)

HERO, VILLAIN = "AsAhKsKh", "JdTd9c8c"
STATISTICS = ("equity_fraction", "win_count", "tie_count", "hi_win_count", "hi_tie_count", "lo_win_count",
              "lo_tie_count", "quartered_count", "has_low_count", "sample_count")


def reference(hands, board="", **options):
    """One ``calculate_equity`` query, on one thread (quicker for small queries on a busy machine)."""
    return calculate_equity(hands, board, threads=1, **options)


def statistics(result):
    return [[getattr(player, name) for name in STATISTICS] for player in result.players]


def run(*args):
    return CliRunner().invoke(main, list(args))


# --- street by street ---------------------------------------------------------------------

def test_streets_agree_with_one_query_per_street():
    streets = equity_by_street(["As2sKdQd", "Ah3h9c9d"], "4c5d8hKs2c", game="omaha8")
    assert [entry.street for entry in streets.streets] == ["preflop", "flop", "turn", "river"]
    for entry, board in zip(streets.streets, ["", "4c5d8h", "4c5d8hKs", "4c5d8hKs2c"]):
        assert entry.result.board == board
        assert statistics(entry.result) == statistics(reference(["As2sKdQd", "Ah3h9c9d"], board, game="omaha8"))
    assert streets.seed is None  # every street exact
    assert streets.streets[1].result.players[0].equity_fraction == Fraction(423, 656)  # as in test_cli


def test_streets_stop_at_the_board_given():
    streets = equity_by_street([HERO, VILLAIN], "Qd7h2s")
    assert [entry.street for entry in streets.streets] == ["preflop", "flop"]
    assert streets.streets[0].result.players[0].equity_fraction == Fraction(166923, 271502)
    assert streets.streets[1].result.players[0].equity_fraction == Fraction(168, 205)


def test_streets_monte_carlo_repeat_with_the_seed_and_match_single_queries():
    hands = [HERO, "QQ:$ds"]
    first = equity_by_street(hands, "Qd7h2s5c", trials=20_000, seed=11)
    second = equity_by_street(hands, "Qd7h2s5c", trials=20_000, seed=11)
    assert first == second and first.seed == 11
    for entry in first.streets:
        single = reference(hands, entry.result.board, trials=20_000, seed=11)
        assert entry.result.method == "monte-carlo"
        assert entry.result.equities == single.equities


def test_courchevel_preflop_street_shows_the_exposed_first_card():
    streets = equity_by_street(["AsKsQhJh2c", "9d9c8h7s6d"], "Td3c2h", game="courchevel")
    assert streets.streets[0].result.board == "Td"
    assert statistics(streets.streets[0].result) == statistics(
        reference(["AsKsQhJh2c", "9d9c8h7s6d"], "Td", game="courchevel"))


@pytest.mark.parametrize("board", ["", "Qd7h"])
def test_streets_need_a_flop_at_least(board):
    with pytest.raises(InputError, match="expected 3 to 5 board cards"):
        equity_by_street([HERO, VILLAIN], board)


# --- next card ----------------------------------------------------------------------------

def test_next_card_on_a_flop_agrees_with_every_turn_query_hilo():
    hands = ["As2sKdQd", "Ah3h9c9d"]
    result = next_card_equity(hands, "4c5d8h", game="omaha8")
    assert result.method == "exact" and result.street == "turn"
    assert len(result.cards) == 52 - 8 - 3
    for entry in result.cards:
        single = reference(hands, entry.result.board, game="omaha8")
        assert entry.result.board == "4c5d8h" + entry.card
        assert statistics(entry.result) == statistics(single)
        assert entry.result.low_board_count == single.low_board_count
        assert entry.probability_fraction == Fraction(1, 41)
    assert statistics(result.current) == statistics(reference(hands, "4c5d8h", game="omaha8"))


def test_next_card_average_is_the_current_equity_exactly():
    result = next_card_equity([HERO, VILLAIN], "Qd7h2s")
    for player in range(2):
        average = sum(entry.probability_fraction * entry.result.players[player].equity_fraction
                      for entry in result.cards)
        assert average == result.current.players[player].equity_fraction
    assert result.current.players[0].equity_fraction == Fraction(168, 205)


def test_next_card_with_a_weighted_range_agrees_with_each_river_query():
    hands = ["JhTh9d8d", "AsAhKdKc@3,QsQhJdJc,9s8s7c6c@2,6s6h5s4h"]
    result = next_card_equity(hands, "Qd7h2s5c")
    assert result.street == "river" and len(result.cards) == 52 - 4 - 4
    # cards held by some range hands, and cards nobody holds (each query expands the range: a few)
    for entry in (entry for entry in result.cards if entry.card in ("As", "Qs", "6h", "4h", "3c", "Td", "Ac")):
        single = reference(hands, entry.result.board)
        assert [player.equity_fraction for player in entry.result.players] == \
            [player.equity_fraction for player in single.players]
    # a card some range hands hold is less likely to come: As is in the weight-3 hand
    chance = {entry.card: entry.probability_fraction for entry in result.cards}
    assert sum(chance.values()) == 1
    assert chance["As"] < chance["3c"]
    average = sum(entry.probability_fraction * entry.result.players[0].equity_fraction for entry in result.cards)
    assert average == result.current.players[0].equity_fraction == \
        reference(hands, "Qd7h2s5c").players[0].equity_fraction


def test_next_card_three_way_on_a_turn():
    hands = [HERO, VILLAIN, "9s8h7d6d"]
    result = next_card_equity(hands, "Qd7h2s5c", game="omaha8")
    for entry in result.cards[:6]:
        assert statistics(entry.result) == statistics(reference(hands, entry.result.board, game="omaha8"))


def test_next_card_with_a_partial_hand_deals_its_other_cards_and_repeats_on_one_thread():
    hands = [HERO, "JdTdJh"]  # one card dealt at random
    result = next_card_equity(hands, "Qd7h2s5c", game="omaha")
    assert result == next_card_equity(hands, "Qd7h2s5c", threads=1)
    for entry in result.cards[::8]:
        assert [player.equity_fraction for player in entry.result.players] == \
            [player.equity_fraction for player in reference(hands, entry.result.board).players]
    assert sum(entry.probability_fraction for entry in result.cards) == 1


def test_next_cards_are_sorted_by_player_1s_change_and_counted_above_the_threshold():
    result = next_card_equity([HERO, VILLAIN], "Qd7h2s", above=0.9)
    changes = [entry.change for entry in result.cards]
    assert changes == sorted(changes, reverse=True)
    start = result.current.players[0].equity_fraction
    assert all(entry.change == float(entry.result.players[0].equity_fraction - start) for entry in result.cards)
    above = [entry for entry in result.cards if entry.result.players[0].equity > 0.9]
    assert result.above_count == len(above) and 0 < len(above) < len(result.cards)
    assert result.above_probability == pytest.approx(len(above) / len(result.cards))


def test_next_card_monte_carlo_is_one_seeded_query_per_card():
    hands = [HERO, VILLAIN]
    result = next_card_equity(hands, "Qd7h2s", method="monte-carlo", trials=5_000, seed=3, threads=1)
    assert result.method == "monte-carlo" and result.seed == 3
    entry = result.cards[5]
    single = reference(hands, entry.result.board, method="monte-carlo", trials=5_000, seed=3)
    assert entry.result.equities == single.equities
    assert entry.probability == pytest.approx(1 / 41)
    assert result == next_card_equity(hands, "Qd7h2s", method="monte-carlo", trials=5_000, seed=3)  # any threads


@pytest.mark.parametrize("board, message", [
    ("", "expected 3 or 4 board cards, got 0"),
    ("Qd7h2s5c9d", "expected 3 or 4 board cards, got 5 in 'Qd7h2s5c9d'"),
])
def test_next_card_needs_a_flop_or_a_turn(board, message):
    with pytest.raises(InputError, match=message):
        next_card_equity([HERO, VILLAIN], board)


def test_next_card_threshold_is_a_fraction():
    with pytest.raises(InputError, match="bad threshold 50"):
        next_card_equity([HERO, VILLAIN], "Qd7h2s", above=50)


# --- distributions ------------------------------------------------------------------------

SMALL_RANGE = "KdKcQsJs,QsQhJdJc@2,9s8s7c6c"


def test_distribution_by_hand_agrees_with_one_query_per_hand():
    result = equity_distribution(HERO, SMALL_RANGE, "Qd7h2s")
    assert result.method == "exact" and len(result.items) == 3
    by_hand = {item.label: item for item in result.items}
    for hand, weight in (("KdKcQsJs", 0.25), ("QsQhJdJc", 0.5), ("9s8s7c6c", 0.25)):
        single = reference([HERO, hand], "Qd7h2s")
        assert by_hand[hand].equity_fraction == single.players[0].equity_fraction
        assert by_hand[hand].weight == weight
    assert [item.equity for item in result.items] == sorted((item.equity for item in result.items), reverse=True)
    assert result.equity_fraction == reference([HERO, SMALL_RANGE], "Qd7h2s").players[0].equity_fraction
    assert sum(entry.weight for entry in result.bins) == pytest.approx(1)
    assert sum(entry.item_count for entry in result.bins) == 3


def test_distribution_by_hand_weighted_mean_is_the_range_equity_on_a_flop():
    result = equity_distribution("As2sKdQd", "AA:$ds,KK:$ds,A23", "4c5d8h", game="omaha8")
    assert len(result.items) > 1000
    assert result.equity_fraction == reference(["As2sKdQd", "AA:$ds,KK:$ds,A23"], "4c5d8h", game="omaha8") \
        .players[0].equity_fraction


def test_distribution_by_hand_monte_carlo_repeats_for_any_thread_count_and_is_close():
    exact = equity_distribution(HERO, SMALL_RANGE, "")
    sampled = equity_distribution(HERO, SMALL_RANGE, "", method="monte-carlo", trials=4_000, seed=9)
    assert sampled == equity_distribution(HERO, SMALL_RANGE, "", method="monte-carlo", trials=4_000, seed=9,
                                          threads=1)
    assert sampled.trials == 4_000 and sampled.seed == 9
    exact_by_hand = {item.label: item.equity for item in exact.items}
    for item in sampled.items:
        assert 0 < item.standard_error < 0.01
        assert abs(item.equity - exact_by_hand[item.label]) < 5 * item.standard_error


def test_distribution_by_next_card_is_the_next_card_study():
    result = equity_distribution(HERO, SMALL_RANGE, "Qd7h2s", by="next-card")
    study = next_card_equity([HERO, SMALL_RANGE], "Qd7h2s")
    expected = {entry.card: (entry.probability, entry.result.players[0].equity_fraction) for entry in study.cards}
    assert {item.label: (item.weight, item.equity_fraction) for item in result.items} == expected
    assert result.equity_fraction == study.current.players[0].equity_fraction


def test_histogram_bins_hold_their_lower_edge_and_the_top_bin_holds_one():
    items = [DistributionItem(label, 0.25, float(fraction), fraction, 0.0)
             for label, fraction in (("a", Fraction(1, 2)), ("b", Fraction(1)), ("c", Fraction(0)),
                                     ("d", Fraction(3, 10)))]
    bins = histogram(items, 10)
    assert [(entry.label, entry.item_count) for entry in bins if entry.item_count] == \
        [("0-10%", 1), ("30-40%", 1), ("50-60%", 1), ("90-100%", 1)]
    assert [entry.label for entry in histogram(items, 4)] == ["0-25%", "25-50%", "50-75%", "75-100%"]


@pytest.mark.parametrize("hand, opponent, board, by, message", [
    ("AsAh", SMALL_RANGE, "Qd7h2s", "category", "needs player 1's 4 hole cards, got 'AsAh'"),
    (HERO, "AA", "AcAd2s", "hand", "no hand"),
    (HERO, SMALL_RANGE, "", "next-card", "expected 3 or 4 board cards"),
    (HERO, SMALL_RANGE, "Qd7h2s", "street", "unknown distribution 'street'"),
])
def test_distribution_bad_input(hand, opponent, board, by, message):
    with pytest.raises(InputError, match=message):
        equity_distribution(hand, opponent, board, by=by)


# --- plots --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def small_distribution():
    return equity_distribution(HERO, "AA:$ds,KK:$ds," + SMALL_RANGE, "Qd7h2s")


def test_png_plot_is_a_png_file(small_distribution, tmp_path):
    path = plot_distribution(small_distribution, tmp_path / "spread.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_svg_plot_is_xml_and_the_same_every_time(small_distribution, tmp_path):
    first = plot_distribution(small_distribution, tmp_path / "first.svg").read_bytes()
    second = plot_distribution(small_distribution, tmp_path / "second.svg").read_bytes()
    assert ElementTree.fromstring(first).tag.endswith("svg")
    assert first == second


def test_plot_without_matplotlib_says_how_to_install_it(small_distribution, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(InputError, match=r"pip install 'omaha-equity\[plot\]'"):
        plot_distribution(small_distribution, tmp_path / "spread.png")
    result = run("distribution", HERO, SMALL_RANGE, "-b", "Qd7h2s", "--plot", str(tmp_path / "spread.png"))
    assert result.exit_code == 2
    assert result.output.strip() == "Error: plotting needs matplotlib: pip install 'omaha-equity[plot]'"


# --- command line -------------------------------------------------------------------------

def test_calc_streets_csv_is_one_row_per_player_per_street():
    result = run("calc", HERO, VILLAIN, "-b", "Qd7h2s5c9d", "--streets", "-f", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(row["street"], row["player"]) for row in rows] == [
        (street, player) for street in ("preflop", "flop", "turn", "river") for player in ("1", "2")]
    assert rows[2]["equity_exact"] == "168/205" and rows[2]["board"] == "Qd7h2s"
    table = run("calc", HERO, VILLAIN, "-b", "Qd7h2s5c9d", "--streets")
    assert "61.48%" in table.output and "81.95%" in table.output and "river Qd7h2s5c9d" in table.output


def test_calc_streets_json_and_seed():
    result = run("calc", HERO, "QQ:$ds", "-b", "Qd7h2s", "--streets", "--trials", "10000", "--seed", "5", "-f",
                 "json")
    data = json.loads(result.stdout)
    assert data["seed"] == 5 and [street["street"] for street in data["streets"]] == ["preflop", "flop"]
    assert data["streets"][1]["board"] == "Qd7h2s" and data["streets"][1]["method"] == "monte-carlo"


def test_calc_next_card_table_csv_and_json():
    table = run("calc", "As2sKdQd", "Ah3h9c9d", "-g", "o8", "-b", "4c5d8h", "--next-card", "--above", "0.6")
    assert table.exit_code == 0, table.output
    assert "scoop 1" in table.output and "low 2" in table.output
    assert "above 60.00% after" in table.output
    rows = list(csv.DictReader(io.StringIO(run("calc", HERO, VILLAIN, "-b", "Qd7h2s", "--next-card", "-f",
                                               "csv").stdout)))
    assert len(rows) == 2 * 41 and rows[0]["order"] == "1" and rows[0]["change"] == str(float(Fraction(37, 205)))
    data = json.loads(run("calc", HERO, VILLAIN, "-b", "Qd7h2s", "--next-card", "-f", "json").stdout)
    assert data["street"] == "turn" and len(data["cards"]) == 41 and data["above"] == 0.5
    assert data["current"]["players"][0]["equity_exact"] == "168/205"
    assert data["cards"][0]["players"][0]["equity_exact"] == "1"


@pytest.mark.parametrize("args, message", [
    (["calc", HERO, VILLAIN, "--streets"], "Error: equity by street needs a board"),
    (["calc", HERO, VILLAIN, "--next-card", "-b", "Qd7h2s5c9d"], "Error: the next card needs a flop or a turn"),
    (["calc", HERO, VILLAIN, "--next-card", "--streets", "-b", "Qd7h2s"], "Error: --streets and --next-card"),
    (["calc", HERO, VILLAIN, "--above", "0.5", "-b", "Qd7h2s"], "Error: --above applies to --next-card"),
    (["distribution", HERO, "AA", "-b", "AcAd2s"], "Error: "),
    (["distribution", HERO, SMALL_RANGE, "--plot", "spread.gif"], "Error: unknown plot format 'spread.gif'"),
])
def test_study_errors_are_one_line_with_exit_code_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert result.output.startswith(message) and result.output.count("\n") == 1


def test_distribution_command_histogram_csv_json_and_plot(tmp_path):
    table = run("distribution", HERO, SMALL_RANGE, "-b", "Qd7h2s")
    assert table.exit_code == 0, table.output
    assert "equity across the opponent's hands" in table.output and "#" in table.output
    rows = list(csv.DictReader(io.StringIO(run("distribution", HERO, SMALL_RANGE, "-b", "Qd7h2s", "-f", "csv").stdout)))
    assert {row["hand"] for row in rows} == {"KdKcQsJs", "QsQhJdJc", "9s8s7c6c"}
    assert all(row["bin"].endswith("%") for row in rows)
    data = json.loads(run("distribution", HERO, SMALL_RANGE, "-b", "Qd7h2s", "--by", "next-card", "--bins", "5",
                          "-f", "json").stdout)
    assert data["by"] == "next-card" and len(data["bins"]) == 5 and len(data["items"]) > 30
    plot = tmp_path / "spread.svg"
    result = run("distribution", HERO, SMALL_RANGE, "-b", "Qd7h2s", "--plot", str(plot))
    assert result.exit_code == 0 and ElementTree.parse(plot).getroot().tag.endswith("svg")
