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

All-in insurance and EV Cashout (money settled outside the pot) are refused with their line:
no file we have shows their lines, so they are not read yet.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

from .errors import HandHistoryError
from .pokerstars import PokerStarsBlock, parse_block
from .pokerstars_rooms import read_hand_blocks, site_header, site_session, with_added_money
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


def _translated(block: TextBlock) -> tuple[list[str], str | None, int | None]:
    """The hand as PokerStars' lines (one for one), the Cash Drop amount's text, and the line
    of a settlement outside the pot (insurance, EV Cashout), if any."""
    lines = list(block.lines)
    out = [_header(lines[0])]
    cash_drop = None
    outside = None
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
        elif _OUTSIDE_THE_POT.search(line) and outside is None:
            outside = block.first_line + index
        out.append(line)
    return out, cash_drop, outside


def parse_ggpoker_block(block: TextBlock) -> SessionHand | HandHistoryError:
    """One GGPoker hand as a :class:`~omaha_equity.hand_history.records.SessionHand`, or the
    error it raised."""
    header = site_header(_HEADER, block, "'Poker Hand #...'")
    if isinstance(header, HandHistoryError):
        return header
    hand_id = header.group("hand_id")
    lines, cash_drop, outside = _translated(block)
    if outside is not None:
        return HandHistoryError("all-in insurance or EV Cashout (money settled outside the pot) is not read yet",
                                source=block.source, hand_id=hand_id, line_number=outside)
    hand = parse_block(PokerStarsBlock(block.source, block.first_line, tuple(lines)))
    if isinstance(hand, HandHistoryError):
        return type(hand)(hand.reason, source=hand.source, hand_id=hand_id, line_number=hand.line_number)
    hand.hand_id = hand_id
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
    return session


def read_ggpoker_items(path: Path) -> Iterator[SessionHand | HandHistoryError]:
    """Every hand of a GGPoker file, parsed as it is read."""
    return read_hand_blocks(path, is_header, parse_ggpoker_block)
