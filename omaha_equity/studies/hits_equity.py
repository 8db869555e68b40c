"""Each part of a range against another player (``range_composition(..., vs=...)``).

Against a hand: one pass over the range (:func:`.distribution.distribution_by_hand`, every
board of every hand, exact where the work budget allows), then each part's equity is the
weighted mean over its hands. Against a range, a partial hand or ``*``: each part is its own
equity query, ``(RANGE)`` plus the part's category filter, exact where affordable and Monte
Carlo (``PART_DEFAULT_TRIALS`` deals) otherwise.
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import comb

import numpy as np

from ..equity import plan
from ..equity.calculate import run_equity
from ..equity.query import RunOptions, seat_cards
from ..ranges import parse_range
from . import seat_lists
from .distribution import distribution_by_hand

# Monte Carlo deals per part when ``trials`` is not given (standard error about 0.1 points).
PART_DEFAULT_TRIALS = 200_000


def part_equities(expression, vs, vs_cards, specs, masks, hands, weights, board_cards, dead_cards, game, *,
                  method, trials, seed):
    """Per row spec ``(equity, exact Fraction or None, standard error)`` of the range's part
    against ``vs`` (None for an empty part), the method and the seed used."""
    if vs_cards:
        return _against_hand(expression, vs, masks, hands, weights, board_cards, dead_cards, game, method, trials,
                             seed)
    seed = plan.draw_seed() if seed is None and method != plan.Method.EXACT else seed
    vs_size = _vs_size(vs, board_cards, dead_cards, game)
    completions = comb(52 - 2 * game.hole_count - len(board_cards) - len(dead_cards), 5 - len(board_cards))
    results = []
    methods = set()
    for spec, mask in zip(specs, masks):
        terms, excluded = spec[3], spec[4]
        if mask is None:
            results.append(None)
            continue
        part = f"({expression})" + "".join(f":{{{term}}}" for term in terms) + "".join(
            f"!{{{term}}}" for term in excluded)
        # the planner's rule (work = hand combinations x boards x players), decided here so that
        # a sampled part takes PART_DEFAULT_TRIALS deals rather than a whole query's million
        work = int(mask.sum()) * vs_size * completions * 2
        chosen = plan.choose_method(method, work, sampling_asked=trials is not None)
        sampled = chosen != plan.Method.EXACT
        options = RunOptions.checked(chosen, trials=(trials or PART_DEFAULT_TRIALS) if sampled else None,
                                     seed=seed if sampled else None)
        result = run_equity(seat_cards([part, vs], board_cards, dead_cards, game), options)
        player = result.players[0]
        methods.add(result.method)
        results.append((player.equity, player.equity_fraction, player.standard_error or 0.0))
    chosen = plan.Method.MONTE_CARLO if plan.Method.MONTE_CARLO in methods else plan.Method.EXACT
    return results, chosen, seed if chosen == plan.Method.MONTE_CARLO else None


def _vs_size(vs, board_cards, dead_cards, game) -> int:
    """Hand combinations of the other player (a random or partial hand: every completion)."""
    text = vs.strip()
    if text == "*":
        return comb(52 - len(board_cards) - len(dead_cards), game.hole_count)
    return parse_range(text, game, excluded=board_cards + dead_cards, board=board_cards).size


def _against_hand(expression, vs, masks, hands, weights, board_cards, dead_cards, game, method, trials, seed):
    options = RunOptions.checked(method, trials=trials, seed=seed)
    spread = distribution_by_hand(seat_cards([vs, expression], board_cards, dead_cards, game), options)
    by_label = {item.label: item for item in spread.items}
    items = [by_label[label] for label in seat_lists.hand_labels(hands)]
    exact = spread.method == plan.Method.EXACT
    uniform = bool((weights == weights[0]).all()) if weights.shape[0] else True
    # the range's equity per hand is the rest of the pot: 1 - the other player's
    equity = 1.0 - np.array([item.equity for item in items])
    errors = np.array([item.standard_error for item in items])
    if exact:
        denominator = math.lcm(*{item.equity_fraction.denominator for item in items})
        numerators = np.array([denominator - item.equity_fraction.numerator
                               * (denominator // item.equity_fraction.denominator) for item in items], dtype=object)
    results = []
    for mask in masks:
        if mask is None:
            results.append(None)
            continue
        part_weights = weights[mask]
        total = part_weights.sum()
        mean = float((part_weights * equity[mask]).sum() / total)
        fraction = None
        if exact and uniform:
            fraction = Fraction(int(numerators[mask].sum()), denominator * int(mask.sum()))
            mean = float(fraction)
        error = 0.0 if exact else float(math.sqrt(((part_weights * errors[mask]) ** 2).sum()) / total)
        results.append((mean, fraction, error))
    return results, spread.method, spread.seed
