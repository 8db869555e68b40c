"""Starting-hand rankings: the class list, the shipped files, percent bands, percentiles,
speed, bad input, and the generator kernel (reproducible, thread-count independent, and in
line with the slow reference). Nothing here regenerates a ranking."""

from __future__ import annotations

import itertools
import random
import time
from fractions import Fraction
from math import comb

import numba
import numpy as np
import pytest

import naive
from omaha_equity.cards import parse_cards
from omaha_equity.errors import InputError
from omaha_equity.evaluate.tables import load_tables
from omaha_equity.games import Game, get_game
from omaha_equity.pots import pot_units
from omaha_equity.rankings import (
    hand_percentile, hand_ranking, percent_range, ranking_game_name, ranking_info, store,
)
from omaha_equity.rankings import classes
from omaha_equity.rankings._generate import sample_class_shares

RANKED = list(store.RANKED_GAMES.values())
OPPONENTS = {
    ("omaha", "full-ring"): 8, ("omaha8", "full-ring"): 8, ("omaha5", "full-ring"): 8,
    ("omaha5-8", "full-ring"): 8, ("omaha6", "full-ring"): 6, ("omaha6-8", "full-ring"): 6,
}


def hand_keys(hands) -> set[int]:
    """Each hand as the bit mask of its cards."""
    return set((np.int64(1) << np.asarray(hands, dtype=np.int64)).sum(axis=1).tolist())


def colex_indexes(hands: np.ndarray) -> np.ndarray:
    """Position of each hand (rows descending) among all hands of its size: sum of
    C(card, i + 1) over its cards in ascending order (combinatorial number system)."""
    binomials = np.array([[comb(n, k) for k in range(7)] for n in range(52)], dtype=np.int64)
    ascending = hands[:, ::-1].astype(np.int64)
    return sum(binomials[ascending[:, i], i + 1] for i in range(hands.shape[1]))


def key_of(text: str) -> int:
    return sum(1 << card for card in parse_cards(text))


# -- the classes -------------------------------------------------------------------------------


@pytest.mark.parametrize("hole_count, class_count", [(4, 16_432), (5, 134_459), (6, 962_988)])
def test_class_counts(hole_count, class_count):
    assert len(classes.class_keys(hole_count)) == class_count
    assert int(classes.class_sizes(hole_count).sum()) == comb(52, hole_count)
    assert set(np.unique(classes.class_sizes(hole_count)).tolist()) <= {1, 4, 6, 12, 24}


def test_four_card_classes_match_brute_force_canonical_forms():
    """Min over the 24 suit relabellings of every 4-card hand: 16,432 distinct forms, and the
    same partition as the class keys."""
    hands = np.array(list(itertools.combinations(range(52), 4)), dtype=np.int64)
    ranks, suits = hands >> 2, hands & 3
    best = None
    for permutation in itertools.permutations(range(4)):
        relabelled = np.sort(ranks * 4 + np.array(permutation)[suits], axis=1)
        packed = (relabelled * np.array([52**3, 52**2, 52, 1])).sum(axis=1)
        best = packed if best is None else np.minimum(best, packed)
    _, canonical = np.unique(best, return_inverse=True)
    indexes = classes.class_indexes(hands)
    assert canonical.max() + 1 == 16_432
    # the two labellings define the same partition: a bijection between labels
    pairs = np.unique(np.stack([canonical, indexes]), axis=1)
    assert pairs.shape[1] == 16_432


@pytest.mark.parametrize("hole_count", [4, 5])
def test_every_hand_appears_exactly_once(hole_count):
    order = np.random.default_rng(hole_count).permutation(len(classes.class_keys(hole_count)))
    hands = classes.expand(hole_count, order)
    assert hands.shape == (comb(52, hole_count), hole_count)
    assert np.all(hands[:, :-1] > hands[:, 1:])  # rows descending
    assert np.all(np.bincount(colex_indexes(hands), minlength=comb(52, hole_count)) == 1)
    sizes = classes.class_sizes(hole_count)[order]
    assert np.array_equal(classes.class_indexes(hands), np.repeat(order, sizes))


@pytest.mark.parametrize("hole_count", [4, 5, 6])
def test_representatives_belong_to_their_class(hole_count):
    representatives = classes.representatives(hole_count)
    assert np.array_equal(classes.class_indexes(representatives), np.arange(len(representatives)))


def test_class_sizes_of_known_shapes():
    sizes = classes.class_sizes(4)
    index = classes.class_indexes(np.array([parse_cards(text) for text in ("AsAhKsKh", "AsKhQdJc", "AsKsQsJs")]))
    assert sizes[index].tolist() == [6, 24, 4]


# -- the shipped files ---------------------------------------------------------------------------


@pytest.mark.parametrize("game_name", RANKED)
@pytest.mark.parametrize("six_handed", [False, True])
def test_shipped_file_header_and_symmetry(game_name, six_handed):
    """The header states the table; over all hands the mean equity is 1 / players, since a
    random hand against random hands gets its fair share (checks hero/opponent symmetry)."""
    info = ranking_info(game_name, six_handed)
    game = get_game(game_name)
    assert (info.game, info.hole_count, info.hilo) == (game_name, game.hole_count, game.hilo)
    assert info.table == ("6-handed" if six_handed else "full-ring")
    assert info.opponent_count == (5 if six_handed else OPPONENTS[(game_name, "full-ring")])
    assert info.player_count == info.opponent_count + 1
    assert info.class_count == len(classes.class_keys(game.hole_count))
    assert info.sample_count >= 100 and info.generation_seconds > 0 and "Monte Carlo" in info.method
    equity, _ = store.read_ranking(store.ranking_path(game_name, info.table))
    sizes = classes.class_sizes(game.hole_count)
    mean = float((equity * sizes).sum()) / store.EQUITY_SCALE / sizes.sum()
    assert mean == pytest.approx(1 / info.player_count, abs=0.002)


@pytest.mark.parametrize("game_name, six_handed, class_indexes", [
    ("omaha", False, [0, 1, 9000, 16_431]),
    ("omaha8", True, [5, 12_345]),
    ("omaha6-8", True, [0, 500_000, 962_987]),
])
def test_shipped_equities_are_reproducible_from_the_header(game_name, six_handed, class_indexes):
    info = ranking_info(game_name, six_handed)
    equity, _ = store.read_ranking(store.ranking_path(game_name, info.table))
    tables = load_tables()
    units = pot_units(info.player_count, info.hilo)
    representatives = classes.representatives(info.hole_count)
    for index in class_indexes:
        sums, _ = sample_class_shares(
            representatives[index:index + 1], info.opponent_count, info.sample_count, np.uint64(info.seed), index,
            tables.colex, tables.pair_board, tables.flush, tables.low, info.hilo, units,
        )
        expected = np.rint(sums[0] / (info.sample_count * units) * store.EQUITY_SCALE)
        assert equity[index] == expected


# -- percent ranges ------------------------------------------------------------------------------


@pytest.mark.parametrize("six_handed", [False, True])
def test_percent_bands_partition(six_handed):
    first = percent_range("omaha", 0, 5, six_handed)
    second = percent_range("omaha", 5, 10, six_handed)
    both = percent_range("omaha", 0, 10, six_handed)
    assert not hand_keys(first) & hand_keys(second)
    assert hand_keys(first) | hand_keys(second) == hand_keys(both)
    assert len(first) + len(second) == len(both)
    everything = percent_range("omaha", 0, 100, six_handed)
    assert len(everything) == comb(52, 4) == len(hand_keys(everything))


@pytest.mark.parametrize("game_name", ["omaha", "omaha5-8"])
def test_top_percent_covers_the_bound_and_overshoots_by_less_than_a_class(game_name):
    total = comb(52, get_game(game_name).hole_count)
    for percent in (0.5, 5, 15, 33.3, 99.9):
        hands = percent_range(game_name, 0, percent)
        assert percent / 100 * total <= len(hands) < percent / 100 * total + 24
        assert hands.dtype == np.int8 and np.all(np.diff(hands.astype(np.int64), axis=1) < 0)


def test_strong_and_junk_hands_in_omaha():
    for six_handed in (False, True):
        assert hand_percentile("omaha", "AsAhKsKh", six_handed) < 1
        assert hand_percentile("omaha", "AsAhKdKc", six_handed) < 10
        assert hand_percentile("omaha", "8s7h3d2c", six_handed) > 50
        assert hand_percentile("omaha", "7s2h2d2c", six_handed) > 50
        assert key_of("AsAhKsKh") in hand_keys(percent_range("omaha", 0, 1, six_handed))
    assert hand_percentile("omaha", "AsAhKsKh") < hand_percentile("omaha", "AsAhKdKc") < hand_percentile("omaha", "AsAh7d2c")


def test_hilo_rankings_put_double_suited_ace_deuce_hands_on_top():
    for six_handed in (False, True):
        assert hand_percentile("omaha8", "AsAh2s3h", six_handed) < 1
        assert hand_percentile("omaha8", "As2sKhQh", six_handed) < 10
        assert hand_percentile("omaha8", "As2s3h4h", six_handed) < 5
        assert hand_percentile("omaha8", "KsKhQsQh", six_handed) > hand_percentile("omaha8", "AsAh2s3h", six_handed)
        assert hand_percentile("omaha8", "9s8h6d5c", six_handed) > 50  # middle cards, no ace, rainbow
        assert hand_percentile("omaha5-8", "AsAh2s3h4d", six_handed) < 2
        assert hand_percentile("omaha6-8", "AsAh2s3h4d5c", six_handed) < 5
    # the ace-deuce advantage is the hi/lo game's own: in Omaha hi the same hand is far weaker
    assert hand_percentile("omaha", "As2s3h4h") > 5 * hand_percentile("omaha8", "As2s3h4h")


def contains(hands: np.ndarray, cards) -> bool:
    mask = sum(1 << card for card in cards)
    return bool(np.any((np.int64(1) << hands.astype(np.int64)).sum(axis=1) == mask))


@pytest.mark.parametrize("game_name, six_handed, hand_count", [("omaha", False, 30), ("omaha8", True, 30), ("omaha5", False, 8)])
def test_hand_percentile_agrees_with_percent_range(game_name, six_handed, hand_count):
    hole_count = get_game(game_name).hole_count
    rng = random.Random(7)
    for _ in range(hand_count):
        cards = rng.sample(range(52), hole_count)
        ranking = hand_ranking(game_name, cards, six_handed)
        assert ranking.percentile == hand_percentile(game_name, cards, six_handed)
        assert contains(percent_range(game_name, 0, ranking.percentile, six_handed), cards)
        if ranking.better_percent > 0:
            assert not contains(percent_range(game_name, 0, ranking.better_percent, six_handed), cards)
        band = percent_range(game_name, ranking.better_percent, ranking.percentile, six_handed)
        assert len(band) == ranking.class_size and contains(band, cards)  # exactly its own class
        assert ranking.percentile == pytest.approx(ranking.better_percent + 100 * ranking.class_size / comb(52, hole_count))


def test_six_card_ranking():
    assert hand_percentile("omaha6", "AsAhKsKhQdJd") < 2
    assert hand_percentile("omaha6", "9s7h5d4c3c2d") > 50
    top = percent_range("omaha6", 0, 0.1, six_handed=True)
    assert top.shape[1] == 6 and 20_358 <= len(top) < 20_358 + 24


def test_percent_lookups_are_fast():
    percent_range("omaha", 0, 5)
    percent_range("omaha", 0, 5, True)
    started = time.perf_counter()
    for index in range(1000):
        low = index % 95
        hands = percent_range("omaha", low, low + 5, index % 2 == 1)
        assert len(hands) > 13_000
    assert time.perf_counter() - started < 0.5


def test_other_games_use_the_ranking_of_their_shape():
    assert ranking_game_name("courchevel") == "omaha5"
    assert ranking_game_name("courchevel8") == "omaha5-8"
    assert ranking_game_name(get_game("binglao", die=1)) == "omaha8"
    assert ranking_game_name(get_game("binglao", die=6)) == "omaha6"
    assert ranking_game_name("Big O") == "omaha5-8"
    assert ranking_info("courchevel").game == "omaha5"
    assert hand_percentile("courchevel", "AsAhKsKhQd") == hand_percentile("omaha5", "AsAhKsKhQd")


@pytest.mark.parametrize("call, message", [
    (lambda: percent_range("omaha", -1, 5), r"bad low percent -1"),
    (lambda: percent_range("omaha", 0, 101), r"bad high percent 101"),
    (lambda: percent_range("omaha", 0, float("nan")), r"bad high percent nan"),
    (lambda: percent_range("omaha", "5", 10), r"bad low percent '5'"),
    (lambda: percent_range("omaha", 10, 5), r"bad percent range 10%-5%: expected low < high"),
    (lambda: percent_range("omaha", 5, 5), r"expected low < high"),
    (lambda: percent_range("omaha", 0, 5, "yes"), r"six_handed must be True or False"),
    (lambda: percent_range("stud", 0, 5), r"unknown game 'stud'"),
    (lambda: percent_range(Game("omaha3", "3-card Omaha", 3, False), 0, 5),
     r"no starting-hand ranking for omaha3 \(3 hole cards\)"),
    (lambda: hand_percentile("omaha", "AsAhKs"), r"expected 4 hole cards for omaha, got 3 in 'AsAhKs'"),
    (lambda: hand_percentile("omaha", "AsAhKsAs"), r"duplicate card in 'AsAhKsAs'"),
    (lambda: hand_percentile("omaha", "AsAhKsXx"), r"unknown card 'Xx'"),
])
def test_bad_input(call, message):
    with pytest.raises(InputError, match=message):
        call()


# -- the generator kernel ----------------------------------------------------------------------


def _shares(hands, opponent_count, sample_count, seed, first, hilo):
    tables = load_tables()
    return sample_class_shares(
        np.ascontiguousarray(hands), opponent_count, sample_count, np.uint64(seed), first,
        tables.colex, tables.pair_board, tables.flush, tables.low, hilo, pot_units(opponent_count + 1, hilo),
    )


def test_generator_kernel_is_independent_of_threads_and_batching():
    hands = classes.representatives(5)[::3000][:40]
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = _shares(hands, 8, 50, 99, 10, True)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        parallel = _shares(hands, 8, 50, 99, 10, True)
    finally:
        numba.set_num_threads(previous)
    head = _shares(hands[:13], 8, 50, 99, 10, True)
    tail = _shares(hands[13:], 8, 50, 99, 23, True)
    for index in range(2):
        assert np.array_equal(single[index], parallel[index])
        assert np.array_equal(single[index], np.concatenate([head[index], tail[index]]))
    assert not np.array_equal(single[0], _shares(hands, 8, 50, 100, 10, True)[0])


def test_generator_kernel_agrees_with_the_reference_evaluator():
    """Equity of one hand against two random hands, hi/lo: kernel (20,000 deals) and the slow
    reference (400 deals of its own) within four combined standard errors."""
    hand = parse_cards("AsAh2s3h")
    sample_count = 20_000
    units = pot_units(3, True)
    sums, squares = _shares(np.array([hand], dtype=np.int8), 2, sample_count, 5, 0, True)
    kernel_mean = sums[0] / (sample_count * units)
    kernel_error = np.sqrt((squares[0] / (sample_count * units**2) - kernel_mean**2) / sample_count)
    rng = random.Random(11)
    deck = [card for card in range(52) if card not in hand]
    shares = []
    for _ in range(400):
        dealt = rng.sample(deck, 13)
        board, first, second = dealt[:5], dealt[5:9], dealt[9:]
        shares.append(naive.showdown_shares([list(hand), first, second], board, True)[0])
    reference_mean = float(sum(shares, Fraction(0)) / len(shares))
    reference_error = float(np.std([float(share) for share in shares]) / np.sqrt(len(shares)))
    assert abs(kernel_mean - reference_mean) < 4 * np.hypot(kernel_error, reference_error)
    assert 0.5 < kernel_mean < 0.8  # a premium hi/lo hand three-handed
