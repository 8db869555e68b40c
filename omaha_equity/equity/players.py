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

from ..cards import DECK_SIZE, format_cards, parse_cards
from ..deal import check_known_cards, hole_count_error
from ..errors import InputError
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
    """

    expression: str
    kind: str
    known_cards: tuple[int, ...] = ()
    hands: object = None
    weights: object = None

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


def seat_players(expressions: Sequence[str], board: tuple[int, ...], dead: tuple[int, ...], game: Game) -> list[Seat]:
    """Classify and check every player's entry and expand ranges.

    Raises
    ------
    InputError
        Too few players; more written cards than the hole count; a duplicate among written
        cards, board and dead cards; more players than the deck allows; a bad range; a range
        with no hand left once the known cards are removed.
    """
    if len(expressions) < 2:
        raise InputError(f"expected at least 2 players, got {len(expressions)}")
    written = []
    for player, expression in enumerate(expressions, start=1):
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
        from ..ranges import parse_range

        reason = "the known cards " + format_cards(sorted(known, reverse=True)) if known else ""
        hand_range = parse_range(expression, game, excluded=known, excluded_reason=reason)
        every_hand = hand_range.size == comb(DECK_SIZE - len(known), game.hole_count)
        if every_hand and (hand_range.weights == hand_range.weights[0]).all():
            # "100%", "*!AAAA!..." that removes nothing: deal it at random, like "*", which
            # multiway Monte Carlo handles without redrawing colliding deals
            seats.append(Seat(expression.strip(), DEALT))
        else:
            seats.append(Seat(expression.strip(), RANGE, (), hand_range.hands, hand_range.weights))
    return seats
