"""Write docs/cli.md, the command-line reference, from the commands' own ``--help``.

The page is generated so that it cannot drift from the code: ``tests/test_docs.py`` fails when
docs/cli.md differs from what this script writes now. After changing a command, an option or a
help text, run ``python scripts/cli_docs.py`` (``--check`` only compares, exit code 1 if stale).
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import click

from omaha_equity.cli import main as omaha_equity

PAGE = pathlib.Path(__file__).resolve().parent.parent / "docs" / "cli.md"
WIDTH = 80  # fixed, so the page does not depend on the terminal it was written from

INTRODUCTION = """\
# Command line reference

Every command of `omaha-equity` with all its options, as its `--help` prints them. This page is
written by `python scripts/cli_docs.py` from the commands themselves, and a test fails when it is
out of date. What the commands compute and print is explained in [usage.md](usage.md),
[statistics.md](statistics.md) and the pages on each topic; exit codes are in
[errors.md](errors.md). `python -m omaha_equity ...` does the same as `omaha-equity ...`.
"""


def help_text(command: click.Command, path: list[str], parent: click.Context | None = None) -> str:
    """The ``--help`` text of ``command``, as typed at ``path`` (e.g. ``["omaha-equity", "calc"]``)."""
    settings = {**command.context_settings, "terminal_width": WIDTH, "max_content_width": WIDTH}
    context = click.Context(command, info_name=path[-1], parent=parent, **settings)
    return command.get_help(context)


def render() -> str:
    """The whole page: the group's help, then each command's, in alphabetical order."""
    settings = {**omaha_equity.context_settings, "terminal_width": WIDTH, "max_content_width": WIDTH}
    root = click.Context(omaha_equity, info_name="omaha-equity", **settings)
    sections = [INTRODUCTION, "## omaha-equity\n", "```text\n" + help_text(omaha_equity, ["omaha-equity"]) + "\n```\n"]
    for name in sorted(omaha_equity.list_commands(root)):
        command = omaha_equity.get_command(root, name)
        sections.append(f"## omaha-equity {name}\n")
        sections.append("```text\n" + help_text(command, ["omaha-equity", name], parent=root) + "\n```\n")
    return "\n".join(sections)


def main(arguments: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit code 1 when docs/cli.md is stale")
    options = parser.parse_args(arguments)
    text = render()
    if options.check:
        current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
        if current != text:
            print(f"{PAGE} is out of date: run python scripts/cli_docs.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
