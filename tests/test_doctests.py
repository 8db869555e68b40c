"""Every ``>>>`` example in the package's docstrings runs and prints what it shows.

Only the modules whose source holds ``>>>`` are imported (read as text first), so the test
loads no more of the package than its examples need; kernels the examples call are the ones the
suite's warm-up has compiled already.
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

PACKAGE_ROOT = Path(__file__).resolve().parent.parent / "omaha_equity"


def modules_with_examples() -> list[str]:
    """Dotted names of the package's modules whose source has a ``>>>`` line."""
    names = []
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        if ">>>" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(PACKAGE_ROOT.parent).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


MODULES = modules_with_examples()


def test_the_examples_are_found():
    assert "omaha_equity.rankings" in MODULES and "omaha_equity.rules.hand" in MODULES


@pytest.mark.parametrize("module_name", MODULES)
def test_docstring_examples(module_name: str):
    module = importlib.import_module(module_name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = [test for test in finder.find(module, module_name) if test.examples]
    assert tests, f"{module_name} has '>>>' in its source but no docstring example was found"
    for test in tests:
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples failed in {module_name} (output above)"
