"""Differential test against pokerkit (>= 0.7.7, test-only): random pot-limit Omaha hands played
in lockstep by our rules engine and by pokerkit, action by action in PHH notation.

At every decision both must name the same player to act, the same call, and the same legal
raise-to range (minimum and maximum); at the end both must hold the same stacks. The only
differences allowed are the ones listed in ``KNOWN_DISAGREEMENTS`` (also in ``docs/phh.md``);
where one of them changes the amounts in play, the hand stops being compared there.
"""

import random
import warnings
from collections import Counter

import pytest

from omaha_equity.cards import format_cards
from omaha_equity.hand_history import HandHistory, build_hand, dumps, parse_action, replay
from omaha_equity.hand_history.replay import _Player
from omaha_equity.rules import IllegalActionError, Phase, Street

pokerkit = pytest.importorskip("pokerkit")
from pokerkit import Automation, Mode, PotLimitOmahaHoldem  # noqa: E402
from pokerkit.notation import parse_action as pokerkit_parse_action  # noqa: E402

HAND_COUNT = 250
SEED = 20231
AUTOMATIONS = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
               Automation.CARD_BURNING, Automation.RUNOUT_COUNT_SELECTION, Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
               Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)

KNOWN_DISAGREEMENTS = {
    # docs/rules.md (TDA, WSOP): a big blind all-in for less than the big blind still makes the
    # others call the full big blind; pokerkit makes them call only what was posted (and sizes
    # the raises from it). The amounts differ from there on: the hand stops being compared.
    "short all-in big blind",
    # WSOP rule 96, TDA rule 47: an all-in wager short of a full raise (or, first in a round,
    # short of the minimum bet) does not reopen the betting for players who already acted.
    # pokerkit reopens it pre-flop (it measures the first raise against no previous raise) and
    # after checks (a short all-in bet lets the checkers raise).
    "pokerkit reopens the betting after a short all-in",
    # Nobody with chips left to bet against (the others all-in or folded): our round ends,
    # pokerkit still asks the last player with chips to check. No chips change hands.
    "pokerkit asks for a check nobody can bet against",
}


def random_table(rng: random.Random) -> HandHistory:
    """2 to 6 players, varied blinds, sometimes antes, stacks from a few chips to 200 big
    blinds (short stacks make side pots and short all-ins common)."""
    player_count = rng.randint(2, 6)
    small, big = rng.choice([(1, 2), (5, 10), (25, 50), (1, 3)])
    ante = rng.choice([0, 0, 0, 1])
    stacks = [rng.choice([rng.randint(1, 10 * big), rng.randint(10 * big, 200 * big)]) for _ in range(player_count)]
    return HandHistory(variant="PO", antes=[ante] * player_count,
                       blinds_or_straddles=[small, big] + [0] * (player_count - 2), min_bet=big,
                       starting_stacks=stacks)


class Lockstep:
    """One random hand, played by both engines from the same PHH actions."""

    def __init__(self, seed: int, disagreements: Counter, examples: dict):
        self.rng = random.Random(seed)
        self.seed = seed
        self.disagreements = disagreements
        self.examples = examples
        self.table = random_table(self.rng)
        game = PotLimitOmahaHoldem(AUTOMATIONS, False, list(self.table.antes), list(self.table.blinds_or_straddles),
                                   self.table.min_bet, mode=Mode.CASH_GAME)
        self.state = game(list(self.table.starting_stacks), self.table.player_count)
        self.hand = build_hand(self.table)
        self.player = _Player(self.hand, 1)
        self.actions: list[str] = []

    def note(self, category: str, detail: str = "") -> None:
        self.disagreements[category] += 1
        self.examples.setdefault(category, f"seed {self.seed}: {detail} after {self.actions}")

    def act(self, text: str) -> None:
        self.actions.append(text)
        self.player.apply(parse_action(text))
        pokerkit_parse_action(self.state, text)

    def play(self) -> bool:
        """Play to the end; False when a disagreement that changes amounts stopped the hand."""
        rng, hand, state = self.rng, self.hand, self.state
        deck = list(range(52))
        rng.shuffle(deck)
        player_count = self.table.player_count
        for player in range(player_count):
            self.act(f"d dh p{player + 1} {format_cards(deck[4 * player:4 * player + 4])}")
        board = iter(deck[4 * player_count:])
        while not hand.is_complete:
            if hand.phase == Phase.DEALING_BOARD:
                while state.actor_index is not None and state.checking_or_calling_amount == 0:
                    self.note("pokerkit asks for a check nobody can bet against")
                    state.check_or_call()
                self.act(f"d db {format_cards([next(board) for _ in range(hand.board_cards_needed)])}")
            elif hand.phase == Phase.SHOWDOWN:
                hand.show(hand.showdown_seat)  # pokerkit shows by its automation
            elif not self.decide():
                return False
        if state.status:
            self.note("pokerkit hand not finished")
        if list(hand.stacks) != list(state.stacks):
            self.note("final stacks", f"ours {list(hand.stacks)}, pokerkit {list(state.stacks)}")
        return True

    def decide(self) -> bool:
        hand, state = self.hand, self.state
        seat = hand.actor
        legal = hand.legal_actions()
        short_big_blind = hand.street == Street.PREFLOP and max(state.bets) < max(hand.forced_bets.blinds)
        if state.actor_index != seat or state.checking_or_calling_amount != legal.call_amount:
            if short_big_blind:
                self.note("short all-in big blind")
                return False
            self.note("actor or call", f"ours p{seat + 1} calls {legal.call_amount}, pokerkit "
                                       f"{state.actor_index} calls {state.checking_or_calling_amount}")
            return False
        ours = (legal.min_raise_to, legal.max_raise_to) if legal.raise_limits else None
        theirs = ((state.min_completion_betting_or_raising_to_amount, state.max_completion_betting_or_raising_to_amount)
                  if state.can_complete_bet_or_raise_to() else None)
        if ours != theirs:
            if short_big_blind:
                self.note("short all-in big blind")
                return False
            self.classify_raise_difference(seat, ours, theirs)
        choice = self.rng.random()
        if legal.can_fold and choice < 0.35:
            self.act(f"p{seat + 1} f")
        elif ours and theirs and choice < 0.65:
            low, high = max(ours[0], theirs[0]), min(ours[1], theirs[1])
            if low <= high:
                self.act(f"p{seat + 1} cbr {self.rng.choice([low, high, self.rng.randint(low, high)])}")
            else:
                self.act(f"p{seat + 1} cc")
        else:
            self.act(f"p{seat + 1} cc")
        return True

    def classify_raise_difference(self, seat, ours, theirs) -> None:
        hand, state = self.hand, self.state
        detail = f"p{seat + 1}: ours {ours}, pokerkit {theirs}"
        if ours and not theirs:
            others_can_call = any(state.statuses[other] and other != seat
                                  and state.stacks[other] + state.bets[other] > max(state.bets)
                                  for other in range(self.table.player_count))
            if not others_can_call:
                self.note("engine offers a raise nobody can call", detail)
                return
        if theirs and not ours:
            try:
                hand.verify_bet_or_raise_to(theirs[0])
            except IllegalActionError as error:
                if "not reopened" in str(error):
                    self.note("pokerkit reopens the betting after a short all-in", detail)
                    return
        self.note("raise limits", detail)


def test_random_pot_limit_hands_agree_with_pokerkit_except_the_known_departures():
    disagreements: Counter = Counter()
    examples: dict = {}
    compared = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns when it is dealt cards it burned
        for seed in range(SEED, SEED + HAND_COUNT):
            compared += Lockstep(seed, disagreements, examples).play()
    unknown = set(disagreements) - KNOWN_DISAGREEMENTS
    assert not unknown, {category: examples[category] for category in unknown}
    assert compared >= 0.85 * HAND_COUNT, (compared, disagreements)
    # the known departures do occur in this sample (the test sees what it claims to)
    assert disagreements["short all-in big blind"] > 0
    assert disagreements["pokerkit reopens the betting after a short all-in"] > 0


def test_pokerkit_splits_a_pot_whose_halves_the_same_players_tie_34_32():
    """WSOP rule 73 (docs/rules.md, "Showdown"): two players who tie both the high and the low
    of a 66-chip pot get 33 each. pokerkit gives the odd chip of each half to one player: 34/32.
    Fixed-limit hi/lo, heads-up, antes 1, each player puts in 33; both hold A-5 on 2-3-4-K-Q
    (a wheel for high and for low)."""
    text = "\n".join([
        'variant = "FO/8"', "antes = [1, 1]", "blinds_or_straddles = [1, 2]", "small_bet = 2", "big_bet = 4",
        "starting_stacks = [100, 100]",
        'actions = ["d dh p1 As5c9d9h", "d dh p2 Ad5s9c9s", "p2 cbr 4", "p1 cbr 6", "p2 cbr 8", "p1 cc",'
        ' "d db 2c3d4h", "p1 cbr 2", "p2 cbr 4", "p1 cbr 6", "p2 cbr 8", "p1 cc", "d db Kd", "p1 cbr 4",'
        ' "p2 cbr 8", "p1 cbr 12", "p2 cbr 16", "p1 cc", "d db Qs", "p1 cc", "p2 cc", "p1 sm As5c9d9h",'
        ' "p2 sm Ad5s9c9s"]',
    ])
    from omaha_equity.hand_history import loads

    ours = replay(loads(text))
    assert ours.settlement.pots[0].amount == 66
    assert ours.finishing_stacks == (100, 100)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(pokerkit.HandHistory.loads(text))
    assert list(states[-1].stacks) == [101, 99], "pokerkit changed its split: update docs/phh.md"


def test_pokerkit_plays_fixed_limit_omaha_hi_lo_without_the_fixed_sizes():
    """pokerkit reads FO/8 but sizes its bets as pot limit: a raise to 5 with a small bet of 2
    (not a fixed-limit size) loads there, and our replay stops at it."""
    hand = HandHistory(variant="FO/8", antes=[0, 0, 0], blinds_or_straddles=[1, 2, 0], small_bet=2, big_bet=4,
                       starting_stacks=[100, 100, 100],
                       actions=["d dh p1 As5c9d9h", "d dh p2 Ad5s9c9s", "d dh p3 KsKdQhJh", "p3 cbr 5"])
    with pytest.raises(Exception, match=r"action 3 'p3 cbr 5': raise to 5 is not the fixed-limit size"):
        replay(hand)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(pokerkit.HandHistory.loads(dumps(hand)))
    assert states[-1].bets[2] == 5
