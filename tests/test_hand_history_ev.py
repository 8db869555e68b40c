"""Hand-history replay and all-in EV (issue 7, `ev`) on the real PokerStars files of
tests/data/pokerstars (from the fpdb project): every hand replays through the rules engine and
pays exactly what the file says; the all-in EVs are pinned and checked against a brute force
over the remaining boards written here with the slow reference evaluator (tests/naive.py)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from click.testing import CliRunner

from naive_ev import brute_force_ev as _brute_force_ev
from omaha_equity.cards import parse_cards
from omaha_equity.cli import main
from omaha_equity.ev.hand_ev import evaluate_hand, summarize
from omaha_equity.hand_history.pokerstars import parse_pokerstars_text, read_pokerstars
from omaha_equity.rules import StatedRake
from omaha_equity.hand_history.file_replay import replay_pokerstars_hand
from omaha_equity.ev.session import analyze_session

DATA = Path(__file__).parent / "data" / "pokerstars"


def _all_hands():
    return [hand for path in sorted(DATA.glob("*.txt")) for hand in read_pokerstars(path)]


def _hand(hand_id):
    return next(hand for hand in _all_hands() if hand.hand_id == hand_id)


# The converted file's big blind "collected $15": the $5 of his blind nobody matched (returned
# by the replay) and the $10 pot.
UNMATCHED_COLLECTED = {("3126037878", "PLR_7233719GD"): 500}


def test_every_real_hand_replays_and_pays_what_the_file_says_each_player_collected():
    # The converted file books its unmatched bet as collected (no "Uncalled bet" line): what
    # each player gets back, pots and uncalled chips together, is what the file says.
    hands = _all_hands()
    assert len(hands) == 97
    for hand in hands:
        played = replay_pokerstars_hand(hand)  # raises on any difference
        for name in hand.names:
            index = played.names.index(name)
            collected = hand.collected_by(name) if any(c.name == name for c in hand.collected) \
                else hand.summary_won.get(name, 0)
            unmatched = UNMATCHED_COLLECTED.get((hand.hand_id, name), 0)
            assert played.won[index] + unmatched == collected
        assert sum(played.won) + sum(played.pot_rakes) == sum(played.committed)
        assert sum(played.pot_rakes) == hand.rake


def test_side_pots_after_the_stated_rake_of_each_pot():
    played = replay_pokerstars_hand(_hand("22865231671"))
    # Main 2.47, side pots 0.93 and 0.30 before rake; the file: 2.35, 0.88, 0.29 after it.
    assert played.pot_amounts == (247, 93, 30) and played.pot_rakes == (12, 5, 1)


def test_stated_rake_without_stated_pots_is_shared_in_proportion():
    assert StatedRake(10).split([300, 100]) == [8, 2]
    assert StatedRake(18, (235, 88, 29)).split([247, 93, 30]) == [12, 5, 1]
    assert StatedRake(50).split([191700]) == [50]


def _evs(hand_id):
    hand_ev = evaluate_hand(replay_pokerstars_hand(_hand(hand_id)))
    return {player.name: player.all_in_ev for player in hand_ev.players if player.all_in_ev is not None}


def test_heads_up_flop_all_in_ev_after_rake_is_pinned():
    # 5 Card Omaha, all in on Tc 7s 8h for $958.50 each, rake $0.50 from a $1917 pot; the
    # values equal _brute_force_ev(["Td9c7d8cQd", "4cJc4sKcJd"], [95850, 95850], [], "Tc7s8h",
    # [50]) (741 boards, too slow for the suite: the four-way test below runs the brute force).
    evs = _evs("96318916658")
    assert evs["Hero"] == Fraction(39288250, 247) and evs["Player0"] == Fraction(8049300, 247)
    assert evs["Hero"] + evs["Player0"] == 191700 - 50


def test_four_way_flop_all_in_with_two_side_pots_and_dead_money_matches_brute_force():
    # Player2 all in for 0.29, Player5 for 0.44, Hero and Player0 for 0.80; Player6 folded 0.20
    # and Player3 0.01 (dead money in the main pot); rake 0.06 / 0.03 / 0.03 by pot.
    evs = _evs("60920749213")
    expected = _brute_force_ev(["5s7dKd9h", "3d5c8h7s", "2c4c3s7c", "6h3hTc9c"], [29, 44, 80, 80], [20, 1],
                               "7h8s4s", [6, 3, 3])
    assert [evs["Player2"], evs["Player5"], evs["Hero"], evs["Player0"]] == expected
    assert evs["Hero"] == Fraction(5933, 132) and evs["Player0"] == Fraction(3421047, 24112)


def test_preflop_all_in_evs_are_pinned():
    evs = _evs("22865231671")
    assert evs == {"Player2": Fraction(154243696781, 1574524224), "Hero": Fraction(5322411365, 93117024),
                   "Player0": Fraction(2766132947, 32802588), "Player4": Fraction(278484345833, 2474252352)}
    assert sum(evs.values()) == 370 - 18  # every pot after its rake is someone's


def test_all_in_ev_agrees_with_pokerstars_cash_out_value():
    # The 6-card hand was cashed out: PokerStars paid its own all-in value minus a fee, so the
    # cash-out plus the fee is their EV of the same spot; ours agrees to the cent.
    hand = _hand("232772509770")
    evs = _evs("232772509770")
    for name, (paid, fee) in hand.cash_outs.items():
        assert abs(evs[name] - (paid + fee)) <= 1


def test_luck_is_won_minus_ev_and_cash_out_counts_as_won():
    hand_ev = evaluate_hand(replay_pokerstars_hand(_hand("232772509770")))
    hero = next(player for player in hand_ev.players if player.name == "Hero")
    assert hero.won == 3572 and hero.luck == 3572 - hero.all_in_ev
    assert hand_ev.all_in_street == "preflop" and hand_ev.evaluated


def test_all_in_with_a_partial_show_is_not_evaluated_and_says_why():
    hand_ev = evaluate_hand(replay_pokerstars_hand(_hand("1337")))
    assert hand_ev.all_in_street == "flop" and not hand_ev.evaluated
    assert "plr5" in hand_ev.note
    assert all(player.all_in_ev is None for player in hand_ev.players)


def test_river_all_in_is_not_an_all_in_before_the_river():
    hand_ev = evaluate_hand(replay_pokerstars_hand(_hand("123520812521")))
    assert hand_ev.all_in_street is None


def test_summary_net_won_minus_net_ev_is_the_luck_of_all_in_hands():
    hands = [evaluate_hand(replay_pokerstars_hand(hand)) for hand in _all_hands()]
    [hero] = [summary for summary in summarize(hands) if summary.name == "Hero" and summary.unit == "USD"]
    luck = sum(player.luck * hand.chip_value for hand in hands if hand.unit == "USD" for player in hand.players
               if player.name == "Hero" and player.luck is not None)
    assert hero.luck == luck and hero.all_in_hand_count == 4 and hero.hand_count == 21


def test_session_of_the_real_folder_counts_every_hand():
    session = analyze_session([DATA])
    assert (session.read_count, session.replayed_count, session.all_in_count, session.evaluated_count,
            session.failed_count) == (97, 97, 26, 25, 0)


RUN_TWICE = (Path(__file__).parent / "test_pokerstars.py").read_text().split('RUN_TWICE = """\\\n')[1].split('"""')[0]


def test_run_it_twice_replays_and_ev_covers_the_whole_pot():
    # Each run is a random run-out, so the EV of running twice is that of running once over the
    # whole pot (16.00 less 0.08 rake); the pinned values equal _brute_force_ev(["AsAdKcKd",
    # "QhQd2c3d"], [800, 800], [], "7c7h4h", [8]).
    [hand] = parse_pokerstars_text(RUN_TWICE, "run-twice.txt")
    played = replay_pokerstars_hand(hand)
    assert played.boards == (parse_cards("7c7h4h7s5h"), parse_cards("7c7h4h6s6h"))
    assert dict(zip(played.names, played.won)) == {"Hero": 1592, "Villain": 0}
    hand_ev = evaluate_hand(played)
    evs = {player.name: player.all_in_ev for player in hand_ev.players}
    assert hand_ev.all_in_street == "flop"
    assert evs == {"Hero": Fraction(289346, 205), "Villain": Fraction(37014, 205)}
    assert sum(evs.values()) == 1600 - 8


def _broken_copy(tmp_path, old, new, name="PLO8-6max-USD-0.01-0.02-200911.txt"):
    text = (DATA / name).read_text()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1))
    return path, text.replace(old, new, 1).splitlines()


def test_replay_that_pays_differently_from_the_file_fails_that_hand_only(tmp_path):
    path, _ = _broken_copy(tmp_path, "Hero collected $0.12 from pot", "Hero collected $0.13 from pot")
    session = analyze_session([path])
    assert (session.read_count, session.replayed_count, session.failed_count) == (15, 14, 1)
    [error] = session.failures
    assert error.hand_id == "35875219121" and "the file says 13" in error.reason


def test_illegal_action_names_the_engine_reason_and_the_line(tmp_path):
    # Pot limit: $3/$6 blinds, the most the button may raise to is $18.
    path, lines = _broken_copy(tmp_path, "Player0: raises $12 to $18", "Player0: raises $13 to $19",
                               "5-Card-PLO-6max-USD-3.00-6.00-201303.txt")
    session = analyze_session([path])
    [error] = session.failures
    assert error.line_number == lines.index("Player0: raises $13 to $19") + 1
    assert error.hand_id == "96318916658" and "maximum 1800" in error.reason


def test_cli_ev_on_the_real_folder_prints_hands_and_summary_and_exits_0():
    result = CliRunner().invoke(main, ["ev", str(DATA)])
    assert result.exit_code == 0, result.stderr
    assert "96318916658" in result.stdout and "1590.62" in result.stdout and "325.88" in result.stdout
    assert "hands read 97, replayed 97, all in before the river 26, evaluated 25, failed 0" in result.stderr


def test_cli_ev_json_holds_exact_evs_and_counts():
    result = CliRunner().invoke(main, ["ev", str(DATA / "5-Card-PLO-6max-USD-3.00-6.00-201303.txt"),
                                                       "-f", "json"])
    data = json.loads(result.stdout)
    assert data["counts"] == {"read": 1, "replayed": 1, "all_in": 1, "evaluated": 1, "failed": 0, "skipped": 0,
                              "cancelled": 0, "duplicates": 0}
    hero = next(player for player in data["hands"][0]["players"] if player["name"] == "Hero")
    assert hero["all_in_ev_exact"] == "39288250/247" and hero["won"] == 191650


def test_cli_ev_bad_hand_is_reported_others_go_on_exit_1(tmp_path):
    path, lines = _broken_copy(tmp_path, "tiger48475: folds", "tiger48475: folds $x")
    result = CliRunner().invoke(main, ["ev", str(path), "--all-hands", "-f", "csv"])
    assert result.exit_code == 1
    line = lines.index("tiger48475: folds $x") + 1
    assert f"{path}, line {line}, hand 35874998500" in result.stderr
    assert "failed 1" in result.stderr and "replayed 14" in result.stderr
    assert "35875409365" in result.stdout


def test_cli_ev_missing_file_is_a_usage_error():
    result = CliRunner().invoke(main, ["ev", "no-such-file.txt"])
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_phh_file_of_converted_hands_gives_the_same_evs_as_the_pokerstars_file(tmp_path):
    # The PokerStars hands written as PHH (with the file's record in winnings, _rake, ...) and
    # read back: one replay serves both formats, so every number is the same.
    from omaha_equity.hand_history import dumps_all
    from omaha_equity.hand_history.pokerstars_phh import to_hand_history

    source = DATA / "PLO-FR-USD-0.01-0.02-201006.sidepots.txt"
    path = tmp_path / "sidepots.phhs"
    path.write_text(dumps_all(to_hand_history(hand)[0] for hand in read_pokerstars(source)))
    from_phh = analyze_session([path])
    from_text = analyze_session([source])
    assert (from_phh.read_count, from_phh.replayed_count, from_phh.evaluated_count) == (3, 3, 2)
    assert [hand.hand_id for hand in from_phh.hands] == [hand.hand_id for hand in from_text.hands]
    for phh_hand, text_hand in zip(from_phh.hands, from_text.hands):
        assert phh_hand.players == text_hand.players
        assert phh_hand.chip_value == text_hand.chip_value == Fraction(1, 100)


PHH_ALL_IN = """\
variant = "PO"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = [
    "d dh p1 AsAhKsKh",
    "d dh p2 JdTd9c8c",
    "p2 cbr 6",
    "p1 cbr 18",
    "p2 cbr 54",
    "p1 cbr 162",
    "p2 cbr 200",
    "p1 cc",
    "d db Qd7h2s",
    "d db 3c",
    "d db 4d",
    "p1 sm AsAhKsKh",
    "p2 sm JdTd9c8c",
]
hand = "hu-1"
finishing_stacks = [400, 0]
"""


def test_phh_hand_all_in_preflop_is_checked_against_finishing_stacks_and_evaluated(tmp_path):
    # Heads-up p2 is the button: all in pre-flop for 200 each, AA KK vs J T 9 8 double-suited.
    from omaha_equity.equity.expected_chips import calculate_allin

    path = tmp_path / "hu.phh"
    path.write_text(PHH_ALL_IN)
    session = analyze_session([path])
    assert session.failed_count == 0 and session.evaluated_count == 1
    [hand] = session.hands
    evs = {player.name: player.all_in_ev for player in hand.players}
    expected = calculate_allin(["AsAhKsKh", "JdTd9c8c"], [200, 200], method="exact")
    assert evs == {"p1": expected.players[0].expected_exact, "p2": expected.players[1].expected_exact}
    assert hand.all_in_street == "preflop" and hand.unit == "chips"
    broken = tmp_path / "broken.phh"
    broken.write_text(PHH_ALL_IN.replace("finishing_stacks = [400, 0]", "finishing_stacks = [300, 100]"))
    [error] = analyze_session([broken]).failures
    assert error.hand_id == "hu-1" and "ends with stacks [400, 0], the file says [300, 100]" in error.reason


FIXED_LIMIT_DEAD_BLIND = """\
PokerStars Hand #2001: Omaha Hi/Lo Limit ($0.10/$0.20 USD) - 2010/01/01 10:00:00 ET
Table 'Test' 6-max Seat #1 is the button
Seat 1: A ($5 in chips)
Seat 2: B ($5 in chips)
Seat 3: C ($5 in chips)
Seat 4: D ($5 in chips)
B: posts small blind $0.05
C: posts big blind $0.10
D: posts small & big blinds $0.15
*** HOLE CARDS ***
Dealt to A [As Ad 8c 8h]
D: checks
A: raises $0.10 to $0.20
B: calls $0.15
C: calls $0.10
D: calls $0.10
*** FLOP *** [Ah 2c 7d]
B: bets $0.10
C: folds
D: raises $0.10 to $0.20
A: calls $0.20
B: calls $0.10
*** TURN *** [Ah 2c 7d] [Kc]
B: checks
D: bets $0.20
A: calls $0.20
B: folds
*** RIVER *** [Ah 2c 7d Kc] [3s]
D: checks
A: checks
*** SHOW DOWN ***
D: shows [4h 5h Ks Qd] (HI: a straight, Five high; LO: 5,4,3,2,A)
A: shows [As Ad 8c 8h] (HI: three of a kind, Aces; LO: 8,7,3,2,A)
D collected $1.80 from pot
*** SUMMARY ***
Total pot $1.85 | Rake $0.05
Board [Ah 2c 7d Kc 3s]
Seat 1: A (button) showed [As Ad 8c 8h] and lost with HI: three of a kind, Aces; LO: 8,7,3,2,A
Seat 2: B (small blind) folded on the Turn
Seat 3: C (big blind) folded on the Flop
Seat 4: D showed [4h 5h Ks Qd] and won ($1.80) with HI: a straight, Five high; LO: 5,4,3,2,A
"""


def test_fixed_limit_hand_with_a_dead_small_blind_replays():
    # "posts small & big blinds": the big blind is live (D may check), the small blind is dead.
    [hand] = parse_pokerstars_text(FIXED_LIMIT_DEAD_BLIND, "fixed.txt")
    assert hand.structure == "fixed-limit" and hand.stakes == (10, 20)
    assert [(post.name, post.amount, post.dead) for post in hand.posts][-1] == ("D", 15, 5)
    played = replay_pokerstars_hand(hand)
    assert dict(zip(played.names, played.committed)) == {"B": 40, "C": 20, "D": 65, "A": 60}
    assert dict(zip(played.names, played.won))["D"] == 180 and played.all_in_board_count is None


TOURNAMENT_ANTES = """\
PokerStars Hand #3001: Tournament #77, $10+$1 USD Omaha Pot Limit - Level V (50/100) - 2015/01/01 10:00:00 ET
Table '77 1' 9-max Seat #3 is the button
Seat 1: Short (450 in chips)
Seat 3: Big (1500 in chips)
Seat 5: Mid (1210 in chips)
Short: posts the ante 10
Big: posts the ante 10
Mid: posts the ante 10
Mid: posts small blind 50
Short: posts big blind 100
*** HOLE CARDS ***
Big: raises 200 to 300
Mid: raises 630 to 930
Short: calls 340 and is all-in
Big: raises 560 to 1490 and is all-in
Mid: calls 270 and is all-in
Uncalled bet (290) returned to Big
*** FLOP *** [2c 7d 9h]
*** TURN *** [2c 7d 9h] [Js]
*** RIVER *** [2c 7d 9h Js] [3d]
*** SHOW DOWN ***
Mid: shows [Ks Kh Qd Jc] (a pair of Kings)
Big: shows [As Ad 6c 5c] (a pair of Aces)
Big collected 1520 from side pot
Short: shows [Tc 8c 6d 6s] (a straight, Six to Ten)
Short collected 1350 from main pot
*** SUMMARY ***
Total pot 2870 Main pot 1350. Side pot 1520. | Rake 0
Board [2c 7d 9h Js 3d]
Seat 1: Short (big blind) showed [Tc 8c 6d 6s] and won (1350) with a straight, Six to Ten
Seat 3: Big (button) showed [As Ad 6c 5c] and won (1520) with a pair of Aces
Seat 5: Mid (small blind) showed [Ks Kh Qd Jc] and lost with a pair of Kings
"""


def test_tournament_antes_short_all_in_and_side_pot_replay_and_evaluate():
    [hand] = parse_pokerstars_text(TOURNAMENT_ANTES, "tournament.txt")
    assert hand.currency is None and [post.dead for post in hand.posts][:3] == [10, 10, 10]
    played = replay_pokerstars_hand(hand)
    assert played.pot_amounts == (1350, 1520) and played.unit == "chips"
    hand_ev = evaluate_hand(played)
    evs = {player.name: player.all_in_ev for player in hand_ev.players}
    assert hand_ev.all_in_street == "preflop" and hand_ev.evaluated
    assert sum(evs.values()) == 2870 and 0 < evs["Short"] < 1350


def test_cli_ev_skips_hands_of_other_games_without_failing(tmp_path):
    # A mixed-game file: a Hold'em hand is counted as skipped, the exit code stays 0.
    text = (DATA / "PLO8-6max-USD-0.01-0.02-200911.txt").read_text()
    path = tmp_path / "mixed.txt"
    path.write_text(text.replace("Omaha Hi/Lo Pot Limit", "Hold'em No Limit", 1))
    result = CliRunner().invoke(main, ["ev", str(path)])
    assert result.exit_code == 0
    assert "hands read 15, replayed 14, all in before the river 0, evaluated 0, failed 0, skipped 1 (not Omaha)" \
        in result.stderr
