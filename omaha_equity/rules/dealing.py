"""Dealing a hand: hole cards one at a time from the small blind, burns, the board street by
street (Courchevel's exposed first flop card), and running the board several times.

Source: ``docs/rules.md``, "Blinds, antes, dealing". Cards come from the caller (a hand
history), from cards given when the hand is created, or from a deck shuffled with a seed.
:class:`DealingMixin` is a part of :class:`~omaha_equity.rules.Hand`; it reads and writes the hand's
state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..cards import DECK_SIZE, check_no_duplicates, format_cards, parse_cards
from ..deal import CardsLike
from ..errors import InputError
from ..validate import is_whole_number
from ..games import BOARD_SIZE
from .actions import Action, ActionKind, IllegalActionError
from .streets import Phase, Street

if TYPE_CHECKING:
    # the type checker sees the hand's state and helpers (HandCore); at run time a plain object
    from .state import HandCore as _HandPart
else:
    _HandPart = object


class DealingMixin(_HandPart):
    """The dealing actions of a hand (``deal_hole_cards``, ``deal_board``, ``set_run_count``)."""

    @property
    def hole_cards_needed(self) -> tuple[int, ...]:
        """Seats still waiting for hole cards (manual dealing), in dealing order."""
        if self.phase != Phase.DEALING_HOLE_CARDS:
            return ()
        return tuple(seat for seat in self._deal_order() if not self._hole_dealt[seat])

    @property
    def board_cards_needed(self) -> int:
        """Board cards the next :meth:`deal_board` must give (0 when no board deal is due)."""
        if self.phase != Phase.DEALING_BOARD:
            return 0
        run = self._current_run()
        return 0 if run is None else self._run_target(run) - len(self._boards[run])

    def _parse_given_cards(self, hole_cards: Sequence[CardsLike | None] | None, board: CardsLike | None,
                           boards: Sequence[CardsLike] | None,
                           ) -> tuple[list[tuple[int, ...] | None] | None, list[tuple[int, ...]] | None]:
        hole_count = self.game.hole_count
        given_hole: list[tuple[int, ...] | None] | None = None
        groups: list[tuple[str, Sequence[int]]] = []
        if hole_cards is not None:
            if len(hole_cards) != self.seat_count:
                raise InputError(f"hole cards given for {len(hole_cards)} seats, the table has {self.seat_count}")
            given_hole = []
            for seat, cards in enumerate(hole_cards):
                if cards is None:
                    given_hole.append(None)
                    continue
                parsed = parse_cards(cards)
                if len(parsed) != hole_count:
                    raise InputError(f"expected {hole_count} hole cards for {self.game.name}, got {len(parsed)} "
                                     f"for {self.names[seat]} in {format_cards(parsed)!r}")
                given_hole.append(parsed)
                groups.append((self.names[seat], parsed))
        if board is not None and boards is not None:
            raise InputError("give either board or boards (one per run), not both")
        given_boards: list[tuple[int, ...]] | None = None
        if board is not None:
            given_boards = [parse_cards(board)]
        elif boards is not None:
            given_boards = [parse_cards(run) for run in boards]
        if given_boards is not None:
            for run_index, run in enumerate(given_boards):
                if len(run) > BOARD_SIZE:
                    raise InputError(f"a board has at most 5 cards, got {len(run)} in {format_cards(run)!r}")
                label = "board" if len(given_boards) == 1 else f"board of run {run_index + 1}"
                common = given_boards[0]
                shared = 0
                while shared < min(len(run), len(common)) and run[shared] == common[shared]:
                    shared += 1
                groups.append((label, run[shared:] if run_index else run))
        check_no_duplicates(groups)
        return given_hole, given_boards

    def _shuffled_deck(self, rng: random.Random) -> list[int]:
        known: set[int] = set()
        for cards in self._given_hole or ():
            known.update(cards or ())
        for run in self._given_boards or ():
            known.update(run)
        deck = [card for card in range(DECK_SIZE) if card not in known]
        rng.shuffle(deck)
        return deck

    def _deal_order(self) -> tuple[int, ...]:
        """Dealing starts at the small blind: left of the button, heads-up the button."""
        if self.seat_count == 2:
            return (self.button, (self.button + 1) % 2)
        return self.positions

    def _draw(self, count: int) -> tuple[int, ...]:
        assert self._deck is not None  # only the seeded deck is drawn from
        cards = tuple(self._deck[:count])
        del self._deck[:count]
        return cards

    def verify_deal_hole_cards(self, seat: int, cards: CardsLike | None = None) -> tuple[int, ...] | None:
        """Check that ``seat`` may be dealt ``cards`` now (``None``: unknown cards); returns the
        parsed cards.

        Raises
        ------
        IllegalActionError
            Not the time to deal hole cards, seat already dealt, wrong count, duplicate card.
        """
        self._check_seat(seat)
        if self.phase != Phase.DEALING_HOLE_CARDS:
            raise IllegalActionError(f"cannot deal hole cards now: the hand is {self.phase.value}")
        if self._hole_dealt[seat]:
            raise IllegalActionError(f"{self.names[seat]} already has hole cards")
        if cards is None:
            return None
        parsed = parse_cards(cards)
        if len(parsed) != self.game.hole_count:
            raise IllegalActionError(f"expected {self.game.hole_count} hole cards for {self.game.name}, got "
                                     f"{len(parsed)} in {format_cards(parsed)!r}")
        self._check_new_cards(self.names[seat], parsed)
        return parsed

    def can_deal_hole_cards(self, seat: int, cards: CardsLike | None = None) -> bool:
        return self._can(self.verify_deal_hole_cards, seat, cards)

    def deal_hole_cards(self, seat: int, cards: CardsLike | None = None) -> Action:
        """Deal one player's hole cards (``None``: face down and unknown, as for a player who
        never shows in a hand history)."""
        parsed = self.verify_deal_hole_cards(seat, cards)
        action = self._give_hole_cards(seat, parsed)
        self._advance()
        return action

    def _give_hole_cards(self, seat: int, cards: tuple[int, ...] | None) -> Action:
        self._hole_dealt[seat] = True
        self.hole_cards[seat] = cards
        shown = format_cards(cards) if cards is not None else "?" * (2 * self.game.hole_count)
        return self._record(ActionKind.DEAL_HOLE_CARDS, seat, cards=cards,
                            text=f"{self.names[seat]} is dealt {shown}")

    def _deal_hole_cards_automatically(self) -> bool:
        """Deal every seat from the given cards and the seeded deck (one card at a time from
        the small blind: the seeded deck is dealt round by round)."""
        if self._given_hole is None and self._deck is None:
            return False
        order = [seat for seat in self._deal_order() if not self._hole_dealt[seat]]
        dealt: dict[int, list[int]] = {seat: [] for seat in order}
        for _ in range(self.game.hole_count):
            for seat in order:
                given = self._given_hole[seat] if self._given_hole is not None else None
                if given is None and self._deck is not None:
                    dealt[seat].append(self._draw(1)[0])
        for seat in order:
            given = self._given_hole[seat] if self._given_hole is not None else None
            self._give_hole_cards(seat, given if given is not None else (tuple(dealt[seat]) or None))
        return True

    def _known_cards(self) -> dict[int, str]:
        known: dict[int, str] = {}
        for seat, cards in enumerate(self.hole_cards):
            for card in cards or ():
                known[card] = self.names[seat]
        for run_index, run in enumerate(self._boards):
            for card in run:
                known.setdefault(card, "the board" if len(self._boards) == 1 else f"the board of run {run_index + 1}")
        return known

    def _check_new_cards(self, label: str, cards: Sequence[int]) -> None:
        check_no_duplicates([(label, cards)])
        known = self._known_cards()
        for card in cards:
            if card in known:
                raise IllegalActionError(f"duplicate card {format_cards([card])} in {known[card]} and {label}")

    def _current_run(self) -> int | None:
        """The run the next board cards go to: when the board runs out after the betting, the
        runs are dealt one after the other, each to the river."""
        limit = BOARD_SIZE if self._running_out else self._board_target
        for run_index, run in enumerate(self._boards):
            if len(run) < limit:
                return run_index
        return None

    def _dealing_run(self) -> int:
        """The run the next board cards go to while the board is being dealt: one is always
        short then (``_advance`` leaves the dealing phase as soon as none is)."""
        run_index = self._current_run()
        assert run_index is not None
        return run_index

    def _run_target(self, run_index: int) -> int:
        """The size a run's board reaches with the next deal: this street's, or when running
        out, the next street's of that run."""
        if not self._running_out:
            return self._board_target
        size = len(self._boards[run_index])
        return next(count for count in (3, 4, 5) if count > size)

    def _deal_name(self, run_index: int) -> str:
        target = self._run_target(run_index)
        if target == 1:
            return "exposed first flop card"
        return {3: Street.FLOP, 4: Street.TURN, 5: Street.RIVER}[target].value

    def verify_deal_board(self, cards: CardsLike) -> tuple[int, ...]:
        """Check the next board deal: exactly the cards this street needs (3 for the flop, 1
        for the turn and the river; Courchevel: 1 exposed card before pre-flop betting, then 2
        to complete the flop), to the first run not yet dealt. Returns the parsed cards.

        Raises
        ------
        IllegalActionError
            No board deal due, a wrong number of cards, a duplicate card.
        """
        if self.phase != Phase.DEALING_BOARD:
            raise IllegalActionError(f"cannot deal board cards now: the hand is {self.phase.value}")
        parsed = parse_cards(cards)
        needed = self.board_cards_needed
        if len(parsed) != needed:
            what = self._deal_name(self._dealing_run())
            what = "the " + what if what.startswith("exposed") else what
            raise IllegalActionError(f"expected {needed} board card{'s' if needed != 1 else ''} for {what}, "
                                     f"got {len(parsed)} in {format_cards(parsed)!r}")
        self._check_new_cards("the board", parsed)
        return parsed

    def can_deal_board(self, cards: CardsLike) -> bool:
        return self._can(self.verify_deal_board, cards)

    def deal_board(self, cards: CardsLike) -> Action:
        """Deal the next board cards (to the first run still short of this street)."""
        parsed = self.verify_deal_board(cards)
        action = self._give_board(parsed, ())
        self._advance()
        return action

    def _give_board(self, cards: tuple[int, ...], burned: tuple[int, ...]) -> Action:
        run_index = self._dealing_run()
        what = self._deal_name(run_index)
        if self._running_out:
            self.street = Street(what)
        self._boards[run_index].extend(cards)
        run_text = f" (run {run_index + 1})" if len(self._boards) > 1 else ""
        board_text = format_cards(self._boards[run_index], separator=" ")
        return self._record(ActionKind.DEAL_BOARD, None, cards=cards, burned=burned, run_index=run_index,
                            text=f"*** {what.upper()}{run_text} *** [{board_text}]")

    def _deal_board_automatically(self) -> bool:
        run_index = self._dealing_run()
        run = self._boards[run_index]
        target = self._run_target(run_index)
        needed = target - len(run)
        if self._given_boards is not None:
            given = self._given_boards[min(run_index, len(self._given_boards) - 1)]
            if len(self._given_boards) == 1 and run_index > 0:
                given = ()
            if len(given) >= target and tuple(given[:len(run)]) == tuple(run):
                self._give_board(tuple(given[len(run):target]), ())
                return True
        if self._deck is None:
            return False
        still_needed = sum(BOARD_SIZE - len(board) for board in self._boards)
        burned = self._draw(1) if len(self._deck) > still_needed else ()
        self._give_board(self._draw(needed), burned)
        return True

    def _default_run_count(self) -> int:
        """The settings' run count (or one run per given board), as many as the deck allows."""
        run_count = self.settings.run_count
        if self._given_boards is not None and len(self._given_boards) > 1:
            run_count = len(self._given_boards)
        remaining = BOARD_SIZE - len(self._boards[0])
        if remaining:
            run_count = min(run_count, max(1, self._undealt_count() // remaining))
        return run_count

    def _undealt_count(self) -> int:
        """Cards left to deal: the seeded deck, else 52 less every card dealt (known or not)."""
        if self._deck is not None:
            return len(self._deck)
        dealt = sum(len(cards) if cards is not None else self.game.hole_count
                    for cards, was_dealt in zip(self.hole_cards, self._hole_dealt) if was_dealt)
        return DECK_SIZE - dealt - sum(len(run) for run in self._boards)

    def verify_set_run_count(self, run_count: int) -> None:
        """Check that the board may be run ``run_count`` times now: only at the all-in point
        (betting over, cards to come, none of them dealt yet).

        Raises
        ------
        IllegalActionError
            Not at the all-in point, a count below 1, not enough cards in the deck.
        """
        if not is_whole_number(run_count) or run_count < 1:
            raise IllegalActionError(f"bad run count {run_count!r}: expected a whole number >= 1")
        if (self.phase != Phase.DEALING_BOARD or not self._running_out
                or self._all_in_board_size is None or len(self._boards) != 1
                or len(self._boards[0]) != self._all_in_board_size):
            raise IllegalActionError("the board can be run several times only at the all-in point, before any "
                                     "more board card is dealt")
        remaining = BOARD_SIZE - self._all_in_board_size
        if run_count * remaining > self._undealt_count():
            raise IllegalActionError(f"not enough cards to run the board {run_count} times: "
                                     f"{self._undealt_count()} left, {run_count * remaining} needed")

    def can_set_run_count(self, run_count: int) -> bool:
        return self._can(self.verify_set_run_count, run_count)

    def set_run_count(self, run_count: int) -> Action:
        """Run the rest of the board ``run_count`` times (each pot divided into equal parts)."""
        self.verify_set_run_count(run_count)
        action = self._apply_run_count(int(run_count))
        self._advance()
        return action

    def _apply_run_count(self, run_count: int) -> Action:
        common = list(self._boards[0])
        self._boards = [list(common) for _ in range(run_count)]
        self.run_count = run_count
        return self._record(ActionKind.RUN_COUNT, None, amount=run_count,
                            text=f"The board is run {run_count} times")
