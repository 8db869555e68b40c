"""examples/flop_calling_range.py runs and its numbers agree with calc."""

import subprocess
import sys
from pathlib import Path

from omaha_equity import calculate_equity

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "flop_calling_range.py"


def test_flop_calling_range_example_prints_the_parts_and_the_whole():
    result = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "'20%:{pair+, fd, straight-draw}' on Jh8h3c | 20,838 hand combinations | against AhAsKsQh: exact" in result.stdout
    assert "set                   2,056    9.87%    65.71%    34.29%" in result.stdout
    whole = calculate_equity(["AhAsKsQh", "20%:{pair+, fd, straight-draw}"], "Jh8h3c").players[0].equity
    assert f"equity {whole:.2%}" in result.stdout  # the parts' equities, weighted, make the whole
    assert "behind set: 9.9% of the range, 34.3% against it" in result.stdout
