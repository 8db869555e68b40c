"""Category filters in the range syntax (``15%:{set+}``): the same hands as the categorizer, in
every command that takes a range and a board, and clear errors."""

import random

import pytest
import categories_reference as reference
from click.testing import CliRunner

from omaha_equity import calculate_equity
from omaha_equity.cards import format_cards, parse_cards
from omaha_equity.categories import categorize_hands, names
from omaha_equity.cli import main
from omaha_equity.errors import InputError
from omaha_equity.ranges import parse_range
from omaha_equity.ranges.hand_range import deck_indexes
from omaha_equity.studies import equity_distribution


def selected(expression, board, game="omaha"):
    return set(deck_indexes(parse_range(expression, game, board=board).hands).tolist())


def by_fields(base, board, predicate, game="omaha", hilo=False):
    hands = parse_range(base, game, excluded=parse_cards(board)).hands
    fields = categorize_hands(hands, parse_cards(board), hilo)
    return set(deck_indexes(hands[predicate(fields)]).tolist())


@pytest.mark.parametrize("expression, base, board, predicate", [
    ("15%:{set+}", "15%", "Qh7d2c", lambda f: f[:, names.MADE] <= names.SET),
    ("AA:{nfd}", "AA", "Kh7h2c", lambda f: f[:, names.FLUSH_CLASS] == 0),
    ("*!{nothing}", "*", "Qh7d2c", lambda f: f[:, names.MADE] != names.NOTHING),
    ("{two-pair+}", "*", "Qh7d2c", lambda f: f[:, names.MADE] <= names.BOARD_PAIR_PLUS_PAIR),
    ("{wrap13+, nfd}", "*", "Th9s4h", lambda f: (f[:, names.STRAIGHT_OUTS] >= 13) | (f[:, names.FLUSH_CLASS] == 0)),
    ("RRON:{top-pair}", "RRON", "Ks8d3c", lambda f: (f[:, names.MADE] >= names.TOP_PAIR_TOP_KICKER)
     & (f[:, names.MADE] <= names.TOP_PAIR_WEAK_KICKER)),
    ("$ds:{oesd+}!{fd}", "$ds", "9h8c2d5s", lambda f: (f[:, names.STRAIGHT_OUTS] >= 5) & (f[:, names.FLUSH_CLASS] < 0)),
])
def test_filters_select_the_categorized_hands(expression, base, board, predicate):
    assert selected(expression, board) == by_fields(base, board, predicate)


def test_low_filters_in_hilo_games():
    board = "As5d9c"
    assert selected("{nut-low-draw}", board, "omaha8") == by_fields(
        "*", board, lambda f: f[:, names.LOW] == names.NUT_LOW_DRAW, "omaha8", True)


def test_filters_take_weights_and_parentheses():
    weighted = parse_range("(15%:{set+})@3, 15%", board="Qh7d2c")
    plain = parse_range("15%", board="Qh7d2c")
    sets = parse_range("15%:{set+}", board="Qh7d2c")
    assert weighted.size == plain.size
    assert weighted.weights.sum() == plain.size + 2 * sets.size


@pytest.mark.parametrize("expression, board, message", [
    ("15%:{set+}", "", "category filter '{set+}' at position 4 in '15%:{set+}' needs a board of 3 to 5 cards"),
    ("{set}", "Qh7d", "needs a board of 3 to 5 cards"),
    ("{sett}", "Qh7d2c", "unknown category 'sett' at position 1 in '{sett}': expected one of straight-flush, quads"),
    ("{set", "Qh7d2c", "unclosed '{' at position 0"),
    ("{set nfd}", "Qh7d2c", "expected ',' or '}' after a category name"),
    ("{no-draw+}", "Qh7d2c", "'no-draw' takes no '+'"),
    ("{nut-low}", "Qh7d2c", "omaha has no low"),
    ("AA:{flush}", "Qh7d2c", "no hand in range 'AA:{flush}' is possible"),
])
def test_filter_errors_say_what_is_wrong(expression, board, message):
    with pytest.raises(InputError, match=None) as error:
        parse_range(expression, board=board)
    assert message in str(error.value)


def test_calc_distribution_allin_and_batch_take_filters():
    hero = "AsKsQdJh"
    result = calculate_equity(["15%:{set+}", hero], "Qh7d2c")
    hands = parse_range("15%:{set+}", excluded=parse_cards(hero), board="Qh7d2c").hands
    listed = ",".join(format_cards(hand, sort=True) for hand in hands.tolist())
    assert result.players[0].equity_fraction == calculate_equity([listed, hero], "Qh7d2c").players[0].equity_fraction
    spread = equity_distribution(hero, "15%:{set+}", "Qh7d2c")
    assert len(spread.items) == hands.shape[0]
    runner = CliRunner()
    allin = runner.invoke(main, ["allin", "15%:{set+}", hero, "--stacks", "100,100", "-b", "Qh7d2c", "-f", "csv"])
    assert allin.exit_code == 0, allin.output
    batch = runner.invoke(main, ["batch", "-", "--workers", "1", "-q"],
                          input="id,board,hand1,hand2\nsets,Qh7d2c,15%:{set+},AsKsQdJh\nnone,,{set},AsKsQdJh\n")
    rows = [line for line in batch.output.splitlines() if line.startswith(("sets,", "none,"))]
    assert rows[0].startswith("sets,1,15%:{set+},0.9354")
    assert rows[-1].startswith("none,") and "needs a board of 3 to 5 cards" in rows[-1]
    no_board = runner.invoke(main, ["calc", "{set}", hero])
    assert no_board.exit_code == 2 and "needs a board" in no_board.output


def test_filters_are_worked_out_on_the_hands_that_can_matter(monkeypatch):
    # '15%:{set+}' categorizes the 15% (a superset pass), not the deck; '*!{nothing}' (a filter
    # after '!') still gets every hand right
    from omaha_equity.ranges import hand_range

    seen = []
    original = hand_range.categorize_hands
    monkeypatch.setattr(hand_range, "categorize_hands", lambda hands, *rest: seen.append(len(hands)) or original(hands, *rest))
    parse_range("15%:{set+}, AA:{nfd}", board="Kh7h2c")
    assert seen and max(seen) < 40_000  # the 15% and the aces, out of 211,876 hands
    assert selected("(15%!{pair+}):$ds", "Qh7d2c") == by_fields(
        "15%:$ds", "Qh7d2c", lambda f: f[:, names.MADE] == names.NOTHING)  # pair+: a pair or better


def test_streets_refuse_a_filter_with_the_reason():
    result = CliRunner().invoke(main, ["calc", "15%:{set+}", "AsKsQdJh", "-b", "Qh7d2c", "--streets"])
    assert result.exit_code == 2
    assert "a filter reads the board, which changes from street to street" in result.output
    ranged = CliRunner().invoke(main, ["range", "15%:{set+}", "-b", "Qh7d2c", "-f", "json"])
    assert ranged.exit_code == 0 and '"size": 2317' in ranged.output


@pytest.mark.parametrize("game, board", [("omaha", "9h8c2d"), ("omaha", "Jd9h8c2s"), ("omaha5", "Th7c6d")])
def test_clean_straight_out_terms_match_the_brute_force(game, board):
    # clean-sdN / clean-sdN+: N (at least N) straight outs that neither pair the board nor bring
    # a third card of a suit, counted by the reference's enumeration of the next card, on a
    # sample of straight draws and of any hands
    generator = random.Random(f"clean outs {game} {board}")
    board_cards = parse_cards(board)
    draws = parse_range("{straight-draw}", game, board=board).hands.tolist()
    anything = parse_range("*", game, excluded=board_cards).hands.tolist() if game == "omaha" else draws
    hands = generator.sample(draws, 300) + generator.sample(anything, 100)
    clean = {tuple(sorted(hand)): reference.clean_straight_outs(hand, board_cards) for hand in hands}
    listed = ",".join(format_cards(hand, sort=True) for hand in hands)
    for term, holds in [("clean-sd1+", lambda outs: outs >= 1), ("clean-sd8", lambda outs: outs == 8),
                        ("clean-sd8+", lambda outs: outs >= 8), ("clean-sd13+", lambda outs: outs >= 13)]:
        chosen = parse_range(f"({listed}):{{{term}}}", game, board=board).hands.tolist()
        assert {tuple(sorted(hand)) for hand in chosen} == {hand for hand, outs in clean.items() if holds(outs)}, term
    assert max(clean.values()) >= 8  # the sample holds real clean wraps


def test_clean_straight_out_term_errors_and_names():
    with pytest.raises(InputError, match="bad clean straight draw 'clean-sd0' at position 1 in '{clean-sd0}': expected clean-sd1 or more outs \\(hands with none"):
        parse_range("{clean-sd0}", board="9h8c2d")
    with pytest.raises(InputError, match="unknown category 'clean-sd' at position 1 in '{clean-sd}': expected one of"):
        parse_range("{clean-sd}", board="9h8c2d")
    # the known names do not fit in one message: the closest ones come last, where it is never cut
    with pytest.raises(InputError, match=r"expected one of straight-flush, quads, .* \(closest: clean-sdN\)$"):
        parse_range("{clean-sd}", board="9h8c2d")
    with pytest.raises(InputError, match=r"\(closest: set\)$"):
        parse_range("{sett}", board="9h8c2d")
    assert names.KNOWN_NAMES[names.KNOWN_NAMES.index("wrapN") + 1] == "clean-sdN"
    from omaha_equity.categories import categorize

    wrap = categorize("Tc9d8h7s", "6c5d2h")
    assert "clean-sd13" in wrap.names and wrap.clean_straight_outs == 13
