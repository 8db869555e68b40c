"""Replaying a PHH hand through the rules engine, action by action.

The table (PHH specification, ``spec.rst``, "Position"): players p1..pN are the engine's seats
0..N-1 in clockwise order from the small blind, and the last player has the button. Heads-up
the specification reverse-assigns the antes and blinds arrays (``required.rst``: "the effective
blind amounts are the reversed version of the array"), so with ``blinds_or_straddles = [1, 2]``
the button (p2) posts the small blind 1 and acts first pre-flop, as ``docs/rules.md`` says.

Every action goes through the engine's checks; the first illegal one stops the replay with a
:class:`ReplayError` naming its index in ``actions`` (0-based) and the engine's reason.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeVar

from ..errors import InputError, quoted
from ..pots import OddChipRule
from ..validate import is_whole_number
from ..rules import BettingStructure, FixedLimit, ForcedBets, Hand, HandSettings, NoLimit, Phase, PotLimit, Rake
from ..rules import Settlement, ShowdownOrder, StatedRake, StructureKind
from .notation import ActionNotation, Amount, amount_problem, parse_action
from .phh import HandHistory

_Value = TypeVar("_Value")


class ReplayError(InputError):
    """An action the engine refuses, or a hand that cannot be set up.

    Attributes
    ----------
    action_index : int or None
        Index of the action in ``actions`` (0-based), None for a set-up problem.
    action : str or None
        The action's notation.
    reason : str
        The engine's reason.

    The message reads ``action 7 'p3 cbr 500': raise to 500 is over the pot-limit maximum 425``.
    """

    def __init__(self, reason: str, action_index: int | None = None, action: str | None = None) -> None:
        self.action_index = action_index
        self.action = action
        self.reason = reason
        super().__init__(reason if action_index is None else f"action {action_index} {quoted(action)}: {reason}")


@dataclass(frozen=True)
class Replay:
    """A PHH hand played through the engine.

    Attributes
    ----------
    hand_history : HandHistory
        The hand as read.
    hand : Hand
        The engine's hand after the last action (seat ``k`` is player ``p{k+1}``).
    chip_scale : int
        Engine chips per PHH unit: 1 for whole-chip files, 100 for a file in cents
        (``0.25``), and so on.
    incomplete_reason : str or None
        Why the hand did not finish (the actions stop early), None when it did.
    """

    hand_history: HandHistory
    hand: Hand
    chip_scale: int
    incomplete_reason: str | None = None

    @property
    def complete(self) -> bool:
        return self.hand.is_complete

    @property
    def settlement(self) -> Settlement | None:
        """The engine's settlement (pots, winners, each player's account), None if unfinished."""
        return self.hand.settlement

    @property
    def history(self) -> str:
        """The engine's text history: every post, card, action, payout and the settlement."""
        return self.hand.history()

    def to_amount(self, chips: int) -> Amount:
        """Engine chips back in the file's unit: an int, or a Decimal for scaled files."""
        if self.chip_scale == 1:
            return chips
        return Decimal(chips) / self.chip_scale

    @property
    def finishing_stacks(self) -> tuple[Amount, ...]:
        """Stacks after the last action, p1 first (after settlement for a finished hand)."""
        return tuple(self.to_amount(chips) for chips in self.hand.stacks)

    @property
    def finishing_stacks_match(self) -> bool | None:
        """Does the replay end on the file's ``finishing_stacks``? None when the file has none."""
        expected = self.hand_history.finishing_stacks
        if expected is None:
            return None
        return tuple(Decimal(value) for value in expected) == tuple(Decimal(value) for value in self.finishing_stacks)


# ---------------------------------------------------------------------------- set-up


def _decimals(value: Amount) -> int:
    if isinstance(value, int):
        return 0
    exponent = value.normalize().as_tuple().exponent
    return max(-exponent, 0) if isinstance(exponent, int) else 0


def _chip_scale(hand_history: HandHistory, actions: list[ActionNotation]) -> int:
    amounts: list[Amount] = [*hand_history.antes, *hand_history.blinds_or_straddles,
                             *(value for value in (hand_history.small_bet, hand_history.big_bet,
                                                   hand_history.min_bet) if value is not None)]
    for index, stack in enumerate(hand_history.starting_stacks):
        if isinstance(stack, Decimal) and not stack.is_finite():
            raise ReplayError(f"the starting stack of p{index + 1} is unknown ({stack}): a replay needs every stack")
        amounts.append(stack)
    amounts.extend(action.amount for action in actions if action.amount is not None)
    # the user-defined amounts, checked (bounded) before their decimals are counted
    for name in ("_dead_blinds", "_stated_pots"):
        amounts.extend(_custom(hand_history, name, tuple, ()))
    for name in ("_rake", "_rake_cap"):
        value = _custom(hand_history, name, (int, Decimal))
        if value is not None:
            amounts.append(value)
    scale: int = 10 ** max((_decimals(value) for value in amounts), default=0)
    return scale


def _chips(value: Amount, scale: int) -> int:
    return int(value * scale)


def _seat_order(values: Iterable[_Value], player_count: int) -> list[_Value]:
    """PHH arrays to seats: heads-up the specification reverse-assigns them."""
    listed = list(values)
    return listed[::-1] if player_count == 2 else listed


_KIND_NAMES = {int: "an integer", bool: "true or false", str: "a string", tuple: "an array"}


def _custom(hand_history: HandHistory, name: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
    """A user-defined field of ``docs/phh.md``, type-checked (``value`` an instance of ``kind``:
    the callers know the type from the kind they ask for)."""
    if name not in hand_history.user_defined_fields:
        return default
    value = hand_history.custom(name)
    if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
        expected = _KIND_NAMES.get(kind, "a number") if isinstance(kind, type) else "a number"
        raise ReplayError(f"field {name!r}: expected {expected}, got {quoted(value)}")
    # a tuple only when one was asked for (no other kind asked for is a tuple)
    amounts = value if isinstance(value, tuple) else (value,) if kind == (int, Decimal) else ()
    for item in amounts:
        if not (is_whole_number(item) or isinstance(item, Decimal)) or amount_problem(item):
            shown = quoted(list(value) if isinstance(value, tuple) else value)
            raise ReplayError(f"field {name!r}: expected amounts >= 0 (at most 2**63 - 1 chips), got {shown}")
    return value


def _structure(hand_history: HandHistory, scale: int) -> BettingStructure:
    # HandHistory refuses a file without the sizes of its variant's structure
    variant = hand_history.variant_info
    if variant.structure == StructureKind.FIXED_LIMIT:
        assert hand_history.small_bet is not None and hand_history.big_bet is not None
        return FixedLimit(_chips(hand_history.small_bet, scale), _chips(hand_history.big_bet, scale),
                          max_raises=_custom(hand_history, "_max_raises", int, 3),
                          uncapped_heads_up=_custom(hand_history, "_uncapped_heads_up", bool, False))
    assert hand_history.min_bet is not None
    if variant.structure == StructureKind.POT_LIMIT:
        return PotLimit(_chips(hand_history.min_bet, scale),
                        small_blind_counts_as_big_blind=_custom(hand_history, "_small_blind_counts_as_big_blind",
                                                                bool, False))
    return NoLimit(_chips(hand_history.min_bet, scale))


def _rake(hand_history: HandHistory, scale: int) -> Rake | StatedRake | None:
    """The rake rule of a file: ``_rake_percent`` (with ``_rake_cap``, ``_rake_no_flop_no_drop``)
    as a :class:`Rake`; else ``_rake``, the chips the room took (a converted PokerStars hand),
    with ``_stated_pots`` (the pots after rake), taken exactly as a :class:`StatedRake`."""
    percent = _custom(hand_history, "_rake_percent", (int, Decimal, str))
    if percent is not None:
        cap = _custom(hand_history, "_rake_cap", (int, Decimal))
        try:
            # Rake reads its percent from text too (its __post_init__ makes the Fraction)
            return Rake(percent if isinstance(percent, str) else str(percent),  # type: ignore[arg-type]
                        None if cap is None else _chips(cap, scale),
                        no_flop_no_drop=_custom(hand_history, "_rake_no_flop_no_drop", bool, True))
        except InputError as error:
            raise ReplayError(f"field '_rake_percent': {error}") from None
    total = _custom(hand_history, "_rake", (int, Decimal))
    if total is None:
        return None
    stated_pots = _custom(hand_history, "_stated_pots", tuple, ())
    return StatedRake(_chips(total, scale), tuple(_chips(pot, scale) for pot in stated_pots))


def _settings(hand_history: HandHistory, scale: int) -> HandSettings:
    rake = _rake(hand_history, scale)
    order = _custom(hand_history, "_showdown_order", str, ShowdownOrder.FINAL_ROUND.value)
    try:
        showdown_order = ShowdownOrder(order)
    except ValueError:
        raise ReplayError(f"field '_showdown_order': expected 'final round' or 'latest bet', "
                          f"got {quoted(order)}") from None
    # A history records the order players really showed in; it does not change who wins.
    odd_chip = _custom(hand_history, "_odd_chip", str, OddChipRule.LEFT_OF_BUTTON.value)
    try:
        odd_chip_rule = OddChipRule(odd_chip)
    except ValueError:
        rules = " or ".join(repr(rule.value) for rule in OddChipRule)
        raise ReplayError(f"field '_odd_chip': expected {rules}, got {quoted(odd_chip)}") from None
    return HandSettings(showdown_order=showdown_order, enforce_showdown_order=False,
                        run_count=_custom(hand_history, "_run_count", int, 1), rake=rake,
                        fold_when_check_allowed=_custom(hand_history, "_fold_when_check_allowed", bool, False),
                        raise_when_nobody_can_call=_custom(hand_history, "_raise_when_nobody_can_call", bool, False),
                        odd_chip=odd_chip_rule)


def build_hand(hand_history: HandHistory, chip_scale: int = 1) -> Hand:
    """The engine hand of a PHH hand before any action: seats p1..pN, the button last, forced
    bets posted, waiting for the hole cards.

    Raises
    ------
    ReplayError
        An unknown stack, a bad user-defined field, or a table the engine refuses.
    """
    variant = hand_history.variant_info
    player_count = hand_history.player_count
    scale = chip_scale
    die = _custom(hand_history, "_die", int)
    if variant.game == "binglao" and die is None:
        raise ReplayError(f"variant {quoted(hand_history.variant)} (Binglao) needs the die roll: field '_die' = 1..6")
    dead_blinds = _custom(hand_history, "_dead_blinds", tuple, (0,) * player_count)
    if len(dead_blinds) != player_count:
        raise ReplayError(f"field '_dead_blinds': expected {player_count} values (one per player), "
                          f"got {len(dead_blinds)}")
    first_to_act = _custom(hand_history, "_first_to_act", str)
    if first_to_act is not None:
        text = first_to_act.strip()
        if not (text[:1] == "p" and text[1:].isdigit() and 1 <= int(text[1:]) <= player_count):
            raise ReplayError(f"field '_first_to_act': expected a player p1..p{player_count}, "
                              f"got {quoted(first_to_act)}")
        first_to_act = int(text[1:]) - 1
    names = hand_history.players
    if names is None or not all(names) or len(set(names)) != len(names):
        names = tuple(f"p{number}" for number in range(1, player_count + 1))
    try:
        forced = ForcedBets(
            antes=tuple(_chips(value, scale) for value in _seat_order(hand_history.antes, player_count)),
            blinds=tuple(_chips(value, scale) for value in _seat_order(hand_history.blinds_or_straddles, player_count)),
            dead_blinds=tuple(_chips(value, scale) for value in _seat_order(dead_blinds, player_count)),
            first_to_act=first_to_act,
        )
        return Hand(variant.game, _structure(hand_history, scale),
                    [_chips(stack, scale) for stack in hand_history.starting_stacks],
                    button=player_count - 1, forced_bets=forced, settings=_settings(hand_history, scale),
                    die=die if variant.game == "binglao" else None, names=names)
    except ReplayError:
        raise
    except (InputError, TypeError) as error:
        raise ReplayError(str(error)) from None


# ---------------------------------------------------------------------------- playing


class _Player:
    """Applies parsed actions to the engine hand."""

    def __init__(self, hand: Hand, scale: int) -> None:
        self.hand = hand
        self.scale = scale
        self.pending_shows: list[tuple[int, ActionNotation]] = []
        # Hole cards dealt a few at a time (one card per action, round by round) wait here
        # until the player has them all.
        self.partial_hole_cards: dict[int, list[int | None]] = {}

    def deal_hole_cards(self, seat: int, cards: tuple[int | None, ...]) -> None:
        held = self.partial_hole_cards.setdefault(seat, [])
        held.extend(cards)
        if len(held) < self.hand.game.hole_count:
            if seat not in self.hand.hole_cards_needed:
                raise InputError(f"{self.hand.names[seat]} already has hole cards")
            return
        del self.partial_hole_cards[seat]
        known_cards = [card for card in held if card is not None]
        known = tuple(known_cards) if len(known_cards) == len(held) else None
        if known is None and len(held) != self.hand.game.hole_count:
            raise InputError(f"expected {self.hand.game.hole_count} hole cards for {self.hand.game.name}, "
                             f"got {len(held)}")
        self.hand.deal_hole_cards(seat, known)

    def deal_missing_hole_cards(self) -> None:
        """PHH may leave out the deals of unknown hands: deal them face down (a player dealt
        only some cards gets the rest face down too)."""
        if self.partial_hole_cards:
            seat, held = next(iter(self.partial_hole_cards.items()))
            raise InputError(f"{self.hand.names[seat]} was dealt {len(held)} hole cards, "
                             f"{self.hand.game.name} deals {self.hand.game.hole_count}")
        for seat in self.hand.hole_cards_needed:
            self.hand.deal_hole_cards(seat, None)

    def apply(self, action: ActionNotation) -> None:
        hand = self.hand
        if action.actor == "d":
            if action.verb == "dh":
                assert action.player is not None and action.cards is not None  # 'd dh pN CARDS'
                self.deal_hole_cards(action.player - 1, action.cards)
                return
            self.deal_missing_hole_cards()
            if action.known_cards is None:
                raise InputError("unknown board cards (??) cannot be replayed")
            hand.deal_board(action.known_cards)
            return
        assert action.player is not None  # every action but the dealer's names its player
        seat = action.player - 1
        name = hand.names[seat]
        if action.verb in ("sd", "pb"):
            what = "stand pat or discard" if action.verb == "sd" else "bring-in"
            raise InputError(f"'{action.verb}' ({what}) is not an Omaha action")
        if action.verb == "sm":
            self.show_or_muck(seat, action)
            return
        self.deal_missing_hole_cards()
        if hand.phase != Phase.BETTING or hand.actor is None:
            raise InputError(f"{name} cannot act: the hand is {hand.phase.value}")
        if hand.actor != seat:
            raise InputError(f"it is {hand.names[hand.actor]}'s turn, not {name}'s")
        if action.verb == "f":
            hand.fold()
        elif action.verb == "cc":
            hand.check_or_call()
        else:
            assert action.amount is not None  # 'pN cbr AMOUNT'
            amount = action.amount * self.scale
            if amount != int(amount):
                raise InputError(f"amount {action.amount} is finer than the file's smallest chip")
            hand.bet_or_raise_to(int(amount))

    def show_or_muck(self, seat: int, action: ActionNotation) -> None:
        hand = self.hand
        if hand.is_complete:
            return  # showing a hand that won uncontested changes no chips
        if hand.phase == Phase.DEALING_BOARD:
            # All-in: PHH lets players show before the board is run out; they show at showdown.
            self.pending_shows.append((seat, action))
            return
        if hand.phase != Phase.SHOWDOWN:
            raise InputError(f"{hand.names[seat]} cannot show or muck: the hand is {hand.phase.value}")
        if action.cards is None and not action.show_dealt:
            hand.muck(seat)
        elif action.show_dealt or action.known_cards is None:
            # '-' or partly unknown cards: the cards dealt, which must be known to be shown
            hand.show(seat)
        else:
            hand.show(seat, action.known_cards)

    def flush_pending_shows(self) -> None:
        while self.pending_shows and self.hand.phase == Phase.SHOWDOWN:
            seat, action = self.pending_shows.pop(0)
            self.show_or_muck(seat, action)

    def finish_showdown(self) -> str | None:
        """The actions ended at showdown: the players left show their known cards (what the
        cards speak); returns why the hand cannot finish, or None."""
        hand = self.hand
        while hand.phase == Phase.SHOWDOWN and hand.showdown_seat is not None:
            seat = hand.showdown_seat
            if hand.hole_cards[seat] is None:
                return f"the actions end at showdown and {hand.names[seat]}'s hole cards are unknown"
            hand.show(seat)
        return None


def replay(hand_history: HandHistory) -> Replay:
    """Play a PHH hand through the rules engine, action by action.

    Parameters
    ----------
    hand_history : HandHistory
        A hand of any variant we read (``PO``, ``FO/8`` and ours, ``docs/phh.md``).

    Returns
    -------
    Replay
        The engine hand, its settlement and history, the finishing stacks (p1 first). When the
        actions stop before the end of the hand (the specification allows partial histories),
        ``complete`` is False and ``incomplete_reason`` says where it stopped. When they stop at
        showdown, the players who have not shown or mucked show the cards they were dealt.

    Raises
    ------
    ReplayError
        The first action the engine refuses (``action 7 'p3 cbr 500': raise to 500 is over the
        pot-limit maximum 425``), with its index in ``actions`` (0-based); or a hand that cannot
        be set up (an unknown stack, Binglao without ``_die``).
    """
    actions = [parse_action(text) for text in hand_history.actions]
    scale = _chip_scale(hand_history, actions)
    hand = build_hand(hand_history, scale)
    player = _Player(hand, scale)
    for index, action in enumerate(actions):
        if action.is_no_op:
            continue
        try:
            player.apply(action)
            player.flush_pending_shows()
        except InputError as error:
            raise ReplayError(str(error), index, action.text) from None
    incomplete_reason = None
    if not hand.is_complete:
        try:
            player.deal_missing_hole_cards()
            player.flush_pending_shows()
            incomplete_reason = player.finish_showdown()
        except InputError as error:
            raise ReplayError(str(error), len(actions), "(end of actions)") from None
        if incomplete_reason is None and not hand.is_complete:
            waiting = (f"{hand.names[hand.actor]} to act" if hand.phase == Phase.BETTING and hand.actor is not None
                       else f"the hand is {hand.phase.value}")
            incomplete_reason = f"the actions end before the hand does: {waiting}"
    return Replay(hand_history, hand, scale, incomplete_reason)
