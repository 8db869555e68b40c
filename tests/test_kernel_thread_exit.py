"""A Ctrl-C while the kernel thread pool starts a thread leaves no thread the interpreter waits
for at exit (the process ends at once with the interrupt's exit code)."""

import os
import signal
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The Ctrl-C lands just after the pool's first thread has started and before the pool has
# recorded it: the moment a SIGINT during Thread.start() (which waits for the new thread to run)
# is served. Range Monte Carlo runs its kernels outside deferred_interrupt, so a real Ctrl-C
# could land there (about one run in three under load): the unrecorded thread was never woken
# at exit and the interpreter waited for it forever.
CHILD = textwrap.dedent("""
    import signal, sys, threading
    import numba
    import numpy as np
    from omaha_equity.equity import pieces

    numba.set_num_threads(2)
    start = threading.Thread.start

    def start_then_ctrl_c(thread):
        start(thread)
        threading.Thread.start = start  # only the first thread
        signal.raise_signal(signal.SIGINT)

    threading.Thread.start = start_then_ctrl_c
    try:
        pieces.across_threads(lambda first, count: (np.arange(first, first + count),), 0, 4)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(130)
    print("finished", flush=True)
""")


def test_ctrl_c_while_a_kernel_thread_starts_leaves_nothing_to_wait_for_at_exit():
    child = subprocess.Popen([sys.executable, "-c", CHILD], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=dict(os.environ, NUMBA_NUM_THREADS="2"))
    try:
        stdout, stderr = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 130, stderr
    assert stdout.strip() == "interrupted"
    assert stderr == ""
