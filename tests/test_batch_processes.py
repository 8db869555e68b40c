"""Batch worker processes and Dask clusters under faults (issue 15, items 10-12): the program
killed with SIGKILL, a local worker killed, an item that kills every worker, a cluster without
workers, workers that leave, a scheduler shut down mid-run."""

import csv
import io
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from click.testing import CliRunner

from omaha_equity.cli import main
from omaha_equity.runtime.executor import MAX_POOL_RESTARTS, ExecutorLost, ProcessExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_cli(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def sampled_spots(path, count, trials):
    """Heads-up preflop Monte Carlo queries: about 0.2 ms per thousand trials on one core."""
    path.write_text("id,hand1,hand2,trials\n"
                    + "".join(f"q{index},AsAhKsKh,JdTd9c8c,{trials}\n" for index in range(count)))
    return path


def start_batch(arguments):
    return subprocess.Popen([sys.executable, "-m", "omaha_equity", "batch", *arguments], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def disturbed_batch(arguments, part, disturb, rows_first=4):
    """Run a batch in a child process, call ``disturb(child)`` once ``part`` holds
    ``rows_first`` lines, and wait for the end; returns (exit code, stderr)."""
    child = start_batch(arguments)
    try:
        assert wait_for(lambda: lines_in(part) >= rows_first, 60)  # well under way
        disturb(child)
        _, stderr = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return child.returncode, stderr


def processes_below(pid):
    """{pid: parent pid} of every live process descending from ``pid`` (from /proc)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as file:
                    fields = file.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(entry)] = int(fields[1])
    found = {}
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, its_parent in parents.items():
            if its_parent == parent and child not in found:
                found[child] = parent
                frontier.append(child)
    return found


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as file:
            return file.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_for(condition, seconds, step=0.1):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    return condition()


def local_workers(pid):
    """The pool's worker processes: children of the fork server, itself a child of ``pid``."""
    below = processes_below(pid)
    return [child for child, parent in below.items() if parent != pid]


def lines_in(path):
    try:
        return path.read_text().count("\n")
    except FileNotFoundError:
        return 0


# --- 10. kill -9 ------------------------------------------------------------------------------

@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_of_a_batch_ends_its_fork_server_workers_and_resource_tracker(tmp_path):
    spots = sampled_spots(tmp_path / "spots.csv", 8, 10**10)  # hours of work per query
    child = start_batch([str(spots), "-o", str(tmp_path / "out.csv"), "--workers", "2", "--seed", "1", "-q",
                         "--chunk-size", "1"])
    try:
        assert wait_for(lambda: len(local_workers(child.pid)) >= 2, 30)
        time.sleep(0.5)  # the workers are in their kernels
        left_behind = processes_below(child.pid)
        assert len(left_behind) >= 4  # fork server, resource tracker, two workers
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
        survivors = wait_for(lambda: not [pid for pid in left_behind if alive(pid)], 10) or \
            [pid for pid in left_behind if alive(pid)]
        assert survivors is True
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        for pid in left_behind if "left_behind" in locals() else ():
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


# --- 11. a local worker killed ----------------------------------------------------------------

@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_local_worker_is_replaced_and_the_output_is_whole(tmp_path):
    spots = sampled_spots(tmp_path / "spots.csv", 40, 200_000)
    output = tmp_path / "out.csv"
    code, stderr = disturbed_batch(
        [str(spots), "-o", str(output), "--workers", "2", "--seed", "1", "--chunk-size", "1"],
        tmp_path / "out.csv.part", lambda child: os.kill(local_workers(child.pid)[0], signal.SIGKILL))
    assert code == 0, stderr
    assert "batch: a worker process died; its work runs again on a new one (1 of at most 3 restarts)" in stderr
    assert "Traceback" not in stderr
    clean = run_cli("batch", str(spots), "--workers", "1", "--seed", "1", "-q")
    assert output.read_text() == clean.stdout


def exit_at_once(item):
    os._exit(7)


def test_an_item_that_kills_every_worker_stops_the_run_after_a_few_new_pools():
    notices = []
    with ProcessExecutor(2, notify=notices.append) as executor:
        with pytest.raises(ExecutorLost, match=f"a local worker process died {MAX_POOL_RESTARTS + 1} times"):
            list(executor.map(exit_at_once, range(3)))
    assert len(notices) == MAX_POOL_RESTARTS


# --- 12. Dask ---------------------------------------------------------------------------------

@pytest.fixture
def make_cluster():
    distributed = pytest.importorskip("distributed")
    clusters = []

    def make(workers):
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                                           protocol="tcp://", dashboard_address=None)
        clusters.append(cluster)
        return cluster

    yield make
    for cluster in clusters:
        cluster.close()


def test_a_cluster_without_workers_stops_after_the_worker_timeout_and_writes_nothing(tmp_path, make_cluster):
    cluster = make_cluster(0)
    spots = sampled_spots(tmp_path / "spots.csv", 2, 1000)
    output = tmp_path / "out.csv"
    result = run_cli("batch", str(spots), "-o", str(output), "--scheduler", cluster.scheduler_address,
                     "--worker-timeout", "1")
    assert result.exit_code == 3, result.output
    address = cluster.scheduler_address
    assert result.stderr.splitlines() == [
        f"batch: waiting for a Dask worker at {address} (giving up after 1 s: --worker-timeout)",
        f"Error: no Dask worker joined the scheduler {address} within 1 s (--worker-timeout); nothing was written"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["spots.csv"]


def test_workers_that_leave_mid_run_stop_it_after_the_worker_timeout_keeping_finished_rows(tmp_path, make_cluster):
    cluster = make_cluster(1)
    spots = sampled_spots(tmp_path / "spots.csv", 60, 300_000)
    output = tmp_path / "out.csv"
    part = tmp_path / "out.csv.part"

    def retire_when_under_way():
        if wait_for(lambda: lines_in(part) >= 3, 30):
            cluster.scale(0)

    threading.Thread(target=retire_when_under_way, daemon=True).start()
    result = run_cli("batch", str(spots), "-o", str(output), "--scheduler", cluster.scheduler_address,
                     "--chunk-size", "1", "--worker-timeout", "1", "--seed", "1")
    assert result.exit_code == 3, result.output
    lines = result.stderr.splitlines()
    assert f"batch: no Dask worker left at {cluster.scheduler_address}: waiting (giving up after 1 s: " \
           "--worker-timeout)" in lines
    assert lines[-1].startswith(f"Error: no Dask worker at {cluster.scheduler_address} for 1 s (--worker-timeout): "
                                "stopped; ")
    assert not output.exists() and lines_in(part) >= 3


def test_a_scheduler_shut_down_mid_run_is_one_line_and_exit_3_and_resume_completes(tmp_path, make_cluster):
    cluster = make_cluster(2)
    spots = sampled_spots(tmp_path / "spots.csv", 60, 300_000)
    output = tmp_path / "out.csv"
    part = tmp_path / "out.csv.part"
    code, stderr = disturbed_batch(
        [str(spots), "-o", str(output), "--scheduler", cluster.scheduler_address, "--seed", "1", "--chunk-size", "1",
         "-q"], part, lambda child: cluster.close(), rows_first=5)
    assert code == 3, stderr
    assert stderr.splitlines() == [
        f"Error: lost the Dask scheduler {cluster.scheduler_address}: stopped; "
        f"{stderr.split('; ')[1].split()[0]} finished queries are in {str(part)!r} (--resume -o {output} goes on)"]
    kept = list(csv.DictReader(io.StringIO(part.read_text())))
    assert len(kept) >= 4 and not output.exists()
    resumed = run_cli("batch", str(spots), "-o", str(output), "--resume", "--workers", "1", "--seed", "1", "-q")
    assert resumed.exit_code == 0, resumed.output
    clean = run_cli("batch", str(spots), "--workers", "1", "--seed", "1", "-q")
    assert output.read_text() == clean.stdout
