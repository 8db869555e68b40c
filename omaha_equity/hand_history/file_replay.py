"""Replaying a hand history for the all-in EV, and checking the replay against the file.

Both formats arrive here as a PHH :class:`~omaha_equity.hand_history.phh.HandHistory` (a
PokerStars hand through :mod:`~omaha_equity.hand_history.pokerstars_phh`), so one replay serves
both: :func:`~omaha_equity.hand_history.replay.replay` plays it through the rules engine (every
action checked), then:

- **Rake.** When the history states the rake the room took (``_rake``, and ``_stated_pots``:
  the pots after rake), the replay takes exactly that rake from each pot
  (:class:`omaha_equity.rules.StatedRake`), the split of each pot after rake following the
  same rules.
- **Check.** What the replay pays each player must equal the file's record: ``winnings`` (the
  chips each player collected), ``_returned`` (uncalled chips given back), or, with neither,
  ``finishing_stacks``. A difference is a :class:`HandHistoryError`: the hand is reported,
  never guessed.
- The finished hand becomes a :class:`PlayedHand`: what the all-in EV
  (:mod:`omaha_equity.ev`) and ``convert`` need of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from ..errors import InputError
from ..rules import ActionKind, Hand, Settlement
from .errors import HandHistoryError
from .phh import HandHistory
from .pokerstars import PokerStarsHand
from .pokerstars_phh import to_session_hand
from .records import SessionHand
from .replay import Replay, ReplayError, replay

_BETTING = {ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE,
            ActionKind.COMPLETE}


@dataclass(frozen=True)
class OutsidePot:
    """Money a player settled with the room outside the pot (GGPoker's EV Cashout and all-in
    insurance): never part of the replay or of what the pots paid, reported beside them.

    Attributes
    ----------
    kind : str
        ``EV Cashout`` or ``all-in insurance``.
    paid, received : int
        Chips the player paid the room (cash-out risk, insurance premium) and received from it
        (the cash-out, the insurance compensation).
    """

    kind: str
    paid: int
    received: int

    @property
    def net(self) -> int:
        """Chips received less chips paid."""
        return self.received - self.paid


@dataclass(frozen=True)
class PlayedHand:
    """A replayed hand: what the all-in EV needs, players in odd-chip order (index 0 is the
    first seat left of the button).

    Attributes
    ----------
    source, hand_id : str
        The file and the hand's id; ``line_number`` its first line when known.
    game : str
        Our game name (``omaha``, ``omaha8``, ...).
    unit : str
        The currency (``USD``, ``EUR``, ...) or ``chips`` (tournaments, play chips).
    chip_value : Fraction
        Value of one chip in ``unit`` (``1/100`` when amounts are cents).
    names : tuple of str
        Player names.
    committed : tuple of int
        Chips each player put in the pots (blinds, antes and dead blinds included, uncalled
        chips returned excluded).
    dead_chips : tuple of int
        The dead part of ``committed`` (an ante paid by some players only, such as a big-blind
        ante; the dead small blind of a missed-blinds post): it makes no pot level but the
        first pot every player still in may win (``pots.side_pots``).
    folded : tuple of bool
        Folded (not eligible for any pot).
    hole_cards : tuple
        Each player's hole cards (tuple of int) when all of them are known, else None.
    boards : tuple of tuple of int
        The board of each run as dealt (one run unless run twice).
    all_in_board_count : int or None
        Board cards dealt when the betting closed with the pot contested by two or more
        players of whom at most one had chips behind and cards still to come; None when the
        hand had no such point.
    won : tuple of int
        Chips each player got from the pots, all runs, after rake (the replay's settlement).
    pot_amounts, pot_rakes : tuple of int
        Each pot (main first) before rake, and the rake taken from it.
    cash_outs : dict
        Player index -> chips received instead of the pot.
    dead_cards : tuple of int
        Cards known to be out of the deck (hole cards of folded players the file shows).
    tournament : str or None
        The tournament whose chips these are (its number or name), None for a cash game.
    anonymous : bool
        True when the file names no players (PHH without ``players``): ``names`` are then the
        seats ``p1..pN`` of this hand only, not people.
    added_chips : dict
        Player index -> chips in ``committed`` (and ``dead_chips``) that the player did not pay:
        money the room added to the pot (Run It Once's splash-the-pot), carried by a player
        in the replay (PHH ``_added_to_pot``).
    notes : tuple of str
        What the reader made of damaged lines it read around (PHH ``_reading_notes``).
    outside_pot : dict
        Player index -> :class:`OutsidePot`, money settled with the room outside the pot
        (PHH ``_outside_pot``); ``won`` never counts it.
    """

    source: str
    hand_id: str
    line_number: int | None
    game: str
    unit: str
    chip_value: Fraction
    names: tuple[str, ...]
    committed: tuple[int, ...]
    folded: tuple[bool, ...]
    hole_cards: tuple[tuple[int, ...] | None, ...]
    boards: tuple[tuple[int, ...], ...]
    all_in_board_count: int | None
    won: tuple[int, ...]
    pot_amounts: tuple[int, ...]
    pot_rakes: tuple[int, ...]
    dead_chips: tuple[int, ...]
    cash_outs: dict[int, int] = field(default_factory=dict)
    dead_cards: tuple[int, ...] = ()
    tournament: str | None = None
    anonymous: bool = False
    added_chips: dict[int, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    outside_pot: dict[int, OutsidePot] = field(default_factory=dict)

    def live_committed(self, index: int) -> int:
        """Chips the player put in that make pot levels: ``committed`` less the dead chips."""
        return self.committed[index] - self.dead_chips[index]

    def paid(self, index: int) -> int:
        """Chips the player paid into the pots: ``committed`` less money the room added."""
        return self.committed[index] - self.added_chips.get(index, 0)

    def received(self, index: int) -> int:
        """Chips the player took home from the hand: the cash-out amount or the pots won."""
        return self.cash_outs.get(index, self.won[index])



def _chips(value: object, scale: int) -> int:
    # an amount of the record, or of a user-defined field (any TOML value: read from its text)
    return int(Decimal(str(value)) * scale)


def _fail(reason: str, source: str, hand_id: str, line_number: int | None) -> HandHistoryError:
    return HandHistoryError(reason, source=source, hand_id=hand_id, line_number=line_number)


def check_replay(result: Replay, settlement: Settlement, *, source: str, hand_id: str,
                 line_number: int | None, record_lines: Sequence[int | None] | None = None) -> None:
    """Compare the replay's payouts with the history's record.

    Each player's chips back from the hand (pots won plus uncalled chips returned) must equal
    the record's, ``winnings`` plus ``_returned``; a history without ``winnings`` must end
    with its ``finishing_stacks``. Comparing the sum, not its parts, accepts files that
    book an unmatched bet as collected with no "Uncalled bet" line (files converted to the
    PokerStars format from other sites): the stacks agree.

    Raises
    ------
    HandHistoryError
        ``the replay gives Hero 191650 back, the file says 191600`` (chips of the smallest
        unit), at the line of that player's record when ``record_lines`` (one per player) says
        it.
    """
    history = result.hand_history
    hand = result.hand
    scale = result.chip_scale
    names = hand.names
    back = [sum(settlement.players[seat].won) + hand.returned[seat] for seat in range(hand.seat_count)]
    returned = history.custom("_returned")
    if not (isinstance(returned, (list, tuple)) and len(returned) == hand.seat_count):
        returned = [0] * hand.seat_count
    if history.winnings is not None:
        expected = [_chips(won, scale) + _chips(back_chips, scale)
                    for won, back_chips in zip(history.winnings, returned)]
    elif history.finishing_stacks is not None:
        final = [hand.starting_stacks[seat] - hand.contributed[seat] + sum(settlement.players[seat].won)
                 for seat in range(hand.seat_count)]
        expected_stacks = [_chips(value, scale) for value in history.finishing_stacks]
        if final != expected_stacks:
            raise _fail(f"the replay ends with stacks {final}, the file says {expected_stacks}",
                        source, hand_id, line_number)
        return
    else:
        return
    for seat, (paid, wanted) in enumerate(zip(back, expected)):
        if paid != wanted:
            line = record_lines[seat] if record_lines and seat < len(record_lines) else None
            raise _fail(f"the replay gives {names[seat]} {paid} back (pots won and uncalled chips returned), "
                        f"the file says {wanted} (chips of the smallest unit)", source, hand_id,
                        line or line_number)


def all_in_board_count(hand: Hand) -> int | None:
    """Board cards dealt when the last betting decision was made, if the pot was then contested
    by two or more players of whom at most one had chips behind and the board was not complete
    (all in before the river); None otherwise."""
    settlement = hand.settlement
    if settlement is None or not settlement.showdown:
        return None
    in_hand = [seat for seat in range(hand.seat_count) if not hand.folded[seat]]
    with_chips = [seat for seat in in_hand if hand.starting_stacks[seat] - hand.contributed[seat] > 0]
    if len(in_hand) < 2 or len(with_chips) > 1:
        return None
    board_count = 0
    last_count = 1 if hand.game.exposed_first_flop_card else 0
    for action in hand.actions:
        if action.kind == ActionKind.DEAL_BOARD and action.run_index == 0:
            assert action.cards is not None  # a board deal names its cards
            board_count += len(action.cards)
        elif action.kind in _BETTING:
            last_count = board_count
    return last_count if last_count < 5 else None


def played_hand(result: Replay, settlement: Settlement, *, source: str, hand_id: str,
                line_number: int | None) -> PlayedHand:
    """The :class:`PlayedHand` of a replayed hand, players in odd-chip order."""
    hand = result.hand
    history = result.hand_history
    order = hand.positions
    scale = result.chip_scale
    hole_count = hand.game.hole_count
    hole_cards = [tuple(cards) if (cards := hand.hole_cards[seat]) and len(cards) == hole_count else None
                  for seat in order]
    dead = tuple(card for cards, seat in zip(hole_cards, order) if hand.folded[seat] and cards for card in cards)
    cash_outs = {}
    for player, paid in (history.custom("_cash_outs") or {}).items():
        seat = int(str(player).lstrip("p")) - 1
        cash_outs[order.index(seat)] = _chips(paid, scale)
    added_chips = {}
    for player, chips in (history.custom("_added_to_pot") or {}).items():
        seat = int(str(player).lstrip("p")) - 1
        added_chips[order.index(seat)] = _chips(chips, scale)
    outside_pot = {}
    for player, settled in (history.custom("_outside_pot") or {}).items():
        seat = int(str(player).lstrip("p")) - 1
        outside_pot[order.index(seat)] = OutsidePot(str(settled["kind"]), _chips(settled.get("paid", 0), scale),
                                                    _chips(settled.get("received", 0), scale))
    chip_value = Fraction(str(history.custom("_chip_value", "1"))) / scale
    return PlayedHand(
        source=source, hand_id=hand_id, line_number=line_number, game=hand.game.name,
        unit=history.currency or "chips", chip_value=chip_value,
        names=tuple(hand.names[seat] for seat in order),
        committed=tuple(hand.contributed[seat] for seat in order),
        folded=tuple(hand.folded[seat] for seat in order),
        hole_cards=tuple(hole_cards),
        boards=hand.boards,
        all_in_board_count=all_in_board_count(hand),
        won=tuple(sum(settlement.players[seat].won) for seat in order),
        pot_amounts=tuple(pot.amount for pot in settlement.pots),
        pot_rakes=tuple(pot.rake for pot in settlement.pots),
        cash_outs=cash_outs,
        dead_cards=dead,
        tournament=_tournament(history),
        anonymous=not history.players,
        dead_chips=tuple(hand.dead[seat] for seat in order),
        added_chips=added_chips,
        notes=tuple(str(note) for note in history.custom("_reading_notes") or ()),
        outside_pot=outside_pot,
    )


def _tournament(history: HandHistory) -> str | None:
    """The tournament whose chips a hand counts: ``_tournament`` (a PokerStars tournament
    number), else the PHH ``event`` of a hand in chips; None for money (``currency``)."""
    tournament = history.custom("_tournament")
    if tournament is not None:
        return str(tournament)
    if history.currency is None and history.event is not None:
        return str(history.event)
    return None


def replay_session_hand(hand: SessionHand) -> PlayedHand:
    """Replay one hand read from a file (a
    :class:`~omaha_equity.hand_history.records.SessionHand`, PokerStars or PHH) and check it
    against the file (see :func:`replay_for_ev`)."""
    return replay_for_ev(hand.history, source=hand.source, hand_id=hand.hand_id, line_number=hand.line_number,
                         action_lines=hand.action_lines, record_lines=hand.record_lines, last_line=hand.last_line)


def replay_checked(hand: SessionHand) -> PlayedHand | HandHistoryError:
    """:func:`replay_session_hand`, a bad hand's error returned, never raised: the file's
    reason, the engine's, or (a number or case the engine cannot handle) the exception named
    in one line. A session goes on whatever one hand holds."""
    try:
        return replay_session_hand(hand)
    except HandHistoryError as error:
        return error
    except InputError as error:  # cards the replay refuses, a number out of range
        reason = str(error)
    except UNEXPECTED_ERRORS as error:
        reason = unexpected_reason(error)
    return _fail(reason, hand.source, hand.hand_id, hand.line_number)


# What a number or a case the engine was not written for raises: one hand's problem, reported in
# one line, never the end of a session.
UNEXPECTED_ERRORS = (ArithmeticError, ValueError, TypeError, IndexError, KeyError, RecursionError)


def unexpected_reason(error: Exception) -> str:
    """``cannot be replayed here (OverflowError: ...)``, the message cut to 200 characters."""
    text = str(error)
    return f"cannot be replayed here ({type(error).__name__}: {text[:200]}{'...' if len(text) > 200 else ''})"


def replay_for_ev(history: HandHistory, *, source: str, hand_id: str, line_number: int | None = None,
                  action_lines: Sequence[int | None] | None = None,
                  record_lines: Sequence[int | None] | None = None, last_line: int | None = None) -> PlayedHand:
    """Replay a hand history, check it against its record, and return its :class:`PlayedHand`.

    Parameters
    ----------
    history : HandHistory
    source, hand_id : str
        For error messages.
    line_number : int, optional
        The hand's first line in its file.
    action_lines : sequence of int or None, optional
        The file line of each PHH action (a converted PokerStars hand), so that an illegal
        action names its line.
    record_lines : sequence of int or None, optional
        The file line of each player's record (what they collected), for a payout that differs.
    last_line : int, optional
        The hand's last line, for a hand whose actions stop before its end.

    Raises
    ------
    HandHistoryError
        An action the engine refuses (the engine's reason), a hand whose actions stop before
        its end, payouts that differ from the file's.
    """
    try:
        result = replay(history)
    except ReplayError as error:
        line = line_number
        reason = str(error)
        if error.action_index is not None and action_lines is not None and error.action_index < len(action_lines):
            line = action_lines[error.action_index] or line_number
            reason = error.reason
        raise _fail(reason, source, hand_id, line) from None
    if not result.complete:
        raise _fail(f"the hand does not finish: {result.incomplete_reason}", source, hand_id,
                    last_line or line_number)
    settlement = result.settlement
    assert settlement is not None  # a complete hand is settled
    check_replay(result, settlement, source=source, hand_id=hand_id, line_number=line_number,
                 record_lines=record_lines)
    return played_hand(result, settlement, source=source, hand_id=hand_id, line_number=line_number)


def replay_pokerstars_hand(hand: PokerStarsHand) -> PlayedHand:
    """Convert a PokerStars hand to PHH, replay it and check it against the file
    (:func:`replay_for_ev`); returns its ``PlayedHand``.

    Raises
    ------
    HandHistoryError
        The engine refuses an action (with its line), or pays other amounts than the file.
    """
    try:
        item = to_session_hand(hand)
    except InputError as error:
        raise HandHistoryError(str(error), source=hand.source, hand_id=hand.hand_id,
                               line_number=hand.line_number) from None
    return replay_session_hand(item)
