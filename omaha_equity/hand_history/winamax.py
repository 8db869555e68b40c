"""Winamax text hand histories (2010 to 2021 layouts): read through PokerStars' reader.

Each hand's lines are rewritten into PokerStars' lines one for one (the file's line numbers stay
right), read by :mod:`.pokerstars` and turned into PHH by :mod:`.pokerstars_phh`. What Winamax
writes its own way:

- the header ``Winamax Poker - CashGame - HandId: #270777-163-1284847433 - Omaha pot limit
  (0.02€/0.05€)`` (``Omaha``, ``Omaha5``, ``Omaha8``, ``5 Card Omaha Hi/Lo``; play money has no
  currency sign and counts in hundredths, under the ISO code ``XXX``, "no currency");
- ``Table: 'Name' 9-max (real money)`` (2021: no colon), seats ``Seat 1: Name (4.18€)``, names
  without a colon before the verb, amounts with ``€`` after them, ``*** ANTE/BLINDS ***``,
  ``*** FLOP ***: [...]``, ``Board: [...]``, ``| No rake``;
- seats of players not in the hand (they post nothing, are dealt nothing, never act: left
  out);
- ``posts big blind X out of position`` (a live big blind of a player coming in), ``posts
  small blind X out of position`` (dead money);
- a ``raises X to Y`` line among the blinds (2014): the player posts the small and big blind
  (``Y``, the part above the big blind dead); his ``posts small blind`` line after it is dead
  money too (the pot the summary states says so);
- no uncalled-bet line: an unmatched bet stays in ``Total pot`` and its owner ``collected`` it
  (the check against the file compares pots won and chips returned together);
- hi/lo wins ``collected X from pot (HI)`` / ``(LO)``, side pots ``from side pot 1``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from .errors import HandHistoryError
from .pokerstars_rooms import read_hand_blocks, read_site_lines, site_hand_id, site_session
from .records import SessionHand
from .text_files import TextBlock

_HEADER = re.compile(r"^Winamax Poker - (?P<kind>[^-]+?) - HandId: #(?P<hand_id>[0-9-]+) - (?P<rest>.*)$")
_GAME = re.compile(r"^(?P<game>5 Card Omaha Hi/Lo|Omaha5|Omaha8|Omaha) (?P<structure>pot limit|no limit|limit)\s*"
                   r"\((?P<stakes>[^)]*)\)(?P<rest>.*)$")
_GAMES = {"5 Card Omaha Hi/Lo": "5 Card Omaha Hi/Lo", "Omaha5": "5 Card Omaha", "Omaha8": "Omaha Hi/Lo",
          "Omaha": "Omaha"}
_STRUCTURES = {"pot limit": "Pot Limit", "no limit": "No Limit", "limit": "Limit"}
_EURO_AMOUNT = re.compile(r"(?<![\w.])([0-9][0-9,]*(?:\.[0-9]+)?)€")
_TABLE = re.compile(r"^Table:? '(?P<table>[^']*)' (?P<max_seats>\d+)-max .*?(?P<button>Seat #\d+ is the button)$")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>[€$]?[0-9][0-9,.]*)\)(?P<rest>.*)$")
_BLIND_RAISE = re.compile(r"^raises (?P<by>\S+) to (?P<to>\S+)$")
_DEAD_SMALL_BLIND = re.compile(r"^posts small blind (?P<amount>\S+) out of position$")


def is_header(line: str) -> bool:
    """True for a Winamax hand's first line."""
    return _HEADER.match(line) is not None


def _header(line: str) -> str:
    match = _HEADER.match(line)
    assert match is not None
    digits = re.sub(r"\D", "", match.group("hand_id"))
    game = _GAME.match(match.group("rest"))
    if game is None:
        return f"PokerStars Hand #{digits}: {match.group('rest')}"  # the reader names it: not Omaha
    stakes = game.group("stakes")
    code = "EUR" if "€" in stakes else "XXX"
    stakes = _EURO_AMOUNT.sub(r"€\1", stakes)
    return (f"PokerStars Hand #{digits}: {_GAMES[game.group('game')]} {_STRUCTURES[game.group('structure')]} "
            f"({stakes} {code}){game.group('rest')}")


def _translated(lines: tuple[str, ...]) -> list[str]:
    out = [_header(lines[0])]
    names: list[str] = []
    blinds_raised: set[str] = set()
    section = ""
    for line in lines[1:]:
        line = _EURO_AMOUNT.sub(r"€\1", line)
        if line.startswith("*** "):
            section = line
            if line.startswith("*** ANTE/BLINDS"):
                line = ""
            else:
                line = line.replace("***:", "***")
            out.append(line)
            continue
        if table := _TABLE.match(line):
            line = f"Table '{table.group('table')}' {table.group('max_seats')}-max {table.group('button')}"
        elif (seat := _SEAT.match(line)) and not section:
            names.append(seat.group("name"))
            # Winamax lists every seated player, in the hand or not: a seat that posts nothing,
            # is dealt nothing and never acts is left out, as PokerStars' sitting-out seats are
            line = (f"Seat {seat.group('seat')}: {seat.group('name')} ({seat.group('stack')} in chips)"
                    f"{seat.group('rest')} is sitting out")
        elif line.startswith("Board: "):
            line = "Board " + line[len("Board: "):]
        elif line.endswith("| No rake"):
            line = line[:-len("| No rake")] + "| Rake 0"
        else:
            name = next((name for name in sorted(names, key=len, reverse=True) if line.startswith(name + " ")), None)
            if name is not None:
                verb = line[len(name) + 1:]
                verb = re.sub(r" from (pot|main pot|side pot \d+) \((?:HI|LO)\)$", r" from \1", verb)
                verb = re.sub(r" from side pot (\d+)$", r" from side pot-\1", verb)
                if section.startswith("*** ANTE/BLINDS") and (raised := _BLIND_RAISE.match(verb)):
                    verb = f"posts small & big blinds {raised.group('to')}"
                    blinds_raised.add(name)
                elif dead := _DEAD_SMALL_BLIND.match(verb):
                    verb = f"posts the ante {dead.group('amount')}"
                elif verb.startswith("posts small blind ") and name in blinds_raised:
                    verb = "posts the ante " + verb[len("posts small blind "):]
                elif verb.endswith(" out of position"):
                    verb = verb[:-len(" out of position")]
                if not verb.startswith(("collected ", "shows ")) or verb.startswith("shows ["):
                    line = f"{name}: {verb}"
                else:
                    line = f"{name} {verb}"
        out.append(line)
    return out


def parse_winamax_block(block: TextBlock) -> SessionHand | HandHistoryError:
    """One Winamax hand as a :class:`~omaha_equity.hand_history.records.SessionHand`, or the
    error it raised."""
    hand_id = site_hand_id(_HEADER, block, "'Winamax Poker - ...'")
    if isinstance(hand_id, HandHistoryError):
        return hand_id
    hand = read_site_lines(block, hand_id, _translated(block.lines))
    if isinstance(hand, HandHistoryError):
        return hand
    return site_session(hand, hand_id, "winamax", block.source)


def read_winamax_items(path: Path) -> Iterator[SessionHand | HandHistoryError]:
    """Every hand of a Winamax file, parsed as it is read."""
    return read_hand_blocks(path, is_header, parse_winamax_block)
