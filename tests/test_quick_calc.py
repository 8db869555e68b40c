"""The shell's quick way for plain ``calc`` lines (``cli.quick_calc``) and the fixed-shape table
it prints (``views.spot_table``): the same text as the command and the general renderer."""

from __future__ import annotations

import contextlib
import io
import random

import pytest

from omaha_equity.cards import format_cards
from omaha_equity.cli import main
from omaha_equity.cli.quick_calc import quick_calc
from omaha_equity.equity.calculate import calculate_equity
from omaha_equity.equity.many_spots import one_spot_counts, query_spot
from omaha_equity.games import get_game
from omaha_equity.views.equity import equity_report
from omaha_equity.views.spot_table import exact_high_table, spot_high_table


def _spot_words(rng: random.Random) -> list[str]:
    deck = rng.sample(range(52), 4 * 3 + 5 + 1)
    players = rng.choice([2, 2, 3])
    hands = [format_cards(deck[4 * player:4 * player + 4]) for player in range(players)]
    board = format_cards(deck[12:12 + rng.choice([3, 4, 5])])
    words = ["calc", *hands, rng.choice(["-b", "--board"]), board]
    if rng.random() < 0.3:
        words += [rng.choice(["-d", "--dead"]), format_cards(deck[-1:])]
    if rng.random() < 0.2:
        words.append(rng.choice(["-q", "--quiet"]))
    return words


def _command_output(words: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main.run_words(words, "omaha-equity", None) == 0
    return out.getvalue()


def test_a_quick_line_prints_what_the_command_prints():
    rng = random.Random(3)
    for _ in range(60):
        words = _spot_words(rng)
        text = quick_calc(words)
        assert text is not None, words
        assert text + "\n" == _command_output(words), words


@pytest.mark.parametrize("words", [
    ["calc", "AsAhKsKh", "JdTd9c8c"],  # preflop: not a spot
    ["calc", "AsAhKsKh", "vs", "JdTd9c8c", "-b", "Qd7h2s"],  # a separator: the callback's
    ["calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s", "-b", "5c"],  # repeated
    ["calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s", "-g", "omaha8"],  # another option
    ["calc", "AsAhKsKh", "JdTd9c8c", "-b"],  # no value
    ["calc", "AsAhKsKh", "JdTd9c8c", "-b", "-q"],  # a value that looks like an option
    ["calc", "AA", "JdTd9c8c", "-b", "Qd7h2s"],  # a range
    ["calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2sXx"],  # not a card: the command says so
    ["calc", "AsAhKsKh", "JdTd9c8c", "-b", "AK*"],  # a board range
    ["show", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s5c3c"],  # another command
])
def test_any_other_line_is_left_to_the_command(words):
    assert quick_calc(words) is None


@pytest.mark.parametrize("game", ["omaha", "omaha6", "omaha8"])
def test_the_fixed_shape_table_is_the_general_renderers(game):
    rng = random.Random(len(game))
    hole_count = 6 if game == "omaha6" else 4
    for _ in range(40):
        players = rng.choice([2, 3, 4])
        deck = rng.sample(range(52), players * hole_count + 5)
        hands = [format_cards(deck[hole_count * player:hole_count * (player + 1)]) for player in range(players)]
        result = calculate_equity(hands, format_cards(deck[-rng.choice([3, 4, 5]):]), game=game)
        table = exact_high_table(result)
        if game == "omaha8":
            assert table is None  # hi/lo columns and footer: the general renderer's
        else:
            assert table == equity_report(result, "table", "simple")
    sampled = calculate_equity(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", trials=100, seed=1)
    assert exact_high_table(sampled) is None


@pytest.mark.parametrize("game", ["omaha", "omaha5", "omaha6", "omaha8"])
def test_the_table_from_a_spots_counts_is_the_general_renderers(game):
    rng = random.Random(len(game) + 7)
    chosen = get_game(game)
    hole_count = chosen.hole_count
    for index in range(40):
        players = rng.choice([2, 3, 4])
        deck = rng.sample(range(52), players * hole_count + 5 + 2)
        hands = [format_cards(deck[hole_count * player:hole_count * (player + 1)], sort=index % 2 == 0)
                 for player in range(players)]
        board = format_cards(deck[players * hole_count:players * hole_count + rng.choice([3, 4, 5])])
        dead = format_cards(deck[len(deck) - rng.choice([0, 1, 2]):]) if index % 3 else ""
        spot = query_spot(hands, board, dead, game)
        assert spot is not None, (hands, board, dead)
        table = spot_high_table(spot, one_spot_counts(spot))
        if chosen.hilo:
            assert table is None  # hi/lo columns and footer: the general renderer's
        else:
            assert table == equity_report(calculate_equity(hands, board, dead, game=game), "table", "simple")
