"""Long runs (issue 9, section 1): Ctrl-C answered within about a second in every fixed-hand and
all-in kernel, forced exact enumeration refused beyond its ceiling, and results that do not
depend on how the work is cut into kernel calls or on the thread count."""

import glob
import itertools
import os
import signal
import subprocess
import sys
import textwrap
import time
from contextlib import contextmanager
from pathlib import Path

import numba
import pytest
from click.testing import CliRunner

from omaha_equity import InputError, calculate_allin
from omaha_equity.cli import main
from omaha_equity.runtime import threads as kernel_threads
from omaha_equity.equity import plan
from omaha_equity.equity.calculate import calculate_equity

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The child loads its kernels and rankings with a small query of the same kind (a warm cache:
# an interrupted compilation is numba's business), says "ready", then runs the long command
# through the CLI's own entry point.
CHILD = textwrap.dedent("""
    import sys
    from omaha_equity.cli import main
    from omaha_equity.equity.expected_chips import calculate_allin
    from omaha_equity.equity.calculate import calculate_equity
    {warm_up}
    print("ready", file=sys.stderr, flush=True)
    main({arguments!r})
""")


@contextmanager
def reaped(child: subprocess.Popen):
    """Run the body with ``child``; kill it and wait for it on the way out if it still runs (a
    failed or timed-out check leaves no process behind)."""
    try:
        yield child
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def interrupt_child(warm_up: str, arguments: list[str]) -> tuple[int, str, float]:
    """Run the CLI in a child process, send SIGINT once it is busy with ``arguments``; returns
    (exit code, stderr after "ready", seconds from the signal to the exit)."""
    child = subprocess.Popen([sys.executable, "-c", CHILD.format(warm_up=warm_up, arguments=arguments)], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with reaped(child):
        line = ""
        while line.strip() != "ready":
            line = child.stderr.readline()
            assert line, "the child ended before it was ready"
        time.sleep(1.0)  # well inside the long kernel work (it would take minutes to hours)
        assert child.poll() is None
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        _, stderr = child.communicate(timeout=30)
        return child.returncode, stderr, time.monotonic() - sent


@pytest.mark.parametrize("warm_up, arguments", [
    ("calculate_equity(['AsAhKsKh', 'JdTd9c8c'], trials=10, seed=1)",
     ["calc", "AsAhKsKh", "JdTd9c8c", "--trials", str(10**12), "--seed", "1"]),
    ("calculate_allin(['AsAhKsKh', 'JdTd9c8c'], [5, 5], trials=10, seed=1)",
     ["allin", "AsAhKsKh", "JdTd9c8c", "--stacks", "5,5", "--trials", str(10**12), "--seed", "1"]),
    ("calculate_allin(['AsAhKsKh', '15%', 'KK'], [5, 5, 5], trials=10, seed=1)",
     ["allin", "AsAhKsKh", "15%", "15%", "15%", "15%", "15%", "--stacks", "5,5,5,5,5,5", "--seed", "1"]),
    ("calculate_allin(['AsAhKsKh', '5%', 'QdQcJdJc'], [5, 5, 5], board='2c3d4h5s', method='exact')",
     ["allin", "AsAhKsKh", "5%", "5%", "--stacks", "5,5,5", "-b", "2c3d4h5s", "--exact"]),
], ids=["calc-monte-carlo", "allin-monte-carlo", "allin-ranges-monte-carlo", "allin-ranges-exact"])
def test_ctrl_c_in_a_long_kernel_aborts_at_once_with_exit_130(warm_up, arguments):
    code, stderr, seconds = interrupt_child(warm_up, arguments)
    assert code == 130, stderr
    assert stderr.strip() == "Aborted!"
    assert "Traceback" not in stderr
    assert seconds < 3


def test_an_interrupt_during_a_kernel_call_is_delivered_after_it():
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with kernel_threads.deferred_interrupt():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # Python would run its handler here; the deferral holds it back
            reached.append("end of call")
    assert reached == ["end of call"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_piece_sizes_follow_the_measured_speed():
    sizer = kernel_threads.PieceSizer(first=2, most=256, multiple=2)
    assert sizer.next() == 2
    sizer.took(2, kernel_threads.CALL_SECONDS / 20)  # twenty times too fast: twenty times more
    assert sizer.next() == 40
    sizer.took(40, kernel_threads.CALL_SECONDS * 4)  # a busy machine: fewer at once
    assert sizer.next() == 10
    sizer.took(10, kernel_threads.CALL_SECONDS * 400)
    assert sizer.next() == 2  # never below one unit per thread
    sizer.took(2, 1e-9)
    assert sizer.next() <= 256


# The Ctrl-C lands just after the kernel pool's first thread has started and before the pool
# has recorded it, where a SIGINT during Thread.start() (which waits for the new thread to run)
# is served. Range Monte Carlo runs its kernels outside deferred_interrupt, so a real Ctrl-C
# could land there (about one run in three under load): the unrecorded thread was never woken
# at exit and the interpreter waited for it forever.
CTRL_C_AS_A_THREAD_STARTS = textwrap.dedent("""
    import signal, sys, threading
    import numba
    import numpy as np
    from omaha_equity.runtime import threads as kernel_threads

    numba.set_num_threads(2)
    start = threading.Thread.start

    def start_then_ctrl_c(thread):
        start(thread)
        threading.Thread.start = start  # only the first thread
        signal.raise_signal(signal.SIGINT)

    threading.Thread.start = start_then_ctrl_c
    try:
        kernel_threads.across_threads(lambda first, count: (np.arange(first, first + count),), 0, 4)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(130)
    print("finished", flush=True)
""")


def test_ctrl_c_while_a_kernel_thread_starts_leaves_no_thread_to_wait_for_at_exit():
    child = subprocess.Popen([sys.executable, "-c", CTRL_C_AS_A_THREAD_STARTS], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=dict(os.environ, NUMBA_NUM_THREADS="2"))
    with reaped(child):
        stdout, stderr = child.communicate(timeout=60)  # hung at exit, for good, without the fix
    assert child.returncode == 130, stderr
    assert stdout.strip() == "interrupted" and stderr == ""


@pytest.mark.parametrize("chosen, expected", [(None, "passive"), ("active", "active")])
def test_idle_kernel_threads_sleep_rather_than_spin_unless_the_user_chose(chosen, expected):
    # set when the parallel (range matching) kernels are imported, before any parallel call; a
    # value the user set is kept
    environment = {name: value for name, value in os.environ.items() if name != "OMP_WAIT_POLICY"}
    if chosen is not None:
        environment["OMP_WAIT_POLICY"] = chosen
    code = "import os, omaha_equity.ranges._kernels; print(os.environ.get('OMP_WAIT_POLICY'))"
    output = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True,
                            check=True).stdout
    assert output.strip() == expected


def test_forced_exact_enumeration_beyond_the_ceiling_is_refused_with_the_estimate():
    result = CliRunner().invoke(main, ["calc", "AA", "KK", "--exact"])
    assert result.exit_code == 2
    assert "about 1.1e+14 player-boards" in result.output and "3e+10" in result.output
    assert "Traceback" not in result.output
    with pytest.raises(InputError, match=r"about 1\.1e\+14 player-boards"):
        calculate_allin(["AA", "KK"], [5, 5], method="exact")
    # the automatic choice is never refused: it goes to Monte Carlo
    assert plan.choose_method(plan.Method.AUTO, 10**14) == plan.Method.MONTE_CARLO
    assert plan.choose_method(plan.Method.EXACT, plan.EXACT_WORK_CEILING) == plan.Method.EXACT


@pytest.fixture
def uneven_pieces(monkeypatch):
    """Kernel calls of uneven sizes (chunks, slices, hands, deals per chunk), whatever their time."""
    sizes = itertools.cycle([1, 500, 7, 3000, 2, 64])

    def took(sizer, size, seconds):
        sizer.size = min(next(sizes), sizer.most)

    monkeypatch.setattr(kernel_threads.PieceSizer, "took", took)
    return monkeypatch


def _equity_numbers(result):
    return [(player.equity, player.standard_error, player.win_count, player.tie_count) for player in result.players]


def _allin_numbers(result):
    return [(player.pot_chips, player.pot_standard_errors, player.standard_error) for player in result.players]


@pytest.mark.parametrize("threads", [1, 2])
def test_equity_is_the_same_however_the_work_is_cut(uneven_pieces, threads):
    if threads > numba.config.NUMBA_NUM_THREADS:
        pytest.skip("needs two threads")
    monte_carlo = dict(trials=3_000_000, precision=0.06, seed=11, threads=threads)
    cut = calculate_equity(["AsAhKsKh", "JdTd9c8c", "*"], **monte_carlo)
    cut_exact = calculate_equity(["AsAhKsKh", "JdTd9c8c"], threads=threads)
    uneven_pieces.undo()
    uneven_pieces.setattr(kernel_threads, "CALL_SECONDS", 10.0)  # calls as large as allowed
    uneven_pieces.setattr(kernel_threads, "LIST_CALL_SECONDS", 10.0)
    whole = calculate_equity(["AsAhKsKh", "JdTd9c8c", "*"], **monte_carlo)
    whole_exact = calculate_equity(["AsAhKsKh", "JdTd9c8c"], threads=threads)
    assert cut.sample_count == whole.sample_count < 3_000_000  # stopped at the same precision check
    assert _equity_numbers(cut) == _equity_numbers(whole)
    assert [player.equity_fraction for player in cut_exact.players] == [
        player.equity_fraction for player in whole_exact.players]


@pytest.mark.parametrize("threads", [1, 2])
def test_allin_is_the_same_however_the_work_is_cut(uneven_pieces, threads):
    if threads > numba.config.NUMBA_NUM_THREADS:
        pytest.skip("needs two threads")
    queries = [
        (["AsAhKsKh", "JdTd9c8c", "*"], [300, 200, 100], dict(trials=70_000, seed=3)),
        (["AsAhKsKh", "AA:$ds", "*"], [300, 200, 100], dict(trials=70_000, seed=3, game="omaha8")),
        (["AsAhKsKh", "AA:$ds", "KK:$ds"], [300, 200, 100], dict(board="2c3d4h5s", method="exact")),
    ]
    cut = [calculate_allin(hands, committed, threads=threads, **options) for hands, committed, options in queries]
    uneven_pieces.undo()
    uneven_pieces.setattr(kernel_threads, "CALL_SECONDS", 10.0)
    uneven_pieces.setattr(kernel_threads, "LIST_CALL_SECONDS", 10.0)
    whole = [calculate_allin(hands, committed, threads=threads, **options) for hands, committed, options in queries]
    for cut_result, whole_result in zip(cut, whole):
        assert cut_result.sample_count == whole_result.sample_count
        assert _allin_numbers(cut_result) == _allin_numbers(whole_result)


def _started_a_process(pid: int) -> bool:
    """Whether process ``pid`` has a child: the batch is building its worker pool (its first
    child is multiprocessing's resource tracker, started by the pool's first named semaphore;
    then the fork server, then the workers)."""
    return any(Path(children).read_text().split() for children in glob.glob(f"/proc/{pid}/task/*/children"))


def _named_semaphores(pid: int) -> set[int]:
    """The inode numbers of the named semaphores that process ``pid`` has open (multiprocessing's
    locks: files in /dev/shm), read from its memory map; empty without /proc. The map names the
    temporary file that ``sem_open`` made, then linked under the semaphore's name: the inode is
    the same."""
    try:
        memory_map = Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return set()
    return {int(fields[4]) for fields in map(str.split, memory_map.splitlines())
            if len(fields) > 5 and fields[5].startswith("/dev/shm/sem.")}


def _left_in_dev_shm(inodes: set[int]) -> list[str]:
    """The files in /dev/shm that are one of these ``inodes``."""
    if not inodes or not os.path.isdir("/dev/shm"):
        return []
    return [entry.name for entry in os.scandir("/dev/shm") if entry.stat(follow_symlinks=False).st_ino in inodes]


@pytest.mark.parametrize("moment", ["workers starting", "workers running"])
@pytest.mark.parametrize("whole_group", [True, False])
def test_ctrl_c_on_a_batch_with_worker_processes_leaves_nothing_behind(tmp_path, moment, whole_group):
    # Ctrl-C the moment the worker processes start (the fork server importing the package, a
    # worker reading its task: the race of a Ctrl-C in the first second) and once they run long
    # queries: the run ends with 130 and its one line, no traceback from a process half-started,
    # multiprocessing's resource tracker has no leaked semaphore to warn of, and no named
    # semaphore the program had open is left in /dev/shm (one half-made by a Ctrl-C would be
    # there for good, unknown to the tracker). A terminal's Ctrl-C reaches the whole process
    # group; `kill -INT` the program alone.
    if moment == "workers starting" and not Path("/proc/self/task").is_dir():
        pytest.skip("needs /proc to see the workers start")
    spots = tmp_path / "spots.csv"
    spots.write_text("id,hand1,hand2,method,trials\n"
                     + "".join(f"q{index},AsAhKsKh,*,monte-carlo,{10**10}\n" for index in range(8)))
    child = subprocess.Popen([sys.executable, "-m", "omaha_equity", "batch", str(spots), "-o", str(tmp_path / "out.csv"),
                              "--workers", "2", "--seed", "1", "-q"], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=whole_group)
    with reaped(child):
        if moment == "workers starting":
            deadline = time.monotonic() + 120
            while not _started_a_process(child.pid):
                assert time.monotonic() < deadline and child.poll() is None
                time.sleep(0.005)
        else:
            time.sleep(4)  # the workers have started their kernels (and numba its thread layer)
        assert child.poll() is None
        semaphores = _named_semaphores(child.pid)
        if whole_group:
            os.killpg(child.pid, signal.SIGINT)
        else:
            child.send_signal(signal.SIGINT)
        _, stderr = child.communicate(timeout=60)  # its stderr ends with the resource tracker
    assert child.returncode == 130, stderr
    stderr = "\n".join(line for line in stderr.splitlines() if not line.startswith("omaha-equity:"))  # cache notices
    assert stderr.strip() == "Aborted!"
    assert _left_in_dev_shm(semaphores) == []
