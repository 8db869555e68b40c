"""The rules engine at the edge of the real world (issue 14, section 1): dead money, equal
blinds, fixed-limit incomplete all-ins, the pot-limit small-blind bonus, numbers at the input
boundary, and a fold where a check was possible. Every expected value is computed by hand in
the docstring or comment next to it."""

from __future__ import annotations

import pytest

from omaha_equity.hand_history import HandHistory, replay, to_phh
from omaha_equity.rules import Hand, HandSettings, IllegalActionError, NoLimit, Phase, PotLimit


def check_down(hand):
    while hand.phase == Phase.BETTING:
        hand.check_or_call()


def show_all(hand):
    while hand.phase == Phase.SHOWDOWN:
        hand.show()


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
