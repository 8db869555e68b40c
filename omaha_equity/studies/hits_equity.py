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
from ..cards import DECK_SIZE
from ..equity.players import DEALT, RANGE, Seat, check_some_deal
from ..equity.query import RunOptions, SeatedQuery, seat_cards
from ..equity.results.equity import standard_error
from ..ranges import parse_range
from .distribution import hand_by_hand

# Monte Carlo deals per part when ``trials`` is not given (standard error about 0.1 points).
PART_DEFAULT_TRIALS = 200_000


def part_equities(expression, vs, vs_cards, specs, part_hands, hands, weights, board_cards, dead_cards, game, *,
                  method, trials, seed):
    """Per row spec ``(equity, exact Fraction or None, standard error)`` of the range's part
    against ``vs`` (None for an empty part), the method and the seed used. ``part_hands``
    yields, per spec, the indexes of its hands in ``hands`` (None for an empty part)."""
    if vs_cards:
        return _against_hand(expression, vs, part_hands, hands, weights, board_cards, dead_cards, game, method,
                             trials, seed)
    seed = plan.draw_seed() if seed is None and method != plan.Method.EXACT else seed
    vs_seat = seat_cards(["*", vs], board_cards, dead_cards, game).seats[1]  # as seated beside any range
    vs_size = _vs_size(vs, vs_seat, board_cards, dead_cards, game)
    completions = comb(52 - 2 * game.hole_count - len(board_cards) - len(dead_cards), 5 - len(board_cards))
    results = []
    methods = set()
    for spec, selected in zip(specs, part_hands):
        terms, excluded = spec[3], spec[4]
        if selected is None:
            results.append(None)
            continue
        part = f"({expression})" + "".join(f":{{{term}}}" for term in terms) + "".join(
            f"!{{{term}}}" for term in excluded)
        # the planner's rule (work = hand combinations x boards x players), decided here so that
        # a sampled part takes PART_DEFAULT_TRIALS deals rather than a whole query's million
        work = int(selected.shape[0]) * vs_size * completions * 2
        chosen = plan.choose_method(method, work, sampling_asked=trials is not None)
        sampled = chosen != plan.Method.EXACT
        options = RunOptions.checked(chosen, trials=(trials or PART_DEFAULT_TRIALS) if sampled else None,
                                     seed=seed if sampled else None)
        seated = _seated_part(part, hands[selected], weights[selected], vs, vs_seat, board_cards, dead_cards, game)
        result = run_equity(seated, options)
        player = result.players[0]
        methods.add(result.method)
        results.append((player.equity, player.equity_fraction, player.standard_error or 0.0))
    chosen = plan.Method.MONTE_CARLO if plan.Method.MONTE_CARLO in methods else plan.Method.EXACT
    return results, chosen, seed if chosen == plan.Method.MONTE_CARLO else None


def _seated_part(part: str, hands: np.ndarray, weights: np.ndarray, vs: str, vs_seat: Seat, board_cards, dead_cards,
                 game) -> SeatedQuery:
    """The query of one part against ``vs``, seated from the part's hands already listed: the
    seating of ``part`` (the range and the row's filter, as text) beside ``vs``, without parsing
    the range again. A part with no hand left beside a partial hand's cards is seated from its
    text, for the error that names them."""
    known = vs_seat.known_cards + tuple(board_cards) + tuple(dead_cards)
    if vs_seat.known_cards:
        lookup = np.zeros(DECK_SIZE, dtype=np.bool_)
        lookup[list(vs_seat.known_cards)] = True
        keep = ~lookup[hands].any(axis=1)
        hands, weights = hands[keep], weights[keep]
    if not hands.shape[0]:
        return seat_cards([part, vs], board_cards, dead_cards, game)
    seats = (_listed_seat(part, hands, weights, known, game), vs_seat)
    check_some_deal(seats, list(known))
    return SeatedQuery(game, seats, tuple(board_cards), tuple(dead_cards), None)


def _listed_seat(text: str, hands: np.ndarray, weights: np.ndarray, known: tuple[int, ...], game) -> Seat:
    """The seat of the range ``text`` whose hands (without the ``known`` cards) are listed
    already, as ``equity.players`` seats it: every hand of the deck, equally weighted, is dealt
    at random; else a range."""
    if hands.shape[0] == comb(DECK_SIZE - len(known), game.hole_count) and (weights == weights[0]).all():
        return Seat(text.strip(), DEALT, source=text)
    return Seat(text.strip(), RANGE, (), _read_only(hands), _read_only(weights), source=text)


def _read_only(array: np.ndarray) -> np.ndarray:
    array = np.ascontiguousarray(array)
    array.flags.writeable = False
    return array


def _vs_size(vs: str, vs_seat: Seat, board_cards, dead_cards, game) -> int:
    """Hand combinations of the other player (a random or partial hand: every completion)."""
    if vs_seat.kind == RANGE:  # its hands, as a range of the text without the board and dead cards
        return vs_seat.range_size
    text = vs.strip()
    if text == "*":
        return comb(52 - len(board_cards) - len(dead_cards), game.hole_count)
    return parse_range(text, game, excluded=board_cards + dead_cards, board=board_cards).size


# What the parts against a hand hold per hand of the range, besides the range and its category
# cells: the kernels' sums (16 bytes, 24 sampled), the equities and standard errors (16), the
# range's hands matched to the pass's (24) and one part's hands at a time (8); measured with
# tracemalloc on a 6-card range of 678,792 hands, rounded up.
AGAINST_HAND_BYTES_PER_HAND = 120


def _against_hand(expression, vs, part_hands, hands, weights, board_cards, dead_cards, game, method, trials, seed):
    options = RunOptions.checked(method, trials=trials, seed=seed)
    # the hand seated as written, the range from its hands listed already (not parsed again)
    vs_seat = seat_cards([vs, "*"], board_cards, dead_cards, game).seats[0]
    range_seat = _listed_seat(expression, hands, weights, vs_seat.known_cards + tuple(board_cards) + tuple(dead_cards),
                              game)
    seated = SeatedQuery(game, (vs_seat, range_seat), tuple(board_cards), tuple(dead_cards), None)
    spread = hand_by_hand(seated, options)
    order = _matching_rows(hands, spread.hands)
    share_sums, board_counts, units = spread.share_sums[order], spread.board_counts[order], spread.units
    exact = spread.method == plan.Method.EXACT
    uniform = bool((weights == weights[0]).all()) if weights.shape[0] else True
    # the range's equity per hand is the rest of the pot: 1 - the other player's
    equity = 1.0 - share_sums / units / board_counts
    if exact:
        errors = np.zeros(order.shape[0])
    else:
        square_sums = spread.square_sums[order]
        errors = np.array([standard_error(int(share), int(square), int(boards), units)
                           for share, square, boards in zip(share_sums, square_sums, board_counts)])
    # exactly: every hand has the same boards, so a part's equity is its pot units over its boards
    boards = int(board_counts[0]) if board_counts.shape[0] else 0
    whole = exact and uniform and bool((board_counts == boards).all())
    results = []
    for selected in part_hands:
        if selected is None:
            results.append(None)
            continue
        part_weights = weights[selected]
        total = part_weights.sum()
        mean = float((part_weights * equity[selected]).sum() / total)
        fraction = None
        if exact and uniform:
            fraction = (_part_fraction(int(share_sums[selected].sum()), selected.shape[0], units, boards) if whole
                        else _mean_fraction(share_sums[selected], board_counts[selected], units))
            mean = float(fraction)
        error = 0.0 if exact else float(math.sqrt(((part_weights * errors[selected]) ** 2).sum()) / total)
        results.append((mean, fraction, error))
    return results, spread.method, spread.seed


def _matching_rows(hands: np.ndarray, listed: np.ndarray) -> np.ndarray:
    """For each row of ``hands``, the row of ``listed`` holding the same cards (in any order):
    ``(n,) int64``. Both are lists of the same hands (the range's, and the pass's list of them),
    so every hand is found."""
    if listed is hands:
        return np.arange(hands.shape[0])
    keys, listed_keys = _card_sets(hands), _card_sets(listed)
    if np.array_equal(keys, listed_keys):  # the same order, as parsing gives
        return np.arange(keys.shape[0])
    sorter = np.argsort(listed_keys, kind="stable")
    rows = sorter[np.searchsorted(listed_keys, keys, sorter=sorter)]
    if not np.array_equal(listed_keys[rows], keys):
        raise AssertionError("the range's hands differ from the hands of its pass against the hand")
    return rows


def _card_sets(hands: np.ndarray) -> np.ndarray:
    """Each hand's cards as a 52-bit set, ``(n,) int64`` (a column at a time: no (n, k) int64
    copy)."""
    sets = np.zeros(hands.shape[0], dtype=np.int64)
    for column in range(hands.shape[1]):
        sets |= np.left_shift(np.int64(1), hands[:, column].astype(np.int64))
    return sets


def _part_fraction(share_sum: int, hand_count: int, units: int, boards: int) -> Fraction:
    """The range's exact equity over ``hand_count`` hands of ``boards`` boards each, the other
    player having won ``share_sum`` pot units of them: the rest of the pots."""
    pots = hand_count * units * boards
    return Fraction(pots - share_sum, pots)


def _mean_fraction(share_sums: np.ndarray, board_counts: np.ndarray, units: int) -> Fraction:
    """The mean over hands of the range's exact equity, ``1 - share / (units x boards)`` per hand
    (hands of different board counts)."""
    total = sum((1 - Fraction(int(share), units * int(boards)) for share, boards in zip(share_sums, board_counts)),
                Fraction(0))
    return total / len(share_sums)
