"""All-in EV of played hands: what each player was expected to win when the money went in, and
the luck (won minus expected) over a session.

For each replayed hand (a :class:`PlayedHand`, built from the rules engine's replay by
:mod:`~omaha_equity.hand_history.file_replay`): when the betting closed before the river with at
least two players in the pot and at most one of them not all in (no more decisions to make),
and every one of them showed all their hole cards, each such player's **all-in EV** is the
exact expected number of chips they get back, averaged over every remaining board
(:func:`~omaha_equity.equity.expected_chips.calculate_allin`), with the hand's own main and side pots
(the folded players' chips stay in the pots as dead money; cards the file shows of folded
players are dead). It is compared with what they actually won:
``luck = won - all-in EV``.

Choices, documented here and in the README:

- **Rake.** The file states the rake of each pot (or of the one pot); the room takes it
  whatever the board. A player's EV from a pot is their expected chips from it, paid by the
  rules on every board (side pots, high/low halves, odd chips), scaled by
  ``(pot - rake) / pot``: the rake is taken in proportion to each player's expectation.
- **Run it twice.** Each run of the board is a uniformly random run-out of the remaining cards,
  so the expected value of running twice equals that of running once: the EV is computed once
  over the remaining boards for the whole pot; *won* adds both runs as played.
- **Cash-out** (PokerStars' "cashed out the hand for X"): the player received X instead of the
  pot; X is what they won (luck ``X - EV``, which is about the cash-out fee), while the replay
  check still compares the pot award the file reports.
- **Outside the pot** (GGPoker's EV Cashout and all-in insurance): money the player settled
  with the room, not with the pot. *won* and *luck* stay the pot's; the player's line carries
  what was paid and received apart (``outside_pot``), and *took home* (won plus that) set
  against the all-in EV says what the cash-out or the insurance paid against the expectation.
- Hands not all in before the river count in the summary with EV equal to what they won (no
  luck), as the all-in adjusted results of trackers do.

Amounts are integer chips of the file's smallest unit (cents for cash games); EVs are exact
``Fraction`` s of a chip.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

from ..cards import format_cards
from ..hand_history.file_replay import OutsidePot, PlayedHand

STREET_OF_BOARD_COUNT = {0: "preflop", 1: "preflop", 3: "flop", 4: "turn"}


@dataclass(frozen=True)
class PlayerHandEV:
    """One player's line of a hand: chips committed and won, all-in EV (None when the hand was
    not evaluated for this player)."""

    name: str
    committed: int
    won: int
    all_in_ev: Fraction | None
    outside_pot: OutsidePot | None = None

    @property
    def luck(self) -> Fraction | None:
        """``won - all_in_ev``: chips won above (or below) expectation."""
        return None if self.all_in_ev is None else self.won - self.all_in_ev

    @property
    def took_home(self) -> int:
        """What the player got from the hand: the pots won and the money settled outside the
        pot (received less paid)."""
        return self.won + (self.outside_pot.net if self.outside_pot else 0)

    @property
    def outside_pot_against_ev(self) -> Fraction | None:
        """``took_home - all_in_ev`` for a player who settled money outside the pot: what the
        cash-out or the insurance paid against the all-in EV; None otherwise."""
        if self.outside_pot is None or self.all_in_ev is None:
            return None
        return self.took_home - self.all_in_ev

    @property
    def net_won(self) -> int:
        return self.won - self.committed

    @property
    def net_ev(self) -> Fraction:
        """EV minus committed; what was won minus committed when not all in."""
        return (self.all_in_ev if self.all_in_ev is not None else Fraction(self.won)) - self.committed


@dataclass(frozen=True)
class HandEV:
    """The all-in EV of one hand.

    Attributes
    ----------
    source, hand_id, game, unit, chip_value
        As in :class:`PlayedHand`.
    all_in_street : str or None
        ``preflop``, ``flop`` or ``turn`` when the hand was all in before the river.
    all_in_board : str
        The board cards known at that point (``""`` pre-flop).
    evaluated : bool
        True when the all-in EV was computed (every player in the pot showed all their cards).
    note : str
        Why an all-in hand was not evaluated, e.g. ``plr5 showed 2 of 4 hole cards``, after
        what the reader made of a damaged line (the board taken from the summary), ``; `` between.
    players : tuple of PlayerHandEV
        Every player dealt in (odd-chip order).
    tournament, anonymous, line_number
        As in :class:`PlayedHand`.
    """

    source: str
    hand_id: str
    game: str
    unit: str
    chip_value: Fraction
    all_in_street: str | None
    all_in_board: str
    evaluated: bool
    note: str
    players: tuple[PlayerHandEV, ...]
    tournament: str | None = None
    anonymous: bool = False
    line_number: int | None = None


def all_in_spot(hand: PlayedHand) -> tuple[list[int], str]:
    """The players in an all-in spot and why the spot cannot be evaluated (``""`` if it can).

    Returns ``([], "")`` when the hand was not all in before the river.
    """
    if hand.all_in_board_count is None or hand.all_in_board_count >= 5:
        return [], ""
    contestants = [index for index, folded in enumerate(hand.folded) if not folded]
    if len(contestants) < 2:
        return [], ""
    game_hole_count = max((len(cards) for cards in hand.hole_cards if cards), default=0)
    shown: list[tuple[int, ...]] = []
    for index in contestants:
        cards = hand.hole_cards[index]
        if cards is None:
            return contestants, f"{hand.names[index]} did not show all their hole cards"
        shown.append(cards)
    if any(len(cards) != game_hole_count for cards in shown):
        return contestants, "hole cards of unequal counts"
    return contestants, ""


def evaluate_hand(hand: PlayedHand) -> HandEV:
    """The all-in EV of every player in the pot of one replayed hand (see the module notes).

    Parameters
    ----------
    hand : PlayedHand

    Raises
    ------
    InputError
        From ``calculate_allin`` when the cards are inconsistent (a duplicate card).
    """
    contestants, note = all_in_spot(hand)
    board_count = hand.all_in_board_count if contestants else None
    known_board = hand.boards[0][:board_count] if board_count else ()
    evs: dict[int, Fraction] = {}
    if contestants and not note:
        evs = expected_chips_after_rake(hand, contestants, known_board)
    players = tuple(
        PlayerHandEV(name, hand.paid(index), hand.received(index), evs.get(index), hand.outside_pot.get(index))
        for index, name in enumerate(hand.names)
    )
    return HandEV(
        source=hand.source, hand_id=hand.hand_id, game=hand.game, unit=hand.unit,
        chip_value=hand.chip_value,
        all_in_street=STREET_OF_BOARD_COUNT.get(board_count) if board_count is not None else None,
        all_in_board=format_cards(known_board, separator=" "),
        evaluated=bool(evs), note="; ".join((*hand.notes, note) if note else hand.notes), players=players,
        tournament=hand.tournament, anonymous=hand.anonymous,
        line_number=hand.line_number,
    )


def expected_chips_after_rake(hand: PlayedHand, contestants: Sequence[int],
                              known_board: Sequence[int]) -> dict[int, Fraction]:
    """Each contestant's expected chips over every remaining board, each pot after its rake.

    :func:`~omaha_equity.equity.expected_chips.calculate_allin` enumerates every remaining board exactly
    and pays each pot by the rules (side pots, high/low halves, odd chips) with the
    contestants' hands and contributions, the folded players' contributions as dead money in
    the pots they reached, and the dead cards; each pot's expected chips are then scaled by
    ``(pot - rake) / pot``.

    Raises
    ------
    InputError
        Inconsistent cards (a card in two hands, or in a hand and the board).
    """
    from ..equity.expected_chips import calculate_allin

    folders = [index for index in range(len(hand.names)) if index not in contestants and hand.committed[index] > 0]
    # One thread: an all-in is a small enumeration, and threads cost more than they save on it
    # (a session runs thousands of them).
    # the contestants' cards are known (all_in_spot's contestants): the caller's promise
    result = calculate_allin(cast("list[tuple[int, ...]]", [hand.hole_cards[index] for index in contestants]),
                             [hand.live_committed(index) for index in contestants],
                             board=list(known_board), dead=list(hand.dead_cards), game=hand.game,
                             folded=[hand.live_committed(index) for index in folders],
                             dead_chips=[hand.dead_chips[index] for index in contestants],
                             folded_dead_chips=[hand.dead_chips[index] for index in folders],
                             method="exact", threads=1)
    amounts = [pot.amount for pot in result.pots]
    # each pot's rake is the settlement's when the pots are the same, else the hand's rake
    # shared in proportion to the pots (rounded down, the rest to the main pot first)
    rakes = list(hand.pot_rakes) if amounts == list(hand.pot_amounts) else _shared_rake(sum(hand.pot_rakes), amounts)
    evs: dict[int, Fraction] = {}
    for position, index in enumerate(contestants):
        expected = result.players[position].pot_chips_exact
        assert expected is not None  # an exact enumeration has exact pot chips
        evs[index] = sum((Fraction(chips) * (amount - rake) / amount
                          for chips, amount, rake in zip(expected, amounts, rakes) if amount), Fraction(0))
    return evs


def _shared_rake(total: int, amounts: Sequence[int]) -> list[int]:
    """The hand's rake shared over other pots than the settlement's: in proportion, as a stated
    rake without stated pots is shared (:class:`omaha_equity.rules.StatedRake`)."""
    from ..rules import StatedRake

    return StatedRake(total).split(list(amounts))


@dataclass
class PlayerSummary:
    """One player's session in one unit (a currency, or ``chips``) and, for tournament chips,
    one tournament (chips of different tournaments, and chips and money, are never added):
    hands dealt, all-in hands evaluated, net won, net all-in EV (EV minus committed in all-in
    hands, net won elsewhere) and luck (their difference), all of the pots; ``outside_pot`` the
    net money settled with the room outside the pot (EV Cashout, insurance). Amounts are exact,
    in ``unit`` (dollars, not cents)."""

    name: str
    unit: str
    tournament: str | None = None
    hand_count: int = 0
    all_in_hand_count: int = 0
    net_won: Fraction = Fraction(0)
    net_all_in_ev: Fraction = Fraction(0)
    outside_pot: Fraction = Fraction(0)

    @property
    def luck(self) -> Fraction:
        return self.net_won - self.net_all_in_ev


class PlayerSummaries:
    """Per-player totals built one hand at a time (a session streams): keyed by player, unit
    and tournament, in order of first appearance. Hands of a file that names no players are
    left out: their ``p1..pN`` are seats of one hand, not people across hands."""

    def __init__(self) -> None:
        self._summaries: dict[tuple[str, str, str | None], PlayerSummary] = {}

    def add(self, hand: HandEV) -> None:
        if hand.anonymous:
            return
        for player in hand.players:
            key = (player.name, hand.unit, hand.tournament)
            summary = self._summaries.get(key)
            if summary is None:
                summary = self._summaries[key] = PlayerSummary(player.name, hand.unit, hand.tournament)
            summary.hand_count += 1
            summary.all_in_hand_count += player.all_in_ev is not None
            summary.net_won += player.net_won * hand.chip_value
            summary.net_all_in_ev += player.net_ev * hand.chip_value
            if player.outside_pot is not None:
                summary.outside_pot += player.outside_pot.net * hand.chip_value

    def summaries(self) -> list[PlayerSummary]:
        return list(self._summaries.values())


def summarize(hands: Iterable[HandEV]) -> list[PlayerSummary]:
    """Per player, unit and tournament: the session totals of the hands' lines (see
    :class:`PlayerSummary`, :class:`PlayerSummaries`), in order of first appearance."""
    summaries = PlayerSummaries()
    for hand in hands:
        summaries.add(hand)
    return summaries.summaries()
