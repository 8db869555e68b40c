"""The showdown: the order of showing, show and muck, and the hands' values.

Source: ``docs/rules.md``, "Showdown" (order of showing and its alternative; to win, a player
must show). :class:`ShowdownMixin` is a part of :class:`~omaha_equity.rules.Hand`; it reads and
writes the hand's state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..cards import format_cards, parse_cards
from ..deal import CardsLike
from .actions import Action, ActionKind, IllegalActionError
from .payout import contested_pots
from .settings import ShowdownOrder
from .streets import Phase, Street

if TYPE_CHECKING:
    from ..evaluate.showdown import HandReading
    # the type checker sees the hand's state and helpers (HandCore); at run time a plain object
    from .state import HandCore as _HandPart
else:
    _HandPart = object


class ShowdownMixin(_HandPart):
    """The showdown actions of a hand (``show``, ``muck``) and hand values."""

    @property
    def showdown_seat(self) -> int | None:
        """The seat to show or muck next at showdown."""
        return self._showdown_queue[0] if self.phase == Phase.SHOWDOWN and self._showdown_queue else None

    def _begin_showdown(self) -> None:
        self.phase = Phase.SHOWDOWN
        self.actor = None
        contenders = self.in_hand
        first = None
        if self.settings.showdown_order == ShowdownOrder.FINAL_ROUND:
            first = self._aggressors[Street.RIVER.index]
        else:
            first = next((seat for seat in reversed(self._aggressors) if seat is not None), None)
        if first is None or self.folded[first]:
            first = next(seat for seat in self.positions if not self.folded[seat])
        self._showdown_queue = [(first + offset) % self.seat_count for offset in range(self.seat_count)
                                if not self.folded[(first + offset) % self.seat_count]]
        assert len(self._showdown_queue) == len(contenders)

    def _showdown_seat(self, seat: int | None) -> int:
        if self.phase != Phase.SHOWDOWN or not self._showdown_queue:
            raise IllegalActionError(f"no showdown now: the hand is {self.phase.value}")
        if seat is None:
            return self._showdown_queue[0]
        self._check_seat(seat)
        if seat not in self._showdown_queue:
            raise IllegalActionError(f"{self.names[seat]} has no hand to show or muck")
        if self.settings.enforce_showdown_order and seat != self._showdown_queue[0]:
            raise IllegalActionError(f"{self.names[seat]} cannot act yet: {self.names[self._showdown_queue[0]]} "
                                     "shows or mucks first")
        return seat

    def verify_show(self, seat: int | None = None, cards: CardsLike | None = None) -> tuple[int, tuple[int, ...]]:
        """Check that ``seat`` (default: the next in showdown order) may show; ``cards`` are
        required when their hole cards are unknown and must match when known. Returns the seat
        and the cards.

        Raises
        ------
        IllegalActionError
            No showdown, out of order, unknown cards not given, cards that differ from the
            dealt ones or are already in play.
        """
        seat = self._showdown_seat(seat)
        known = self.hole_cards[seat]
        if cards is None:
            if known is None:
                raise IllegalActionError(f"{self.names[seat]}'s hole cards are unknown: give the cards shown")
            return seat, known
        parsed = parse_cards(cards)
        if known is not None:
            if sorted(parsed) != sorted(known):
                raise IllegalActionError(f"{self.names[seat]} holds {format_cards(known)}, not {format_cards(parsed)}")
            return seat, known
        if len(parsed) != self.game.hole_count:
            raise IllegalActionError(f"expected {self.game.hole_count} hole cards for {self.game.name}, got "
                                     f"{len(parsed)} in {format_cards(parsed)!r}")
        self._check_new_cards(self.names[seat], parsed)
        return seat, parsed

    def can_show(self, seat: int | None = None, cards: CardsLike | None = None) -> bool:
        return self._can(self.verify_show, seat, cards)

    def show(self, seat: int | None = None, cards: CardsLike | None = None) -> Action:
        """Show a hand at showdown (to win, a player must show all hole cards)."""
        seat, shown = self.verify_show(seat, cards)
        self.hole_cards[seat] = shown
        self.shown[seat] = True
        self._showdown_queue.remove(seat)
        action = self._record(ActionKind.SHOW, seat, cards=shown,
                              text=f"{self.names[seat]} shows {format_cards(shown)}{self._reading_text(seat)}")
        self._advance()
        return action

    def reading(self, seat: int, run_index: int = 0) -> HandReading:
        """The best high and low with the cards used (``evaluate.showdown.HandReading``) of a
        seat whose hole cards are known, on the complete board of one run."""
        from ..evaluate.showdown import read_hand

        # known cards are the caller's promise: unknown ones fail in the evaluator
        return read_hand(cast("tuple[int, ...]", self.hole_cards[seat]), self._boards[run_index], self.game.hilo)

    def hand_values(self, seat: int, run_index: int = 0) -> tuple[int, int]:
        """(high value, low value) of a seat whose hole cards are known, on the complete board
        of one run: the evaluator's encoding (larger is better; low 0 = no qualifying low, and
        always 0 in high-only games)."""
        key = (seat, run_index)
        if key not in self._readings:
            from ..evaluate.showdown import best_values

            # known cards are the caller's promise: unknown ones fail in the evaluator
            high, low = best_values(cast("tuple[int, ...]", self.hole_cards[seat]), self._boards[run_index])
            self._readings[key] = (high, low if self.game.hilo else 0)
        return self._readings[key]

    def _reading_text(self, seat: int) -> str:
        from ..evaluate.showdown import describe_high, describe_low

        parts = []
        for run_index in range(len(self._boards)):
            high, low = self.hand_values(seat, run_index)
            text = describe_high(high)
            if self.game.hilo:
                text += f"; {describe_low(low)}" if low else "; no low"
            parts.append(f"run {run_index + 1}: {text}" if len(self._boards) > 1 else text)
        return f" ({' | '.join(parts)})"

    def verify_muck(self, seat: int | None = None) -> int:
        """Check that ``seat`` (default: the next in showdown order) may muck: not when they
        hold the last hand not mucked in a pot they are eligible for. Returns the seat.

        Raises
        ------
        IllegalActionError
            No showdown, out of order, the last live hand of a pot.
        """
        seat = self._showdown_seat(seat)
        for pot_index, eligible in contested_pots(self):
            if seat in eligible and not any(other != seat and not self.mucked[other] for other in eligible):
                name = "the main pot" if pot_index == 0 else f"side pot {pot_index}"
                raise IllegalActionError(f"{self.names[seat]} cannot muck: theirs is the last hand for {name}")
        return seat

    def can_muck(self, seat: int | None = None) -> bool:
        return self._can(self.verify_muck, seat)

    def muck(self, seat: int | None = None) -> Action:
        """Throw a hand away unshown at showdown, giving up every pot."""
        seat = self.verify_muck(seat)
        self.mucked[seat] = True
        self._showdown_queue.remove(seat)
        action = self._record(ActionKind.MUCK, seat, text=f"{self.names[seat]} mucks")
        self._advance()
        return action
