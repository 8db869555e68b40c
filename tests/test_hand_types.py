"""``calc --hand-types``: each hand's final hand type by the river, and hi/lo's made, nut and
counterfeited lows, against a plain-Python enumeration of the river boards (``tests/naive.py``).
"""

import json
from itertools import combinations

import pytest
from click.testing import CliRunner

import naive
from omaha_equity import InputError
from omaha_equity.cli import main
from omaha_equity.studies.hand_types import HAND_TYPES, hand_types_by_river


def nut_low(board):
    """The best low any two cards off the board make with it (naive.best_low), or None: the low
    depends on the two cards' ranks only, so one pair of cards per pair of ranks."""
    off_board = [card for card in range(52) if card not in board]
    by_ranks = {}
    for first, second in combinations(off_board, 2):
        by_ranks.setdefault(tuple(sorted((first // 4, second // 4))), (first, second))
    lows = [naive.low_value_5(list(pair) + list(three)) for pair in by_ranks.values()
            for three in combinations(board, 3)]
    present = [low for low in lows if low is not None]
    return max(present) if present else None


def low_ranks(hand):
    return {card // 4 for card in hand if card // 4 <= 6 or card // 4 == 12}


def brute_force(hands, board, hilo):
    """Per hand: boards of each hand type, made, nut and counterfeited lows over every river
    board (the module's definition, written out street by street)."""
    hands = [naive.cards(hand) for hand in hands]
    board = naive.cards(board)
    used = set(board) | {card for hand in hands for card in hand}
    deck = [card for card in range(52) if card not in used]
    counts = [{"types": [0] * 9, "made": 0, "nut": 0, "counterfeited": 0, "boards": 0} for _ in hands]
    nut_by_street = {}
    for completion in combinations(deck, 5 - len(board)):
        river = board + list(completion)
        for street in range(len(board), 6 if hilo else len(board)):
            key = tuple(sorted(card // 4 for card in river[:street]))  # a low depends on the ranks only
            if key not in nut_by_street:
                nut_by_street[key] = nut_low(river[:street])
        for hand, count in zip(hands, counts):
            count["boards"] += 1
            count["types"][naive.best_high(hand, river)[0]] += 1
            if not hilo:
                continue
            low = naive.best_low(hand, river)
            river_nut = low is not None and low == nut_by_street[tuple(sorted(card // 4 for card in river))]
            count["made"] += low is not None
            count["nut"] += river_nut
            counterfeited = False
            for street in range(len(board), 5):
                street_low = naive.best_low(hand, river[:street])
                held = street_low is not None and street_low == nut_by_street[
                    tuple(sorted(card // 4 for card in river[:street]))]
                paired = any(card // 4 in low_ranks(hand) for card in river[street:])
                counterfeited |= held and paired
            count["counterfeited"] += counterfeited and not river_nut
    return counts


@pytest.mark.parametrize(("hands", "board", "game"), [
    (["As2dKhQc", "8s8dJhTc"], "3c4h7d9s", "omaha8"),
    (["Ac2c5h6h", "KsKdQcJc"], "4d7s8h", "omaha8"),
    (["AsKsQdJh", "8s8dJcTc"], "Qs7s2c", "omaha"),
])
def test_hand_types_and_lows_match_the_brute_force(hands, board, game):
    result = hand_types_by_river(hands, board, game=game)
    expected = brute_force(hands, board, game == "omaha8")
    assert result.board_count == expected[0]["boards"]
    for player, count in zip(result.players, expected):
        assert list(player.type_counts) == count["types"]
        assert player.or_better(HAND_TYPES.index("flush")) == sum(count["types"][5:])
        if game == "omaha8":
            assert (player.made_low, player.nut_low, player.counterfeited_low) == (
                count["made"], count["nut"], count["counterfeited"])
        else:
            assert (player.made_low, player.nut_low, player.counterfeited_low) == (0, 0, 0)
    assert any(player.counterfeited_low for player in result.players) or game == "omaha"


def test_refuses_too_many_hand_boards_and_boards_other_than_a_flop_or_turn():
    with pytest.raises(InputError, match=r"'\*' would count 1,086,008 hands x 946 boards, over the limit"):
        hand_types_by_river(["AsKsQdJhTh", "*"], "Qs7s2c", game="omaha5")
    with pytest.raises(InputError, match="flop or a turn"):
        hand_types_by_river(["AsKsQdJh", "8s8dJcTc"], "Qs7s2c3d4h")


def test_command_line():
    runner = CliRunner()
    table = runner.invoke(main, ["calc", "As2dKhQc", "8s8dJhTc", "-b", "3c4h7d", "-g", "omaha8", "--hand-types"])
    assert table.exit_code == 0, table.output
    assert "final hand types by the river | exact, 820 boards" in table.output
    assert "counterfeited low  24.51%" in table.output
    data = json.loads(runner.invoke(main, ["calc", "AsKsQdJh", "8s8dJcTc", "-b", "Qs7s2c", "--hand-types",
                                           "-f", "json"]).output)
    assert data["board_count"] == 820 and sum(data["players"][0]["hand_types"].values()) == 820
    clash = runner.invoke(main, ["calc", "AsKsQdJh", "8s8dJcTc", "-b", "Qs7s2c", "--hand-types", "--streets"])
    assert clash.exit_code == 2 and "cannot be used with" in clash.output


@pytest.mark.parametrize(("hands", "board", "game", "player"), [
    # a weighted range of 4 hands (one holds a board card and is dropped) against a hand
    (["As2d5hKc@3, Ac3c4d8s@0.5, 2h3hQsQd, 7c7dJsTs@2, Ad2c3s4s", "KsKdQcJc"], "4s5d8hTd", "omaha8", 0),
    # a fixed hand's counts beside a range: the range removes none of its cards
    (["Ac2c5h6h", "AdKd3s4s@2, Ah2h6s7s"], "4d8cJh9s", "omaha8", 1),
    (["AsKsQdJh, 8s8dJcTc@0.25, 7h7c9d9c@4, AhKh3s9s", "Ad2h4s9h"], "Qs7s2c3d", "omaha", 0),
])
def test_a_range_matches_the_brute_force_over_its_hands_and_rivers(hands, board, game, player):
    """A range's counts are the weighted sums of its hands' counts, each hand counted over every
    river that the known cards (board, the fixed hand) and its own cards leave: exactly, as
    fractions of the weighted (hand, river) pairs."""
    from fractions import Fraction

    result = hand_types_by_river(hands, board, game=game)
    hilo = game == "omaha8"
    fixed = [hand for index, hand in enumerate(hands) if index != player][0]
    weighted = []
    for part in hands[player].split(", "):
        text, _, weight = part.partition("@")
        if set(naive.cards(text)) & set(naive.cards(board) + naive.cards(fixed)):
            continue
        weighted.append((Fraction(weight or "1"), brute_force([text, fixed], board, hilo)[0]))
    total = sum(weight * count["boards"] for weight, count in weighted)
    ranged = result.players[player]
    assert ranged.hand_count == len(weighted) and ranged.ranged

    def share(count):
        return Fraction(count, ranged.board_count)

    for index in range(len(HAND_TYPES)):
        assert share(ranged.type_counts[index]) == sum(
            weight * count["types"][index] for weight, count in weighted) / total
    for attribute, key in (("made_low", "made"), ("nut_low", "nut"), ("counterfeited_low", "counterfeited")):
        expected = sum(weight * count[key] for weight, count in weighted) / total if hilo else 0
        assert share(getattr(ranged, attribute)) == expected
    if player == 1:  # the fixed hand: every river of the cards the board and it leave
        alone = brute_force([fixed], board, hilo)[0]
        assert list(result.players[0].type_counts) == alone["types"]
        assert result.players[0].counterfeited_low == alone["counterfeited"]
    assert hilo <= any(count["counterfeited"] for _, count in weighted) or player == 1


def test_command_line_with_a_range():
    runner = CliRunner()
    table = runner.invoke(main, ["calc", "AA:$ds", "AsKsQdJh", "-b", "Qh7d2c5s", "--hand-types", "-q"])
    assert table.exit_code == 0, table.output
    assert "exact, 44 boards | 1 AA:$ds: 320 hands; other ranges remove no cards" in table.output
    too_wide = runner.invoke(main, ["calc", "*", "AsKsQdJhTh", "-b", "Qh7d2c", "-g", "omaha5", "--hand-types", "-q"])
    assert too_wide.exit_code == 2 and "over the limit of 200,000,000" in too_wide.output
    assert "Traceback" not in too_wide.output
