"""Hand ranges (issue 3, sections 1 and 4): the generic syntax, its counts, weights, removal of
known cards, percent ranges, and one-line errors that name the position.

Every count is checked against an independent reference: the issue's figures for 4-card Omaha,
combinatorial formulas over suit and rank distributions for 4, 5 and 6 cards, a numpy oracle over
all 5-card hands, and a slow pattern matcher (brute force over assignments) on sampled hands.
"""

import types
from itertools import combinations, combinations_with_replacement, permutations, product
from math import comb, prod

import numpy as np
import pytest

from omaha_equity.cards import parse_cards
from omaha_equity.errors import InputError
from omaha_equity.ranges import HandRange, is_specific_hand, parse_range
from omaha_equity.ranges import hand_range as hand_range_module

GAME_OF = {4: "omaha", 5: "omaha5", 6: "omaha6"}
RANK_TEXT = "23456789TJQKA"
SUIT_TEXT = "cdhs"


# -- independent references ------------------------------------------------------------------


def keys_of(hands):
    """One int64 per hand: the bit mask of its cards."""
    return (np.int64(1) << hands.astype(np.int64)).sum(axis=1)


def hand_keys(expression, game="omaha", **options):
    return keys_of(parse_range(expression, game, **options).hands)


def suit_count(hole_count, predicate):
    """Hands whose four suit counts satisfy ``predicate``: sum of prod C(13, count)."""
    return sum(
        prod(comb(13, count) for count in counts)
        for counts in product(range(hole_count + 1), repeat=4)
        if sum(counts) == hole_count and predicate(sorted(counts, reverse=True))
    )


def rank_count(hole_count, predicate):
    """Hands whose 13 rank counts satisfy ``predicate``: sum over rank multisets of prod C(4, count)."""
    total = 0
    for ranks in combinations_with_replacement(range(13), hole_count):
        counts = [ranks.count(rank) for rank in range(13)]
        if max(counts) <= 4 and predicate(counts):
            total += prod(comb(4, count) for count in counts)
    return total


def split_count(hole_count, predicate):
    """Hands split into the cards of one rank (a subset of its 4 suits) and the other 48 cards
    (counts per suit, 12 of each): ``predicate(subset_suits, other_suit_counts)``."""
    total = 0
    for size in range(5):
        for subset in combinations(range(4), size):
            for others in product(range(13), repeat=4):
                if sum(others) == hole_count - size and predicate(set(subset), others):
                    total += prod(comb(12, count) for count in others)
    return total


def two_suited_aces(aces, others):  # AxAyxy: aces of two suits, and another card of each
    return any(a != b and others[a] and others[b] for a in aces for b in aces)


def kings_double_suited(kings, others):  # KK:xxyy
    suits = [others[suit] + (suit in kings) for suit in range(4)]
    return len(kings) >= 2 and sum(count >= 2 for count in suits) >= 2


def double_suited_two_pair(hole_count):
    """RxRyOxOy: 468 sets of four cards {Rx, Ry, Ox, Oy}. Three cards fix the fourth, so two such
    sets share at most two cards; in six cards only a 3-rank x 2-suit or 2-rank x 3-suit block
    holds more than one set, and it holds three."""
    sets = comb(13, 2) * comb(4, 2)
    blocks = comb(13, 3) * comb(4, 2) + comb(13, 2) * comb(4, 3)
    return sets * comb(48, hole_count - 4) - (2 * blocks if hole_count == 6 else 0)


def expected_count(expression, hole_count):
    """The reference count of each pattern the issue names, for 4, 5 and 6 cards."""
    n = hole_count
    return {
        "*": comb(52, n),
        "AA": comb(52, n) - comb(48, n) - 4 * comb(48, n - 1),
        "AA!AAA": 6 * comb(48, n - 2),
        "AsAh": comb(50, n - 2),
        "sshh": sum(
            comb(13, spades) * comb(13, hearts) * comb(26, n - spades - hearts)
            for spades in range(2, n + 1) for hearts in range(2, n + 1 - spades)
        ),
        "wxy": suit_count(n, lambda counts: counts[2] >= 1),
        "xxyy": suit_count(n, lambda counts: counts[1] >= 2),
        "RRON": rank_count(n, lambda counts: max(counts) >= 2 and sum(c > 0 for c in counts) >= 3),
        "AxAyxy": split_count(n, lambda aces, others: two_suited_aces(sorted(aces), [others[s] for s in range(4)])),
        "KK:xxyy": split_count(n, kings_double_suited),
        "RxRyOxOy": double_suited_two_pair(n),
        "$ds": suit_count(n, lambda counts: counts[0] == 2 and counts[1] == 2 and counts[2] < 2),
        "$ss": suit_count(n, lambda counts: counts[0] == 2 and counts[1] < 2),
        "$r": suit_count(n, lambda counts: counts[0] <= 1),
        "$np": rank_count(n, lambda counts: max(counts) <= 1),
    }[expression]


# A slow pattern matcher, sharing nothing with the package: try every ordered choice of hand
# cards for the pattern's cards and check each letter's meaning directly.


def naive_cards(pattern):
    """Pattern text -> list of (kind, value, suit): kind "rank" (value 0..12), "list" (a set of
    ranks), "any" or "variable" (value a letter); suit None, a suit letter or a variable letter.
    Only what the sampled patterns use: no spans, no combinators."""
    cards, position = [], 0
    while position < len(pattern):
        character = pattern[position]
        if character in SUIT_TEXT or character in "wxyz":
            cards.append(("any", None, character))
            position += 1
            continue
        if character == "[":
            end = pattern.index("]", position)
            ranks = set()
            for item in pattern[position + 1:end].split(","):
                if "-" in item:
                    ranks |= set(range(RANK_TEXT.index(item[2]), RANK_TEXT.index(item[0]) + 1))
                else:
                    ranks.add(RANK_TEXT.index(item))
            kind, value, position = "list", ranks, end + 1
        elif character == "*":
            kind, value, position = "any", None, position + 1
        elif character in RANK_TEXT:
            kind, value, position = "rank", RANK_TEXT.index(character), position + 1
        else:
            kind, value, position = "variable", character, position + 1
        suit = None
        if position < len(pattern) and (pattern[position] in SUIT_TEXT or pattern[position] in "wxyz"):
            suit, position = pattern[position], position + 1
        cards.append((kind, value, suit))
    return cards


def naive_match(pattern, hand):
    """Does some ordered choice of distinct hand cards satisfy every pattern card?"""
    cards = naive_cards(pattern)
    written_ranks = {value for kind, value, _ in cards if kind == "rank"}
    written_suits = {SUIT_TEXT.index(suit) for _, _, suit in cards if suit and suit in SUIT_TEXT}
    for chosen in permutations(hand, len(cards)):
        rank_of, suit_of, fits = {}, {}, True
        for (kind, value, suit), card in zip(cards, chosen):
            card_rank, card_suit = card >> 2, card & 3
            if kind == "rank":
                fits = card_rank == value
            elif kind == "list":
                fits = card_rank in value
            elif kind == "variable":
                fits = card_rank not in written_ranks and rank_of.setdefault(value, card_rank) == card_rank
            if fits and suit is not None and suit in SUIT_TEXT:
                fits = card_suit == SUIT_TEXT.index(suit)
            elif fits and suit is not None:
                fits = card_suit not in written_suits and suit_of.setdefault(suit, card_suit) == card_suit
            if not fits:
                break
        if fits and len(set(rank_of.values())) == len(rank_of) and len(set(suit_of.values())) == len(suit_of):
            return True
    return False


def all_hands(hole_count):
    """Every hand as rows of ascending cards (numpy, no package code)."""
    hands = np.arange(52, dtype=np.int8)[:, None]
    for _ in range(hole_count - 1):
        last = hands[:, -1].astype(np.int64)
        repeats = 51 - last
        base = np.repeat(hands, repeats, axis=0)
        starts = np.repeat(last + 1 - np.concatenate(([0], np.cumsum(repeats)[:-1])), repeats)
        following = (np.arange(repeats.sum()) + starts).astype(np.int8)
        hands = np.concatenate([base, following[:, None]], axis=1)
    return hands


@pytest.fixture(scope="module")
def five_card_hands():
    hands = all_hands(5)
    held = np.zeros((hands.shape[0], 52), dtype=bool)  # held[hand, rank * 4 + suit]
    np.put_along_axis(held, hands.astype(np.int64), True, axis=1)
    held = held.reshape(-1, 13, 4)
    return types.SimpleNamespace(
        keys=keys_of(hands), rank_counts=held.sum(axis=2), suit_counts=held.sum(axis=1), held=held
    )


# -- the issue's counts -----------------------------------------------------------------------

ISSUE_COUNTS = {
    "AA": 6961, "AA!AAA": 6768, "AxAyxy": 864, "sshh": 6084, "wxy": 186745, "RRON": 82368,
    "xxyy": 36504, "RxRyOxOy": 468, "KK:xxyy": 864,
    "$ds": 36504, "$ss": 158184, "$r": 28561, "$np": 183040,
}


@pytest.mark.parametrize("expression", list(ISSUE_COUNTS))
def test_issue_counts_for_omaha(expression):
    assert parse_range(expression).size == ISSUE_COUNTS[expression]
    assert expected_count(expression, 4) == ISSUE_COUNTS[expression]  # the references agree


COUNTED = ["*", "AA", "AA!AAA", "AsAh", "sshh", "wxy", "xxyy", "RRON", "AxAyxy", "KK:xxyy", "RxRyOxOy", "$ds", "$np"]
# Six-card ranges of ten million hands and more take a second each to write out: a few suffice.
COUNTED_SIX = ["AA!AAA", "AsAh", "RRON", "AxAyxy", "KK:xxyy", "RxRyOxOy"]


@pytest.mark.parametrize("expression, hole_count", [(expression, 4) for expression in COUNTED]
                         + [(expression, 5) for expression in COUNTED] + [(expression, 6) for expression in COUNTED_SIX])
def test_counts_match_combinatorics_for_4_5_6_cards(expression, hole_count):
    expected = expected_count(expression, hole_count)
    assert parse_range(expression, GAME_OF[hole_count]).size == expected


def test_five_and_six_card_counts_written_out():
    # A few of the figures above, written out as a check on the references themselves.
    assert parse_range("AA", "omaha5").size == 108_336
    assert parse_range("RxRyOxOy", "omaha5").size == 22_464 == 468 * 48
    assert parse_range("RxRyOxOy", "omaha6").size == 523_848
    assert parse_range("$ds", "omaha5").size == 949_104 == 12 * 78 * 78 * 13
    assert parse_range("$ss", "omaha5").size == 685_464 == 4 * 78 * 13**3
    assert parse_range("$np", "omaha6").size == 7_028_736 == comb(13, 6) * 4**6


@pytest.mark.parametrize("expression, game", [("$r", "omaha5"), ("$r", "omaha6"), ("$ss", "omaha6")])
def test_impossible_macros_are_empty_range_errors(expression, game):
    hole_count = {"omaha5": 5, "omaha6": 6}[game]
    assert expected_count(expression, hole_count) == 0
    message = rf"^no hand in range '\{expression}' is possible: no {hole_count}-card hand of {game} matches it$"
    with pytest.raises(InputError, match=message):
        parse_range(expression, game)


# -- exact hand sets against a numpy oracle over all 5-card hands ---------------------------

def oracle(name, data):
    ranks, suits, held = data.rank_counts, data.suit_counts, data.held
    pairs = list(combinations(range(4), 2))

    def ordered_suits():
        return -np.sort(-suits, axis=1)

    def double_suited_two_pair():  # two ranks each held in both suits x and y
        return np.any([(held[:, :, x] & held[:, :, y]).sum(axis=1) >= 2 for x, y in pairs], axis=0)

    def aces_double_suited():  # aces of suits x and y, and another card of each
        others = held[:, :12, :].sum(axis=1)
        return np.any(
            [held[:, 12, x] & held[:, 12, y] & (others[:, x] > 0) & (others[:, y] > 0) for x, y in pairs], axis=0
        )
    return {
        "AA:xxyy, JJ!JJJ, KK": lambda: (
            ((ranks[:, 12] >= 2) & (ordered_suits()[:, 1] >= 2)) | (ranks[:, 9] == 2) | (ranks[:, 11] >= 2)
        ),
        "KK-TT": lambda: (ranks[:, 8:12] >= 2).any(axis=1),
        "TT+": lambda: (ranks[:, 8:] >= 2).any(axis=1),
        "[A-T]": lambda: (ranks[:, 8:] >= 1).any(axis=1),
        "AARR": lambda: (ranks[:, 12] >= 2) & (ranks[:, :12] >= 2).any(axis=1),
        "ssxx": lambda: (suits[:, 3] >= 2) & (suits[:, :3] >= 2).any(axis=1),
        "RxRyOxOy": double_suited_two_pair,
        "AxAyxy": aces_double_suited,
        "$ds": lambda: (ordered_suits()[:, 0] == 2) & (ordered_suits()[:, 1] == 2) & (ordered_suits()[:, 2] < 2),
        "wxy!$np": lambda: (ordered_suits()[:, 2] >= 1) & (ranks.max(axis=1) >= 2),
    }[name]()


@pytest.mark.parametrize("expression", ["AA:xxyy, JJ!JJJ, KK", "KK-TT", "TT+", "[A-T]", "AARR", "ssxx",
                                        "RxRyOxOy", "AxAyxy", "$ds", "wxy!$np"])
def test_five_card_hand_sets_equal_the_oracle(expression, five_card_hands):
    expected = -np.sort(-five_card_hands.keys[oracle(expression, five_card_hands)])
    assert np.array_equal(hand_keys(expression, "omaha5"), expected)  # same hands, same order


# -- the slow matcher on sampled hands ---------------------------------------------------------

SAMPLED_PATTERNS = ["AxAyxy", "RxRyOxOy", "RRON", "wxy", "Kxx", "ssxy", "[A-T][A-T]xx", "AAR", "RsOsN",
                    "[K,Q]x[9-6]x", "xxyyz", "RROOx", "AxKxQyJy", "Rx[A-T]xOyy", "KsQs[9-6]x"]
# Six-card ranges with few hands (the big ones take a second each to write out).
SAMPLED_SIX = ["RROOx", "AxKxQyJy", "KsQs[9-6]x"]


@pytest.mark.parametrize("pattern, hole_count", [(pattern, 4) for pattern in SAMPLED_PATTERNS]
                         + [(pattern, 5) for pattern in SAMPLED_PATTERNS] + [(pattern, 6) for pattern in SAMPLED_SIX])
def test_patterns_agree_with_a_slow_matcher_on_sampled_hands(pattern, hole_count):
    if len(naive_cards(pattern)) > hole_count:
        with pytest.raises(InputError, match="cards: expected at most"):
            parse_range(pattern, GAME_OF[hole_count])
        return
    hand_range = parse_range(pattern, GAME_OF[hole_count])
    descending = keys_of(hand_range.hands)
    ascending = -descending  # keys descend in the canonical order
    generator = np.random.default_rng(hole_count * 1000 + SAMPLED_PATTERNS.index(pattern))
    sampled = [tuple(int(card) for card in generator.choice(52, hole_count, replace=False)) for _ in range(150)]
    sampled += [tuple(int(card) for card in row) for row in hand_range.hands[generator.choice(hand_range.size, 50)]]
    for hand in sampled:
        key = sum(1 << card for card in hand)
        where = min(int(np.searchsorted(ascending, -key)), len(ascending) - 1)
        assert naive_match(pattern, hand) == bool(descending[where] == key), (pattern, hand)


# -- the shape of the result -------------------------------------------------------------------


def test_hand_range_rows_are_sorted_unique_and_in_canonical_order():
    hand_range = parse_range("RRON, AA")
    hands = hand_range.hands
    assert hands.dtype == np.int8 and hands.shape == (hand_range.size, 4)
    assert hand_range.weights.dtype == np.float64 and np.all(hand_range.weights == 1.0)
    assert np.all(np.diff(hands.astype(int), axis=1) < 0)  # descending within each row
    keys = keys_of(hands)
    assert np.all(np.diff(keys) < 0)  # descending bit masks: unique rows, lexicographic order
    every = parse_range("*").hands
    assert every[0].tolist() == [51, 50, 49, 48] and every[-1].tolist() == [3, 2, 1, 0]
    assert not hands.flags.writeable and not hand_range.weights.flags.writeable
    assert repr(hand_range) == "HandRange('RRON, AA', hole_count=4, size=%d)" % hand_range.size


def test_required_cards_and_exclusions_keep_the_canonical_order():
    # 'AsAh' walks only the hands around its two cards; the result is the same slice of '*'.
    every = parse_range("*", "omaha5")
    keys = keys_of(every.hands)
    both = (every.hands == 51).any(axis=1) & (every.hands == 50).any(axis=1)
    assert np.array_equal(hand_keys("AsAh", "omaha5"), keys[both])
    no_spade_ace = ~(every.hands == 51).any(axis=1)
    assert np.array_equal(hand_keys("*", "omaha5", excluded=[51]), keys[no_spade_ace])


def test_results_do_not_depend_on_the_thread_count():
    import numba

    before = numba.get_num_threads()
    expected = parse_range("RRON:wxy, AA@3", "omaha5")
    try:
        numba.set_num_threads(1)
        single = parse_range("RRON:wxy, AA@3", "omaha5")
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(single.hands, expected.hands) and np.array_equal(single.weights, expected.weights)


def test_binglao_uses_the_die_for_the_hole_count():
    assert parse_range("AA", "binglao", die=2).hole_count == 5
    assert parse_range("AA", "binglao", die=2).size == expected_count("AA", 5)


# -- syntax: cards, spans, lists, variables ----------------------------------------------------


def same_hands(first, second, game="omaha"):
    return np.array_equal(hand_keys(first, game), hand_keys(second, game))


@pytest.mark.parametrize("written", ["as kh jd 2c", "AS KH JD 2C", "A♠K♥J♦2♣", "2cJdKhAs", "As Kh\tJd 2c"])
def test_flexible_card_text(written):
    hand_range = parse_range(written)
    assert hand_range.size == 1
    assert hand_range.hands[0].tolist() == sorted(parse_cards("AsKhJd2c"), reverse=True)


def test_commas_separate_ranges_not_cards():
    # 'As,Kh,Jd,2c' is a card list elsewhere in the package, but here ',' is "or" (as in
    # ProPokerTools): every hand holding at least one of the four cards.
    assert parse_range("As,Kh,Jd,2c").size == comb(52, 4) - comb(48, 4)


def test_ten_may_be_written_10():
    assert same_hands("10s10h", "TsTh") and same_hands("1010", "TT")


@pytest.mark.parametrize("span, union", [
    ("KK-TT", "KK,QQ,JJ,TT"),
    ("AK-T9", "AK,KQ,QJ,JT,T9"),
    ("TT+", "TT,JJ,QQ,KK,AA"),
    ("T9+", "T9,JT,QJ,KQ,AK"),
    ("K+", "K,A"),
    ("44-", "44,33,22"),
    ("A-T", "A,K,Q,J,T"),
    ("[A-T]", "A,K,Q,J,T"),
    ("[T+]", "[A-T]"),
    ("[5-]", "5,4,3,2"),
    ("[A,2,3,4,5]", "A,2,3,4,5"),
    ("[A2345]", "[A,2,3,4,5]"),
    ("[A-T]s", "As,Ks,Qs,Js,Ts"),
    ("[As-Ts]", "[A-T]s"),
    ("[s,h]", "s,h"),
    ("[As,Kh]", "As,Kh"),
    ("[K,Q]xx", "Kxx,Qxx"),
    ("KxKy-TxTy", "KxKy,QxQy,JxJy,TxTy"),
    ("[A-K][A-K]", "AA,AK,KK"),
    ("****", "*"),
    ("*s", "s"),
])
def test_spans_and_lists_expand_to_their_union(span, union):
    assert same_hands(span, union)


def test_variables_never_take_written_ranks_or_suits():
    assert parse_range("AARR").size == 6 * 12 * 6  # aces and another pair, not four aces
    assert parse_range("ssxx").size == 78 * 3 * 78  # two spades and two of another suit
    assert 0b1111 << 48 not in set(hand_keys("AARR").tolist())
    # Ranks inside brackets do not restrict a variable: '[A]RR' includes three aces.
    assert parse_range("[A]RR").size == parse_range("ARR").size + 4 * 48 + 1
    assert parse_range("RROO").size == comb(13, 2) * 36  # two different pairs


def test_combinator_precedence():
    assert same_hands("AA,KK:xxyy", "AA,(KK:xxyy)")
    assert not same_hands("AA,KK:xxyy", "(AA,KK):xxyy")
    assert same_hands("AA:xxyy!AAA", "(AA:xxyy)!AAA")
    assert parse_range("(AA,KK):$ds").size == 2 * 864 - 6  # six AxAyKxKy hands are in both
    assert same_hands("AA!AAA", " AA ! AAA ")  # whitespace is ignored
    assert parse_range("*!AA").size == comb(52, 4) - 6961


@pytest.mark.parametrize("expression, expected", [
    ("AsKhJd2c", True), ("as kh jd 2c", True), ("10sKhJd2c", True),
    ("AsKh", False), ("AA", False), ("AsKhJd2c@2", False), ("AsKhJd2c,*", False),
    ("AsKhJd2x", False), ("AsKhJd[2c]", False), ("AsKhJd2cQs", False),
])
def test_is_specific_hand(expression, expected):
    assert is_specific_hand(expression, "omaha") is expected


def test_is_specific_hand_depends_on_the_hole_count_and_checks_syntax():
    assert is_specific_hand("AsKhJd2cQs", "omaha5") and not is_specific_hand("AsKhJd2c", "omaha5")
    with pytest.raises(InputError, match="unexpected"):
        is_specific_hand("AsKh)", "omaha")


# -- weights -----------------------------------------------------------------------------------


def weights_by_key(expression, game="omaha"):
    hand_range = parse_range(expression, game)
    return dict(zip(keys_of(hand_range.hands).tolist(), hand_range.weights.tolist()))


def key(text):
    return sum(1 << card for card in parse_cards(text))


def test_weights_take_the_largest_where_parts_overlap():
    weights = weights_by_key("AA@10, KK@5")
    assert len(weights) == parse_range("AA,KK").size
    assert weights[key("AsAhKsKh")] == 10 and weights[key("AsAh2c3d")] == 10 and weights[key("KsKh2c3d")] == 5


def test_unweighted_parts_count_one_in_a_union_and_filter_in_an_intersection():
    weights = weights_by_key("AA@0.5, AAK")
    assert weights[key("AsAhKs2c")] == 1.0 and weights[key("AsAh2c3d")] == 0.5
    assert set(weights_by_key("AA@0.5:$ds").values()) == {0.5}
    assert set(weights_by_key("AA@10:KK@5").values()) == {10.0}
    assert set(weights_by_key("AA!(AAA@5)").values()) == {1.0}


def test_nested_weights_multiply():
    weights = weights_by_key("(AA@2, KK)@3")
    assert weights[key("AsAh2c3d")] == 6 and weights[key("KsKh2c3d")] == 3
    assert weights_by_key("(AA@2)@3, KK")[key("KsKh2c3d")] == 1


def test_weights_survive_removal_of_cards():
    hand_range = parse_range("AA@10, KK@5").without(parse_cards("As"))
    assert set(hand_range.weights.tolist()) == {10.0, 5.0}
    assert hand_range.size == parse_range("AA,KK", excluded=[51]).size


# -- removed cards -----------------------------------------------------------------------------


def test_without_drops_hands_holding_any_card():
    aces = parse_range("AA")
    fewer = aces.without(parse_cards("As"), reason="dead cards As")
    assert fewer.size == 3 * comb(48, 2) + 48
    assert fewer.expression == "AA" and fewer.hole_count == 4
    assert not (fewer.hands == 51).any()
    assert np.array_equal(fewer.hands, parse_range("AA", excluded=[51]).hands)
    assert aces.without([0]) is not aces and aces.without([]) is aces
    assert parse_range("AsAh").without("Kd").size == comb(49, 2)


def test_without_everything_is_an_error_naming_the_cards():
    with pytest.raises(InputError, match=r"^no hand in range 'AA' is possible with dead cards AsAhAd$"):
        parse_range("AA").without(parse_cards("AsAhAd"), reason="dead cards AsAhAd")
    with pytest.raises(InputError, match=r"^no hand in range 'AA' is possible with AsAhAd removed$"):
        parse_range("AA").without(parse_cards("AsAhAd"))


def test_parse_range_excluded_cards():
    assert parse_range("AA!AAA", excluded="As").size == 3 * comb(48, 2)
    with pytest.raises(InputError, match=r"^no hand in range 'AA' is possible with dead cards AsAhAd$"):
        parse_range("AA", excluded=parse_cards("AsAhAd"), excluded_reason="dead cards AsAhAd")
    with pytest.raises(InputError, match=r"^no hand in range 'AsKs' is possible with board KsQs2d$"):
        parse_range("AsKs", excluded="KsQs2d", excluded_reason="board KsQs2d")


def test_an_empty_range_without_removals_says_so():
    with pytest.raises(InputError, match=r"^no hand in range 'AA!AA' is possible: no 4-card hand of omaha matches it$"):
        parse_range("AA!AA", excluded="2c")


# -- bad input: one line, with the position ----------------------------------------------------

BAD_INPUT = [
    ("AA,(KK))", "unexpected ')' at position 7 in 'AA,(KK))': it closes no '('"),
    ("AA,(KK", "unclosed '(' at position 3 in 'AA,(KK': expected ')'"),
    ("(AA]", "unexpected ']' at position 3 in '(AA]': expected ',', ':', '!', '@' or ')' to close the '(' at position 0"),
    ("()", "unexpected ')' at position 1 in '()': expected a hand pattern"),
    ("[A-T", "unclosed '[' at position 0 in '[A-T': expected ']'"),
    ("AA]", "unexpected ']' at position 2 in 'AA]': expected ',', ':', '!', '@' or the end"),
    ("[]", "empty list '[]' at position 0 in '[]': expected ranks"),
    ("[A,R]", "unexpected 'R' at position 3 in '[A,R]': expected a rank, a rank span such as 'A-T', a suit or ']'"),
    ("AA&KK", "unknown character '&' at position 2 in 'AA&KK'"),
    ("AA é", "unknown character 'é' at position 3 in 'AA é'"),
    ("AA||KK", "unknown character '|' at position 2 in 'AA||KK'"),
    ("AA,", "unexpected end at position 3 in 'AA,': expected a hand pattern"),
    ("!AA", "unexpected '!' at position 0 in '!AA': expected a hand pattern"),
    ("AA:", "unexpected end at position 3 in 'AA:'"),
    ("AA$ds", "unexpected '$' at position 2 in 'AA$ds': a macro is a whole range: combine it with ':' as in 'AA:$ds'"),
    ("$dss", "unknown macro '$dss' at position 0 in '$dss': expected one of $ds, $ss, $r, $np"),
    ("1A", "unknown rank '1' at position 0 in '1A': expected a rank 2-9, T or 10, J, Q, K or A"),
    ("", "empty range '': expected a hand pattern such as 'AA' or '*'"),
    ("AA@0", "bad weight '0' at position 3 in 'AA@0': expected a positive number"),
    ("AA@-2", "bad weight '-2' at position 3 in 'AA@-2': expected a positive number"),
    ("AA@1e999", "bad weight '1e999' at position 3 in 'AA@1e999': expected a positive number"),
    ("AA@x", "unexpected 'x' at position 3 in 'AA@x': expected a positive number after '@'"),
    ("AA,KK@", "unexpected end at position 6 in 'AA,KK@': expected a positive number after '@'"),
    ("AA@2@3", "second weight at position 4 in 'AA@2@3'"),
    ("[T-A]", "span 'T-A' runs the wrong way at position 1 in '[T-A]': expected the higher rank first (aces high), as in 'A-T'"),
    ("TT-KK", "span 'TT-KK' runs the wrong way at position 0 in 'TT-KK': expected the higher end first, as in 'KK-TT'"),
    ("AA,T-A", "span 'T-A' runs the wrong way at position 3 in 'AA,T-A'"),
    ("AK-T8", "span 'AK-T8' has ends of different shapes at position 0 in 'AK-T8'"),
    ("KxKy-TxTz", "span 'KxKy-TxTz' has ends of different shapes at position 0"),
    ("[As-T]", "span 'As-T' has different suits at its ends at position 1 in '[As-T]'"),
    ("xx+", "span 'xx+' has no rank to move at position 0 in 'xx+'"),
    ("AAKKQ", "pattern 'AAKKQ' at position 0 in 'AAKKQ' has 5 cards: expected at most the 4 hole cards of omaha"),
    ("KK,*****", "pattern '*****' at position 3 in 'KK,*****' has 5 cards: expected at most the 4 hole cards of omaha"),
    ("AsAs", "card As appears twice in pattern 'AsAs' at position 2 in 'AsAs': expected each card once"),
    ("0%", "percent '0%' out of range at position 0 in '0%': expected a number above 0 and at most 100"),
    ("AA,150%", "percent '150%' out of range at position 3 in 'AA,150%'"),
    ("10%-5%", "percent range '10%-5%' runs the wrong way at position 0 in '10%-5%'"),
    ("5%-10", "unexpected end at position 5 in '5%-10': expected '%' after '10', as in '5%-10%'"),
    ("5%-200%", "percent '200%' out of range at position 3 in '5%-200%'"),
]


@pytest.mark.parametrize("expression, message", BAD_INPUT)
def test_bad_input_is_one_line_naming_the_position(expression, message):
    with pytest.raises(InputError) as caught:
        parse_range(expression)
    text = str(caught.value)
    assert text.startswith(message), text
    assert "\n" not in text


def test_deep_nesting_is_refused_not_miscounted():
    # The kernels keep their stack of results in one integer; the parser refuses deeper ranges.
    assert parse_range("AA" + ",(KK" * 55 + ")" * 55).size == parse_range("AA,KK").size
    assert parse_range("AA" + ",KK" * 70).size == parse_range("AA,KK").size
    with pytest.raises(InputError, match=r"^too many nested '\(' at position 243 in .*: expected at most 60 levels$"):
        parse_range("AA" + ",(KK" * 70 + ")" * 70)


def test_more_pattern_cards_than_the_hand_depends_on_the_game():
    assert parse_range("AAKKQ", "omaha5").size == 4 * 6 * 6  # exactly AAKK plus a queen
    with pytest.raises(InputError, match=r"has 7 cards: expected at most the 6 hole cards of omaha6$"):
        parse_range("RRONPQA", "omaha6")


# -- percent ranges ----------------------------------------------------------------------------


@pytest.fixture
def fake_rankings(monkeypatch):
    """A stand-in for ``omaha_equity.rankings.percent_range`` where the ranges call it: ranks
    hands by descending bit mask and records calls."""
    calls = []

    def percent_range(game, low_percent, high_percent, six_handed):
        calls.append((game.name, low_percent, high_percent, six_handed))
        every = all_hands(game.hole_count)
        every = every[np.argsort(-keys_of(every))]  # the ranking: descending bit masks
        count = len(every)
        rows = every[int(count * low_percent / 100):int(count * high_percent / 100)]
        return np.ascontiguousarray(rows[::-1])  # ascending cards, reversed: the range sorts them

    monkeypatch.setattr(hand_range_module, "percent_range", percent_range)
    # the shipped ranking's positions give canonical rows directly: the stand-in has none
    monkeypatch.setattr(hand_range_module, "canonical_percent_range", lambda *arguments: None)
    # percent hands are cached per range: forget those of the real rankings, before and after
    hand_range_module._ranked_hands.cache_clear()
    yield calls
    hand_range_module._ranked_hands.cache_clear()


def test_percent_ranges_call_the_ranking(fake_rankings):
    top = parse_range("15%")
    assert fake_rankings == [("omaha", 0.0, 15.0, False)]
    assert top.size == int(270725 * 0.15)
    assert np.array_equal(top.hands, parse_range("*").hands[:top.size])
    middle = parse_range("5%-10%6h")
    assert fake_rankings[-1] == ("omaha", 5.0, 10.0, True)
    assert middle.size == int(270725 * 0.10) - int(270725 * 0.05)
    assert np.all(np.diff(keys_of(middle.hands)) < 0)


def test_percent_ranges_combine_weigh_and_lose_removed_cards(fake_rankings):
    top = parse_range("15%")
    both = parse_range("15%:$ds")
    assert both.size == int(np.isin(keys_of(parse_range("$ds").hands), keys_of(top.hands)).sum())
    assert set(parse_range("15%@2").weights.tolist()) == {2.0}
    assert set(parse_range("15%@2, 20%").weights.tolist()) == {1.0, 2.0}
    assert parse_range("15%", excluded=[51]).size == int((~(top.hands == 51).any(axis=1)).sum())
    assert parse_range("2.5% , AA").size == len(set(hand_keys("2.5%").tolist()) | set(hand_keys("AA").tolist()))


def test_percent_ranges_with_the_shipped_rankings():
    try:
        from omaha_equity.rankings import percent_range  # noqa: F401
    except (ImportError, AttributeError):
        pytest.skip("omaha_equity.rankings.percent_range is not available yet")
    top = parse_range("15%")
    assert 0.14 * 270725 <= top.size <= 0.16 * 270725
    assert np.all(np.diff(keys_of(top.hands)) < 0)
    # Bands partition the ranking: the top 5% and the 5%-10% band make the top 10%.
    first, second = set(hand_keys("5%").tolist()), set(hand_keys("5%-10%").tolist())
    assert not first & second and first | second == set(hand_keys("10%").tolist())
    assert parse_range("15%6h").size > 0
    assert parse_range("15%:AA").size == len(set(hand_keys("15%").tolist()) & set(hand_keys("AA").tolist()))
    assert parse_range("15%", "omaha5").hands.shape[1] == 5



@pytest.mark.parametrize("hole_count", [4, 5, 6])
def test_canonical_rows_sorts_any_rows_into_the_canonical_order_once_each(hole_count):
    # The percent ranges' radix sort, against a plain reference: rows in any order, cards in
    # any order within a row, repeated rows. Canonical: descending bit masks, cards descending.
    rng = np.random.default_rng(hole_count)
    hands = np.array([rng.choice(52, hole_count, replace=False) for _ in range(3000)], dtype=np.int8)
    hands = np.concatenate([hands, hands[:500][:, ::-1]])  # repeats, written in another card order
    rows = hand_range_module.canonical_rows(np.ascontiguousarray(hands))
    keys = np.unique(keys_of(hands))[::-1]
    assert np.array_equal(keys_of(rows), keys)  # each hand once, descending bit masks
    assert np.all(rows[:, :-1] > rows[:, 1:])
    descending = np.ascontiguousarray(np.sort(hands, axis=1)[:, ::-1])  # the rankings' form: no reordering
    assert np.array_equal(hand_range_module.canonical_rows(descending), rows)
    assert hand_range_module.canonical_rows(np.zeros((0, hole_count), dtype=np.int8)).shape == (0, hole_count)

def test_hand_range_is_the_public_type():
    assert isinstance(parse_range("AA"), HandRange)
    assert len(parse_range("AsKhJd2c")) == 1
