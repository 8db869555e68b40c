"""The README and the pages under docs/ are true: their commands run, their links resolve, the
command-line reference is what the commands' ``--help`` says now, and the site builds strictly.

Commands are the lines starting ``omaha-equity`` (or ``$ omaha-equity``) in ``console`` code
blocks. A block that cannot run as written (an install, a cluster, a placeholder such as
``spots.csv`` standing for the reader's file) has a ``<!-- not run: REASON -->`` line just before
it. Commands run in process with click's CliRunner, in a temporary folder holding copies of
``examples/`` and ``tests/data/``, as the docs' paths expect. Where a ``$`` command is followed by
its complete output (no line ending ``...``, which marks a cut), the output must match.
"""

from __future__ import annotations

import importlib.util
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass

import pytest
from click.testing import CliRunner

from omaha_equity.cli import main

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_RUN = "<!-- not run"
# What varies from run to run in a command's output: the seconds a batch took.
VARYING = [(re.compile(r" in [0-9.]+ s;"), " in TIME s;")]


@dataclass(frozen=True)
class Command:
    page: str
    line: int
    arguments: tuple[str, ...]
    stdin: str | None
    expected: str | None  # the output shown after a ``$`` command, when complete

    def __str__(self) -> str:
        return f"{self.page}:{self.line}"


@dataclass(frozen=True)
class Block:
    language: str
    first_line: int  # 1-based line of the block's first content line
    lines: tuple[str, ...]
    skipped: bool


def code_blocks(path: pathlib.Path) -> list[Block]:
    """The fenced code blocks of a Markdown file, each with whether a not-run marker precedes it."""
    blocks, lines = [], path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        if lines[index].startswith("```"):
            language = lines[index][3:].strip()
            previous = next((line for line in reversed(lines[:index]) if line.strip()), "")
            end = next(i for i in range(index + 1, len(lines)) if lines[i].startswith("```"))
            blocks.append(Block(language, index + 2, tuple(lines[index + 1:end]), previous.startswith(NOT_RUN)))
            index = end
        index += 1
    return blocks


def parse_command(text: str) -> tuple[tuple[str, ...], str | None] | None:
    """The arguments after ``omaha-equity`` (and the standard input an ``echo ... |`` gives), or
    None when the line is not an omaha-equity command. A ``> FILE`` redirection is dropped."""
    words = shlex.split(text, comments=True)
    stdin = None
    if words[:1] == ["echo"] and "|" in words:
        bar = words.index("|")
        stdin = " ".join(words[1:bar]) + "\n"
        words = words[bar + 1:]
    if words[:1] != ["omaha-equity"]:
        return None
    if ">" in words:
        words = words[:words.index(">")]
    return tuple(words[1:]), stdin


def commands_of(path: pathlib.Path) -> list[Command | tuple[str, str]]:
    """Every command of a page's console blocks; skipped blocks' commands as (where, reason)."""
    found: list[Command | tuple[str, str]] = []
    name = str(path.relative_to(ROOT))
    for block in code_blocks(path):
        if block.language != "console":
            continue
        lines = list(block.lines)
        index = 0
        while index < len(lines):
            number, text = block.first_line + index, lines[index]
            while text.endswith("\\") and index + 1 < len(lines):
                index += 1
                text = text[:-1] + " " + lines[index].strip()
            index += 1
            prompt = text.startswith("$ ")
            parsed = parse_command(text[2:] if prompt else text)
            if parsed is None:
                continue
            if block.skipped:
                found.append((f"{name}:{number}", "marked not run"))
                continue
            output = []
            while prompt and index < len(lines) and not lines[index].startswith("$ "):
                output.append(lines[index])
                index += 1
            elided = any(line.rstrip().endswith("...") for line in output)  # "..." marks a cut
            expected = "\n".join(output) if output and not elided else None
            found.append(Command(name, number, parsed[0], parsed[1], expected))
    return found


ALL_COMMANDS = [command for page in PAGES for command in commands_of(page)]
RUNNABLE = [command for command in ALL_COMMANDS if isinstance(command, Command)]


def test_the_docs_show_commands_and_mark_the_ones_not_run():
    assert len(RUNNABLE) >= 40  # the README's tour alone has 10
    skipped = [where for where in ALL_COMMANDS if not isinstance(where, Command)]
    assert any(where.startswith("docs/recipes.md") for where, _ in skipped)  # spots.csv, a placeholder


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> pathlib.Path:
    """A temporary folder with the files the docs' commands read (examples/, tests/data/)."""
    base = tmp_path_factory.mktemp("docs-commands")
    for name in ("examples", "tests/data"):
        shutil.copytree(ROOT / name, base / name)
    return base


def normalize(text: str) -> str:
    for pattern, replacement in VARYING:
        text = pattern.sub(replacement, text)
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


@pytest.mark.parametrize("command", RUNNABLE, ids=str)
def test_documented_command_runs(command: Command, folder: pathlib.Path, monkeypatch):
    monkeypatch.chdir(folder)
    arguments = list(command.arguments)
    if arguments[0] == "batch" and not {"--workers", "--scheduler", "--scheduler-file"} & set(arguments):
        arguments += ["--workers", "1"]  # in this process: same rows by design, no worker start-up
    result = CliRunner().invoke(main, arguments, input=command.stdin, catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    # A documented failure (a bad row, a bad card) says so in one line; anything else must succeed.
    assert result.exit_code == 0 or "Error: " in result.output or " failed" in result.output, result.output
    if command.expected is not None:
        assert normalize(result.output) == normalize(command.expected)


LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
INLINE_CODE = re.compile(r"`[^`]*`")


def prose(path: pathlib.Path) -> str:
    """A page without its code blocks and inline code, where links are not links."""
    text, inside = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = not inside
        elif not inside:
            text.append(INLINE_CODE.sub("", line))
    return "\n".join(text)


def anchors(path: pathlib.Path) -> set[str]:
    """The heading anchors of a page as GitHub and MkDocs (Python-Markdown's toc) make them."""
    found = set()
    for line in prose(path).splitlines() + [line for line in path.read_text(encoding="utf-8").splitlines()
                                            if line.startswith("#") and "`" in line]:
        match = re.match(r"(#{1,6})\s+(.*)", line)
        if match:
            title = match.group(2).replace("`", "").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))  # GitHub
            found.add(re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", title)).strip("-"))  # MkDocs
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_relative_links_resolve(page: pathlib.Path):
    broken = []
    for target in LINK.findall(prose(page)):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        file, _, anchor = target.partition("#")
        destination = (page.parent / file).resolve() if file else page
        if not destination.exists():
            broken.append(f"{target}: no such file")
        elif anchor and anchor not in anchors(destination):
            broken.append(f"{target}: no such anchor")
    assert not broken, f"{page.name}: {broken}"


def load_cli_docs():
    spec = importlib.util.spec_from_file_location("cli_docs", ROOT / "scripts" / "cli_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_reference_is_what_the_help_says_now():
    cli_docs = load_cli_docs()
    assert (ROOT / "docs" / "cli.md").read_text(encoding="utf-8") == cli_docs.render(), (
        "docs/cli.md is out of date: run python scripts/cli_docs.py")


def test_cli_reference_lists_every_command_and_option():
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for name, command in main.commands.items():
        assert f"## omaha-equity {name}\n" in page
        for option in command.params:
            # a hidden option (ev's old name --jobs) is left out of --help, and so of the page
            for flag in option.opts if option.param_type_name == "option" and not option.hidden else ():
                assert flag in page, (name, flag)


def test_docs_site_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs", reason="the docs extra is not installed: pip install -e '.[docs]'")
    pytest.importorskip("material", reason="the docs extra is not installed: pip install -e '.[docs]'")
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                            str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
                           capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, timeout=120)
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "site" / "cli" / "index.html").exists()
    assert (tmp_path / "site" / "rules" / "index.html").exists()


def test_changelog_has_the_package_version():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {re.escape(project['version'])}\b", changelog, re.MULTILINE)


def test_the_sdist_carries_the_docs_and_the_wheel_the_rankings():
    import tomllib

    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
    assert "recursive-include docs *.md" in manifest and "CHANGELOG.md" in manifest
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert setuptools["package-data"]["omaha_equity.rankings"] == ["data/*.npz"]
    assert setuptools["package-data"]["omaha_equity"] == ["py.typed"]  # the annotations ship (PEP 561)
    assert (ROOT / "omaha_equity" / "py.typed").exists()
    assert len(list((ROOT / "omaha_equity" / "rankings" / "data").glob("*.npz"))) == 12
