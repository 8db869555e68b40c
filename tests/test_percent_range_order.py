"""Percent ranges in canonical order straight from the ranking's hand positions
(``rankings.canonical_percent_range``), the same hands in the same order as sorting them."""

import numpy as np
import pytest

from omaha_equity import InputError, rankings
from omaha_equity.ranges import parse_range
from omaha_equity.ranges.hand_range import canonical_rows, deck_indexes


@pytest.mark.parametrize("game", ["omaha", "omaha8", "omaha5"])
@pytest.mark.parametrize("low, high, six_handed", [(0, 5, False), (3.3, 17.9, True), (0, 100, False),
                                                   (99.5, 100, False), (42.125, 42.5, False)])
def test_canonical_percent_range_is_the_sorted_percent_range(game, low, high, six_handed):
    canonical = rankings.canonical_percent_range(game, low, high, six_handed)
    sorted_rows = canonical_rows(np.asarray(rankings.percent_range(game, low, high, six_handed)).astype(np.int8))
    assert canonical.dtype == np.int8 and np.array_equal(canonical, sorted_rows)
    positions = deck_indexes(canonical)
    assert (np.diff(positions) > 0).all()


def test_six_card_rankings_are_sorted_by_the_caller():
    assert rankings.CANONICAL_MAX_HANDS < 20_358_520
    assert rankings.canonical_percent_range("omaha6", 0, 1) is None


def test_percent_ranges_parse_to_the_ranking_slices():
    five = parse_range("0%-5%")
    assert np.array_equal(five.hands, canonical_rows(np.asarray(rankings.percent_range("omaha", 0, 5))))
    shifted = parse_range("0.095%-5.095%")
    assert shifted.size != 0 and not np.array_equal(shifted.hands, five.hands)
    with pytest.raises(InputError, match="expected low < high"):
        rankings.canonical_percent_range("omaha", 5, 5)
