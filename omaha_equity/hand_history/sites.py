"""Which site wrote a text hand-history file, told from its first line, and that site's reader.

PokerStars files are read by :mod:`.pokerstars` (streamed as blocks, parsed by
:mod:`.sessions`); every other site's reader hands on parsed hands. ``--site`` forces one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from . import bovada, ggpoker, pokerstars, pokerstars_rooms, winamax
from .errors import HandHistoryError
from .records import SessionHand

SiteItems = Iterator[SessionHand | HandHistoryError]

# site -> (is its hands' first line, reader of a file's hands); PokerStars is read apart.
_READERS: dict[str, tuple[Callable[[str], bool], Callable[[Path], SiteItems]]] = {
    "runitonce": (lambda line: pokerstars_rooms.room_of(line) == "runitonce", pokerstars_rooms.read_room_items),
    "pokermaster": (lambda line: pokerstars_rooms.room_of(line) == "pokermaster", pokerstars_rooms.read_room_items),
    "ggpoker": (ggpoker.is_header, ggpoker.read_ggpoker_items),
    "winamax": (winamax.is_header, winamax.read_winamax_items),
    "bovada": (bovada.is_header, bovada.read_bovada_items),
}
SITES = ("pokerstars", *_READERS)


def detect_site(first_line: str) -> str | None:
    """The site whose hands begin with ``first_line``; None when no reader knows it."""
    if pokerstars.is_header(first_line):
        return "pokerstars"
    for site, (is_header, _read) in _READERS.items():
        if is_header(first_line):
            return site
    return None


def read_site_items(path: Path, site: str) -> SiteItems:
    """The hands of a file of ``site`` (not PokerStars), parsed as they are read."""
    return _READERS[site][1](path)
