"""Every call of a compiled kernel from Python passes its inputs as bundles.

A kernel that takes twenty arrays is called with ``kernel(*lists.kernel_arguments(),
*tables.kernel_arguments(), ...)``, the bundles' values in the kernel's order, so no call site
spells out a long row of arrays that a new parameter would have to be threaded through. This
test reads the package with ``ast``: it finds every function compiled by ``runtime/numba.py``'s
decorators, then every call of one of them from plain Python (a call inside a compiled function
is compiled code, not a Python call site), and counts the argument expressions (a ``*bundle``
splat counts as one).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "omaha_equity"
DECORATORS = {"helper", "kernel", "threaded_kernel", "parallel_kernel"}
MOST_ARGUMENTS = 10
# Calls allowed more, as "module kernel": none.
KNOWN_LONG_CALLS: set[str] = set()


def _decorator_name(decorator: ast.expr) -> str | None:
    if isinstance(decorator, ast.Call):
        decorator = decorator.func
    if isinstance(decorator, ast.Name):
        return decorator.id
    if isinstance(decorator, ast.Attribute):
        return decorator.attr
    return None


def _is_compiled(function: ast.FunctionDef) -> bool:
    return any(_decorator_name(decorator) in DECORATORS for decorator in function.decorator_list)


def _modules() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(), str(path)) for path in sorted(PACKAGE.rglob("*.py"))}


def _compiled_names(modules: dict[Path, ast.Module]) -> set[str]:
    return {node.name for tree in modules.values() for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and _is_compiled(node)}


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _python_calls(tree: ast.Module, compiled: set[str]):
    """(line, kernel, argument count) of every kernel call outside a compiled function."""
    def visit(node: ast.AST):
        if isinstance(node, ast.FunctionDef) and _is_compiled(node):
            return  # compiled code calling compiled code
        if isinstance(node, ast.Call) and _called_name(node) in compiled:
            yield node.lineno, _called_name(node), len(node.args) + len(node.keywords)
        for child in ast.iter_child_nodes(node):
            yield from visit(child)

    yield from visit(tree)


def test_the_package_has_compiled_kernels_and_calls_them():
    modules = _modules()
    compiled = _compiled_names(modules)
    assert {"enumerate_boards", "sample_ranges", "sample_allin_ranges", "enumerate_by_next_card"} <= compiled
    calls = [call for tree in modules.values() for call in _python_calls(tree, compiled)]
    assert any(name == "sample_ranges" for _, name, _ in calls)


def test_no_python_call_of_a_kernel_passes_more_than_ten_arguments():
    modules = _modules()
    compiled = _compiled_names(modules)
    long_calls = [f"{path.relative_to(PACKAGE.parent)}:{line} {name} ({count} arguments)"
                  for path, tree in modules.items() for line, name, count in _python_calls(tree, compiled)
                  if count > MOST_ARGUMENTS
                  and f"{path.relative_to(PACKAGE.parent).as_posix()} {name}" not in KNOWN_LONG_CALLS]
    assert long_calls == [], "pass the kernel's inputs as bundles (kernel_arguments()):\n" + "\n".join(long_calls)
