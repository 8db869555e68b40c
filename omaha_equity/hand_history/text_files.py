"""Text hand-history files of any site: their lines decoded, and split into one block per hand.

Every site's reader (:mod:`.pokerstars_rooms`, :mod:`.ggpoker`, ...) splits its files here: a
hand begins at a line the site's ``is_header`` accepts and runs to the next one. Blank lines
and the separator lines some sites print between hands (``**** **** ****``) end a hand's text;
a hand keeps its own blank lines as empty strings, so its line ``k`` is the file's line
``first_line + k``. Text before the first hand comes back as a block of its own, so a reader
reports it instead of dropping it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

_SEPARATOR = re.compile(r"^[*\s]+$")


@dataclass(frozen=True)
class TextBlock:
    """The lines of one hand (or of text outside any hand), not parsed yet.

    Attributes
    ----------
    source : str
        The file.
    first_line : int
        The 1-based file line of ``lines[0]``.
    lines : tuple of str
        The hand's lines, stripped, blank lines inside the hand kept as ``""``.
    """

    source: str
    first_line: int
    lines: tuple[str, ...]


def decode_line(raw: bytes) -> str:
    """A line as text: UTF-8, else Windows-1252 as Latin-1 with the euro sign (byte 0x80, the
    one byte of Windows-1252 these files use beyond Latin-1) read as ``€``."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1").replace("\x80", "€")


def file_lines(path: Path) -> Iterator[str]:
    """The decoded lines of a file, read as they come (:func:`decode_line`)."""
    with path.open("rb") as stream:
        for raw in stream:
            yield decode_line(raw)


def first_text_line(path: Path) -> str | None:
    """The first non-blank line of a file (a byte-order mark dropped), None if it has none.

    Raises
    ------
    OSError
        The file cannot be read.
    """
    for line in file_lines(path):
        text = line.strip().lstrip("\ufeff").strip()
        if text:
            return text
    return None


def split_blocks(lines: Iterable[str], is_header: Callable[[str], bool], source: str) -> Iterator[TextBlock]:
    """The hands of a file's lines, one :class:`TextBlock` each, as soon as each is read.

    Parameters
    ----------
    lines : iterable of str
        The file's lines, decoded.
    is_header : callable
        True for a hand's first line.
    source : str
        The file's name, kept in each block.
    """
    current: list[str] = []
    first = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.strip().lstrip("\ufeff")
        if is_header(line):
            if current:
                yield _block(source, first, current)
            current, first = [line], number
        elif current:
            current.append("" if _SEPARATOR.match(line) else line)
        elif line and not _SEPARATOR.match(line):
            current, first = [line], number
    if current:
        yield _block(source, first, current)


def _block(source: str, first_line: int, lines: list[str]) -> TextBlock:
    while lines and not lines[-1]:
        lines.pop()
    return TextBlock(source, first_line, tuple(lines))
