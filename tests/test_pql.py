"""The query language against an independent brute force (tests/naive.py: plain Python over every
board) on small spaces, against calc and the range filters, and its errors."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from click.testing import CliRunner

import naive
from omaha_equity.cli import main
from omaha_equity.equity.calculate import calculate_equity
from omaha_equity.pql import PqlError, run
from omaha_equity.ranges import parse_range

# (game, hero, villain, turn board): a hand against a hand on a turn, every river enumerated.
TURN_CASES = [
    ("omaha", "AsAhKsKh", "JdTd9c8c", "Qd7h2s5c"),
    ("omaha8", "As2sKd3h", "AdKc4c5h", "6s7h9dJc"),
    ("omaha5", "AsAhKsKhQc", "JdTd9c8c7s", "Qd7h2s5c"),
    ("omaha6", "AsAhKsKhQc2d", "JdTd9c8c7s6s", "Qd7h2s5c"),
    ("courchevel8", "As2sKd3hQh", "AdKc4c5h8s", "6s7h9dJc"),
]


def _rivers(hands, board):
    used = set(board) | {card for hand in hands for card in hand}
    return [card for card in range(52) if card not in used]


def _select(query: str, game: str, hero: str, villain: str, board: str) -> list:
    result = run(f"{query} from game='{game}', hero='{hero}', villain='{villain}', board='{board}'")
    assert result.method == "exact"
    return list(result.selectors)


@pytest.mark.parametrize("game, hero, villain, board", TURN_CASES)
def test_river_functions_equal_the_brute_force_as_fractions(game, hero, villain, board):
    hilo = game.endswith("8")
    hands = [naive.cards(hero), naive.cards(villain)]
    board_cards = naive.cards(board)
    rivers = _rivers(hands, board_cards)
    wins = ties = wins_low = ties_low = scoops = 0
    share_total = Fraction(0)
    types: dict[int, int] = {}
    for river in rivers:
        full = board_cards + [river]
        highs = [naive.best_high(hand, full) for hand in hands]
        lows = [naive.best_low(hand, full) if hilo else None for hand in hands]
        share_total += naive.showdown_shares(hands, full, hilo)[0]
        wins += highs[0] > highs[1]
        ties += highs[0] == highs[1]
        low_made = lows[0] is not None or lows[1] is not None
        hero_low_best = lows[0] is not None and (lows[1] is None or lows[0] >= lows[1])
        wins_low += hero_low_best and (lows[1] is None or lows[0] > lows[1])
        ties_low += lows[0] is not None and lows[0] == lows[1]
        scoops += highs[0] > highs[1] and (not hilo or not low_made or (
            lows[0] is not None and (lows[1] is None or lows[0] > lows[1])))
        types[highs[0][0]] = types.get(highs[0][0], 0) + 1
    total = len(rivers)
    selectors = _select("select avg(riverEquity(hero)), count(winsHi(hero)), count(tiesHi(hero)), "
                        "count(winsLo(hero)), count(tiesLo(hero)), count(scoops(hero)), "
                        "histogram(handType(hero, river)), avg(fractionalRiverEquity(hero))",
                        game, hero, villain, board)
    assert selectors[0].fraction == share_total / total
    assert selectors[7].fraction == share_total / total
    assert [selector.fraction for selector in selectors[1:6]] == [
        Fraction(count, total) for count in (wins, ties, wins_low, ties_low, scoops)]
    names = ("highcard", "pair", "twopair", "trips", "straight", "flush", "fullhouse", "quads", "straightflush")
    assert {bucket.label: bucket.fraction for bucket in selectors[6].buckets} == {
        names[kind]: Fraction(count, total) for kind, count in types.items()}
    # consistency with calc, exactly
    calc = calculate_equity([hero, villain], board, game=game, method="exact")
    assert selectors[0].fraction == calc.players[0].equity_fraction


@pytest.mark.parametrize("game, hero, villain, board", TURN_CASES[:2])
def test_turn_functions_equal_the_brute_force(game, hero, villain, board):
    """Hand types, nut tests (own and dead cards out) and outs on the turn itself: one deal per river,
    the same answer on each."""
    dead = naive.cards("2c")
    hands = [naive.cards(hero), naive.cards(villain)]
    board_cards = naive.cards(board)
    if 0 in {*board_cards, *hands[0], *hands[1]}:
        dead = []
    hero_cards = hands[0]
    value = naive.best_high(hero_cards, board_cards)
    unseen = [card for card in range(52) if card not in set(board_cards) | set(hero_cards) | set(dead)]
    others = [max(naive.high_value_5(list(pair) + list(triple)) for triple in combinations(board_cards, 3))
              for pair in combinations(unseen, 2)]
    nut = value >= max(others)
    same_type = [other for other in others if other[0] == value[0]]
    nut_for_type = not same_type or value >= max(same_type)
    after = {}
    for card in unseen:  # the villain's cards are unseen by the hero: outs too
        after[card] = naive.best_high(hero_cards, board_cards + [card])[0]
    outs_flush = sum(kind == naive.FLUSH for kind in after.values())
    outs_pair_plus = sum(kind >= naive.PAIR for kind in after.values())
    dead_text = "".join(naive.card_text(card) for card in dead)
    result = run(f"select count(nutHi(hero, turn)), count(nutHiForHandType(hero, turn)), "
                 f"avg(outsToHandType(hero, turn, flush)), avg(minOutsToHandType(hero, turn, pair)), "
                 f"histogram(handType(hero, turn)) from game='{game}', hero='{hero}', villain='{villain}', "
                 f"board='{board}', dead='{dead_text}'")
    selectors = result.selectors
    assert selectors[0].value == float(nut)
    assert selectors[1].value == float(nut_for_type)
    assert selectors[2].value == outs_flush
    assert selectors[3].value == outs_pair_plus
    assert [bucket.label for bucket in selectors[4].buckets] == [
        ("highcard", "pair", "twopair", "trips", "straight", "flush", "fullhouse", "quads", "straightflush")[value[0]]]


# (game, hero, villain's hands, flop): a hand against a small range on a flop, every turn and river.
FLOP_CASES = [
    ("omaha", "AsAhKsKh", ["JdTd9c8c", "QcQd7c6c", "5h4h3d2d"], "Qh7d2s"),
    ("omaha8", "As2sKd3h", ["AdKc4c5h", "2c3c8d8h", "QhJhTs9s"], "6s7h4d"),
    ("omaha5", "AsAhKsKhQc", ["JdTd9c8c7s", "QdQh6c6d2h", "5h4h3d2d8s"], "Qs7d2s"),
    ("omaha6", "AsAhKsKhQc2d", ["JdTd9c8c7s6s", "QdQh6c6d3h3c", "5h4h3d2c8s8d"], "Qs7d2s"),
    ("courchevel8", "As2sKd3hQh", ["AdKc4c5h8s", "2c3c8d8hJc", "QdJhTs9s6c"], "6s7h4d"),
]
RIVER_SELECTORS = ("avg(riverEquity(hero)), count(winsHi(hero)), count(tiesHi(hero)), count(winsLo(villain)), "
                   "count(scoops(hero)), avg(fractionalRiverEquity(villain))")


def _showdown(highs, lows, hilo):
    """The two players' shares of the pot and who holds the best high and low (plain Python, as
    naive.showdown_shares, from values already worked out)."""
    high_winners = [index for index in (0, 1) if highs[index] == max(highs)]
    made = [low for low in lows if low is not None] if hilo else []
    low_winners = [index for index in (0, 1) if made and lows[index] == max(made)]
    shares = [Fraction(0), Fraction(0)]
    for index in high_winners:
        shares[index] += Fraction(1 if low_winners else 2, 2 * len(high_winners))
    for index in low_winners:
        shares[index] += Fraction(1, 2 * len(low_winners))
    return shares, high_winners, low_winners


def _flop_brute_force(game, hero, villains, flop):
    """Every villain hand, turn and river (each turn and river in order, as PQL deals them) in
    plain Python. Returns, per villain hand, the sums of the river selectors' values over its
    deals and its deal count, and over every villain hand the turn selectors' shares of the deals
    (HvHequity(hero, turn) > 1/2, hero's hand type on the turn two pair or better)."""
    hilo = game.endswith("8")
    hero_cards, board = naive.cards(hero), naive.cards(flop)
    hero_values, hero_turn_types = {}, {}
    per_villain = {}
    turn_sums = [0, 0]
    deals = 0
    for villain in villains:
        villain_cards = naive.cards(villain)
        deck = [card for card in range(52) if card not in {*board, *hero_cards, *villain_cards}]
        shares_by_turn: dict[int, list] = {turn: [] for turn in deck}
        river_sums = [Fraction(0)] * 6
        for turn, river in combinations(deck, 2):  # a board set, dealt in both orders
            full = board + [turn, river]
            if (turn, river) not in hero_values:
                hero_values[turn, river] = (naive.best_high(hero_cards, full),
                                            naive.best_low(hero_cards, full) if hilo else None)
            villain_values = (naive.best_high(villain_cards, full), naive.best_low(villain_cards, full) if hilo else None)
            highs, lows = (hero_values[turn, river][0], villain_values[0]), (hero_values[turn, river][1],
                                                                              villain_values[1])
            shares, high_winners, low_winners = _showdown(highs, lows, hilo)
            shares_by_turn[turn].append(shares[0])
            shares_by_turn[river].append(shares[0])
            outcomes = (shares[0], high_winners == [0], high_winners == [0, 1], low_winners == [1], shares[0] == 1,
                        shares[1])
            river_sums = [total + 2 * value for total, value in zip(river_sums, outcomes)]
        per_villain[villain] = (river_sums, 2 * len(list(combinations(deck, 2))))
        for turn, shares in shares_by_turn.items():
            if turn not in hero_turn_types:
                hero_turn_types[turn] = naive.best_high(hero_cards, board + [turn])[0]
            turn_sums[0] += len(shares) * (sum(shares) / len(shares) > Fraction(1, 2))
            turn_sums[1] += len(shares) * (hero_turn_types[turn] >= naive.TWO_PAIR)
            deals += len(shares)
    return per_villain, [Fraction(count, deals) for count in turn_sums], deals


def _river_answers(per_villain, kept):
    """The river selectors' answers over the deals of the villain hands ``kept``."""
    totals = [sum(per_villain[villain][0][index] for villain in kept) for index in range(6)]
    deals = sum(per_villain[villain][1] for villain in kept)
    return [total / deals for total in totals]


@pytest.mark.parametrize("game, hero, villains, flop", FLOP_CASES)
def test_hand_against_a_small_range_on_a_flop_equals_the_brute_force(game, hero, villains, flop, monkeypatch):
    """The river functions (answered from calc's tallies: every selector a river outcome) and
    HvHequity and hand types on the turn (the block evaluator), with and without a where clause on
    the villain's hands, as fractions."""
    from omaha_equity.pql import river_tallies

    tallied = []
    answer = river_tallies.answer
    monkeypatch.setattr(river_tallies, "answer", lambda query: tallied.append(query) or answer(query))
    bindings = f" from game='{game}', hero='{hero}', villain='{', '.join(villains)}', board='{flop}'"
    where = f" where inRange(villain, '{', '.join(villains[:2])}')"
    per_villain, turn_all, deals = _flop_brute_force(game, hero, villains, flop)
    for clause, expected in (("", _river_answers(per_villain, villains)),
                             (where, _river_answers(per_villain, villains[:2]))):
        tallied.clear()
        fast = run("select " + RIVER_SELECTORS + bindings + clause)
        assert len(tallied) == 1 and fast.method == "exact"
        assert [selector.fraction for selector in fast.selectors] == expected
        assert fast.deal_count == deals
        blocks = run("select " + RIVER_SELECTORS + ", count(HvHequity(hero, turn) > 0.5), "
                     "count(minHandType(hero, turn, twopair))" + bindings + clause)
        assert len(tallied) == 1
        assert [selector.fraction for selector in blocks.selectors[:6]] == expected
        assert (blocks.deal_count, blocks.where_share) == (fast.deal_count, fast.where_share)
        if not clause:
            assert [selector.fraction for selector in blocks.selectors[6:]] == turn_all
    assert fast.where_share == pytest.approx(2 / 3, abs=1e-12)
    # consistency with calc on the same inputs, exactly
    calc = calculate_equity([hero, villains[0]], flop, game=game, method="exact")
    alone = run(f"select avg(riverEquity(hero)) from game='{game}', hero='{hero}', villain='{villains[0]}', "
                f"board='{flop}'")
    assert alone.selectors[0].fraction == calc.players[0].equity_fraction


@pytest.mark.parametrize("game, hero, board", [("omaha", "AsAhKsKh", "Qd7h2s5c"), ("omaha8", "As2sKd3h", "Qd7h4s5c")])
def test_exact_river_query_on_a_range_equals_calc(game, hero, board):
    """The tallies' answers are calc's counts over the same deals: a hand against a range of a
    few hundred hands on a turn, every river."""
    calc = calculate_equity([hero, "KK"], board, game=game, method="exact")
    result = run(f"select avg(riverEquity(hero)), count(winsHi(villain)), count(scoops(hero)), "
                 f"count(tiesLo(villain)) from game='{game}', hero='{hero}', villain='KK', board='{board}'")
    hero_row, villain_row = calc.players
    assert [selector.fraction for selector in result.selectors] == [
        hero_row.equity_fraction, Fraction(villain_row.hi_win_count, villain_row.weight_total),
        Fraction(hero_row.win_count, hero_row.weight_total), Fraction(villain_row.lo_tie_count, calc.weight_total)]
    assert result.deal_count == calc.sample_count


def test_flop_equity_equals_calc_and_monte_carlo_is_within_four_standard_errors():
    query = "select avg(HvHequity(hero, flop)), avg(riverEquity(hero)) from hero='AsAhKsKh', villain='JdTd9c8c', " \
            "board='Qd7h2s'"
    exact = run(query)
    calc = calculate_equity(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", method="exact").players[0]
    assert exact.selectors[0].value == pytest.approx(calc.equity, abs=1e-12)
    assert exact.selectors[1].fraction == calc.equity_fraction
    sampled = run(query + ", trials=20000, seed=7").selectors[1]
    assert abs(sampled.value - calc.equity) < 4 * sampled.standard_error


def test_range_filter_count_equals_the_range_share_on_a_board():
    board = "Qh7d2c5s9d"
    result = run(f"select count(inRange(villain, '{{set+}}')), count(category(villain, river, '{{set+}}')) "
                 f"from villain='AA,QQ,77,K7', board='{board}'")
    whole = parse_range("AA,QQ,77,K7", excluded=board).size
    part = parse_range("(AA,QQ,77,K7):{set+}", board=board).size
    assert result.selectors[0].fraction == result.selectors[1].fraction == Fraction(part, whole)


def test_where_weights_and_flop_categories_and_board_functions():
    result = run("select count(flopHandCategory(hero) = flopset), count(pairedBoard(river)), "
                 "avg(boardSuitCount(flop)), count(turnCard() = 'As') from hero='QsQc9h8h', villain='AdKdJc3c', "
                 "board='Qh7d2c' where not pairedBoard(turn)")
    set_share, paired, suits, turn_ace = result.selectors
    assert set_share.fraction == 1
    assert suits.fraction == 3
    # 41 turns, of which Qd, three sevens and three deuces pair the flop: the where clause keeps 34
    assert result.where_share == pytest.approx(34 / 41)
    assert turn_ace.fraction == Fraction(1, 34)
    assert 0 < paired.value < 1


@pytest.mark.parametrize("query, message", [
    ("select avg(riverEquty(hero)) from hero='AA**', villain='15%'",
     "unknown function 'riverEquty' at column 12; did you mean riverEquity?"),
    ("select avg(riverEquity(heor)) from hero='AA**', villain='15%'", "unknown player 'heor' at column 24"),
    ("select count(riverEquity(hero)) from hero='AA**'", "count needs a true-or-false expression"),
    ("select avg(riverEquity(hero) from hero='AA**'", "unexpected 'from': expected ')'"),
    ("select count(handType(hero, preflop) = flush) from hero='AA**'", "needs a flop, turn or river"),
    ("select avg(riverEquity(hero)) from hero='AA**', game='omahahi6'", "unknown game 'omahahi6'"),
    ("select avg(riverEquity(hero)) from hero='AA**', villain='*', exact", "beyond the ceiling"),
])
def test_errors_name_the_token_and_its_column(query, message):
    with pytest.raises(PqlError) as caught:
        run(query)
    assert message in str(caught.value)


def test_command_line_answers_and_refuses_with_exit_code_two():
    runner = CliRunner()
    answer = runner.invoke(main, ["pql", "select count(winsHi(hero)) as w from hero='AsAhKsKh', "
                                  "villain='JdTd9c8c', board='Qd7h2s5c'", "-f", "csv"])
    assert answer.exit_code == 0
    assert answer.output.splitlines()[1] == "w,count,,0.9,9/10,0.0"
    refused = runner.invoke(main, ["pql", "select avg(riverEquty(hero)) from hero='AA**', villain='15%'"])
    assert refused.exit_code == 2
    assert "did you mean riverEquity?" in refused.output
    assert "\n             ^" in refused.output


def test_propokertools_omaha_examples_run():
    """The two Omaha queries of ProPokerTools' PQL overview (propokertools.com/oracle_help/pql); the
    page prints no answer for them, so they are checked for sense only."""
    suck = run("select count(HvHequity(villain, turn) > 0.5 and winsHi(hero)) as suckAndResuck "
               "from game='omahahi', hero='AA**', villain='****' where HvHequity(hero, flop) > 0.5",
               trials=2000, seed=1)
    assert 0 < suck.selectors[0].value < 0.2 and 0.5 < suck.where_share < 1
    quartered = run("select count(tiesLo(hero)) as lostSomeChips from game='omaha8', hero='A2**', villain1='15%', "
                    "villain2='15%' where nutLo(hero, river) and not (winsHi(hero) or tiesHi(hero))",
                    trials=20000, seed=1)
    assert 0.3 < quartered.selectors[0].value < 0.9
