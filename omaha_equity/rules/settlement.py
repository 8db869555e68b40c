"""The settlement of a hand: pots, rake, winners of each half, and each player's account.

Source: ``docs/rules.md``, "All-ins and side pots" and "Showdown". Who gets what share of a pot
is decided in one place, ``omaha_equity.pots`` (main and side pots by contribution, high/low
halves, quartering, odd chips); this module only records the result.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PotRun:
    """One pot on one run of the board.

    Attributes
    ----------
    run_index : int
    amount : int
        Chips divided on this run (after the rake; run 0 takes the odd chips).
    board : tuple of int
        The five board cards of this run (fewer when nobody showed down).
    high_winners, low_winners : tuple of int
        Seats holding the best high / the best qualifying low among the pot's eligible players
        (``low_winners`` empty when no one qualifies or the game is high only).
    payouts : tuple of int
        Chips per seat (all seats), adding up to ``amount``.
    """

    run_index: int
    amount: int
    board: tuple[int, ...]
    high_winners: tuple[int, ...]
    low_winners: tuple[int, ...]
    payouts: tuple[int, ...]


@dataclass(frozen=True)
class PotResult:
    """A main or side pot.

    Attributes
    ----------
    pot_index : int
        0 the main pot, 1.. the side pots in order.
    amount : int
        Chips in the pot before the rake.
    rake : int
        Chips taken by the house from this pot.
    eligible : tuple of int
        Seats that put chips in at this level and did not fold (nor muck), ascending.
    runs : tuple of PotRun
        One per run of the board.
    """

    pot_index: int
    amount: int
    rake: int
    eligible: tuple[int, ...]
    runs: tuple[PotRun, ...]

    @property
    def payouts(self) -> tuple[int, ...]:
        """Chips per seat from this pot over all runs."""
        return tuple(sum(run.payouts[seat] for run in self.runs) for seat in range(len(self.runs[0].payouts)))

    @property
    def name(self) -> str:
        return "main pot" if self.pot_index == 0 else f"side pot {self.pot_index}"


@dataclass(frozen=True)
class PlayerResult:
    """One player's account of the hand.

    Attributes
    ----------
    seat : int
    starting_stack : int
    contributed : int
        Chips put in the pots (antes and blinds included, uncalled chips returned excluded).
    returned : int
        The uncalled part of their bets given back.
    won : tuple of int
        Chips won from each pot, aligned with ``Settlement.pots``.
    final_stack : int
        ``starting_stack - contributed + sum(won)``.
    """

    seat: int
    starting_stack: int
    contributed: int
    returned: int
    won: tuple[int, ...]
    final_stack: int

    @property
    def net(self) -> int:
        """Chips won or lost in the hand."""
        return self.final_stack - self.starting_stack


@dataclass(frozen=True)
class Settlement:
    """How a finished hand was paid.

    Attributes
    ----------
    pots : tuple of PotResult
        Main pot first.
    players : tuple of PlayerResult
        One per seat.
    rake : int
        Chips taken by the house in all.
    showdown : bool
        False when everyone folded to one player.
    """

    pots: tuple[PotResult, ...]
    players: tuple[PlayerResult, ...]
    rake: int
    showdown: bool

    @property
    def final_stacks(self) -> tuple[int, ...]:
        return tuple(player.final_stack for player in self.players)
