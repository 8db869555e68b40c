"""A range's equity hand by hand against another range (``distribution RANGE_A RANGE_B --by
hand``): each hand's equity against a plain-Python brute force over the opponent's hands and
the board completions (``tests/naive.py``), and the hands' weighted mean against
``calculate_equity`` for the two ranges, exactly, on a turn and a river.
"""

import json
from fractions import Fraction
from itertools import combinations

import pytest
from click.testing import CliRunner

import naive
from omaha_equity import InputError, calculate_equity
from omaha_equity.cli import main
from omaha_equity.studies import equity_distribution
from omaha_equity.studies.distribution import keep_by_equity

# Hands chosen to share 0 to 4 cards with each other (card removal at every depth, the three-
# and four-card corrections included) and to tie, split and scoop on the boards below.
HANDS_A = ["AsAhKsKh", "AsKdQcJh", "8s7s6d5d", "Ac2c3d4h", "QsQd9h8h"]
HANDS_B = ["AsAhKsQd", "AsAhKsKh", "KdKc7s7h", "JsTs9d8d", "Ac2d3s5h", "Ad2s4c6h", "QhJhTc9c", "AhKh3c4d"]
WEIGHTS_B = [3, 1, 2, 5, 1, 4, 2, 1]


def brute_force(hand, opponents, weights, board, hilo):
    """Hand's equity against weighted opponent hands: every opponent hand and completion that
    share no card with it or the board, each pot share (``naive.showdown_shares``) times the
    opponent hand's weight, over the total weight; also that total (weight x completions)."""
    board_cards = naive.cards(board)
    hand_cards = naive.cards(hand)
    share_sum, faced = Fraction(0), 0
    for opponent, weight in zip(opponents, weights):
        opponent_cards = naive.cards(opponent)
        used = set(hand_cards) | set(opponent_cards) | set(board_cards)
        if len(used) != len(hand_cards) + len(opponent_cards) + len(board_cards):
            continue
        deck = [card for card in range(52) if card not in used]
        for completion in combinations(deck, 5 - len(board_cards)):
            shares = naive.showdown_shares([hand_cards, opponent_cards], board_cards + list(completion), hilo)
            share_sum += weight * shares[0]
            faced += weight
    return share_sum / faced, faced


def weighted(hands, weights):
    return ",".join(f"{hand}@{weight}" for hand, weight in zip(hands, weights))


def by_label(result):
    return {item.label: item for item in result.items}


@pytest.mark.parametrize(("board", "game"), [("Qh7d2c5s9c", "omaha"), ("Kd8c7d2h6s", "omaha8"),
                                             ("9s8c2d3c", "omaha8")])
def test_each_hand_matches_the_brute_force_with_card_removal(board, game):
    board_cards = set(naive.cards(board))
    hands_a = [hand for hand in HANDS_A if not set(naive.cards(hand)) & board_cards]
    kept_b = [(hand, weight) for hand, weight in zip(HANDS_B, WEIGHTS_B) if not set(naive.cards(hand)) & board_cards]
    result = equity_distribution(",".join(hands_a), weighted(*zip(*kept_b)), board, game=game, threads=1)
    assert result.method == "exact" and result.items_of == 1
    items = by_label(result)
    expected_weights = {}
    for hand in hands_a:
        equity, faced = brute_force(hand, [hand for hand, _ in kept_b], [weight for _, weight in kept_b], board,
                                    game == "omaha8")
        label = naive_label(hand)
        assert items[label].equity_fraction == equity, hand
        expected_weights[label] = faced
    total = sum(expected_weights.values())
    for label, faced in expected_weights.items():
        assert items[label].weight == pytest.approx(faced / total)


def test_five_card_hands_sharing_up_to_five_cards_match_the_brute_force():
    hands_a = ["AsAhKsKhQs", "8s7s6d5d4c", "AsKdQcJhTh"]
    hands_b = ["AsAhKsKhQs", "AsAhKsKhJd", "AsAhKs3c3d", "8s7s6d5d3h", "JsTs9d8d2h", "AhKh3c4d6s"]
    weights_b = [1, 2, 3, 1, 2, 5]
    board = "Qd7h2c5s9c"
    result = equity_distribution(",".join(hands_a), weighted(hands_b, weights_b), board, game="omaha5", threads=1)
    items = by_label(result)
    for hand in hands_a:
        equity, _ = brute_force(hand, hands_b, weights_b, board, False)
        assert items[naive_label(hand)].equity_fraction == equity, hand


def test_the_opponent_memory_estimate_refuses_a_wide_six_card_range():
    from omaha_equity.studies.memory import STUDY_MEMORY_BUDGET
    from omaha_equity.studies.range_by_hand import opponent_bytes_per_hand

    assert 400 <= opponent_bytes_per_hand(4, 2) <= 600
    assert 40_000 * opponent_bytes_per_hand(4, 16) < STUDY_MEMORY_BUDGET  # 15% of Omaha, on 16 threads
    assert 2_375_145 * opponent_bytes_per_hand(6, 2) > STUDY_MEMORY_BUDGET  # 20% of 6-card Omaha


def naive_label(hand):
    """Canonical text, cards descending (the labels of a distribution)."""
    return "".join(naive.card_text(card) for card in sorted(naive.cards(hand), reverse=True))


@pytest.mark.parametrize(("range_a", "range_b", "board", "game"), [
    ("AA:$ds,KK:$ds", "QQ:$ds@2,JT98:$ds", "Qh7d2c5s9c", "omaha"),
    ("AAKK,AAQJ", "QQJJ@2,JT98:$ds", "Qh7d2c5s", "omaha"),
    ("A2KK,A4QQ", "KKJJ,A3TT@3", "Qh7d2c5s", "omaha8"),
    ("A2KK,A4QQ", "KKJJ,A3TT@3", "Qh7d3c5s8h", "omaha8"),
])
def test_the_weighted_mean_is_calc_for_the_two_ranges_exactly(range_a, range_b, board, game):
    result = equity_distribution(range_a, range_b, board, game=game)
    calc = calculate_equity([range_a, range_b], board, game=game, method="exact")
    assert result.equity_fraction == calc.players[0].equity_fraction
    assert sum(item.weight for item in result.items) == pytest.approx(1)
    assert sum(item.weight * item.equity for item in result.items) == pytest.approx(result.equity)


def test_buckets_are_gto_wizards_quarters_and_sum_every_hand():
    result = equity_distribution("AA:$ds,KK:$ds", "QQ:$ds,JT98:$ds", "Qh7d2c5s9c")
    assert [bucket.label for bucket in result.bins] == ["0-25%", "25-50%", "50-75%", "75-100%"]
    assert sum(bucket.item_count for bucket in result.bins) == len(result.items)
    assert sum(bucket.weight for bucket in result.bins) == pytest.approx(1)
    for item in result.items:
        bucket = result.bin_of(item)
        assert bucket.low <= item.equity <= bucket.high


def test_monte_carlo_on_a_flop_repeats_for_any_thread_count_and_is_close_to_exact():
    range_a, range_b, board = "AA:$ds", "KK:$ds,QJT9:$ds", "Qh7d2c"
    exact = equity_distribution(range_a, range_b, board, method="exact")
    sampled = equity_distribution(range_a, range_b, board, method="monte-carlo", trials=150, seed=5, threads=1)
    assert sampled == equity_distribution(range_a, range_b, board, method="monte-carlo", trials=150, seed=5,
                                          threads=2)
    assert sampled.method == "monte-carlo" and sampled.trials == 150 and sampled.equity_fraction is None
    exact_items = by_label(exact)
    for item in sampled.items:
        assert 0 < item.standard_error < 0.05
        assert abs(item.equity - exact_items[item.label].equity) < 5 * item.standard_error + 1e-9


def test_keep_by_equity_keeps_the_hands_within_the_bounds_exactly():
    result = equity_distribution("AA:$ds,KK:$ds", "QQ:$ds,JT98:$ds", "Qh7d2c5s9c")
    kept = keep_by_equity(result, 0.5, None)
    assert kept.items and all(item.equity_fraction >= Fraction(1, 2) for item in kept.items)
    assert len(kept.items) == sum(1 for item in result.items if item.equity_fraction >= Fraction(1, 2))
    assert kept.bins == result.bins and kept.item_count == len(result.items)
    below = keep_by_equity(result, None, 0.5)
    assert len(below.items) + len(kept.items) - sum(1 for item in result.items if item.equity == 0.5) == len(
        result.items)
    with pytest.raises(InputError, match="minimum equity 0.6 is above the maximum equity 0.4"):
        keep_by_equity(result, 0.6, 0.4)
    with pytest.raises(InputError, match="fraction 0..1"):
        equity_distribution("AA:$ds", "KK:$ds", "Qh7d2c5s9c", minimum_equity=50)


def test_hands_that_face_no_opponent_hand_are_left_out():
    result = equity_distribution("AsAhKhKc,AdAhKhKc", "AsKdQcJh", "Th7d2c5s9c")
    assert [item.label for item in result.items] == ["AhAdKhKc"]
    assert result.items[0].weight == 1


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_command_line_table_csv_and_json():
    args = ["distribution", "AA:$ds,KK:$ds", "QQ:$ds,JT98:$ds", "-b", "Qh7d2c5s9c"]
    table = run(*args, "--min-equity", "0.75")
    assert table.exit_code == 0, table.output
    assert "equity across the hands of player 1's range | exact" in table.output
    assert "75-100%" in table.output and "with equity at least 75.00%" in table.output
    data = json.loads(run(*args, "--max-equity", "0.25", "-f", "json").output)
    assert data["items_of"] == "player 1" and data["maximum_equity"] == 0.25
    assert [entry["bin"] for entry in data["bins"]] == ["0-25%", "25-50%", "50-75%", "75-100%"]
    assert all(item["equity"] <= 0.25 for item in data["items"])
    assert data["kept_range"].split(",") == [item["hand"] for item in data["items"]]
    lines = run(*args, "-f", "csv").output.splitlines()
    assert lines[0].startswith("hand,weight,equity,equity_exact,standard_error,bin")
    bad = run(*args, "--min-equity", "1.5")
    assert bad.exit_code == 2 and "1.5" in bad.output and "Traceback" not in bad.output
    crossed = run(*args, "--min-equity", "0.6", "--max-equity", "0.4")
    assert crossed.exit_code == 2 and "above the maximum equity" in crossed.output
