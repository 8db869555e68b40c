"""One hand of any Omaha game, from the forced bets to the settlement.

The state machine follows ``docs/rules.md`` ("Blinds, antes, dealing", "Betting rounds",
"Betting structures", "All-ins and side pots", "Showdown"). Every action has three methods in
pokerkit's style: ``verify_x`` raises :class:`IllegalActionError` with the reason, ``can_x``
answers True/False, ``x`` acts and returns an immutable :class:`Action`.

Seats are indexes 0..n-1 into ``stacks`` in clockwise table order; ``button`` is one of them.
All amounts are integer chips (the smallest chip).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..deal import CardsLike
from ..errors import InputError, quoted
from ..validate import is_whole_number
from ..games import Game, get_game, normalize_game_name
from .actions import Action, ActionKind, IllegalActionError, LegalActions
from .chips import MAX_CHIPS
from .dealing import DealingMixin
from .forced import ForcedBets
from .history import hand_history
from .payout import settle_hand
from .settings import HandSettings
from .settlement import Settlement
from .showdown import ShowdownMixin
from .sizing import RaiseLimits, WagerKind, count_fixed_limit_wager, fixed_limit_count, raise_limits
from .streets import STREETS, Phase, Street
from .structures import BettingStructure, FixedLimit, PotLimit


class Hand(DealingMixin, ShowdownMixin):
    """One hand of Omaha: dealing, betting, showdown and settlement.

    Parameters
    ----------
    game : str or Game
        Any game of ``omaha_equity.games`` (``"omaha"``, ``"omaha8"``, ``"big-o"``,
        ``"courchevel"``, ...); ``"binglao"`` takes ``die``, or rolls it from ``seed``.
    structure : FixedLimit, PotLimit or NoLimit
        The betting structure with its sizes and settings.
    stacks : sequence of int
        Chips of each seat at the start of the hand (every one > 0), clockwise.
    button : int
        The button's seat.
    forced_bets : ForcedBets
        Antes, live blinds (and straddles) and dead blinds per seat; see
        :meth:`with_blinds` for the usual small blind / big blind / ante.
    settings : HandSettings, optional
        Showdown order, run count, rake.
    seed : int, optional
        Deal every card not given from a deck shuffled with this seed, burning a card before
        each board deal (``docs/rules.md``, "Blinds, antes, dealing").
    hole_cards : sequence of (cards or None), optional
        Hole cards per seat, dealt at once; ``None`` for a player whose cards are unknown (dealt
        from the deck when ``seed`` is given). Without ``hole_cards`` and ``seed`` the caller
        deals with :meth:`deal_hole_cards`.
    board : cards, optional
        Board cards in dealing order, used street by street; without them (and without
        ``seed``) the caller deals with :meth:`deal_board`.
    boards : sequence of cards, optional
        One complete board per run when the board is run several times (instead of ``board``).
    die : int, optional
        Binglao: the button's die roll 1..6.
    names : sequence of str, optional
        Player names for the history (default ``Seat 1`` .. ``Seat n``).

    Raises
    ------
    InputError
        Fewer than 2 seats or more than the game deals, a stack that is not a whole number > 0,
        a button outside the table, forced bets for another table size, bad or duplicate cards.

    Examples
    --------
    >>> from omaha_equity.rules import Hand, PotLimit
    >>> hand = Hand.with_blinds("omaha", PotLimit(10), [1000, 1000, 1000], button=2,
    ...                         small_blind=5, big_blind=10, seed=1)
    >>> hand.actor, hand.legal_actions().max_raise_to
    (2, 35)
    """

    # ------------------------------------------------------------------ creation

    def __init__(self, game: str | Game, structure: BettingStructure, stacks: Sequence[int], *, button: int,
                 forced_bets: ForcedBets, settings: HandSettings | None = None, seed: int | None = None,
                 hole_cards: Sequence[CardsLike | None] | None = None, board: CardsLike | None = None,
                 boards: Sequence[CardsLike] | None = None, die: int | None = None,
                 names: Sequence[str] | None = None) -> None:
        self.settings = settings if settings is not None else HandSettings()
        self.structure = structure
        self._rng = random.Random(seed) if seed is not None else None
        self.seed = seed
        self.actions: list[Action] = []
        self.seat_count = len(stacks)
        die_rolled = False
        if not isinstance(game, Game) and normalize_game_name(game) == "binglao" and die is None and self._rng:
            die = self._rng.randint(1, 6)
            die_rolled = True
        self.game: Game = get_game(game, die)
        self.die = die
        self._check_table(stacks, button, forced_bets, names)
        self.button = int(button)
        self.forced_bets = forced_bets
        self.names = tuple(names) if names is not None else tuple(f"Seat {seat + 1}" for seat in range(self.seat_count))
        self.starting_stacks = tuple(int(stack) for stack in stacks)
        seat_count = self.seat_count
        self.stacks = list(self.starting_stacks)
        self.bets = [0] * seat_count
        self.contributed = [0] * seat_count
        self.returned = [0] * seat_count
        self.dead = [0] * seat_count
        self.folded = [False] * seat_count
        self.mucked = [False] * seat_count
        self.shown = [False] * seat_count
        self.hole_cards: list[tuple[int, ...] | None] = [None] * seat_count
        self._hole_dealt = [False] * seat_count
        self._boards: list[list[int]] = [[]]
        self.street = Street.PREFLOP
        self.phase = Phase.DEALING_HOLE_CARDS
        self.actor: int | None = None
        self.run_count = 1
        self.settlement: Settlement | None = None
        # betting-round state
        self.bet_level = 0
        self.full_raise_size = 0
        self.bet_count = 0
        self.raise_base = 0  # fixed limit: the level the last full bet reached (sizing.count_fixed_limit_wager)
        self._acted_level: list[int | None] = [None] * seat_count
        self._aggressors: list[int | None] = [None] * 4
        self._running_out = False
        self._board_target = 0
        self._all_in_board_size: int | None = None
        self._showdown_queue: list[int] = []
        self._readings: dict[tuple[int, int], tuple[int, int]] = {}
        self._nominal_blinds = list(forced_bets.blinds)
        self._given_hole, self._given_boards = self._parse_given_cards(hole_cards, board, boards)
        self._deck = self._shuffled_deck(self._rng) if self._rng is not None else None
        if self.game.name.startswith("binglao") and die is not None:
            verb = "rolls" if die_rolled else "rolled"
            self._record(ActionKind.DIE_ROLL, None, amount=die,
                         text=f"{self.names[button]} (button) {verb} the die: {die} -> {self.game.title}")
        self._post_forced_bets()
        self._advance()

    @classmethod
    def with_blinds(cls, game: str | Game, structure: BettingStructure, stacks: Sequence[int], *, button: int,
                    small_blind: int, big_blind: int, ante: int = 0, big_blind_ante: int = 0,
                    straddles: Sequence[int] = (), **options: Any) -> Hand:
        """A hand with the usual forced bets: small blind left of the button, big blind next
        (heads-up the button posts the small blind), optional antes, big-blind ante and
        straddles (:meth:`ForcedBets.standard`). ``options`` are the other keyword arguments
        of :class:`Hand`."""
        forced = ForcedBets.standard(len(stacks), button, small_blind, big_blind, ante=ante,
                                     big_blind_ante=big_blind_ante, straddles=straddles)
        return cls(game, structure, stacks, button=button, forced_bets=forced, **options)

    def _check_table(self, stacks: Sequence[int], button: int, forced_bets: ForcedBets,
                     names: Sequence[str] | None) -> None:
        seat_count = self.seat_count
        if seat_count < 2:
            raise InputError(f"a hand needs at least 2 players, got {seat_count}")
        if seat_count > self.game.max_players:
            raise InputError(f"{seat_count} players is more than {self.game.name} deals "
                             f"(at most {self.game.max_players} with {self.game.hole_count} hole cards)")
        for seat, stack in enumerate(stacks):
            if not is_whole_number(stack) or not 0 < stack <= MAX_CHIPS:
                raise InputError(f"bad stack {quoted(stack)} for seat {seat + 1}: expected a whole number of chips, "
                                 f"1 to {MAX_CHIPS:,}")
        if sum(int(stack) for stack in stacks) > MAX_CHIPS:
            raise InputError(f"the stacks add up to {quoted(sum(int(stack) for stack in stacks))} chips: "
                             f"a hand settles at most {MAX_CHIPS:,} (2**63 - 1) exactly")
        if not is_whole_number(button) or not 0 <= button < seat_count:
            raise InputError(f"bad button seat {button!r}: expected 0..{seat_count - 1}")
        if forced_bets.seat_count != seat_count:
            raise InputError(f"forced bets are for {forced_bets.seat_count} seats, the table has {seat_count}")
        if names is not None and len(names) != seat_count:
            raise InputError(f"{len(names)} names for {seat_count} seats: expected one per seat")

    # ------------------------------------------------------------------ public state

    @property
    def positions(self) -> tuple[int, ...]:
        """Seats in order from the first seat left of the button to the button (odd-chip order)."""
        return tuple((self.button + 1 + offset) % self.seat_count for offset in range(self.seat_count))

    @property
    def board(self) -> tuple[int, ...]:
        """The board of the first run (the only one unless the board is run several times)."""
        return tuple(self._boards[0])

    @property
    def boards(self) -> tuple[tuple[int, ...], ...]:
        """One board per run."""
        return tuple(tuple(run) for run in self._boards)

    @property
    def pot(self) -> int:
        """Chips in the middle, bets on the table included."""
        return sum(self.contributed)

    @property
    def is_complete(self) -> bool:
        return self.phase == Phase.COMPLETE

    @property
    def in_hand(self) -> tuple[int, ...]:
        """Seats that have not folded."""
        return tuple(seat for seat in range(self.seat_count) if not self.folded[seat])

    def is_all_in(self, seat: int) -> bool:
        """In the hand with no chips left."""
        return not self.folded[seat] and self.stacks[seat] == 0

    # ------------------------------------------------------------------ forced bets and dealing

    def _record(self, kind: ActionKind, seat: int | None, *, text: str, **fields: Any) -> Action:
        action = Action(kind=kind, seat=seat, street=self.street, text=text, **fields)
        self.actions.append(action)
        return action

    def _put_in(self, seat: int, amount: int, live: bool) -> int:
        amount = min(amount, self.stacks[seat])
        self.stacks[seat] -= amount
        self.contributed[seat] += amount
        if live:
            self.bets[seat] += amount
        return amount

    def _blind_seats(self) -> tuple[int, int]:
        """(small blind seat, big blind seat) by position: the first seat left of the button
        and the next; heads-up the button and the other player (``docs/rules.md``, "Blinds,
        antes, dealing"). Seats, never amounts: a 10/10 game has equal blinds."""
        small_seat = self.button if self.seat_count == 2 else self.positions[0]
        return small_seat, (small_seat + 1) % self.seat_count

    def _blind_label(self, seat: int, amount: int) -> str:
        """The name of a live blind in the history: small blind and big blind by seat (a single
        blind is the big blind), a straddle (more than the big blind), or a big blind posted out
        of position."""
        blinds = self._nominal_blinds
        small_seat, big_seat = self._blind_seats()
        big_amount = blinds[big_seat] or max(blinds)
        if seat == small_seat and blinds[big_seat]:
            return "small blind"
        if seat in (small_seat, big_seat):
            return "big blind"
        if amount > big_amount:
            return "straddle"
        return "big blind" if amount == big_amount else "blind"

    def _post_forced_bets(self) -> None:
        forced = self.forced_bets
        # an ante every player pays makes pot levels like a bet; any other ante is dead money
        uniform_antes = len(set(forced.antes)) == 1
        for seat in self.positions:
            if forced.antes[seat]:
                paid = self._put_in(seat, forced.antes[seat], live=False)
                if not uniform_antes:
                    self.dead[seat] += paid
                self._record(ActionKind.ANTE, seat, amount=paid, all_in=self.stacks[seat] == 0,
                             text=f"{self.names[seat]} posts ante {paid}{self._all_in_text(seat)}")
        for seat in self._deal_order():  # from the small blind (heads-up the button)
            if forced.dead_blinds[seat] and self.stacks[seat]:
                paid = self._put_in(seat, forced.dead_blinds[seat], live=False)
                self.dead[seat] += paid
                self._record(ActionKind.DEAD_BLIND, seat, amount=paid, all_in=self.stacks[seat] == 0,
                             text=f"{self.names[seat]} posts dead blind {paid}{self._all_in_text(seat)}")
            if forced.blinds[seat] and self.stacks[seat]:
                label = self._blind_label(seat, forced.blinds[seat])
                paid = self._put_in(seat, forced.blinds[seat], live=True)
                self._record(ActionKind.BLIND, seat, amount=paid, total=self.bets[seat], all_in=self.stacks[seat] == 0,
                             text=f"{self.names[seat]} posts {label} {paid}{self._all_in_text(seat)}")

    def _all_in_text(self, seat: int) -> str:
        return " and is all-in" if self.stacks[seat] == 0 and not self.folded[seat] else ""

    # ------------------------------------------------------------------ the state machine

    def _advance(self) -> None:
        """Move on as far as the hand can go without a player's or the dealer's decision."""
        while True:
            if self.phase == Phase.DEALING_HOLE_CARDS:
                if not all(self._hole_dealt):
                    if self._deal_hole_cards_automatically():
                        continue
                    return
                if self.game.exposed_first_flop_card:
                    self._start_board_deal(1)
                else:
                    self._start_round()
            elif self.phase == Phase.DEALING_BOARD:
                if self._current_run() is not None:
                    if self._deal_board_automatically():
                        continue
                    return
                self._after_board_deal()
            elif self.phase == Phase.BETTING:
                if not self._round_complete():
                    return
                self._end_round()
            elif self.phase == Phase.SHOWDOWN:
                if self._showdown_queue:
                    return
                self._settle()
            else:
                return

    def _start_board_deal(self, target: int) -> None:
        self.phase = Phase.DEALING_BOARD
        self.actor = None
        self._board_target = target

    def _after_board_deal(self) -> None:
        if self._running_out:
            self.street = Street.RIVER
            self._begin_showdown()
        else:
            self._start_round()

    def _start_round(self) -> None:
        self.phase = Phase.BETTING
        self._acted_level = [None] * self.seat_count
        structure = self.structure
        if self.street == Street.PREFLOP:
            self.bet_level = max(self._nominal_blinds, default=0)
            if isinstance(structure, FixedLimit):
                size = structure.bet_size(Street.PREFLOP)
                self.full_raise_size = size
                self.raise_base, self.bet_count = fixed_limit_count(self._nominal_blinds, size, Street.PREFLOP)
            else:
                self.full_raise_size, self.bet_count = max(structure.min_bet, self.bet_level), 0
            first = self._first_preflop_actor()
        else:
            self.bet_level = 0
            self.bet_count = 0
            self.raise_base = 0
            self.full_raise_size = (structure.bet_size(self.street) if isinstance(structure, FixedLimit)
                                    else structure.min_bet)
            first = (self.button + 1) % self.seat_count
        self.actor = self._next_to_act(first, include_start=True)

    def _first_preflop_actor(self) -> int:
        """The seat after the last blind: the big blind, or the last of the straddles that
        follow it, each larger than the blind before (``docs/rules.md``, "Betting rounds":
        pre-flop the player left of the big blind acts first, and the big blind keeps the last
        option, also when the blinds are equal). Positions come from the seats; only when
        neither blind seat posts, or a larger straddle sits elsewhere (on the button), does the
        largest blind decide."""
        if self.forced_bets.first_to_act is not None:
            return self.forced_bets.first_to_act
        blinds = self._nominal_blinds
        largest = max(blinds)
        if largest == 0:
            return (self.button + 1) % self.seat_count
        small_seat, big_seat = self._blind_seats()
        last = big_seat if blinds[big_seat] else small_seat if blinds[small_seat] else None
        if last is not None:
            for offset in range(1, self.seat_count - 1):  # straddles after the big blind
                seat = (big_seat + offset) % self.seat_count
                if seat == small_seat or blinds[seat] <= blinds[last]:
                    break
                last = seat
        if last is None or blinds[last] < largest:
            # no blind in the blind seats, or a straddle elsewhere (on the button): the earliest
            # seat from the small blind posting the largest live blind
            last = next(seat for seat in self.positions if blinds[seat] == largest)
        return (last + 1) % self.seat_count

    def _can_act(self, seat: int) -> bool:
        return not self.folded[seat] and self.stacks[seat] > 0

    def _needs_to_act(self, seat: int) -> bool:
        return self._can_act(seat) and (self._acted_level[seat] is None or self.bets[seat] < self.bet_level)

    def _next_to_act(self, start: int, include_start: bool = False) -> int | None:
        for offset in range(0 if include_start else 1, self.seat_count + 1):
            seat = (start + offset) % self.seat_count
            if self._needs_to_act(seat):
                return seat
        return None

    def _round_complete(self) -> bool:
        in_hand = self.in_hand
        if len(in_hand) <= 1:
            return True
        can_act = [seat for seat in in_hand if self.stacks[seat] > 0]
        if not any(self._needs_to_act(seat) for seat in can_act):
            return True
        # one player with chips left, not facing a bet: nobody to bet against
        return len(can_act) == 1 and self.bets[can_act[0]] >= self.bet_level

    def _end_round(self) -> None:
        self.actor = None
        self._return_uncalled()
        self.bets = [0] * self.seat_count
        in_hand = self.in_hand
        if len(in_hand) == 1:
            self._settle()
            return
        if self.street == Street.RIVER:
            self._begin_showdown()
            return
        if sum(1 for seat in in_hand if self.stacks[seat] > 0) <= 1 and not self._running_out:
            self._running_out = True
            self._all_in_board_size = len(self._boards[0])
            run_count = self._default_run_count()
            if run_count > 1 and self.run_count == 1:
                self._apply_run_count(run_count)
        self.street = STREETS[self.street.index + 1]
        self._start_board_deal(self.street.board_count)

    def _return_uncalled(self) -> None:
        top = max(self.bets)
        holders = [seat for seat in range(self.seat_count) if self.bets[seat] == top]
        if top == 0 or len(holders) != 1:
            return
        seat = holders[0]
        second = max(bet for other, bet in enumerate(self.bets) if other != seat)
        excess = top - second
        self.bets[seat] -= excess
        self.stacks[seat] += excess
        self.contributed[seat] -= excess
        self.returned[seat] += excess
        self._record(ActionKind.RETURN, seat, amount=excess,
                     text=f"Uncalled bet ({excess}) returned to {self.names[seat]}")

    # ------------------------------------------------------------------ betting

    def _check_seat(self, seat: int) -> None:
        if not is_whole_number(seat) or not 0 <= seat < self.seat_count:
            raise IllegalActionError(f"bad seat {seat!r}: expected 0..{self.seat_count - 1}")

    def _betting_actor(self) -> int:
        if self.phase != Phase.BETTING or self.actor is None:
            raise IllegalActionError(f"no one is to act: the hand is {self.phase.value}")
        return self.actor

    @staticmethod
    def _can(verify: Callable[..., object], *args: Any) -> bool:
        try:
            verify(*args)
        except IllegalActionError:
            return False
        return True

    def _pot_bonus(self) -> int:
        """Pot-limit setting: live blinds smaller than the largest count as the largest, pre-flop
        "until the big blind is through acting on the first betting round" (Robert's Rules of
        Poker, pot-limit rule 5), not only for the first raise: here, until the big blind has
        acted (or folded); a big blind all in on the post never acts and keeps it all round. A
        small blind that has called more than the big blind adds nothing."""
        structure = self.structure
        if (not isinstance(structure, PotLimit) or not structure.small_blind_counts_as_big_blind
                or self.street != Street.PREFLOP):
            return 0
        blinds = self._nominal_blinds
        largest = max(blinds)
        big_seat = next(seat for seat in self.positions if blinds[seat] == largest)
        if self._acted_level[big_seat] is not None or self.folded[big_seat]:
            return 0
        # a small blind counts as at least the big blind: nothing more once it has called more
        return sum(max(largest - self.bets[seat], 0) for seat, blind in enumerate(blinds) if 0 < blind < largest)

    def _reopened(self, seat: int) -> bool:
        """May this player raise? Yes if they have not acted this round, or if the bet has grown
        by a full raise since they last acted (several short all-ins adding up count): WSOP
        rules 96/96a, TDA rule 47A. Fixed limit: half a bet reopens (TDA rule 47B)."""
        acted = self._acted_level[seat]
        if acted is None:
            return True
        increase = self.bet_level - acted
        if isinstance(self.structure, FixedLimit):
            return increase > 0 and 2 * increase >= self.structure.bet_size(self.street)
        return increase > 0 and increase >= self.full_raise_size

    def _raise_limits(self, seat: int) -> tuple[RaiseLimits | None, str]:
        """The seat's raise-to range, or None with the reason."""
        # a raise needs someone who could put in more than the current bet
        if not any(self.bets[other] + self.stacks[other] > self.bet_level for other in self.in_hand if other != seat):
            if not self.settings.raise_when_nobody_can_call:
                return None, "every other player is all-in or covered: nobody could call a raise"
            # the setting of rooms that took such a raise: any size, the unmatched part comes back
            top = self.bets[seat] + self.stacks[seat]
            if top <= self.bet_level:
                return None, f"{self.names[seat]} has only {self.stacks[seat]} chips: not more than the call"
            return RaiseLimits(self.bet_level + 1, top, WagerKind.RAISE if self.bet_level else WagerKind.BET), ""
        if not self._reopened(seat):
            return None, "the betting was not reopened: a short all-in is not a full raise"
        if self.stacks[seat] <= self.bet_level - self.bets[seat]:
            return None, f"{self.names[seat]} has only {self.stacks[seat]} chips: not more than the call"
        limits = raise_limits(self.structure, pot=self.pot, bet_level=self.bet_level, player_bet=self.bets[seat],
                              stack=self.stacks[seat], street=self.street, full_raise_size=self.full_raise_size,
                              bet_count=self.bet_count, players_in_hand=len(self.in_hand),
                              pot_bonus=self._pot_bonus(), raise_base=self.raise_base)
        if limits is None:
            return None, f"the betting is capped at {self.bet_count} bets"
        return limits, ""

    def legal_actions(self) -> LegalActions:
        """What the player to act may do, without acting.

        Raises
        ------
        IllegalActionError
            When no one is to act (dealing, showdown, complete).
        """
        seat = self._betting_actor()
        call = min(self.bet_level - self.bets[seat], self.stacks[seat])
        limits, _ = self._raise_limits(seat)
        can_fold = call > 0 or self.settings.fold_when_check_allowed
        return LegalActions(seat=seat, can_fold=can_fold, can_check=call == 0, call_amount=call, raise_limits=limits)

    def verify_fold(self) -> int:
        """Check that the player to act may fold: when facing a bet, or at any turn with the
        setting ``HandSettings.fold_when_check_allowed``; returns the seat.

        Raises
        ------
        IllegalActionError
            No one to act, or nothing to call (check instead) without that setting.
        """
        seat = self._betting_actor()
        if self.bets[seat] >= self.bet_level and not self.settings.fold_when_check_allowed:
            raise IllegalActionError(f"{self.names[seat]} cannot fold: nothing to call (check instead)")
        return seat

    def can_fold(self) -> bool:
        return self._can(self.verify_fold)

    def fold(self) -> Action:
        """The player to act folds."""
        seat = self.verify_fold()
        self.folded[seat] = True
        action = self._record(ActionKind.FOLD, seat, text=f"{self.names[seat]} folds")
        self._after_betting_action(seat)
        return action

    def verify_check_or_call(self) -> int:
        """Check that the player to act may check or call (always, when it is their turn);
        returns the seat.

        Raises
        ------
        IllegalActionError
            No one to act.
        """
        return self._betting_actor()

    def can_check_or_call(self) -> bool:
        return self._can(self.verify_check_or_call)

    def check_or_call(self) -> Action:
        """The player to act checks, or calls (all-in for less when the stack is short)."""
        seat = self.verify_check_or_call()
        amount = self._put_in(seat, self.bet_level - self.bets[seat], live=True)
        self._acted_level[seat] = self.bet_level
        if amount == 0:
            action = self._record(ActionKind.CHECK, seat, text=f"{self.names[seat]} checks")
        else:
            action = self._record(ActionKind.CALL, seat, amount=amount, total=self.bets[seat],
                                  all_in=self.stacks[seat] == 0,
                                  text=f"{self.names[seat]} calls {amount}{self._all_in_text(seat)}")
        self._after_betting_action(seat)
        return action

    def verify_bet_or_raise_to(self, amount: int) -> tuple[int, RaiseLimits]:
        """Check a bet, raise or fixed-limit complete to ``amount`` (the player's whole bet this
        round afterwards); returns the seat and the limits.

        Raises
        ------
        IllegalActionError
            With the reason: ``raise to 500 is over the pot-limit maximum 425``, under the
            minimum, not the fixed-limit size, capped, not reopened, more than the stack.
        """
        seat = self._betting_actor()
        if not is_whole_number(amount):
            raise IllegalActionError(f"bad amount {quoted(amount)}: expected a whole number of chips")
        limits, reason = self._raise_limits(seat)
        if limits is None:
            raise IllegalActionError(f"{self.names[seat]} cannot bet or raise: {reason}")
        assert limits.maximum is not None  # the hand always sizes with the stack: there is a ceiling
        verb = limits.kind.value
        all_in_to = self.bets[seat] + self.stacks[seat]
        if amount > all_in_to:
            raise IllegalActionError(f"{verb} to {quoted(amount)} is more than {self.names[seat]} has: all-in is "
                                     f"{verb} to {all_in_to}")
        if isinstance(self.structure, FixedLimit):
            if amount != limits.minimum:
                raise IllegalActionError(f"{verb} to {quoted(amount)} is not the fixed-limit size: {verb} to exactly "
                                         f"{limits.minimum}")
        elif amount > limits.maximum:
            structure = self.structure.kind.value.replace(" ", "-")
            raise IllegalActionError(f"{verb} to {quoted(amount)} is over the {structure} maximum {limits.maximum}")
        elif amount < limits.minimum:
            raise IllegalActionError(f"{verb} to {quoted(amount)} is under the minimum {verb} to {limits.minimum}")
        return seat, limits

    def can_bet_or_raise_to(self, amount: int) -> bool:
        return self._can(self.verify_bet_or_raise_to, amount)

    def bet_or_raise_to(self, amount: int) -> Action:
        """The player to act bets, raises or (fixed limit) completes to ``amount`` chips in all
        this round."""
        seat, limits = self.verify_bet_or_raise_to(amount)
        amount = int(amount)
        increase = amount - self.bet_level
        put = self._put_in(seat, amount - self.bets[seat], live=True)
        if isinstance(self.structure, FixedLimit):
            self.raise_base, self.bet_count = count_fixed_limit_wager(
                self.raise_base, self.bet_count, amount, self.structure.bet_size(self.street),
                preflop=self.street == Street.PREFLOP)
        elif increase >= self.full_raise_size:
            self.full_raise_size = increase
        self.bet_level = amount
        self._acted_level[seat] = amount
        self._aggressors[self.street.index] = seat
        kind = {WagerKind.BET: ActionKind.BET, WagerKind.RAISE: ActionKind.RAISE,
                WagerKind.COMPLETE: ActionKind.COMPLETE}[limits.kind]
        verb = {ActionKind.BET: "bets", ActionKind.RAISE: "raises to", ActionKind.COMPLETE: "completes to"}[kind]
        action = self._record(kind, seat, amount=put, total=amount, all_in=self.stacks[seat] == 0,
                              text=f"{self.names[seat]} {verb} {amount}{self._all_in_text(seat)}")
        self._after_betting_action(seat)
        return action

    def verify_complete(self) -> int:
        """Fixed limit: check that the player to act may complete a short bet to one full bet;
        returns the complete-to amount.

        Raises
        ------
        IllegalActionError
            Not fixed limit, or nothing to complete.
        """
        seat = self._betting_actor()
        limits, reason = self._raise_limits(seat)
        if limits is None or limits.kind != WagerKind.COMPLETE:
            raise IllegalActionError(f"{self.names[seat]} cannot complete: "
                                     f"{reason or 'there is no short bet to complete'}")
        return limits.minimum

    def can_complete(self) -> bool:
        return self._can(self.verify_complete)

    def complete(self) -> Action:
        """Fixed limit: the player to act completes a short bet to one full bet."""
        return self.bet_or_raise_to(self.verify_complete())

    def _after_betting_action(self, seat: int) -> None:
        if self._round_complete():
            self._advance()
            return
        self.actor = self._next_to_act(seat)
        self._advance()

    # ------------------------------------------------------------------ settlement and history

    def _settle(self) -> None:
        self.phase = Phase.COMPLETE
        self.actor = None
        self.settlement = settle_hand(self)
        for pot in self.settlement.pots:
            for run in pot.runs:
                for seat, chips in enumerate(run.payouts):
                    if chips:
                        self.stacks[seat] += chips
                        run_text = f" (run {run.run_index + 1})" if len(pot.runs) > 1 else ""
                        self._record(ActionKind.WIN, seat, amount=chips, run_index=run.run_index,
                                     pot_index=pot.pot_index,
                                     text=f"{self.names[seat]} wins {chips} from {'the ' if pot.pot_index == 0 else ''}"
                                          f"{pot.name}{run_text}")

    def history(self) -> str:
        """The hand as readable text: the table, every post, card, action and payout, and the
        settlement (per player: stack before, put in, won from each pot, stack after)."""
        return hand_history(self)
