"""Forced bets: antes, blinds, straddles and missed-blind posts, per seat.

Source: ``docs/rules.md``, "Blinds, antes, dealing". Seats are indexes into the hand's stacks,
in clockwise table order; the button is one of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import InputError
from .chips import check_chips


def _amounts(name: str, values: Sequence[int], seat_count: int) -> tuple[int, ...]:
    values = tuple(values) if values else (0,) * seat_count
    if len(values) != seat_count:
        raise InputError(f"{name} lists {len(values)} amounts for {seat_count} seats: expected one per seat")
    return tuple(check_chips(value, name[:-1]) for value in values)


@dataclass(frozen=True)
class ForcedBets:
    """Everything posted before the cards are dealt, per seat (``docs/rules.md``, "Blinds,
    antes, dealing").

    Attributes
    ----------
    antes : tuple of int
        Dead chips per seat, paid before the deal (a big-blind ante is an ante of the big blind
        seat only).
    blinds : tuple of int
        Live chips per seat: small blind, big blind, straddles, and the big blind posted by a
        new player or a player who missed the blinds. A live blind counts toward that player's
        call, and a player whose live blind equals the bet still has the option to raise.
    dead_blinds : tuple of int
        Dead chips per seat: the small-blind part of "posts small & big blinds" (missed blinds).
        They go to the pot and do not count as the player's bet.
    first_to_act : int or None
        The seat acting first pre-flop. Default: the seat after the big blind seat (the second
        seat left of the button; heads-up the player who is not the button), or after the last
        straddle following it (each larger than the blind before): "under the gun", by seat
        even when the blinds are equal, and heads-up the button. When neither blind seat posts,
        the seat after the largest live blind.

    A player who cannot cover a post puts in what they have and is all-in; the bet to call
    pre-flop is still the full largest blind.

    Raises
    ------
    InputError
        Lists of the wrong length, negative amounts.
    """

    antes: tuple[int, ...]
    blinds: tuple[int, ...]
    dead_blinds: tuple[int, ...] = ()
    first_to_act: int | None = None

    def __post_init__(self) -> None:
        seat_count = len(self.blinds) or len(self.antes)
        object.__setattr__(self, "antes", _amounts("antes", self.antes, seat_count))
        object.__setattr__(self, "blinds", _amounts("blinds", self.blinds, seat_count))
        object.__setattr__(self, "dead_blinds", _amounts("dead blinds", self.dead_blinds, seat_count))
        if self.first_to_act is not None and not 0 <= self.first_to_act < seat_count:
            raise InputError(f"bad first_to_act seat {self.first_to_act!r}: expected 0..{seat_count - 1}")

    @property
    def seat_count(self) -> int:
        return len(self.blinds)

    @classmethod
    def standard(cls, seat_count: int, button: int, small_blind: int, big_blind: int, *, ante: int = 0,
                 big_blind_ante: int = 0, straddles: Sequence[int] = ()) -> ForcedBets:
        """Blinds by position: the seat left of the button posts the small blind, the next the
        big blind; heads-up the button posts the small blind (``docs/rules.md``).

        Parameters
        ----------
        seat_count : int
            Players dealt in (2 or more).
        button : int
            The button's seat, 0..seat_count-1.
        small_blind, big_blind : int
            Chips; either may be 0 (a single blind: ``small_blind=0``).
        ante : int
            Every player's ante.
        big_blind_ante : int
            An ante paid by the big blind alone (tournaments).
        straddles : sequence of int
            Live straddles posted by the seats after the big blind, in order.

        Raises
        ------
        InputError
            Fewer than 2 seats, a button outside the table, more straddles than seats.
        """
        if seat_count < 2:
            raise InputError(f"a hand needs at least 2 players, got {seat_count}")
        if not 0 <= button < seat_count:
            raise InputError(f"bad button seat {button!r}: expected 0..{seat_count - 1}")
        if len(straddles) > seat_count - 2:
            raise InputError(f"{len(straddles)} straddles at a table of {seat_count}: too many")
        if seat_count == 2:
            small_seat, big_seat = button, (button + 1) % 2
        else:
            small_seat, big_seat = (button + 1) % seat_count, (button + 2) % seat_count
        blinds = [0] * seat_count
        blinds[small_seat] = small_blind
        blinds[big_seat] = big_blind
        for offset, straddle in enumerate(straddles, start=1):
            blinds[(big_seat + offset) % seat_count] = straddle
        antes = [ante] * seat_count
        antes[big_seat] += big_blind_ante
        return cls(tuple(antes), tuple(blinds), (0,) * seat_count)
