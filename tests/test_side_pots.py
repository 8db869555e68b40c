"""Side pots and chip settlement (``pots.side_pots``, ``pots.settle``): the rules of
docs/rules.md "All-ins and side pots" and "Showdown" (odd chips), WSOP rule 73 and the TDA
odd-chip ruling, with the reference cases OM-15 and OM-17 (values copied from the reference
case file, sources named there: pokertda.com topic 1417, poker-ts pull request 18).

Hand values come from the evaluator (``read_hand``); players are indexed in odd-chip order,
index 0 the first seat left of the button.
"""

import random

import numpy as np
import pytest

from omaha_equity import InputError, parse_cards
from omaha_equity.evaluate.showdown import read_hand
from omaha_equity.evaluate.tables import NO_LOW
from omaha_equity.pots import OddChipRule, Pot, pot_units, settle, side_pots, split_pot


def hand_values(hands, board, hilo):
    readings = [read_hand(parse_cards(hand), parse_cards(board), hilo) for hand in hands]
    highs = [reading.high.value for reading in readings]
    lows = [reading.low.value if reading.low else NO_LOW for reading in readings]
    return highs, lows


def totals(payouts):
    return tuple(sum(column) for column in zip(*payouts))


def test_om_15_identical_winners_of_both_halves_split_the_pot_as_a_whole():
    # OM-15: both players make a six-high straight and 6-5-4-3-2; pot 66 -> 33/33, not 34/32
    hands = ["2s 3s 9h 9c", "2d 3h Tc Ts"]
    highs, lows = hand_values(hands, "4c 5d 6h Kc Qd", hilo=True)
    pots = side_pots([33, 33], [False, False])
    assert pots == [Pot(66, (0, 1))]
    assert settle(pots, highs, lows, hilo=True) == ((33, 33),)


def test_om_17_each_pot_goes_to_the_best_hand_among_its_own_eligible_players():
    # OM-17: P2 all in for 100; main pot 300 (all three) to P2's trip jacks, side pot 400
    # (P0, P1) to P0's trip nines; payouts 400/0/300, net +100/-300/+200
    hands = ["9c 9d Ks Qd", "7c 7h As Kd", "Jc Jd 5h 6h"]
    highs, lows = hand_values(hands, "9s 7d 2c Jh 4s", hilo=False)
    pots = side_pots([300, 300, 100], [False, False, False])
    assert pots == [Pot(300, (0, 1, 2)), Pot(400, (0, 1))]
    payouts = settle(pots, highs, None, hilo=False)
    assert payouts == ((0, 0, 300), (400, 0, 0))
    assert totals(payouts) == (400, 0, 300)
    assert [won - put_in for won, put_in in zip(totals(payouts), (300, 300, 100))] == [100, -300, 200]


def test_short_stack_with_the_only_low_wins_half_the_main_pot_and_odd_chip_goes_high():
    # P0 trip kings, P1 trip queens, P2 (all in for 101) the only low, 7-5-3-2-A. Main pot 303:
    # high half 152 (the odd chip goes high) to P0, low half 151 to P2. Side pot 400 (P0, P1):
    # nobody there has a low, so high takes it all.
    hands = ["Ks Kd 9h 9c", "Qs Qh Th Tc", "As 3s Jh Jc"]
    highs, lows = hand_values(hands, "2c 5d 7h Kc Qd", hilo=True)
    assert lows[0] == lows[1] == NO_LOW and lows[2] != NO_LOW
    pots = side_pots([301, 301, 101], [False, False, False])
    assert pots == [Pot(303, (0, 1, 2)), Pot(400, (0, 1))]
    payouts = settle(pots, highs, lows, hilo=True)
    assert payouts == ((152, 0, 151), (400, 0, 0))
    assert totals(payouts) == (552, 0, 151)


def test_odd_chip_of_a_high_low_split_goes_to_the_high_half():
    assert settle([Pot(5, (0, 1))], [9, 1], [1, 7], hilo=True) == ((3, 2),)
    assert settle([Pot(5, (0, 1))], [1, 9], [7, 1], hilo=True) == ((2, 3),)


def test_three_way_tie_remainders_go_to_the_first_tied_players_left_of_the_button():
    # high only, 100 among three: 34/33/33 in index order
    assert settle([Pot(100, (0, 1, 2))], [5, 5, 5], None, hilo=False) == ((34, 33, 33),)
    # 101 among players 1, 2, 3 (player 0 loses): 34/34/33
    assert settle([Pot(101, (0, 1, 2, 3))], [1, 5, 5, 5], None, hilo=False) == ((0, 34, 34, 33),)


def test_three_way_tie_of_both_halves_divides_the_pot_as_a_whole():
    # halves 50/50 split 17/17/16 each would give 34/34/32; as a whole: 34/33/33
    assert settle([Pot(100, (0, 1, 2))], [5, 5, 5], [3, 3, 3], hilo=True) == ((34, 33, 33),)


def test_quartered_pot_with_remainders_in_each_half():
    # pot 11: high half 6 to players 1 and 2 (3/3); low half 5 to players 0, 2, 3 (2/2/1)
    payouts = settle([Pot(11, (0, 1, 2, 3))], [1, 9, 9, 2], [4, 1, 4, 4], hilo=True)
    assert payouts == ((2, 3, 5, 1),)
    # high half 51 among three (17 each), low half 50 to player 1 alone
    assert settle([Pot(101, (0, 1, 2))], [7, 7, 7], [0, 5, 3], hilo=True) == ((17, 67, 17),)


def test_low_half_only_when_an_eligible_player_qualifies():
    # player 2 holds the best low but is not eligible for the side pot: its low does not count
    pots = [Pot(30, (0, 1, 2)), Pot(20, (0, 1))]
    payouts = settle(pots, [9, 5, 1], [NO_LOW, NO_LOW, 8], hilo=True)
    assert payouts == ((15, 0, 15), (20, 0, 0))
    # a worse low of player 1 in the side pot takes that pot's low half
    payouts = settle(pots, [9, 5, 1], [NO_LOW, 3, 8], hilo=True)
    assert payouts == ((15, 0, 15), (10, 10, 0))


def test_folded_contributions_fill_every_level_they_reach():
    # P0 folded after putting in 500; live levels 200, 800, 1000
    pots = side_pots([500, 200, 800, 1000], [True, False, False, False])
    assert pots == [Pot(800, (1, 2, 3)), Pot(1500, (2, 3)), Pot(200, (3,))]
    assert sum(pot.amount for pot in pots) == 2500


def test_folded_chips_above_the_highest_level_join_the_last_pot():
    assert side_pots([300, 100, 100], [True, False, False]) == [Pot(500, (1, 2))]


def test_equal_contributions_make_one_pot():
    assert side_pots([100, 100, 100], [False, False, False]) == [Pot(300, (0, 1, 2))]
    # a folded player's level is not a level: one pot for the two live players
    assert side_pots([50, 100, 100], [True, False, False]) == [Pot(250, (1, 2))]


def test_side_pots_reject_bad_input():
    with pytest.raises(InputError, match="-5"):
        side_pots([100, -5], [False, False])
    with pytest.raises(InputError, match="folded flag"):
        side_pots([100, 100], [False])
    with pytest.raises(InputError, match="every player folded"):
        side_pots([100, 100], [True, True])


def test_settle_pays_every_chip_and_matches_split_pot_on_divisible_pots():
    generator = random.Random(7)
    for _ in range(300):
        player_count = generator.randint(2, 6)
        hilo = generator.random() < 0.6
        highs = [generator.randint(1, 4) for _ in range(player_count)]
        lows = [generator.choice([NO_LOW, 1, 2, 3]) for _ in range(player_count)]
        amount = generator.randint(1, 500)
        payouts = settle([Pot(amount, tuple(range(player_count)))], highs, lows, hilo)
        assert sum(payouts[0]) == amount
        units = pot_units(player_count, hilo)
        shares = np.zeros(player_count, dtype=np.int64)
        split_pot(np.array(highs, dtype=np.int32), np.array(lows, dtype=np.int32), hilo, units, shares)
        assert settle([Pot(units, tuple(range(player_count)))], highs, lows, hilo)[0] == tuple(shares)


def test_dead_money_is_a_pot_every_player_still_in_may_win():
    # issue 14: a big blind all in on a 100-chip big-blind ante (player 1) plays for the ante;
    # the calls of players 0 and 2 are a side pot. With chips behind, the dead money joins the
    # main pot; a folded player's dead chips stay in it.
    assert side_pots([100, 0, 100], [False, False, False], dead=[0, 100, 0]) == [
        Pot(100, (0, 1, 2)), Pot(200, (0, 2))]
    assert side_pots([100, 100, 100], [False, False, False], dead=[0, 100, 0]) == [Pot(400, (0, 1, 2))]
    assert side_pots([100, 0, 100], [False, True, False], dead=[0, 100, 0]) == [Pot(300, (0, 2))]
    with pytest.raises(InputError, match="expected dead chips for each of the 3 players, got 2"):
        side_pots([100, 0, 100], [False, False, False], dead=[0, 100])


def test_a_pot_beyond_int64_is_an_input_error_not_an_overflow():
    with pytest.raises(InputError, match=r"a pot of 18446744073709551616 chips: expected 0 to 9,223,372,036,854,775,807"):
        settle([Pot(2**64, (0, 1))], [10, 20], None, hilo=False)


def test_bovada_odd_chip_rule_pays_what_a_split_low_half_leaves_to_the_high_half():
    low_to_high = OddChipRule.LOW_REMAINDER_TO_HIGH
    # 95 chips, player 2 high, players 0 and 1 share the low half of 47: 23 each and the
    # odd chip to the high half (the default gives it to player 0, first left of the button)
    assert settle([Pot(95, (0, 1, 2))], [10, 10, 50], [7, 7, 0], True) == ((24, 23, 48),)
    assert settle([Pot(95, (0, 1, 2))], [10, 10, 50], [7, 7, 0], True, low_to_high) == ((23, 23, 49),)
    # two high winners: the low half's remainder joins the high half, split by the usual rule
    assert settle([Pot(100, (0, 1, 2, 3))], [1, 1, 9, 9], [5, 5, 0, 0], True, low_to_high) == ((25, 25, 25, 25),)
    assert settle([Pot(101, (0, 1, 2, 3))], [1, 1, 9, 9], [5, 5, 0, 0], True, low_to_high) == ((25, 25, 26, 25),)
    assert settle([Pot(103, (0, 1, 2, 3))], [1, 1, 9, 9], [5, 5, 0, 0], True, low_to_high) == ((25, 25, 27, 26),)
    # nothing changes where the low half divides, has one winner, or the same players win both
    generator = random.Random(11)
    for _ in range(200):
        player_count = generator.randint(2, 5)
        highs = [generator.randint(1, 3) for _ in range(player_count)]
        lows = [generator.choice([NO_LOW, 1, 2]) for _ in range(player_count)]
        amount = generator.randint(1, 300)
        pots = [Pot(amount, tuple(range(player_count)))]
        by_rule = settle(pots, highs, lows, True, low_to_high)
        assert sum(by_rule[0]) == amount
        best_low = max(lows)
        low_winners = [player for player in range(player_count) if best_low != NO_LOW and lows[player] == best_low]
        high_winners = [player for player in range(player_count) if highs[player] == max(highs)]
        if len(low_winners) < 2 or (amount // 2) % len(low_winners) == 0 or low_winners == high_winners:
            assert by_rule == settle(pots, highs, lows, True)


def test_the_odd_chip_rule_is_a_hand_setting_with_the_default_left_of_the_button():
    from omaha_equity.rules import HandSettings

    assert HandSettings().odd_chip == OddChipRule.LEFT_OF_BUTTON
    assert HandSettings(odd_chip="low remainder to high").odd_chip == OddChipRule.LOW_REMAINDER_TO_HIGH
    with pytest.raises(InputError, match="bad odd-chip rule 'high'"):
        HandSettings(odd_chip="high")
