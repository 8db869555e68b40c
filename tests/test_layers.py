"""The import graph of the package runs one way (docs/layout.md): no circle; across the package
no module imports a layer above its own (``PACKAGE_LAYERS``), ``equity`` and ``rules`` never
import each other, and no module imports another module's ``_private`` name; in the packages
of ``LAYERS`` (rules, hand histories, all-in EV, views, the command line) no module imports a
layer above its own within the package.

The graph is read from the source with ``ast``: every ``import`` and ``from ... import``
counts, at module level, inside functions and under ``if TYPE_CHECKING`` alike (a circle that
only a function-level import hides is still a circle). ``from package import name`` is an
arrow to ``package.name`` when that is a module, else to ``package``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE_ROOT = Path(__file__).resolve().parent.parent / "omaha_equity"

# Lowest layer first: a module may import modules of lower layers only (not its own layer,
# not a higher one). Each module of these packages must be in exactly one layer.
LAYERS: dict[str, list[list[str]]] = {
    "omaha_equity.rules": [
        ["streets", "chips", "settlement"],
        ["structures", "forced", "settings"],
        ["sizing"],
        ["actions"],
        ["state"],
        ["dealing"],
        ["payout", "history"],
        ["showdown"],
        ["hand"],
        ["__init__"],
    ],
    "omaha_equity.hand_history": [
        # formats: a file's text -> the neutral PHH record, and the errors they raise
        ["errors", "variants", "text_files"],
        ["notation", "records"],
        ["phh"],
        ["pokerstars"],
        ["pokerstars_phh"],
        ["pokerstars_rooms"],
        ["ggpoker", "winamax", "bovada"],
        ["sites"],
        ["sessions"],
        # replay: the record -> the rules engine and back, checked against the file
        ["replay", "export"],
        ["file_replay", "__init__"],
        ["convert"],
    ],
    "omaha_equity.ev": [
        ["hand_ev"],
        ["session"],
        ["__init__"],
    ],
    "omaha_equity.views": [
        ["render", "__init__"],
        ["board_ranges"],
        ["equity", "studies", "hits", "rules", "play", "ev", "flops", "pql", "outs"],
        ["chips", "spot_table"],
    ],
    "omaha_equity.cli": [
        # the pieces every command uses; the commands, which never import each other; the group
        ["fast_parse", "quick_calc"],
        ["fast_exit", "params", "errors"],
        ["options", "progress", "shell", "hands"],
        ["commands.__init__", "commands.equity", "commands.chips", "commands.studies", "commands.rules",
         "commands.hand_histories", "commands.batch", "commands.flops", "commands.pql", "commands.outs"],
        ["app"],
        ["__init__"],
    ],
}

# Packages in order, lowest first: no module of one imports a module of a later one.
PACKAGE_ORDER = ["omaha_equity.rules", "omaha_equity.hand_history", "omaha_equity.ev", "omaha_equity.cli"]


# The package's layers, lowest first (docs/layout.md): a module may import modules
# of its own layer or lower ones. A module's layer is that of the longest entry naming it or a
# package holding it ("rules.views" before "rules"); "__init__" alone is the package's own.
PACKAGE_LAYERS: list[tuple[str, list[str]]] = [
    ("ground", ["errors", "validate", "cards", "games", "deal", "runtime"]),
    ("hand values", ["evaluate", "ranges", "rankings", "categories", "pots", "boards"]),
    ("calculations and rules", ["equity", "gpu", "rules"]),
    ("studies, batch and files", ["studies", "pql", "batch", "hand_history", "ev", "__init__"]),
    # every renderer; ev/__init__ still offers the ev command's writer (views.ev) with the rest
    # of its API, loaded on first use
    ("views", ["views", "ev.__init__"]),
    ("command line", ["cli", "__main__"]),
]
# Packages of one layer that never import each other.
SEPARATE = [("equity", "rules")]

# Arrows allowed although the checks below would refuse them: none.
KNOWN_EXCEPTIONS: set[str] = set()


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts)


def package_modules(root: Path) -> dict[str, Path]:
    """Every module of the package under ``root``, by dotted name (a package as ``pkg.__init__``)."""
    return {module_name(path, root): path for path in sorted(root.rglob("*.py"))}


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    if name in modules:
        return name
    if f"{name}.__init__" in modules:
        return f"{name}.__init__"
    return None


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``module`` imports anywhere in its source."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    # the package a relative import starts from: a package's own for its __init__
    package_parts = module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _resolve(alias.name, modules)
                if target:
                    found.add(target)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package_parts[:len(package_parts) - node.level + 1]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                target = _resolve(f"{base}.{alias.name}", modules) or _resolve(base, modules)
                if target:
                    found.add(target)
    found.discard(module)
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    modules = package_modules(root)
    return {module: imports_of(module, path, modules) for module, path in modules.items()}


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components)


def layer_violations(graph: dict[str, set[str]], package: str, layers: list[list[str]]) -> list[str]:
    """Arrows from a module of ``package`` to one of its own layer or a higher layer."""
    level = {f"{package}.{name}": number for number, names in enumerate(layers) for name in names}
    problems = []
    for module, targets in sorted(graph.items()):
        if module not in level:
            continue
        for target in sorted(targets):
            if target in level and level[target] >= level[module]:
                problems.append(f"{module} (layer {level[module]}) imports {target} (layer {level[target]})")
    return problems


def package_violations(graph: dict[str, set[str]], order: list[str]) -> list[str]:
    """Arrows from a package (or module) of ``order`` to a later one."""
    def rank(module: str) -> int | None:
        for number, package in enumerate(order):
            if module == package or module.startswith(package + "."):
                return number
        return None

    problems = []
    for module, targets in sorted(graph.items()):
        source_rank = rank(module)
        if source_rank is None:
            continue
        for target in sorted(targets):
            target_rank = rank(target)
            if target_rank is not None and target_rank > source_rank:
                problems.append(f"{module} imports {target}, a later package")
    return problems


def package_layer(module: str, layers: list[tuple[str, list[str]]] = PACKAGE_LAYERS) -> tuple[int, str] | None:
    """``(layer number, layer name)`` of a dotted module name (``omaha_equity.rules.views``)."""
    parts = module.split(".")[1:]
    if parts == ["__init__"]:
        parts = ["__init__"]
    elif parts[-1] == "__init__" and len(parts) == 2:
        parts = parts[:1] + ["__init__"]
    best = None
    for number, (name, entries) in enumerate(layers):
        for entry in entries:
            entry_parts = entry.split(".")
            if parts[:len(entry_parts)] == entry_parts and (best is None or len(entry_parts) > best[0]):
                best = len(entry_parts), (number, name)
    return None if best is None else best[1]


def upward_imports(graph: dict[str, set[str]], layers: list[tuple[str, list[str]]] = PACKAGE_LAYERS,
                   separate: list[tuple[str, str]] = SEPARATE) -> list[str]:
    """Arrows to a higher layer, and arrows between packages that must stay apart."""
    problems = []
    for module, targets in sorted(graph.items()):
        source = package_layer(module, layers)
        for target in sorted(targets):
            goal = package_layer(target, layers)
            if source is None or goal is None:
                continue
            if goal[0] > source[0]:
                problems.append(f"{module} ({source[1]}) imports {target} ({goal[1]})")
            for first, second in separate:
                pair = {module.split(".")[1], target.split(".")[1]}
                if pair == {first, second}:
                    problems.append(f"{module} imports {target}: {first} and {second} never import each other")
    return problems


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _area(package: list[str]) -> list[str]:
    """The top-level package holding ``package`` (``omaha_equity.equity`` for
    ``omaha_equity.equity.lists``), or the root itself."""
    return package[:2]


def private_imports(root: Path) -> list[str]:
    """Imports of another module's ``_private`` names, read from every module's AST.

    ``from module import _name`` of a function, class or constant is one whatever the two modules
    are. A private module (``_kernels``) is its package's own, shared with the subpackages of
    the same top-level package (``equity.fixed._kernels`` is read by ``equity.lists`` and
    ``equity.calculate``): another package may not import it (``from ..evaluate._kernels import
    x``, ``from ..equity import _kernels``), except from a private kernel module of its own, as
    compiled kernels call each other's njit functions directly."""
    modules = package_modules(root)
    problems = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        parts = module.split(".")
        package = parts[:-1]
        own_is_kernel = _is_private(parts[-1])

        def check_module_path(dotted: str) -> None:
            # the private modules on the path, each owned by the package above it
            names = dotted.split(".")
            for index, name in enumerate(names):
                if _is_private(name) and _area(names[:index]) != _area(package) and not own_is_kernel:
                    problems.append(f"{module} imports the private module {'.'.join(names[:index + 1])}")
                    return

        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == parts[0]:
                        check_module_path(alias.name)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base_parts = package[:len(package) - node.level + 1]
                    base = ".".join(base_parts + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                if base.split(".")[0] != parts[0]:
                    continue
                check_module_path(base)
                for alias in node.names:
                    if not _is_private(alias.name):
                        continue
                    target = f"{base}.{alias.name}"
                    if _resolve(target, modules):
                        check_module_path(target)
                    else:
                        problems.append(f"{module} imports the private name {alias.name} of {base}")
    return sorted(set(problems))


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(PACKAGE_ROOT)


def test_no_import_cycle_anywhere_in_the_package(graph):
    assert find_cycles(graph) == []


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_every_module_has_a_layer(graph, package):
    declared = [name for layer in LAYERS[package] for name in layer]
    assert len(declared) == len(set(declared))
    present = sorted(module.removeprefix(package + ".") for module in graph if module.startswith(package + "."))
    assert sorted(declared) == present


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_layers_import_only_lower_layers(graph, package):
    assert layer_violations(graph, package, LAYERS[package]) == []


def test_packages_import_only_lower_packages(graph):
    assert package_violations(graph, PACKAGE_ORDER) == []


def test_every_module_has_a_package_layer(graph):
    assert [module for module in sorted(graph) if package_layer(module) is None] == []


def test_no_import_runs_up_a_layer_or_between_equity_and_rules(graph):
    assert sorted(set(upward_imports(graph)) - KNOWN_EXCEPTIONS) == []


def test_no_module_imports_another_modules_private_names():
    assert sorted(set(private_imports(PACKAGE_ROOT)) - KNOWN_EXCEPTIONS) == []


def click_importers(root: Path) -> list[str]:
    """Modules that import click anywhere in their source."""
    found = []
    for module, path in package_modules(root).items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            if any(name.split(".")[0] == "click" for name in names):
                found.append(module)
                break
    return sorted(found)


def fixed_hand_imports_of_lists(graph: dict[str, set[str]]) -> list[str]:
    """Arrows from the fixed-hand machinery (``equity.fixed``) to the hand-list one
    (``equity.lists``): hand lists are built on the fixed-hand kernels, never the other way."""
    fixed, lists = "omaha_equity.equity.fixed", "omaha_equity.equity.lists"
    return [f"{module} imports {target}" for module, targets in sorted(graph.items()) if module.startswith(fixed + ".")
            for target in sorted(targets) if target == lists or target.startswith(lists + ".")]


def test_the_fixed_hand_machinery_never_imports_the_hand_lists(graph):
    assert fixed_hand_imports_of_lists(graph) == []


def test_only_the_command_line_imports_click():
    assert [module for module in click_importers(PACKAGE_ROOT) if not module.startswith("omaha_equity.cli.")] == []


def test_the_layer_checks_catch_injected_arrows(tmp_path):
    root = _write(tmp_path / "omaha_equity", {
        "__init__.py": "",
        "cards.py": "from .views import x\n",
        "views.py": "x = 1\n",
        "equity/__init__.py": "",
        "equity/calc.py": "from ..rules import hand\nfrom ._kernels import _helper\nfrom .fixed._kernels import z\n",
        "equity/_kernels.py": "def _helper():\n    pass\n",
        "equity/fixed/__init__.py": "",
        "equity/fixed/_kernels.py": "z = 1\n",
        "equity/fixed/hands.py": "from ..lists import walk\n",
        "equity/lists/__init__.py": "",
        "equity/lists/walk.py": "from ..fixed._kernels import z\n",
        "rules/__init__.py": "",
        "rules/hand.py": "from ..equity import _kernels\nfrom ..equity._kernels import y\n",
        "categories/_kernels.py": "from ..equity._kernels import y\n",
    })
    graph = import_graph(root)
    assert upward_imports(graph) == [
        "omaha_equity.cards (ground) imports omaha_equity.views (views)",
        "omaha_equity.categories._kernels (hand values) imports omaha_equity.equity._kernels (calculations and rules)",
        "omaha_equity.equity.calc imports omaha_equity.rules.hand: equity and rules never import each other",
        "omaha_equity.rules.hand imports omaha_equity.equity._kernels: equity and rules never import each other",
    ]
    assert private_imports(root) == [
        "omaha_equity.equity.calc imports the private name _helper of omaha_equity.equity._kernels",
        "omaha_equity.rules.hand imports the private module omaha_equity.equity._kernels",
    ]
    assert fixed_hand_imports_of_lists(import_graph(root)) == [
        "omaha_equity.equity.fixed.hands imports omaha_equity.equity.lists.walk",
    ]


def test_the_graph_sees_real_arrows(graph):
    # the checks above are only worth something if the graph holds the arrows we know of
    assert "omaha_equity.rules.payout" in graph["omaha_equity.rules.hand"]
    assert "omaha_equity.hand_history.phh" in graph["omaha_equity.hand_history.replay"]
    assert "omaha_equity.ev.hand_ev" in graph["omaha_equity.ev.session"]


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_detects_an_injected_cycle(tmp_path):
    # a function-level import that closes a circle, a TYPE_CHECKING import, and a package
    # import through __init__ are all arrows
    root = _write(tmp_path / "pkg", {
        "__init__.py": "",
        "low.py": "def f():\n    from .high import g\n    return g\n",
        "mid.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import low\n",
        "high.py": "from . import mid\n",
        "sub/__init__.py": "from .leaf import x\n",
        "sub/leaf.py": "from .. import sub\nx = 1\n",
    })
    graph = import_graph(root)
    assert graph["pkg.low"] == {"pkg.high"}
    assert graph["pkg.mid"] == {"pkg.low"}
    assert graph["pkg.high"] == {"pkg.mid"}
    assert find_cycles(graph) == [["pkg.high", "pkg.low", "pkg.mid"], ["pkg.sub.__init__", "pkg.sub.leaf"]]


def test_detects_an_arrow_running_up(tmp_path):
    root = _write(tmp_path / "pkg", {
        "__init__.py": "",
        "base.py": "import pkg.top\n",
        "top.py": "from .base import *\n",
        "other/__init__.py": "",
        "other/thing.py": "from ..top import y\n",
    })
    graph = import_graph(root)
    assert layer_violations(graph, "pkg", [["base"], ["top"]]) == [
        "pkg.base (layer 0) imports pkg.top (layer 1)"]
    assert layer_violations(graph, "pkg", [["base", "top"]]) == [
        "pkg.base (layer 0) imports pkg.top (layer 0)", "pkg.top (layer 0) imports pkg.base (layer 0)"]
    assert package_violations(graph, ["pkg.other", "pkg.top"]) == ["pkg.other.thing imports pkg.top, a later package"]


def test_no_cycle_in_an_acyclic_synthetic_package(tmp_path):
    root = _write(tmp_path / "pkg", {"__init__.py": "from .b import y\n", "a.py": "x = 1\n",
                                     "b.py": "from .a import x\ny = x\n"})
    assert find_cycles(import_graph(root)) == []
