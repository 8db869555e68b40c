"""The rules engine, rule by rule: ``docs/rules.md`` sections "Blinds, antes, dealing", "Betting
rounds", "Betting structures", "All-ins and side pots" and "Showdown". Each test is named after
the rule it pins and checks real amounts, seats and cards.
"""

from __future__ import annotations

import random

import pytest

from omaha_equity.cards import parse_cards
from omaha_equity.errors import InputError
from omaha_equity.rules import (
    ActionKind, FixedLimit, ForcedBets, Hand, HandSettings, IllegalActionError, NoLimit, Phase, PotLimit,
    ShowdownOrder, Street, WagerKind,
)

FOUR_HANDS = ["AsKsQsJs", "AhKhQhJh", "AdKdQdJd", "AcKcQcJc"]


def kinds(hand, *wanted):
    return [(action.kind, action.seat, action.amount) for action in hand.actions if action.kind in wanted]


def check_down(hand):
    """Check or call until the hand reaches the showdown (or ends)."""
    while hand.phase == Phase.BETTING:
        hand.check_or_call()


def show_all(hand):
    while hand.phase == Phase.SHOWDOWN:
        hand.show()


# ---------------------------------------------------------------- blinds, antes, dealing

def test_blinds_small_blind_left_of_the_button_big_blind_next():
    hand = Hand.with_blinds("omaha", PotLimit(10), [500] * 4, button=1, small_blind=5, big_blind=10, seed=3)
    assert kinds(hand, ActionKind.BLIND) == [(ActionKind.BLIND, 2, 5), (ActionKind.BLIND, 3, 10)]
    assert hand.actor == 0  # under the gun: left of the big blind
    assert hand.legal_actions().call_amount == 10


def test_blinds_small_blind_need_not_be_half_the_big_blind():
    # a fixed-limit $15/$30 game with $10/$15 blinds
    hand = Hand.with_blinds("omaha8", FixedLimit(15, 30), [500] * 3, button=0, small_blind=10, big_blind=15, seed=1)
    legal = hand.legal_actions()
    assert (legal.seat, legal.call_amount, legal.min_raise_to, legal.max_raise_to) == (0, 15, 30, 30)
    hand.check_or_call()
    legal = hand.legal_actions()
    assert (legal.seat, legal.call_amount, legal.min_raise_to) == (1, 5, 30)


def test_heads_up_button_posts_small_blind_acts_first_before_the_flop_last_after():
    hand = Hand.with_blinds("omaha", PotLimit(10), [500, 500], button=0, small_blind=5, big_blind=10, seed=2)
    assert kinds(hand, ActionKind.BLIND) == [(ActionKind.BLIND, 0, 5), (ActionKind.BLIND, 1, 10)]
    assert hand.actor == 0
    hand.check_or_call()
    assert hand.actor == 1  # the big blind's option
    hand.check_or_call()
    assert hand.street == Street.FLOP and hand.actor == 1
    hand.check_or_call()
    assert hand.actor == 0


def test_antes_every_player_pays_the_ante_before_the_deal():
    hand = Hand.with_blinds("omaha", NoLimit(10), [500] * 4, button=3, small_blind=5, big_blind=10, ante=2, seed=4)
    antes = kinds(hand, ActionKind.ANTE)
    assert antes == [(ActionKind.ANTE, seat, 2) for seat in (0, 1, 2, 3)]
    first_deal = next(index for index, action in enumerate(hand.actions) if action.kind == ActionKind.DEAL_HOLE_CARDS)
    assert all(action.kind in (ActionKind.ANTE, ActionKind.BLIND) for action in hand.actions[:first_deal])
    assert hand.pot == 4 * 2 + 5 + 10
    assert hand.legal_actions().call_amount == 10  # antes are dead: the call is the big blind


def test_new_player_posting_the_big_blind_is_live_and_keeps_the_option():
    # seat 4 joins and posts a big blind out of position: live, counts toward the call
    forced = ForcedBets(antes=(0,) * 6, blinds=(5, 10, 0, 0, 10, 0))
    hand = Hand("omaha", PotLimit(10), [500] * 6, button=5, forced_bets=forced, seed=5)
    assert hand.actor == 2  # still under the gun: left of the (first) big blind
    hand.check_or_call()
    hand.check_or_call()
    assert hand.actor == 4
    legal = hand.legal_actions()
    assert legal.can_check and legal.call_amount == 0 and legal.can_bet_or_raise  # the option
    hand.check_or_call()
    hand.check_or_call()  # button calls 10
    hand.check_or_call()  # small blind completes
    assert hand.actor == 1 and hand.legal_actions().can_check  # the big blind's option
    hand.check_or_call()
    assert hand.street == Street.FLOP and hand.pot == 60


def test_missed_blinds_small_blind_part_dead_big_blind_part_live():
    # seat 3 missed the blinds and posts both: 5 dead, 10 live
    forced = ForcedBets(antes=(0,) * 5, blinds=(5, 10, 0, 10, 0), dead_blinds=(0, 0, 0, 5, 0))
    hand = Hand("omaha", PotLimit(10), [500] * 5, button=4, forced_bets=forced, seed=6)
    assert kinds(hand, ActionKind.DEAD_BLIND) == [(ActionKind.DEAD_BLIND, 3, 5)]
    assert hand.contributed[3] == 15 and hand.bets[3] == 10
    # under the gun: call 10; pot after the call 5 + 10 + 15 + 10 = 40, raise to 10 + 40 = 50
    assert hand.actor == 2 and hand.legal_actions().max_raise_to == 50
    hand.check_or_call()
    assert hand.actor == 3 and hand.legal_actions().can_check  # the live 10 counts toward the call


def test_a_straddle_is_a_live_blind_the_next_player_acts_first_and_the_straddler_has_the_option():
    hand = Hand.with_blinds("omaha", NoLimit(2), [500] * 5, button=4, small_blind=1, big_blind=2, straddles=[4],
                            seed=5)
    assert kinds(hand, ActionKind.BLIND) == [(ActionKind.BLIND, 0, 1), (ActionKind.BLIND, 1, 2),
                                             (ActionKind.BLIND, 2, 4)]
    assert "Seat 3 posts straddle 4" in hand.history()
    legal = hand.legal_actions()
    assert (legal.seat, legal.call_amount, legal.min_raise_to) == (3, 4, 8)
    for _ in range(4):
        hand.check_or_call()
    legal = hand.legal_actions()
    assert (legal.seat, legal.can_check, legal.min_raise_to) == (2, True, 8)


def test_forced_bets_can_name_the_first_player_to_act():
    forced = ForcedBets(antes=(0, 0, 0, 0), blinds=(5, 10, 0, 10), first_to_act=3)
    hand = Hand("omaha", PotLimit(10), [500] * 4, button=2, forced_bets=forced, seed=5)
    assert hand.actor == 3


def test_dealing_starts_at_the_small_blind_one_card_at_a_time():
    seed = 11
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    hand = Hand.with_blinds("omaha", PotLimit(2), [100] * 4, button=1, small_blind=1, big_blind=2, seed=seed)
    order = [2, 3, 0, 1]  # small blind first, the button last
    for position, seat in enumerate(order):
        assert hand.hole_cards[seat] == tuple(deck[position::4][:4])
    heads_up = Hand.with_blinds("omaha", PotLimit(2), [100] * 2, button=1, small_blind=1, big_blind=2, seed=seed)
    assert heads_up.hole_cards[1] == tuple(deck[0:8:2])  # heads-up the button is the small blind


def test_a_card_is_burned_before_the_flop_the_turn_and_the_river():
    seed = 12
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    hand = Hand.with_blinds("omaha", PotLimit(2), [100] * 3, button=0, small_blind=1, big_blind=2, seed=seed)
    check_down(hand)
    deals = [action for action in hand.actions if action.kind == ActionKind.DEAL_BOARD]
    assert [action.burned for action in deals] == [(deck[12],), (deck[16],), (deck[18],)]
    assert [action.cards for action in deals] == [tuple(deck[13:16]), (deck[17],), (deck[19],)]
    assert hand.board == tuple(deck[13:16]) + (deck[17], deck[19])


def test_courchevel_first_flop_card_exposed_before_the_first_betting_round():
    hand = Hand.with_blinds("courchevel", PotLimit(2), [100] * 3, button=0, small_blind=1, big_blind=2,
                            hole_cards=["AsKsQsJsTs", "AhKhQhJhTh", "AdKdQdJdTd"])
    assert hand.phase == Phase.DEALING_BOARD and hand.board_cards_needed == 1
    with pytest.raises(IllegalActionError, match="expected 1 board card for the exposed first flop card"):
        hand.deal_board("2c3c")
    hand.deal_board("2c")
    assert hand.phase == Phase.BETTING and hand.street == Street.PREFLOP and hand.board == parse_cards("2c")
    check_down(hand)
    assert hand.street == Street.FLOP and hand.board_cards_needed == 2
    hand.deal_board("3c4c")
    assert hand.board == parse_cards("2c3c4c") and hand.phase == Phase.BETTING


def test_binglao_the_button_die_roll_picks_the_game():
    hand = Hand.with_blinds("binglao", FixedLimit(2, 4), [100] * 3, button=0, small_blind=1, big_blind=2,
                            die=2, seed=1)
    assert (hand.game.hole_count, hand.game.hilo) == (5, True)
    rolled = Hand.with_blinds("binglao", FixedLimit(2, 4), [100] * 3, button=0, small_blind=1, big_blind=2, seed=1)
    die = rolled.actions[0]
    assert die.kind == ActionKind.DIE_ROLL and rolled.die == die.amount
    assert rolled.game.hole_count == {1: 4, 2: 5, 3: 6, 4: 4, 5: 5, 6: 6}[die.amount]
    assert all(len(cards) == rolled.game.hole_count for cards in rolled.hole_cards)
    with pytest.raises(InputError, match="binglao needs the die roll"):
        Hand.with_blinds("binglao", FixedLimit(2, 4), [100] * 3, button=0, small_blind=1, big_blind=2)


# ---------------------------------------------------------------- betting rounds

def test_four_betting_rounds_flop_three_cards_turn_one_river_one():
    hand = Hand.with_blinds("omaha", PotLimit(2), [100] * 3, button=0, small_blind=1, big_blind=2, seed=8)
    sizes = []
    while hand.phase == Phase.BETTING:
        if hand.street not in [street for street, _ in sizes]:
            sizes.append((hand.street, len(hand.board)))
        hand.check_or_call()
    assert sizes == [(Street.PREFLOP, 0), (Street.FLOP, 3), (Street.TURN, 4), (Street.RIVER, 5)]
    assert hand.phase == Phase.SHOWDOWN


def test_preflop_action_starts_under_the_gun_and_the_big_blind_has_the_option():
    hand = Hand.with_blinds("omaha", PotLimit(2), [100] * 3, button=0, small_blind=1, big_blind=2, seed=8)
    assert hand.actor == 0  # three-handed, under the gun is the button
    hand.check_or_call()
    hand.check_or_call()
    legal = hand.legal_actions()
    assert legal.seat == 2 and legal.can_check and legal.raise_limits.minimum == 4 and legal.max_raise_to == 8
    hand.bet_or_raise_to(8)
    assert hand.actor == 0 and hand.legal_actions().call_amount == 6


def test_after_the_flop_action_starts_with_the_first_active_player_left_of_the_button():
    hand = Hand.with_blinds("omaha", PotLimit(2), [100] * 4, button=3, small_blind=1, big_blind=2, seed=8)
    hand.check_or_call()  # seat 2
    hand.check_or_call()  # button
    hand.fold()  # small blind (seat 0)
    hand.check_or_call()  # big blind checks
    assert hand.street == Street.FLOP and hand.actor == 1


def test_check_only_with_nothing_to_call_and_fold_only_facing_a_bet():
    hand = Hand.with_blinds("omaha", NoLimit(2), [100] * 2, button=0, small_blind=1, big_blind=2, seed=8)
    assert not hand.legal_actions().can_check and hand.can_fold()
    hand.check_or_call()
    assert hand.legal_actions().can_check and not hand.can_fold()
    with pytest.raises(IllegalActionError, match="cannot fold: nothing to call"):
        hand.fold()
    assert kinds(hand, ActionKind.CALL, ActionKind.CHECK) == [(ActionKind.CALL, 0, 1)]


def test_a_round_ends_when_every_active_player_has_acted_and_matched():
    hand = Hand.with_blinds("omaha", NoLimit(2), [100] * 3, button=0, small_blind=1, big_blind=2, seed=8)
    for _ in range(3):
        hand.check_or_call()
    assert hand.street == Street.FLOP
    hand.bet_or_raise_to(6)
    hand.check_or_call()
    assert hand.street == Street.FLOP and hand.actor == 0
    hand.check_or_call()
    assert hand.street == Street.TURN and hand.pot == 6 + 18


def test_everyone_folds_to_a_bet_the_bettor_wins_the_uncalled_part_returns_no_more_cards():
    hand = Hand.with_blinds("omaha", NoLimit(2), [100] * 3, button=0, small_blind=1, big_blind=2, seed=8)
    for _ in range(3):
        hand.check_or_call()
    hand.bet_or_raise_to(50)  # small blind bets on the flop
    hand.fold()
    hand.fold()
    assert hand.is_complete and len(hand.board) == 3
    assert kinds(hand, ActionKind.RETURN) == [(ActionKind.RETURN, 1, 50)]
    assert hand.stacks == [98, 104, 98]
    assert not hand.settlement.showdown and hand.settlement.pots[0].amount == 6


# ---------------------------------------------------------------- betting structures

def fixed_hand(player_count=4, **structure_options):
    return Hand.with_blinds("omaha8", FixedLimit(2, 4, **structure_options), [1000] * player_count,
                            button=player_count - 1, small_blind=1, big_blind=2, seed=9)


def test_fixed_limit_small_bet_before_the_flop_and_on_it_big_bet_on_the_turn_and_river():
    hand = fixed_hand(3)
    sizes = {}
    while hand.phase == Phase.BETTING:
        legal = hand.legal_actions()
        sizes.setdefault(hand.street, (legal.min_raise_to, legal.max_raise_to))
        hand.check_or_call()
    assert sizes == {Street.PREFLOP: (4, 4), Street.FLOP: (2, 2), Street.TURN: (4, 4), Street.RIVER: (4, 4)}


def test_fixed_limit_four_bets_a_round_bet_raise_reraise_cap():
    hand = fixed_hand(4)
    for _ in range(3):
        hand.check_or_call()
    hand.check_or_call()  # big blind checks: flop
    hand.bet_or_raise_to(2)
    hand.bet_or_raise_to(4)
    hand.bet_or_raise_to(6)
    hand.bet_or_raise_to(8)  # the cap: four bets
    legal = hand.legal_actions()
    assert legal.call_amount == 6 and legal.raise_limits is None
    with pytest.raises(IllegalActionError, match="capped at 4 bets"):
        hand.bet_or_raise_to(10)


def test_fixed_limit_the_big_blind_counts_as_the_first_bet_before_the_flop():
    hand = fixed_hand(4)
    hand.bet_or_raise_to(4)
    hand.bet_or_raise_to(6)
    hand.bet_or_raise_to(8)
    assert hand.legal_actions().raise_limits is None


def test_fixed_limit_setting_cap_of_four_raises():
    hand = fixed_hand(4, max_raises=4)
    for amount in (4, 6, 8, 10):
        hand.bet_or_raise_to(amount)
    assert hand.legal_actions().raise_limits is None


def test_fixed_limit_setting_cap_lifted_heads_up():
    capped = fixed_hand(2)
    for amount in (4, 6, 8):
        capped.bet_or_raise_to(amount)
    assert capped.legal_actions().raise_limits is None
    lifted = fixed_hand(2, uncapped_heads_up=True)
    for amount in (4, 6, 8, 10, 12):
        lifted.bet_or_raise_to(amount)
    assert lifted.legal_actions().min_raise_to == 14


def test_om20_fixed_limit_raise_is_exactly_one_small_bet():
    # OM-20: blinds 1/2, small bet 2, big bet 4, three players: first actor raises to 4 (min = max)
    hand = Hand.with_blinds("omaha8", FixedLimit(2, 4), [100] * 3, button=2, small_blind=1, big_blind=2, seed=1)
    legal = hand.legal_actions()
    assert (legal.min_raise_to, legal.max_raise_to) == (4, 4)
    with pytest.raises(IllegalActionError, match="not the fixed-limit size: raise to exactly 4"):
        hand.bet_or_raise_to(7)  # the pot-limit size pokerkit 0.7.7 accepts


def test_fixed_limit_complete_a_short_bet_to_one_full_bet():
    # one blind of 1 with a small bet of 2: the next player may complete to 2
    forced = ForcedBets(antes=(0, 0, 0), blinds=(1, 0, 0))
    hand = Hand("omaha8", FixedLimit(2, 4), [100] * 3, button=2, forced_bets=forced, seed=1)
    assert hand.actor == 1 and hand.can_complete() and hand.verify_complete() == 2
    action = hand.complete()
    assert (action.kind, action.total) == (ActionKind.COMPLETE, 2)
    assert hand.legal_actions().min_raise_to == 4 and not hand.can_complete()


def test_om18_pot_limit_preflop_maximum_counts_the_blinds():
    # OM-18, blinds 5/10, six players: under the gun may raise to 35
    hand = Hand.with_blinds("omaha", PotLimit(10), [1000] * 6, button=5, small_blind=5, big_blind=10, seed=1)
    assert hand.actor == 2 and hand.legal_actions().max_raise_to == 35
    for _ in range(4):
        hand.fold()
    assert hand.actor == 0 and hand.legal_actions().max_raise_to == 30  # folded to the small blind
    # 100/200: the button limps, the small blind completes, the big blind may raise to 800
    hand = Hand.with_blinds("omaha", PotLimit(200), [10000] * 6, button=5, small_blind=100, big_blind=200, seed=1)
    for _ in range(3):
        hand.fold()
    hand.check_or_call()
    hand.check_or_call()
    legal = hand.legal_actions()
    assert (legal.seat, legal.call_amount, legal.max_raise_to) == (1, 0, 800)


def test_pot_limit_maximum_raise_is_the_pot_after_the_call():
    # pot 100, a player bets 100: the next may raise to 400
    hand = Hand.with_blinds("omaha", PotLimit(50), [1000, 1000], button=0, small_blind=25, big_blind=50, seed=1)
    hand.check_or_call()
    hand.check_or_call()
    assert hand.pot == 100 and hand.actor == 1
    hand.bet_or_raise_to(100)
    assert hand.legal_actions().max_raise_to == 400
    with pytest.raises(IllegalActionError, match="raise to 425 is over the pot-limit maximum 400"):
        hand.bet_or_raise_to(425)
    hand.bet_or_raise_to(400)
    assert hand.pot == 600


def test_pot_limit_minimum_raise_is_the_previous_bet_or_raise():
    hand = Hand.with_blinds("omaha", PotLimit(10), [1000] * 3, button=2, small_blind=5, big_blind=10, seed=1)
    hand.bet_or_raise_to(30)  # a raise of 20
    assert hand.legal_actions().min_raise_to == 50
    with pytest.raises(IllegalActionError, match="raise to 45 is under the minimum raise to 50"):
        hand.bet_or_raise_to(45)


def test_pot_limit_setting_small_blind_counts_as_a_big_blind_until_the_big_blind_has_acted():
    """Robert's Rules of Poker, pot-limit rule 5: until the big blind is through acting."""
    structure = PotLimit(10, small_blind_counts_as_big_blind=True)
    hand = Hand.with_blinds("omaha", structure, [1000] * 4, button=3, small_blind=5, big_blind=10, seed=1)
    assert hand.legal_actions().max_raise_to == 40  # 35 without the setting
    hand.bet_or_raise_to(40)
    assert hand.legal_actions().max_raise_to == 10 + 10 + 40 + 40 + 40  # the small blind still counts as 10
    hand.check_or_call()  # the button calls 40
    hand.check_or_call()  # the small blind calls 35 more
    # the big blind: 40 + 130 in the pot + 30 to call; the small blind called 40, it adds nothing
    assert hand.legal_actions().max_raise_to == 200
    hand.bet_or_raise_to(200)
    assert hand.legal_actions().max_raise_to == 200 + 320 + 160


def test_no_limit_minimum_raise_is_the_previous_full_bet_or_raise():
    hand = Hand.with_blinds("omaha", NoLimit(2), [1000] * 3, button=0, small_blind=1, big_blind=2, seed=1)
    for _ in range(3):
        hand.check_or_call()
    hand.bet_or_raise_to(5)  # a $5 bet: raise to at least $10
    assert hand.legal_actions().min_raise_to == 10
    hand.bet_or_raise_to(30)  # a raise of 25
    assert hand.legal_actions().min_raise_to == 55


def test_no_limit_maximum_is_the_whole_stack():
    hand = Hand.with_blinds("omaha", NoLimit(2), [300, 1000, 700], button=0, small_blind=1, big_blind=2, seed=1)
    assert hand.legal_actions().max_raise_to == 300
    hand.bet_or_raise_to(300)
    assert hand.is_all_in(0) and hand.legal_actions().max_raise_to == 1000


def test_a_player_never_bets_more_than_their_stack():
    hand = Hand.with_blinds("omaha", NoLimit(2), [50, 1000, 1000], button=0, small_blind=1, big_blind=2, seed=1)
    with pytest.raises(IllegalActionError, match="raise to 60 is more than Seat 1 has: all-in is raise to 50"):
        hand.bet_or_raise_to(60)
    hand.check_or_call()
    hand.bet_or_raise_to(200)
    hand.fold()
    call = hand.check_or_call()  # seat 0 calls all-in for less
    assert (call.kind, call.amount, call.all_in) == (ActionKind.CALL, 48, True)


def no_limit_flop(stacks, big_blind=100):
    """Everyone limps and checks to the flop; the small blind (seat 0) is first to act."""
    hand = Hand.with_blinds("omaha", NoLimit(big_blind), stacks, button=len(stacks) - 1,
                            small_blind=big_blind // 2, big_blind=big_blind, seed=1)
    while hand.street == Street.PREFLOP:
        hand.check_or_call()
    return hand


def test_wsop_rule_96_an_all_in_short_of_a_full_raise_does_not_reopen_the_betting():
    hand = no_limit_flop([1000, 250, 1000])
    hand.bet_or_raise_to(100)
    hand.bet_or_raise_to(150)  # all-in: a raise of 50, short of a full raise (100)
    assert hand.legal_actions().min_raise_to == 250  # a raise is still a full raise over 150
    hand.check_or_call()  # seat 2 calls 150
    legal = hand.legal_actions()
    assert (legal.seat, legal.call_amount, legal.raise_limits) == (0, 50, None)
    with pytest.raises(IllegalActionError, match="not reopened"):
        hand.bet_or_raise_to(400)


def test_wsop_rule_96a_tda_47_short_all_ins_adding_up_to_a_full_raise_reopen_the_betting():
    # TDA rule 47, example 1: A bets 100, B all-in 125, C calls, D all-in 200, E calls
    hand = no_limit_flop([1000, 225, 1000, 300, 1000, 1000])  # seat 0 = A (small blind)
    hand.bet_or_raise_to(100)
    hand.bet_or_raise_to(125)
    hand.check_or_call()
    hand.bet_or_raise_to(200)
    hand.check_or_call()  # E
    hand.check_or_call()  # the button calls 200
    legal = hand.legal_actions()
    assert legal.seat == 0 and legal.min_raise_to == 300  # 100 more than A bet: a full raise, reopened
    hand.check_or_call()
    legal = hand.legal_actions()
    assert legal.seat == 2 and legal.call_amount == 75 and legal.raise_limits is None  # C faces only 75


def test_tda_47b_fixed_limit_half_a_bet_reopens_the_betting():
    def flop(short_stack):
        hand = Hand.with_blinds("omaha8", FixedLimit(20, 40), [1000, short_stack, 1000, 1000], button=3,
                                small_blind=10, big_blind=20, seed=1)
        while hand.street == Street.PREFLOP:
            hand.check_or_call()
        hand.bet_or_raise_to(20)  # seat 0 bets
        return hand

    hand = flop(51)
    hand.bet_or_raise_to(31)  # all-in raise of 11: at least half a bet
    hand.check_or_call()
    hand.check_or_call()
    assert hand.actor == 0 and hand.legal_actions().min_raise_to == 51  # reopened
    hand = flop(49)
    hand.bet_or_raise_to(29)  # all-in raise of 9: less than half a bet
    # Robert's Rules, betting rule 8: a call plus extra; the next player completes to one full
    # raise over the bet of 20 (40), not a full bet over 29 (49)
    legal = hand.legal_actions()
    assert (legal.min_raise_to, legal.raise_limits.kind) == (40, WagerKind.COMPLETE)
    hand.check_or_call()
    hand.check_or_call()
    legal = hand.legal_actions()
    assert (legal.seat, legal.call_amount, legal.raise_limits) == (0, 9, None)  # not reopened for the bettor


# ---------------------------------------------------------------- all-ins and side pots

def test_om17_side_pots_the_all_in_player_keeps_the_main_pot():
    # OM-17: P2 all-in pre-flop for 100, P0 and P1 call; flop P0 bets 200, P1 calls; turn and river checked
    forced = ForcedBets(antes=(0, 0, 0), blinds=(0, 0, 0))
    hand = Hand("omaha", NoLimit(100), [1000, 1000, 100], button=1, forced_bets=forced,
                hole_cards=["9c 9d Ks Qd", "7c 7h As Kd", "Jc Jd 5h 6h"], board="9s 7d 2c Jh 4s")
    hand.bet_or_raise_to(100)  # P2 all-in
    hand.check_or_call()
    hand.check_or_call()
    hand.bet_or_raise_to(200)  # P0
    hand.check_or_call()
    check_down(hand)
    show_all(hand)
    pots = hand.settlement.pots
    assert [(pot.amount, pot.eligible, pot.runs[0].high_winners) for pot in pots] == [
        (300, (0, 1, 2), (2,)), (400, (0, 1), (0,))]
    assert [sum(player.won) for player in hand.settlement.players] == [400, 0, 300]
    assert [player.net for player in hand.settlement.players] == [100, -300, 200]


def test_with_all_ins_the_board_runs_out_to_the_showdown():
    hand = Hand.with_blinds("omaha", NoLimit(2), [100, 100], button=0, small_blind=1, big_blind=2, seed=3)
    hand.bet_or_raise_to(100)
    hand.check_or_call()
    assert hand.phase == Phase.SHOWDOWN and len(hand.board) == 5
    assert not any(action.kind in (ActionKind.CHECK, ActionKind.BET) for action in hand.actions)


def test_each_pot_is_split_high_low_among_its_own_eligible_players():
    # main pot: P0 high (four kings), P2 low (7-5-3-2-A); side pot: no low among P0 and P1, P0 takes it all
    forced = ForcedBets(antes=(0, 0, 0), blinds=(0, 0, 0))
    hand = Hand("omaha8", NoLimit(100), [1000, 1000, 100], button=1, forced_bets=forced,
                hole_cards=["Kh Ks 9c 9d", "Qc Qd Jc Jd", "As 3c 9h 9s"], board="2c 5d 7h Kc Kd")
    hand.bet_or_raise_to(100)
    hand.check_or_call()
    hand.check_or_call()
    hand.bet_or_raise_to(200)
    hand.check_or_call()
    check_down(hand)
    show_all(hand)
    main, side = hand.settlement.pots
    assert (main.amount, main.runs[0].high_winners, main.runs[0].low_winners) == (300, (0,), (2,))
    assert (side.amount, side.runs[0].high_winners, side.runs[0].low_winners) == (400, (0,), ())
    assert [sum(player.won) for player in hand.settlement.players] == [550, 0, 150]


def test_a_bet_no_one_can_call_is_returned_to_the_bettor():
    hand = Hand.with_blinds("omaha", NoLimit(2), [1000, 60, 1000], button=2, small_blind=1, big_blind=2, seed=3)
    hand.bet_or_raise_to(500)  # the button
    hand.fold()
    hand.check_or_call()  # the big blind calls all-in for 60
    assert kinds(hand, ActionKind.RETURN) == [(ActionKind.RETURN, 2, 440)]
    assert hand.contributed == [1, 60, 60] and hand.phase == Phase.SHOWDOWN


# ---------------------------------------------------------------- showdown

def river_hand(showdown_order=ShowdownOrder.FINAL_ROUND):
    hand = Hand.with_blinds("omaha", NoLimit(2), [1000] * 4, button=3, small_blind=1, big_blind=2,
                            settings=HandSettings(showdown_order=showdown_order), seed=5)
    while hand.street == Street.PREFLOP:
        hand.check_or_call()
    hand.check_or_call()
    hand.bet_or_raise_to(10)  # seat 1 bets the flop
    while hand.street == Street.FLOP:
        hand.check_or_call()
    return hand


def test_showdown_the_last_bettor_of_the_final_round_shows_first():
    hand = river_hand()
    while hand.street == Street.TURN:
        hand.check_or_call()
    hand.check_or_call()
    hand.check_or_call()
    hand.bet_or_raise_to(20)  # seat 2 bets the river
    check_down(hand)
    assert hand.showdown_seat == 2
    with pytest.raises(IllegalActionError, match="Seat 4 cannot act yet: Seat 3 shows or mucks first"):
        hand.show(3)
    shown = []
    while hand.phase == Phase.SHOWDOWN:
        shown.append(hand.show().seat)
    assert shown == [2, 3, 0, 1]


def test_showdown_with_no_bet_on_the_river_the_first_player_left_of_the_button_shows_first():
    hand = river_hand()
    check_down(hand)
    assert hand.showdown_seat == 0


def test_showdown_order_setting_last_aggressor_of_the_latest_street_with_a_bet():
    hand = river_hand(ShowdownOrder.LATEST_BET)
    check_down(hand)
    assert hand.showdown_seat == 1  # bet the flop; no bet on the turn or river


def test_to_win_a_player_must_show_and_the_last_live_hand_cannot_be_mucked():
    forced = ForcedBets(antes=(10, 10), blinds=(0, 0))
    hand = Hand("omaha", NoLimit(10), [100, 100], button=1, forced_bets=forced,
                hole_cards=["As Ad Ks Kd", "2c 3d 7h 8s"], board="Ah Kh Qc 4d 9s")
    check_down(hand)
    assert hand.showdown_seat == 0
    hand.muck()  # the best hand mucked: it wins nothing
    assert not hand.can_muck()
    with pytest.raises(IllegalActionError, match="Seat 2 cannot muck: theirs is the last hand for the main pot"):
        hand.muck()
    hand.show()
    assert hand.stacks == [90, 110]


def test_unknown_hole_cards_must_be_shown_to_win():
    forced = ForcedBets(antes=(10, 10), blinds=(0, 0))
    hand = Hand("omaha", NoLimit(10), [100, 100], button=1, forced_bets=forced,
                hole_cards=[None, "2c 3d 7h 8s"], board="Ah Kh Qc 4d 9s")
    check_down(hand)
    with pytest.raises(IllegalActionError, match="hole cards are unknown: give the cards shown"):
        hand.show()
    with pytest.raises(IllegalActionError, match="duplicate card 2c in Seat 2 and Seat 1"):
        hand.show(cards="2c As Ad Ks")
    hand.show(cards="As Ad Ks Kd")
    hand.show()
    assert hand.stacks == [110, 90]


def test_om15_the_same_players_tie_both_halves_split_the_pot_as_evenly_as_possible():
    # OM-15: pot 66 (33 each), both play a six-high straight and a 6-5-4-3-2 low: 33/33, not 34/32
    forced = ForcedBets(antes=(33, 33), blinds=(0, 0))
    hand = Hand("omaha8", NoLimit(10), [100, 100], button=1, forced_bets=forced,
                hole_cards=["2s 3s 9h 9c", "2d 3h Tc Ts"], board="4c 5d 6h Kc Qd")
    check_down(hand)
    show_all(hand)
    run = hand.settlement.pots[0].runs[0]
    assert (run.amount, run.high_winners, run.low_winners, run.payouts) == (66, (0, 1), (0, 1), (33, 33))
    assert hand.stacks == [100, 100]


def test_odd_chip_of_a_high_low_split_goes_to_the_high_half():
    # pot 5 (dead ante chips): high to seat 1 (three aces), low to seat 0: 3 and 2
    forced = ForcedBets(antes=(2, 3), blinds=(0, 0))
    hand = Hand("omaha8", NoLimit(10), [100, 100], button=1, forced_bets=forced,
                hole_cards=["2s 3s Kh Qc", "Ah Ad Tc Ts"], board="As 7d 8h Jc 4d")
    check_down(hand)
    show_all(hand)
    run = hand.settlement.pots[0].runs[0]
    assert (run.amount, run.high_winners, run.low_winners, run.payouts) == (5, (1,), (0,), (2, 3))


def test_odd_chip_among_tied_players_goes_to_the_first_left_of_the_button():
    # three players tie the high with a king-high straight; the pot is 11 chips of dead antes
    forced = ForcedBets(antes=(3, 3, 3, 2), blinds=(0, 0, 0, 0))
    hand = Hand("omaha", NoLimit(10), [100] * 4, button=1, forced_bets=forced,
                hole_cards=["Ts 9c 2d 3d", "Th 9d 2c 3c", "Td 9h 4c 4d", "2h 3h 4h 5d"], board="Kc Qd Jh 7s 6s")
    check_down(hand)
    show_all(hand)
    run = hand.settlement.pots[0].runs[0]
    assert run.high_winners == (0, 1, 2)
    # 11 = 3 + 3 + 3 and two odd chips: in odd-chip order (seats 2, 3, 0, 1) the first two tied
    # players left of the button are seats 2 and 0
    assert run.payouts == (4, 3, 4, 0)


def test_rake_is_taken_from_the_pots_before_the_split_pokerstars_hand():
    # PokerStars game #60920749213 (fpdb-3 regression-test-files, PLO-FR-USD-0.01-0.02-201006.sidepots.txt),
    # in cents: main pot 137, side pots 45 and 72; rake 12 (5 %) taken as 6, 3 and 3.
    from omaha_equity.rules import Rake

    names = ["Player5", "Hero", "Player0", "Player4", "Player6", "Player3", "Player2"]
    hand = Hand.with_blinds("omaha", PotLimit(2), [44, 80, 323, 81, 278, 498, 29], button=4, small_blind=1,
                            big_blind=2, names=names, settings=HandSettings(rake=Rake(5)),
                            hole_cards=["3d5c8h7s", "2c4c3s7c", "6h3hTc9c", None, None, None, "5s7dKd9h"],
                            board="7h 8s 4s 2s 2h")
    hand.check_or_call()  # Player5 calls 2
    hand.check_or_call()  # Hero calls 2
    hand.check_or_call()  # Player0 calls 2
    hand.fold()  # Player4
    hand.check_or_call()  # Player6 calls 2
    hand.fold()  # Player3
    hand.check_or_call()  # Player2 checks
    hand.check_or_call()  # flop: Player2 checks
    hand.bet_or_raise_to(2)  # Player5 bets 2
    hand.bet_or_raise_to(4)  # Hero raises to 4
    hand.bet_or_raise_to(18)  # Player0 raises to 18
    hand.check_or_call()  # Player6 calls 18
    hand.bet_or_raise_to(27)  # Player2 raises to 27 and is all-in
    hand.check_or_call()  # Player5 calls 25
    hand.bet_or_raise_to(78)  # Hero raises to 78 and is all-in
    hand.check_or_call()  # Player0 calls 60
    hand.fold()  # Player6
    hand.check_or_call()  # Player5 calls 15 and is all-in
    assert hand.phase == Phase.SHOWDOWN
    show_all(hand)
    settlement = hand.settlement
    assert [(pot.amount, pot.rake, pot.amount - pot.rake) for pot in settlement.pots] == [
        (137, 6, 131), (45, 3, 42), (72, 3, 69)]
    assert settlement.rake == 12 and settlement.players[1].won == (131, 42, 69)
    assert hand.stacks == [0, 242, 243, 81, 258, 497, 0]


def test_run_it_twice_each_pot_divided_in_equal_parts_odd_chip_to_the_first_run():
    # pot 201 (the small blind's dead chip): run 1 to the button, run 2 to the big blind
    hand = Hand.with_blinds("omaha", NoLimit(2), [100, 100, 100], button=0, small_blind=1, big_blind=2,
                            hole_cards=["As Ad 7c 8c", "2h 3h 9s Tc", "Ks Kd 5c 6c"],
                            boards=["Ah 2c 9d Js 4h", "Kh Qs 3c 8d 2d"])
    hand.bet_or_raise_to(100)
    hand.fold()
    hand.check_or_call()
    assert hand.run_count == 2 and hand.boards == (parse_cards("Ah2c9dJs4h"), parse_cards("KhQs3c8d2d"))
    show_all(hand)
    (pot,) = hand.settlement.pots
    assert [(run.amount, run.high_winners) for run in pot.runs] == [(101, (0,)), (100, (2,))]
    assert hand.stacks == [101, 99, 100]


def test_run_count_is_chosen_at_the_all_in_point_only():
    hand = Hand.with_blinds("omaha", NoLimit(2), [100, 100], button=0, small_blind=1, big_blind=2,
                            hole_cards=["As Ad 7c 8c", "Ks Kd 5c 6c"])
    assert not hand.can_set_run_count(2)
    hand.bet_or_raise_to(100)
    hand.check_or_call()
    hand.set_run_count(3)
    # the runs are dealt one after the other, each to the river
    for board in ("Ah 2c 9d", "4s", "Js", "2d 3c 4h", "Kh", "Qs", "9h 9s Th", "Tc", "Td"):
        assert not hand.can_set_run_count(2)
        hand.deal_board(board)
    assert hand.boards == tuple(parse_cards(text) for text in ("Ah2c9d4sJs", "2d3c4hKhQs", "9h9sThTcTd"))
    show_all(hand)
    (pot,) = hand.settlement.pots
    # 200 in three parts: 67, 67, 66; trips aces, then a six-high straight, then tens full of aces
    assert [(run.amount, run.high_winners) for run in pot.runs] == [(67, (0,)), (67, (1,)), (66, (0,))]
    assert hand.stacks == [133, 67]


def test_history_lists_every_action_card_and_payout():
    hand = Hand.with_blinds("omaha8", PotLimit(2), [100, 100], button=0, small_blind=1, big_blind=2,
                            hole_cards=["As 2s Kd Qd", "7c 7h 9s Tc"], board="3s 4d 5h Kc 7d", names=["Ann", "Bob"])
    hand.bet_or_raise_to(6)
    hand.check_or_call()
    check_down(hand)
    show_all(hand)
    lines = hand.history().splitlines()
    assert lines[:5] == ["Omaha hi/lo 8-or-better, pot limit (minimum bet 2); button: Ann", "Ann: 100 in chips",
                         "Bob: 100 in chips", "Ann posts small blind 1", "Bob posts big blind 2"]
    assert "Ann raises to 6" in lines and "Bob calls 4" in lines and "*** RIVER *** [3s 4d 5h Kc 7d]" in lines
    assert "Bob shows 7c7h9sTc (three sevens, K-5 kickers; no low)" in lines
    assert "Ann wins 12 from the main pot" in lines
    assert lines[-2:] == ["Ann: stack 100, put in 6, won 12, stack after 106 (+6)",
                          "Bob: stack 100, put in 6, won 0, stack after 94 (-6)"]


def test_rules_engine_example_prints_the_side_pot_hand():
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "examples" / "rules_engine_hand.py"
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Cy to act: call 10, raise to 20..35"
    assert "Bob wins 600 from the main pot" in lines and "Cy wins 1080 from side pot 1" in lines
    assert lines[-1] == "Cy: stack 1000, put in 940, won 600 + 1080, stack after 1740 (+740)"
