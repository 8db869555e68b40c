"""GGPoker text hand histories (its client's export): read through PokerStars' reader.

GGPoker writes PokerStars' layout with its own first line and a few lines of its own. Each
hand's lines are rewritten into PokerStars' lines one for one (so the file's line numbers stay
right), read by :mod:`.pokerstars` and turned into PHH by :mod:`.pokerstars_phh`; what is
GGPoker's own is read here:

- the header ``Poker Hand #OM232657303: PLO ($2/$5) - ...`` (``OM`` cash, ``RC`` Rush & Cash,
  ``TM`` tournament; ``PLO``, ``PLO-5``, ``PLO-6``, ``Omaha Pot Limit``; tournaments
  ``... Omaha Pot Limit - Level4 (90/180)``); the hand keeps its own id with the letters;
- ``straddle $X``: the player's new total bet, his blind or earlier straddle included (the
  files say so: the big blind's ``straddle $100`` makes his bet 100, not 150; the button's
  second line ``straddle $15.35 and is all-in`` is his whole stack, most of it returned);
- ``posts missed blind $X``: dead money (written as that player's ante, which PHH and the
  replay treat as dead: it makes no pot level);
- ``Cash Drop to Pot : total $X``: money no player paid, carried as Run It Once's splash money
  is (:func:`.pokerstars_rooms.with_added_money`);
- the summary ``Total pot $X | Rake $R | Jackpot $J | Bingo $B``: the jackpot and bingo fees are
  taken from the pot beside the rake, so the replay takes ``R + J + B``; 2020 cash files write
  ``Total pot $X`` alone, and the fee is what the pot left after what was collected;
- run it twice or three times (``FIRST``/``SECOND``/``THIRD`` boards and showdowns, one
  ``collected`` per run), shows before the board is run out, ``Dealt to`` lines without cards:
  PokerStars' reader reads them.

All-in insurance and EV Cashout settle money between GGPoker and a player, outside the pot: the
pot is played and collected as if they were not there (the replay checks it so), and what they
paid or received is kept apart, per player (PHH ``_outside_pot``: ``kind``, ``paid``,
``received``), for the reports. Their lines, as GGPoker writes them (format facts from public
parsers' test files and notes: erikfastermann/poker-toolkit's GGPoker parser, the fpdb-3
regression file ``PLO-6max-USD-0.50-1.00-202004.txt`` quoted in a GGPoker format study, GGPoker's
EV Cashout help page):

- EV Cashout: ``Name: Chooses to EV Cashout``; ``Name: Pays Cashout Risk ($19)`` (once per street
  left: the part of the pot won that goes back to GGPoker); ``Name: Receives Cashout ($25.50)``
  (what GGPoker pays the player who cashed out and lost the pot); the summary adds ``, Cashout
  Risk ($19)`` to the seat line;
- all-in insurance: ``Name: get an all-in insurance (premium ($0/$4/$0) for ($0/$10.8/$0) -
  (Mandatory/Main/Sub))``; ``Name: pay premium of all-in insurance ($4)``; ``Name: get main
  compensation of all-in insurance ($10.8)`` (``main``, ``sub`` or ``mandatory``).

Any other line about insurance or a cash-out is refused with its line.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from .errors import HandHistoryError
from .pokerstars_rooms import read_hand_blocks, read_site_lines, site_hand_id, site_session, with_added_money
from .records import SessionHand
from .text_files import TextBlock

_AMOUNT = r"[$€£]?[0-9][0-9,]*(?:\.[0-9]+)?"
_HEADER = re.compile(r"^Poker Hand #(?P<hand_id>[A-Z]*\d+):\s*(?P<rest>.*)$")
_GAME_NAMES = (("PLO-6 ", "6 Card Omaha Pot Limit "), ("PLO-5 ", "5 Card Omaha Pot Limit "),
               ("PLO ", "Omaha Pot Limit "))
_STRADDLE = re.compile(rf"^(?P<name>.+?): straddle (?P<amount>{_AMOUNT})(?P<all_in> and is all-in)?$")
_LIVE_BLIND = re.compile(rf"^.+?: posts (?:small|big) blind {_AMOUNT}$")
_MISSED = re.compile(rf"^(?P<name>.+?): posts missed blind (?P<amount>{_AMOUNT})$")
_CASH_DROP = re.compile(rf"^Cash Drop to Pot : total (?P<amount>{_AMOUNT})$")
_TOTAL = re.compile(rf"^Total pot (?P<total>{_AMOUNT})(?P<fees>(?: \| (?:Rake|Jackpot|Bingo) {_AMOUNT})*)$")
_FEE = re.compile(rf"\| (?:Rake|Jackpot|Bingo) (?P<amount>{_AMOUNT})")
_COLLECTED = re.compile(rf"^.+? collected (?P<amount>{_AMOUNT}) from ")
_OUTSIDE_THE_POT = re.compile(r"insurance|cashout|cash out", re.IGNORECASE)
_SUMMARY_CASHOUT_RISK = re.compile(rf"^(?P<seat>Seat \d+: .*), Cashout Risk \({_AMOUNT}\)$")
# (kind, paid or received, the line): money settled with GGPoker outside the pot
_SETTLEMENTS = (
    ("EV Cashout", None, re.compile(r"^(?P<name>.+?): Chooses to EV Cashout$")),
    ("EV Cashout", "paid", re.compile(rf"^(?P<name>.+?): Pays Cashout Risk \((?P<amount>{_AMOUNT})\)$")),
    ("EV Cashout", "received", re.compile(rf"^(?P<name>.+?): Receives Cashout \((?P<amount>{_AMOUNT})\)$")),
    ("all-in insurance", None, re.compile(r"^(?P<name>.+?): get an all-in insurance \(premium \([^)]*\) for "
                                          r"\([^)]*\) - \(Mandatory/Main/Sub\)\)$")),
    ("all-in insurance", "paid", re.compile(rf"^(?P<name>.+?): pay premium of all-in insurance "
                                            rf"\((?P<amount>{_AMOUNT})\)$")),
    ("all-in insurance", "received", re.compile(rf"^(?P<name>.+?): get (?:main|sub|mandatory) compensation of "
                                                rf"all-in insurance \((?P<amount>{_AMOUNT})\)$")),
)


@dataclass(frozen=True)
class _Settlement:
    """One line of money settled outside the pot: its file line, the player, the kind
    (``EV Cashout``, ``all-in insurance``), ``paid``/``received`` (None for the line that
    only says the player took it) and the amount's text."""

    line_number: int
    name: str
    kind: str
    way: str | None
    amount: str


def is_header(line: str) -> bool:
    """True for a GGPoker hand's first line (``Poker Hand #...:``)."""
    return _HEADER.match(line) is not None


def _number(text: str) -> Decimal:
    return Decimal(text.lstrip("$€£").replace(",", ""))


def _sign(text: str) -> str:
    return text[0] if text[:1] in "$€£" else ""


def _header(line: str) -> str:
    match = _HEADER.match(line)
    assert match is not None
    rest = match.group("rest")
    for name, pokerstars_name in _GAME_NAMES:
        if rest.startswith(name):
            rest = pokerstars_name + rest[len(name):]
    rest = re.sub(r" - Level(\d+) \(", r" - Level \1 (", rest)
    stakes = re.match(r"^(?P<before>[^(]*\()(?P<stakes>[^)]*)\)", rest)
    if stakes and "$" in stakes.group("stakes") and "Tournament" not in rest:
        rest = rest[:stakes.end() - 1] + " USD" + rest[stakes.end() - 1:]
    digits = re.sub(r"\D", "", match.group("hand_id"))
    return f"PokerStars Hand #{digits}: {rest}"


def _settlement(line: str, line_number: int) -> _Settlement | None:
    for kind, way, pattern in _SETTLEMENTS:
        if match := pattern.match(line):
            amount = match.group("amount") if way else ""
            return _Settlement(line_number, match.group("name"), kind, way, amount)
    return None


def _translated(block: TextBlock) -> tuple[list[str], str | None, int | None, list[_Settlement]]:
    """The hand as PokerStars' lines (one for one), the Cash Drop amount's text, the line of a
    settlement outside the pot that we cannot read (None if none), and the settlements read."""
    lines = list(block.lines)
    out = [_header(lines[0])]
    cash_drop = None
    outside = None
    settlements: list[_Settlement] = []
    straddles = {index: match for index, line in enumerate(lines) if (match := _STRADDLE.match(line))}
    last_straddle = {match.group("name"): index for index, match in straddles.items()}
    # a straddle is the player's new total: his blind posted before it is part of it
    replaced = {index for index, line in enumerate(lines) for name, straddle in last_straddle.items()
                if index < straddle and _LIVE_BLIND.match(line) and line.startswith(f"{name}: ")}
    collected = sum((_number(found.group("amount")) for line in lines if (found := _COLLECTED.match(line))),
                    Decimal(0))
    for index, line in enumerate(lines[1:], start=1):
        if index in replaced:
            line = ""
        elif index in straddles:
            match = straddles[index]
            # a later straddle line of the same player gives the straddle's new total
            line = ("" if last_straddle[match.group("name")] != index else
                    f"{match.group('name')}: posts straddle {match.group('amount')}{match.group('all_in') or ''}")
        elif missed := _MISSED.match(line):
            line = f"{missed.group('name')}: posts the ante {missed.group('amount')}"
        elif drop := _CASH_DROP.match(line):
            cash_drop = drop.group("amount")
            line = ""
        elif total := _TOTAL.match(line):
            fees = [found.group("amount") for found in _FEE.finditer(total.group("fees"))]
            sign = _sign(total.group("total"))
            fee = (sum((_number(amount) for amount in fees), Decimal(0)) if fees
                   else _number(total.group("total")) - collected)
            line = f"Total pot {total.group('total')} | Rake {sign}{fee}"
        elif (cashout_risk := _SUMMARY_CASHOUT_RISK.match(line)) is not None:
            line = cashout_risk.group("seat")  # the summary's note of the risk paid, read from its own line
        elif settlement := _settlement(line, block.first_line + index):
            settlements.append(settlement)
            line = ""
        elif _OUTSIDE_THE_POT.search(line) and outside is None:
            outside = block.first_line + index
        out.append(line)
    return out, cash_drop, outside, settlements


def _outside_pot(settlements: list[_Settlement], players: tuple[str, ...], scale: int, block: TextBlock,
                 hand_id: str) -> dict[str, dict[str, object]] | HandHistoryError:
    """PHH ``_outside_pot``: per player ``pN``, the kind and the chips paid to and received from
    GGPoker outside the pot; or the error of a line naming no player of the hand or a bad amount."""
    outside: dict[str, dict[str, object]] = {}
    for settlement in settlements:
        def fail(reason: str) -> HandHistoryError:
            return HandHistoryError(reason, source=block.source, hand_id=hand_id, line_number=settlement.line_number)
        if settlement.name not in players:
            return fail(f"{settlement.name!r} settles money outside the pot ({settlement.kind}) but has no seat "
                        "in this hand: expected one of the 'Seat N: name (stack in chips)' players")
        entry = outside.setdefault(f"p{players.index(settlement.name) + 1}",
                                   {"kind": settlement.kind, "paid": 0, "received": 0})
        if entry["kind"] != settlement.kind:
            return fail(f"both {entry['kind']} and {settlement.kind} for {settlement.name}: expected one")
        if settlement.way is not None:
            chips = _number(settlement.amount) * scale
            if chips != chips.to_integral_value():
                return fail(f"bad {settlement.kind} amount {settlement.amount!r}: expected a whole number of cents")
            entry[settlement.way] = int(entry[settlement.way]) + int(chips)  # type: ignore[call-overload]
    return outside


def parse_ggpoker_block(block: TextBlock) -> SessionHand | HandHistoryError:
    """One GGPoker hand as a :class:`~omaha_equity.hand_history.records.SessionHand`, or the
    error it raised (a line of money settled outside the pot that the reader does not know, a
    bad Cash Drop amount and a settlement naming no player of the hand are errors too)."""
    hand_id = site_hand_id(_HEADER, block, "'Poker Hand #...'")
    if isinstance(hand_id, HandHistoryError):
        return hand_id
    lines, cash_drop, outside, settlements = _translated(block)
    if outside is not None:
        return HandHistoryError("a line of money settled outside the pot that is not read: expected 'Chooses to EV "
                                "Cashout', 'Pays Cashout Risk ($X)', 'Receives Cashout ($X)' or an all-in "
                                "insurance line (get an all-in insurance, pay premium, get compensation)",
                                source=block.source, hand_id=hand_id, line_number=outside)
    hand = read_site_lines(block, hand_id, lines)
    if isinstance(hand, HandHistoryError):
        return hand
    session = site_session(hand, hand_id, "ggpoker", block.source)
    if isinstance(session, HandHistoryError):
        return session
    if cash_drop is not None:
        chips = _number(cash_drop) * (100 if hand.currency else 1)
        if chips != chips.to_integral_value():
            line = block.first_line + next(index for index, line in enumerate(block.lines) if _CASH_DROP.match(line))
            return HandHistoryError(f"bad Cash Drop amount {cash_drop!r}: expected a whole number of cents",
                                    source=block.source, hand_id=hand_id, line_number=line)
        if chips:
            session = dataclasses.replace(session, history=with_added_money(session.history, int(chips)))
    if settlements:
        players = session.history.players or ()
        outside_pot = _outside_pot(settlements, tuple(players), 100 if hand.currency else 1, block, hand_id)
        if isinstance(outside_pot, HandHistoryError):
            return outside_pot
        custom = dict(session.history.user_defined_fields)
        custom["_outside_pot"] = outside_pot
        session = dataclasses.replace(session, history=session.history.replace(user_defined_fields=custom))
    return session


def read_ggpoker_items(path: Path) -> Iterator[SessionHand | HandHistoryError]:
    """Every hand of a GGPoker file, parsed as it is read."""
    return read_hand_blocks(path, is_header, parse_ggpoker_block)
