"""Batches of queries (issue 8): reading rows, error rows, order, seeds, resume, and the same
numbers on local worker processes and on a Dask LocalCluster as in this process."""

import csv
import hashlib
import io
import json
import random
from fractions import Fraction

import pytest
from click.testing import CliRunner

from omaha_equity.batch import BATCH_COLUMNS, Query, derive_seed, query_from_record, run_batch
from omaha_equity.batch.files import ResumePoint, scan_output
from omaha_equity.batch.ids import QueryIds
from omaha_equity.batch.records import open_records
from omaha_equity.cards import format_cards
from omaha_equity.cli import main
from omaha_equity.errors import InputError


def run_cli(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def csv_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


# --- reading queries --------------------------------------------------------------------------

def test_query_from_numbered_hand_columns_ignores_trailing_empty_cells():
    query = query_from_record({"hand1": "AsAhKsKh", "hand2": "JdTd9c8c", "hand3": "", "board": "Qd7h2s",
                               "trials": "", "game": "omaha"})
    assert query == Query(("AsAhKsKh", "JdTd9c8c"), board="Qd7h2s", game="omaha")


def test_query_from_hands_column_splits_players_at_bars():
    query = query_from_record({"hands": "AsAhKsKh | JdTd9c8c|AA:$ds", "trials": "1e4", "precision": "0.5",
                               "seed": "7", "method": "mc", "die": "2", "id": 12})
    assert query.hands == ("AsAhKsKh", "JdTd9c8c", "AA:$ds")
    assert (query.trials, query.precision, query.seed, query.method, query.die, query.query_id) == \
        (10000, 0.5, 7, "monte-carlo", 2, "12")


@pytest.mark.parametrize("record, message", [
    ({"hand1": "AsAhKsKh", "hand3": "JdTd9c8c"}, "hand2 is empty but hand3 is not"),
    ({"hands": "AsAhKsKh|JdTd9c8c", "hand1": "KsKh"}, "not both"),
    ({"board": "Qd7h2s"}, "no hands"),
    ({"hands": "AsAhKsKh|JdTd9c8c", "trials": "many"}, "bad trials 'many'"),
    ({"hands": "AsAhKsKh|JdTd9c8c", "die": "7"}, "bad die '7': expected a whole number 1..6"),
    ({"hands": "AsAhKsKh|JdTd9c8c", "precision": "-1"}, "bad precision '-1'"),
    ({"hands": "AsAhKsKh|JdTd9c8c", "seed": "-3"}, "bad seed '-3'"),
    ({"hands": "AsAhKsKh|JdTd9c8c", "boad": "Qd7h2s"}, "unknown column 'boad'"),
])
def test_bad_query_values_name_the_key_and_the_value(record, message):
    with pytest.raises(InputError, match=message):
        query_from_record(record)


def test_csv_header_with_an_unknown_column_stops_before_any_row():
    with pytest.raises(InputError, match="unknown column 'boad'"):
        list(open_records(io.StringIO("hand1,hand2,boad\nAsAhKsKh,JdTd9c8c,Qd7h2s\n"), "csv"))


def test_unreadable_json_line_becomes_an_error_row_and_the_batch_goes_on():
    lines = '{"hands": "AsAhKsKh|JdTd9c8c", "board": "Qd7h2s"}\n{"hands": oops}\n\n["a list"]\n'
    outcomes = list(run_batch(open_records(io.StringIO(lines), "jsonl"), workers=1, seed=1))
    assert [outcome.position for outcome in outcomes] == [1, 2, 3]
    assert outcomes[0].ok and outcomes[0].result.players[0].equity_fraction == Fraction(168, 205)
    assert outcomes[1].error.startswith("line 2: not JSON") and outcomes[2].error.startswith("line 4: expected a JSON object")


# --- seeds ------------------------------------------------------------------------------------

def test_derived_seed_is_the_first_eight_bytes_of_sha256_of_seed_and_id():
    assert derive_seed(1, "7") == int.from_bytes(hashlib.sha256(b"1:7").digest()[:8], "big")
    assert derive_seed(1, "7") == 4422270780434312991  # pinned: the README documents the recipe
    assert derive_seed(1, "7") != derive_seed(2, "7") != derive_seed(1, "8")


def test_monte_carlo_numbers_depend_on_the_seed_and_id_not_on_batch_or_order():
    spots = [{"id": name, "hands": "AsAhKsKh|JdTd9c8c", "board": board, "trials": "3000"}
             for name, board in (("a", ""), ("b", "Qd7h2s"), ("c", "9h8h2c"))]
    together = {outcome.query_id: outcome.result.equities for outcome in run_batch(spots, workers=1, seed=5)}
    alone = {spot["id"]: next(run_batch([spot], workers=1, seed=5)).result.equities for spot in reversed(spots)}
    assert together == alone
    other_seed = next(run_batch(spots[:1], workers=1, seed=6)).result.equities
    assert other_seed != together["a"]
    assert next(run_batch(spots[:1], workers=1, seed=5)).seed == derive_seed(5, "a")


def test_a_query_with_its_own_seed_runs_with_it():
    from omaha_equity import calculate_equity

    outcome = next(run_batch([Query(("AsAhKsKh", "JdTd9c8c"), trials=2000, seed=42)], workers=1, seed=5))
    assert outcome.seed == 42
    assert outcome.result.equities == calculate_equity(["AsAhKsKh", "JdTd9c8c"], trials=2000, seed=42).equities


# --- the command ------------------------------------------------------------------------------

SPOTS_CSV = """id,game,board,hand1,hand2
A,omaha,Qd7h2s,AsAhKsKh,JdTd9c8c
B,omaha8,4c5d8h,As2sKdQd,Ah3h9c9d
C,omaha,Qd7h2s,AsAhKsKh,AsTd9c8c
A,omaha,9h8h2c,AsAhKsKh,JdTd9c8c
"""


def test_batch_writes_one_row_per_player_and_an_error_row_in_input_order():
    result = run_cli("batch", "-", "--workers", "1", "--seed", "1", input=SPOTS_CSV)
    assert result.exit_code == 1
    rows = csv_rows(result.stdout)
    assert list(rows[0]) == list(BATCH_COLUMNS)
    assert [(row["id"], row["player"]) for row in rows] == [("A", "1"), ("A", "2"), ("B", "1"), ("B", "2"),
                                                            ("C", "0"), ("A", "0")]
    assert rows[0]["equity_exact"] == "168/205" and rows[1]["equity_exact"] == "37/205"
    assert rows[2]["equity_exact"] == "423/656" and float(rows[2]["low_possible"]) == 1.0
    assert rows[0]["hi_win"] == "" and rows[0]["method"] == "exact" and rows[0]["sample_count"] == "820"
    assert rows[4]["error"] == "duplicate card As in player 1 and player 2"
    assert rows[4]["hand"] == "AsAhKsKh|AsTd9c8c" and rows[4]["board"] == "Qd7h2s"
    assert rows[5]["error"].startswith("duplicate id 'A' (also query 1)")
    assert "2 queries done, 2 failed" in result.stderr and "failed ids: C, A" in result.stderr


def test_batch_exits_zero_when_every_query_succeeds_and_reads_json_lines():
    lines = '{"hands": ["AsAhKsKh", "JdTd9c8c"], "board": "Qd7h2s"}\n{"hands": "As2sKdQd|Ah3h9c9d", "game": "o8"}\n'
    result = run_cli("batch", "--input-format", "jsonl", "-f", "jsonl", "--workers", "1", input=lines)
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(row["id"], row["player"]) for row in rows] == [("1", 1), ("1", 2), ("2", 1), ("2", 2)]
    assert rows[0]["equity_exact"] == "168/205" and rows[0]["error"] is None and rows[0]["hi_win"] is None
    assert rows[2]["game"] == "omaha8" and rows[2]["scoop"] is not None


def test_resume_skips_the_ids_already_written_and_appends_the_rest(tmp_path):
    spots = tmp_path / "spots.csv"
    spots.write_text(SPOTS_CSV.replace("C,omaha,Qd7h2s,AsAhKsKh,AsTd9c8c\nA,omaha,9h8h2c,AsAhKsKh,JdTd9c8c\n",
                                       "C,omaha,9h8h2c,AsAhKsKh,JdTd9c8c\n"))
    full = tmp_path / "full.csv"
    assert run_cli("batch", str(spots), "-o", str(full), "--workers", "1", "--seed", "4").exit_code == 0
    partial = tmp_path / "partial.csv"
    lines = full.read_text().splitlines(keepends=True)
    partial.write_text("".join(lines[:5]) + lines[5][:10])  # A and B done, C cut short mid-row
    with QueryIds() as ids:
        # B, the last query in the file, runs again: its rows may have been cut short too
        assert scan_output(partial, "csv", ids) == ResumePoint(len("".join(lines[:3])), 1)
        assert ids.arrive("A", 1).already_written and not ids.arrive("B", 2).already_written
    assert partial.read_text().endswith(lines[5][:10])  # reading changed nothing
    result = run_cli("batch", str(spots), "-o", str(partial), "--resume", "--workers", "1", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert partial.read_text() == full.read_text()
    assert "2 queries done, 0 failed, 1 already in" in result.stderr


def test_resume_needs_an_output_file():
    result = run_cli("batch", "-", "--resume", input=SPOTS_CSV)
    assert result.exit_code == 2 and "--resume needs the output file" in result.output


def test_missing_cluster_options_conflict_with_workers():
    result = run_cli("batch", "-", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1", input=SPOTS_CSV)
    assert result.exit_code == 2 and "--workers applies to this machine" in result.output


# --- the "done when": 200 flop spots, some bad, locally and on a LocalCluster --------

BAD_ROWS = {
    13: ("omaha", "AsAhKsKh", "AsTd9c8c", "Qd7h2s", "", "duplicate card As"),
    50: ("omaha", "XsAhKsKh", "JdTd9c8c", "Qd7h2s", "", "'XsAhKsKh'"),
    77: ("omaha", "AsAhKsKhQh", "JdTd9c8c", "Qd7h2s", "", "hole cards"),
    101: ("holdem", "AsAhKsKh", "JdTd9c8c", "Qd7h2s", "", "holdem"),
    150: ("omaha8", "AsAhKsKh", "JdTd9c8c", "Qd7h2s", "many", "bad trials 'many'"),
    199: ("omaha", "AsAhKsKh", "JdTd9c8c", "Qd7h2sQd", "", "duplicate card Qd"),
}


def flop_spots_csv(row_count=200):
    """Heads-up flop spots, exact and Monte Carlo, Omaha and hi/lo, with the bad rows above."""
    rng = random.Random(8)
    lines = ["id,game,board,hand1,hand2,trials"]
    for number in range(1, row_count + 1):
        if number in BAD_ROWS:
            game, hand1, hand2, board, trials, _ = BAD_ROWS[number]
        else:
            deck = list(range(52))
            rng.shuffle(deck)
            game = "omaha8" if number % 3 == 0 else "omaha"
            hand1, hand2, board = (format_cards(deck[0:4]), format_cards(deck[4:8]), format_cards(deck[8:11]))
            trials = "2000" if number % 10 == 0 else ""
        lines.append(f"spot{number},{game},{board},{hand1},{hand2},{trials}")
    return "\n".join(lines) + "\n"


def check_flop_spots_output(rows):
    good = 200 - len(BAD_ROWS)
    assert len(rows) == 2 * good + len(BAD_ROWS)
    expected_ids = []
    for number in range(1, 201):
        expected_ids += [f"spot{number}"] * (1 if number in BAD_ROWS else 2)
    assert [row["id"] for row in rows] == expected_ids
    for row in rows:
        number = int(row["id"][4:])
        if number in BAD_ROWS:
            assert BAD_ROWS[number][-1] in row["error"]
        else:
            assert not row["error"]
            assert row["method"] == ("monte-carlo" if number % 10 == 0 else "exact")


@pytest.fixture(scope="module")
def local_flop_spots_output(tmp_path_factory):
    folder = tmp_path_factory.mktemp("flops")
    spots = folder / "spots.csv"
    spots.write_text(flop_spots_csv())
    output = folder / "out.csv"
    result = run_cli("batch", str(spots), "-o", str(output), "--seed", "3", "--workers", "2")
    assert result.exit_code == 1, result.output
    assert "194 queries done, 6 failed" in result.stderr
    return spots, output.read_text()


def test_two_hundred_flop_spots_give_every_row_in_order_on_local_workers(local_flop_spots_output):
    _, text = local_flop_spots_output
    rows = csv_rows(text)
    check_flop_spots_output(rows)
    # exact rows are exact: the two players' equities add up to one
    exact = [row for row in rows if row["method"] == "exact"]
    for first, second in zip(exact[::2], exact[1::2]):
        assert Fraction(first["equity_exact"]) + Fraction(second["equity_exact"]) == 1


def test_two_hundred_flop_spots_give_identical_rows_in_this_process(local_flop_spots_output):
    spots, text = local_flop_spots_output
    result = run_cli("batch", str(spots), "--seed", "3", "--workers", "1")
    assert result.stdout == text


@pytest.fixture(scope="module")
def local_cluster():
    """A real Dask LocalCluster of 2 workers (threads of this process, one each: the quickest
    to start; the kernels' OpenMP layer is thread-safe) reached over TCP like a remote one."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://",
                                  dashboard_address=None) as cluster:
        yield cluster


def test_two_hundred_flop_spots_give_identical_rows_on_a_dask_local_cluster(local_flop_spots_output, local_cluster):
    spots, text = local_flop_spots_output
    result = run_cli("batch", str(spots), "--seed", "3", "--scheduler", local_cluster.scheduler_address,
                     "--chunk-size", "16")
    assert result.exit_code == 1, result.output
    assert result.stdout == text
    check_flop_spots_output(csv_rows(result.stdout))


def test_rankings_estimated_on_a_dask_cluster_equal_the_ones_estimated_here(local_cluster):
    import importlib.util
    from pathlib import Path

    import distributed

    from omaha_equity.runtime.executor import DaskExecutor
    from omaha_equity.rankings import classes

    path = Path(__file__).resolve().parent.parent / "scripts" / "generate_rankings.py"
    spec = importlib.util.spec_from_file_location("generate_rankings", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    hands = classes.representatives(4)[:200]
    here = script.estimate(hands, 3, 40, 9, True, 200, lambda done, total: None)
    with distributed.Client(local_cluster) as client:
        executor = DaskExecutor(client=client)
        there = script.estimate(hands, 3, 40, 9, True, 32, lambda done, total: None, executor, 1)
    assert (here[0] == there[0]).all() and (here[1] == there[1]).all()
    assert here[0].sum() > 0


def test_an_interrupt_wrapped_levels_deep_stops_the_batch_instead_of_becoming_an_error_row():
    """numba re-raises Ctrl-C inside a kernel as another exception whose interrupt is several
    levels down the chain; a batch on one worker must stop, not record the query as failed."""
    from omaha_equity.errors import caused_by_interrupt

    def wrapped(depth):
        try:
            if depth == 0:
                raise KeyboardInterrupt
            wrapped(depth - 1)
        except BaseException as inner:
            raise SystemError("kernel failed") from inner

    with pytest.raises(SystemError) as caught:
        wrapped(3)
    assert caused_by_interrupt(caught.value)
    assert not caused_by_interrupt(SystemError("a real bug"))


def test_input_that_is_not_utf8_is_a_one_line_error_from_a_file_or_standard_input(tmp_path):
    garbage = tmp_path / "garbage.csv"
    garbage.write_bytes(b"id,hand1,hand2\n\xff\xfe\x00abc\n")
    from_file = run_cli("batch", str(garbage), "--workers", "1")
    from_stdin = run_cli("batch", "-", "--workers", "1", input=garbage.read_bytes())
    for result, name in ((from_file, "'/"), (from_stdin, "standard input")):
        assert result.exit_code == 2
        assert result.stderr.startswith(f"Error: {name}") and len(result.stderr.splitlines()) == 1
        assert "is not UTF-8 text (byte 0xff cannot be read); nothing was written" in result.stderr


def test_standard_input_with_a_byte_order_mark_reads_like_a_file():
    spreadsheet_csv = b"\xef\xbb\xbfID,Hand1,HAND2,Board\r\na,AsAhKsKh,JdTd9c8c,Qd7h2s\r\n"
    result = run_cli("batch", "-", "--workers", "1", input=spreadsheet_csv)
    assert result.exit_code == 0, result.output
    rows = csv_rows(result.stdout)
    assert [(row["id"], row["equity_exact"]) for row in rows] == [("a", "168/205"), ("a", "37/205")]
