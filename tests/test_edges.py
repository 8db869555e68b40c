"""Nothing lost at the edges of the shell: an output that is the input is refused, every output
follows one rule for symbolic links, closed standard streams and stopping signals are handled,
and input with no line end is read in bounded memory. Closed streams and signals go through real
processes; links and same-file cases through real files."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HANDS = ROOT / "examples" / "hands"
ONE_HAND = ROOT / "tests" / "data" / "pokerstars-quirks" / "converted-unmatched-bet.txt"
SPOTS = "id,hand1,hand2\nq1,AsAhKsKh,JdTd9c8c\nq2,AsAhKsKh,*\n"


def program(args, *, cwd=ROOT, **options) -> subprocess.CompletedProcess:
    options.setdefault("stdout", subprocess.PIPE)
    options.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "omaha_equity", *map(str, args)], cwd=cwd, text=True,
                          timeout=300, **options)


def errors(text: str) -> list[str]:
    """stderr's lines without the cache's first-use notices."""
    return [line for line in text.splitlines() if not line.startswith("omaha-equity:")]


# --- 1. the output is the input ---------------------------------------------------------------

def test_batch_refuses_an_output_that_is_its_input_by_name_by_link_and_by_redirection(tmp_path):
    spots = tmp_path / "spots.csv"
    spots.write_text(SPOTS)
    (tmp_path / "link.csv").symlink_to(spots)
    os.link(spots, tmp_path / "hard.csv")
    for output in ("spots.csv", "link.csv", "hard.csv"):
        result = program(["batch", "spots.csv", "-o", output, "--workers", "1"], cwd=tmp_path)
        assert result.returncode == 2, result.stderr
        assert errors(result.stderr) == [f"Error: -o {output!r} is the input file 'spots.csv': writing it would "
                                         "destroy the input; nothing was written (name another output file)"]
    with spots.open("a") as appended:  # batch spots.csv >> spots.csv would read its own rows forever
        result = program(["batch", "spots.csv", "--workers", "1"], cwd=tmp_path, stdout=appended)
    assert result.returncode == 2 and "standard output is the input file" in result.stderr
    assert spots.read_text() == SPOTS
    assert sorted(path.name for path in tmp_path.iterdir()) == ["hard.csv", "link.csv", "spots.csv"]


def test_ev_and_convert_refuse_an_output_that_is_one_of_their_inputs(tmp_path):
    folder = tmp_path / "hands"
    folder.mkdir()
    hand = folder / "hand.txt"
    hand.write_bytes(ONE_HAND.read_bytes())
    phh = folder / "old.phhs"  # the output of an earlier convert, in the folder it reads
    phh.write_text("")
    before = hand.read_bytes()
    result = program(["ev", folder, "--summary", hand])
    assert result.returncode == 2 and "--summary" in result.stderr and "is the input file" in result.stderr
    result = program(["convert", folder, "-o", phh])
    assert result.returncode == 2 and "is the input file" in result.stderr, result.stderr
    assert hand.read_bytes() == before and phh.read_text() == ""


# --- 2. one rule for symbolic links -----------------------------------------------------------

def test_every_output_replaces_a_symbolic_link_and_never_writes_through_it(tmp_path):
    spots = tmp_path / "spots.csv"
    spots.write_text(SPOTS)
    outputs = {"batch.csv": ["batch", spots, "--workers", "1", "-q", "-o"],
               "summary.csv": ["ev", ONE_HAND, "-f", "csv", "--summary"],
               "out.phhs": ["convert", ONE_HAND, "-o"]}
    for name, command in outputs.items():
        victim = tmp_path / f"victim-{name}"
        victim.write_text("keep me")
        link = tmp_path / name
        link.symlink_to(victim)
        result = program([*command, link])
        assert result.returncode == 0, result.stderr
        assert victim.read_text() == "keep me", name  # the link's target is untouched
        assert not link.is_symlink() and link.stat().st_size > 0, name  # the link is replaced by the output


def test_a_plot_replaces_a_symbolic_link_too(tmp_path):
    pytest.importorskip("matplotlib")
    victim = tmp_path / "victim.svg"
    victim.write_text("keep me")
    link = tmp_path / "plot.svg"
    link.symlink_to(victim)
    result = program(["hits", "AA", "-b", "Qh7d2c", "--plot", link])
    assert result.returncode == 0, result.stderr
    assert victim.read_text() == "keep me" and not link.is_symlink()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs to own a link as another user")
def test_a_link_of_another_user_in_a_shared_sticky_folder_is_refused(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777 | stat.S_IFDIR)
    victim = tmp_path / "victim.csv"
    victim.write_text("keep me")
    link = shared / "out.csv"
    link.symlink_to(victim)
    os.lchown(link, 12345, 12345)
    spots = tmp_path / "spots.csv"
    spots.write_text(SPOTS)
    for command in (["batch", spots, "--workers", "1", "-q", "-o", link],
                    ["ev", ONE_HAND, "-f", "csv", "--summary", link]):
        result = program(command)
        assert result.returncode == 1, result.stderr
        assert errors(result.stderr)[-1].startswith(f"Error: cannot write {str(link)!r}: a symbolic link of another "
                                                    "user in a shared folder")
        assert link.is_symlink() and victim.read_text() == "keep me"


# --- 3, 4, 5. closed standard streams ---------------------------------------------------------

def _closing(descriptor: int):
    return lambda: os.close(descriptor)


def test_output_lost_to_a_closed_standard_output_is_one_line_and_exit_1():
    result = program(["calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s"], stdout=None, preexec_fn=_closing(1))
    assert result.returncode == 1
    assert errors(result.stderr) == ["Error: cannot write stdout: standard output is closed"]


@pytest.mark.parametrize("arguments", [["calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s", "-q"],
                                       ["calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s"],
                                       ["range", "AA", "-f", "csv"]])
def test_commands_work_with_standard_error_closed(arguments):
    result = program(arguments, stderr=None, preexec_fn=_closing(2))
    assert result.returncode == 0
    assert result.stdout.strip()


def test_a_usage_error_with_standard_error_closed_still_has_its_exit_code():
    result = program(["calc", "AsAsKsKh", "JdTd9c8c"], stderr=None, preexec_fn=_closing(2))
    assert result.returncode == 2 and result.stdout == ""


def test_batch_from_a_closed_standard_input_is_one_line_and_exit_2():
    result = program(["batch", "-", "--workers", "1"], stdin=None, preexec_fn=_closing(0))
    assert result.returncode == 2
    assert errors(result.stderr) == ["Error: standard input is closed: nothing to read (give a FILE, or pipe the "
                                     "queries in)"]


# --- 7. input with no line end ----------------------------------------------------------------

@pytest.mark.parametrize("arguments, code, line", [
    (["ev", "/dev/zero"], 1, "error: /dev/zero, line 1, hand ?: line 1 is longer than 65,536 bytes: not a hand "
                             "history; stopped reading the file"),
    (["play", "/dev/zero"], 2, "Error: /dev/zero: line 1 is longer than 1,048,576 bytes: not a PHH file"),
    (["batch", "/dev/zero", "--workers", "1"], 2, "Error: line 1 has no line end after 67,108,864 characters: not "
                                                  "a CSV or JSON Lines file; stopped reading"),
    (["batch", "/dev/zero", "--workers", "1", "--input-format", "jsonl"], 2,
     "Error: '/dev/zero': line 1 has no line end after 67,108,864 characters: not a CSV or JSON Lines file; "
     "stopped reading; 0 queries before it were written to standard output"),
])
def test_an_endless_line_stops_the_input_with_one_line_in_bounded_memory(arguments, code, line):
    import resource

    def limited():  # far below what reading /dev/zero whole would take
        resource.setrlimit(resource.RLIMIT_DATA, (3 << 30, 3 << 30))

    result = program(arguments, preexec_fn=limited)
    assert result.returncode == code, result.stderr
    assert line in errors(result.stderr), result.stderr
    assert "Traceback" not in result.stderr


def test_convert_of_an_endless_line_writes_nothing(tmp_path):
    result = program(["convert", "/dev/zero", "-o", tmp_path / "out.phhs"])
    assert result.returncode == 2
    assert "line 1 is longer than 65,536 bytes" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_hand_with_no_end_is_bounded_too(tmp_path):
    from omaha_equity.hand_history.pokerstars import MAX_HAND_LINES, read_pokerstars_items

    endless = tmp_path / "endless.txt"
    endless.write_text(ONE_HAND.read_text().splitlines()[0] + "\n" + "Seat 1: x\n" * (MAX_HAND_LINES + 10))
    items = list(read_pokerstars_items(endless))
    assert len(items) == 1 and "a hand longer than 10,000 lines" in str(items[0])


# --- 9. stopping signals ------------------------------------------------------------------------

@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGHUP])
def test_a_stopping_signal_leaves_no_temporary_file(tmp_path, signal_number):
    # convert reads a pipe that never ends: it is waiting there, its temporary output open
    fifo = tmp_path / "hands.txt"
    os.mkfifo(fifo)
    out = tmp_path / "out.phhs"
    child = subprocess.Popen([sys.executable, "-m", "omaha_equity", "convert", str(fifo), "-o", str(out)], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    writer = os.open(fifo, os.O_WRONLY)  # blocks until convert opens the pipe
    try:
        os.write(writer, ONE_HAND.read_bytes())
        deadline = time.monotonic() + 60
        while not any(path.name.endswith(".tmp") for path in tmp_path.iterdir()):
            assert time.monotonic() < deadline and child.poll() is None
            time.sleep(0.05)
        child.send_signal(signal_number)
        _, stderr = child.communicate(timeout=60)
    finally:
        os.close(writer)
        if child.poll() is None:
            child.kill()
    assert child.returncode == 128 + signal_number, stderr
    assert errors(stderr) == ["Aborted!"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["hands.txt"]


def test_leftovers_of_a_killed_run_are_removed_by_the_next_run_writing_there(tmp_path):
    dead = subprocess.Popen(["true"])
    dead.wait()
    leftover = tmp_path / f".out.phhs.{dead.pid}.k1ll3d.tmp"
    leftover.write_text("half a hand")
    live = tmp_path / f".out.phhs.{os.getpid()}.alive0.tmp"  # a run still going: left alone
    live.write_text("")
    other = tmp_path / f".other.phhs.{dead.pid}.k1ll3d.tmp"  # another output's: left alone
    other.write_text("")
    result = program(["convert", ONE_HAND, "-o", tmp_path / "out.phhs"])
    assert result.returncode == 0, result.stderr
    assert not leftover.exists() and live.exists() and other.exists()


def test_sigterm_on_a_batch_with_worker_processes_stops_it_cleanly(tmp_path):
    spots = tmp_path / "spots.csv"
    spots.write_text("id,hand1,hand2,method,trials\n"
                     + "".join(f"q{index},AsAhKsKh,*,monte-carlo,{10**10}\n" for index in range(4)))
    child = subprocess.Popen([sys.executable, "-m", "omaha_equity", "batch", str(spots), "-o", str(tmp_path / "o.csv"),
                              "--workers", "2", "--seed", "1", "-q"], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(4)
        child.send_signal(signal.SIGTERM)
        _, stderr = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 128 + signal.SIGTERM
    assert "leaked" not in stderr and "Traceback" not in stderr, stderr
    assert errors(stderr) == ["Aborted!"]


# --- 12. byte-order marks and separators ------------------------------------------------------

def test_a_phh_file_with_a_byte_order_mark_is_read(tmp_path):
    hand = tmp_path / "hand.phh"
    hand.write_bytes(b"\xef\xbb\xbf" + (HANDS / "plo8-short-all-in.phh").read_bytes())
    plain = program(["play", HANDS / "plo8-short-all-in.phh"])
    result = program(["play", hand])
    assert result.returncode == 0, result.stderr
    assert result.stdout == plain.stdout


def test_a_semicolon_csv_is_named_and_read_with_delimiter(tmp_path):
    spots = tmp_path / "spots.csv"
    spots.write_text(SPOTS.replace(",", ";"))
    result = program(["batch", spots, "--workers", "1", "-q"])
    assert result.returncode == 2
    assert errors(result.stderr) == ["Error: the CSV header (line 1) is one cell with semicolons in it: this looks "
                                     "like a semicolon-separated file: use --delimiter ';'"]
    commas = tmp_path / "commas.csv"
    commas.write_text(SPOTS)
    with_delimiter = program(["batch", spots, "--workers", "1", "-q", "--seed", "1", "--delimiter", ";"])
    assert with_delimiter.returncode == 0, with_delimiter.stderr
    assert with_delimiter.stdout == program(["batch", commas, "--workers", "1", "-q", "--seed", "1"]).stdout


# --- 10. "vs" between hands, and a wide range typed by mistake ---------------------------------

def test_vs_between_hands_is_a_separator_everywhere_hands_are_listed(tmp_path):
    plain = program(["calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s"])
    for word in ("vs", "v", "versus", "VS"):
        result = program(["calc", "AsAhKsKh", word, "JdTd9c8c", "-b", "Qd7h2s"])
        assert (result.returncode, result.stdout, errors(result.stderr)) == (0, plain.stdout, []), word
    shown = program(["show", "AsAhKsKh", "vs", "JdTd9c8c", "-b", "Qd7h2s3c4d"])
    assert shown.returncode == 0 and shown.stdout == program(["show", "AsAhKsKh", "JdTd9c8c", "-b",
                                                              "Qd7h2s3c4d"]).stdout
    allin = program(["allin", "AsAhKsKh", "vs", "JdTd9c8c", "--stacks", "100,100", "-b", "Qd7h2s"])
    assert allin.returncode == 0, allin.stderr
    spots = tmp_path / "spots.csv"
    spots.write_text("id,hands\nq1,AsAhKsKh vs JdTd9c8c\nq2,AsAhKsKh|JdTd9c8c\n")
    rows = program(["batch", spots, "--workers", "1", "-q", "--seed", "1"]).stdout.splitlines()
    without_id_and_seed = [row.split(",")[1:-2] for row in rows[1:]]
    assert without_id_and_seed[:2] == without_id_and_seed[2:]


def test_a_wide_range_with_no_rank_in_it_is_warned_of_unless_quiet():
    result = program(["calc", "AsAhKsKh", "s", "JdTd9c8c", "-b", "Qd7h2s", "--trials", "1000"])
    assert result.returncode == 0
    assert errors(result.stderr) == ["warning: player 2's 's' is a range of 69.6% of all hands, with no card rank "
                                     "in it: give cards such as AsAhKsKh, or * for any hand (--quiet hides this)"]
    quiet = program(["calc", "AsAhKsKh", "s", "JdTd9c8c", "-b", "Qd7h2s", "--trials", "1000", "-q"])
    assert errors(quiet.stderr) == []
    for meant in (["*"], ["AA"], ["50%"], ["$ds"]):  # a random hand, ranks, a percent, a narrow range
        other = program(["calc", "AsAhKsKh", *meant, "-b", "Qd7h2s", "--trials", "1000"])
        assert not any(line.startswith("warning") for line in errors(other.stderr)), meant


# --- 11. the bare program ---------------------------------------------------------------------

def test_the_bare_program_prints_its_whole_help():
    bare = program([])
    assert bare.returncode == 0
    assert bare.stdout == program(["--help"]).stdout
    assert "  calc " in bare.stdout and "…" not in bare.stdout


# --- 13. one exit code per fault, the progress bar, duplicate hands ---------------------------

def test_an_output_that_cannot_be_written_is_exit_code_1_in_every_command(tmp_path):
    locked = Path("/proc")  # a folder no one can create a file in, root included
    if not locked.is_dir():
        pytest.skip("needs /proc")
    spots = tmp_path / "spots.csv"
    spots.write_text(SPOTS)
    commands = [["batch", spots, "--workers", "1", "-q", "-o", locked / "out.csv"],
                ["ev", ONE_HAND, "--summary", locked / "players.txt"],
                ["convert", ONE_HAND, "-o", locked / "out.phhs"]]
    for command in commands:
        result = program(command)
        assert result.returncode == 1, (command, result.stderr)
        assert errors(result.stderr)[-1].startswith("Error: cannot write"), result.stderr


def test_a_progress_bar_stopped_by_ctrl_c_is_not_filled(monkeypatch):
    import io

    from omaha_equity.cli import progress as progress_module

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stderr", Terminal())
    with pytest.raises(KeyboardInterrupt):
        with progress_module.deals_progress(False) as bar:
            bar.started -= 10  # shown at once
            bar(25, 100)
            raise KeyboardInterrupt
    assert bar.bar.pos == 25
    with progress_module.deals_progress(False) as finished:
        finished.started -= 10
        finished(25, 100)
    assert finished.bar.pos == 100


def test_a_file_of_one_repeated_hand_names_it_once_then_counts_the_copies(tmp_path):
    text = ONE_HAND.read_text().strip() + "\n\n"
    repeated = tmp_path / "repeated.txt"
    repeated.write_text(text * 50)
    result = program(["ev", repeated, "-f", "csv"])
    lines = errors(result.stderr)
    assert [line for line in lines if line.startswith("duplicate:")][-1] == \
        "duplicate: 48 more copies of the hands named above, counted once"
    assert len([line for line in lines if line.startswith("duplicate:")]) == 2
    assert lines[-1].split("; ")[0].endswith("duplicates 49 (counted once)")  # then the worker choice


# --- 14. the documented examples --------------------------------------------------------------

def test_the_cluster_example_with_its_placeholder_address_is_one_line_at_once():
    started = time.monotonic()
    result = subprocess.run([sys.executable, "examples/cluster_batch.py", "--scheduler", "tcp://HOST:8786"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("error: tcp://HOST:8786 is a placeholder")
    assert time.monotonic() - started < 30


def test_the_files_the_documented_examples_write_are_ignored_by_git():
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    for name in ("spots_out.csv", "by_hand.svg", "plots/"):
        assert name in ignored
