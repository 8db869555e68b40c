"""What each player holds in an equity query: fixed cards, cards dealt at random, or a range.

- a fully written hand (``AsKhJd2c``, also ``As,Kh,Jd,2c``) is *fixed*;
- fewer written cards than the game's hole count (``AsAh``) is a *partial* hand: the other
  cards are dealt at random; ``*`` is a *random* hand (no card known);
- anything else is a *range* in the generic syntax (``AA:$ds``, ``15%``,
  ``2c3d4h5s,AcAdKcKh``), expanded to its hands after every known card is removed. Commas
  separate cards while the whole entry reads as at most one hand's cards, hands otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

import numpy as np

from ..cards import DECK_SIZE, RANK_NAMES, RANKS, SUITS, format_cards, parse_cards
from ..deal import CardsLike, check_known_cards, hole_count_error
from ..errors import InputError, quoted
from ..games import Game

FIXED, DEALT, RANGE = "fixed", "dealt", "range"


@dataclass(frozen=True)
class Seat:
    """One player's entry.

    Attributes
    ----------
    expression : str
        As written (canonical card text for fixed and partial hands; a partial hand is marked
        with the number of cards dealt at random: ``AsAh+2``).
    kind : str
        ``fixed``, ``dealt`` (partial or random) or ``range``.
    known_cards : tuple of int
        The written cards of a fixed or partial hand (empty for ranges and ``*``).
    hands, weights : numpy arrays or None
        A range's hands (size, hole_count) int8 and weights (size,) float64.
    source : str or None
        The entry as given when it is a range (also one dealt at random as every hand, such as
        ``100%``), which :func:`reseat_players` reads again only for a category filter; None for
        written cards.
    """

    expression: str
    kind: str
    known_cards: tuple[int, ...] = ()
    hands: object = None
    weights: object = None
    source: str | None = None

    def random_card_count(self, game: Game) -> int:
        """Hole cards dealt at random: the missing cards of a partial hand, all of ``*``."""
        return game.hole_count - len(self.known_cards) if self.kind == DEALT else 0

    @property
    def range_size(self) -> int:
        return 1 if self.kind == FIXED else (int(self.hands.shape[0]) if self.kind == RANGE else 0)


def _written_cards(expression: str) -> tuple[int, ...] | None:
    """The cards of an expression made only of cards, or None if it is something else."""
    try:
        return parse_cards(expression)
    except InputError:
        return None


def seat_players(expressions: Sequence[CardsLike], board: tuple[int, ...], dead: tuple[int, ...],
                 game: Game) -> list[Seat]:
    """Classify and check every player's entry and expand ranges.

    Raises
    ------
    InputError
        Too few players; an empty or blank entry (``*`` asks for a random hand); more written
        cards than the hole count; a duplicate among written cards, board and dead cards; more
        players than the deck allows; a bad range; a range with no hand left once the known
        cards are removed; ranges that leave no deal without a shared card
        (:func:`check_some_deal`).
    """
    if len(expressions) < 2:
        raise InputError(f"expected at least 2 players, got {len(expressions)}")
    written = []
    for player, expression in enumerate(expressions, start=1):
        if not (expression.strip() if isinstance(expression, str) else expression):
            raise InputError(f"empty hand {quoted(expression)} for player {player}: expected cards such as "
                             "'AsKsQhJh', a range such as 'AA:$ds', or '*' for a random hand")
        text = expression.strip() if isinstance(expression, str) else expression
        cards = () if text == "*" else _written_cards(text) if isinstance(text, str) else parse_cards(text)
        if cards is not None and len(cards) > game.hole_count and "," in text:
            cards = None  # "2c3d4h5s,AcAdKcKh": a range of two hands, not one run of cards
        if cards is not None and len(cards) > game.hole_count:
            raise hole_count_error(game, len(cards), expression, player)
        written.append(cards)
    check_known_cards([cards or () for cards in written], board, dead, game)
    known = [card for cards in written if cards for card in cards] + list(board) + list(dead)
    seats = []
    for expression, cards in zip(expressions, written):
        if cards is not None:
            kind = FIXED if len(cards) == game.hole_count else DEALT
            text = format_cards(cards, sort=True) if cards else "*"
            if 0 < len(cards) < game.hole_count:
                text += f"+{game.hole_count - len(cards)}"  # marks a partial hand in every output
            seats.append(Seat(text, kind, cards))
            continue
        seats.append(_range_seat(expression, known, board, game))
    check_some_deal(seats, known)
    return seats


def _range_seat(expression: str, known: list[int], board: tuple[int, ...], game: Game,
                narrowed: Seat | None = None) -> Seat:
    """A range entry's seat: its hands without the ``known`` cards, or every hand (``DEALT``)
    when that is what it holds. ``narrowed``: the same entry seated with fewer known cards, whose
    hands are narrowed rather than parsed again (a range without a category filter holds the
    same hands, in the same order and with the same weights, less those holding a new card);
    the range is parsed again when it has a category filter (it reads the board) or has no hand
    left (for the error, which names every known card).

    Raises
    ------
    InputError
        A bad range, or one with no hand left once the known cards are removed.
    """
    hands = weights = None
    if narrowed is not None and "{" not in expression:  # '{' only ever opens a category filter
        if narrowed.kind == DEALT:
            return narrowed  # every hand of the deck stays every hand of a smaller deck
        lookup = np.zeros(DECK_SIZE, dtype=np.bool_)
        lookup[list(known)] = True
        keep = ~lookup[narrowed.hands].any(axis=1)
        if keep.all():
            hands, weights = narrowed.hands, narrowed.weights
        elif keep.any():
            hands, weights = _read_only(narrowed.hands[keep]), _read_only(narrowed.weights[keep])
    if hands is None:
        from ..ranges import parse_range

        reason = "the known cards " + format_cards(sorted(known, reverse=True)) if known else ""
        hand_range = parse_range(expression, game, excluded=known, excluded_reason=reason, board=board)
        hands, weights = hand_range.hands, hand_range.weights
    every_hand = hands.shape[0] == comb(DECK_SIZE - len(known), game.hole_count)
    if every_hand and (weights == weights[0]).all():
        # "100%", "*!AAAA!..." that removes nothing: deal it at random, like "*", which
        # multiway Monte Carlo handles without redrawing colliding deals
        return Seat(expression.strip(), DEALT, source=expression)
    return Seat(expression.strip(), RANGE, (), hands, weights, source=expression)


def _read_only(array: np.ndarray) -> np.ndarray:
    """``array`` made read-only, as the ranges hand theirs out (one compiled signature)."""
    array.flags.writeable = False
    return array


def reseat_players(seats: Sequence[Seat], board: tuple[int, ...], dead: tuple[int, ...], game: Game) -> list[Seat]:
    """The same players seated on a board that adds cards to the one they were seated on
    (:func:`seat_players`), from what is already parsed: written cards are kept, ranges lose the
    hands that hold a new card (:func:`_range_seat`).

    Raises
    ------
    InputError
        As :func:`seat_players` on the new board: a card written twice; a range with no hand
        left; ranges that leave no deal without a shared card.
    """
    written = [seat.known_cards if seat.source is None else () for seat in seats]
    check_known_cards(written, board, dead, game)
    known = [card for cards in written for card in cards] + list(board) + list(dead)
    reseated = [seat if seat.source is None else _range_seat(seat.source, known, board, game, narrowed=seat)
                for seat in seats]
    check_some_deal(reseated, known)
    return reseated


# Work bounds of the search for one deal without a shared card, in hand comparisons, as passes
# over all the players' hands plus a fixed allowance: the quick pass finds a deal at once in
# ordinary queries; the full pass settles most of the rest within about a second, and beyond it
# the question is left to the sampler.
_QUICK_PASSES, _QUICK_SEARCH = 4, 100_000
_FULL_PASSES, _FULL_SEARCH = 40, 20_000_000


class _SearchTooLong(Exception):
    pass


def check_some_deal(seats: list[Seat], known: Sequence[int]) -> None:
    """Refuse ranges that cannot all be dealt at once: every choice of one hand per range
    shares a card (``AA AA AA`` needs six aces). Random and fixed hands never conflict with
    ranges here (the ranges already exclude every written card, and the deck's size is checked
    with the player count).

    Raises
    ------
    InputError
        ``no deal is possible: the ranges of players 1, 2 and 3 need at least 6 aces between
        them, and only 4 are left``; or, when no such count explains it, ``no deal is possible:
        every combination of the players' hands shares a card``.
    """
    ranged = [(player, seat) for player, seat in enumerate(seats, start=1) if seat.kind == RANGE]
    if len(ranged) < 2:
        return
    masks = [_card_masks(seat.hands) for _, seat in ranged]
    hand_total = sum(mask.shape[0] for mask in masks)
    found = _find_deal(masks, _QUICK_PASSES * hand_total + _QUICK_SEARCH)
    if found:
        return
    shortage = _card_shortage(ranged, known)
    if shortage:
        raise InputError(f"no deal is possible: {shortage}")
    if found is None:
        found = _find_deal(masks, _FULL_PASSES * hand_total + _FULL_SEARCH)
    if found is False:
        raise InputError("no deal is possible: every combination of the players' hands shares a card")


def _card_masks(hands: np.ndarray) -> np.ndarray:
    """Card bit mask of each hand: (n, hole_count) int8 -> (n,) int64, a column at a time."""
    masks = np.zeros(hands.shape[0], dtype=np.int64)
    for column in range(hands.shape[1]):
        masks |= np.left_shift(np.int64(1), hands[:, column].astype(np.int64))
    return masks


def _find_deal(masks: list[np.ndarray], budget: int) -> bool | None:
    """Depth-first search for one hand per list with no card in common (lists of card bit
    masks): True if found, False if none exists, None when ``budget`` comparisons ran out."""
    lists = sorted(masks, key=len)
    # The cards any later list can use: a failure depends only on the used cards among them.
    later = [0] * (len(lists) + 1)
    for level in range(len(lists) - 1, -1, -1):
        later[level] = later[level + 1] | int(np.bitwise_or.reduce(lists[level]))
    failed: list[set[int]] = [set() for _ in lists]
    work = 0

    def search(level: int, used: int) -> bool:
        nonlocal work
        work += lists[level].shape[0]
        if work > budget:
            raise _SearchTooLong
        free = (lists[level] & used) == 0
        if level == len(lists) - 1:
            return bool(free.any())
        key = used & later[level]
        if key in failed[level]:
            return False
        for mask in lists[level][free]:
            if search(level + 1, used | int(mask)):
                return True
        failed[level].add(key)
        return False

    try:
        return search(0, 0)
    except _SearchTooLong:
        return None


def _card_shortage(ranged: list[tuple[int, Seat]], known: Sequence[int]) -> str:
    """Why no deal exists, when a count shows it: the fewest cards of one rank (or suit) each
    range's hands hold, summed, is more than the deck has left of them. Empty when no count
    explains it."""
    known_set = set(known)
    groups = [(lambda cards, rank=rank: cards >> 2 == rank, _plural(RANK_NAMES[rank]),
               [card for card in range(DECK_SIZE) if card >> 2 == rank]) for rank in range(len(RANKS))]
    groups += [(lambda cards, suit=suit: cards & 3 == suit, _SUIT_PLURALS[suit],
                [card for card in range(DECK_SIZE) if card & 3 == suit]) for suit in range(len(SUITS))]
    for held, name, cards in groups:
        fewest = [(player, int(held(seat.hands).sum(axis=1).min())) for player, seat in ranged]
        need = sum(count for _, count in fewest)
        left = sum(1 for card in cards if card not in known_set)
        if need > left:
            players = [str(player) for player, count in fewest if count]
            names = ", ".join(players[:-1]) + " and " + players[-1] if len(players) > 1 else players[0]
            return f"the ranges of players {names} need at least {need} {name} between them, and only {left} are left"
    return ""


_SUIT_PLURALS = ("clubs", "diamonds", "hearts", "spades")


def _plural(rank_name: str) -> str:
    return rank_name + ("es" if rank_name.endswith("x") else "s")
