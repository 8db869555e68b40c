"""Every reference case the project was specified with as a test, the expected values copied in.

``equity_cases.json``: exact equities checked by several independent evaluators; each becomes a
``calculate_equity`` call compared on the exact fraction and every board count. From
``rules_cases.json``, the "showdown" and "parse" cases (OM-01, 02, 04, 06, 07, 08, 10, 12, 13,
22) are read with ``read_showdown`` / ``read_hand``; OM-15 (odd chips), OM-17 (side pots) and
OM-18/OM-20 (pot limit) belong to the rules engine and are not tested here.

The tests never read the case files: the values live here, and each test id is the case id.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from omaha_equity.cards import RANKS, card_rank, parse_cards
from omaha_equity.equity.calculate import calculate_equity
from omaha_equity.errors import InputError
from omaha_equity.evaluate.showdown import read_hand, read_showdown

# ---------------------------------------------------------------------------------------------
# equity_cases.json
# ---------------------------------------------------------------------------------------------

# game, hands, board, dead, nboards, nolow_boards (None: not given), per-player expectations
EQUITY_CASES = [
    pytest.param(
        'omaha', ['AsAhKsKh', 'JdTd9c8c'], '', '',
        1086008, None,
        [
            {'equity_fraction': '166923/271502', 'equity': 0.614813150548, 'win_hi': 667649, 'tie_hi': 86, 'scoop': 667649},
            {'equity_fraction': '104579/271502', 'equity': 0.385186849452, 'win_hi': 418273, 'tie_hi': 86, 'scoop': 418273},
        ],
        id='plo_hi_hu_preflop_AAKKds_vs_JT98ds',
    ),
    pytest.param(
        'omaha', ['AsAhKsKh', 'JdTd9c8c'], 'Qd7h2s', '',
        820, None,
        [
            {'equity_fraction': '168/205', 'equity': 0.819512195122, 'win_hi': 672, 'tie_hi': 0, 'scoop': 672},
            {'equity_fraction': '37/205', 'equity': 0.180487804878, 'win_hi': 148, 'tie_hi': 0, 'scoop': 148},
        ],
        id='plo_hi_hu_flop',
    ),
    pytest.param(
        'omaha8', ['As2sKdQd', 'Ah3h9c9d'], '4c5d8h', '',
        820, 0,
        [
            {'equity_fraction': '423/656', 'equity': 0.644817073171, 'win_hi': 346, 'tie_hi': 8, 'win_lo': 703, 'tie_lo': 9, 'low_qualified': 820, 'scoop': 338},
            {'equity_fraction': '233/656', 'equity': 0.355182926829, 'win_hi': 466, 'tie_hi': 8, 'win_lo': 108, 'tie_lo': 9, 'low_qualified': 820, 'scoop': 101},
        ],
        id='plo8_hu_flop',
    ),
    pytest.param(
        'omaha8', ['As2cKhKd', 'Ad2h7c7s', 'QcJcTc9c'], '3d4s8cKsKc', '',
        1, 0,
        [
            {'equity_fraction': '3/4', 'equity': 0.75, 'win_hi': 1, 'tie_hi': 0, 'win_lo': 0, 'tie_lo': 1, 'low_qualified': 1, 'scoop': 0},
            {'equity_fraction': '1/4', 'equity': 0.25, 'win_hi': 0, 'tie_hi': 0, 'win_lo': 0, 'tie_lo': 1, 'low_qualified': 1, 'scoop': 0},
            {'equity_fraction': '0/1', 'equity': 0.0, 'win_hi': 0, 'tie_hi': 0, 'win_lo': 0, 'tie_lo': 0, 'low_qualified': 0, 'scoop': 0},
        ],
        id='plo8_river_quartered',
    ),
    pytest.param(
        'omaha8', ['Ah2h3c4c', 'AsKdTc7h'], 'KsQsJh9d9c', '',
        1, 1,
        [
            {'equity_fraction': '0/1', 'equity': 0.0, 'win_hi': 0, 'tie_hi': 0, 'win_lo': 0, 'tie_lo': 0, 'low_qualified': 0, 'scoop': 0},
            {'equity_fraction': '1/1', 'equity': 1.0, 'win_hi': 1, 'tie_hi': 0, 'win_lo': 0, 'tie_lo': 0, 'low_qualified': 0, 'scoop': 1},
        ],
        id='plo8_river_no_low_possible',
    ),
    pytest.param(
        'omaha', ['2c3d4h5h', '9s8d7c6h'], 'AsKsQsJsTs', '',
        1, None,
        [
            {'equity_fraction': '0/1', 'equity': 0.0, 'win_hi': 0, 'tie_hi': 0, 'scoop': 0},
            {'equity_fraction': '1/1', 'equity': 1.0, 'win_hi': 1, 'tie_hi': 0, 'scoop': 1},
        ],
        id='rule_must_use_two_hole_royal_board',
    ),
    pytest.param(
        'omaha', ['QhJsTs9s', '3c3d8s8c'], 'AhKh7h4c2d', '',
        1, None,
        [
            {'equity_fraction': '0/1', 'equity': 0.0, 'win_hi': 0, 'tie_hi': 0, 'scoop': 0},
            {'equity_fraction': '1/1', 'equity': 1.0, 'win_hi': 1, 'tie_hi': 0, 'scoop': 1},
        ],
        id='rule_flush_needs_two_suited_hole',
    ),
    pytest.param(
        'omaha8', ['Ah2h9c9d', '6s7s8cTc'], '3h4h5hKcQd', '',
        1, 0,
        [
            {'equity_fraction': '1/1', 'equity': 1.0, 'win_hi': 1, 'tie_hi': 0, 'win_lo': 1, 'tie_lo': 0, 'low_qualified': 1, 'scoop': 1},
            {'equity_fraction': '0/1', 'equity': 0.0, 'win_hi': 0, 'tie_hi': 0, 'win_lo': 0, 'tie_lo': 0, 'low_qualified': 1, 'scoop': 0},
        ],
        id='rule_wheel_and_straight_flush_scoop',
    ),
    pytest.param(
        'omaha8', ['Ah9sQdQc', 'JcJd7h6h'], '2c3d8hTcKs', '',
        1, 0,
        [
            {'equity_fraction': '1/2', 'equity': 0.5, 'win_hi': 1, 'tie_hi': 0, 'win_lo': 0, 'tie_lo': 0, 'low_qualified': 0, 'scoop': 0},
            {'equity_fraction': '1/2', 'equity': 0.5, 'win_hi': 0, 'tie_hi': 0, 'win_lo': 1, 'tie_lo': 0, 'low_qualified': 1, 'scoop': 0},
        ],
        id='rule_eight_or_better_qualifier',
    ),
    pytest.param(
        'omaha8', ['Ac2d3h4s', 'KsKc9h9c'], '5d6cKhQsJd', '',
        1, 1,
        [
            {'equity_fraction': '0/1', 'equity': 0.0, 'win_hi': 0, 'tie_hi': 0, 'win_lo': 0, 'tie_lo': 0, 'low_qualified': 0, 'scoop': 0},
            {'equity_fraction': '1/1', 'equity': 1.0, 'win_hi': 1, 'tie_hi': 0, 'win_lo': 0, 'tie_lo': 0, 'low_qualified': 0, 'scoop': 1},
        ],
        id='rule_low_needs_three_low_board_cards',
    ),
    pytest.param(
        'omaha5', ['AsAhKsQh2c', 'JdTd9c8c7d'], 'Qd7h2s', '',
        741, None,
        [
            {'equity_fraction': '539/741', 'equity': 0.727395411606, 'win_hi': 539, 'tie_hi': 0, 'scoop': 539},
            {'equity_fraction': '202/741', 'equity': 0.272604588394, 'win_hi': 202, 'tie_hi': 0, 'scoop': 202},
        ],
        id='plo5_hi_hu_flop',
    ),
    pytest.param(
        'omaha6', ['AsAhKsKhQcJc', 'JdTd9c8c7s6s'], 'Qd7h2s', '',
        666, None,
        [
            {'equity_fraction': '379/666', 'equity': 0.569069069069, 'win_hi': 379, 'tie_hi': 0, 'scoop': 379},
            {'equity_fraction': '287/666', 'equity': 0.430930930931, 'win_hi': 287, 'tie_hi': 0, 'scoop': 287},
        ],
        id='plo6_hi_hu_flop',
    ),
    pytest.param(
        'omaha5-8', ['As2sKdQd7c', 'Ah3h9c9d6s'], '4c5d8h', '',
        741, 0,
        [
            {'equity_fraction': '1735/2964', 'equity': 0.585357624831, 'win_hi': 290, 'tie_hi': 0, 'win_lo': 573, 'tie_lo': 9, 'low_qualified': 741, 'scoop': 234},
            {'equity_fraction': '1229/2964', 'equity': 0.414642375169, 'win_hi': 451, 'tie_hi': 0, 'win_lo': 159, 'tie_lo': 9, 'low_qualified': 741, 'scoop': 104},
        ],
        id='plo85_bigO_hu_flop',
    ),]


@pytest.mark.parametrize("game, hands, board, dead, nboards, nolow_boards, expected", EQUITY_CASES)
def test_equity_case(game, hands, board, dead, nboards, nolow_boards, expected):
    result = calculate_equity(hands, board, dead, game)
    assert result.method == "exact"
    assert result.sample_count == nboards
    assert len(result.players) == len(expected)
    for player, want in zip(result.players, expected):
        assert player.equity_fraction == Fraction(want["equity_fraction"])
        assert player.equity == pytest.approx(want["equity"], abs=1e-11)
        assert player.sample_count == nboards
        assert player.hi_win_count == want["win_hi"]
        assert player.hi_tie_count == want["tie_hi"]
        assert player.scoop_count == want["scoop"]
        if "win_lo" in want:
            assert player.lo_win_count == want["win_lo"]
            assert player.lo_tie_count == want["tie_lo"]
            assert player.has_low_count == want["low_qualified"]
        else:  # high-only game: no low statistics at all
            assert player.lo_win_count == player.lo_tie_count == player.has_low_count == 0
    assert sum(player.equity_fraction for player in result.players) == 1
    if nolow_boards is not None:
        assert nboards - result.low_board_count == nolow_boards
    if not result.game.hilo:
        assert result.low_board_count == 0


# ---------------------------------------------------------------------------------------------
# rules_cases.json: showdowns
# ---------------------------------------------------------------------------------------------

GAMES = {"omaha-hi": "omaha", "omaha-hilo8": "omaha8", "omaha5-hilo8": "omaha5-8"}
CATEGORIES = {"trips": "three of a kind"}  # the case files' word -> the library's

# game, hands, board, high_winners, low_winners (None: not given), shares, best hands
SHOWDOWN_CASES = [
    pytest.param(
        "omaha-hi", ["Ks 8c Js 5c"], "3s 5h Qs Qd 9h", [0], None, ["1"],
        [{"high": "two pair", "high_ranks": "Q-5-K", "high_cards": "Ks 5c 5h Qs Qd"}],
        id="OM-01",
    ),
    pytest.param(
        "omaha-hilo8", ["As Ks 5d 7c"], "Ts 7d 8h 4s 2c", [0], [0], ["1"],
        [{"high": "pair", "high_ranks": "7-A-T-8", "high_cards": "As 7c Ts 7d 8h",
          "low": "7-5-4-2-A", "low_cards": "As 5d 7d 4s 2c"}],
        id="OM-02",
    ),
    pytest.param(
        "omaha-hi", ["Kd Kh Ks 2c", "Qh Qd Jc Tc"], "Qc 7d 7h 5s 3c", [1], None, ["0", "1"],
        [{"high": "two pair", "high_ranks": "K-7-Q", "high_cards": "Kd Kh Qc 7d 7h"},
         {"high": "full house", "high_ranks": "Q-7", "high_cards": "Qh Qd Qc 7d 7h"}],
        id="OM-04",
    ),
    pytest.param(
        "omaha5-hilo8", ["3h Kc Qs Jd 2s", "Ac 6d 7s 8c 8d"], "Ad 4c 5h 9s Tc", [0], [0], ["1", "0"],
        [{"high": "straight", "high_ranks": "5", "high_cards": "3h 2s Ad 4c 5h",
          "low": "5-4-3-2-A", "low_cards": "3h 2s Ad 4c 5h"},
         {"high": "pair", "high_ranks": "A-T-9-8", "high_cards": "Ac 8c Ad 9s Tc",
          "low": "7-6-5-4-A", "low_cards": "6d 7s Ad 4c 5h"}],
        id="OM-06",
    ),
    pytest.param(
        "omaha-hilo8", ["As Ad 3d 2s", "Kh Kd Qc Jc"], "4s 8c 3s 9h Td", [1], [0], ["1/2", "1/2"],
        [{"high": "pair", "high_ranks": "A-T-9-8", "high_cards": "As Ad 8c 9h Td",
          "low": "8-4-3-2-A", "low_cards": "As 2s 4s 8c 3s"},
         {"high": "straight", "high_ranks": "Q", "high_cards": "Qc Jc 8c 9h Td", "low": None}],
        id="OM-07",
    ),
    pytest.param(
        "omaha-hilo8", ["Ac 2d 4h 7s", "Kh Kc Qs Jd"], "Ad 5c 8h 4s Kd", [1], [0], ["1/2", "1/2"],
        [{"high": "two pair", "high_ranks": "A-4-K", "high_cards": "Ac 4h Ad 4s Kd",
          "low": "7-5-4-2-A", "low_cards": "2d 7s Ad 5c 4s"},
         {"high": "trips", "high_ranks": "K-A-8", "high_cards": "Kh Kc Ad 8h Kd", "low": None}],
        id="OM-10",
    ),
    pytest.param(
        "omaha-hilo8", ["Ah 2c 4d 5s", "Kh Kd Jc Tc"], "3c 3d 7h Ks Qs", [1], [], ["0", "1"],
        [{"high": "pair", "high_ranks": "3-A-K-5", "high_cards": "Ah 5s 3c 3d Ks", "low": None},
         {"high": "full house", "high_ranks": "K-3", "high_cards": "Kh Kd 3c 3d Ks", "low": None}],
        id="OM-12",
    ),
    pytest.param(
        "omaha-hilo8", ["Ah 2c Kd 9d", "Ac 2d Th 8h"], "7d 4c 3h Ks Jh", [0], [0, 1], ["3/4", "1/4"],
        [{"high": "pair", "high_ranks": "K-A-J-7", "high_cards": "Ah Kd 7d Ks Jh",
          "low": "7-4-3-2-A", "low_cards": "Ah 2c 7d 4c 3h"},
         {"high": "high card", "high_ranks": "A-K-J-T-7", "high_cards": "Ac Th 7d Ks Jh",
          "low": "7-4-3-2-A", "low_cards": "Ac 2d 7d 4c 3h"}],
        id="OM-13",
    ),
    pytest.param(
        "omaha-hi", ["Ah Qs Qd Jc", "7h 7c 8d 3s"], "Kh 9h 6h 2h 5c", [1], None, ["0", "1"],
        [{"high": "pair", "high_ranks": "Q-K-9-6", "high_cards": "Qs Qd Kh 9h 6h"},
         {"high": "straight", "high_ranks": "9", "high_cards": "7h 8d 9h 6h 5c"}],
        id="OM-22",
    ),
]


def ranks_text(made_hand) -> str:
    """The ranks of a high hand in reading order, each once ('Q-5-K' for queens and fives, king
    kicker); a straight or straight flush by its top card alone ('5' for the wheel)."""
    ranks = []
    for card in made_hand.cards:
        if RANKS[card_rank(card)] not in ranks:
            ranks.append(RANKS[card_rank(card)])
    if made_hand.category in ("straight", "straight flush"):
        ranks = ranks[:1]
    return "-".join(ranks)


def assert_best_hand(reading, want):
    assert reading.high.category == CATEGORIES.get(want["high"], want["high"])
    assert ranks_text(reading.high) == want["high_ranks"]
    assert set(reading.high.cards) == set(parse_cards(want["high_cards"]))
    assert set(reading.high.hole_cards) | set(reading.high.board_cards) == set(parse_cards(want["high_cards"]))
    if "low" not in want:
        return
    if want["low"] is None:
        assert reading.low is None
    else:
        assert reading.low.description == want["low"] + " low"
        assert set(reading.low.cards) == set(parse_cards(want["low_cards"]))


@pytest.mark.parametrize("game, hands, board, high_winners, low_winners, shares, best_hands", SHOWDOWN_CASES)
def test_showdown_case(game, hands, board, high_winners, low_winners, shares, best_hands):
    showdown = read_showdown(hands, board, GAMES[game])
    assert showdown.game.hilo == ("hilo" in game)
    assert list(showdown.high_winners) == high_winners
    if low_winners is not None:
        assert list(showdown.low_winners) == low_winners
    elif not showdown.game.hilo:
        assert showdown.low_winners == ()
    assert list(showdown.shares) == [Fraction(share) for share in shares]
    assert len(showdown.readings) == len(best_hands)
    for reading, want in zip(showdown.readings, best_hands):
        assert_best_hand(reading, want)
        if not showdown.game.hilo:
            assert reading.low is None


def test_OM_07_equity_at_flop_with_players_lacking_a_low():
    result = calculate_equity(["As Ad 3d 2s", "Kh Kd Qc Jc"], "4s 8c 3s", game="omaha8")
    assert result.sample_count == 820
    assert [player.equity_fraction for player in result.players] == [Fraction(311, 328), Fraction(17, 328)]
    assert [player.equity for player in result.players] == pytest.approx([0.948171, 0.051829], abs=1e-6)
    assert result.players[1].has_low_count == 0  # no hole card 8 or lower: never a low
    # A-2 with the flop's 8-4-3 is a low on every completion
    assert result.players[0].has_low_count == result.low_board_count == 820
    assert result.players[0].lo_win_count == 820


def test_OM_08_empty_board_is_a_clear_input_error():
    """Case OM-08: an Omaha hand needs three board cards; fewer is a clear input error."""
    hole = parse_cards("2d 2h 9d 9h")
    with pytest.raises(InputError, match="board must have at least 3 cards") as error:
        read_hand(hole, (), False)
    assert "got 0" in str(error.value)
    with pytest.raises(InputError, match="at least 3 cards"):
        read_hand(hole, parse_cards("9c 2c"), False)
    with pytest.raises(InputError, match="complete board of 5"):
        read_showdown(["2d 2h 9d 9h"], "")


def test_OM_08_flop_makes_three_nines_not_a_full_house():
    """Case OM-08: on 9c 2c Kd the hand 2d 2h 9d 9h is three nines (two hole cards only)."""
    reading = read_hand(parse_cards("2d 2h 9d 9h"), parse_cards("9c 2c Kd"), False)
    assert_best_hand(reading, {"high": "trips", "high_ranks": "9-K-2", "high_cards": "9d 9h 9c 2c Kd"})
    assert reading.high.description == "three nines, K-2 kickers"
