"""Bovada (Bodog, Ignition) text hand histories: read through PokerStars' reader.

Each hand's lines are rewritten into PokerStars' lines one for one (the file's line numbers stay
right), read by :mod:`.pokerstars` and turned into PHH by :mod:`.pokerstars_phh`. What Bovada
writes its own way:

- the header ``Bovada Hand #2605762685 TBL#1218245 OMAHA Pot Limit - 2012-05-14 00:54:46``
  (``OMAHA``, ``OMAHA HiLo``; tournaments ``Bovada Hand #N: OMAHA HiLo Tournament #T TBL#19,
  Pot Limit- Level 5 (50/100) - ...``): cash hands state no stakes, so the blinds posted give
  them, in dollars;
- players named by their position in the hand (``Dealer``, ``Small Blind``, ``UTG+2``); the
  user's seat carries ``[ME]`` (``Dealer  [ME] : ...``) and is named ``[ME]`` in every hand, so
  a session's summary adds up the user's hands whatever the seat;
- ``Name : Verb $X`` lines: ``Ante/Small Blind``, ``Big blind/Bring in``, ``Posts chip $X`` (a
  live post by a player coming in), ``Card dealt to a spot [...]`` (every seat's cards),
  ``Calls``/``Call``, ``Bets``, ``Raises $Y`` and ``Raises $X to $Y`` (both: the bet is now
  ``$Y``), ``All-in $X`` and ``All-in(raise) $X [to $Y]`` (the player's whole stack: a bet, a
  call or a raise as the betting stands), ``Return uncalled portion of bet $X``, ``Showdown``,
  ``Mucks`` and ``Does not show`` (the best five cards, not the hand: the cards dealt are shown),
  ``Hand result $X`` and ``Hand result-Side pot $X`` (what the player collected);
- ``Set dealer/Bring in spot [N]`` gives the button; written without a name (and without a
  seat number), the button seat is empty: it is the seat before the small blind;
- table events inside hands, with or without ``Name : `` (``Table enter user``, ``Seat sit
  out``, ``Table deposit $X``, ``Seat re-join``): no chips in the hand, left out;
- the summary ``Total Pot($X) | Rake ($Y)``, or ``Total Pot($X)`` alone: the rake is then what
  the pot left after what was collected; its seat lines (``Seat+1: ...``, ``HI $X``/``LO $X``
  shares) are read for the player's record line only (``Hand result`` lines say what was won).

Odd chips: Bovada gives the chips a split low half leaves to the high winner, not to the
first low winner left of the button (the engine's default); its hands carry that rule
(``_odd_chip = "low remainder to high"``, :class:`~omaha_equity.pots.OddChipRule`).

A line that carries chips but lost its ``Name : `` part (``Calls $0.05`` alone) cannot be read:
the hand is one error naming that line, and the file's other hands are read.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from pathlib import Path

from ..pots import OddChipRule
from .errors import HandHistoryError
from .pokerstars import PokerStarsBlock, parse_block
from .pokerstars_rooms import read_hand_blocks, site_hand_id, site_session
from .records import SessionHand
from .text_files import TextBlock

_AMOUNT = r"\$?[0-9][0-9,]*(?:\.[0-9]+)?"
_HEADER = re.compile(r"^(?P<room>Bovada|Bodog|Ignition) Hand #(?P<hand_id>\d+):?\s+(?P<rest>.*)$")
_GAME = re.compile(r"^(?:TBL#\d+\s+)?(?P<game>OMAHA HiLo|OMAHA)\s+"
                   r"(?:Tournament #(?P<tournament>\d+)\s+)?(?:TBL#\d+)?,?\s*"
                   r"(?P<structure>Pot Limit|No Limit|Fixed Limit|Limit)"
                   r"(?:\s*-\s*Level (?P<level>\w+) \((?P<stakes>[^)]*)\))?(?P<rest>.*)$")
_TABLE_ID = re.compile(r"\bTBL#(?P<table>\d+)")
_GAMES = {"OMAHA HiLo": "Omaha Hi/Lo", "OMAHA": "Omaha"}
_SEAT = re.compile(rf"^Seat (?P<seat>\d+): (?P<position>.+?)(?P<me>\s+\[ME\])? \((?P<stack>{_AMOUNT}) in chips\)$")
_SUMMARY_SEAT = re.compile(r"^Seat[+ ](?P<seat>\d+): (?P<rest>.*)$")
_NAMED = re.compile(r"^(?P<position>[^:]+?)(?P<me>\s+\[ME\])?\s+:\s*(?P<verb>.*?)\s*$")
_DEALER = re.compile(r"^Set dealer/Bring in spot(?: \[(?P<seat>\d+)\])?$")
_BLIND = re.compile(rf"^(?P<kind>Ante/Small [Bb]lind|Big blind/Bring in|Posts chip) (?P<amount>{_AMOUNT})$")
_CALL = re.compile(rf"^Calls? (?P<amount>{_AMOUNT})$")
_BET = re.compile(rf"^Bets (?P<amount>{_AMOUNT})$")
_RAISE = re.compile(rf"^Raises (?P<by>{_AMOUNT})(?: to (?P<to>{_AMOUNT}))?$")
_ALL_IN = re.compile(rf"^All-in(?P<raise>\(raise\))? (?P<amount>{_AMOUNT})(?: to (?P<to>{_AMOUNT}))?$")
_DEALT = re.compile(r"^Card dealt to a spot \[(?P<cards>[^\]]*)\]$")
_UNCALLED = re.compile(rf"^Return uncalled portion of bet (?P<amount>{_AMOUNT})$")
_RESULT = re.compile(rf"^Hand [Rr]esult(?P<side>-Side pot)? (?P<amount>{_AMOUNT})$")
_SHOWN = re.compile(r"^(?P<kind>Showdown|Mucks|Does not show) \[[^\]]*\].*$")
_FOLD = re.compile(r"^Folds(?: \((?:timeout|auth|disconnect(?:ed)?)\))?$")
_CHECK = re.compile(r"^Checks(?: \((?:timeout|auth|disconnect(?:ed)?)\))?$")
# Table news: no chips in the hand (a deposit counts from the next hand on).
_EVENT = re.compile(rf"^(?:Table enter user|Table leave user|Table deposit {_AMOUNT}|Seat sit out|Seat sit down"
                    r"|Seat stand|Seat re-join|Sitout \(wait for bb\)|Table rebuy.*|Table add-on.*)$")
_TOTAL = re.compile(rf"^Total Pot\((?P<total>{_AMOUNT})\)(?:\s*\|\s*Rake \((?P<rake>{_AMOUNT})\))?$")
_BOARD = re.compile(r"^Board \[(?P<cards>[^\]]*)\]$")
_STREET = re.compile(r"^\*\*\* (?P<street>HOLE CARDS|FLOP|TURN|RIVER|SUMMARY) \*\*\*")
_ME = "[ME]"
_BETTING_VERB = re.compile(r"^(?:Folds|Checks|Calls?|Bets|Raises|All-in)\b")
_NEXT_STREET = {"preflop": "flop", "flop": "turn", "turn": "river"}


def is_header(line: str) -> bool:
    """True for a Bovada (Bodog, Ignition) hand's first line."""
    return _HEADER.match(line) is not None


def _number(text: str) -> Decimal:
    return Decimal(text.lstrip("$").replace(",", ""))


@dataclass
class _Betting:
    """The betting so far, in the file's units: what an all-in line is (bet, call or raise)."""

    stacks: dict[str, Decimal]
    put_in: dict[str, Decimal] = field(default_factory=dict)
    round_bets: dict[str, Decimal] = field(default_factory=dict)
    acted: set[str] = field(default_factory=set)
    folded: set[str] = field(default_factory=set)

    def new_street(self) -> None:
        self.round_bets = {}
        self.acted = set()

    def closed(self) -> bool:
        """True when every player still in with chips behind has acted and matched the bet."""
        live = [name for name in self.stacks if name not in self.folded and self.behind(name) > 0]
        level = self.level()
        return bool(self.acted) and all(name in self.acted and self.bet(name) == level for name in live)

    def add(self, name: str, chips: Decimal) -> None:
        self.put_in[name] = self.put_in.get(name, Decimal(0)) + chips
        self.round_bets[name] = self.round_bets.get(name, Decimal(0)) + chips

    def level(self) -> Decimal:
        return max(self.round_bets.values(), default=Decimal(0))

    def bet(self, name: str) -> Decimal:
        return self.round_bets.get(name, Decimal(0))

    def behind(self, name: str) -> Decimal:
        return self.stacks[name] - self.put_in.get(name, Decimal(0))


class _Translator:
    """Rewrites one Bovada hand into PokerStars' lines; ``fail`` raises the located error."""

    def __init__(self, block: TextBlock, hand_id: str):
        self.block = block
        self.hand_id = hand_id
        self.sign = "$"
        self.index = 0
        self.streets: dict[int, str] = {}  # file line of each betting action -> its street

    def fail(self, message: str) -> HandHistoryError:
        return HandHistoryError(message, source=self.block.source, hand_id=self.hand_id,
                                line_number=self.block.first_line + self.index)

    def money(self, value: Decimal) -> str:
        return f"{self.sign}{value}"

    def amount(self, text: str) -> Decimal:
        try:
            return _number(text)
        except InvalidOperation:
            raise self.fail(f"bad amount {text!r}: expected a number") from None

    def translate(self) -> list[str]:
        lines = self.block.lines
        header = _HEADER.match(lines[0])
        assert header is not None
        rest = header.group("rest")
        game = _GAME.match(rest)
        seats: dict[int, tuple[str, Decimal]] = {}
        names: dict[str, str] = {}  # position -> player name
        for self.index, line in enumerate(lines[1:], start=1):
            seat = _SEAT.match(line)
            if seat is None:
                break
            name = _ME if seat.group("me") else seat.group("position")
            names[seat.group("position")] = name
            seats[int(seat.group("seat"))] = (name, self.amount(seat.group("stack")))
        first_body = self.index
        tournament = game.group("tournament") if game else None
        if tournament:
            self.sign = ""
        posts = {post.group("kind").lower(): post.group("amount") for line in lines
                 if (named := _NAMED.match(line)) and (post := _BLIND.match(named.group("verb")))}
        out = [self._header(header.group("hand_id"), rest, game, posts)]
        table = _TABLE_ID.search(rest)
        out.append(f"Table '{table.group('table') if table else ''}' Seat #{self._button(lines, seats, names)} "
                   "is the button")
        for number, (name, stack) in seats.items():
            out.append(f"Seat {number}: {name} ({self.money(stack)} in chips)")
        betting = _Betting({name: stack for name, stack in seats.values()})
        dealt: dict[str, str] = {}
        collected = Decimal(0)
        street_name = "preflop"
        seat_names = {number: name for number, (name, _stack) in seats.items()}
        for self.index in range(first_body, len(lines)):
            line = lines[self.index]
            if street := _STREET.match(line):
                if street.group("street") in ("FLOP", "TURN", "RIVER"):
                    betting.new_street()
                    street_name = street.group("street").lower()
                out.append(line)
                continue
            if total := _TOTAL.match(line):
                rake = (self.amount(total.group("rake")) if total.group("rake")
                        else self.amount(total.group("total")) - collected)
                out.append(f"Total pot {self.money(self.amount(total.group('total')))} | Rake {self.money(rake)}")
                continue
            if board := _BOARD.match(line):
                out.append(f"Board [{' '.join(board.group('cards').split())}]")
                continue
            if summary_seat := _SUMMARY_SEAT.match(line):
                name = seat_names.get(int(summary_seat.group("seat")))
                out.append(f"Seat {summary_seat.group('seat')}: {name}" if name else "")
                continue
            if _EVENT.match(line) or _DEALER.match(line):
                out.append("")
                continue
            named = _NAMED.match(line)
            if named is None:
                raise self.fail(f"a line the hand cannot be read with: {line!r}: expected 'Name : action', "
                                "a street, a table event or the summary (the player's name lost?)")
            position = named.group("position")
            if position not in names:
                raise self.fail(f"{position!r} has no seat in this hand: expected one of the 'Seat N: position "
                                "($X in chips)' players")
            name = names[position]
            if _BETTING_VERB.match(named.group("verb")) and street_name in _NEXT_STREET and betting.closed():
                # the file left out the street's line (a 2012 tournament hand): the betting
                # round was over, so this action opens the next street
                street_name = _NEXT_STREET[street_name]
                betting.new_street()
            if _BETTING_VERB.match(named.group("verb")):
                self.streets[self.block.first_line + self.index] = street_name
            line, amount = self._action(name, named.group("verb"), betting, dealt)
            if line.startswith(f"{name} collected "):
                collected += amount
            out.append(line)
        return out

    def _header(self, hand_id: str, rest: str, game: re.Match[str] | None, posts: dict[str, str]) -> str:
        if game is None:
            return f"PokerStars Hand #{hand_id}: {rest}"  # the reader names it: not Omaha
        name = f"{_GAMES[game.group('game')]} {game.group('structure')}"
        if game.group("tournament"):
            return (f"PokerStars Hand #{hand_id}: Tournament #{game.group('tournament')}, {name} - Level "
                    f"{game.group('level') or 'I'} ({game.group('stakes') or '0/0'})")
        big = posts.get("big blind/bring in")
        small = posts.get("ante/small blind")
        if big is None:
            self.index = 0
            raise self.fail("no big blind posted: the stakes are unknown (Bovada's header does not state them)")
        small_text = small if small is not None else self.money((self.amount(big) / 2).quantize(Decimal("0.01"),
                                                                                                 ROUND_DOWN))
        return f"PokerStars Hand #{hand_id}: {name} ({small_text}/{big} USD)"

    def _button(self, lines: tuple[str, ...], seats: dict[int, tuple[str, Decimal]], names: dict[str, str]) -> int:
        for line in lines:
            named = _NAMED.match(line)
            verb = named.group("verb") if named else line
            if (dealer := _DEALER.match(verb)) and dealer.group("seat"):
                return int(dealer.group("seat"))
        by_name = {name: number for number, (name, _stack) in seats.items()}
        for position in ("Dealer", "Small Blind"):
            if position in names:
                # no dealer named: the button seat is empty, the one before the small blind
                return by_name[names[position]] - (position == "Small Blind")
        return max(seats, default=0)

    def _action(self, name: str, verb: str, betting: _Betting, dealt: dict[str, str]) -> tuple[str, Decimal]:
        """The PokerStars line of one ``Name : verb`` line, and the chips it collects."""
        nothing = Decimal(0)
        if post := _BLIND.match(verb):
            amount = self.amount(post.group("amount"))
            betting.add(name, amount)
            kind = "small blind" if post.group("kind").lower() == "ante/small blind" else "big blind"
            return f"{name}: posts {kind} {self.money(amount)}", nothing
        if dealt_line := _DEALT.match(verb):
            dealt[name] = dealt_line.group("cards").strip()
            return f"Dealt to {name} [{dealt[name]}]", nothing
        if _BETTING_VERB.match(verb):
            if _BET.match(verb) or _RAISE.match(verb) or _ALL_IN.match(verb):
                betting.acted = set()
            betting.acted.add(name)
        if _FOLD.match(verb):
            betting.folded.add(name)
            return f"{name}: folds", nothing
        if _CHECK.match(verb):
            return f"{name}: checks", nothing
        if call := _CALL.match(verb):
            amount = self.amount(call.group("amount"))
            betting.add(name, amount)
            return f"{name}: calls {self.money(amount)}", nothing
        if bet := _BET.match(verb):
            amount = self.amount(bet.group("amount"))
            betting.add(name, amount)
            return f"{name}: bets {self.money(amount)}", nothing
        if raised := _RAISE.match(verb):
            to = self.amount(raised.group("to") or raised.group("by"))
            betting.add(name, to - betting.bet(name))
            return f"{name}: raises {self.money(to)} to {self.money(to)}", nothing
        if all_in := _ALL_IN.match(verb):
            return self._all_in(name, all_in, betting), nothing
        if uncalled := _UNCALLED.match(verb):
            return f"Uncalled bet ({self.money(self.amount(uncalled.group('amount')))}) returned to {name}", nothing
        if result := _RESULT.match(verb):
            amount = self.amount(result.group("amount"))
            pot = "side pot-1" if result.group("side") else "pot"
            return f"{name} collected {self.money(amount)} from {pot}", amount
        if shown := _SHOWN.match(verb):
            if shown.group("kind") == "Showdown" and name in dealt:
                return f"{name}: shows [{dealt[name]}]", nothing
            return (f"{name}: mucks hand" if shown.group("kind") == "Mucks" else f"{name}: doesn't show hand"), nothing
        if _EVENT.match(verb) or _DEALER.match(verb):
            return "", nothing
        raise self.fail(f"unknown action {verb!r} of {name}: expected Folds, Checks, Calls $X, Bets $X, Raises $X "
                        "[to $Y], All-in $X, a blind, a card dealt, a showdown or a hand result")

    def _all_in(self, name: str, all_in: re.Match[str], betting: _Betting) -> str:
        """An all-in line as the bet, call or raise it is: the player's whole stack goes in."""
        behind = betting.behind(name)
        total = betting.bet(name) + behind
        stated = {self.amount(all_in.group("amount"))}
        if all_in.group("to"):
            stated.add(self.amount(all_in.group("to")))
        if not stated & {behind, total}:
            raise self.fail(f"all-in for {', '.join(map(self.money, sorted(stated)))}: the player has "
                            f"{self.money(behind)} behind (bet {self.money(total)} in all)")
        level = betting.level()
        betting.add(name, behind)
        if total <= level:
            return f"{name}: calls {self.money(behind)} and is all-in"
        if level == 0:
            return f"{name}: bets {self.money(behind)} and is all-in"
        return f"{name}: raises {self.money(total - level)} to {self.money(total)} and is all-in"


def parse_bovada_block(block: TextBlock) -> SessionHand | HandHistoryError:
    """One Bovada hand as a :class:`~omaha_equity.hand_history.records.SessionHand`, or the
    error it raised (a line that cannot be read makes the hand one error naming that line)."""
    hand_id = site_hand_id(_HEADER, block, "'Bovada Hand #...'")
    if isinstance(hand_id, HandHistoryError):
        return hand_id
    translator = _Translator(block, hand_id)
    try:
        lines = translator.translate()
    except HandHistoryError as error:
        return error
    # the table line PokerStars writes has no line of its own here: the block starts one line
    # early, so that every line after the header keeps its file line
    hand = parse_block(PokerStarsBlock(block.source, block.first_line - 1, tuple(lines)))
    if isinstance(hand, HandHistoryError):
        line = max(hand.line_number or block.first_line, block.first_line)
        return type(hand)(hand.reason, source=hand.source, hand_id=hand_id, line_number=line)
    hand.line_number = block.first_line
    hand.actions = [dataclasses.replace(action, street=translator.streets.get(action.line_number, action.street))
                    for action in hand.actions]
    # Bovada pays what a split low half leaves to the high winner (its hi/lo hands 2902256725
    # and 2902266598 say so, to the cent); hands without a split low are the same either way
    return site_session(hand, hand_id, "bovada", block.source, {"_odd_chip": OddChipRule.LOW_REMAINDER_TO_HIGH.value})


def read_bovada_items(path: Path) -> Iterator[SessionHand | HandHistoryError]:
    """Every hand of a Bovada file, parsed as it is read."""
    return read_hand_blocks(path, is_header, parse_bovada_block)
