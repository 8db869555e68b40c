"""Studies in bounded memory: a study that keeps something per hand of a range (the distribution
by hand, hits --vs) is refused before any work when its estimate is over the budget, in one line
naming the estimate (exit code 2); hits without --vs categorizes a range a chunk at a time, to the
same composition."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from omaha_equity import InputError
from omaha_equity.studies import distribution, hits, memory
from omaha_equity.studies.distribution import equity_distribution
from omaha_equity.studies.hits import range_composition

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _no_work(*arguments, **keywords):
    raise AssertionError("the study ran although it was over the memory budget")


def test_a_distribution_by_hand_over_the_budget_is_refused_before_any_work(monkeypatch):
    monkeypatch.setattr(memory, "STUDY_MEMORY_BUDGET", 1_000_000)
    monkeypatch.setattr(distribution, "hand_by_hand", _no_work)
    with pytest.raises(InputError, match=r"^the distribution by hand of 4,873 hands would need about 3 MB of "
                                         r"memory \(this program allows 1 MB\): narrow the range"):
        equity_distribution("AsKsQdJh", "5%", "Qh7d2c")
    with pytest.raises(InputError, match=r"by hand of 1,086,008 hands would need about 760 MB"):  # '*': counted
        equity_distribution("AsKsQdJh9c", "*", "Qh7d2c", game="omaha5")


def test_hits_against_a_hand_over_the_budget_is_refused_before_categorizing(monkeypatch):
    monkeypatch.setattr(memory, "STUDY_MEMORY_BUDGET", 1_000_000)
    monkeypatch.setattr(hits, "categorize_hands", _no_work)
    with pytest.raises(InputError, match=r"^the parts' equities against another player of \d{2},\d{3} hands would "
                                         r"need about \d MB of memory"):
        range_composition("15%", "Qh7d2c", vs="AsKsQdJh")


def test_hits_without_vs_gives_the_same_composition_a_chunk_at_a_time(monkeypatch):
    whole = range_composition("15%", "Qh7d2c", game="omaha8")
    monkeypatch.setattr(hits, "CATEGORIZE_CHUNK", 1_000)
    assert range_composition("15%", "Qh7d2c", game="omaha8") == whole


def test_a_study_too_big_for_the_memory_is_one_line_and_exit_code_2_in_a_limited_child():
    """Every 5-card hand against one (1,086,008 items of a distribution) with the data segment
    limited to 1 GB: before the budget, a MemoryError after a long wait (exit code 1)."""
    limit = "import resource; resource.setrlimit(resource.RLIMIT_DATA, (1 << 30, 1 << 30)); "
    child = subprocess.run(
        [sys.executable, "-c", limit + "from omaha_equity.cli import run; run()", "distribution", "AsKsQdJh9c",
         "100%", "-g", "omaha5", "-b", "Qh7d2c"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert child.returncode == 2, child.stderr
    assert child.stdout == ""
    assert child.stderr.splitlines() == [
        "Error: the distribution by hand of 1,086,008 hands would need about 760 MB of memory (this program allows "
        "600 MB): narrow the range (e.g. '15%', or a category filter such as '100%:{set+}')"]
