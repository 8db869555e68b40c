"""The PokerStars text reader on real files (tests/data/pokerstars, from the fpdb project) and on
malformed copies of them: every hand parses, amounts become integer chips, bad hands are located."""

from __future__ import annotations

from pathlib import Path

import pytest

from omaha_equity.hand_history.pokerstars import parse_pokerstars_text, read_pokerstars
from omaha_equity.hand_history.errors import HandHistoryError, NotOmahaError
from omaha_equity.hand_history.sessions import hand_history_files, read_session

DATA = Path(__file__).parent / "data" / "pokerstars"
FILES = sorted(DATA.glob("*.txt"))


def _hands(name):
    hands = read_pokerstars(DATA / name)
    assert not [hand for hand in hands if isinstance(hand, HandHistoryError)]
    return hands


def test_every_real_hand_parses():
    counts = {path.name: len(_hands(path.name)) for path in FILES}
    assert sum(counts.values()) == 97
    assert counts["PLO8-6max-USD-0.01-0.02-200911.txt"] == 15
    assert counts["NLO8-USD-STT-201109.Knockout.sample.txt"] == 73
    assert counts["PLO-FR-USD-0.01-0.02-201006.sidepots.txt"] == 3


@pytest.mark.parametrize("name, game, structure, currency, stakes", [
    ("5-Card-PLO-6max-USD-3.00-6.00-201303.txt", "omaha5", "pot-limit", "USD", (300, 600)),
    ("6-Card-PLO-6max-USD-0.10-0.25-202201.multiway.allin.deadcards.txt", "omaha6", "pot-limit", "USD", (10, 25)),
    ("NLO8-6max-MTT-USD-37.50-37.50-7-201410.progressive.old.txt", "omaha8", "no-limit", None, (20, 40)),
    ("PL-Courchevel-6max-USD-3.00-6.00-201303.txt", "courchevel", "pot-limit", "USD", (10, 25)),
    ("PLO-6max-USD-0.50-1.00-201204.shows.2.txt", "omaha", "pot-limit", "USD", (50, 100)),
    ("PLO8-6max-USD-0.01-0.02-200911.txt", "omaha8", "pot-limit", "USD", (1, 2)),
])
def test_game_line_gives_game_structure_and_stakes_in_smallest_chips(name, game, structure, currency, stakes):
    hand = _hands(name)[0]
    assert (hand.game, hand.structure, hand.currency, hand.stakes) == (game, structure, currency, stakes)


def test_tournament_chips_have_no_currency_and_keep_their_id():
    hand = _hands("NLO8-6max-MTT-USD-37.50-37.50-7-201410.progressive.old.txt")[0]
    assert hand.tournament_id == "986831247"
    assert [seat.stack for seat in hand.seats] == [3375, 4116, 2714, 3404, 2391, 2000]
    assert hand.collected_by("Player3") == 4300 and hand.rake == 0


def test_all_in_raise_to_and_uncalled_bet_returned():
    hand = _hands("6-Card-PLO-6max-USD-0.10-0.25-202201.multiway.allin.deadcards.txt")[0]
    last = hand.actions[-2:]
    assert (last[0].name, last[0].kind, last[0].amount, last[0].all_in) == ("Player1", "raise", 6390, True)
    assert (last[1].name, last[1].kind, last[1].amount, last[1].all_in) == ("Hero", "call", 1191, True)
    assert hand.uncalled == {"Player1": 1544}


def test_side_pots_collected_and_stated_after_rake():
    hand = _hands("PLO-FR-USD-0.01-0.02-201006.sidepots.txt")[1]
    assert [(entry.name, entry.amount, entry.pot_index) for entry in hand.collected] == [
        ("Player2", 29, 2), ("Player0", 88, 1), ("Player0", 235, 0)]
    assert (hand.total_pot, hand.rake, hand.stated_pots) == (370, 18, [235, 88, 29])


def test_extra_big_blind_posts_of_new_players_are_live_posts():
    hand = _hands("PLO-FR-USD-0.01-0.02-201006.sidepots.txt")[0]
    assert [(post.name, post.kind, post.amount, post.dead) for post in hand.posts] == [
        ("Player4", "small blind", 1, 0), ("Player6", "big blind", 2, 0),
        ("Player3", "big blind", 2, 0), ("Player2", "big blind", 2, 0)]


def test_courchevel_exposed_first_card_and_board():
    hand = _hands("PL-Courchevel-6max-USD-3.00-6.00-201303.txt")[0]
    assert hand.boards == ["2s 3h 4h 5c Qs"]
    assert hand.hole_cards["Player1"] == "6c Kh 9s 2d 5h"


def test_hilo_halves_collected_separately_and_mucked_cards_from_summary():
    hands = _hands("PLO8-6max-USD-0.01-0.02-200911.txt")
    by_id = {hand.hand_id: hand for hand in hands}
    assert [entry.amount for entry in by_id["35875159084"].collected] == [233, 232]
    muck = by_id["35875293439"]
    assert muck.mucked == {"supermeXXX"} and muck.hole_cards["supermeXXX"] == "9h 9s 4c Kc"


def test_partial_show_is_kept_as_shown():
    hand = _hands("PLO-6max-USD-0.50-1.00-201204.shows.2.txt")[0]
    assert hand.shown["plr5"] == "Ah As"


def test_cash_out_and_summary_won():
    hand = _hands("6-Card-PLO-6max-USD-0.10-0.25-202201.multiway.allin.deadcards.txt")[0]
    assert hand.cash_outs == {"Hero": (3572, 36), "Player1": (5771, 58)}
    assert hand.summary_won["Hero"] == 5186 and hand.summary_won["Player1"] == 5185
    assert hand.stated_pots == [2238, 8133]


RUN_TWICE = """\
PokerStars Hand #1000000003:  Omaha Pot Limit ($0.05/$0.10 USD) - 2024/07/14 13:17:00 ET
Table 'Test' 6-max Seat #2 is the button
Seat 1: Hero ($10 in chips)
Seat 2: Villain ($8 in chips)
Villain: posts small blind $0.05
Hero: posts big blind $0.10
*** HOLE CARDS ***
Dealt to Hero [As Ad Kc Kd]
Villain: raises $0.20 to $0.30
Hero: raises $0.60 to $0.90
Villain: calls $0.60
*** FLOP *** [7c 7h 4h]
Hero: bets $1.80
Villain: raises $5.30 to $7.10 and is all-in
Hero: calls $5.30
*** FIRST TURN *** [7c 7h 4h] [7s]
*** FIRST RIVER *** [7c 7h 4h 7s] [5h]
*** SECOND TURN *** [7c 7h 4h] [6s]
*** SECOND RIVER *** [7c 7h 4h 6s] [6h]
*** FIRST SHOW DOWN ***
Villain: shows [Qh Qd 2c 3d] (a full house, Sevens full of Queens)
Hero: shows [As Ad Kc Kd] (a full house, Sevens full of Aces)
Hero collected $7.96 from pot
*** SECOND SHOW DOWN ***
Villain: shows [Qh Qd 2c 3d] (two pair, Queens and Sevens)
Hero: shows [As Ad Kc Kd] (two pair, Aces and Sevens)
Hero collected $7.96 from pot
*** SUMMARY ***
Total pot $16 | Rake $0.08
Hand was run twice
FIRST Board [7c 7h 4h 7s 5h]
SECOND Board [7c 7h 4h 6s 6h]
Seat 1: Hero (big blind) showed [As Ad Kc Kd] and won ($7.96), and won ($7.96)
Seat 2: Villain (button) (small blind) showed [Qh Qd 2c 3d] and lost
"""


def test_run_it_twice_boards_and_collected_per_run():
    [hand] = parse_pokerstars_text(RUN_TWICE, "run-twice.txt")
    assert hand.run_count == 2
    assert hand.boards == ["7c 7h 4h 7s 5h", "7c 7h 4h 6s 6h"]
    assert [(entry.amount, entry.run_index) for entry in hand.collected] == [(796, 0), (796, 1)]
    assert hand.summary_won["Hero"] == 1592


def _real_text(name="PLO8-6max-USD-0.01-0.02-200911.txt"):
    return (DATA / name).read_text()


def test_bad_amount_names_file_hand_and_line_and_other_hands_go_on():
    text = _real_text().replace("UnderMeSensi: bets $0.08", "UnderMeSensi: bets $0.08.5", 1)
    results = parse_pokerstars_text(text, "broken.txt")
    errors = [result for result in results if isinstance(result, HandHistoryError)]
    assert len(results) == 15 and len(errors) == 1
    [error] = errors
    line = text.splitlines().index("UnderMeSensi: bets $0.08.5") + 1
    assert (error.source, error.hand_id, error.line_number) == ("broken.txt", "35874998500", line)
    assert "0.08.5" in str(error)


def test_fraction_of_a_cent_is_a_bad_amount():
    text = _real_text().replace("Hero: calls $0.05", "Hero: calls $0.055", 1)
    errors = [result for result in parse_pokerstars_text(text, "cents.txt") if isinstance(result, HandHistoryError)]
    assert len(errors) == 1 and "not a whole number of a cent" in errors[0].reason


def test_truncated_hand_is_reported_and_the_others_go_on():
    lines = _real_text().splitlines()
    cut = lines.index("*** SUMMARY ***")  # the first hand loses its summary
    text = "\n".join(lines[:cut]) + "\n\n\n" + "\n".join(lines[cut + 11:])
    results = parse_pokerstars_text(text, "cut.txt")
    errors = [result for result in results if isinstance(result, HandHistoryError)]
    assert len(results) == 15 and len(errors) == 1
    assert errors[0].hand_id == "35874998500" and "truncated" in errors[0].reason


def test_unknown_action_is_an_error_with_its_line():
    text = _real_text().replace("tiger48475: folds", "tiger48475: dances", 1)
    [error] = [result for result in parse_pokerstars_text(text, "x.txt") if isinstance(result, HandHistoryError)]
    assert "dances" in error.reason and error.line_number == text.splitlines().index("tiger48475: dances") + 1


def test_hold_em_hand_is_set_apart_as_not_omaha():
    text = _real_text().replace("Omaha Hi/Lo Pot Limit", "Hold'em No Limit", 1)
    [error] = [result for result in parse_pokerstars_text(text, "x.txt") if isinstance(result, HandHistoryError)]
    assert isinstance(error, NotOmahaError) and "not an Omaha game" in error.reason and error.line_number == 1


def test_folder_reads_every_hand_history_file():
    assert [path.name for path in hand_history_files([DATA])] == [path.name for path in FILES]
    assert sum(1 for hand in read_session([DATA]) if not isinstance(hand, HandHistoryError)) == 97
