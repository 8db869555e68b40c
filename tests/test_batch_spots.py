"""Spots scored together (``equity.many_spots``) and their rows written straight from their
counts (``batch.spot_rows``): the same results and the same bytes as one query at a time."""

import csv
import io
import random

import pytest

from omaha_equity.batch import run_batch
from omaha_equity.batch.files import RowWriter
from omaha_equity.batch.ids import QueryIds
from omaha_equity.batch.run import BatchResult
from omaha_equity.batch.spot_rows import text_cell
from omaha_equity.batch.workers import MeasuredWorkers
from omaha_equity.cards import format_cards
from omaha_equity.equity.calculate import calculate_equity, run_equity
from omaha_equity.equity.query import RunOptions, seat_query
from omaha_equity.equity.many_spots import plain_spot, spot_counts, spot_equity, spot_result
from omaha_equity.errors import InputError
from omaha_equity.games import get_game


def random_spots(game_name, players, board_size, dead_size, count, seed):
    game = get_game(game_name)
    rng = random.Random(seed)
    spots = []
    for _ in range(count):
        deck = rng.sample(range(52), players * game.hole_count + board_size + dead_size)
        hands = [format_cards(deck[player * game.hole_count:(player + 1) * game.hole_count])
                 for player in range(players)]
        rest = deck[players * game.hole_count:]
        spots.append((hands, format_cards(rest[:board_size]), format_cards(rest[board_size:]), game))
    return spots


@pytest.mark.parametrize(("game_name", "players", "board_size", "dead_size"), [
    ("omaha", 2, 5, 0), ("omaha", 3, 4, 2), ("omaha8", 2, 3, 0), ("omaha8", 6, 5, 1), ("omaha5-8", 3, 4, 0),
    ("omaha6", 2, 5, 3), ("omaha6-8", 5, 5, 0),
])
def test_spots_scored_together_equal_calculate_equity(game_name, players, board_size, dead_size):
    queries = random_spots(game_name, players, board_size, dead_size, 6, players * 10 + board_size)
    spots = [plain_spot(*query) for query in queries]
    counts, low_boards = spot_counts(spots)
    for spot, spot_rows, low, query in zip(spots, counts, low_boards, queries):
        whole_way = run_equity(seat_query(*query, None), RunOptions(threads=1))  # seated, planned, run, wrapped
        assert spot_result(spot, spot_rows, low) == whole_way
        assert spot_equity(spot) == whole_way  # the fused kernel of one spot
        assert calculate_equity(*query, threads=1) == whole_way


@pytest.mark.parametrize(("hands", "board", "dead", "game", "options"), [
    (["AsAhKsKh", "JdTd9c8c"], "Qd7h2s5c", "", "PLO", {"method": "exact", "threads": 2}),  # an alias
    (("As Ah Ks Kh", "jdtd9c8c"), "Qd 7h 2s", "3c", "omaha8", {}),  # spaces, lower case
    (["AsAhKsKh", "JdTd9c8c"], "Qd7h2s5c3c", "-", "omaha", {}),  # "-": no dead cards
])
def test_calculate_equity_answers_a_spot_as_the_whole_way_does(hands, board, dead, game, options):
    whole_way = run_equity(seat_query(hands, board, dead, game, None), RunOptions.checked(**options))
    assert calculate_equity(hands, board, dead, game, **options) == whole_way


@pytest.mark.parametrize(("options", "message"), [
    ({"threads": 0}, "threads"), ({"method": "fast"}, "unknown method 'fast'"), ({"device": "tpu"}, "unknown device"),
    ({"seed": -1}, "seed"), ({"game": "omaha9"}, "unknown game 'omaha9'"),
])
def test_a_spot_with_a_bad_option_is_refused_as_any_query_is(options, message):
    with pytest.raises(InputError, match=message):
        calculate_equity(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s5c3c", **options)


@pytest.mark.parametrize(("hands", "board", "dead", "game"), [
    (["AA:$ds", "JdTd9c8c"], "Qd7h2s", "", "omaha"),  # a range
    (["AsAhKs", "JdTd9c8c"], "Qd7h2s", "", "omaha"),  # a partial hand
    (["AsAhKsKh", "*"], "Qd7h2s", "", "omaha"),  # a random hand
    (["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", "As", "omaha"),  # a card twice
    (["AsAhKsKh", "JdTd9c8c"], "Qd7h2sXx", "", "omaha"),  # not a card
    (["AsAhKsKh", "JdTd9c8c"], "", "", "omaha"),  # preflop: too many boards for a spot
    (["AsAhKsKhQc", "JdTd9c8c7c"], "Qd7h2s", "", "courchevel"),  # another game
    (["AsAhKsKh"], "Qd7h2s", "", "omaha"),  # one player
])
def test_anything_not_plainly_a_spot_is_left_to_calculate_equity(hands, board, dead, game):
    assert plain_spot(hands, board, dead, get_game(game)) is None


def written_by_row_writer(outcome):
    stream = io.StringIO()
    RowWriter(stream, "csv", header=False).write(outcome.rows())
    return stream.getvalue()


@pytest.mark.parametrize("query_id", ["7", "=HYPERLINK(1)", "a,b", 'say "hi"', "-x", "'quoted", "ünïcode", "@x,\"y\""])
def test_a_spots_csv_lines_are_the_row_writers_bytes(query_id):
    for game_name, players, board_size in (("omaha", 2, 5), ("omaha8", 3, 4), ("omaha5-8", 2, 3), ("omaha6", 2, 4)):
        queries = random_spots(game_name, players, board_size, 1, 3, len(query_id))
        spots = [plain_spot(*query) for query in queries]
        counts, low_boards = spot_counts(spots)
        for spot, spot_rows, low in zip(spots, counts.tolist(), low_boards.tolist()):
            fast = BatchResult(1, query_id, seed=12345, spot=spot, counts=spot_rows, low_boards=low)
            made = BatchResult(1, query_id, result=spot_result(spot, spot_rows, low), seed=12345)
            assert fast.csv_text() == written_by_row_writer(made)
            assert fast.rows() == made.rows() and fast == made


def test_a_text_cell_is_quoted_as_the_csv_module_quotes_it():
    for text in ["plain", "a,b", 'q"q', "line\nbreak", "car\rriage", "=1", " space", ""]:
        stream = io.StringIO()
        csv.writer(stream, lineterminator="\n").writerow([text if not text.startswith("=") else "'" + text, "x"])
        assert stream.getvalue() == f"{text_cell(text)},x\n"


def test_ids_arriving_together_are_counted_as_one_at_a_time():
    arrivals = [("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5), ("a", 6)]
    with QueryIds({"b": 1}) as one_at_a_time, QueryIds({"b": 1}) as together:
        expected = [one_at_a_time.arrive(query_id, position) for query_id, position in arrivals]
        assert together.arrive_many(arrivals[:2]) + together.arrive_many(arrivals[2:]) == expected
        assert together.arrive("a", 7) == one_at_a_time.arrive("a", 7)


def test_a_mixed_batch_gives_each_query_what_calculate_equity_gives_it():
    rows = [
        {"hands": "AsAhKsKh|JdTd9c8c", "board": "Qd7h2s5c"},
        {"hands": "AsAhKsKh|JdTd9c8c", "board": "Qd7h2s", "trials": "300", "seed": "4"},
        {"hands": "As2sKdQd|Ah3h9c9d|7c6c5h4h", "board": "2c3d4s", "game": "omaha8"},
        {"hands": "AsAhKsKh|AsTd9c8c", "board": "Qd7h2s"},
        {"hands": "AA:$ds|JdTd9c8c", "board": "Qd7h2s5c3c"},
        {"hands": "AsAhKsKh|JdTd9c8c", "board": "Qd7h2s5c3c", "dead": "2d"},
    ]
    outcomes = list(run_batch(rows, seed=1, workers=1))
    assert [outcome.position for outcome in outcomes] == list(range(1, 7))
    assert outcomes[3].error == calculate_equity_error(["AsAhKsKh", "AsTd9c8c"], "Qd7h2s")
    expected = [
        calculate_equity(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s5c", threads=1),
        calculate_equity(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", trials=300, seed=4, threads=1),
        calculate_equity(["As2sKdQd", "Ah3h9c9d", "7c6c5h4h"], "2c3d4s", game="omaha8", threads=1),
        None,
        calculate_equity(["AA:$ds", "JdTd9c8c"], "Qd7h2s5c3c", threads=1),
        calculate_equity(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s5c3c", "2d", threads=1),
    ]
    assert [outcome.result for outcome in outcomes] == expected
    assert [outcome.csv_text() is not None for outcome in outcomes] == [True, False, True, False, False, True]


def calculate_equity_error(hands, board):
    try:
        calculate_equity(hands, board)
    except Exception as error:  # the message the batch row must carry
        return str(error)
    raise AssertionError("expected an error")


def test_measured_workers_stay_in_this_process_for_little_work():
    workers = MeasuredWorkers(core_count=2, query_count=10)
    assert list(workers.map(len, [[1, 2], [3], [4, 5, 6]])) == [2, 1, 3]
    assert workers.worker_count == 1 and workers.choice == "1 worker (measured work)"
    assert workers.queries_per_chunk() == 1
