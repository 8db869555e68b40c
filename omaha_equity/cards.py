"""Cards as integers: parsing card text and formatting it back.

A card is an ``int`` 0..51 equal to ``rank * 4 + suit``, with rank 0..12 for 2..A and suit
0..3 for c, d, h, s (README, "How it works"). Arrays of cards use ``numpy.int8``.

Text in is forgiving: ``As``, ``as``, ``AS``, ``10s`` for a ten, the suit symbols ♠♥♦♣
(and their outlined forms), and hands written ``AsKsQhJh``, ``As Ks Qh Jh`` or
``As,Ks,Qh,Jh``. Text out is canonical: upper-case rank, lower-case suit (``As``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import cast

from .errors import InputError, quoted

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = (
    "deuce", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace",
)
DECK_SIZE = 52
# How CSV output writes an empty board or dead-card list (an empty cell reads as a missing
# value, NaN in pandas); read back as no cards wherever a board or dead cards are asked for.
NO_CARDS = "-"

#: Suit letters (any case: compare in lower case) and symbols, to suit 0..3 (c, d, h, s); the
#: range syntax reads suits with the same table.
SUIT_CHARACTERS = {
    "c": 0, "d": 1, "h": 2, "s": 3,
    "♣": 0, "♦": 1, "♥": 2, "♠": 3,
    "♧": 0, "♢": 1, "♡": 2, "♤": 3,
}
_EXPECTED = "a rank (2-9, T or 10, J, Q, K, A) followed by a suit (c, d, h, s or ♣ ♦ ♥ ♠)"
# Phones and some systems follow a suit symbol with an invisible "emoji presentation" selector.
_INVISIBLE = "\ufe0f\ufe0e\u200b"
# Canonical text of every card, by card int (``_CARD_NAMES[51] == 'As'``).
_CARD_NAMES = tuple(RANKS[card >> 2] + SUITS[card & 3] for card in range(DECK_SIZE))
# Every way a single card may be written (ranks in either case or ``10``, suit letters in either
# case or symbols) -> the card: parsing a card is one lookup (a batch parses millions).
_CARD_BY_TEXT = {
    rank_text + suit_text: rank * 4 + suit
    for rank, rank_character in enumerate(RANKS)
    for rank_text in {rank_character, rank_character.lower()} | ({"10"} if rank_character == "T" else set())
    for suit_text, suit in [*SUIT_CHARACTERS.items(),
                            *((letter.upper(), suit) for letter, suit in SUIT_CHARACTERS.items() if letter.isalpha())]
}
# Two cards written canonically back to back (``AsKs``) -> the two cards: a hand of four cards
# as it comes in most scripts and batch files is two lookups (2,704 entries).
_PAIR_BY_TEXT = {first + second: (first_card, second_card)
                 for first_card, first in enumerate(_CARD_NAMES) for second_card, second in enumerate(_CARD_NAMES)}


def card_rank(card: int) -> int:
    """Rank 0..12 (2..A) of a card."""
    return card >> 2


def card_suit(card: int) -> int:
    """Suit 0..3 (c, d, h, s) of a card."""
    return card & 3


def make_card(rank: int, suit: int) -> int:
    """The card of a rank 0..12 and a suit 0..3."""
    return rank * 4 + suit


def _split_tokens(text: str) -> list[str]:
    """Split card text into one token per card, whatever the separators."""
    tokens: list[str] = []
    for invisible in _INVISIBLE:
        text = text.replace(invisible, "")
    for chunk in text.replace(",", " ").split():
        position = 0
        while position < len(chunk):
            rank_length = 2 if chunk.startswith("10", position) else 1
            tokens.append(chunk[position:position + rank_length + 1])
            position += rank_length + 1
    return tokens


def parse_card(token: str) -> int:
    """Parse one card such as ``As``, ``td``, ``10h`` or ``K♠``.

    Raises
    ------
    InputError
        ``unknown card 'Ax': expected a rank ... followed by a suit ...``.
    """
    card = _CARD_BY_TEXT.get(token)
    if card is not None:
        return card
    text = token.strip()
    rank_text, suit_text = (text[:2], text[2:]) if text.startswith("10") else (text[:1], text[1:])
    if rank_text == "10":
        rank_text = "T"
    rank = RANKS.find(rank_text.upper()) if len(rank_text) == 1 else -1
    suit = SUIT_CHARACTERS.get(suit_text.lower(), -1) if len(suit_text) == 1 else -1
    if rank < 0 or suit < 0:
        raise InputError(f"unknown card {quoted(token)}: expected {_EXPECTED}")
    return make_card(rank, suit)


def parse_cards(text: str | Iterable[str | int]) -> tuple[int, ...]:
    """Parse a run of cards, e.g. ``"AsKsQhJh"``, ``"As Ks Qh Jh"``, ``"As,Ks,Qh,Jh"``.

    Also accepts an iterable of card tokens or of card ints (returned unchanged after a range
    check). Duplicates are not checked here; see :func:`check_no_duplicates`.

    Raises
    ------
    InputError
        For any token that is not a card.
    """
    if isinstance(text, str):
        return _parse_card_text(text)
    result: list[int] = []
    for item in text:
        if isinstance(item, str):
            result.extend(parse_cards(item))
        elif isinstance(item, int) and 0 <= item < DECK_SIZE:
            result.append(int(item))
        else:
            raise InputError(f"unknown card {quoted(item)}: expected {_EXPECTED}, or an int 0..51")
    return tuple(result)


@functools.lru_cache(maxsize=8192)
def _parse_card_text(text: str) -> tuple[int, ...]:
    """:func:`parse_cards` of a string, kept per text: a batch or the shell asks the same hands
    and boards again and again (errors are raised each time, never kept)."""
    # Cards written back to back (``AsKsQhJh``, how most hands come): every two characters
    # one card, every four canonical ones a pair. Anything else (spaces, commas, ``10``, a bad
    # card) takes the general way.
    length = len(text)
    if length == 8:  # a four-card hand
        first, second = _PAIR_BY_TEXT.get(text[:4]), _PAIR_BY_TEXT.get(text[4:])
        if first is not None and second is not None:
            return first + second
    if not length % 2:
        paired = [_CARD_BY_TEXT.get(text[position:position + 2]) for position in range(0, len(text), 2)]
        if None not in paired:
            return tuple(cast("list[int]", paired))
    cards: list[int] = []
    for token in _split_tokens(text):
        try:
            cards.append(parse_card(token))
        except InputError:
            if token.strip() == text.strip():
                raise
            raise InputError(f"unknown card {quoted(token)} in {quoted(text)}: expected {_EXPECTED}") from None
    return tuple(cards)


def format_card(card: int) -> str:
    """``51 -> 'As'``."""
    return _CARD_NAMES[card]


def format_cards(cards: Iterable[int], *, sort: bool = False, separator: str = "") -> str:
    """Cards as text. With ``sort=True`` the canonical hand order: rank descending, then suit
    s, h, d, c (``AsAhKsKh``); boards keep their dealing order (``sort=False``)."""
    ordered = sorted(cards, reverse=True) if sort else cards
    return separator.join([_CARD_NAMES[card] for card in ordered])


def check_no_duplicates(groups: Sequence[tuple[str, Sequence[int]]]) -> None:
    """Check that no card appears twice across labelled groups of cards.

    ``groups`` pairs a label (``"player 2"``, ``"board"``, ``"dead cards"``) with its cards.

    Raises
    ------
    InputError
        ``duplicate card Ah in player 2`` (twice in one group) or
        ``duplicate card Ah in player 2 and board``.
    """
    seen: dict[int, str] = {}
    for label, cards in groups:
        for card in cards:
            if card in seen:
                where = label if seen[card] == label else f"{seen[card]} and {label}"
                raise InputError(f"duplicate card {format_card(card)} in {where}")
            seen[card] = label
