"""Board ranges and flop classes (omaha_equity.boards), each checked against a plain-Python
brute force over all 22,100 flops."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from omaha_equity.boards import all_flops, class_of_flops, flop_classes, orbits, parse_board_range, suit_group
from omaha_equity.boards.texture import TEXTURE_GROUPS, texture_groups
from omaha_equity.cards import parse_cards
from omaha_equity.errors import InputError

FLOPS = [tuple(sorted(triple, reverse=True)) for triple in itertools.combinations(range(52), 3)]
SUIT_RENAMINGS = list(itertools.permutations(range(4)))


def renamed(flop, renaming):
    return tuple(sorted(((card >> 2) * 4 + renaming[card & 3] for card in flop), reverse=True))


def test_every_flop_once():
    assert len(all_flops()) == 22_100
    assert sorted(map(tuple, all_flops().tolist())) == sorted(FLOPS)


def test_the_1755_classes_and_their_weights_by_brute_force():
    # each flop's class: the set of its images under the 24 renamings of the suits
    brute = Counter(frozenset(renamed(flop, renaming) for renaming in SUIT_RENAMINGS) for flop in FLOPS)
    classes = flop_classes()
    assert len(classes) == len(brute) == 1_755
    assert sum(flop_class.weight for flop_class in classes) == 22_100
    by_flop = {}
    for members, count in brute.items():
        assert len(members) == count  # every member is a distinct concrete flop
        for flop in members:
            by_flop[flop] = members
    members_of_class = {}
    for flop, index in zip(map(tuple, all_flops().tolist()), class_of_flops().tolist()):
        members_of_class.setdefault(index, set()).add(flop)
    for flop_class in classes:
        members = members_of_class[flop_class.index]
        assert frozenset(members) == by_flop[flop_class.cards]
        assert flop_class.weight == len(members)
    assert Counter(flop_class.weight for flop_class in classes) == Counter({24: 286, 12: 1_170, 4: 299})


def test_canonical_flops_read_well():
    texts = [flop_class.text for flop_class in flop_classes()]
    assert texts[0] == "AsAhAd" and texts[-1] == "2s2h2d"
    assert "AsKsQs" in texts and "AsKhQd" in texts and "Qs7h2d" in texts and "Qh7d2c" not in texts


@pytest.mark.parametrize("fixed", [(), (3,), (3, 2), (0, 1, 2)])
def test_orbits_of_a_subgroup_by_brute_force(fixed):
    group = [renaming for renaming in SUIT_RENAMINGS if all(renaming[suit] == suit for suit in fixed)]
    brute = {frozenset(renamed(flop, renaming) for renaming in group) for flop in FLOPS}
    found = orbits(np.arange(22_100), suit_group(fixed))
    assert len(found) == len(brute)
    assert sum(orbit.weight for orbit in found) == 22_100
    got = {frozenset(map(tuple, all_flops()[orbit.flop_indexes].tolist())) for orbit in found}
    assert got == brute


def _card_matches(card, rank, suit):
    ranks, suits = card
    return (ranks is None or rank in ranks) and (suits is None or suit in suits)


def brute_pattern(flop, cards, rank_variables="", suit_variables=""):
    """A plain-Python reading of a pattern: ``cards`` are (ranks or None, suits or None) with the
    variables given as letters per card (``""`` none)."""
    for order in itertools.permutations(flop):
        if not all(_card_matches(card, c >> 2, c & 3) for card, c in zip(cards, order)):
            continue
        ok = True
        for variables, value in ((rank_variables, lambda c: c >> 2), (suit_variables, lambda c: c & 3)):
            if not variables:
                continue
            seen = {}
            written = {value(c) for card, c, v in zip(cards, order, variables)
                       if not v and card[0 if value(0) == 0 and variables is rank_variables else 1] is not None}
            for letter, c in zip(variables, order):
                if letter == " ":
                    continue
                if letter in seen and seen[letter] != value(c):
                    ok = False
                seen.setdefault(letter, value(c))
            values = list(seen.values())
            if len(set(values)) != len(values):
                ok = False
            if written & set(values):
                ok = False
        if ok:
            return True
    return False


A, K, Q, T = 12, 11, 10, 8
CASES = [
    ("*", lambda f: True),
    ("***", lambda f: True),
    ("AK*", lambda f: brute_pattern(f, [({A}, None), ({K}, None), (None, None)])),
    ("Ks**", lambda f: (K * 4 + 3) in f),
    ("Kh7d2c", lambda f: f == parse_cards("Kh7d2c")),
    ("[T+][T+]*", lambda f: sum(c >> 2 >= T for c in f) >= 2),
    ("$mono", lambda f: len({c & 3 for c in f}) == 1),
    ("$twotone", lambda f: len({c & 3 for c in f}) == 2),
    ("$rainbow", lambda f: len({c & 3 for c in f}) == 3),
    ("$paired", lambda f: len({c >> 2 for c in f}) < 3),
    ("$trips", lambda f: len({c >> 2 for c in f}) == 1),
    ("$lowboard", lambda f: len({c >> 2 for c in f}) == 3 and all(c >> 2 <= 6 or c >> 2 == 12 for c in f)),
    ("$connected", lambda f: len({c >> 2 for c in f}) == 3 and any(
        {c >> 2 for c in f} <= window for window in
        [set(range(low, low + 5)) for low in range(9)] + [{12, 0, 1, 2, 3}])),
    ("*w*w*x", lambda f: len({c & 3 for c in f}) == 2),
    ("*w*x*y", lambda f: len({c & 3 for c in f}) == 3),
    ("RRO", lambda f: sorted(Counter(c >> 2 for c in f).values()) == [1, 2]),
    ("AsRR", lambda f: (A * 4 + 3) in f and sorted(Counter(c >> 2 for c in f).values()) == [1, 2]
     and Counter(c >> 2 for c in f)[A] == 1),
    ("AxKx*", lambda f: any(a >> 2 == A and k >> 2 == K and a & 3 == k & 3 for a in f for k in f)),
    ("$twotone:AK*", lambda f: len({c & 3 for c in f}) == 2 and {A, K} <= {c >> 2 for c in f}),
    ("AK*, QQ*", lambda f: {A, K} <= {c >> 2 for c in f} or Counter(c >> 2 for c in f)[Q] >= 2),
    ("(AK*, QQ*)!$paired", lambda f: ({A, K} <= {c >> 2 for c in f} or Counter(c >> 2 for c in f)[Q] >= 2)
     and len({c >> 2 for c in f}) == 3),
]


@pytest.mark.parametrize("text, holds", CASES, ids=[case[0] for case in CASES])
def test_board_ranges_by_brute_force(text, holds):
    expected = {flop for flop in FLOPS if holds(flop)}
    board_range = parse_board_range(text)
    assert set(map(tuple, board_range.flops.tolist())) == expected
    assert board_range.count == len(expected)


def test_board_range_membership_and_the_counts_of_the_docs():
    assert parse_board_range("Ks**").count == 1_275
    assert parse_board_range("AK*").count == 752
    assert parse_board_range("$mono").count == 1_144
    assert parse_board_range("$paired").count == 3_796
    assert parse_board_range("$lowboard").count == 3_584
    assert parse_cards("Kh7d2c") in parse_board_range("K**")
    assert parse_cards("Qh7d2c") not in parse_board_range("K**")


def test_texture_groups_cover_every_flop_once():
    groups = Counter(texture_groups(all_flops()))
    assert set(groups) == set(TEXTURE_GROUPS)
    assert sum(groups.values()) == 22_100
    assert groups["rainbow, trips"] == 52


ERRORS = [
    ("", "empty board range '': expected a flop pattern such as 'AK*', 'Ks**' or '*'"),
    ("AK", "pattern 'AK' of 2 cards at position 0 in board range 'AK': expected three cards, as in 'AK*' "
           "('*' stands for any card)"),
    ("AK**", "card '*' after three at position 3 in board range 'AK**': a board range is a flop: expected three "
             "cards in a pattern, then ',', ':', '!' or the end (turn and river conditions are not supported)"),
    ("$foo", "unknown macro '$foo' at position 0 in board range '$foo': expected one of $mono, $monotone, "
             "$twotone, $rainbow, $paired, $unpaired, $trips, $connected, $lowboard, $low"),
    ("AK*,", "unexpected end at position 4 in board range 'AK*,': expected a flop pattern of three cards"),
    ("(AK*", "unclosed '(' at position 0 in board range '(AK*': expected ')'"),
    ("(AK*]", "unexpected ']' at position 4 in board range '(AK*]': expected ',', ':', '!' or ')' to close the '('"
              " at position 0"),
    ("AK*)", "unexpected ')' at position 3 in board range 'AK*)': it closes no '('"),
    ("A%*", "unknown character '%' at position 1 in board range 'A%*': expected a rank (2-9, T, J, Q, K, A), '*',"),
    ("[]**", "empty list at position 0 in board range '[]**': expected ranks such as '[A-T]', '[T+]' or '[A,K,Q]'"),
    ("[AK**", "unexpected '*' at position 3 in board range '[AK**': expected a rank (2-9, T, J, Q, K, A), '+', "
              "'-', ',' or ']' in a rank list"),
    ("[A", "unclosed '[' at position 0 in board range '[A': expected ']'"),
    (":AK*", "unexpected ':' at position 0 in board range ':AK*': expected a flop pattern of three cards"),
    ("AK*:", "unexpected end at position 4 in board range 'AK*:'"),
    ("2c2c2c", "board range '2c2c2c' holds no flop"),
    ("$mono:$paired", "board range '$mono:$paired' holds no flop"),
    (None, "empty board range None"),
]


@pytest.mark.parametrize("text, message", ERRORS, ids=[repr(case[0]) for case in ERRORS])
def test_each_parser_error_names_the_token_and_what_was_expected(text, message):
    with pytest.raises(InputError) as error:
        parse_board_range(text)
    assert str(error.value).startswith(message)
