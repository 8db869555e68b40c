"""Replaying hand histories with the rules engine, and checking the replay against the file.

:func:`replay_pokerstars` drives :class:`omaha_equity.rules.Hand` with a PokerStars hand: the
forced bets as posted (blinds, the posts of new players, the dead part of "small & big blinds",
antes), the known hole cards, each action in order (checked by the engine: out of turn, over the
limit, a call of the wrong amount are errors), the board of each run, the shows and mucks, and
the rake each pot paid. :func:`played_hand` turns the finished engine hand into the
:class:`~omaha_equity.hand_history.allin_ev.PlayedHand` the all-in EV reads, and
:func:`check_collected` compares what the engine paid with what the file says each player
collected. Any disagreement is a :class:`~omaha_equity.hand_history.sessions.HandHistoryError`
naming the file, the hand and the line: such a hand is reported and skipped, never guessed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..cards import parse_cards
from ..errors import InputError
from ..games import get_game
from ..rules import ActionKind, FixedLimit, ForcedBets, Hand, HandSettings, NoLimit, PotLimit
from .allin_ev import PlayedHand
from .pokerstars import PokerStarsHand
from .sessions import HandHistoryError

_BETTING = {ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE,
            ActionKind.COMPLETE}


@dataclass(frozen=True)
class StatedRake:
    """The rake a hand history states, taken from the pots exactly as the file says.

    The engine asks a rake rule for each pot's share (:meth:`split`, main pot first). When the
    file lists the pots after rake (``Main pot $2.35. Side pot-1 $0.88.``) each pot's rake is
    its amount before rake minus the stated amount; with one pot the whole rake is its own;
    otherwise (several pots, none stated) the rake is shared in proportion to the pots, the
    chips left by rounding down going to the main pot first.
    """

    total: int
    stated_pots: tuple[int, ...] = ()
    no_flop_no_drop: bool = False  # the file's rake is already what the room took

    def of(self, total: int) -> int:
        return self.total

    def split(self, pot_amounts: Sequence[int]) -> list[int]:
        if len(self.stated_pots) == len(pot_amounts) and self.stated_pots:
            return [amount - stated for amount, stated in zip(pot_amounts, self.stated_pots)]
        if len(pot_amounts) == 1:
            return [self.total]
        pot_total = sum(pot_amounts)
        shares = [self.total * amount // pot_total if pot_total else 0 for amount in pot_amounts]
        for index in range(self.total - sum(shares)):
            shares[index % len(shares)] += 1
        return shares


@dataclass
class ReplayCheck:
    """What the file says the replay must reproduce, per player name: the chips collected,
    the uncalled chips returned, and the chips received by cashing out instead."""

    collected: dict[str, int] = field(default_factory=dict)
    returned: dict[str, int] = field(default_factory=dict)
    cash_outs: dict[str, int] = field(default_factory=dict)


def _structure(hand: PokerStarsHand, big_blind: int):
    if hand.structure == "fixed-limit":
        return FixedLimit(hand.stakes[0], hand.stakes[1])
    if hand.structure == "no-limit":
        return NoLimit(big_blind)
    return PotLimit(big_blind)


def _fail(hand: PokerStarsHand, reason: str, line_number: int | None = None) -> HandHistoryError:
    return HandHistoryError(reason, source=hand.source, hand_id=hand.hand_id,
                            line_number=hand.line_number if line_number is None else line_number)


def _button_index(hand: PokerStarsHand) -> int:
    """The engine's button: the seat with the button, or with a dead button (an empty seat)
    the nearest player before it, so that the same players sit left of the button."""
    seats = [seat.seat for seat in hand.seats]
    before = [index for index, seat in enumerate(seats) if seat <= hand.button_seat]
    return before[-1] if before else len(seats) - 1


def _forced_bets(hand: PokerStarsHand, index_of: dict[str, int], big_blind: int) -> ForcedBets:
    count = len(hand.seats)
    antes, blinds, dead = [0] * count, [0] * count, [0] * count
    for post in hand.posts:
        seat = index_of[post.name]
        if post.kind == "ante":
            antes[seat] += post.amount
        elif post.kind == "small & big blinds":
            live = min(big_blind, post.amount)
            blinds[seat] += live
            dead[seat] += post.amount - live
        else:
            blinds[seat] += post.amount
    return ForcedBets(tuple(antes), tuple(blinds), tuple(dead))


def _big_blind(hand: PokerStarsHand) -> int:
    if hand.structure == "fixed-limit":
        posted = [post.amount for post in hand.posts if post.kind == "big blind"]
        return max(posted) if posted else hand.stakes[0]
    return hand.stakes[1]


def _full_hand(cards: str | None, hole_count: int) -> tuple[int, ...] | None:
    if not cards:
        return None
    parsed = parse_cards(cards)
    return parsed if len(parsed) == hole_count else None


def replay_pokerstars(hand: PokerStarsHand) -> Hand:
    """Play a PokerStars hand through the rules engine.

    Returns
    -------
    omaha_equity.rules.Hand
        The finished hand (``is_complete``), with its settlement.

    Raises
    ------
    HandHistoryError
        An action the engine refuses (with the engine's reason and the action's line), a hand
        that does not end where the file ends, bad cards.
    """
    game = get_game(hand.game)
    index_of = {seat.name: index for index, seat in enumerate(hand.seats)}
    big_blind = _big_blind(hand)
    try:
        hole_cards = [_full_hand(hand.hole_cards.get(seat.name), game.hole_count) for seat in hand.seats]
        boards = [parse_cards(board) for board in hand.boards]
        engine = Hand(
            game, _structure(hand, big_blind), [seat.stack for seat in hand.seats],
            button=_button_index(hand), forced_bets=_forced_bets(hand, index_of, big_blind),
            settings=HandSettings(enforce_showdown_order=False, run_count=hand.run_count,
                                  rake=StatedRake(hand.rake, tuple(hand.stated_pots))),
            hole_cards=hole_cards, boards=boards if len(boards) > 1 else None,
            board=boards[0] if len(boards) == 1 else None, names=hand.names,
        )
    except InputError as error:
        raise _fail(hand, str(error)) from None
    for action in hand.actions:
        seat = index_of[action.name]
        try:
            _act(engine, seat, action)
        except InputError as error:
            raise _fail(hand, f"{action.name} {action.kind}s: {error}", action.line_number) from None
    try:
        _showdown(engine, hand, index_of, game.hole_count)
    except InputError as error:
        raise _fail(hand, f"showdown: {error}") from None
    if not engine.is_complete:
        raise _fail(hand, f"the hand is not over after the file's last action: the engine is "
                          f"{engine.phase.value}" + (f", {engine.names[engine.actor]} to act"
                                                     if engine.actor is not None else ""))
    return engine


def _act(engine: Hand, seat: int, action) -> None:
    if engine.actor != seat:
        waiting = engine.names[engine.actor] if engine.actor is not None else f"no one ({engine.phase.value})"
        raise InputError(f"out of turn: the engine waits for {waiting}")
    if action.kind == "fold":
        engine.fold()
    elif action.kind in ("check", "call"):
        owed = engine.legal_actions().call_amount
        if action.kind == "check" and owed:
            raise InputError(f"cannot check: {owed} to call")
        if action.kind == "call" and owed != action.amount:
            raise InputError(f"the file calls {action.amount}, the call is {owed}")
        engine.check_or_call()
    else:
        target = action.amount if action.kind == "raise" else engine.bets[seat] + action.amount
        engine.bet_or_raise_to(target)
    if action.all_in and engine.stacks[seat] != 0:
        raise InputError(f"the file says all-in, {engine.stacks[seat]} chips are left")


def _showdown(engine: Hand, hand: PokerStarsHand, index_of: dict[str, int], hole_count: int) -> None:
    """Show the hands the file shows, in the file's order; the others muck."""
    if engine.showdown_seat is None:
        return
    for name, cards in hand.shown.items():
        seat = index_of[name]
        if engine.showdown_seat is not None and _full_hand(cards, hole_count) is not None:
            engine.show(seat, cards)
    while engine.showdown_seat is not None:
        engine.muck(engine.showdown_seat)


def pokerstars_check(hand: PokerStarsHand) -> ReplayCheck:
    """What a replay of a PokerStars hand must reproduce (see :class:`ReplayCheck`): each
    player's "collected" lines (or, for a player who cashed out, the summary's award)."""
    check = ReplayCheck(returned=dict(hand.uncalled))
    for seat in hand.seats:
        name = seat.name
        if any(entry.name == name for entry in hand.collected):
            check.collected[name] = hand.collected_by(name)
        else:
            check.collected[name] = hand.summary_won.get(name, 0)
    check.cash_outs = {name: paid for name, (paid, _fee) in hand.cash_outs.items()}
    return check


def check_collected(engine: Hand, check: ReplayCheck, *, source: str, hand_id: str,
                    line_number: int | None) -> None:
    """Compare the engine's payouts and returned bets with the file's.

    Raises
    ------
    HandHistoryError
        ``the replay pays Hero 191650, the file says 191600`` (chips of the smallest unit).
    """
    settlement = engine.settlement
    for seat, name in enumerate(engine.names):
        paid = sum(settlement.players[seat].won)
        expected = check.collected.get(name, 0)
        if paid != expected:
            raise HandHistoryError(f"the replay pays {name} {paid}, the file says {expected} "
                                   "(chips of the smallest unit)", source=source, hand_id=hand_id,
                                   line_number=line_number)
        if name in check.returned and engine.returned[seat] != check.returned[name]:
            raise HandHistoryError(f"the replay returns {engine.returned[seat]} uncalled chips to {name}, "
                                   f"the file says {check.returned[name]}", source=source, hand_id=hand_id,
                                   line_number=line_number)


def all_in_board_count(engine: Hand) -> int | None:
    """Board cards dealt when the last betting decision was made, if at that point the pot was
    contested by two or more players of whom at most one had chips behind and the board was
    not complete (an all-in before the river); None otherwise."""
    settlement = engine.settlement
    if settlement is None or not settlement.showdown:
        return None
    in_hand = [seat for seat in range(engine.seat_count) if not engine.folded[seat]]
    with_chips = [seat for seat in in_hand
                  if engine.starting_stacks[seat] - engine.contributed[seat] > 0]
    if len(in_hand) < 2 or len(with_chips) > 1:
        return None
    board_count = 0
    last_count = 1 if engine.game.exposed_first_flop_card else 0
    for action in engine.actions:
        if action.kind == ActionKind.DEAL_BOARD and action.run_index == 0:
            board_count += len(action.cards)
        elif action.kind in _BETTING:
            last_count = board_count
    return last_count if last_count < 5 else None


def played_hand(engine: Hand, *, source: str, hand_id: str, line_number: int | None, unit: str,
                cash_outs: dict[str, int] | None = None,
                known_cards: dict[str, tuple[int, ...]] | None = None) -> PlayedHand:
    """The :class:`PlayedHand` of a finished engine hand, players in odd-chip order.

    ``known_cards`` adds hole cards known outside the engine (a folded player's cards the file
    shows); a folded player's known cards become dead cards for the all-in EV.
    """
    order = engine.positions
    settlement = engine.settlement
    pots = settlement.pots
    known = dict(known_cards or {})
    hole_cards = []
    for seat in order:
        cards = engine.hole_cards[seat] or known.get(engine.names[seat])
        hole_cards.append(tuple(cards) if cards and len(cards) == engine.game.hole_count else None)
    dead = tuple(card for position, seat in enumerate(order) if engine.folded[seat] and hole_cards[position]
                 for card in hole_cards[position])
    cash_outs = cash_outs or {}
    return PlayedHand(
        source=source, hand_id=hand_id, line_number=line_number, game=engine.game.name, unit=unit,
        names=tuple(engine.names[seat] for seat in order),
        committed=tuple(engine.contributed[seat] for seat in order),
        folded=tuple(engine.folded[seat] for seat in order),
        hole_cards=tuple(hole_cards),
        boards=engine.boards,
        all_in_board_count=all_in_board_count(engine),
        won=tuple(sum(settlement.players[seat].won) for seat in order),
        pot_amounts=tuple(pot.amount for pot in pots),
        pot_rakes=tuple(pot.rake for pot in pots),
        cash_outs={position: cash_outs[engine.names[seat]] for position, seat in enumerate(order)
                   if engine.names[seat] in cash_outs},
        dead_cards=dead,
    )


def replay_pokerstars_hand(hand: PokerStarsHand) -> PlayedHand:
    """Replay a PokerStars hand, check it against the file and return its :class:`PlayedHand`.

    Raises
    ------
    HandHistoryError
        The engine refuses the hand, or pays other amounts than the file.
    """
    engine = replay_pokerstars(hand)
    check_collected(engine, pokerstars_check(hand), source=hand.source, hand_id=hand.hand_id,
                    line_number=hand.line_number)
    game = get_game(hand.game)
    known = {name: parse_cards(cards) for name, cards in hand.hole_cards.items()
             if len(cards.split()) == game.hole_count}
    return played_hand(engine, source=hand.source, hand_id=hand.hand_id, line_number=hand.line_number,
                       unit=hand.currency or "chips",
                       cash_outs={name: paid for name, (paid, _fee) in hand.cash_outs.items()},
                       known_cards=known)
