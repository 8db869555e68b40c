"""All-in EV by brute force for the hand-history tests: every remaining board, each pot by
contribution level paid in chips by the slow reference evaluator (tests/naive.py), each pot's
average payout scaled by (pot - rake) / pot."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import naive
from omaha_equity.cards import parse_cards


def _pay_evenly(amount, winners, payouts):
    """``amount`` chips split evenly; the chips left over one each to the first winners in
    odd-chip order (docs/rules.md, "Showdown", odd chips)."""
    share, remainder = divmod(amount, len(winners))
    for position, index in enumerate(sorted(winners)):
        payouts[index] += share + (1 if position < remainder else 0)


def _pot_chips(highs, lows, eligible, amount):
    """Chips each eligible player wins from one pot on one board: the high half (with the odd
    chip) to the best high, the low half to the best qualifying low; the same players winning
    both halves split the pot as a whole (WSOP rule 73)."""
    best_high = max(highs[index] for index in eligible)
    high_winners = [index for index in eligible if highs[index] == best_high]
    qualifying = [lows[index] for index in eligible if lows[index] is not None]
    low_winners = [index for index in eligible if qualifying and lows[index] == max(qualifying)]
    payouts = {index: 0 for index in eligible}
    if not low_winners or low_winners == high_winners:
        _pay_evenly(amount, high_winners, payouts)
    else:
        _pay_evenly(amount - amount // 2, high_winners, payouts)
        _pay_evenly(amount // 2, low_winners, payouts)
    return payouts


def brute_force_ev(hands, committed, folded_committed, board, rakes, hilo=False, dead=""):
    """Expected chips of each player, hands in odd-chip order: on every remaining board, each
    pot by contribution level paid in chips to its eligible players' best hands; each pot's
    average payout then scaled by (pot - rake) / pot (the rake taken in proportion); ``dead``
    cards (folded players' cards the file shows) are out of the deck."""
    hands = [parse_cards(hand) for hand in hands]
    board = list(parse_cards(board))
    used = {card for hand in hands for card in hand} | set(board) | set(parse_cards(dead) if dead else ())
    deck = [card for card in range(52) if card not in used]
    contributions = list(committed) + list(folded_committed)
    pots, previous = [], 0
    for level in sorted(set(committed)):
        amount = sum(min(c, level) - min(c, previous) for c in contributions)
        pots.append((amount, [index for index, c in enumerate(committed) if c >= level]))
        previous = level
    totals = [Fraction(0)] * len(hands)
    board_count = 0
    for completion in combinations(deck, 5 - len(board)):
        full = board + list(completion)
        board_count += 1
        highs = [naive.best_high(hand, full) for hand in hands]
        lows = [naive.best_low(hand, full) if hilo else None for hand in hands]
        for (amount, eligible), rake in zip(pots, rakes):
            for index, chips in _pot_chips(highs, lows, eligible, amount).items():
                totals[index] += Fraction(chips * (amount - rake), amount)
    return [total / board_count for total in totals]
