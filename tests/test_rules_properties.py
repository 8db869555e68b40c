"""Property tests of the rules engine: seeded random legal hands of every game and structure.

Hypothesis (derandomized, so CI plays the same hands every run) draws a table: a game (Binglao
with a die), 2..10 players (as many as the game deals), a structure, short random stacks so
that all-ins and side pots abound, antes, big-blind antes, equal blinds, straddles, a
missed-blinds post, stacks that go all in on an ante or a dead blind (issue 14: dead money),
run counts and rake. A seeded player then picks random legal actions, and sometimes deals by
hand. Every hand checks that chips are conserved, that the action order is legal
(``docs/rules.md``, "Betting rounds": pre-flop from the seat after the big blind or the last
straddle, by seat even with equal blinds; later rounds from the first seat left of the button,
then clockwise), and settles again independently (:func:`check_settlement_independently`:
the pots by contribution levels with the dead money as a pot every player still in may win,
the rake, each run's part and each winner's share within the odd chips). Every hand is written
as PHH (``to_phh``) and replayed to the same stacks (issue 14, item 6): the seeded hands, the
hands dealt by hand differing only in who dealt.

Each of the ``EXAMPLE_COUNT`` tables drawn plays two hands, one dealt from the engine's seeded
shuffle and one dealt by hand: ``HAND_COUNT`` = 3,000 hands; the seeded ones are replayed
from PHH.
"""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from omaha_equity.games import GAME_NAMES, get_game
from omaha_equity.hand_history import dumps, replay, to_phh
from omaha_equity.rules import (
    ActionKind, FixedLimit, ForcedBets, Hand, HandSettings, NoLimit, Phase, PotLimit, Rake, ShowdownOrder,
)

EXAMPLE_COUNT = 1500
HAND_COUNT = 2 * EXAMPLE_COUNT
BETTING_KINDS = {ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE,
                 ActionKind.COMPLETE}


@st.composite
def tables(draw):
    name = draw(st.sampled_from(GAME_NAMES))
    die = draw(st.integers(1, 6)) if name == "binglao" else None
    game = get_game(name, die)
    player_count = draw(st.integers(2, min(10, game.max_players)))
    structure = draw(st.sampled_from([FixedLimit(2, 4), FixedLimit(2, 4, max_raises=4, uncapped_heads_up=True),
                                      PotLimit(2), PotLimit(2, small_blind_counts_as_big_blind=True), NoLimit(2)]))
    stacks = draw(st.lists(st.integers(1, 300), min_size=player_count, max_size=player_count))
    button = draw(st.integers(0, player_count - 1))
    small_blind = draw(st.sampled_from([1, 1, 1, 2]))  # 2: equal blinds
    big_blind_ante = draw(st.sampled_from([0, 0, 0, 2]))
    forced = ForcedBets.standard(player_count, button, small_blind, 2, ante=draw(st.sampled_from([0, 0, 1])),
                                 big_blind_ante=big_blind_ante,
                                 straddles=draw(st.sampled_from([(), (), (4,)])) if player_count > 2 else ())
    if big_blind_ante and draw(st.booleans()):
        # the big blind all in on the ante (or on the ante and part of the blind)
        big_seat = button + 1 if player_count == 2 else button + 2
        stacks[big_seat % player_count] = draw(st.integers(1, forced.antes[big_seat % player_count] + 1))
    if player_count > 3 and draw(st.booleans()):
        # a player who missed the blinds posts both: small part dead, big part live
        seat = (button + 3 + draw(st.integers(0, player_count - 4))) % player_count
        if forced.blinds[seat] == 0:
            blinds = list(forced.blinds)
            dead = [0] * player_count
            blinds[seat], dead[seat] = 2, 1
            forced = ForcedBets(forced.antes, tuple(blinds), tuple(dead))
            if draw(st.booleans()):
                stacks[seat] = 1 + forced.antes[seat]  # all in on the dead blind
    hand_settings = HandSettings(
        showdown_order=draw(st.sampled_from(list(ShowdownOrder))),
        run_count=draw(st.sampled_from([1, 1, 2, 3])),
        rake=draw(st.sampled_from([None, Rake(5, cap=3), Rake("2.5", no_flop_no_drop=False)])),
    )
    return dict(name=name, die=die, structure=structure, stacks=stacks, button=button, forced=forced,
                settings=hand_settings, seed=draw(st.integers(0, 2**32)))


def first_seat_with_chips(hand: Hand, start: int) -> int:
    for offset in range(hand.seat_count):
        seat = (start + offset) % hand.seat_count
        if not hand.folded[seat] and hand.stacks[seat] > 0:
            return seat
    raise AssertionError("nobody can act")


def expected_first_actor(hand: Hand) -> int:
    """Pre-flop: the seat after the big blind seat (the second seat left of the button;
    heads-up the player who is not the button), or after the straddles that follow it, each
    larger than the blind before; later rounds: the first seat left of the button. Seats, not
    amounts: equal blinds change nothing."""
    if hand.street.index > 0:
        return first_seat_with_chips(hand, hand.button + 1)
    blinds = hand.forced_bets.blinds
    count = hand.seat_count
    small_seat = hand.button if count == 2 else (hand.button + 1) % count
    last = (small_seat + 1) % count
    while (last + 1) % count != small_seat and blinds[(last + 1) % count] > blinds[last]:
        last = (last + 1) % count
    if blinds[last] < max(blinds):  # a straddle out of the row of blinds
        last = next(seat for seat in hand.positions if blinds[seat] == max(blinds))
    return first_seat_with_chips(hand, last + 1)


def play(table, manual: bool) -> Hand:
    """Play one hand with random legal actions, checking the order of play at every step;
    ``manual``: the test deals the cards (and sometimes runs the board several times)."""
    chooser = random.Random(table["seed"])
    hand = Hand(table["name"], table["structure"], table["stacks"], button=table["button"],
                forced_bets=table["forced"], settings=table["settings"], die=table["die"],
                seed=None if manual else table["seed"])
    deck = list(range(52))
    chooser.shuffle(deck)
    previous_actor, previous_street = None, None
    while not hand.is_complete:
        if hand.phase == Phase.DEALING_HOLE_CARDS:
            seat = hand.hole_cards_needed[0]
            hand.deal_hole_cards(seat, [deck.pop() for _ in range(hand.game.hole_count)])
        elif hand.phase == Phase.DEALING_BOARD:
            run_count = chooser.choice([2, 3])
            if hand.can_set_run_count(run_count) and chooser.random() < 0.5:
                if run_count * (5 - len(hand.board)) <= len(deck):
                    hand.set_run_count(run_count)
            hand.deal_board([deck.pop() for _ in range(hand.board_cards_needed)])
        elif hand.phase == Phase.BETTING:
            seat = hand.actor
            assert not hand.folded[seat] and hand.stacks[seat] > 0
            if hand.street != previous_street:
                assert seat == expected_first_actor(hand), hand.history()
            else:
                assert seat == first_seat_with_chips(hand, previous_actor + 1), hand.history()
            previous_actor, previous_street = seat, hand.street
            legal = hand.legal_actions()
            assert legal.can_check == (legal.call_amount == 0) and legal.can_fold == (not legal.can_check)
            limits = legal.raise_limits
            roll = chooser.random()
            if legal.can_fold and roll < 0.15:
                hand.fold()
            elif limits is not None and roll < 0.6:
                assert hand.bet_level < limits.minimum <= limits.maximum <= hand.bets[seat] + hand.stacks[seat]
                amount = chooser.choice([limits.minimum, limits.maximum,
                                         chooser.randint(limits.minimum, limits.maximum)])
                hand.bet_or_raise_to(amount)
            else:
                hand.check_or_call()
            assert all(stack >= 0 for stack in hand.stacks)
        else:
            assert hand.phase == Phase.SHOWDOWN
            if hand.can_muck() and chooser.random() < 0.2:
                hand.muck()
            else:
                hand.show()
    return hand


def check_settlement(hand: Hand) -> None:
    settlement = hand.settlement
    start = sum(hand.starting_stacks)
    assert sum(hand.stacks) + settlement.rake == start, hand.history()
    assert settlement.final_stacks == tuple(hand.stacks)
    contributed = [player.contributed for player in settlement.players]
    dead = sum(hand.dead)
    for pot in settlement.pots:
        assert sum(pot.payouts) == pot.amount - pot.rake >= 0
        for seat, chips in enumerate(pot.payouts):
            assert chips == 0 or seat in pot.eligible
        assert all(not hand.folded[seat] and not hand.mucked[seat] for seat in pot.eligible)
        for run in pot.runs:
            winners = set(run.high_winners) | set(run.low_winners)
            assert all(chips == 0 or seat in winners for seat, chips in enumerate(run.payouts)), hand.history()
    for player in settlement.players:
        seat = player.seat
        assert player.final_stack == player.starting_stack - player.contributed + sum(player.won)
        # the most a player can win at a showdown: from every player, what they matched, plus
        # dead money (a player everyone folds to takes every chip: checked below)
        could_win = sum(min(other, contributed[seat] - hand.dead[seat]) for other in
                        (c - d for c, d in zip(contributed, hand.dead))) + dead
        assert sum(player.won) <= could_win or not settlement.showdown, hand.history()
        if hand.folded[seat] or hand.mucked[seat]:
            assert sum(player.won) == 0
    if settlement.showdown:
        assert all(len(board) == 5 for board in hand.boards)
        # everyone still in with chips behind has matched the same live contribution
        live = {contributed[seat] - hand.dead[seat] for seat in hand.in_hand if hand.stacks[seat] - sum(
            settlement.players[seat].won) > 0}
        assert len(live) <= 1, hand.history()
    else:
        assert len(hand.in_hand) == 1
        assert sum(settlement.players[hand.in_hand[0]].won) == sum(contributed) - settlement.rake


def expected_pots(hand: Hand) -> list[tuple[int, set[int]]]:
    """Pots from the rule, written out again (``docs/rules.md``, "All-ins and side pots"): the
    dead money is a pot every player still in may win; then one pot per level of live chips
    reached by the players still in, holding every player's chips in that layer (chips of folded
    players above the top level join the top pot), won by those who reached the level; layers
    with the same players are one pot."""
    out = [hand.folded[seat] or hand.mucked[seat] for seat in range(hand.seat_count)]
    contenders = {seat for seat in range(hand.seat_count) if not out[seat]}
    live = [hand.contributed[seat] - hand.dead[seat] for seat in range(hand.seat_count)]
    pots: list[tuple[int, set[int]]] = [(sum(hand.dead), contenders)] if sum(hand.dead) else []
    levels = sorted({live[seat] for seat in contenders})
    previous = 0
    for level in levels:
        top = level == levels[-1]
        amount = sum(max(0, (chips if top else min(chips, level)) - previous) for chips in live)
        eligible = {seat for seat in contenders if live[seat] >= level}
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        elif amount:
            pots.append((amount, eligible))
        previous = level
    return pots


def check_settlement_independently(hand: Hand, table) -> None:
    """The settlement again from the rules, not from the engine's pot code: pots, rake, the
    parts of each run (odd chips to the first runs) and each player's share of each part: the
    high half (the odd chip) to the best high among the pot's players, the low half to the best
    qualifying low, ties splitting a half; every share within the odd chips of the exact one."""
    settlement = hand.settlement
    pots = expected_pots(hand)
    assert [(pot.amount, set(pot.eligible)) for pot in settlement.pots] == pots, hand.history()
    rake_rule = table["settings"].rake
    total = sum(amount for amount, _ in pots)
    taken = 0
    if rake_rule is not None and (len(hand.board) >= 3 or not rake_rule.no_flop_no_drop):
        taken = total * rake_rule.percent.numerator // (100 * rake_rule.percent.denominator)
        taken = min(taken, rake_rule.cap) if rake_rule.cap is not None else taken
    assert settlement.rake == taken, hand.history()
    for pot in settlement.pots:
        parts = [run.amount for run in pot.runs]
        assert sum(parts) == pot.amount - pot.rake and max(parts) - min(parts) <= 1 and parts == sorted(parts)[::-1]
        for run in pot.runs:
            if not settlement.showdown:
                assert run.payouts[hand.in_hand[0]] == run.amount
                continue
            values = {seat: hand.hand_values(seat, run.run_index) for seat in pot.eligible}
            best_high = max(high for high, _ in values.values())
            high_winners = {seat for seat, (high, _) in values.items() if high == best_high}
            lows = [low for _, low in values.values() if low]
            low_winners = {seat for seat, (_, low) in values.items() if lows and low == max(lows)}
            high_part = run.amount - run.amount // 2 if low_winners else run.amount
            for seat in range(hand.seat_count):
                if high_winners == low_winners:
                    exact = Fraction(run.amount, len(high_winners)) if seat in high_winners else 0
                else:
                    exact = (Fraction(high_part, len(high_winners)) if seat in high_winners else 0) + (
                        Fraction(run.amount - high_part, len(low_winners)) if seat in low_winners else 0)
                assert abs(run.payouts[seat] - exact) < 2 and (exact or not run.payouts[seat]), hand.history()


def check_phh_round_trip(hand: Hand) -> None:
    """Issue 14, item 6: the hand written as PHH replays to the same stacks."""
    result = replay(to_phh(hand))
    assert result.complete and result.finishing_stacks == tuple(hand.stacks[seat] for seat in hand.positions), (
        dumps(to_phh(hand)))


@settings(max_examples=EXAMPLE_COUNT, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(tables())
def test_random_legal_hands_conserve_chips_follow_the_order_of_play_settle_and_replay(table):
    for manual in (False, True):
        hand = play(table, manual)
        check_settlement(hand)
        check_settlement_independently(hand, table)
        if not manual:
            check_phh_round_trip(hand)
        assert all(action.seat is None or 0 <= action.seat < hand.seat_count for action in hand.actions)
        assert hand.history().count("\n") >= len(hand.actions)
