"""Paying a finished hand: pots by contribution, rake, runs of the board, the split of each pot.

Who gets what share of a pot is decided by ``omaha_equity.pots`` (the one implementation, shared
with the all-in EV kernels); this module feeds it the hand's contributions and hand values and
records the result as a :class:`~omaha_equity.rules.settlement.Settlement`.
Source: ``docs/rules.md``, "All-ins and side pots" and "Showdown".
"""

from __future__ import annotations

from ..games import NO_LOW
from ..pots import Pot, settle, side_pots
from .settlement import PlayerResult, PotResult, PotRun, Settlement
from .state import HandState


def hand_pots(hand: HandState, excluded: list[bool]) -> list[Pot]:
    """Main and side pots of a hand, players in odd-chip order (``hand.positions``).

    Live chips (blinds, bets, and antes when every player pays the same ante) make the pot
    levels; dead chips (the dead small blind of a missed-blinds post, and an ante paid by some
    players only, such as a big-blind ante) make no level and form the first pot, which every
    player still in the hand may win, a player all in on dead chips alone included
    (``pots.side_pots``: a big blind all in on a big-blind ante plays for it).
    """
    order = hand.positions
    live = [hand.contributed[seat] - hand.dead[seat] for seat in order]
    return side_pots(live, excluded, dead=[hand.dead[seat] for seat in order])


def contested_pots(hand: HandState) -> list[tuple[int, tuple[int, ...]]]:
    """(pot index, eligible seats) of every pot, counting only folds (not mucks)."""
    order = hand.positions
    pots = hand_pots(hand, [hand.folded[seat] for seat in order])
    return [(index, tuple(sorted(order[position] for position in pot.eligible))) for index, pot in enumerate(pots)]


def _run_parts(amount: int, run_count: int) -> list[int]:
    """A pot divided into ``run_count`` equal parts; the odd chips go to the first runs."""
    base, extra = divmod(amount, run_count)
    return [base + (1 if run_index < extra else 0) for run_index in range(run_count)]


def settle_hand(hand: HandState) -> Settlement:
    """Split every pot of a finished hand among its eligible players on every run of the board.

    Players are given to ``pots.settle`` in odd-chip order (the first seat left of the button
    first), so odd chips go where ``docs/rules.md`` says (or the hand's
    ``settings.odd_chip`` rule says).
    """
    order = hand.positions
    seat_count = hand.seat_count
    showdown = len(hand.in_hand) > 1
    excluded = [hand.folded[seat] or hand.mucked[seat] for seat in order]
    pots = hand_pots(hand, excluded)
    rake_rule = hand.settings.rake
    reached_flop = len(hand.board) >= 3
    if rake_rule is not None and (reached_flop or not rake_rule.no_flop_no_drop):
        rakes = rake_rule.split([pot.amount for pot in pots])
    else:
        rakes = [0] * len(pots)
    boards = hand.boards if showdown else (hand.board,)
    run_count = len(boards)
    parts = [_run_parts(pot.amount - rake, run_count) for pot, rake in zip(pots, rakes)]
    run_results: list[list[PotRun]] = [[] for _ in pots]
    for run_index, board in enumerate(boards):
        high_values = [0] * seat_count
        low_values = [NO_LOW] * seat_count
        if showdown:
            for position, seat in enumerate(order):
                if not excluded[position]:
                    high_values[position], low_values[position] = hand.hand_values(seat, run_index)
        run_pots = [Pot(part[run_index], pot.eligible) for pot, part in zip(pots, parts)]
        payouts = settle(run_pots, high_values, low_values if hand.game.hilo else None, hand.game.hilo,
                         hand.settings.odd_chip)
        for pot_index, (pot, pot_payouts) in enumerate(zip(run_pots, payouts)):
            eligible = pot.eligible
            best_high = max(high_values[position] for position in eligible)
            high_winners = [order[position] for position in eligible if high_values[position] == best_high]
            best_low = max(low_values[position] for position in eligible) if hand.game.hilo else NO_LOW
            low_winners = ([order[position] for position in eligible if low_values[position] == best_low]
                           if best_low != NO_LOW else [])
            by_seat = [0] * seat_count
            for position, chips in enumerate(pot_payouts):
                by_seat[order[position]] += chips
            run_results[pot_index].append(PotRun(
                run_index=run_index, amount=pot.amount, board=tuple(board),
                high_winners=tuple(sorted(high_winners)) if showdown else tuple(sorted(order[p] for p in eligible)),
                low_winners=tuple(sorted(low_winners)) if showdown else (),
                payouts=tuple(by_seat)))
    results = tuple(
        PotResult(pot_index=index, amount=pot.amount, rake=rake,
                  eligible=tuple(sorted(order[position] for position in pot.eligible)), runs=tuple(runs))
        for index, (pot, rake, runs) in enumerate(zip(pots, rakes, run_results))
    )
    players = []
    for seat in range(seat_count):
        won = tuple(pot.payouts[seat] for pot in results)
        players.append(PlayerResult(seat=seat, starting_stack=hand.starting_stacks[seat],
                                    contributed=hand.contributed[seat], returned=hand.returned[seat], won=won,
                                    final_stack=hand.stacks[seat] + sum(won)))
    return Settlement(pots=results, players=tuple(players), rake=sum(rakes), showdown=showdown)
