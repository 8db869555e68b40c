"""Hand settings where cardrooms differ: showdown order, run it N times, rake.

Source: ``docs/rules.md``, "Showdown" (order of showing and its alternative). Structure
settings (fixed-limit caps, the pot-limit small blind) live on the structures.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from ..errors import InputError, quoted
from ..pots import OddChipRule
from ..validate import is_whole_number
from .chips import check_chips


class ShowdownOrder(StrEnum):
    """Who shows first at showdown (``docs/rules.md``, "Showdown").

    ``FINAL_ROUND`` (default): the last player who bet or raised on the final round; with no
    bet on the river, the first player left of the button. ``LATEST_BET``: the last aggressor
    of the latest street that had a bet (one cardroom's rule); with no bet in the hand, the
    first player left of the button.
    """

    FINAL_ROUND = "final round"
    LATEST_BET = "latest bet"


@dataclass(frozen=True)
class Rake:
    """The house's cut of a cash pot, taken from the pots before they are split.

    Attributes
    ----------
    percent : Fraction
        Percent of the pot (``5`` for 5 %); given as int, str ("4.5") or Fraction.
    cap : int or None
        The most chips taken from one hand.
    no_flop_no_drop : bool
        Take nothing when the hand ends before the flop (default True).

    How it is taken: the hand's rake is ``min(floor(total * percent / 100), cap)`` chips of
    all the pots together; pot ``k`` (main pot first) gives ``rake(pots 0..k) - rake(pots
    0..k-1)``, i.e. the rake of the running total, so the main pot pays first once the cap is
    reached. This reproduces PokerStars' per-pot amounts (their 5 % rake).
    """

    percent: Fraction
    cap: int | None = None
    no_flop_no_drop: bool = True

    def __post_init__(self) -> None:
        bad = InputError(f"bad rake percent {quoted(self.percent)}: expected a number 0..100")
        percent = self.percent
        if not isinstance(percent, Fraction):
            text = str(percent)
            if len(text) > 100:
                raise bad
            try:
                # compared as a Decimal first: Fraction("1e999999999") would build a huge integer
                decimal = Decimal(text) if "/" not in text else None
                if decimal is not None and not (decimal.is_finite() and 0 <= decimal <= 100):
                    raise bad
                percent = Fraction(decimal) if decimal is not None else Fraction(text)
            except (ValueError, ZeroDivisionError, InvalidOperation):
                raise bad from None
        if not 0 <= percent <= 100:
            raise bad
        if self.cap is not None:
            object.__setattr__(self, "cap", check_chips(self.cap, "rake cap"))
        object.__setattr__(self, "percent", percent)

    def of(self, total: int) -> int:
        """Rake in chips of ``total`` chips of pot (rounded down, at most the cap)."""
        rake = total * self.percent.numerator // (100 * self.percent.denominator)
        return rake if self.cap is None else min(rake, self.cap)

    def split(self, pot_amounts: list[int]) -> list[int]:
        """The rake of each pot (main pot first), as described above; adds up to
        ``self.of(sum(pot_amounts))``."""
        taken, running, shares = 0, 0, []
        for amount in pot_amounts:
            running += amount
            share = self.of(running) - taken
            shares.append(share)
            taken += share
        return shares


@dataclass(frozen=True)
class StatedRake:
    """The rake a hand history states (a PokerStars summary's ``Rake 22``), taken exactly: a
    rake rule for :class:`HandSettings` like :class:`Rake`, for replaying real hands.

    Attributes
    ----------
    total : int
        Chips the room took from the hand.
    stated_pots : tuple of int
        The pots after rake when the history lists them (main pot first); empty otherwise.
    no_flop_no_drop : bool
        False: the stated rake is what the room took, flop or not.

    Each pot's rake (:meth:`split`): with ``stated_pots`` for as many pots as the hand has (and
    adding up with the total), the pot before rake minus the stated amount; otherwise the rake
    shared in proportion to the pots, rounded down, the chips left one each from the main pot on
    (with one pot, the whole rake).

    Raises
    ------
    InputError
        A total that is not a whole number of chips >= 0 (at creation); a rake larger than the
        pots (when the hand is settled).
    """

    total: int
    stated_pots: tuple[int, ...] = ()
    no_flop_no_drop: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", check_chips(self.total, "stated rake"))
        object.__setattr__(self, "stated_pots", tuple(check_chips(pot, "stated pot") for pot in self.stated_pots))

    def of(self, total: int) -> int:
        """The stated rake, whatever the pot (at most the pot)."""
        return min(self.total, total)

    def split(self, pot_amounts: list[int]) -> list[int]:
        """The rake of each pot (main pot first), adding up to the stated total."""
        pot_total = sum(pot_amounts)
        if self.total > pot_total:
            raise InputError(f"the stated rake {self.total} is more than the pots: {pot_total} chips")
        if self.stated_pots and len(self.stated_pots) == len(pot_amounts):
            shares = [amount - stated for amount, stated in zip(pot_amounts, self.stated_pots)]
            if all(share >= 0 for share in shares) and sum(shares) == self.total:
                return shares
            # stated pots that are not these pots less this rake: the total still holds
        shares = [self.total * amount // pot_total if pot_total else 0 for amount in pot_amounts]
        for index in range(self.total - sum(shares)):
            shares[index % len(shares)] += 1
        return shares


@dataclass(frozen=True)
class HandSettings:
    """Settings of one hand.

    Attributes
    ----------
    showdown_order : ShowdownOrder
        Default ``FINAL_ROUND`` (``docs/rules.md``, "Showdown").
    enforce_showdown_order : bool
        Default True: players show or muck in showdown order. False lets a replay (a
        PokerStars history) show in any order.
    run_count : int
        Deal the rest of the board this many times when the betting ends with cards to come
        (all-in); each pot is divided into ``run_count`` equal parts (odd chips to the first
        runs), each settled on its own board. Default 1. Can also be chosen at the all-in
        point with :meth:`Hand.set_run_count`.
    rake : Rake, StatedRake or None
        Default None (no rake). :class:`StatedRake` takes the rake a history states.
    fold_when_check_allowed : bool
        Default False: a player with nothing to call may not fold (``docs/rules.md``,
        "Betting rounds": fold, check, bet, call or raise, check only with nothing to call;
        the engine keeps a free fold out as a mistake). True accepts the fold, as online
        rooms do (PokerStars lets a player fold when he could check); the hand goes on as
        after any fold. A replay of a file sets it (PHH: ``_fold_when_check_allowed``).
    raise_when_nobody_can_call : bool
        Default False: no bet or raise when every other player is all-in or covered (nobody
        could call it). True accepts it, as PokerStars and the rooms writing its format did;
        the part nobody matched comes back to the raiser as any unmatched bet does. A replay
        of a file sets it (PHH: ``_raise_when_nobody_can_call``).
    odd_chip : OddChipRule
        Where the chips go that a split cannot divide. Default ``LEFT_OF_BUTTON``
        (``docs/rules.md``, "Showdown": the odd chip of a high/low split to the high half,
        among tied players from the first seat left of the button; Robert's Rules of Poker,
        WSOP rule 73). ``LOW_REMAINDER_TO_HIGH``: what a split low half leaves goes to the high
        half, as Bovada pays (PHH: ``_odd_chip = "low remainder to high"``).
    """

    showdown_order: ShowdownOrder = ShowdownOrder.FINAL_ROUND
    enforce_showdown_order: bool = True
    run_count: int = 1
    rake: Rake | StatedRake | None = None
    fold_when_check_allowed: bool = False
    raise_when_nobody_can_call: bool = False
    odd_chip: OddChipRule = OddChipRule.LEFT_OF_BUTTON

    def __post_init__(self) -> None:
        object.__setattr__(self, "showdown_order", ShowdownOrder(self.showdown_order))
        try:
            object.__setattr__(self, "odd_chip", OddChipRule(self.odd_chip))
        except ValueError:
            rules = " or ".join(repr(rule.value) for rule in OddChipRule)
            raise InputError(f"bad odd-chip rule {quoted(self.odd_chip)}: expected {rules}") from None
        if not is_whole_number(self.run_count) or self.run_count < 1:
            raise InputError(f"bad run count {self.run_count!r}: expected a whole number >= 1")
        object.__setattr__(self, "run_count", int(self.run_count))
        if not isinstance(self.fold_when_check_allowed, bool):
            raise InputError(f"bad fold_when_check_allowed {self.fold_when_check_allowed!r}: expected True or False")
