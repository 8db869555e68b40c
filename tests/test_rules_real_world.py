"""The rules engine at the edge of the real world (issue 14, section 1): dead money, equal
blinds, fixed-limit incomplete all-ins, the pot-limit small-blind bonus, numbers at the input
boundary, and a fold where a check was possible. Every expected value is computed by hand in
the docstring or comment next to it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from omaha_equity.errors import InputError
from omaha_equity.hand_history import HandHistory, replay, to_phh
from omaha_equity.rules import (
    FixedLimit, ForcedBets, Hand, HandSettings, IllegalActionError, NoLimit, Phase, PotLimit, StatedRake, WagerKind,
)
from test_rules_engine import check_down, show_all


# ---------------------------------------------------------------- a fold when a check is possible

def test_a_fold_with_nothing_to_call_is_refused_by_default():
    """``docs/rules.md``, "Betting rounds": with nothing to call the player checks."""
    hand = Hand.with_blinds("omaha", PotLimit(10), [1000] * 3, button=2, small_blind=5, big_blind=10, seed=4)
    hand.check_or_call()  # button calls 10
    hand.check_or_call()  # small blind completes
    assert not hand.legal_actions().can_fold
    with pytest.raises(IllegalActionError, match="cannot fold: nothing to call"):
        hand.fold()


def test_setting_fold_when_check_allowed_accepts_the_fold_and_the_hand_goes_on():
    """PokerStars lets a player fold when he could check: big blind folds his option, the two
    others see a flop of a 30-chip pot (the big blind's 10 stays in)."""
    settings = HandSettings(fold_when_check_allowed=True)
    hand = Hand.with_blinds("omaha", PotLimit(10), [1000] * 3, button=2, small_blind=5, big_blind=10, seed=4,
                            settings=settings)
    hand.check_or_call()
    hand.check_or_call()
    assert hand.legal_actions().can_fold and hand.legal_actions().can_check
    hand.fold()  # the big blind (seat 1)
    assert hand.folded[1] and hand.street.index == 1 and hand.pot == 30 and hand.actor == 0
    hand.fold()  # the small blind folds on the flop with nothing to call: the button wins 30
    assert hand.is_complete and hand.stacks == [990, 990, 1020]


def test_fold_when_check_allowed_replays_from_phh_and_exports_back():
    fields = dict(variant="PO", antes=[0, 0, 0], blinds_or_straddles=[5, 10, 0], min_bet=10,
                  starting_stacks=[1000, 1000, 1000],
                  actions=["d dh p1 ????????", "d dh p2 ????????", "d dh p3 ????????", "p3 cc", "p1 cc", "p2 f",
                           "d db 2c7d9h", "p1 f"])
    with pytest.raises(Exception, match="action 5 'p2 f': p2 cannot fold: nothing to call"):
        replay(HandHistory(**fields))
    result = replay(HandHistory(**fields, user_defined_fields={"_fold_when_check_allowed": True}))
    assert result.complete and result.finishing_stacks == (990, 990, 1020)
    exported = to_phh(result.hand)
    assert exported.custom("_fold_when_check_allowed") is True
    assert replay(exported).finishing_stacks == (990, 990, 1020)


# ---------------------------------------------------------------- dead money (item 1)

def test_big_blind_all_in_on_a_big_blind_ante_wins_the_ante_pot():
    """NL 100, big-blind ante 100: seat 1 (big blind, 100 chips) is all in on the ante. Seats 0
    and 2 each put in 100. Seat 1's trip kings win the 100-chip pot of the ante (every player
    still in may win dead money); seat 2's trip nines beat seat 0's trip sevens for the 200 of
    the calls: 1000 - 100 = 900, 100, 1000 - 100 + 200 = 1100 (docs/rules.md, "All-ins and side
    pots")."""
    hand = Hand.with_blinds("omaha", NoLimit(100), [1000, 100, 1000], button=2, small_blind=50, big_blind=100,
                            big_blind_ante=100, hole_cards=["7c7hQdJd", "KhKd5c6c", "9c9d2h3h"], board="2c7d9hKs4s")
    check_down(hand)
    show_all(hand)
    assert hand.stacks == [900, 100, 1100]
    pots = hand.settlement.pots
    assert [(pot.amount, pot.eligible) for pot in pots] == [(100, (0, 1, 2)), (200, (0, 2))]
    assert hand.settlement.players[1].won == (100, 0)


def test_a_player_all_in_on_a_dead_blind_wins_the_dead_money():
    """NL 5/10, 4-handed, button seat 3. Seat 2 missed the blinds and posts them with 5 chips: the
    5-chip dead part takes them all in (the live 10 is never posted). Seats 3, 0 and 1 limp to 10
    each and check down. Seat 2 holds the best hand (quad sevens) and wins the 5 of dead money;
    seat 3 (trip nines) wins the 30 of the others: [990, 990, 5, 1020]."""
    forced = ForcedBets(antes=(0, 0, 0, 0), blinds=(5, 10, 10, 0), dead_blinds=(0, 0, 5, 0))
    hand = Hand("omaha", NoLimit(10), [1000, 1000, 5, 1000], button=3, forced_bets=forced,
                hole_cards=["AcAh3d4d", "KhKd5c6c", "7c7hQdJd", "9c9d2h3h"], board="2c7d9h7s4s")
    assert hand.is_all_in(2) and hand.actor == 3
    check_down(hand)
    show_all(hand)
    assert hand.stacks == [990, 990, 5, 1020]


def test_dead_money_joins_the_main_pot_when_the_same_players_may_win_it():
    """Missed-blinds post with chips behind: the dead 5 is part of the 45-chip main pot (4 x 10
    live + 5 dead); seat 2 puts in 15 and wins 45: 1030."""
    forced = ForcedBets(antes=(0, 0, 0, 0), blinds=(5, 10, 10, 0), dead_blinds=(0, 0, 5, 0))
    hand = Hand("omaha", NoLimit(10), [1000] * 4, button=3, forced_bets=forced,
                hole_cards=["AcAh3d4d", "KhKd5c6c", "7c7hQdJd", "9c9d2h3h"], board="2c7d9h7s4s")
    check_down(hand)
    show_all(hand)
    assert [(pot.amount, pot.eligible) for pot in hand.settlement.pots] == [(45, (0, 1, 2, 3))]
    assert hand.stacks == [990, 990, 1030, 990]


def test_big_blind_ante_all_in_replays_from_phh_and_plays_from_the_command_line(tmp_path):
    from click.testing import CliRunner

    from omaha_equity.cli import main
    from omaha_equity.hand_history import dumps

    hand = Hand.with_blinds("omaha", NoLimit(100), [1000, 100, 1000], button=2, small_blind=50, big_blind=100,
                            big_blind_ante=100, hole_cards=["7c7hQdJd", "KhKd5c6c", "9c9d2h3h"], board="2c7d9hKs4s")
    check_down(hand)
    show_all(hand)
    phh = to_phh(hand)
    assert phh.antes == (0, 100, 0) and replay(phh).finishing_stacks == (900, 100, 1100)
    path = tmp_path / "bb-ante.phh"
    path.write_text(dumps(phh.replace(finishing_stacks=None, winnings=None)))
    result = CliRunner().invoke(main, ["play", str(path), "-f", "json"])
    assert result.exit_code == 0, result.output
    import json

    players = json.loads(result.output)["players"]
    assert [player["finishing_stack"] for player in players] == [900, 100, 1100]
    assert [player["pots_won"] for player in players] == [[0, 0], [100, 0], [0, 200]]


# ---------------------------------------------------------------- equal blinds (item 2)

def test_equal_blinds_the_player_left_of_the_big_blind_acts_first_and_the_big_blind_has_the_option():
    """Blinds 10/10, 4-handed, button seat 3: seat 0 posts the small blind 10, seat 1 the big
    blind 10; pre-flop seat 2 (left of the big blind) acts first, the small blind checks before
    the big blind, and the big blind keeps the last option (docs/rules.md, "Betting rounds")."""
    hand = Hand.with_blinds("omaha", NoLimit(10), [1000] * 4, button=3, small_blind=10, big_blind=10, seed=5)
    assert "Seat 1 posts small blind 10" in hand.history() and "Seat 2 posts big blind 10" in hand.history()
    order = []
    while hand.street.index == 0:
        order.append(hand.actor)
        hand.check_or_call()
    assert order == [2, 3, 0, 1]
    assert hand.actor == 0  # after the flop: the first seat left of the button


def test_equal_blinds_heads_up_the_button_acts_first_before_the_flop():
    hand = Hand.with_blinds("omaha", PotLimit(10), [1000] * 2, button=1, small_blind=10, big_blind=10, seed=5)
    assert hand.actor == 1
    hand.check_or_call()  # the button (small blind) checks: nothing to call
    assert hand.actor == 0 and hand.legal_actions().can_check  # the big blind's option
    assert hand.legal_actions().max_raise_to == 30  # pot limit: nothing to call, 20 in the pot: 10 + 20
    hand.bet_or_raise_to(30)
    assert hand.actor == 1


def test_equal_blinds_with_a_straddle_the_seat_after_the_straddle_acts_first():
    hand = Hand.with_blinds("omaha", NoLimit(10), [1000] * 5, button=4, small_blind=10, big_blind=10,
                            straddles=[20], seed=5)
    assert hand.actor == 3


# ---------------------------------------------------------------- fixed-limit incomplete all-ins (item 3)

def fixed_limit_row(*args):
    """The ``pot-limit --fixed-limit`` command's row as JSON."""
    import json

    from click.testing import CliRunner

    from omaha_equity.cli import main

    result = CliRunner().invoke(main, ["pot-limit", *args, "-f", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    return data[0] if isinstance(data, list) else data


def test_fixed_limit_all_in_of_less_than_half_a_bet_is_completed_to_one_bet():
    """Robert's Rules, betting rule 8: 10/20, under the gun calls 10, the button is all in for 13
    (3 over the bet, less than half of 10): the small blind may call 13 or complete to 20, not
    raise to 23. The ``pot-limit`` command agrees on the same bets."""
    hand = Hand.with_blinds("omaha", FixedLimit(10, 20), [1000, 1000, 1000, 13], button=3, small_blind=5,
                            big_blind=10, seed=2)
    hand.check_or_call()  # seat 2 calls 10
    hand.bet_or_raise_to(13)  # the button, all in
    legal = hand.legal_actions()
    assert (legal.seat, legal.call_amount, legal.min_raise_to, legal.max_raise_to) == (0, 8, 20, 20)
    assert legal.raise_limits.kind == WagerKind.COMPLETE
    with pytest.raises(IllegalActionError, match="complete to exactly 20"):
        hand.bet_or_raise_to(23)
    row = fixed_limit_row("--fixed-limit", "10/20", "--round", "1", "--bets", "10,10,13", "--own", "5")
    assert (row["call"], row["action"], row["min_raise_to"], row["max_raise_to"]) == (8, "complete", 20, 20)
    hand.complete()
    assert hand.bet_count == 2 and hand.legal_actions().min_raise_to == 30  # seat 1 may raise a bet over 20


def test_fixed_limit_all_in_of_half_a_bet_or_more_is_a_full_bet():
    """Robert's Rules, betting rule 8: on a 20-chip round (the turn of 10/20) a 15-chip all-in
    bet counts as a full bet: the next player may raise to 15 + 20 = 35, not complete to 20."""
    hand = Hand.with_blinds("omaha", FixedLimit(10, 20), [1000, 25, 1000], button=2, small_blind=5, big_blind=10,
                            seed=2)
    while hand.street.index < 2:
        hand.check_or_call()
    assert hand.actor == 0
    hand.check_or_call()  # seat 0 checks
    hand.bet_or_raise_to(15)  # seat 1 bets his last 15
    legal = hand.legal_actions()
    assert (legal.call_amount, legal.min_raise_to, legal.raise_limits.kind) == (15, 35, WagerKind.RAISE)
    row = fixed_limit_row("--fixed-limit", "10/20", "--round", "turn", "--bets", "15")
    assert (row["call"], row["action"], row["min_raise_to"]) == (15, "raise", 35)


def test_fixed_limit_half_bet_all_in_reaching_the_cap_caps_the_betting():
    """2/4, turn: bet 4, raise 8, re-raise 12, then a 2-chip all-in to 14, half a bet, which
    counts as the fourth bet: capped. ``--fixed-limit 2/4 --round 3 --bets 4,8,12,14``."""
    hand = Hand.with_blinds("omaha", FixedLimit(2, 4), [100, 100, 100, 16, 100], button=4, small_blind=1,
                            big_blind=2, seed=2)
    while hand.street.index < 2:
        hand.check_or_call()
    for amount in (4, 8, 12, 14):
        hand.bet_or_raise_to(amount)
    legal = hand.legal_actions()
    assert (legal.seat, legal.call_amount, legal.raise_limits) == (4, 14, None)
    assert hand.bet_count == 4
    row = fixed_limit_row("--fixed-limit", "2/4", "--round", "3", "--bets", "4,8,12,14")
    assert (row["call"], row["action"], row["min_raise_to"]) == (14, "none", None)


def test_fixed_limit_short_big_blind_is_completed_to_the_small_bet():
    """A 15/30 game with blinds 5/10: the first raise completes the big blind to 15 (the blind is
    not a bet); an all-in to 12 pre-flop is not a bet either, the next player completes to 15."""
    hand = Hand.with_blinds("omaha", FixedLimit(15, 30), [1000, 1000, 12, 1000], button=3, small_blind=5,
                            big_blind=10, seed=2)
    assert hand.legal_actions().min_raise_to == 12  # the short stack can only go all in
    hand.bet_or_raise_to(12)
    legal = hand.legal_actions()
    assert (legal.min_raise_to, legal.raise_limits.kind) == (15, WagerKind.COMPLETE)
    row = fixed_limit_row("--fixed-limit", "15/30", "--round", "1", "--bets", "5,10,12")
    assert (row["action"], row["min_raise_to"]) == ("complete", 15)


# ---------------------------------------------------------------- pot limit: small blind as a big blind (item 4)

def test_small_blind_counts_as_a_big_blind_until_the_big_blind_is_through_acting():
    """Robert's Rules of Poker, pot-limit rule 5. 6-handed 5/10, the small blind counted as 10:
    under the gun may open to 10 + 20 + 10 = 40; the next player faces a pot of 5 + 10 + 40 with
    the small blind counted as 10 (60): 40 + 60 + 40 = 140, not 135. The bonus lasts while the
    big blind has still to act, even after the small blind folded: the big blind faces 175 in the
    pot, counted 180, and 30 to call: 40 + 180 + 30 = 250."""
    structure = PotLimit(10, small_blind_counts_as_big_blind=True)
    hand = Hand.with_blinds("omaha", structure, [5000] * 6, button=5, small_blind=5, big_blind=10, seed=1)
    assert hand.actor == 2 and hand.legal_actions().max_raise_to == 40
    hand.bet_or_raise_to(40)
    assert hand.legal_actions().max_raise_to == 140
    hand.check_or_call()  # seat 3 calls 40: pot 95, counted 100
    assert hand.legal_actions().max_raise_to == 40 + 100 + 40
    hand.check_or_call()  # seat 4 calls: pot 135
    hand.check_or_call()  # the button calls: pot 175
    hand.fold()  # the small blind folds: his 5 still counts as 10
    assert hand.actor == 1 and hand.legal_actions().max_raise_to == 40 + 180 + 30
    hand.fold()  # the big blind is through acting: seat 2 may not raise (betting not reopened)
    assert hand.street.index == 1 and hand.pot == 175


# ---------------------------------------------------------------- numbers at the boundary (item 5)

MAX_CHIPS = 2**63 - 1
BIG = "1" + "0" * 400


def test_stacks_up_to_the_int64_limit_settle_exactly():
    """Two stacks adding up to 2**63 - 1 chips, all in pre-flop: the winner ends with every chip,
    counted exactly (the settlement kernel counts in int64)."""
    hand = Hand.with_blinds("omaha", NoLimit(2), [2**62, 2**62 - 1], button=0, small_blind=1, big_blind=2,
                            hole_cards=["AsAhKsKh", "2c3d7h8s"], board="AdKd4c9cJh")
    hand.bet_or_raise_to(2**62)
    hand.check_or_call()
    show_all(hand)
    assert hand.stacks == [MAX_CHIPS, 0] and hand.settlement.final_stacks == (MAX_CHIPS, 0)


@pytest.mark.parametrize("make, message", [
    (lambda: Hand.with_blinds("omaha", NoLimit(2), [10**20, 10**20], button=0, small_blind=1, big_blind=2, seed=1),
     "bad stack 100000000000000000000 for seat 1: expected a whole number of chips, 1 to 9,223,372,036,854,775,807"),
    (lambda: Hand.with_blinds("omaha", NoLimit(2), [MAX_CHIPS, MAX_CHIPS], button=0, small_blind=1, big_blind=2,
                              seed=1), "the stacks add up to 18446744073709551614 chips: a hand settles at most"),
    (lambda: Hand.with_blinds("omaha", NoLimit(2), [int(BIG), 5], button=0, small_blind=1, big_blind=2, seed=1),
     "bad stack 100000000000000000000000000000000000000000000000000000000000… (401 characters) for seat 1"),
    (lambda: NoLimit(int(BIG)), "bad minimum bet 1" + "0" * 59 + "… (401 characters): expected a whole number"),
])
def test_amounts_beyond_the_int64_limit_are_refused_up_front_with_one_short_line(make, message):
    with pytest.raises(InputError) as error:
        make()
    assert message in str(error.value) and "\n" not in str(error.value) and len(str(error.value)) < 200


def test_a_huge_raise_through_the_api_is_refused_with_a_short_line():
    hand = Hand.with_blinds("omaha", NoLimit(2), [100, 100], button=0, small_blind=1, big_blind=2, seed=1)
    with pytest.raises(IllegalActionError) as error:
        hand.bet_or_raise_to(int(BIG))
    assert "is more than Seat 1 has: all-in is raise to 100" in str(error.value) and len(str(error.value)) < 200


def write_phh(tmp_path, stacks, actions, name="hand.phh"):
    path = tmp_path / name
    path.write_text(f'variant = "PO"\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\nmin_bet = 10\n'
                    f'starting_stacks = [{stacks}]\nactions = [{actions}]\n')
    return path


def play(path):
    from click.testing import CliRunner

    from omaha_equity.cli import main

    return CliRunner().invoke(main, ["play", str(path)])


@pytest.mark.parametrize("stacks, actions, message", [
    ("100000000000000000000000, 1000", '"p2 f"', "value 1 is 100000000000000000000000: expected at most "
                                               "9,223,372,036,854,775,807 chips"),
    (f"{MAX_CHIPS}, {MAX_CHIPS}", '"p2 cc"', "the stacks add up to 18446744073709551614 chips"),
    ("1000, 1000", '"p2 cbr 1e999999999"', "action 0 'p2 cbr 1e999999999': bad amount '1e999999999': expected at "
                                           "most 9,223,372,036,854,775,807 chips"),
    ("1e-100000, 1000", '"p2 f"', "value 1 is 1E-100000: expected at most 9 decimal places"),
    (f"{BIG}, 1000", '"p2 f"', "value 1 is 100000000000000000000000000000000000000000000000000000000000… "
                              "(401 characters): expected at most"),
    ("12345678901234567890123456789.5, 1000", '"p2 f"', "value 1 is 12345678901234567890123456789.5: expected at most"),
    ("1000.0000000001, 1000", '"p2 f"', "expected at most 9 decimal places"),
    ("9" * 5000 + ", 1000", '"p2 f"', "a number longer than 4,300 digits"),
])
def test_play_refuses_numbers_beyond_the_limits_with_one_line(tmp_path, stacks, actions, message):
    result = play(write_phh(tmp_path, stacks, actions))
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and message in lines[0], result.output
    assert len(lines[0]) < 300


def test_play_keeps_a_decimal_stack_exact(tmp_path):
    """1000.5 and 1000 at 5/10: the button (p2) folds his small blind 5: p1 ends 1005.5."""
    result = play(write_phh(tmp_path, "1000.5, 1000", '"p2 f"'))
    assert result.exit_code == 0 and "1005.5" in result.output and "995" in result.output


def test_play_refuses_arrays_nested_too_deeply_with_one_line(tmp_path):
    """Issue 15, item 1: tomllib recurses once per level of a nested array."""
    path = tmp_path / "deep.phh"
    path.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    result = play(path)
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"Error: {path}: arrays or tables nested too deeply (a PHH file "
                                                  "nests an array in a table at most)"]


@pytest.mark.parametrize("args, message", [
    (["--pot", "9" * 5000, "--blind", "2"], "bad pot '" + "9" * 60 + "'… (5,000 characters): expected a whole number"),
    (["--bets", "1," + BIG], "bad bet '1" + "0" * 59 + "'… (401 characters) in '1,"),
    (["--pot", "1e999", "--blind", "2"], "bad pot '1e999': expected a whole number of chips, 0 to "
                                         "9,223,372,036,854,775,807"),
    (["--stack", "-5", "--bets", "4"], "bad stack '-5'"),
    (["--fixed-limit", f"{BIG}/{BIG}"], "bad fixed-limit sizes '1" + "0" * 59 + "'… (803 characters)"),
])
def test_pot_limit_refuses_numbers_beyond_the_limit_with_one_short_line(args, message):
    from click.testing import CliRunner

    from omaha_equity.cli import main

    result = CliRunner().invoke(main, ["pot-limit", *args])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and message in lines[0] and len(lines[0]) < 300, result.output


def test_pot_limit_counts_the_largest_amounts_exactly():
    """Pot 2**63 - 1, a bet of 2**63 - 1: call it, then raise the pot after the call on top of
    it: (2**63 - 1) * 4 in all."""
    row = fixed_limit_row("--pot", str(MAX_CHIPS), "--bets", str(MAX_CHIPS))
    assert (row["call"], row["max_raise_to"]) == (MAX_CHIPS, 4 * MAX_CHIPS)


# ---------------------------------------------------------------- PHH export that replays (item 6)

def test_to_phh_writes_the_runs_dealt_not_the_runs_asked_for():
    """A seeded 10-handed hand asked to run the board three times: the deck has cards for two
    runs only, so two are dealt; the export says ``_run_count = 2`` and replays to the same
    stacks (it said 3 and did not replay)."""
    import random

    hand = Hand.with_blinds("omaha", NoLimit(2), [100] * 10, button=0, small_blind=1, big_blind=2, seed=1,
                            settings=HandSettings(run_count=3))
    chooser = random.Random(1)
    while not hand.is_complete:
        if hand.phase == Phase.BETTING:
            limits = hand.legal_actions().raise_limits
            if limits and chooser.random() < 0.5:
                hand.bet_or_raise_to(limits.maximum)
            else:
                hand.check_or_call()
        else:
            hand.show()
    assert hand.run_count == len(hand.boards) == 2
    exported = to_phh(hand)
    assert exported.custom("_run_count") == 2
    result = replay(exported)
    assert result.complete and result.finishing_stacks == tuple(hand.stacks[seat] for seat in hand.positions)


RAKED_HAND = dict(
    variant="PO", antes=[0, 0, 0], blinds_or_straddles=[5, 10, 0], min_bet=10, starting_stacks=[1000, 1000, 1000],
    actions=["d dh p1 AsAhKsKh", "d dh p2 2c3d7h8s", "d dh p3 QcQdJcJd", "p3 cbr 30", "p1 cc", "p2 f",
             "d db 2d7c9s", "p1 cc", "p3 cc", "d db 4h", "p1 cc", "p3 cc", "d db 5s", "p1 cc", "p3 cc",
             "p1 sm AsAhKsKh", "p3 sm QcQdJcJd"],
)


def test_a_stated_rake_is_taken_on_replay_and_survives_the_round_trip(tmp_path):
    """A converted PokerStars hand states the rake it took (``_rake = 3``): the pot of 30 + 30 +
    10 = 70 pays p1 (aces) 67: stacks 1037, 990, 970 (1040 when ``_rake`` was ignored). The
    engine hand exported again writes ``_rake = 3`` and replays to the same stacks, and ``play``
    prints the rake."""
    history = HandHistory(**RAKED_HAND, user_defined_fields={"_rake": 3, "_stated_pots": [67]})
    result = replay(history)
    assert result.finishing_stacks == (1037, 990, 970) and result.settlement.rake == 3
    exported = to_phh(result.hand)
    assert (exported.custom("_rake"), exported.custom("_stated_pots")) == (3, (67,))
    assert replay(exported).finishing_stacks == (1037, 990, 970)
    from click.testing import CliRunner

    from omaha_equity.cli import main
    from omaha_equity.hand_history import dumps

    path = tmp_path / "raked.phh"
    path.write_text(dumps(history))
    output = CliRunner().invoke(main, ["play", str(path), "-f", "json"]).output
    import json

    data = json.loads(output)
    assert [player["finishing_stack"] for player in data["players"]] == [1037, 990, 970]
    assert data["pots"][0]["rake"] == 3


def test_a_stated_rake_in_cents_is_scaled_with_the_file():
    history = HandHistory(**{**RAKED_HAND, "starting_stacks": [10, 10, 10], "blinds_or_straddles": [Decimal("0.05"),
                          Decimal("0.1"), 0], "min_bet": Decimal("0.1"),
                          "actions": [action.replace("cbr 30", "cbr 0.3") for action in RAKED_HAND["actions"]]},
                          user_defined_fields={"_rake": Decimal("0.03")})
    assert replay(history).finishing_stacks == (Decimal("10.37"), Decimal("9.9"), Decimal("9.7"))


def test_a_stated_rake_larger_than_the_pot_is_an_error_naming_the_action():
    history = HandHistory(**RAKED_HAND, user_defined_fields={"_rake": 500})
    with pytest.raises(InputError, match="the stated rake 500 is more than the pots: 70 chips"):
        replay(history)


def test_stated_rake_per_pot_from_the_stated_pots_else_in_proportion():
    """Pots 300 and 100 with a stated rake of 20: stated pots 290 and 90 take 10 and 10; stated
    pots that do not add up fall back to the proportional split, 15 and 5."""
    assert StatedRake(20, (290, 90)).split([300, 100]) == [10, 10]
    assert StatedRake(20, (250, 90)).split([300, 100]) == [15, 5]
    assert StatedRake(7).split([300, 100]) == [6, 1]  # 5.25 and 1.75 rounded down, the chip left to the main pot


def test_pot_limit_fixed_limit_table_has_no_footer_about_the_blind():
    from click.testing import CliRunner

    from omaha_equity.cli import main

    output = CliRunner().invoke(main, ["pot-limit", "--fixed-limit", "10/20", "--bets", "10,10,13", "--own", "5"]).output
    assert "complete  20" in output and "--blind" not in output
