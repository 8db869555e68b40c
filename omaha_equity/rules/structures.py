"""Betting structures: fixed limit, pot limit and no limit, each with its sizes and settings.

Source: ``docs/rules.md``, "Betting structures". Amounts are integer chips (the smallest chip).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .chips import check_chips
from .streets import Street


class StructureKind(StrEnum):
    """The three betting structures."""

    FIXED_LIMIT = "fixed limit"
    POT_LIMIT = "pot limit"
    NO_LIMIT = "no limit"


def _check_amount(structure: object, field: str, name: str, minimum: int = 1) -> None:
    # stored as the int check_chips returns (a numpy integer is taken as its value)
    object.__setattr__(structure, field, check_chips(getattr(structure, field), name, minimum))


@dataclass(frozen=True)
class FixedLimit:
    """Fixed limit: every bet and raise is one small bet pre-flop and on the flop, one big bet
    on the turn and river (``docs/rules.md``, "Betting structures").

    Attributes
    ----------
    small_bet, big_bet : int
        Chips. The big blind is usually the small bet.
    max_raises : int
        Raises allowed after the bet of a round (default 3: bet, raise, re-raise, cap = four
        bets). Set 4 for rooms capping at four raises. Pre-flop the big blind counts as the bet.
    uncapped_heads_up : bool
        Lift the cap when only two players are left in the hand (default False).

    Raises
    ------
    InputError
        Sizes that are not positive whole chips, ``max_raises`` below 1.
    """

    small_bet: int
    big_bet: int
    max_raises: int = 3
    uncapped_heads_up: bool = False

    kind = StructureKind.FIXED_LIMIT

    def __post_init__(self) -> None:
        _check_amount(self, "small_bet", "small bet")
        _check_amount(self, "big_bet", "big bet")
        _check_amount(self, "max_raises", "max raises")

    @property
    def min_bet(self) -> int:
        """The smallest bet: the small bet."""
        return self.small_bet

    def bet_size(self, street: Street | int) -> int:
        """The one bet and raise size of a street: small bet pre-flop and flop, big bet turn
        and river."""
        return self.small_bet if Street.of(street).index < 2 else self.big_bet

    def describe(self) -> str:
        return f"fixed limit {self.small_bet}/{self.big_bet}"


@dataclass(frozen=True)
class PotLimit:
    """Pot limit: the maximum raise-to is the pot after calling, added on top of the call
    (``docs/rules.md``, "Betting structures"); the minimum bet is ``min_bet`` (the big blind)
    and a raise is at least the previous full bet or raise of the round.

    Attributes
    ----------
    min_bet : int
        The smallest bet in chips: the big blind.
    small_blind_counts_as_big_blind : bool
        Some cash games count a small blind as a full big blind when sizing raises pre-flop
        (every live blind smaller than the largest is counted as the largest) until the big
        blind is through acting on the first betting round (Robert's Rules of Poker, pot-limit
        rule 5): 5/10, under the gun may raise to 40 (not 35), the next player to 140 (not
        135). Default False.
    """

    min_bet: int
    small_blind_counts_as_big_blind: bool = False

    kind = StructureKind.POT_LIMIT

    def __post_init__(self) -> None:
        _check_amount(self, "min_bet", "minimum bet")

    def describe(self) -> str:
        return f"pot limit (minimum bet {self.min_bet})"


@dataclass(frozen=True)
class NoLimit:
    """No limit: minimum bet ``min_bet`` (the big blind), minimum raise the previous full bet
    or raise of the round, maximum the player's whole stack (``docs/rules.md``)."""

    min_bet: int

    kind = StructureKind.NO_LIMIT

    def __post_init__(self) -> None:
        _check_amount(self, "min_bet", "minimum bet")

    def describe(self) -> str:
        return f"no limit (minimum bet {self.min_bet})"


BettingStructure = FixedLimit | PotLimit | NoLimit
