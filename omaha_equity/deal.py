"""A validated deal: the game, each player's hole cards, the known board and the dead cards.

Every check of a query's cards lives here, so the equity calculator, ``show`` and the CLI
report the same errors, each naming the offending token and what was expected.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import DECK_SIZE, NO_CARDS, check_no_duplicates, format_cards, parse_cards
from .errors import InputError, quoted
from .games import BOARD_SIZE, Game, get_game

CardsLike = str | Iterable[str | int]


@dataclass(frozen=True)
class Deal:
    """Known cards of one hand.

    Attributes
    ----------
    game : Game
    hands : tuple of tuple of int
        Hole cards per player, ``game.hole_count`` cards each.
    board : tuple of int
        Known board cards in dealing order (0..5).
    dead : tuple of int
        Cards known to be out of play (folded or exposed).
    """

    game: Game
    hands: tuple[tuple[int, ...], ...]
    board: tuple[int, ...]
    dead: tuple[int, ...]

    @property
    def player_count(self) -> int:
        return len(self.hands)

    @property
    def known_cards(self) -> set[int]:
        return {card for hand in self.hands for card in hand} | set(self.board) | set(self.dead)

    @property
    def undealt_cards(self) -> list[int]:
        """Cards still in the deck, ascending."""
        known = self.known_cards
        return [card for card in range(DECK_SIZE) if card not in known]

    def hand_text(self, player: int) -> str:
        return format_cards(self.hands[player], sort=True)


def _text(cards: CardsLike) -> str:
    return cards if isinstance(cards, str) else " ".join(str(card) for card in cards)


def hole_count_error(game: Game, count: int, hand: CardsLike, player: int | None = None) -> InputError:
    """``expected 4 hole cards for omaha, got 3 in 'AsKsQs' (player 2)``."""
    where = f" (player {player})" if player is not None else ""
    return InputError(
        f"expected {game.hole_count} hole cards for {game.name}, got {count} in {quoted(_text(hand))}{where}")


def make_deal(
    hands: Sequence[CardsLike],
    board: CardsLike = "",
    dead: CardsLike = "",
    game: str | Game = "omaha",
    *,
    die: int | None = None,
    min_players: int = 2,
) -> Deal:
    """Parse and check a deal.

    Parameters
    ----------
    hands : sequence of str or of card ints
        One entry per player, e.g. ``["AsAhKsKh", "Jd Td 9c 8c"]``.
    board, dead : str or sequence of card ints
        Known board cards (0..5) and dead cards.
    game : str or Game
        Game name or alias (see :func:`games.get_game`); ``die`` for binglao.
    min_players : int
        2 for equity; 1 to read a single hand at showdown.

    Raises
    ------
    InputError
        Unknown card, duplicate card, wrong hole-card count, more than 5 board cards, too few
        players, more players than the deck can deal, unknown game.
    """
    game = get_game(game, die)
    if len(hands) < min_players:
        raise InputError(f"expected at least {min_players} players, got {len(hands)}")
    parsed_hands = []
    for player, hand in enumerate(hands, start=1):
        cards = parse_cards(hand)
        if len(cards) != game.hole_count:
            raise hole_count_error(game, len(cards), hand, player)
        parsed_hands.append(cards)
    board_cards, dead_cards = parse_board_and_dead(board, dead)
    check_known_cards(parsed_hands, board_cards, dead_cards, game)
    return Deal(game, tuple(parsed_hands), board_cards, dead_cards)


def parse_board_and_dead(board: CardsLike, dead: CardsLike) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Parse the known board (at most 5 cards) and the dead cards; ``cards.NO_CARDS`` (``-``, how
    CSV output writes none) is no cards.

    Raises
    ------
    InputError
        An unknown card, or more than 5 board cards.
    """
    board_cards = _parse_card_list(board)
    if len(board_cards) > BOARD_SIZE:
        raise InputError(f"expected at most {BOARD_SIZE} board cards, got {len(board_cards)} in {quoted(_text(board))}")
    return board_cards, _parse_card_list(dead)


def _parse_card_list(cards: CardsLike) -> tuple[int, ...]:
    if isinstance(cards, str) and cards.strip() == NO_CARDS:
        return ()
    return parse_cards(cards)


def check_known_cards(hands: Sequence[Sequence[int]], board: Sequence[int], dead: Sequence[int], game: Game) -> None:
    """Check the written cards of every player (complete or partial hands), the board and the
    dead cards: no card twice, and the deck holds every player's hole cards, five board cards
    and the dead cards.

    Raises
    ------
    InputError
        ``duplicate card Ah in player 2 and board``; ``too many players: ...``.
    """
    written = [card for cards in hands for card in cards]
    written += board
    written += dead
    if len(set(written)) < len(written):  # only then label the groups to say where
        check_no_duplicates(
            [(f"player {player}", cards) for player, cards in enumerate(hands, start=1)]
            + [("board", board), ("dead cards", dead)]
        )
    needed = len(hands) * game.hole_count + BOARD_SIZE + len(dead)
    if needed > DECK_SIZE:
        raise InputError(
            f"too many players: {len(hands)} players x {game.hole_count} hole cards + {BOARD_SIZE} "
            f"board cards + {len(dead)} dead cards = {needed} cards, more than the {DECK_SIZE}-card deck"
        )
