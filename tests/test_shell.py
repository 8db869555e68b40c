"""``omaha-equity shell`` (issue 18): every command with the command line's syntax, errors that
do not end the session, Ctrl-C that stops the running command and not the session, completion
and history. Interactive sessions are driven through prompt_toolkit's pipe input; scripts
(standard input not a terminal) through a child process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from omaha_equity.cli import main
from omaha_equity.cli.shell import (HISTORY_FILE_NAME, INSTALL_HINT, Session, command_words, completions, history_path,
                                prompt_session, run_shell)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RIVER = "calc AsAhKsKh JdTd9c8c -b 2c3d4h5s7s -f csv"  # aces win the one board
FLOP = "calc AsAhKsKh JdTd9c8c -b Qd7h2s -f csv"  # 820 boards: 168/205 for the aces


def run(words):
    return main.run_words(words, "omaha-equity", None)


def shell_child(*arguments):
    return subprocess.Popen([sys.executable, "-m", "omaha_equity", "shell", *arguments], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_line_is_split_as_a_shell_splits_it():
    assert command_words("calc 'As Ah Ks Kh' JdTd9c8c -b Qd7h2s  # my spot") == [
        "calc", "As Ah Ks Kh", "JdTd9c8c", "-b", "Qd7h2s"]
    assert command_words("omaha-equity range AA") == ["range", "AA"]  # pasted from the docs
    assert command_words("help calc") == ["calc", "--help"]
    assert command_words("help") == ["--help"]
    assert command_words("   ") == [] and command_words("# a comment") == []
    with pytest.raises(ValueError, match="No closing quotation"):
        command_words("calc 'AsAh")


def test_a_script_runs_every_line_and_errors_do_not_end_it():
    child = shell_child()
    stdout, stderr = child.communicate("\n".join([
        RIVER, "calc AsAhKsKh --bogus", "calc 'AsAh", "shell", "", "# nothing", FLOP, "quit", "calc never run",
    ]) + "\n", timeout=120)
    assert child.returncode == 2  # the last failure: a usage error
    rows = [line for line in stdout.splitlines() if line[:2] in ("1,", "2,")]
    assert [row.split(",")[3] for row in rows] == ["1", "0", "168/205", "37/205"]
    assert stderr.splitlines() == ["Error: No such option '--bogus'.",
                                   "Error: cannot split the line: No closing quotation",
                                   "Error: already in the shell"]


def test_a_script_without_failures_exits_0():
    child = shell_child()
    stdout, stderr = child.communicate("range AA:AsAh -f csv\nrank AsAhKsKh -f csv\n", timeout=120)
    assert child.returncode == 0, stderr
    assert stdout.splitlines()[:2] == ["hand,weight", "AsAhAdAc,1.0"]
    assert "AsAhKsKh" in stdout.splitlines()[-1]


def test_ctrl_c_stops_the_running_query_and_the_session_goes_on():
    child = shell_child()
    try:
        child.stdin.write(RIVER + "\n")
        child.stdin.flush()
        assert child.stdout.readline().startswith("player,")  # kernels loaded: the session is warm
        child.stdout.readline(), child.stdout.readline()
        # a Monte Carlo run of hours, interrupted once it is busy
        child.stdin.write("calc AsAhKsKh JdTd9c8c --trials 1000000000000 --seed 1 -q -f csv\n")
        child.stdin.flush()
        time.sleep(1.5)
        assert child.poll() is None
        child.send_signal(signal.SIGINT)
        stdout, stderr = child.communicate(FLOP + "\nexit\n", timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert stderr.strip() == "Aborted!"
    assert [line.split(",")[3] for line in stdout.splitlines()[1:]] == ["168/205", "37/205"]
    assert child.returncode == 130  # the interrupted command was the last to fail


def interactive_session(lines: str, tmp_path, monkeypatch):
    """Run an interactive session on ``lines`` typed into a pipe; returns its exit code."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    monkeypatch.setattr("omaha_equity.cli.shell.history_path", lambda: tmp_path / HISTORY_FILE_NAME)
    with create_pipe_input() as pipe:
        pipe.send_text(lines)
        return Session(main, run).run_interactive(prompt_session(main, input=pipe, output=DummyOutput()))


def test_an_interactive_session_answers_keeps_going_after_errors_and_keeps_a_history(tmp_path, monkeypatch, capsys):
    code = interactive_session(f"{RIVER}\ncalc AsAhKsKh JdTd9c8c --game chess\n{FLOP}\nexit\n", tmp_path, monkeypatch)
    assert code == 0
    captured = capsys.readouterr()
    assert [line.split(",")[3] for line in captured.out.splitlines() if line[:2] in ("1,", "2,")] == [
        "1", "0", "168/205", "37/205"]
    assert captured.err.startswith("Error: ") and "chess" in captured.err
    history = (tmp_path / HISTORY_FILE_NAME).read_text()
    assert RIVER in history and FLOP in history and "exit" in history


def test_ctrl_d_leaves_an_interactive_session(tmp_path, monkeypatch, capsys):
    assert interactive_session(f"{RIVER}\n\x04", tmp_path, monkeypatch) == 0
    assert "1,AsAhKsKh,1.0,1," in capsys.readouterr().out


def test_ctrl_c_at_the_prompt_clears_the_line(tmp_path, monkeypatch, capsys):
    # the half-typed 'calc never' is dropped by Ctrl-C (\x03); the next line runs
    assert interactive_session(f"calc never\x03{RIVER}\nquit\n", tmp_path, monkeypatch) == 0
    captured = capsys.readouterr()
    assert "1,AsAhKsKh,1.0,1," in captured.out and captured.err == ""


def test_ctrl_c_during_a_command_returns_to_the_session(monkeypatch, capsys):
    # the command's KeyboardInterrupt becomes the CLI's 'Aborted!' (exit code 130), and the
    # next line runs
    monkeypatch.setattr("omaha_equity.equity.calculate.calculate_equity", _raise_keyboard_interrupt)
    session = Session(main, run)
    assert session.run_line(RIVER) == 130
    monkeypatch.undo()
    assert session.run_line(RIVER) == 0
    captured = capsys.readouterr()
    assert captured.err.strip() == "Aborted!" and "1,AsAhKsKh,1.0,1," in captured.out


def _raise_keyboard_interrupt(*arguments, **options):
    raise KeyboardInterrupt


def test_completion_offers_commands_options_and_choices():
    assert completions(main, [], "ca") == ["calc"]
    assert "shell" not in completions(main, [], "") and {"exit", "help", "quit", "rank"} <= set(completions(main, [], ""))
    assert completions(main, ["calc"], "--ga") == ["--game"]
    assert completions(main, ["calc", "AsAhKsKh", "-f"], "") == ["csv", "json", "table"]
    assert completions(main, ["omaha-equity", "range"], "--sa") == ["--sample"]
    assert completions(main, ["help"], "ra") == ["range", "rank"]
    assert completions(main, ["calc"], "As") == []  # cards are not completed
    assert completions(main, ["nonsense"], "--") == []


def test_the_history_file_is_in_the_cache_folder():
    from omaha_equity.runtime.cache import cache_dir

    assert history_path() == cache_dir() / HISTORY_FILE_NAME


def test_without_prompt_toolkit_an_interactive_session_says_how_to_install_it(monkeypatch):
    import click

    monkeypatch.setitem(sys.modules, "prompt_toolkit", None)  # import fails as if not installed
    with pytest.raises(click.ClickException) as raised:
        run_shell(main, run, interactive=True)
    assert raised.value.message == INSTALL_HINT
    assert "pip install 'omaha-equity[shell]'" in INSTALL_HINT
