"""`omaha-equity ev` over a session (issue 14, section 3, and item 5's `ev` part): the summary is
true (a hand read twice counts once, tournaments and currencies never add up, seats of files
without names are not people), `--all-hands` means the same in every format, CSV is one table
a file that pandas reads right, results stream with flat memory, and a bad hand never aborts
the session."""

from __future__ import annotations

import io
import json
import os
import queue
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from omaha_equity.cli import main
from omaha_equity.views.ev import SessionWriter
from omaha_equity.ev.session import SessionTotals, analyze_session, iter_session

QUIRKS = Path(__file__).parent / "data" / "pokerstars-quirks"
REAL = Path(__file__).parent / "data" / "pokerstars"
FOLD_HAND = (QUIRKS / "converted-unmatched-bet.txt").read_text()  # no all-in: fast to replay
TOURNAMENT_HAND = (QUIRKS / "sitting-out-posts.txt").read_text()


def _ev(*args):
    return CliRunner().invoke(main, ["ev", *map(str, args)])


def _renumbered(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new)


def test_same_hand_in_two_files_and_twice_in_one_counts_once_and_is_named(tmp_path):
    first = tmp_path / "a.txt"
    first.write_text(TOURNAMENT_HAND)
    again = tmp_path / "b.txt"
    again.write_text(FOLD_HAND + "\n\n" + TOURNAMENT_HAND + "\n\n" + FOLD_HAND)
    once = analyze_session([first, QUIRKS / "converted-unmatched-bet.txt"])
    twice = analyze_session([first, again])
    assert (twice.read_count, twice.replayed_count, twice.totals.duplicate_count) == (2, 2, 2)
    assert [(summary.name, summary.net_won) for summary in twice.players] == [
        (summary.name, summary.net_won) for summary in once.players]
    result = _ev(first, again)
    assert result.exit_code == 0
    lines = [line for line in result.stderr.splitlines() if line.startswith("duplicate:")]
    headers = [number for number, line in enumerate(again.read_text().splitlines(), start=1)
               if line.startswith("PokerStars")]
    assert lines == [
        f"duplicate: {again}, line {headers[1]}, hand 900000000001: the same hand as {first}, line 1, counted once",
        f"duplicate: {again}, line {headers[2]}, hand 900000000010: the same hand as {again}, line 1, counted once"]
    assert "hands read 2, replayed 2" in result.stderr and "duplicates 2 (counted once)" in result.stderr


def test_phh_hand_without_a_number_read_twice_is_the_same_record(tmp_path):
    from test_hand_history_ev import PHH_ALL_IN

    path = tmp_path / "hand.phh"
    path.write_text(PHH_ALL_IN.replace('hand = "hu-1"\n', ""))
    session = analyze_session([path, path])
    assert (session.read_count, session.totals.duplicate_count) == (1, 1)


def test_summary_is_per_tournament_and_currency_never_added_up(tmp_path):
    other = tmp_path / "other-tournament.txt"
    other.write_text(_renumbered(_renumbered(TOURNAMENT_HAND, "#900000000001", "#900000000101"),
                                 "Tournament #700000001", "Tournament #700000002"))
    cash = tmp_path / "cash.txt"
    cash.write_text(_renumbered(FOLD_HAND, "PLR_1", "Carla"))
    session = analyze_session([QUIRKS / "sitting-out-posts.txt", other, cash])
    carla = [(summary.unit, summary.tournament, summary.hand_count, summary.net_won)
             for summary in session.players if summary.name == "Carla"]
    assert carla == [("chips", "700000001", 1, 350), ("chips", "700000002", 1, 350), ("USD", None, 1, 15)]


def _phh_hand(number: int, players: str = "") -> str:
    from test_hand_history_ev import PHH_ALL_IN

    return f"[{number}]\n" + PHH_ALL_IN.replace('hand = "hu-1"', f'hand = "hu-{number}"\n{players}')


def test_seats_of_phh_files_without_names_are_not_summed_as_players(tmp_path):
    anonymous = tmp_path / "anonymous.phhs"
    anonymous.write_text(_phh_hand(1) + "\n" + _phh_hand(2))
    session = analyze_session([anonymous])
    assert session.replayed_count == 2 and session.players == []  # each hand's p1, p2 stand alone
    result = _ev(anonymous, "-f", "csv")
    assert [line.split(",")[1] for line in result.stdout.splitlines()[1:]] == ["hu-1", "hu-1", "hu-2", "hu-2"]
    named = tmp_path / "named.phhs"
    named.write_text(_phh_hand(1, 'players = ["Ann", "Bob"]') + "\n" + _phh_hand(2, 'players = ["Ann", "Bob"]'))
    ann = [summary for summary in analyze_session([named]).players if summary.name == "Ann"]
    assert [(summary.hand_count, summary.net_won) for summary in ann] == [(2, 400)]


def _csv_hands(result) -> list[str]:
    return sorted({line.split(",")[1] for line in result.stdout.splitlines()[1:]})


@pytest.mark.parametrize("all_hands", [[], ["--all-hands"]])
def test_all_hands_lists_the_same_hands_in_json_csv_and_table(all_hands):
    as_csv = _ev(QUIRKS, *all_hands, "-f", "csv")
    as_json = json.loads(_ev(QUIRKS, *all_hands, "-f", "json").stdout)
    as_table = _ev(QUIRKS, *all_hands).stdout
    hands = _csv_hands(as_csv)
    assert sorted(hand["hand_id"] for hand in as_json["hands"]) == hands
    assert all(hand in as_table for hand in hands)
    expected = 13 if all_hands else 1  # 17 hands, 1 cancelled, 3 failures (on purpose); 1 all in
    assert len(hands) == expected and as_json["counts"]["replayed"] == 13


def test_csv_is_one_table_that_pandas_reads_and_the_summary_its_own_file(tmp_path):
    pandas = pytest.importorskip("pandas")
    summary = tmp_path / "players.csv"
    result = _ev(REAL, "--all-hands", "-f", "csv", "--summary", summary)
    assert result.exit_code == 0, result.stderr
    hands = pandas.read_csv(io.StringIO(result.stdout), keep_default_na=False, na_values=[""])
    assert list(hands.columns) == ["file", "hand", "game", "unit", "tournament", "all_in", "board", "player",
                                   "committed", "won", "all_in_ev", "luck", "note"]
    assert hands["hand"].nunique() == 97 and hands["committed"].dtype == float
    hero = hands[(hands["hand"] == 96318916658) & (hands["player"] == "Hero")].iloc[0]
    assert (hero["won"], hero["all_in_ev"], hero["luck"]) == (1916.50, 1590.62, 325.88)
    players = pandas.read_csv(summary, keep_default_na=False, na_values=[""])
    assert list(players.columns) == ["player", "unit", "tournament", "hands", "all_in_hands", "net_won",
                                     "net_all_in_ev", "luck"]
    apterm = players[players["player"] == "APTEM-89"].iloc[0]
    assert (apterm["unit"], apterm["tournament"], apterm["hands"]) == ("chips", "447493868", 73)
    # net won over the hands adds up to the summary's, per player
    knockout = hands[hands["tournament"] == "447493868"]
    net = (knockout["won"] - knockout["committed"]).groupby(knockout["player"]).sum()
    assert net["APTEM-89"] == apterm["net_won"]


def test_pandas_default_read_keeps_tournament_ids_exact_when_cash_and_tournament_hands_mix(tmp_path):
    # a blank tournament cell for cash hands made pandas read the column as float64 (447493868.0)
    pandas = pytest.importorskip("pandas")
    summary = tmp_path / "players.csv"
    result = _ev(REAL, "--all-hands", "-f", "csv", "--summary", summary)
    assert result.exit_code == 0, result.stderr
    hands = pandas.read_csv(io.StringIO(result.stdout))
    players = pandas.read_csv(summary)
    for table in (hands, players):
        assert not pandas.api.types.is_numeric_dtype(table["tournament"])  # text: every id exact
        units = {(tournament, unit) for tournament, unit in zip(table["tournament"], table["unit"])}
        assert units == {("-", "USD"), ("447493868", "chips"), ("986831247", "chips")}


def test_summary_file_in_a_missing_folder_is_a_usage_error_before_any_output(tmp_path):
    result = _ev(REAL, "--summary", tmp_path / "no" / "players.csv")
    assert result.exit_code == 2 and "no such folder" in result.stderr and result.stdout == ""


def test_results_of_the_first_file_come_before_the_last_file_is_read(tmp_path):
    # The last file is a pipe written only once the first hand's row is out: an ev that read
    # every file before writing would wait on the pipe forever.
    first = tmp_path / "first.txt"
    first.write_text(FOLD_HAND)
    pipe = tmp_path / "last.txt"
    os.mkfifo(pipe)
    process = subprocess.Popen([sys.executable, "-m", "omaha_equity", "ev", "--all-hands", "-f", "csv",
                                str(first), str(pipe)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True)
    reader.start()
    try:
        rows = [lines.get(timeout=60) for _ in range(4)]  # header, then the first hand's 3 players
        assert all("900000000010" in row for row in rows[1:])
        with open(pipe, "w") as stream:
            stream.write(_renumbered(FOLD_HAND, "#900000000010", "#900000000011"))
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    reader.join(timeout=60)  # the last rows may still be on their way from the pipe to the queue
    rest = []
    while not lines.empty():
        rest.append(lines.get())
    assert sum("900000000011" in row for row in rest) == 3


def _peak_memory(path: Path) -> tuple[int, int]:
    totals = SessionTotals()
    tracemalloc.start()
    try:
        for result in iter_session([path]):
            totals.add(result)
        return tracemalloc.get_traced_memory()[1], totals.replayed_count
    finally:
        tracemalloc.stop()


def test_memory_stays_flat_with_the_input_size(tmp_path):
    analyze_session([QUIRKS / "converted-unmatched-bet.txt"])  # load what every hand needs once
    peaks = []
    for count in (100, 1000):
        path = tmp_path / f"{count}.txt"
        path.write_text("\n\n".join(_renumbered(FOLD_HAND, "#900000000010", f"#{800000000000 + number}")
                                    for number in range(count)))
        peak, replayed = _peak_memory(path)
        assert replayed == count
        peaks.append(peak)
    # ten times the hands: the peak grows by the hand numbers remembered to spot duplicates,
    # about 100 bytes a hand (0.3-0.5 MB here, with caches warmed by the tests run before),
    # not by the hands: a gathered session holds tens of kB a hand, 900 more hands 10 MB or more
    assert peaks[1] - peaks[0] < 2_000_000, peaks


@pytest.mark.parametrize("module, name, error", [
    ("omaha_equity.hand_history.file_replay", "replay", OverflowError("int too large to convert")),  # the replay
    ("omaha_equity.ev.session", "evaluate_hand", ZeroDivisionError("division by zero")),  # the EV
])
def test_a_hand_the_engine_fails_on_is_one_error_line_and_the_others_go_on(tmp_path, monkeypatch, module, name,
                                                                           error):
    import importlib

    target = importlib.import_module(module)
    real = getattr(target, name)

    def failing(argument):
        hand = getattr(argument, "hand", None) or getattr(argument, "hand_id", None)
        if hand == "hu-2":
            raise error
        return real(argument)

    monkeypatch.setattr(target, name, failing)
    path = tmp_path / "three.phhs"
    path.write_text("\n".join(_phh_hand(number) for number in (1, 2, 3)))
    result = _ev(path, "--all-hands", "-f", "csv")
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert errors == [f"error: {path}, hand hu-2: cannot be replayed here ({type(error).__name__}: {error})"]
    assert _csv_hands(result) == ["hu-1", "hu-3"]


def test_huge_stacks_settle_exactly_or_fail_that_hand_only(tmp_path):
    # No limit, both all in pre-flop for 10**23 chips: the engine settles it exactly or refuses it
    # in one line (issue 14, item 5); either way the other hands go on.
    huge = 10**23
    hand = _phh_hand(2).replace('variant = "PO"', 'variant = "NO"')
    hand = hand.replace("starting_stacks = [200, 200]", f"starting_stacks = [{huge}, {huge}]")
    for old, new in (("p2 cbr 6", f"p2 cbr {huge}"), ("finishing_stacks = [400, 0]", f"finishing_stacks = [{2 * huge}, 0]")):
        hand = hand.replace(old, new)
    hand = "\n".join(line for line in hand.splitlines() if not any(f"cbr {amount}" in line for amount in (18, 54, 162, 200)))
    path = tmp_path / "huge.phhs"
    path.write_text("\n".join([_phh_hand(1), hand, _phh_hand(3)]))
    result = _ev(path, "--all-hands", "-f", "csv")
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    if errors:
        # refused when read (the hand named by its table [2]) or when replayed (by its number)
        assert len(errors) == 1 and ("hand hu-2:" in errors[0] or "hand 2:" in errors[0])
        assert _csv_hands(result) == ["hu-1", "hu-3"] and str(path) not in errors[0][len(str(path)) + 9:]
    else:
        assert _csv_hands(result) == ["hu-1", "hu-2", "hu-3"] and f",p1,{huge},{2 * huge}," in result.stdout


def test_writer_streams_json_that_parses_whole():
    out, err = io.StringIO(), io.StringIO()
    writer = SessionWriter(out, err, "json")
    for result in iter_session([QUIRKS / "cancelled.txt", QUIRKS / "post-by-unseated-name.txt"]):
        writer.add(result)
    writer.finish()
    data = json.loads(out.getvalue())
    assert data["hands"] == [] and data["counts"]["cancelled"] == 1 and data["counts"]["failed"] == 1
    assert [failure["line"] for failure in data["failures"]] == [7]
    assert err.getvalue().splitlines()[-1].startswith("hands read 3, replayed 1")


def test_worker_processes_give_the_same_results_in_the_same_order():
    one = analyze_session([REAL, QUIRKS])
    two = analyze_session([REAL, QUIRKS], workers=2)
    assert [hand.hand_id for hand in two.hands] == [hand.hand_id for hand in one.hands]
    assert [hand.players for hand in two.hands] == [hand.players for hand in one.hands]
    assert [str(error) for error in two.failures] == [str(error) for error in one.failures]
    assert two.totals.counts() == one.totals.counts()


def test_ev_takes_workers_as_batch_does_and_jobs_as_its_hidden_old_name():
    path = QUIRKS / "converted-unmatched-bet.txt"
    plain = _ev(path, "-f", "csv")
    assert plain.exit_code == 0, plain.stderr
    for option in (["--workers", "1"], ["--jobs", "1"], ["-j", "1"], ["--workers", "1", "--jobs", "1"]):
        result = _ev(path, "-f", "csv", *option)
        assert (result.exit_code, result.stdout) == (0, plain.stdout)
    both = _ev(path, "--workers", "1", "--jobs", "2")
    assert both.exit_code == 2 and "--jobs is the old name of --workers" in both.stderr
    help_text = _ev("--help").stdout
    assert "--workers" in help_text and "--jobs" not in help_text



def test_the_whole_real_set_replays_and_ev_finishes_without_a_failure():
    # tests/data/pokerstars and tests/data/wsop-2023-43 are the project's whole set of real hand
    # histories (97 PokerStars hands in 9 files, 10 WSOP PHH hands), copied unchanged.
    result = _ev(REAL, Path(__file__).parent / "data" / "wsop-2023-43", "-f", "json")
    assert result.exit_code == 0, result.stderr
    counts = json.loads(result.stdout)["counts"]
    assert counts == {"read": 107, "replayed": 107, "all_in": 26, "evaluated": 25, "failed": 0, "skipped": 0,
                      "cancelled": 0, "duplicates": 0}


def test_a_pokerstars_hand_and_its_phh_conversion_are_the_same_hand(tmp_path):
    converted = tmp_path / "markers.phhs"
    assert CliRunner().invoke(main, ["convert", str(QUIRKS / "action-markers.txt"), "-o", str(converted)]).exit_code == 0
    session = analyze_session([QUIRKS / "action-markers.txt", converted])
    assert (session.read_count, session.totals.duplicate_count) == (1, 1)
    assert session.duplicates[0].hand_id == "900000000005"
