"""Rooms that write PokerStars' text format under their own name: Run It Once Poker and
PokerMaster.

Their hands are PokerStars hands with other first lines, so each hand's lines are rewritten into
PokerStars' lines one for one (the file's line numbers stay right) and read by
:mod:`.pokerstars`; what PokerStars never writes is read here:

- the header ``Run It Once Poker Hand #N:`` / ``PokerMaster Hand #N:``, stakes written with a
  currency sign only (``(€0.10/€0.20)``: the sign names the currency), and PokerMaster's
  ``Omaha Pot Limit`` for its 5-card game too (the hole cards dealt say how many);
- ``Table ID '45238934' 6-Max``, seats marked ``- Sitting Out``, PokerMaster's ``# {json}`` line;
- Run It Once's splash-the-pot money, ``STP added: €0.80``: money no player paid, in the pot
  before the first action. It is dead money: the PHH hand carries it as a dead blind of ``p1``
  whose starting stack is raised by as much (``_added_to_pot`` names it), so the replay puts it
  in the first pot every player still in may win, p1's stack behind is the file's, and the EV
  counts it in p1's committed chips no more (:class:`~omaha_equity.hand_history.file_replay.PlayedHand`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from decimal import Decimal, InvalidOperation
from pathlib import Path

from ..errors import InputError
from .errors import HandHistoryError
from .phh import HandHistory
from .pokerstars import PokerStarsBlock, PokerStarsHand, parse_block
from .pokerstars_phh import to_session_hand
from .records import SessionHand
from .text_files import TextBlock, file_lines, split_blocks

_HEADER = re.compile(r"^(?P<room>Run It Once Poker|PokerMaster) Hand #(?P<hand_id>\d+):(?P<rest>.*)$")
_TABLE_ID = re.compile(r"^Table ID '(?P<table>[^']*)' (?P<max_seats>\d+)-Max (?P<rest>.*)$")
_STAKES = re.compile(r"\((?P<stakes>[^)]*)\)")
_STP = re.compile(r"^STP added: (?P<amount>[$€£]?[0-9][0-9,]*(?:\.[0-9]+)?)$")
_DEALT = re.compile(r"^Dealt to .*?\[(?P<cards>[^\]]*)\]$")
_SHOWS = re.compile(r"^(?P<name>[^:]+?) shows (?P<rest>\[.*)$")
ROOMS = {"Run It Once Poker": "runitonce", "PokerMaster": "pokermaster"}
_CURRENCY_CODES = {"€": "EUR", "$": "USD", "£": "GBP"}


def is_header(line: str) -> bool:
    """True for the first line of a Run It Once or PokerMaster hand."""
    return _HEADER.match(line) is not None


def room_of(line: str) -> str | None:
    """The room (``runitonce``, ``pokermaster``) whose hand begins with ``line``, else None."""
    match = _HEADER.match(line)
    return ROOMS[match.group("room")] if match else None


def header_hand_id(line: str) -> str | None:
    """The room's hand number from a hand's first line; None if it is not one."""
    match = _HEADER.match(line)
    return match.group("hand_id") if match else None


def _pokerstars_header(line: str, hole_count: int) -> str:
    """The header as PokerStars writes it: the currency code after the stakes, the 5-card game
    named."""
    match = _HEADER.match(line)
    assert match is not None
    rest = match.group("rest")
    stakes = _STAKES.search(rest)
    if stakes and not re.search(r"\b[A-Z]{3}\b", stakes.group("stakes")):
        code = next((code for sign, code in _CURRENCY_CODES.items() if sign in stakes.group("stakes")), None)
        if code:
            rest = rest[:stakes.end() - 1] + f" {code}" + rest[stakes.end() - 1:]
    if hole_count in (5, 6) and re.match(r"\s*Omaha ", rest):
        rest = re.sub(r"^\s*Omaha ", f" {hole_count} Card Omaha ", rest, count=1)
    return f"PokerStars Hand #{match.group('hand_id')}:{rest}"


def _translated(lines: tuple[str, ...]) -> tuple[list[str], str | None]:
    """The hand's lines as PokerStars writes them (one for one), and the STP amount's text."""
    hole_count = max((len(found.group("cards").split()) for line in lines if (found := _DEALT.match(line))),
                     default=0)
    out = [_pokerstars_header(lines[0], hole_count)]
    stp = None
    for line in lines[1:]:
        if table := _TABLE_ID.match(line):
            line = f"Table '{table.group('table')}' {table.group('max_seats')}-max {table.group('rest')}"
        elif line.startswith("Seat ") and line.endswith(" - Sitting Out"):
            line = line[:-len(" - Sitting Out")] + " is sitting out"
        elif stp_line := _STP.match(line):
            stp = stp_line.group("amount")
            line = ""
        elif shows := _SHOWS.match(line):
            line = f"{shows.group('name')}: shows {shows.group('rest')}"  # the room writes no colon
        elif line.startswith("# {"):
            line = ""  # PokerMaster's record of the table as JSON: nothing a replay needs
        out.append(line)
    return out, stp


def drop_checks_after_all_in(hand: PokerStarsHand) -> None:
    """Leave out the checks the room prints once the betting is over (every player in the hand
    but one, or all, all-in: Run It Once writes ``checks`` and ``checks and is all-in`` lines
    on the streets that follow)."""
    behind = {seat.name: seat.stack for seat in hand.seats}
    for post in hand.posts:
        behind[post.name] -= post.amount
    round_bets: dict[str, int] = {}
    street = "preflop"
    folded: set[str] = set()
    kept = []
    for action in hand.actions:
        if action.street != street:
            street, round_bets = action.street, {}
        if action.kind == "check":
            if sum(1 for name, chips in behind.items() if name not in folded and chips > 0) <= 1:
                continue
        elif action.kind == "fold":
            folded.add(action.name)
        elif action.kind in ("call", "bet"):
            behind[action.name] -= action.amount
            round_bets[action.name] = round_bets.get(action.name, 0) + action.amount
        else:
            behind[action.name] -= action.amount - round_bets.get(action.name, 0)
            round_bets[action.name] = action.amount
        kept.append(action)
    hand.actions = kept


def _chips(text: str, hand: PokerStarsHand, line_number: int) -> int:
    try:
        value = Decimal(text.lstrip("$€£").replace(",", "")) * (100 if hand.currency else 1)
    except InvalidOperation:
        value = Decimal("0.5")
    if value != value.to_integral_value() or value < 0:
        raise HandHistoryError(f"bad STP amount {text!r}: expected a whole number of cents",
                               source=hand.source, hand_id=hand.hand_id, line_number=line_number)
    return int(value)


def with_added_money(history: HandHistory, chips: int) -> HandHistory:
    """The hand with ``chips`` that no player paid added to the pot before the deal: a dead
    blind of p1, whose starting stack is raised by as much (``_added_to_pot``)."""
    count = history.player_count
    index = count - 1 if count == 2 else 0  # heads-up the forced-bet arrays are reverse-assigned
    dead = list(history.custom("_dead_blinds") or [0] * count)
    dead[index] += chips
    stacks = list(history.starting_stacks)
    stacks[0] += chips
    custom = dict(history.user_defined_fields)
    custom["_dead_blinds"] = dead
    custom["_added_to_pot"] = {"p1": chips}
    return history.replace(starting_stacks=tuple(stacks), user_defined_fields=custom)


def parse_room_block(block: TextBlock) -> SessionHand | HandHistoryError:
    """One hand of a Run It Once or PokerMaster file as a
    :class:`~omaha_equity.hand_history.records.SessionHand`, or the error it raised."""
    room = room_of(block.lines[0])
    if room is None:
        return HandHistoryError(f"text outside a hand: {block.lines[0]!r}: expected a 'Run It Once Poker Hand "
                                "#...' or 'PokerMaster Hand #...' line first", source=block.source,
                                line_number=block.first_line)
    lines, stp = _translated(block.lines)
    hand = parse_block(PokerStarsBlock(block.source, block.first_line, tuple(lines)))
    if isinstance(hand, HandHistoryError):
        return hand
    drop_checks_after_all_in(hand)
    try:
        session = to_session_hand(hand)
    except InputError as error:
        return HandHistoryError(str(error), source=block.source, hand_id=hand.hand_id,
                                line_number=hand.line_number)
    history = session.history
    custom = dict(history.user_defined_fields)
    custom["_source"] = room
    history = history.replace(user_defined_fields=custom)
    if stp is not None:
        stp_line = block.first_line + next(index for index, line in enumerate(block.lines) if _STP.match(line))
        try:
            chips = _chips(stp, hand, stp_line)
        except HandHistoryError as error:
            return error
        if chips:
            history = with_added_money(history, chips)
    return dataclasses.replace(session, format=room, history=history)


def read_room_items(path: Path) -> Iterator[SessionHand | HandHistoryError]:
    """Every hand of a Run It Once or PokerMaster file, parsed as it is read."""
    return read_hand_blocks(path, is_header, parse_room_block)


def read_hand_blocks(path: Path, is_header: Callable[[str], bool],
                     parse: Callable[[TextBlock], SessionHand | HandHistoryError]
                     ) -> Iterator[SessionHand | HandHistoryError]:
    """Every hand of a site's text file (a hand begins at a line ``is_header`` accepts), parsed
    by ``parse`` as it is read; a file that cannot be read is one error."""
    source = str(path)
    try:
        for block in split_blocks(file_lines(path), is_header, source):
            yield parse(block)
    except OSError as error:
        yield HandHistoryError(f"cannot read the file: {error.strerror}", source=source)


def site_hand_id(header: re.Pattern[str], block: TextBlock, expected: str) -> str | HandHistoryError:
    """The ``hand_id`` group of a site's header pattern on a block's first line, or the error
    "text outside a hand" naming the line the site's hands start with (``expected``, e.g.
    "'Poker Hand #...'")."""
    match = header.match(block.lines[0])
    if match is None:
        return HandHistoryError(f"text outside a hand: {block.lines[0]!r}: expected a {expected} line first",
                                source=block.source, line_number=block.first_line)
    return match.group("hand_id")


def read_site_lines(block: TextBlock, hand_id: str, lines: list[str]) -> PokerStarsHand | HandHistoryError:
    """A site's hand rewritten into PokerStars' lines one for one (``lines``: the file's line
    numbers stay right), read by :mod:`.pokerstars` under the site's own hand id; or the error it
    raised, naming that hand id."""
    hand = parse_block(PokerStarsBlock(block.source, block.first_line, tuple(lines)))
    if isinstance(hand, HandHistoryError):
        return type(hand)(hand.reason, source=hand.source, hand_id=hand_id, line_number=hand.line_number)
    hand.hand_id = hand_id
    return hand


def site_session(hand: PokerStarsHand, hand_id: str, site: str, source: str,
                 site_fields: dict[str, object] | None = None) -> SessionHand | HandHistoryError:
    """A hand read in PokerStars' lines as a session hand of ``site``: the file's own hand id,
    the PHH record marked with the site (``_source``) and the site's rules (``site_fields``,
    PHH user-defined fields such as ``_odd_chip``); or the error its conversion raised, at the
    hand's line."""
    try:
        session = to_session_hand(hand)
    except InputError as error:
        return HandHistoryError(str(error), source=source, hand_id=hand_id, line_number=hand.line_number)
    custom = dict(session.history.user_defined_fields)
    custom["_source"] = site
    custom.update(site_fields or {})
    history = session.history.replace(user_defined_fields=custom)
    return dataclasses.replace(session, hand_id=hand_id, format=site, history=history)
