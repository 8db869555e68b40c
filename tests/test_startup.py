"""Start-up and exit of the program: the fast exit loses no output and keeps the exit code and the
cleanup, and importing the package loads the heavy parts (numba, tabulate) only when needed.

Each test runs a fresh interpreter (what is imported, and how the process ends, is the point).
"""

import json
import subprocess
import sys
import textwrap



def python(code: str, *arguments: str, timeout: int = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *arguments], capture_output=True, text=True,
                          timeout=timeout)


def program(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "omaha_equity", *arguments], capture_output=True, text=True,
                          timeout=120)


def test_importing_the_package_or_the_cli_does_not_import_numba():
    result = python("""
        import sys
        import omaha_equity
        print(sorted(name for name in ("numba", "numpy", "tabulate") if name in sys.modules))
        import omaha_equity.cli
        print("numba" in sys.modules, "numpy" in sys.modules, "tabulate" in sys.modules)
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["[]", "False False False"]


def test_csv_and_json_rendering_do_not_import_tabulate():
    result = python("""
        import sys
        from omaha_equity.views.render import render
        render("csv", [{"a": 1}], None)
        render("json", [], {"a": 1})
        print("tabulate" in sys.modules)
        render("table", [{"a": 1}], None)  # the simple style is written without tabulate
        print("tabulate" in sys.modules)
        render("table", [{"a": 1}], None, style="grid")
        print("tabulate" in sys.modules)
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False", "True"]


def test_a_query_through_a_pipe_prints_everything_and_exits_0():
    result = program("calc", "AsAhKsKh", "JdTd9c8c", "-b", "2c3d4h5s7s", "-f", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)  # complete JSON: the buffered tail was flushed
    # aces (AsAh with 7-5-4) against jack high: the aces win the one board
    assert [player["equity_exact"] for player in data["players"]] == ["1", "0"]
    assert "Traceback" not in result.stderr and "Error" not in result.stderr  # (a cold cache says so there)


def test_a_long_output_through_a_pipe_arrives_whole():
    # CSV lists every hand of the range: 6,961 rows, about 90 KB, more than a pipe buffer holds
    result = program("range", "AA", "-f", "csv")
    assert result.returncode == 0, result.stderr
    rows = result.stdout.splitlines()
    assert rows[0] == "hand,weight" and rows[1] == "AsAhAdAc,1.0"
    assert len(rows) == 1 + 6961 and rows[-1] == "AdAc2d2c,1.0"  # the last hand, in canonical order


def test_usage_error_keeps_exit_code_2_and_its_message():
    result = program("calc", "AsAhKsKh", "JdTd9c8c", "--game", "chess")
    assert result.returncode == 2
    assert result.stderr.startswith("Error: ") and "chess" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""


def test_atexit_handlers_still_run_and_print_after_the_output():
    result = python("""
        import atexit, sys
        from omaha_equity.cli import run
        atexit.register(lambda: print("cleanup ran"))
        sys.argv = ["omaha-equity", "--version"]
        run()
        print("not reached")
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["omaha-equity, version 0.1.0", "cleanup ran"]


def test_a_running_thread_is_waited_for_as_in_an_ordinary_exit():
    # A non-daemon thread still at work: skipping the teardown would kill it, so the program
    # takes the ordinary exit, which waits for it.
    result = python("""
        import sys, threading, time
        from omaha_equity.cli import run
        worker = threading.Thread(target=lambda: (time.sleep(0.3), print("thread finished", flush=True)))
        worker.start()
        sys.argv = ["omaha-equity", "calc", "AsAhKsKh"]
        run()
    """)
    assert result.returncode == 2  # one player: a usage error
    assert "expected at least 2 players" in result.stderr
    assert result.stdout == "thread finished\n"


def test_a_string_exit_code_is_printed_and_gives_status_1():
    result = python("""
        from omaha_equity.cli.fast_exit import exit_program
        print("output first")
        exit_program("fatal: something broke")
    """)
    assert result.returncode == 1
    assert result.stdout == "output first\n" and result.stderr == "fatal: something broke\n"


def test_exit_codes_pass_through_the_fast_exit():
    result = python("""
        import sys
        from omaha_equity.cli.fast_exit import exit_program
        sys.stdout.write("x" * 100_000)  # more than a pipe holds: written while the parent reads
        exit_program(int(sys.argv[1]))
    """, "3")
    assert result.returncode == 3
    assert result.stdout == "x" * 100_000


def test_the_interpreter_teardown_is_skipped_once_the_output_is_out():
    # What makes the exit fast: objects still alive at the end are not finalized one by one
    # (an ordinary exit would run this __del__ while clearing the modules).
    result = python("""
        import sys
        from omaha_equity.cli import run

        class Noisy:
            def __del__(self):
                print("torn down")

        survivor = Noisy()
        sys.argv = ["omaha-equity", "--version"]
        run()
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "omaha-equity, version 0.1.0\n"


def test_the_kernel_threads_do_not_keep_the_program_from_its_fast_exit():
    # the threads that ran the kernels are idle once the output is out: the process ends
    # without waiting for them (and without tearing down the interpreter)
    result = python("""
        import atexit, sys, threading
        from omaha_equity.cli import run

        class Noisy:
            def __del__(self):
                print("torn down")

        survivor = Noisy()
        atexit.register(lambda: print(sorted(thread.name for thread in threading.enumerate()), file=sys.stderr))
        sys.argv = ["omaha-equity", "calc", "AsAhKsKh", "JdTd9c8c", "--threads", "2", "-f", "csv"]
        run()
    """)
    assert result.returncode == 0, result.stderr
    assert "166923/271502" in result.stdout and "torn down" not in result.stdout
    assert "omaha-equity-kernel" in result.stderr  # the pool did run (two threads asked for)


def modules_after(*arguments: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running the CLI with ``arguments``."""
    result = python("""
        import json, sys
        from omaha_equity.cli import main
        try:
            main(sys.argv[1:])
        except SystemExit as stop:
            assert not stop.code, stop.code
        print(json.dumps(sorted(sys.modules)), file=sys.stderr)
    """, *arguments)
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stderr.splitlines()[-1]))


# The compiled kernels of the equity calculator, the all-in EV and the studies (issue 18: a
# command imports only the kernels it runs; each kernel module costs its import and its loading).
EQUITY_KERNELS = {"omaha_equity.equity.fixed._kernels", "omaha_equity.equity.lists._kernels",
                  "omaha_equity.equity.fixed._allin_kernels", "omaha_equity.equity.lists._allin_kernels"}
OTHER_KERNELS = {"omaha_equity.equity.fixed._allin_kernels", "omaha_equity.equity.lists._allin_kernels",
                 "omaha_equity.studies._kernels", "omaha_equity.categories._kernels"}


def test_rank_and_range_do_not_import_the_equity_kernels():
    for arguments in (["rank", "AsAhKsKh"], ["range", "AA:$ds", "--sample", "2"]):
        loaded = modules_after(*arguments)
        assert "omaha_equity.rankings" in loaded or "omaha_equity.ranges" in loaded  # the command did run
        assert not loaded & (EQUITY_KERNELS | {"omaha_equity.equity.calculate"}), arguments


def test_a_fixed_hand_calc_imports_neither_all_in_nor_study_kernels_nor_the_shell():
    loaded = modules_after("calc", "AsAhKsKh", "JdTd9c8c", "-b", "2c3d4h5s7s")
    assert "omaha_equity.equity.fixed._kernels" in loaded and "omaha_equity.views.render" in loaded  # it ran and drew
    assert not loaded & (OTHER_KERNELS | {"omaha_equity.cli.shell", "prompt_toolkit"})


def test_csv_output_does_not_import_tabulate():
    loaded = modules_after("calc", "AsAhKsKh", "JdTd9c8c", "-b", "2c3d4h5s7s", "-f", "csv")
    assert "omaha_equity.equity.fixed._kernels" in loaded and "tabulate" not in loaded


def test_loading_cached_kernels_imports_neither_numba_lowering_modules_nor_numpy_ma():
    # numba's np.empty lives in numba.np.arrayobj (0.03 s of imports): a kernel loaded from the
    # cache does not need it (cache._environments_without_imports); nor does typing a plain array
    # need numpy.ma (0.02 s: cache._typeof_argument). The first run may compile.
    arguments = ("calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s", "-f", "csv")
    modules_after(*arguments)
    loaded = modules_after(*arguments)
    assert "omaha_equity.equity.fixed._kernels" in loaded
    assert "numba.np.arrayobj" not in loaded and "numpy.ma" not in loaded
