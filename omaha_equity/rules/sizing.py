"""Bet sizes: the legal minimum and maximum raise-to of the player to act, per structure.

The one implementation of sizing, used by :class:`~omaha_equity.rules.Hand` and by the
``pot-limit`` command. Source: ``docs/rules.md``, "Betting structures" (pot limit: the maximum
raise is the pot after the call, added on top of the call; no limit: the minimum raise is the
previous full bet or raise of the round; fixed limit: one small bet pre-flop and on the flop,
one big bet on the turn and river, a bet and three raises a round) and "All-ins and side pots"
(a player never bets more than the chips in front of them). All amounts are integer chips.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..errors import InputError
from .streets import Street
from .structures import BettingStructure, FixedLimit, StructureKind


class WagerKind(StrEnum):
    """What putting chips in above the call is called."""

    BET = "bet"            # nothing to call yet this round
    RAISE = "raise"
    COMPLETE = "complete"  # fixed limit: bringing a short bet up to one full bet


@dataclass(frozen=True)
class RaiseLimits:
    """The legal raise-to range of one player (amounts are the player's total bet this round).

    Attributes
    ----------
    minimum, maximum : int
        Chips. ``minimum == maximum`` in fixed limit, and when the player's stack only allows an
        all-in (then both are the all-in total, which may be short of a full raise). ``maximum``
        is None in no limit when no stack is given (no ceiling).
    kind : WagerKind
        bet, raise or complete.
    """

    minimum: int
    maximum: int | None
    kind: WagerKind


def pot_limit_maximum(pot: int, bet_level: int, player_bet: int) -> int:
    """Pot-limit maximum raise-to: the pot after calling, added on top of the call.

    Parameters
    ----------
    pot : int
        Every chip in the middle, including all bets on the table this round (the player's own
        included), antes and dead blinds.
    bet_level : int
        The largest bet on the table this round.
    player_bet : int
        The acting player's own bet this round.

    Examples
    --------
    Pot 100 from earlier rounds, one player bets 100: ``pot_limit_maximum(200, 100, 0) == 400``.
    Blinds 5/10, under the gun: ``pot_limit_maximum(15, 10, 0) == 35`` (case OM-18).
    """
    call = bet_level - player_bet
    return bet_level + pot + call


def count_fixed_limit_wager(raise_base: int, bet_count: int, level: int, size: int,
                            preflop: bool = False) -> tuple[int, int]:
    """Fixed limit: the bet level full bets count from, and the full bets made, after a wager
    that brings the bet to ``level`` chips.

    Robert's Rules of Poker, section 3 ("Betting and raising"), rule 8: an all-in wager of half
    a bet or more is treated as a full bet, and the next player may raise a full bet on top of
    it; an all-in of less than half a bet is a call plus extra: the next player may call it or
    complete the bet, to one full bet above the level before it (TDA rule 47B: half a bet
    reopens). Several short all-ins that add up to half a bet or more count as one full bet.

    Parameters
    ----------
    raise_base : int
        The bet level the last full bet or raise reached (0 before any this round).
    bet_count : int
        Full bets made this round (pre-flop the big blind counts as one).
    level : int
        The bet to call after the wager (raise-to total).
    size : int
        The street's bet size.
    preflop : bool
        Pre-flop, levels below one full bet before any full bet are blinds (the small blind, a
        short big blind such as 10 in a 15/30 game), not bets: the first wager completes them.

    Returns
    -------
    (raise_base, bet_count) : (int, int)

    Examples
    --------
    10/20, the big blind 10 counts as a bet; an all-in to 13 is a call plus 3: the next player
    completes to 20. A 15-chip all-in bet on a 20-chip round is a full bet: raise to 35.

    >>> count_fixed_limit_wager(10, 1, 13, 10)
    (10, 1)
    >>> count_fixed_limit_wager(0, 0, 15, 20)
    (15, 1)
    """
    if preflop and bet_count == 0 and level < size:
        return raise_base, bet_count
    if 2 * (level - raise_base) >= size:
        return level, bet_count + 1
    return raise_base, bet_count


def fixed_limit_count(levels: Sequence[int], size: int, street: Street | int) -> tuple[int, int]:
    """Fixed limit: ``(raise_base, bet_count)`` (see :func:`count_fixed_limit_wager`) of a round
    whose bet levels so far were ``levels`` (each the raise-to total of a blind or a wager).

    The levels are counted in increasing order with :func:`count_fixed_limit_wager`.

    Examples
    --------
    ``--fixed-limit 2/4 --round 3 --bets 4,8,12,14``: bet, raise, re-raise, then a 2-chip
    all-in, half a bet, which counts as the fourth bet: the betting is capped.

    >>> fixed_limit_count([4, 8, 12, 14], 4, 2)
    (14, 4)
    >>> fixed_limit_count([5, 10], 10, 0)
    (10, 1)
    """
    raise_base, bet_count = 0, 0
    preflop = Street.of(street) == Street.PREFLOP
    for level in sorted(set(levels) - {0}):
        raise_base, bet_count = count_fixed_limit_wager(raise_base, bet_count, level, size, preflop)
    return raise_base, bet_count


def raise_limits(structure: BettingStructure, *, pot: int, bet_level: int, player_bet: int, stack: int | None,
                 street: Street | int, full_raise_size: int, bet_count: int, players_in_hand: int = 3,
                 pot_bonus: int = 0, raise_base: int | None = None) -> RaiseLimits | None:
    """The legal raise-to range of the player to act, or None when they may not bet or raise.

    Parameters
    ----------
    structure : FixedLimit, PotLimit or NoLimit
    pot : int
        Chips in the middle including every bet on the table this round (used by pot limit).
    bet_level : int
        The largest bet on the table this round (pre-flop: the big blind or straddle).
    player_bet : int
        The acting player's own bet this round.
    stack : int or None
        The acting player's chips behind (not counting ``player_bet``); None for no limit.
    street : Street or int
        The betting round (fixed limit: small bet on 0..1, big bet on 2..3).
    full_raise_size : int
        The last full bet or raise of the round (no limit and pot limit: the minimum raise;
        at the start of a round the minimum bet).
    bet_count : int
        Fixed limit: full bets made this round (the big blind counts as one).
    players_in_hand : int
        Players who have not folded (fixed limit: the heads-up cap setting).
    pot_bonus : int
        Chips added to ``pot`` for pot-limit sizing only (the small blind counted as a big blind).
    raise_base : int or None
        Fixed limit: the bet level the last full bet reached (:func:`count_fixed_limit_wager`);
        the next raise goes one bet above it. None: the largest multiple of the bet size not
        above ``bet_level``.

    Returns
    -------
    RaiseLimits or None
        None when the player cannot put in more than the call (stack too short), or the
        fixed-limit cap is reached.
    """
    call = max(bet_level - player_bet, 0)
    if stack is not None and stack <= call:
        return None
    all_in_to = None if stack is None else player_bet + stack
    if isinstance(structure, FixedLimit):
        size = structure.bet_size(street)
        base = bet_level // size * size if raise_base is None else raise_base
        capped = bet_count >= 1 + structure.max_raises
        if bet_level == 0:
            kind, target = WagerKind.BET, size
        elif capped and not (structure.uncapped_heads_up and players_in_hand <= 2):
            return None
        else:
            # a short bet or all-in above the last full bet is completed (Robert's Rules, rule 8)
            kind = WagerKind.COMPLETE if bet_level > base else WagerKind.RAISE
            target = base + size
        if all_in_to is not None:
            target = min(target, all_in_to)
        return RaiseLimits(target, target, kind)
    kind = WagerKind.BET if bet_level == 0 else WagerKind.RAISE
    minimum = bet_level + max(full_raise_size, 1)
    maximum: int | None
    if structure.kind == StructureKind.POT_LIMIT:
        maximum = max(pot_limit_maximum(pot + pot_bonus, bet_level, player_bet), minimum)
    else:
        maximum = all_in_to
    if all_in_to is not None:
        minimum = min(minimum, all_in_to)
        # no limit: the maximum is the all-in itself
        maximum = all_in_to if maximum is None else min(maximum, all_in_to)
    return RaiseLimits(minimum, maximum, kind)


def table_raise_limits(structure: BettingStructure, *, pot: int, bets: Sequence[int], player_bet: int = 0,
                       stack: int | None = None, street: Street | int = 0) -> tuple[int, RaiseLimits | None]:
    """Sizing from a picture of the table: the call and the raise-to range of the player to act.

    The ``pot-limit`` command uses this. The bets on the table are read as a sequence of full
    bets and raises: the largest difference between successive bet levels (or the structure's
    minimum bet, if larger) is the last full raise; in fixed limit the levels are counted as
    the engine counts wagers (:func:`fixed_limit_count`: an all-in of half a bet or more is a
    full bet, less is completed).

    Parameters
    ----------
    pot : int
        Chips in the middle from earlier rounds (antes and dead blinds included), not counting
        the bets on the table.
    bets : sequence of int
        The other players' bets on the table this round (blinds pre-flop).
    player_bet : int
        The acting player's own bet this round (e.g. the small blind).
    stack : int or None
        The acting player's chips behind; None for no limit.

    Returns
    -------
    (call, limits) : (int, RaiseLimits or None)

    Raises
    ------
    InputError
        Negative amounts.

    Examples
    --------
    >>> from omaha_equity.rules import PotLimit
    >>> table_raise_limits(PotLimit(2), pot=100, bets=[100])[1].maximum
    400
    >>> table_raise_limits(PotLimit(2), pot=28, bets=[14, 17])[1].maximum
    93
    """
    for name, value in (("pot", pot), ("own bet", player_bet), *(("bet", bet) for bet in bets)):
        if value < 0:
            raise InputError(f"bad {name} {value}: expected a whole number of chips >= 0")
    if stack is not None and stack < 0:
        raise InputError(f"bad stack {stack}: expected a whole number of chips >= 0")
    levels = sorted({0, player_bet, *bets})
    bet_level = levels[-1]
    largest_step = max((high - low for low, high in zip(levels, levels[1:])), default=0)
    min_bet = structure.min_bet
    raise_base = None
    if isinstance(structure, FixedLimit):
        size = structure.bet_size(street)
        full_raise_size = size
        raise_base, bet_count = fixed_limit_count(levels, size, street)
    else:
        full_raise_size, bet_count = max(largest_step, min_bet), 0
    call = bet_level - player_bet
    if stack is not None:
        call = min(call, stack)
    limits = raise_limits(structure, pot=pot + player_bet + sum(bets), bet_level=bet_level, player_bet=player_bet,
                          stack=stack, street=street, full_raise_size=full_raise_size, bet_count=bet_count,
                          players_in_hand=len(bets) + 1, raise_base=raise_base)
    return call, limits
