"""Batch input and output under faults a user can cause (issue 15, items 1-6, 8, 9, 13-15):
damaged input lines, usage errors next to an existing output, --resume into the wrong file,
duplicate ids, pandas reading the output, spreadsheet formulas, too many workers, a full disk,
and the progress bar's time left."""

import csv
import io
import math
import os
import re
import resource
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner

from omaha_equity.batch import BATCH_COLUMNS, derive_seed
from omaha_equity.batch.cells import escape_cell, unescape_cell
from omaha_equity.batch.progress import TimeLeft
from omaha_equity.batch.records import MAX_LINE_CHARACTERS, json_too_deep, open_records
from omaha_equity.cli import main
from omaha_equity.errors import InputError
from omaha_equity.runtime.executor import MAX_WORKERS, make_executor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOOD = "AsAhKsKh,JdTd9c8c"  # on Qd7h2s: 168/205 for the aces
HEADER = "id,board,hand1,hand2\n"


def run_cli(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def csv_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def good_rows(count, start=1):
    return "".join(f"q{number},Qd7h2s,{GOOD}\n" for number in range(start, start + count))


# --- 1. nesting -------------------------------------------------------------------------------

def test_deeply_nested_json_line_is_an_error_row_and_the_rows_after_it_still_run():
    nested = '{"hands": ' + "[" * 30_000 + "]" * 30_000 + "}\n"  # deep enough for a RecursionError
    lines = '{"id": "a", "hands": "AsAhKsKh|JdTd9c8c", "board": "Qd7h2s"}\n' + nested \
        + '{"id": "c", "hands": [["AsAhKsKh"], "JdTd9c8c"]}\n{"id": "d", "hands": ["AsAhKsKh", "JdTd9c8c"]}\n'
    result = run_cli("batch", "-", "--input-format", "jsonl", "--workers", "1", "--seed", "1", input=lines)
    assert result.exit_code == 1, result.output
    rows = csv_rows(result.stdout)
    assert [(row["id"], row["player"]) for row in rows] == [("a", "1"), ("a", "2"), ("2", "0"), ("3", "0"),
                                                            ("d", "1"), ("d", "2")]
    assert rows[2]["error"].startswith("line 2: JSON nested more than 2 levels deep")
    assert rows[3]["error"].startswith("line 3: JSON nested more than 2 levels deep")
    assert rows[0]["equity_exact"] == "168/205" and "Traceback" not in result.output


def test_json_nesting_is_counted_outside_strings_only():
    assert not json_too_deep('{"hands": ["[[[{{{", "\\"[[[", "\\\\"], "id": "[["}')
    assert json_too_deep('{"a": [[1]]}') and not json_too_deep('{"a": [1]}')


# --- 2. cell and line sizes -------------------------------------------------------------------

def test_a_csv_cell_over_the_csv_modules_limit_is_an_error_row_and_the_batch_goes_on():
    text = HEADER + good_rows(1) + f"q2,Qd7h2s,{'A' * 200_000},JdTd9c8c\n" + good_rows(1, start=3)
    result = run_cli("batch", "-", "--workers", "1", input=text)
    assert result.exit_code == 1, result.output
    rows = csv_rows(result.stdout)
    assert [(row["id"], row["player"]) for row in rows] == [("q1", "1"), ("q1", "2"), ("2", "0"),
                                                            ("q3", "1"), ("q3", "2")]
    assert rows[2]["error"] == f"line 3 is longer than {MAX_LINE_CHARACTERS:,} characters: not a query"
    assert rows[2]["hand"] == ""  # not echoed back


def test_a_ten_megabyte_json_line_is_dropped_in_pieces_with_little_memory():
    line = '{"hands": "' + "A" * 10_000_000 + '"}\n'
    records = list(open_records(io.StringIO(line + '{"hands": "AsAhKsKh|JdTd9c8c"}\n'), "jsonl"))
    assert records[0].message == f"line 1 is longer than {MAX_LINE_CHARACTERS:,} characters: not a query"
    assert records[1] == {"hands": "AsAhKsKh|JdTd9c8c"}


# --- 3. a stray quote -------------------------------------------------------------------------

def test_a_stray_quote_is_an_error_row_at_its_line_and_the_rows_after_it_are_read():
    text = HEADER + good_rows(1) + 'q2,Qd7h2s,"AsAhKsKh,JdTd9c8c\n' + good_rows(998, start=3)
    result = run_cli("batch", "-", "--workers", "1", "--seed", "1", input=text)
    assert result.exit_code == 1, result.output
    rows = csv_rows(result.stdout)
    assert len(rows) == 2 * 999 + 1
    assert rows[2]["id"] == "2" and rows[2]["error"].startswith("line 3: a quoted cell is not closed on its line")
    assert rows[-1]["id"] == "q1000" and rows[-1]["equity_exact"] == "37/205"
    assert "999 queries done, 1 failed" in result.stderr and "failed ids: 2\n" in result.stderr


# --- 4. usage errors leave the output alone ----------------------------------------------------

@pytest.mark.parametrize("arguments, message", [
    (["--input-format", "csv"], "unknown column 'flop'"),
    (["--scheduler", "tcp://127.0.0.1:9", "--worker-timeout", "0.5"], "cannot reach the Dask scheduler"),
    (["--scheduler-file", "{garbage}"], "is not a Dask scheduler file"),
], ids=["unknown-column", "unreachable-scheduler", "malformed-scheduler-file"])
def test_a_usage_error_leaves_an_existing_output_untouched(tmp_path, arguments, message):
    pytest.importorskip("distributed")
    spots = tmp_path / "spots.csv"
    spots.write_text(("id,flop,hand1,hand2\n" if "csv" in arguments else HEADER) + good_rows(2))
    garbage = tmp_path / "scheduler.json"
    garbage.write_text('{"addr')
    output = tmp_path / "out.csv"
    output.write_bytes(b"precious,results\n1,2")
    arguments = [str(garbage) if argument == "{garbage}" else argument for argument in arguments]
    result = run_cli("batch", str(spots), "-o", str(output), *arguments)
    assert result.exit_code == 2, result.output
    assert message in result.stderr and "Traceback" not in result.output
    assert output.read_bytes() == b"precious,results\n1,2"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["out.csv", "scheduler.json", "spots.csv"]


def test_a_finished_run_replaces_the_output_and_leaves_no_part_file(tmp_path):
    spots = tmp_path / "spots.csv"
    spots.write_text(HEADER + good_rows(2))
    output = tmp_path / "out.csv"
    output.write_text("old\n")
    assert run_cli("batch", str(spots), "-o", str(output), "--workers", "1").exit_code == 0
    assert [row["id"] for row in csv_rows(output.read_text())] == ["q1", "q1", "q2", "q2"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["out.csv", "spots.csv"]


# --- 5. --resume into a file that is not a batch output ----------------------------------------

@pytest.mark.parametrize("content", [
    b"name,score\nann,3\nbob,4",  # another CSV, its last line without a line break
    (",".join(BATCH_COLUMNS) + "\nnot,a,batch,row\nq1,1,cut sh").encode(),
], ids=["other-csv", "batch-header-other-rows"])
def test_resume_refuses_a_file_that_is_not_a_batch_output_and_leaves_it_as_it_was(tmp_path, content):
    spots = tmp_path / "spots.csv"
    spots.write_text(HEADER + good_rows(2))
    output = tmp_path / "scores.csv"
    output.write_bytes(content)
    result = run_cli("batch", str(spots), "-o", str(output), "--resume", "--workers", "1")
    assert result.exit_code == 2
    assert f"cannot resume into {str(output)!r}" in result.stderr and "(it is left as it is)" in result.stderr
    assert output.read_bytes() == content
    assert sorted(path.name for path in tmp_path.iterdir()) == ["scores.csv", "spots.csv"]


# --- 6. duplicate ids ---------------------------------------------------------------------------

DUPLICATES = HEADER + "A,Qd7h2s,AsAhKsKh,JdTd9c8c\nB,Qd7h2s,AsAhKsKh,JdTd9c8c\nA,9h8h2c,AsAhKsKh,JdTd9c8c\n" \
    "C,Qd7h2s,AsAhKsKh,JdTd9c8c\nA,2c3c4c,AsAhKsKh,JdTd9c8c\n"


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_every_repeat_of_an_id_is_an_error_row_and_resume_keeps_them(tmp_path, suffix):
    import json

    spots = tmp_path / "spots.csv"
    spots.write_text(DUPLICATES)
    full = tmp_path / f"full{suffix}"
    assert run_cli("batch", str(spots), "-o", str(full), "--workers", "1", "--seed", "2").exit_code == 1
    text = full.read_text()
    rows = csv_rows(text) if suffix == ".csv" else [json.loads(line) for line in text.splitlines()]
    assert [(row["id"], str(row["player"])) for row in rows] == [
        ("A", "1"), ("A", "2"), ("B", "1"), ("B", "2"), ("A", "0"), ("C", "1"), ("C", "2"), ("A", "0")]
    assert rows[4]["error"].startswith("duplicate id 'A' (also query 1)")
    assert rows[7]["error"].startswith("duplicate id 'A' (also query 1)")
    lines = text.splitlines(keepends=True)
    for keep in range(1, len(lines) + 1):  # stopped after every line, then resumed
        partial = tmp_path / f"partial{suffix}"
        partial.write_text("".join(lines[:keep]))
        result = run_cli("batch", str(spots), "-o", str(partial), "--resume", "--workers", "1", "--seed", "2")
        assert result.exit_code == 1, result.output
        assert partial.read_text() == text, keep


# --- 8. pandas ----------------------------------------------------------------------------------

def test_pandas_reads_every_whole_number_column_whole_and_exact_with_error_rows_present():
    pandas = pytest.importorskip("pandas")
    spots = ("id,board,hand1,hand2,trials,seed\n"
             "exact,Qd7h2s,AsAhKsKh,JdTd9c8c,,\n"
             "broken,Qd7h2s,AsAhKsKh,AsTd9c8c,,\n"
             "sampled,,AsAhKsKh,JdTd9c8c,2000,\n"
             f"own-seed,,AsAhKsKh,JdTd9c8c,2000,{2**64 - 5}\n"
             "bad-seed,,AsAhKsKh,JdTd9c8c,2000,-1\n")
    result = run_cli("batch", "-", "--workers", "1", "--seed", "3", input=spots)
    assert result.exit_code == 1, result.output
    frame = pandas.read_csv(io.StringIO(result.stdout))
    for column in ("player", "sample_count", "seed"):
        assert frame[column].dtype.kind in "iu", column
    assert frame["player"].tolist() == [1, 2, 0, 1, 2, 1, 2, 0]
    assert frame["sample_count"].tolist() == [820, 820, 0, 2000, 2000, 2000, 2000, 0]
    expected_seeds = [derive_seed(3, name) for name in ("exact", "exact", "broken", "sampled", "sampled")] \
        + [2**64 - 5] * 2 + [derive_seed(3, "bad-seed")]
    assert [int(seed) for seed in frame["seed"]] == expected_seeds
    assert frame["equity"].tolist()[:2] == [168 / 205, 37 / 205]
    text_rows = csv_rows(result.stdout)
    assert [float(row["equity"]) if row["equity"] else None for row in text_rows][:5] == \
        [None if pandas.isna(value) else value for value in frame["equity"]][:5]


# --- 9. spreadsheet formulas --------------------------------------------------------------------

def test_cells_a_spreadsheet_would_run_are_escaped_and_resume_reads_them_back(tmp_path):
    ids = ["=1+2", "+1", "-7", "@SUM(A1)", "@", "'quoted", "plain", "-"]  # (ids are stripped of spaces)
    spots = tmp_path / "spots.jsonl"
    spots.write_text("".join(f'{{"id": {json_text(name)}, "hands": "AsAhKsKh|JdTd9c8c", "board": "Qd7h2s"}}\n'
                             for name in ids)
                     + '{"id": "bad", "hands": "=HYPERLINK(\\"http://x\\")|JdTd9c8c"}\n')
    full = tmp_path / "full.csv"
    assert run_cli("batch", str(spots), "-o", str(full), "--workers", "1", "--seed", "5").exit_code == 1
    with open(full, newline="") as file:
        raw = list(csv.reader(file))[1:]
    assert [row[0] for row in raw[::2][:8]] == ["'=1+2", "'+1", "'-7", "'@SUM(A1)", "'@", "''quoted", "plain", "-"]
    assert raw[-1][0] == "bad" and raw[-1][2] == "'=HYPERLINK(\"http://x\")|JdTd9c8c"
    assert raw[-1][BATCH_COLUMNS.index("board")] == "-"  # "no cards" stays a lone minus
    assert all(not cell.startswith(("=", "+", "@", "\t", "\r")) for row in raw for cell in row)
    text = full.read_text()
    partial = tmp_path / "partial.csv"
    partial.write_text("".join(text.splitlines(keepends=True)[:12]))  # up to "'quoted"
    result = run_cli("batch", str(spots), "-o", str(partial), "--resume", "--workers", "1", "--seed", "5")
    assert result.exit_code == 1 and "3 queries done, 1 failed, 5 already in" in result.stderr, result.output
    assert partial.read_text() == text
    assert (escape_cell("\tx"), escape_cell("\rx"), escape_cell("2.5"), escape_cell("")) == ("'\tx", "'\rx", "2.5", "")
    for name in ids + ["''", "'=x", "\tx", "\rx"]:
        assert unescape_cell(escape_cell(name)) == name


def json_text(text):
    import json

    return json.dumps(text)


# --- 13. workers beyond the cores ----------------------------------------------------------------

def test_workers_beyond_the_cores_are_capped_unless_oversubscribed(monkeypatch):
    from omaha_equity.batch import command
    from omaha_equity.runtime.executor import InProcessExecutor

    asked = []

    def fake_executor(workers, *args, **kwargs):
        asked.append(workers)
        return InProcessExecutor()

    monkeypatch.setattr(command, "local_core_count", lambda: 2)
    monkeypatch.setattr(command, "make_executor", fake_executor)
    capped = run_cli("batch", "-", "--workers", "16", input=HEADER + good_rows(1))
    assert capped.exit_code == 0 and asked == [2]
    assert capped.stderr.splitlines()[0] == ("batch: --workers 16 is more than the 2 cores here: running 2 worker "
                                             "processes (--oversubscribe starts 16)")
    oversubscribed = run_cli("batch", "-", "--workers", "16", "--oversubscribe", input=HEADER + good_rows(1))
    assert oversubscribed.exit_code == 0 and asked == [2, 16] and "cores" not in oversubscribed.stderr


def test_the_cap_on_one_core_says_core_and_process_in_the_singular(monkeypatch):
    # under taskset -c 0 it said "the 1 cores here: running 1 worker processes"
    from omaha_equity.batch import command

    monkeypatch.setattr(command, "local_core_count", lambda: 1)
    capped = run_cli("batch", "-", "--workers", "3", input=HEADER + good_rows(1))
    assert capped.exit_code == 0
    assert capped.stderr.splitlines()[0] == ("batch: --workers 3 is more than the 1 core here: running 1 worker "
                                             "process (--oversubscribe starts 3)")


# --- 14. a full disk ------------------------------------------------------------------------------

def run_command(arguments, stdout=subprocess.PIPE, file_size_limit=None):
    def limit_file_size():  # a file that cannot grow past the limit: a disk that fills up
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    # No .pyc files from a process that cannot write past the limit: Python renames a short write
    # into place, and a truncated .pyc breaks that module's import in every later process.
    return subprocess.run([sys.executable, "-m", "omaha_equity", "batch", *arguments], cwd=ROOT, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120,
                          preexec_fn=limit_file_size if file_size_limit else None,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_on_the_output_or_standard_output_is_one_line_and_exit_1(tmp_path):
    spots = tmp_path / "spots.csv"
    spots.write_text(HEADER + good_rows(3))
    to_file = run_command([str(spots), "-o", "/dev/full", "--workers", "1", "-q"])
    assert (to_file.returncode, to_file.stderr) == (1, "Error: no space left writing '/dev/full'\n")
    with open("/dev/full", "w") as full:
        to_stdout = run_command([str(spots), "--workers", "1", "-q"], stdout=full)
    assert (to_stdout.returncode, to_stdout.stderr) == (1, "Error: no space left writing stdout\n")


def test_a_disk_that_fills_up_keeps_the_finished_rows_and_resume_completes_them(tmp_path):
    spots = tmp_path / "spots.csv"
    spots.write_text(HEADER + good_rows(40))
    clean = tmp_path / "clean.csv"
    assert run_cli("batch", str(spots), "-o", str(clean), "--workers", "1", "--seed", "9").exit_code == 0
    output = tmp_path / "out.csv"
    stopped = run_command([str(spots), "-o", str(output), "--workers", "1", "--seed", "9", "-q"],
                          file_size_limit=4096)
    assert stopped.returncode == 1
    expected = (f"Error: no space left writing {str(output)!r}; NUMBER finished queries are in "
                f"{str(output) + '.part'!r} (--resume -o {output} goes on)\n")
    line = re.fullmatch(re.escape(expected).replace("NUMBER", r"(\d+)"), stopped.stderr)
    assert line and 0 < int(line.group(1)) < 40, stopped.stderr
    assert not output.exists()
    part = tmp_path / "out.csv.part"
    assert 0 < len(part.read_bytes()) <= 4096 and clean.read_text().startswith(part.read_text().rsplit("\n", 1)[0])
    resumed = run_cli("batch", str(spots), "-o", str(output), "--resume", "--workers", "1", "--seed", "9")
    assert resumed.exit_code == 0, resumed.output
    assert output.read_text() == clean.read_text() and not part.exists()


# --- 15. the time left -------------------------------------------------------------------------

def test_time_left_is_measured_from_the_first_finished_query_not_the_start():
    now = [0.0]
    time_left = TimeLeft(1000, clock=lambda: now[0])
    now[0] = 7.0  # the workers took 7 s to start, then the first chunk arrived at once
    time_left.update(16)
    assert time_left.text() == ""  # one moment is no rate
    now[0] = 8.0
    time_left.update(116)  # 100 queries in the second since
    assert time_left.seconds() == pytest.approx(8.84)
    assert time_left.text() == "0:09 left"
    now[0] = 8.5
    time_left.update(1000)
    assert time_left.text() == "0:00 left"
    assert TimeLeft(None).text() == ""


@pytest.mark.parametrize("content", [b"hello", b'{"id": "a", "player": 1}\nnot json'], ids=["one-line", "last-line"])
def test_resume_refuses_a_json_lines_file_whose_last_line_is_not_a_cut_batch_row(tmp_path, content):
    output = tmp_path / "notes.jsonl"
    output.write_bytes(content)
    result = run_cli("batch", "-", "-o", str(output), "--resume", "--workers", "1", input=HEADER + good_rows(1))
    assert result.exit_code == 2 and "is not a batch JSONL row (it is left as it is)" in result.stderr
    assert output.read_bytes() == content


# --- bounds of --workers and --worker-timeout (fresh-clone tester) --------------------------------

@pytest.mark.parametrize("workers", ["1000000000000", "3000000000", "257"])
def test_workers_are_bounded_even_with_oversubscribe(tmp_path, workers):
    # an absurd count was a 65-line OverflowError traceback from multiprocessing
    output = tmp_path / "out.csv"
    output.write_text("earlier\n")
    result = run_cli("batch", "-", "--workers", workers, "--oversubscribe", "-o", str(output),
                     input=HEADER + good_rows(1))
    assert result.exit_code == 2
    assert result.stderr == (f"Error: Invalid value for '--workers': {workers} is not in the range "
                             f"1<=x<={MAX_WORKERS}.\n")
    assert output.read_text() == "earlier\n"
    with pytest.raises(InputError, match=f"bad workers {workers}: expected 1 to {MAX_WORKERS} worker processes"):
        make_executor(int(workers))


@pytest.mark.parametrize(("timeout", "shown"), [
    ("inf", "inf"), ("nan", "'nan'"), ("-inf", "-inf"), ("9" * 400, "inf"), ("1e308", "1e+308"),
    ("86401", "86401.0"), ("0", "0.0"),
])
def test_worker_timeout_is_finite_seconds_up_to_a_day_checked_before_the_scheduler(timeout, shown):
    # inf, nan and a 400-digit number reached dask ("Invalid time unit: infs..."); 1e308 waited forever
    result = run_cli("batch", "-", "--worker-timeout", timeout, "--scheduler", "tcp://127.0.0.1:1",
                     input=HEADER + good_rows(1))
    assert result.exit_code == 2
    expected = (f"Error: Invalid value for '--worker-timeout': {shown} is not a finite number.\n" if shown == "'nan'"
                else f"Error: Invalid value for '--worker-timeout': {shown} is not in the range 0<x<=86400.0.\n")
    assert result.stderr == expected


@pytest.mark.parametrize("timeout", [math.inf, math.nan, 1e308, 0.0])
def test_make_executor_refuses_a_worker_timeout_out_of_bounds(timeout):
    with pytest.raises(InputError, match="bad worker timeout .*: expected seconds above 0, at most 86,400"):
        make_executor(scheduler="tcp://127.0.0.1:1", worker_timeout=timeout)


# --- Ctrl-C: one line (fresh-clone tester) -------------------------------------------------------

@pytest.mark.parametrize("quiet", [False, True])
def test_ctrl_c_on_a_batch_is_exit_130_and_one_line(monkeypatch, tmp_path, quiet):
    # the summary ("...; interrupted: ...") was followed by the entry point's "Aborted!"
    from omaha_equity.batch import command

    real_run_batch_chunks = command.run_batch_chunks

    def interrupted_after_the_first_query(*args, **kwargs):
        for chunk in real_run_batch_chunks(*args, **kwargs):
            yield chunk[:1]
            raise KeyboardInterrupt

    monkeypatch.setattr(command, "run_batch_chunks", interrupted_after_the_first_query)
    output = tmp_path / "out.csv"
    result = run_cli("batch", "-", "--workers", "1", "--seed", "1", "-o", str(output), *(["-q"] if quiet else []),
                     input=HEADER + good_rows(3))
    assert result.exit_code == 130
    lines = result.stderr.splitlines()
    if quiet:
        assert lines == ["Aborted!"]
    else:
        assert len(lines) == 1 and lines[0].startswith("batch: 1 query done, 0 failed; 2 rows in ")
        assert lines[0].endswith(f"; interrupted: 1 finished queries are in {str(output) + '.part'!r} "
                                 f"(--resume -o {output} goes on)")
    assert len(csv_rows((tmp_path / "out.csv.part").read_text())) == 2 and not output.exists()


def test_ctrl_c_in_any_command_is_exit_130_and_the_one_line_aborted(monkeypatch, tmp_path):
    # click wrote a blank line of its own before "Aborted!"
    from omaha_equity.ev import session

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(session, "iter_session", interrupted)
    result = run_cli("ev", str(tmp_path))
    assert (result.exit_code, result.stderr, result.stdout) == (130, "Aborted!\n", "")
