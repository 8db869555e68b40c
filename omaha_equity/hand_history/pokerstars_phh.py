"""A PokerStars hand as a PHH hand history, so one replay (:func:`~omaha_equity.hand_history.replay`)
serves both formats.

The encoding (PHH specification, github.com/uoftcprg/phh-std; our variant codes and fields in
``docs/phh.md``):

- players ``p1..pN`` are the players dealt in, clockwise from the first seat left of the
  button, the button last (a dead button: the seats left of the empty button seat first);
  ``players`` their names, ``seats`` their seat numbers, ``seat_count`` the table size,
  ``table`` and ``hand`` PokerStars' table name and hand number;
- amounts are whole chips of the file's smallest unit: **cents** for cash games (``currency``
  is the file's, ``_chip_value = "0.01"`` says one chip is one cent), chips for tournaments;
- forced bets: ``antes``; ``blinds_or_straddles`` every live post (the small and big blind,
  the big blind posted by a new player, the live part of "small & big blinds"); the dead part
  in ``_dead_blinds`` (arrays heads-up reverse-assigned, as the specification says);
- actions: ``d dh`` for every player (``??`` unknown cards), ``cbr`` (to), ``cc``, ``f``;
  the board with ``d db`` (Courchevel: the exposed card before the pre-flop betting; run it
  twice: ``_run_count = 2``, the runs dealt one after the other, each to the river); at showdown ``sm CARDS`` for
  each hand shown in full in the file's order, ``sm`` (muck) for the others;
- the file's own record: ``winnings`` (chips each player collected; for a player who cashed the
  hand out, the pot the summary says they won), and the user-defined fields ``_source``
  (``"pokerstars"``), ``_rake`` (the hand's rake), ``_stated_pots`` (main and side pots after
  rake when the summary lists them), ``_returned`` (uncalled chips returned to each player),
  ``_cash_outs`` (chips paid to players who cashed out, by player number), ``_tournament``.

:func:`to_hand_history` also returns the file line of each PHH action, so a replay error names
the line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..cards import parse_cards
from ..games import get_game
from .notation import bet_or_raise_to, check_or_call, deal_board, deal_hole, fold, muck, show
from .phh import HandHistory
from .pokerstars import PokerStarsHand
from .records import SessionHand

_Value = TypeVar("_Value")

_GAME_CODES = {"omaha": "O", "omaha8": "O/8", "omaha5": "5O", "omaha5-8": "5O/8", "omaha6": "6O",
               "omaha6-8": "6O/8", "courchevel": "CO", "courchevel8": "CO/8"}
_STRUCTURE_CODES = {"fixed-limit": "F", "pot-limit": "P", "no-limit": "N"}


def _table_order(hand: PokerStarsHand) -> list[int]:
    """Indexes into ``hand.seats`` from the first seat left of the button round to the button."""
    seats = [seat.seat for seat in hand.seats]
    after = [index for index, seat in enumerate(seats) if seat > hand.button_seat]
    before = [index for index, seat in enumerate(seats) if seat <= hand.button_seat]
    return after + before


def _big_blind(hand: PokerStarsHand) -> int:
    if hand.structure == "fixed-limit":
        posted = [post.amount for post in hand.posts if post.kind == "big blind"]
        return max(posted) if posted else hand.stakes[0]
    return hand.stakes[1]


def _heads_up_order(values: Sequence[_Value], player_count: int) -> Sequence[_Value]:
    """Heads-up the specification reverse-assigns the per-player forced-bet arrays."""
    return values[::-1] if player_count == 2 else values


def to_hand_history(hand: PokerStarsHand) -> tuple[HandHistory, list[int | None]]:
    """The PHH hand history of a PokerStars hand, and the file line of each of its actions.

    Raises
    ------
    InputError
        Bad cards in the file (a card that is not a card).
    """
    game = get_game(hand.game)
    order = _table_order(hand)
    names = [hand.seats[index].name for index in order]
    player_of = {name: number for number, name in enumerate(names, start=1)}
    count = len(names)
    big_blind = _big_blind(hand)

    antes, blinds, dead = [0] * count, [0] * count, [0] * count
    round_bets = [0] * count
    for post in hand.posts:
        position = player_of[post.name] - 1
        if post.kind == "ante":
            antes[position] += post.amount
        elif post.kind == "small & big blinds":
            live = min(big_blind, post.amount)
            blinds[position] += live
            dead[position] += post.amount - live
            round_bets[position] += live
        else:
            blinds[position] += post.amount
            round_bets[position] += post.amount

    put_in = [antes[index] + blinds[index] + dead[index] for index in range(count)]
    fold_for_nothing = False
    raise_nobody_calls = False
    stacks = [hand.seats[index].stack for index in order]
    actions: list[str] = []
    lines: list[int | None] = []

    def add(text: str, line: int | None = None) -> None:
        actions.append(text)
        lines.append(line)

    for number, name in enumerate(names, start=1):
        cards = hand.hole_cards.get(name)
        parsed = parse_cards(cards) if cards else None
        add(deal_hole(number, parsed if parsed and len(parsed) == game.hole_count else None, game.hole_count),
            hand.card_lines.get(name))

    boards = [parse_cards(board) for board in hand.boards]
    dealt = 0  # board cards dealt (the first run)
    folded: set[str] = set()

    def deal_to(count_wanted: int) -> None:
        """Deal the first run's board up to ``count_wanted`` cards, street by street."""
        nonlocal dealt
        for target in (1, 3, 4, 5) if game.exposed_first_flop_card else (3, 4, 5):
            if dealt < target <= count_wanted and len(boards[0]) >= target:
                add(deal_board(boards[0][dealt:target]), _board_line(hand, target))
                dealt = target

    street_targets = {"preflop": 1 if game.exposed_first_flop_card else 0, "flop": 3, "turn": 4, "river": 5}
    current_street = "preflop"
    deal_to(street_targets["preflop"])
    for action in hand.actions:
        if action.street != current_street:
            current_street = action.street
            round_bets = [0] * count
            deal_to(street_targets[current_street])
        number = player_of[action.name]
        position = number - 1
        if action.kind == "fold":
            add(fold(number), action.line_number)
            folded.add(action.name)
            # PokerStars lets a player fold with nothing to call; the replay needs to know
            fold_for_nothing = fold_for_nothing or round_bets[position] >= max(round_bets)
        elif action.kind in ("check", "call"):
            add(check_or_call(number), action.line_number)
            round_bets[position] += action.amount
            put_in[position] += action.amount
        else:
            target = action.amount if action.kind == "raise" else round_bets[position] + action.amount
            # PokerStars took a raise that nobody could call (the others all-in or covered)
            level = max(round_bets)
            raise_nobody_calls = raise_nobody_calls or not any(
                stacks[other] - put_in[other] + round_bets[other] > level
                for other, other_name in enumerate(names) if other != position and other_name not in folded)
            add(bet_or_raise_to(number, target), action.line_number)
            put_in[position] += target - round_bets[position]
            round_bets[position] = target
    _deal_rest(boards, dealt, lambda text: add(text, _board_line(hand, 0)))

    if len(names) - len(folded) > 1:
        shown = [name for name, cards in hand.shown.items()
                 if name not in folded and len(cards.split()) == game.hole_count]
        for name in shown:
            add(show(player_of[name], parse_cards(hand.shown[name])))
        for name in names:
            if name not in folded and name not in shown:
                add(muck(player_of[name]))

    winnings = []
    for name in names:
        if any(entry.name == name for entry in hand.collected):
            winnings.append(hand.collected_by(name))
        else:
            winnings.append(hand.summary_won.get(name, 0))
    returned = _returned_chips(hand, names, put_in, [antes[index] + dead[index] for index in range(count)],
                               sum(winnings))
    custom: dict[str, Any] = {
        "_source": "pokerstars",
        "_rake": hand.rake,
        "_returned": returned,
    }
    if hand.currency:
        custom["_chip_value"] = "0.01"
    if hand.stated_pots:
        custom["_stated_pots"] = list(hand.stated_pots)
    if hand.cash_outs:
        custom["_cash_outs"] = {f"p{player_of[name]}": paid for name, (paid, _fee) in hand.cash_outs.items()}
    if hand.tournament_id:
        custom["_tournament"] = hand.tournament_id
    if any(dead):
        custom["_dead_blinds"] = _heads_up_order(dead, count)
    if fold_for_nothing:
        custom["_fold_when_check_allowed"] = True
    if raise_nobody_calls:
        custom["_raise_when_nobody_can_call"] = True
    if hand.run_count > 1:
        custom["_run_count"] = hand.run_count
    if hand.notes:
        custom["_reading_notes"] = list(hand.notes)
    fixed_limit = hand.structure == "fixed-limit"
    # the arrays as tuples: what HandHistory makes of lists
    history = HandHistory(
        variant=_STRUCTURE_CODES[hand.structure] + _GAME_CODES[hand.game],
        antes=tuple(_heads_up_order(antes, count)), blinds_or_straddles=tuple(_heads_up_order(blinds, count)),
        starting_stacks=tuple(hand.seats[index].stack for index in order), actions=tuple(actions),
        hand=hand.hand_id, table=hand.table or None, seat_count=hand.max_seats or None,
        seats=tuple(hand.seats[index].seat for index in order), players=tuple(names), winnings=tuple(winnings),
        # the file's net chips: what each put in, back what they collected and were returned
        finishing_stacks=tuple(hand.seats[index].stack - put_in[position] + winnings[position]
                               + returned[position] for position, index in enumerate(order)),
        currency=hand.currency, user_defined_fields=custom,
        small_bet=hand.stakes[0] if fixed_limit else None, big_bet=hand.stakes[1] if fixed_limit else None,
        min_bet=None if fixed_limit else big_blind,
    )
    return history, lines


def _returned_chips(hand: PokerStarsHand, names: list[str], put_in: list[int], dead: list[int],
                    collected: int) -> list[int]:
    """The uncalled chips returned to each player: the file's ``Uncalled bet`` lines; in a hand
    with none, the unmatched part of the largest bet when neither the summary's total pot nor
    the chips collected hold it.

    2005 files print no ``Uncalled bet`` line: the part of a bet nobody matched went back to
    its owner all the same, and the total pot and the ``collected`` amounts leave it out (the
    pots collected and the rake add up to the total pot, which is every chip put in less the
    unmatched part). Files converted to this format from other sites, and Winamax's, print no
    such line either but book the unmatched bet as collected: their collected chips and rake
    come to more than the total pot, or the total pot is every chip put in, and nothing is
    inferred.
    """
    if hand.uncalled or not hand.total_pot:
        return [hand.uncalled.get(name, 0) for name in names]
    live = [chips - dead_chips for chips, dead_chips in zip(put_in, dead)]
    top = max(range(len(names)), key=lambda index: live[index])
    unmatched = live[top] - max((chips for index, chips in enumerate(live) if index != top), default=0)
    returned = [0] * len(names)
    if unmatched > 0 and hand.total_pot == sum(put_in) - unmatched == collected + hand.rake:
        returned[top] = unmatched
    return returned


def _board_line(hand: PokerStarsHand, count: int) -> int | None:
    """The line that showed the board's first ``count`` cards, else the summary's board line."""
    return hand.board_lines.get(count) or hand.board_lines.get(0)


def _deal_rest(boards: list[tuple[int, ...]], dealt: int, add: Callable[[str], None]) -> None:
    """The board cards after the last action (the board runs out after an all-in): street by
    street, and with several runs one run after the other, each to the river (the order the
    rules engine deals them in)."""
    for board in boards:
        start = dealt
        for target in (3, 4, 5):
            if start < target <= len(board):
                add(deal_board(board[start:target]))
                start = target


def to_session_hand(hand: PokerStarsHand) -> SessionHand:
    """The hand as a :class:`~omaha_equity.hand_history.records.SessionHand`: its PHH history
    with the file line of each action and of each player's record (the "collected" line, else
    the summary's seat line).

    Raises
    ------
    InputError
        Bad cards in the file.
    """
    history, lines = to_hand_history(hand)
    assert history.players is not None  # to_hand_history names every player
    record_lines = tuple(hand.record_lines.get(name, hand.line_number) for name in history.players)
    return SessionHand(hand.source, hand.hand_id, hand.line_number, "pokerstars", history, tuple(lines),
                       record_lines, hand.last_line or None)
