"""The session of ``omaha-equity shell``: every command of the program, typed line by line in
one process, so the kernels and tables load once and a small query answers in milliseconds.

A line is split as a POSIX shell splits words (``shlex``: quotes, backslashes) and run through
the program's own command group, so the syntax, the output, the usage errors and the exit codes
are those of the command line; a failing command prints its one ``Error: ...`` line and the
session goes on. A line may start with the program's name (``omaha-equity calc ...``, pasted
from the docs). ``help`` and ``help COMMAND`` print the help, ``exit``, ``quit`` or Ctrl-D
leave, ``#`` starts a comment. Ctrl-C stops the running command (``Aborted!``), not the
session; at the prompt it clears the line.

In a terminal the session reads lines with prompt_toolkit (the optional extra
``omaha-equity[shell]``): line editing, a history kept in the cache folder
(``cache.cache_dir``) and completion of command names, options and their choices. Reading from
a pipe or a file (``omaha-equity shell < commands.txt``) it needs no extra and prints no
prompt; it ends at the end of the input (or on Ctrl-C between commands) with the exit code of
the last command that failed, 0 when none did.

This is the CLI layer (it drives click); the library never imports it.
"""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import click

from ..errors import ClosedPipeError, OutputError
from ..runtime.cache import cache_root_state
from .errors import EXIT_INTERRUPTED, EXIT_USAGE, say_interrupted

PROGRAM_NAME = "omaha-equity"
PROMPT = "omaha-equity> "
LEAVE_WORDS = frozenset({"exit", "quit"})
HELP_WORD = "help"
SHELL_COMMAND = "shell"
HISTORY_FILE_NAME = "shell-history"
INSTALL_HINT = "the interactive shell needs prompt_toolkit: pip install 'omaha-equity[shell]'"

# A line with none of these splits at its blanks exactly as shlex splits it (no quotes, escapes or
# comments; only the ASCII blanks shlex splits at): str.split is about 30 times faster.
_NOT_PLAIN = re.compile(r"[^\x20-\x7e\t\r\n]|['\"\\#]")

# Runs one command line's words through the program's command group; returns its exit code and
# reports its own errors (cli.errors.OneLineErrors gives the group its one-line error handling).
RunCommand = Callable[[list[str]], int]

# Answers one command line's words without the command group when it can (the text to print),
# else None (``cli.quick_calc.quick_calc``).
QuickCommand = Callable[[list[str]], "str | None"]


class _Leave(Exception):
    """``exit``/``quit`` was typed."""


def command_words(line: str) -> list[str]:
    """The words of one typed line, as a POSIX shell splits them, without a leading program name;
    ``[]`` for a blank line or a comment. ``help [COMMAND]`` becomes ``[COMMAND] --help``.

    Raises
    ------
    ValueError
        Unbalanced quotes (``No closing quotation``) or a trailing backslash.
    """
    words = shlex.split(line, comments=True) if _NOT_PLAIN.search(line) else line.split()
    if words and words[0] == PROGRAM_NAME:
        words = words[1:]
    if words and words[0] == HELP_WORD:
        words = [*words[1:], "--help"]
    return words


class Session:
    """One shell session over ``group`` (the program's click group).

    Parameters
    ----------
    group : click.Group
        The commands (used for completion and to refuse a nested ``shell``).
    run_command : callable
        Runs one line's words (see :data:`RunCommand`).
    quick_command : callable, optional
        Tried first on each line (see :data:`QuickCommand`): the text it returns is printed as
        the command would print it.
    """

    def __init__(self, group: click.Group, run_command: RunCommand, quick_command: QuickCommand | None = None):
        self.group = group
        self.run_command = run_command
        self.quick_command = quick_command
        self.last_failure = 0

    def run_line(self, line: str) -> int:
        """Run one typed line; its exit code (0 for a blank line).

        Raises
        ------
        _Leave
            The line was ``exit`` or ``quit``.
        """
        try:
            words = command_words(line)
        except ValueError as error:
            return self._fail(f"Error: cannot split the line: {error}", EXIT_USAGE)
        if not words:
            return 0
        if words[0] in LEAVE_WORDS and len(words) == 1:
            raise _Leave
        if words[0] == SHELL_COMMAND:
            return self._fail("Error: already in the shell", EXIT_USAGE)
        if self.quick_command is not None:
            try:
                if self._answered_quickly(words):
                    return 0
            except KeyboardInterrupt:  # Ctrl-C in a quick answer stops it as it stops any command
                say_interrupted()
                self.last_failure = EXIT_INTERRUPTED
                return EXIT_INTERRUPTED
        code = self.run_command(words)
        if code:
            self.last_failure = code
        return code

    def _answered_quickly(self, words: list[str]) -> bool:
        """Whether the quick command answered the line and its text was printed. Printing that
        fails (a closed pipe, a full disk) is left to the command group, which runs the line
        again and meets the same fault: it says so and picks the exit code, as for any command."""
        assert self.quick_command is not None
        text = self.quick_command(words)
        if text is None:
            return False
        try:
            out = sys.stdout
            if out is None:
                click.echo(text)
            else:  # plain text (no styles to strip): written as click.echo writes it, at a tenth of its cost
                out.write(f"{text}\n")
                out.flush()
        except (OSError, OutputError, ClosedPipeError):
            return False
        return True

    def _fail(self, message: str, code: int) -> int:
        click.echo(message, err=True)
        self.last_failure = code
        return code

    def run_lines(self, lines: Iterable[str]) -> int:
        """Run every line (a script); the exit code of the last command that failed, else 0."""
        try:
            for line in lines:
                try:
                    self.run_line(line)
                except _Leave:
                    break
        except KeyboardInterrupt:  # Ctrl-C between commands (while reading): the end of the script
            return EXIT_INTERRUPTED
        return self.last_failure

    def run_interactive(self, prompt_session) -> int:
        """Read lines from a prompt_toolkit ``PromptSession`` until ``exit``, ``quit`` or Ctrl-D;
        Ctrl-C at the prompt clears the line. Returns 0."""
        while True:
            try:
                line = prompt_session.prompt(PROMPT)
            except KeyboardInterrupt:
                continue
            except EOFError:
                return 0
            try:
                self.run_line(line)
            except _Leave:
                return 0


def script_lines(stream) -> Iterator[str]:
    """The lines of ``stream``, read one at a time (each runs before the next is read)."""
    while True:
        line = stream.readline()
        if not line:
            return
        yield line


def history_path() -> Path | None:
    """The shell's history file in the cache folder, or None when that folder cannot be trusted
    (``cache.cache_root_state``: the history then lasts for the session)."""
    root, _ = cache_root_state()
    return None if root is None else root / HISTORY_FILE_NAME


def prompt_session(group: click.Group, input=None, output=None):
    """A prompt_toolkit ``PromptSession`` with the history file and completion of ``group``'s
    commands, options and choices. ``input``/``output``: prompt_toolkit's (tests pass a pipe).

    Raises
    ------
    ModuleNotFoundError
        prompt_toolkit is not installed (the ``shell`` extra).
    """
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    path = history_path()
    history = InMemoryHistory() if path is None else FileHistory(str(path))
    return PromptSession(history=history, completer=_completer(group), complete_while_typing=False,
                         input=input, output=output)


def completions(group: click.Group, words: list[str], current: str) -> list[str]:
    """What may complete ``current``, the word being typed after ``words``: a command name first,
    then the command's options, and after an option with choices (``--game``, ``--format``),
    its choices. Sorted; those starting with ``current``."""
    words = words[1:] if words[:1] == [PROGRAM_NAME] else words
    if not words:
        candidates = [*_commands(group), HELP_WORD, *sorted(LEAVE_WORDS)]
    else:
        command = group.get_command(None, words[0]) if words[0] != HELP_WORD else None
        if command is None:
            candidates = _commands(group) if words == [HELP_WORD] else []
        else:
            candidates = _option_completions(command, words[-1] if len(words) > 1 else None, current)
    return sorted(candidate for candidate in set(candidates) if candidate.startswith(current))


def _commands(group: click.Group) -> list[str]:
    """The commands a session runs (all but ``shell`` itself)."""
    return [name for name in group.list_commands(None) if name != SHELL_COMMAND]


def _option_completions(command: click.Command, previous: str | None, current: str) -> list[str]:
    options = [parameter for parameter in command.params if isinstance(parameter, click.Option)]
    for option in options:
        if previous in option.opts and not option.is_flag and isinstance(option.type, click.Choice):
            return [str(choice) for choice in option.type.choices]
    if current.startswith("-"):
        return [name for option in options for name in option.opts + option.secondary_opts] + ["--help"]
    return []


def _completer(group: click.Group):
    from prompt_toolkit.completion import Completer, Completion

    class CommandCompleter(Completer):
        """Completion from the click group (:func:`completions`)."""

        def get_completions(self, document, complete_event):
            text = document.text_before_cursor
            try:
                words = shlex.split(text)
            except ValueError:  # inside an open quote: nothing to offer
                return
            current = "" if not text or text[-1].isspace() else words.pop()
            for candidate in completions(group, words, current):
                yield Completion(candidate, start_position=-len(current))

    return CommandCompleter()


def run_shell(group: click.Group, run_command: RunCommand, interactive: bool | None = None,
              quick_command: QuickCommand | None = None) -> int:
    """The whole session: interactive when standard input is a terminal (or ``interactive``),
    else the lines of standard input as a script. Returns the session's exit code.
    ``quick_command``: see :class:`Session` (the program passes ``cli.quick_calc.quick_calc``).

    Raises
    ------
    click.ClickException
        Interactive, and prompt_toolkit is not installed (:data:`INSTALL_HINT`).
    """
    session = Session(group, run_command, quick_command)
    if interactive is None:
        interactive = sys.stdin is not None and sys.stdin.isatty()
    if not interactive:
        return session.run_lines(script_lines(sys.stdin)) if sys.stdin is not None else 0
    try:
        prompts = prompt_session(group)
    except ModuleNotFoundError as error:
        if error.name != "prompt_toolkit":
            raise
        raise click.ClickException(INSTALL_HINT) from None
    return session.run_interactive(prompts)
