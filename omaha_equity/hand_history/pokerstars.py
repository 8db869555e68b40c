"""PokerStars text hand histories of the Omaha games: parse every hand of a file.

A file holds hands separated by blank lines, each beginning ``PokerStars Hand #`` (older files:
``PokerStars Game #``; ``PokerStars Zoom Hand #``). The reader keeps what a replay and the
all-in EV need: the game and betting structure, the button, the seats and stacks, the posts
(blinds, the dead part of "small & big blinds", antes), every betting action in order with its
street, the uncalled bets returned, the board of each run (run it twice: ``FIRST``/``SECOND``
boards), the hole cards known (dealt to the hero, shown, mucked in the summary), what each
player collected from which pot, the total pot, the rake and the pots after rake as the summary
states them, and cash-outs.

Real files are read as they are (docs/hand-histories.md): headers of tournaments, Zoom
tournaments and mixed games (``Mixed Omaha H/L (Omaha Hi/Lo Pot Limit) - Level II``), table
lines without ``N-max`` (2005), seats marked "is sitting out" that still post, are dealt or act
(kept; such a seat that takes no part is left out), actions with a trailing reason
(``folds (disconnect)``), streets printed as ``[]`` (the board from the summary), and
``Hand cancelled`` hands (a :class:`~omaha_equity.hand_history.errors.CancelledHandError`,
counted apart).

Amounts become integer chips in the smallest unit of the game: cents for cash games (``$0.25``
is 25), tournament chips as written. Chat, table and tournament lines (joins, time-outs,
bounties, ...) carry no chips and are skipped; a line that looks like a player's action but is
not one, a post or action by a name with no seat, an amount that is not a whole number of the
smallest unit, a bad or repeated card and a hand that ends early raise
:class:`~omaha_equity.hand_history.errors.HandHistoryError` naming the file, the hand and the
line.

Format facts come from real files (``tests/data/pokerstars/``, from the fpdb project's regression
files); no code is taken from any other parser.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

from ..cards import parse_cards
from ..errors import InputError, quoted
from .errors import CancelledHandError, HandHistoryError, NotOmahaError
from .notation import amount_problem

# PokerStars' game names -> our game names; hi/lo names first (longest match).
_GAMES = {
    "5 Card Omaha Hi/Lo": "omaha5-8",
    "6 Card Omaha Hi/Lo": "omaha6-8",
    "Courchevel Hi/Lo": "courchevel8",
    "Omaha Hi/Lo": "omaha8",
    "5 Card Omaha": "omaha5",
    "6 Card Omaha": "omaha6",
    "Courchevel": "courchevel",
    "Omaha": "omaha",
}
_STRUCTURES = {"Pot Limit": "pot-limit", "No Limit": "no-limit", "Limit": "fixed-limit",
               "Fixed Limit": "fixed-limit"}
_GAME_PATTERN = "|".join(re.escape(name) for name in _GAMES)
_STRUCTURE_PATTERN = "Pot Limit|No Limit|Fixed Limit|Limit"
_AMOUNT = r"[$€£]?[0-9][0-9,]*(?:\.[0-9]+)?"
_RUN = r"(?:(?P<run>FIRST|SECOND|THIRD) )?"  # the board of a hand run twice (or three times)

_HEADER = re.compile(
    r"^PokerStars (?:Zoom |Rush |Home Game )?(?:Hand|Game) #(?P<hand_id>\d+):\s*"
    r"(?:\{[^}]*\}\s*)?"  # home games name their club in braces
    r"(?:(?:Zoom |Rush )?Tournament #(?P<tournament_id>\d+),\s*(?:Table #\d+,\s*)?(?P<buy_in>.*?)\s+)?"
    # mixed games name the mix, then the game of the hand in parentheses: cash "Mixed NLH/PLO
    # (Omaha Pot Limit, $0.05/$0.10 USD)", tournament "Mixed Omaha H/L (Omaha Hi/Lo Pot Limit) - Level I (10/20)"
    r"(?:(?:Mixed|[0-9]+-Game|HORSE|HOSE|Triple)[^(]*\()?"
    rf"(?P<game>{_GAME_PATTERN})\s+(?P<structure>{_STRUCTURE_PATTERN})"
    r"(?:,\s*|\)?\s*(?:-\s*(?:Match Round \w+,\s*)?Level \w+\s*)?\()"
    r"(?P<stakes>[^)]*)\)"
)
_ANY_HEADER = re.compile(r"^PokerStars (?:Zoom |Rush |Home Game )?(?:Hand|Game) #(?P<hand_id>\d+):")
# 2005 files have no "N-max" on the table line.
_TABLE = re.compile(r"^Table '(?P<table>.*)'(?:\s+(?P<max_seats>\d+)-max)?.*?\s+Seat #(?P<button>\d+) is the button")
_SEAT = re.compile(rf"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>{_AMOUNT}) in chips(?:, .*?)?\)(?P<rest>.*)$")
_STREET = re.compile(
    rf"^\*\*\* {_RUN}(?P<street>HOLE CARDS|PRE-FLOP|FLOP|TURN|RIVER|SHOW ?DOWN|SUMMARY) \*\*\*(?P<cards>.*)$"
)
_BRACKETS = re.compile(r"\[([^\]]*)\]")
_UNCALLED = re.compile(rf"^Uncalled bet \((?P<amount>{_AMOUNT})\) returned to (?P<name>.+)$")
_COLLECTED = re.compile(
    rf"^(?P<name>.+?) collected (?P<amount>{_AMOUNT}) from "
    r"(?P<pot>pot|main pot|side pot(?:-(?P<side>\d+))?)$"
)
_CASH_OUT = re.compile(
    rf"^(?P<name>.+?) cashed out the hand for (?P<amount>{_AMOUNT})"
    rf"(?: \| Cash Out Fee (?P<fee>{_AMOUNT}))?$"
)
_TOTAL_POT = re.compile(rf"^Total pot (?P<total>{_AMOUNT})(?P<pots>.*?)\s*\|\s*Rake (?P<rake>{_AMOUNT})")
_STATED_POT = re.compile(rf"(?P<label>Main pot|Side pot(?:-(?P<side>\d+))?) (?P<amount>{_AMOUNT})\.")
_SUMMARY_BOARD = re.compile(rf"^{_RUN}Board \[(?P<cards>[^\]]*)\]$")
_SUMMARY_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<rest>.*)$")
_SEAT_NUMBER = re.compile(r"^Seat \d+: ")
_SUMMARY_WON = re.compile(rf"(?:won|collected) \((?P<amount>{_AMOUNT})\)")
_SUMMARY_CARDS = re.compile(r"(?:showed|mucked) \[(?P<cards>[^\]]*)\]")

# A player's verbs after "name: ". Every other "name: ..." line is an error, so no chips are lost.
_ACTION = re.compile(
    r"^(?:(?P<fold>folds)(?: \[[^\]]*\])?"
    r"|(?P<check>checks)"
    rf"|calls (?P<call>{_AMOUNT})"
    rf"|bets (?P<bet>{_AMOUNT})"
    rf"|raises (?P<raise_by>{_AMOUNT}) to (?P<raise_to>{_AMOUNT})"
    rf"|posts (?P<post_kind>small blind|big blind|small & big blinds|the ante|straddle) (?P<post>{_AMOUNT})"
    r"|shows \[(?P<shows>[^\]]*)\].*"
    r"|(?P<muck>mucks hand)(?: \[[^\]]*\])?"
    r"|(?P<ignored>doesn't show hand|sits out|is sitting out|sitting out|is away|discards.*"
    r"|stands pat|is connected|is disconnected|has returned|leaves the table|timed out.*"
    r"|has timed out.*|was removed from the table.*|re-buys.*|adds on.*|checks and is all-in))"
    r"(?P<all_in> and is all-in)?"
    r"(?: and has reached the .* cap)?"
    r"(?: \((?:disconnect(?:ed)?|timeout|timed out)\))?$"  # how the site says why: "folds (disconnect)"
)
# A line that has a player's verb but no seated player's name: a seat we do not know would lose
# chips silently, so it is an error. (Chat, 'name said, "..."', holds a quote before any colon.)
_STRANGER_ACTION = re.compile(
    r'^(?P<name>[^"]+?): (?P<verb>posts|folds|checks|calls|bets|raises|shows|mucks)\b.*$'
)
_CANCELLED = "Hand cancelled"

_BOARD_SIZE = {"preflop": 0, "flop": 3, "turn": 4, "river": 5, "showdown": 5, "summary": 5}
_RUN_INDEX = {None: 0, "FIRST": 0, "SECOND": 1, "THIRD": 2}
_STREET_NAMES = {"HOLE CARDS": "preflop", "PRE-FLOP": "preflop", "FLOP": "flop", "TURN": "turn",
                 "RIVER": "river", "SHOW DOWN": "showdown", "SHOWDOWN": "showdown",
                 "SUMMARY": "summary"}


@dataclass(frozen=True)
class Seat:
    """One player dealt in: seat number (1-based, as printed), name and stack in chips."""

    seat: int
    name: str
    stack: int


@dataclass(frozen=True)
class Post:
    """A forced bet before the deal.

    ``kind`` is ``small blind``, ``big blind``, ``small & big blinds``, ``ante`` or ``straddle``;
    ``amount`` is the chips posted in all and ``dead`` the part that does not count toward the
    player's bet (the small-blind part of "small & big blinds", and every ante).
    """

    name: str
    kind: str
    amount: int
    dead: int
    line_number: int


@dataclass(frozen=True)
class Action:
    """One betting action.

    ``kind`` is ``fold``, ``check``, ``call``, ``bet`` or ``raise``. ``amount`` is the chips the
    action adds for a call or a bet, and the total bet of the round a raise goes *to* (the file's
    "raises X to Y" gives Y). ``street`` is ``preflop``, ``flop``, ``turn`` or ``river``.
    """

    name: str
    kind: str
    amount: int
    all_in: bool
    street: str
    line_number: int


@dataclass(frozen=True)
class Collected:
    """``name collected amount from pot`` (``pot_index`` 0 for "pot" and "main pot", ``k`` for
    "side pot-k", 1 for an unnumbered "side pot"); ``run_index`` 0 or 1 for the boards of a hand
    run twice."""

    name: str
    amount: int
    pot_index: int
    run_index: int
    line_number: int


@dataclass
class PokerStarsHand:
    """One hand as the file tells it; amounts are integer chips (cents for cash games).

    Attributes
    ----------
    source : str
        The file the hand comes from; ``line_number`` is the hand's first line (1-based).
    hand_id : str
        PokerStars' hand number.
    game : str
        Our game name (``omaha``, ``omaha8``, ``omaha5``, ``omaha5-8``, ``omaha6``, ``omaha6-8``,
        ``courchevel``, ``courchevel8``); ``structure`` is ``pot-limit``, ``no-limit`` or
        ``fixed-limit``.
    currency : str or None
        ``USD``, ``EUR``, ... for cash games (amounts in cents); ``None`` for tournament chips.
    stakes : tuple of int
        The two stakes of the header: the blinds in pot and no limit, the small and big bet in
        fixed limit.
    seats : list of Seat
        Players dealt in, in seat order.
    hole_cards : dict
        Name -> card text of every hand known (dealt to the hero, shown, mucked face up).
    shown : dict
        Name -> card text shown at showdown (may be fewer cards than the game deals).
    mucked : set
        Players who mucked (or did not show) at showdown.
    boards : list of str
        The board of each run (one run unless the hand was run twice), cards as in the file.
    collected : list of Collected
        Every "collected" line.
    total_pot, rake : int
        From the summary; ``stated_pots`` lists the main pot and side pots after rake when the
        summary states them (else empty).
    summary_won : dict
        Name -> chips the summary says the player won (zero if none).
    cash_outs : dict
        Name -> (chips paid, fee) for players who cashed the hand out.
    last_line : int
        The hand's last line.
    record_lines : dict
        Name -> line of the player's record (the first "collected" line, else the summary's
        seat line).
    card_lines, board_lines : dict
        Name -> line the hole cards kept were read from; board cards dealt (1, 3, 4, 5; 0 for
        the summary's board) -> the street line that showed them.
    empty_board_line : int or None
        The first street line that printed its cards as ``[]``.
    notes : list of str
        What the reader made of a damaged line it could read around (a street line whose
        cards are garbled, the board taken from the summary), for the reports.
    """

    source: str
    line_number: int
    hand_id: str
    tournament_id: str | None
    game: str
    structure: str
    currency: str | None
    stakes: tuple[int, int]
    table: str = ""
    max_seats: int = 0
    button_seat: int = 0
    seats: list[Seat] = field(default_factory=list)
    posts: list[Post] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    uncalled: dict[str, int] = field(default_factory=dict)
    hole_cards: dict[str, str] = field(default_factory=dict)
    shown: dict[str, str] = field(default_factory=dict)
    mucked: set[str] = field(default_factory=set)
    boards: list[str] = field(default_factory=list)
    collected: list[Collected] = field(default_factory=list)
    total_pot: int = 0
    rake: int = 0
    stated_pots: list[int] = field(default_factory=list)
    summary_won: dict[str, int] = field(default_factory=dict)
    cash_outs: dict[str, tuple[int, int]] = field(default_factory=dict)
    run_count: int = 1
    last_line: int = 0
    record_lines: dict[str, int] = field(default_factory=dict)
    empty_board_line: int | None = None
    card_lines: dict[str, int] = field(default_factory=dict)
    board_lines: dict[int, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        """Player names in seat order."""
        return [seat.name for seat in self.seats]

    def collected_by(self, name: str) -> int:
        """Chips the player collected from every pot and run."""
        return sum(entry.amount for entry in self.collected if entry.name == name)


def is_header(line: str) -> bool:
    """True for a PokerStars hand's first line (``PokerStars Hand #...:``, any game)."""
    return _ANY_HEADER.match(line) is not None


def header_hand_id(line: str) -> str | None:
    """PokerStars' hand number from a hand's first line; None if it is not one."""
    match = _ANY_HEADER.match(line)
    return match.group("hand_id") if match else None


def split_hands(text: str) -> list[tuple[int, list[str]]]:
    """Split a file's text into hands: ``(first line number, lines)`` per hand (see
    :func:`pokerstars_blocks`)."""
    return [(block.first_line, list(block.lines))
            for block in pokerstars_blocks(text.lstrip("\ufeff").splitlines())]


def _unit(currency: str | None) -> int:
    """Chips per written unit: cents for cash, one for tournament chips."""
    return 100 if currency else 1


class _Reader:
    """Parses one hand; ``fail`` raises the located error."""

    def __init__(self, source: str, first_line: int, lines: list[str]):
        self.source = source
        self.first_line = first_line
        self.lines = lines
        self.hand_id = "?"
        self.line_index = 0
        self.unit = 1
        self.marked_out: set[str] = set()

    def fail(self, message: str, line_offset: int | None = None) -> HandHistoryError:
        offset = self.line_index if line_offset is None else line_offset
        return HandHistoryError(message, source=self.source, hand_id=self.hand_id,
                                line_number=self.first_line + offset)

    def amount(self, text: str, what: str = "amount") -> int:
        """Chips in the smallest unit; ``$1,234.50`` is 123450 cents in a cash game. More than
        the rules engine's ``MAX_CHIPS`` (2**63 - 1) is refused at its line, before any
        arithmetic on it (numbers at the boundary)."""
        try:
            value = Decimal(text.lstrip("$€£").replace(",", "")) * self.unit
        except InvalidOperation:
            raise self.fail(f"bad {what} {quoted(text)}: expected a number") from None
        problem = amount_problem(value)  # the PHH reader's bounds, read from the digits
        if problem is not None:
            raise self.fail(f"bad {what} {quoted(text)}: {problem}")
        if value != value.to_integral_value():
            smallest = "a cent" if self.unit == 100 else "a chip"
            raise self.fail(f"bad {what} {quoted(text)}: not a whole number of {smallest}")
        return int(value)

    def cards(self, text: str) -> str:
        """Card text checked where it is read, so a bad or repeated card names its line."""
        try:
            parsed = parse_cards(text)
        except InputError as error:
            raise self.fail(str(error)) from None
        if len(set(parsed)) != len(parsed):
            raise self.fail(f"a card twice in [{text}]: expected different cards")
        return text

    def parse(self) -> PokerStarsHand:
        any_header = _ANY_HEADER.match(self.lines[0])
        if any_header is None:
            raise self.fail(f"text outside a hand: {self.lines[0]!r}: expected a "
                            "'PokerStars Hand #...' line first", 0)
        self.hand_id = any_header.group("hand_id")
        header = _HEADER.match(self.lines[0])
        if header is None:
            raise NotOmahaError(f"not an Omaha game: {self.lines[0]!r}: expected Omaha, Omaha Hi/Lo, "
                                "5 Card Omaha, 6 Card Omaha or Courchevel (Pot Limit, No Limit or Limit)",
                                source=self.source, hand_id=self.hand_id, line_number=self.first_line)
        stakes_text = header.group("stakes")
        currency_match = re.search(r"\b([A-Z]{3})\b", stakes_text)
        tournament = header.group("tournament_id")
        currency = None if tournament else (currency_match.group(1) if currency_match else
                                            ("USD" if "$" in stakes_text else None))
        if not tournament and currency is None and re.search(r"\d\.\d", stakes_text):
            currency = "USD"
        self.unit = _unit(currency)
        stake_values = re.findall(_AMOUNT, stakes_text.split(" - ")[0])
        if len(stake_values) < 2:
            raise self.fail(f"bad stakes {stakes_text!r}: expected SMALL/BIG", 0)
        hand = PokerStarsHand(
            source=self.source, line_number=self.first_line, hand_id=self.hand_id,
            tournament_id=tournament, game=_GAMES[header.group("game")],
            structure=_STRUCTURES[header.group("structure")], currency=currency,
            stakes=(self.amount(stake_values[0]), self.amount(stake_values[1])),
        )
        if any(line.startswith(_CANCELLED) for line in self.lines):
            raise CancelledHandError("hand cancelled by the site: no chips moved", source=self.source,
                                     hand_id=self.hand_id, line_number=self.first_line + next(
                                         index for index, line in enumerate(self.lines)
                                         if line.startswith(_CANCELLED)))
        self.line_index = 1
        self._table(hand)
        self._body(hand)
        self._drop_absent_seats(hand)
        hand.last_line = self.first_line + len(self.lines) - 1
        return hand

    def _drop_absent_seats(self, hand: PokerStarsHand) -> None:
        """Seats marked sitting out that posted nothing, were dealt nothing and never acted
        were not in the hand."""
        present = ({post.name for post in hand.posts} | {action.name for action in hand.actions}
                   | set(hand.hole_cards) | set(hand.shown) | set(hand.uncalled) | hand.mucked
                   | {entry.name for entry in hand.collected})
        absent = self.marked_out - present
        if absent:
            hand.seats = [seat for seat in hand.seats if seat.name not in absent]
            for name in absent:
                hand.summary_won.pop(name, None)
                hand.record_lines.pop(name, None)

    def _table(self, hand: PokerStarsHand) -> None:
        if len(self.lines) < 2:
            raise self.fail("hand ends after its first line: expected the table line", 0)
        table = _TABLE.match(self.lines[1])
        if table is None:
            raise self.fail(f"expected \"Table '...' N-max Seat #B is the button\", got {self.lines[1]!r}", 1)
        hand.table = table.group("table")
        hand.max_seats = int(table.group("max_seats") or 0)
        hand.button_seat = int(table.group("button"))
        self.line_index = 2
        while self.line_index < len(self.lines):
            seat = _SEAT.match(self.lines[self.line_index])
            if seat is None:
                if _SEAT_NUMBER.match(self.lines[self.line_index]):  # a seat line we cannot read
                    raise self.fail(f"bad seat line {quoted(self.lines[self.line_index])}: expected "
                                    "'Seat N: name (stack in chips)', the stack a whole number of chips or cents")
                break
            rest = seat.group("rest").strip()
            # A seat marked sitting out is kept for now: tournaments post its blinds, deal it
            # cards and fold for it. _drop_absent_seats drops it if it took no part.
            if "sitting out" in rest or "out of hand" in rest:
                self.marked_out.add(seat.group("name"))
            hand.seats.append(Seat(int(seat.group("seat")), seat.group("name"),
                                   self.amount(seat.group("stack"), f"stack of {quoted(seat.group('name'))}")))
            self.line_index += 1
        if not hand.seats:
            raise self.fail("no seated players: expected 'Seat N: name (stack in chips)' lines")

    def _body(self, hand: PokerStarsHand) -> None:
        names = sorted(hand.names, key=len, reverse=True)
        name_pattern = re.compile("^(" + "|".join(re.escape(name) for name in names) + "): (.*)$")
        seat_names = {seat.seat: seat.name for seat in hand.seats}
        street = "preflop"
        run_boards: dict[int, str] = {}
        run_index = 0
        seen_summary = False
        summary_boards: dict[int, str] = {}
        street_reached = "preflop"
        garbled: dict[int, tuple[str, HandHistoryError, str]] = {}  # line -> (text, error, street)
        # the loop moves the reader's own position (the range is built once, from where it stood)
        for self.line_index in range(self.line_index, len(self.lines)):  # noqa: B020
            line = self.lines[self.line_index]
            marker = _STREET.match(line)
            if marker:
                kind = _STREET_NAMES[marker.group("street")]
                run = marker.group("run")
                if kind == "summary":
                    seen_summary = True
                    street = "summary"
                    continue
                if kind == "showdown":
                    run_index = _RUN_INDEX[run]
                    street = "showdown"
                    continue
                street = kind
                street_reached = kind
                brackets = _BRACKETS.findall(marker.group("cards"))
                if any(not found.strip() for found in brackets):
                    # the site printed the street's cards as "[]": the summary's board says them
                    hand.empty_board_line = hand.empty_board_line or self.first_line + self.line_index
                try:
                    cards = self.cards(" ".join(found.strip() for found in brackets if found.strip()))
                except HandHistoryError as caught:
                    # a street line whose cards came out garbled ("[2s] [2s3d 3c]"): the
                    # summary's whole board says them, if it has one (checked at the end)
                    garbled.setdefault(self.first_line + self.line_index, (line, caught, kind))
                    continue
                if cards:
                    hand.board_lines.setdefault(len(cards.split()), self.first_line + self.line_index)
                    if run is None:
                        for index in set(run_boards) | {0}:
                            run_boards[index] = cards
                    else:
                        run_boards[_RUN_INDEX[run]] = cards
                        hand.run_count = max(hand.run_count, _RUN_INDEX[run] + 1)
                continue
            if street == "summary":
                self._summary_line(hand, line, seat_names, summary_boards)
                continue
            named = name_pattern.match(line)
            if named:
                self._player_line(hand, named.group(1), named.group(2), street)
                continue
            if match := _UNCALLED.match(line):
                name = self._known(hand, match.group("name"))
                hand.uncalled[name] = hand.uncalled.get(name, 0) + self.amount(match.group("amount"))
            elif match := _COLLECTED.match(line):
                pot_index = 0 if match.group("pot") in ("pot", "main pot") else int(match.group("side") or 1)
                name = self._known(hand, match.group("name"))
                hand.collected.append(Collected(name, self.amount(match.group("amount")), pot_index,
                                                run_index, self.first_line + self.line_index))
                hand.record_lines.setdefault(name, self.first_line + self.line_index)
            elif match := _CASH_OUT.match(line):
                fee = self.amount(match.group("fee")) if match.group("fee") else 0
                hand.cash_outs[self._known(hand, match.group("name"))] = (
                    self.amount(match.group("amount")), fee)
            elif line.startswith("Dealt to "):
                self._dealt(hand, line[len("Dealt to "):])
            elif stranger := _STRANGER_ACTION.match(line):
                raise self.fail(f"{stranger.group('name')!r} {stranger.group('verb')} but has no seat in this "
                                "hand: expected one of the 'Seat N: name (stack in chips)' players")
            # Everything else is chat and table news (joins, time-outs, bounties): no chips.
        if not seen_summary:
            raise self.fail("hand ends before its summary: expected '*** SUMMARY ***' (truncated hand?)")
        for index, board in summary_boards.items():
            # the summary's board is the whole board; a street line may have printed "[]"
            if len(board.split()) > len(run_boards.get(index, "").split()):
                run_boards[index] = board
        hand.boards = [run_boards[index] for index in sorted(run_boards)] or [""]
        if hand.empty_board_line and len(hand.boards[0].split()) < _BOARD_SIZE[street_reached]:
            raise self.fail("a street's cards are printed as '[]' and the summary has no whole 'Board [...]': "
                            "the board is unknown", hand.empty_board_line - self.first_line)
        for line_number, (text, problem, kind) in garbled.items():
            summary_board = summary_boards.get(0, "")
            if len(summary_board.split()) < max(_BOARD_SIZE[street_reached], _BOARD_SIZE[kind], 1):
                raise problem  # no whole summary board to read the street's cards from
            hand.notes.append(f"line {line_number}: the street's cards are garbled ({text!r}); "
                              f"the board is the summary's [{summary_board}]")
        if hand.run_count > 1 and len(hand.boards) < hand.run_count:
            hand.boards += [hand.boards[0]] * (hand.run_count - len(hand.boards))

    def _known(self, hand: PokerStarsHand, name: str) -> str:
        if name not in hand.names:
            raise self.fail(f"unknown player {name!r}: expected one of the seated players")
        return name

    def _dealt(self, hand: PokerStarsHand, text: str) -> None:
        for name in sorted(hand.names, key=len, reverse=True):
            if text.startswith(name + " [") or text == name:
                cards = _BRACKETS.findall(text[len(name):])
                if cards:
                    hand.hole_cards[name] = self.cards(" ".join(cards))
                    hand.card_lines[name] = self.first_line + self.line_index
                return
        raise self.fail(f"cards dealt to an unknown player in 'Dealt to {text}'")

    def _player_line(self, hand: PokerStarsHand, name: str, text: str, street: str) -> None:
        match = _ACTION.match(text)
        line_number = self.first_line + self.line_index
        if match is None:
            raise self.fail(f"unknown action {text!r} of {name}: expected folds, checks, calls X, "
                            "bets X, raises X to Y, posts ..., shows [...] or mucks hand")
        all_in = match.group("all_in") is not None
        if match.group("post") is not None:
            kind = match.group("post_kind")
            amount = self.amount(match.group("post"))
            dead = 0
            if kind == "the ante":
                kind, dead = "ante", amount
            elif kind == "small & big blinds":
                dead = max(0, amount - hand.stakes[1]) if hand.structure != "fixed-limit" else amount // 3
            hand.posts.append(Post(name, kind, amount, dead, line_number))
        elif match.group("shows") is not None:
            cards = self.cards(match.group("shows").strip())
            hand.shown[name] = cards
            if len(cards.split()) >= len(hand.hole_cards.get(name, "").split()):
                hand.hole_cards[name] = cards
                hand.card_lines[name] = line_number
        elif match.group("muck"):
            hand.mucked.add(name)
        elif match.group("ignored"):
            if text == "doesn't show hand" and street == "showdown":
                hand.mucked.add(name)
        else:
            for kind in ("fold", "check", "call", "bet"):
                if match.group(kind) is not None:
                    amount = 0 if kind in ("fold", "check") else self.amount(match.group(kind))
                    hand.actions.append(Action(name, kind, amount, all_in, street, line_number))
                    return
            hand.actions.append(Action(name, "raise", self.amount(match.group("raise_to")),
                                       all_in, street, line_number))

    def _summary_line(self, hand: PokerStarsHand, line: str, seat_names: dict[int, str],
                      summary_boards: dict[int, str]) -> None:
        if match := _TOTAL_POT.match(line):
            hand.total_pot = self.amount(match.group("total"))
            hand.rake = self.amount(match.group("rake"))
            hand.stated_pots = [self.amount(pot.group("amount"))
                                for pot in _STATED_POT.finditer(match.group("pots"))]
        elif match := _SUMMARY_BOARD.match(line):
            index = _RUN_INDEX[match.group("run")]
            summary_boards[index] = self.cards(match.group("cards").strip())
            hand.board_lines.setdefault(0, self.first_line + self.line_index)
            if match.group("run"):
                hand.run_count = max(hand.run_count, index + 1)
        elif match := _SUMMARY_SEAT.match(line):
            name = seat_names.get(int(match.group("seat")))
            if name is None:
                return  # a seat that sat out this hand
            rest = match.group("rest")
            won = sum(self.amount(found.group("amount")) for found in _SUMMARY_WON.finditer(rest))
            hand.summary_won[name] = won
            hand.record_lines.setdefault(name, self.first_line + self.line_index)
            if cards := _SUMMARY_CARDS.search(rest):
                known = self.cards(cards.group("cards").strip())
                if len(known.split()) > len(hand.hole_cards.get(name, "").split()):
                    hand.hole_cards[name] = known
                    hand.card_lines[name] = self.first_line + self.line_index


def parse_pokerstars_text(text: str, source: str = "<text>") -> list[PokerStarsHand | HandHistoryError]:
    """Parse every hand of a PokerStars file's text.

    Returns
    -------
    list
        One entry per hand, in file order: the :class:`PokerStarsHand`, or the
        :class:`HandHistoryError` that hand raised (a bad hand never stops the others).
    """
    return parse_pokerstars_blocks(split_hands(text), source)


def parse_pokerstars_blocks(blocks: list[tuple[int, list[str]]],
                            source: str = "<text>") -> list[PokerStarsHand | HandHistoryError]:
    """Parse hands already split by :func:`split_hands` (see :func:`parse_pokerstars_text`)."""
    return [parse_block(PokerStarsBlock(source, first_line, tuple(lines))) for first_line, lines in blocks]


def parse_block(block: PokerStarsBlock) -> PokerStarsHand | HandHistoryError:
    """One hand's lines parsed: the :class:`PokerStarsHand`, or the error it raised."""
    try:
        return _Reader(block.source, block.first_line, list(block.lines)).parse()
    except HandHistoryError as error:
        return error


def read_pokerstars(path: str | Path) -> list[PokerStarsHand | HandHistoryError]:
    """Parse every hand of a PokerStars hand-history file (see :func:`parse_pokerstars_text`).

    The file is read as UTF-8 (a byte-order mark is allowed), a line that is not UTF-8 as
    Latin-1, the two encodings PokerStars has written.
    """
    return [item if isinstance(item, HandHistoryError) else parse_block(item)
            for item in read_pokerstars_items(Path(path))]


@dataclass(frozen=True)
class PokerStarsBlock:
    """The lines of one PokerStars hand, not parsed yet (small enough to hand to another
    process): ``first_line`` is the 1-based line of ``lines[0]`` in ``source``."""

    source: str
    first_line: int
    lines: tuple[str, ...]




# Bounds of what is held at once while reading a file, so that a file that is not a hand
# history (``/dev/zero``, a huge file with no line end) stops with one line instead of growing
# memory: a line (a PokerStars line is under 200 bytes; batch bounds its lines the same way),
# and a hand (a hand is some 20 to 200 lines, a few kilobytes).
MAX_LINE_BYTES = 65_536
MAX_HAND_LINES = 10_000
MAX_HAND_BYTES = 1 << 20


class InputTooLong(Exception):
    """A line or a hand over the bounds above: the file is not read further."""

    def __init__(self, reason: str, line_number: int):
        super().__init__(reason)
        self.reason = reason
        self.line_number = line_number


def _decode(raw: bytes) -> str:
    """PokerStars writes UTF-8 (older files Latin-1): a line that is not UTF-8 is Latin-1."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def pokerstars_blocks(lines: Iterable[str], source: str = "<text>") -> Iterator[PokerStarsBlock]:
    """The hands of a PokerStars file's lines, one block each, as soon as each is read.

    A hand starts at a ``PokerStars ... #`` header line and ends at a blank line or the next
    header. Non-blank lines outside any hand come back as a block of their own (its first line
    is not a header), so the reader reports them instead of dropping them silently.
    """
    current: list[str] = []
    first = 0
    held = 0  # characters of the hand read so far
    for number, raw in enumerate(lines, start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line:
            if current:
                yield PokerStarsBlock(source, first, tuple(current))
            current = []
        elif current and not is_header(line):
            current.append(line)
            held += len(line)
            if len(current) > MAX_HAND_LINES or held > MAX_HAND_BYTES:
                raise InputTooLong(f"a hand longer than {MAX_HAND_LINES:,} lines or {MAX_HAND_BYTES:,} characters "
                                   "(no blank line or hand header): not a hand history; stopped reading the file",
                                   first)
        else:
            held = len(line)
            if current:
                yield PokerStarsBlock(source, first, tuple(current))
            current, first = [line], number
    if current:
        yield PokerStarsBlock(source, first, tuple(current))


def _file_lines(path: Path) -> Iterator[str]:
    """The lines of a file, each read with a bound (:data:`MAX_LINE_BYTES`)."""
    with path.open("rb") as stream:
        number = 0
        while raw := stream.readline(MAX_LINE_BYTES + 1):
            number += 1
            if len(raw) > MAX_LINE_BYTES:
                raise InputTooLong(f"line {number} is longer than {MAX_LINE_BYTES:,} bytes: not a hand history; "
                                   "stopped reading the file", number)
            yield _decode(raw)


def read_pokerstars_items(path: Path) -> Iterator[PokerStarsBlock | HandHistoryError]:
    """The hands of a PokerStars file as they are read, one block of lines each (parsed by
    :func:`parse_block`), or the error of a file that cannot be read or is not a
    PokerStars hand history."""
    source = str(path)
    blocks = pokerstars_blocks(_file_lines(path), source)
    try:
        first_block = next(blocks, None)
    except OSError as error:
        yield HandHistoryError(f"cannot read the file: {error.strerror}", source=source)
        return
    except InputTooLong as error:
        yield HandHistoryError(error.reason, source=source, line_number=error.line_number)
        return
    if first_block is None or not is_header(first_block.lines[0]):
        yield HandHistoryError("not a hand history we read: expected a text file of PokerStars ('PokerStars Hand "
                               "#...'), Run It Once, PokerMaster, GGPoker, Winamax or Bovada, or a .phh/.phhs file",
                               source=source,
                               line_number=first_block.first_line if first_block else 1)
        return
    yield first_block
    try:
        yield from blocks
    except OSError as error:
        yield HandHistoryError(f"cannot read the rest of the file: {error.strerror}", source=source)
    except InputTooLong as error:
        yield HandHistoryError(error.reason, source=source, line_number=error.line_number)
