"""PHH hand histories: reading and writing the specification's fields and action notation,
replaying hands through the rules engine (the WSOP 2023 Event #43 hands to their finishing
stacks), and the errors that name the file, hand, field or action."""

from decimal import Decimal
from pathlib import Path

import pytest

from omaha_equity.cards import parse_cards
from omaha_equity.hand_history import (HandHistory, PhhError, ReplayError, dumps, dumps_all, load, load_all, loads,
                                       loads_all, parse_action, replay)

WSOP = Path(__file__).resolve().parent / "data" / "wsop-2023-43"
WSOP_FILES = sorted(WSOP.glob("*.phh"))


def three_handed(**changes):
    fields = dict(variant="PO", antes=[0, 0, 0], blinds_or_straddles=[5, 10, 0], min_bet=10,
                  starting_stacks=[1000, 1000, 1000], actions=[])
    fields.update(changes)
    return HandHistory(**fields)


@pytest.mark.parametrize("path", WSOP_FILES, ids=lambda path: path.stem)
def test_wsop_hand_replays_to_its_finishing_stacks(path):
    hand_history = load(path)
    result = replay(hand_history)
    assert result.complete
    assert result.finishing_stacks == hand_history.finishing_stacks
    assert sum(result.finishing_stacks) == sum(hand_history.starting_stacks)


def test_wsop_files_are_the_ten_hands_of_both_variants():
    variants = [load(path).variant for path in WSOP_FILES]
    assert variants.count("FO/8") == 6 and variants.count("PO") == 4


# ---------------------------------------------------------------------------- action notation


def test_action_notation_parses_every_omaha_action():
    assert parse_action("d dh p3 AsKd????").cards == (*parse_cards("AsKd"), None, None)
    assert parse_action("d dh p3 AsKd????").player == 3
    assert parse_action("d db 3s7hKs").cards == parse_cards("3s7hKs")
    raise_action = parse_action("  p3   cbr 500 # a pot-sized raise ")
    assert (raise_action.actor, raise_action.verb, raise_action.player, raise_action.amount) == ("p3", "cbr", 3, 500)
    assert raise_action.commentary == "a pot-sized raise"
    assert parse_action("p2 cbr 0.25").amount == Decimal("0.25")
    assert parse_action("p1 cc").verb == "cc" and parse_action("p1 f").verb == "f"
    assert parse_action("p1 sm").cards is None  # mucks
    assert parse_action("p1 sm -").show_dealt
    assert parse_action("p1 sm AsKsQsJs").known_cards == parse_cards("AsKsQsJs")
    assert parse_action("# burn card 6s exposed").is_no_op and parse_action("").is_no_op


@pytest.mark.parametrize("text, expected", [
    ("p3 rase 500", "unknown action 'rase'"),
    ("p3 cbr", "expected 'pN cbr AMOUNT'"),
    ("p3 cbr lots", "bad amount 'lots'"),
    ("d dh AsKs", "expected 'd db CARDS' or 'd dh pN CARDS'"),
    ("d db AsK", "two characters per card"),
    ("d db AsKx", "unknown card 'Kx'"),
    ("q3 f", "bad player 'q3'"),
    ("p0 f", "bad player 'p0'"),
    ("p1 f now", "'f' takes no arguments"),
])
def test_a_malformed_action_says_what_was_expected(text, expected):
    with pytest.raises(ValueError, match=expected):
        parse_action(text)


# ---------------------------------------------------------------------------- fields


@pytest.mark.parametrize("changes, expected", [
    (dict(antes=[0, 0]), r"field 'antes': expected 3 values \(one per player\), got 2"),
    (dict(min_bet=None), "missing required field 'min_bet' for variant 'PO'"),
    (dict(small_bet=2, big_bet=4), "field 'small_bet' is not used by variant 'PO'"),
    (dict(variant="NT"), "unknown variant 'NT'"),
    (dict(bring_in=1), "field 'bring_in' is for stud games"),
    (dict(starting_stacks=[1000, 0, 1000]), "stack 2 is 0"),
    (dict(players=["a", "b"]), "field 'players': expected 3 values"),
    (dict(antes=[0, -1, 0]), r"field 'antes': value 2 is -1"),
    (dict(min_bet=Decimal("NaN")), "field 'min_bet': expected a finite number >= 0, got NaN"),
    (dict(antes=[0, Decimal("Infinity"), 0]), r"field 'antes': value 2 is Infinity, expected a finite number"),
    (dict(day="monday"), "field 'day': expected an integer"),
    (dict(actions=["p1 f", "p4 f"]), r"action 1 'p4 f': no player p4 at a table of 3"),
    (dict(actions=["p1 f", "p2 x"]), r"action 1 'p2 x': unknown action 'x'"),
    (dict(user_defined_fields={"die": 3}), "user-defined field 'die': names must begin with '_'"),
])
def test_a_hand_that_breaks_the_spec_names_the_field_or_action(changes, expected):
    with pytest.raises(PhhError, match=expected):
        three_handed(**changes)


def test_fixed_limit_needs_small_and_big_bets_and_no_min_bet():
    with pytest.raises(PhhError, match="missing required field 'small_bet' for variant 'FO/8'"):
        three_handed(variant="FO/8", min_bet=None)
    with pytest.raises(PhhError, match="field 'min_bet' is not used by variant 'FO/8'"):
        three_handed(variant="FO/8", small_bet=10, big_bet=20)


def test_a_file_error_names_the_file_and_the_hand(tmp_path):
    path = tmp_path / "hands.phhs"
    good = dumps(three_handed())
    bad = good.replace("antes = [0, 0, 0]", "antes = [0, 0]")
    path.write_text(f"[1]\n{good}\n[2]\n{bad}")
    with pytest.raises(PhhError, match=r"hands.phhs, hand \[2\]: field 'antes': expected 3 values"):
        load_all(path)
    (tmp_path / "typo.phh").write_text(good + "fnishing_stacks = [1, 2, 3]\n")
    with pytest.raises(PhhError, match=r"typo.phh: unknown field 'fnishing_stacks'.*begin with '_'"):
        load(tmp_path / "typo.phh")
    (tmp_path / "broken.phh").write_text("variant = 'PO\n")
    with pytest.raises(PhhError, match="broken.phh: not valid TOML"):
        load(tmp_path / "broken.phh")


def test_optional_and_user_defined_fields_survive_a_write_and_read():
    import datetime

    hand = three_handed(author="Ann Author", event="Home game", city="Toronto", time=datetime.time(21, 30),
                        day=1, month=12, year=2026, hand=7, level=3, seats=[1, 4, 6], seat_count=6, table="A",
                        players=["Ann", "Bob", "Cy"], currency="CAD", currency_symbol="$", time_limit=30,
                        time_banks=[60, 60, 60], finishing_stacks=[1000, 1000, 1000],
                        user_defined_fields={"_note": "written by a test", "_dead_blinds": [0, 0, 5]},
                        actions=["d dh p1 AsKsQsJs # first", "p3 f"])
    text = dumps(hand)
    assert text.startswith('variant = "PO"\nante_trimming_status = false\nantes = [0, 0, 0]\n')
    assert loads(text) == hand


def test_a_phhs_file_holds_numbered_tables_and_reads_back_in_order():
    hands = [three_handed(hand=number) for number in (1, 2, 3)]
    text = dumps_all(hands)
    assert text.startswith("[1]\nvariant = \"PO\"") and "\n[3]\n" in text
    assert loads_all(text) == [("1", hands[0]), ("2", hands[1]), ("3", hands[2])]
    assert loads_all(dumps(hands[0])) == [(None, hands[0])]


def test_fractional_amounts_are_decimals_and_replay_in_the_smallest_unit():
    hand = loads("\n".join([
        'variant = "PO"', "antes = [0, 0, 0]", "blinds_or_straddles = [0.25, 0.5, 0]", "min_bet = 0.5",
        "starting_stacks = [50, 20.75, 50]",
        'actions = ["d dh p1 AsKsQsJs", "d dh p2 ????????", "d dh p3 2c3c4c5c", "p3 cbr 1.75", "p1 f", "p2 f"]',
    ]))
    assert hand.blinds_or_straddles == (Decimal("0.25"), Decimal("0.5"), 0)
    result = replay(hand)
    assert result.chip_scale == 100
    assert result.finishing_stacks == (Decimal("49.75"), Decimal("20.25"), Decimal("50.75"))


# ---------------------------------------------------------------------------- replay


def test_heads_up_the_button_posts_the_small_blind_and_acts_first_before_the_flop():
    # PHH reverse-assigns heads-up blinds: [1, 2] means p2 (the button) posts 1, p1 posts 2.
    hand = HandHistory(variant="PO", antes=[0, 0], blinds_or_straddles=[1, 2], min_bet=2,
                       starting_stacks=[100, 100],
                       actions=["d dh p1 AsKsQsJs", "d dh p2 2c3c4c5c", "p2 cc", "p1 cc", "d db 7h8h9d",
                                "p1 cbr 4", "p2 f"])
    result = replay(hand)
    assert result.hand.forced_bets.blinds == (2, 1) and result.hand.button == 1
    assert result.finishing_stacks == (102, 98)
    with pytest.raises(ReplayError, match=r"action 2 'p1 cc': it is p2's turn, not p1's"):
        replay(hand.replace(actions=hand.actions[:2] + ("p1 cc",)))


def test_an_illegal_action_stops_the_replay_with_its_index_and_reason():
    hand = three_handed(actions=["d dh p1 AsKsQsJs", "d dh p2 2c3c4c5c", "d dh p3 7h8h9dTd", "p3 cbr 36"])
    with pytest.raises(ReplayError, match=r"^action 3 'p3 cbr 36': raise to 36 is over the pot-limit maximum 35$"):
        replay(hand)
    try:
        replay(hand)
    except ReplayError as error:
        assert (error.action_index, error.action) == (3, "p3 cbr 36")


def test_players_may_show_before_an_all_in_board_is_dealt():
    # The specification's own example shows the hands after the all-in, before the river.
    hand = HandHistory(variant="PO", antes=[0, 0], blinds_or_straddles=[1, 2], min_bet=2, starting_stacks=[6, 100],
                       actions=["d dh p1 AsAhKsKh", "d dh p2 2c3c4c7d", "p2 cbr 6", "p1 cc", "p1 sm AsAhKsKh",
                                "p2 sm 2c3c4c7d", "d db 8s9sTd", "d db Jd", "d db Qh"])
    result = replay(hand)
    assert result.complete and result.finishing_stacks == (12, 94)


def test_a_history_that_stops_early_replays_as_far_as_it_goes():
    hand = three_handed(actions=["d dh p1 AsKsQsJs", "d dh p2 2c3c4c5c", "d dh p3 7h8h9dTd", "p3 cbr 35", "p1 f"])
    result = replay(hand)
    assert not result.complete and result.settlement is None
    assert result.incomplete_reason == "the actions end before the hand does: p2 to act"
    assert result.finishing_stacks == (995, 990, 965)


def test_a_showdown_left_out_of_the_actions_is_shown_by_the_cards():
    hand = three_handed(actions=["d dh p1 AsKsQsJs", "d dh p2 2c3c4c5c", "d dh p3 7h8h9dTd", "p3 cc", "p1 cc",
                                 "p2 cc", "d db 2h7c8d", "p1 cc", "p2 cc", "p3 cc", "d db Ah", "p1 cc", "p2 cc",
                                 "p3 cc", "d db Kd", "p1 cc", "p2 cc", "p3 cc"])
    result = replay(hand)
    assert result.complete and result.finishing_stacks == (1020, 990, 990)  # aces and kings


def test_unknown_hole_cards_cannot_win_a_showdown():
    hand = three_handed(actions=["d dh p1 AsKsQsJs", "d dh p2 ????????", "p3 f", "p1 cc", "p2 cc", "d db 2h7c8d",
                                 "p1 cc", "p2 cc", "d db Ah", "p1 cc", "p2 cc", "d db Kd", "p1 cc", "p2 cc"])
    result = replay(hand)
    assert not result.complete
    assert result.incomplete_reason == "the actions end at showdown and p2's hole cards are unknown"
    shown = replay(hand.replace(actions=hand.actions + ("p1 sm -", "p2 sm 2c3c4c5c")))
    assert shown.finishing_stacks == (1010, 990, 1000)


def test_user_defined_fields_carry_the_games_phh_has_no_code_for():
    # Courchevel: the first flop card is dealt before the first betting round.
    courchevel = HandHistory(variant="PCO", antes=[0, 0, 0], blinds_or_straddles=[5, 10, 0], min_bet=10,
                             starting_stacks=[1000, 1000, 1000],
                             actions=["d dh p1 AsKsQsJsTs", "d dh p2 2c3c4c5c6c", "d dh p3 7h8h9dTd2d", "d db Ah",
                                      "p3 f", "p1 cc", "p2 cc", "d db 7c8d", "p1 cbr 20", "p2 f"])
    assert replay(courchevel).finishing_stacks == (1010, 990, 1000)
    binglao = HandHistory(variant="FBLO", antes=[0, 0], blinds_or_straddles=[1, 2], small_bet=2, big_bet=4,
                          starting_stacks=[100, 100], actions=["d dh p1 AsKsQsJsTs9s", "d dh p2 2c3c4c5c6c7c", "p2 f"],
                          user_defined_fields={"_die": 6})
    assert replay(binglao).hand.game.hole_count == 6
    with pytest.raises(ReplayError, match="needs the die roll: field '_die' = 1..6"):
        replay(binglao.replace(user_defined_fields={}))
    dead = three_handed(user_defined_fields={"_dead_blinds": [0, 0, 5]}, blinds_or_straddles=[5, 10, 10],
                        actions=["d dh p1 AsKsQsJs", "d dh p2 2c3c4c5c", "d dh p3 7h8h9dTd", "p3 cc", "p1 f",
                                 "p2 cbr 20", "p3 f"])
    assert replay(dead).finishing_stacks == (995, 1020, 985)  # p3 loses its dead 5 and live 10


# ---------------------------------------------------------------------------- writing engine hands


def play_at_random(hand, rng):
    """Random legal actions to the end of the hand (a muck now and then at showdown)."""
    from omaha_equity.rules import Phase

    while not hand.is_complete:
        if hand.phase == Phase.SHOWDOWN:
            seat = hand.showdown_seat
            hand.muck(seat) if rng.random() < 0.2 and hand.can_muck(seat) else hand.show(seat)
            continue
        legal = hand.legal_actions()
        choice = rng.random()
        if legal.can_fold and choice < 0.2:
            hand.fold()
        elif legal.raise_limits and choice < 0.55:
            hand.bet_or_raise_to(rng.randint(legal.min_raise_to, legal.max_raise_to))
        else:
            hand.check_or_call()
    return hand


GAMES = ["omaha", "omaha8", "omaha5", "omaha5-8", "omaha6", "omaha6-8", "courchevel", "courchevel8", "binglao"]


def test_engine_hands_of_every_game_write_read_and_replay_to_the_same_stacks():
    import random

    from omaha_equity.hand_history import to_phh
    from omaha_equity.rules import FixedLimit, Hand, HandSettings, NoLimit, PotLimit, Rake

    rng = random.Random(11)
    for seed in range(60):
        player_count = rng.randint(2, 7)
        structure = [PotLimit(10), FixedLimit(10, 20, max_raises=4), NoLimit(10)][seed % 3]
        settings = HandSettings(run_count=rng.choice([1, 1, 2]), rake=rng.choice([None, Rake(5, 30)]))
        hand = Hand.with_blinds(GAMES[seed % len(GAMES)], structure, [rng.randint(5, 600) for _ in range(player_count)],
                                button=rng.randrange(player_count), small_blind=5, big_blind=10,
                                ante=rng.choice([0, 1]), seed=seed, settings=settings)
        play_at_random(hand, rng)
        hand_history = to_phh(hand, event="round trip", hand=seed)
        assert loads(dumps(hand_history)) == hand_history
        result = replay(loads(dumps(hand_history)))
        assert result.complete
        assert list(result.finishing_stacks) == [hand.stacks[seat] for seat in hand.positions]
        assert result.finishing_stacks == hand_history.finishing_stacks
        assert to_phh(result.hand, event="round trip", hand=seed) == hand_history


def test_the_game_settings_phh_lacks_go_to_user_defined_fields():
    from omaha_equity.hand_history import to_phh
    from omaha_equity.rules import FixedLimit, ForcedBets, Hand, HandSettings, Rake

    hand = Hand("binglao", FixedLimit(2, 4, max_raises=4, uncapped_heads_up=True), [100, 100, 100], button=0,
                forced_bets=ForcedBets(antes=(0, 0, 0), blinds=(2, 1, 2), dead_blinds=(1, 0, 0)), die=2,
                settings=HandSettings(rake=Rake("4.5", 3)), seed=1)
    hand_history = to_phh(hand)
    assert hand_history.variant == "FBLO"
    assert hand_history.blinds_or_straddles == (1, 2, 2)  # p1 is left of the button
    assert hand_history.user_defined_fields == {"_die": 2, "_max_raises": 4, "_uncapped_heads_up": True,
                                                "_dead_blinds": (0, 0, 1), "_rake_percent": Decimal("4.5"),
                                                "_rake_cap": 3}
    rebuilt = replay(loads(dumps(hand_history))).hand
    assert rebuilt.game.name == "binglao-2" and rebuilt.structure == hand.structure
    assert rebuilt.settings.rake == hand.settings.rake and rebuilt.forced_bets.dead_blinds == (0, 0, 1)


def test_pokerkit_loads_the_pot_limit_and_fixed_limit_hi_lo_files_we_write():
    import random
    import warnings

    pokerkit = pytest.importorskip("pokerkit")
    from omaha_equity.hand_history import to_phh
    from omaha_equity.rules import FixedLimit, Hand, PotLimit

    rng = random.Random(5)
    for seed in range(30):
        player_count = rng.randint(2, 6)
        pot_limit = seed % 2 == 0
        # deep stacks: pokerkit sizes FO/8 as pot limit, so a fixed-limit raise completing a
        # short all-in bet would not load there (docs/phh.md)
        hand = Hand.with_blinds("omaha" if pot_limit else "omaha8", PotLimit(10) if pot_limit else FixedLimit(10, 20),
                                [rng.randint(5, 600) if pot_limit else 2000 for _ in range(player_count)],
                                button=rng.randrange(player_count), small_blind=5, big_blind=10, seed=seed)
        play_at_random(hand, rng)
        text = dumps(to_phh(hand))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            states = list(pokerkit.HandHistory.loads(text))
        assert list(states[-1].stacks) == [hand.stacks[seat] for seat in hand.positions], text


def test_a_user_defined_field_of_the_wrong_type_is_named():
    with pytest.raises(ReplayError, match=r"field '_run_count': expected an integer, got 'twice'"):
        replay(three_handed(user_defined_fields={"_run_count": "twice"}))
    with pytest.raises(ReplayError, match=r"field '_dead_blinds': expected amounts >= 0 \(at most 2\*\*63 - 1 chips\), got \[0, 'x', 0\]"):
        replay(three_handed(user_defined_fields={"_dead_blinds": [0, "x", 0]}))
    with pytest.raises(ReplayError, match=r"field '_first_to_act': expected a player p1..p3, got 'p7'"):
        replay(three_handed(user_defined_fields={"_first_to_act": "p7"}))


def test_user_defined_tables_are_written_inline_so_a_phhs_file_stays_one_table_per_hand():
    hand = three_handed(user_defined_fields={"_source": {"site": "PokerStars", "hand_id": 123}, "_tags": ["a"]})
    text = dumps_all([hand, hand])
    assert '_source = {site = "PokerStars", hand_id = 123}' in text
    assert [label for label, _ in loads_all(text)] == ["1", "2"] and loads_all(text)[1][1] == hand


def test_hole_cards_may_be_dealt_one_card_at_a_time():
    one_by_one = [f"d dh p{player} {cards[index:index + 2]}" for index in range(0, 8, 2)
                  for player, cards in ((1, "AsKsQsJs"), (2, "2c3c4c5c"), (3, "7h8h9dTd"))]
    hand = three_handed(actions=[*one_by_one, "p3 f", "p1 f"])
    result = replay(hand)
    assert result.hand.hole_cards[0] == parse_cards("AsKsQsJs") and result.finishing_stacks == (995, 1005, 1000)
    with pytest.raises(ReplayError, match=r"action 3 'p3 f': p1 was dealt 1 hole cards, omaha deals 4"):
        replay(three_handed(actions=["d dh p1 As", "d dh p2 2c3c4c5c", "d dh p3 7h8h9dTd", "p3 f"]))


def test_files_pokerkit_writes_read_and_replay_here():
    import warnings

    pokerkit = pytest.importorskip("pokerkit")
    for path in WSOP_FILES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            text = pokerkit.HandHistory.loads(path.read_text()).dumps()
        hand_history = loads(text)
        assert replay(hand_history).finishing_stacks == load(path).finishing_stacks


def test_docstring_examples_run():
    import doctest

    from omaha_equity.hand_history import export, phh

    for module in (phh, export):
        failures, tried = doctest.testmod(module)
        assert tried > 0 and failures == 0
