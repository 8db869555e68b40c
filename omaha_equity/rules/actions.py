"""Immutable records of everything that happens in a hand, and the legal options of a player.

Each action of :class:`~omaha_equity.rules.Hand` returns one :class:`Action`; ``hand.actions``
keeps them all in order, so a hand can be printed (``hand.history()``) or replayed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..errors import InputError
from .sizing import RaiseLimits
from .streets import Street


class IllegalActionError(InputError):
    """An action the rules do not allow now, with the reason, e.g.
    ``raise to 500 is over the pot-limit maximum 425`` or ``seat 3 cannot check: 200 to call``.
    A ``ValueError`` (through ``InputError``)."""


class ActionKind(StrEnum):
    """What an :class:`Action` records."""

    DIE_ROLL = "die roll"          # Binglao: the button's die picks the game
    ANTE = "ante"
    BLIND = "blind"                # live: small/big blind, straddle, missed big blind
    DEAD_BLIND = "dead blind"      # dead: the small-blind part of a missed-blinds post
    DEAL_HOLE_CARDS = "deal hole cards"
    DEAL_BOARD = "deal board"
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    COMPLETE = "complete"          # fixed limit: a short bet made up to one full bet
    RETURN = "return"              # the uncalled part of a bet goes back to its owner
    RUN_COUNT = "run count"        # the board will be run this many times
    SHOW = "show"
    MUCK = "muck"
    WIN = "win"                    # chips from one pot (one run) to a player


@dataclass(frozen=True)
class Action:
    """One thing that happened.

    Attributes
    ----------
    kind : ActionKind
    seat : int or None
        The player (seat index), None for the board, the die and the run count.
    amount : int
        Chips this action moved: into the pot (posts, calls, bets, raises), back to the player
        (return, win); the die value for a die roll; the number of runs for a run count.
    total : int
        Bets, raises, completes and calls: the player's whole bet this round afterwards
        (the raise-to amount).
    cards : tuple of int or None
        Hole cards dealt (None when unknown), board cards dealt, cards shown.
    burned : tuple of int
        Cards burned before a board deal (seeded dealing only).
    street : Street
        The betting round it belongs to.
    run_index : int
        Board deals and wins: which run of the board (0 unless the board is run several times).
    pot_index : int
        Wins: 0 the main pot, 1.. side pots.
    all_in : bool
        The player has no chips left after it.
    text : str
        The history line, e.g. ``Seat 3 raises to 35 (pot-limit maximum)``.
    """

    kind: ActionKind
    seat: int | None = None
    amount: int = 0
    total: int = 0
    cards: tuple[int, ...] | None = None
    burned: tuple[int, ...] = ()
    street: Street = Street.PREFLOP
    run_index: int = 0
    pot_index: int = 0
    all_in: bool = False
    text: str = ""


@dataclass(frozen=True)
class LegalActions:
    """What the player to act may do now, queried without acting (``Hand.legal_actions()``).

    Attributes
    ----------
    seat : int
        The player to act.
    can_fold : bool
        False only when there is nothing to call (folding for free is not offered: check),
        unless the hand's setting ``fold_when_check_allowed`` is on.
    can_check : bool
        Nothing to call.
    call_amount : int
        Chips a call puts in (0 when checking; less than the bet when it is an all-in call).
    raise_limits : RaiseLimits or None
        Bet/raise/complete range as raise-to totals of the round; None when the player may not
        bet or raise (capped, stack too short, betting not reopened, nobody left to call).
    """

    seat: int
    can_fold: bool
    can_check: bool
    call_amount: int
    raise_limits: RaiseLimits | None

    @property
    def can_bet_or_raise(self) -> bool:
        return self.raise_limits is not None

    @property
    def min_raise_to(self) -> int | None:
        return None if self.raise_limits is None else self.raise_limits.minimum

    @property
    def max_raise_to(self) -> int | None:
        return None if self.raise_limits is None else self.raise_limits.maximum
