"""Board ranges: a set of flops written as text (``AK*``, ``Ks**``, ``*``, ``$mono``,
``*w*w*x``, ``[T+][T+]*:$rainbow``), parsed once into the flops it holds.

Grammar (EBNF; whitespace is ignored, letters are case-insensitive)::

    board range = union ;
    union       = selection , { "," , selection } ;             (* or *)
    selection   = primary , { ( ":" | "!" ) , primary } ;       (* and, and not *)
    primary     = "(" , union , ")" | macro | "*" | pattern ;   (* a lone "*": every flop *)
    macro       = "$" , ( "mono" | "monotone" | "twotone" | "rainbow" | "paired" | "unpaired"
                        | "trips" | "connected" | "lowboard" | "low" ) ;
    pattern     = card , card , card ;                           (* in any order *)
    card        = rank part , [ suit part ] | suit part ;
    rank part   = rank | "*" | rank variable | list ;
    suit part   = suit | suit variable ;
    list        = "[" , item , { [ "," ] , item } , "]" ;
    item        = rank , [ "-" , rank | "+" | "-" ] ;
    suit variable = "w" | "x" | "y" | "z" ;
    rank variable = any other ASCII letter (conventionally "R", "O", "N") ;

A pattern's cards match the flop's cards in any order, as in hand ranges: the same suit
variable is the same suit, different ones are different suits, and a variable is never a suit
written in the pattern (ranks and rank variables alike). The macros are the textures of
:mod:`.texture`.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import numpy as np

from ..cards import RANKS, SUIT_CHARACTERS
from ..errors import InputError, quoted
from .flops import all_flops
from .texture import MACROS

_SUIT_VARIABLES = "wxyz"
_EXPECTED_PRIMARY = ("expected a flop pattern of three cards such as 'AK*' or 'Ks**', '*' for every flop, "
                     f"or a macro ({', '.join('$' + name for name in MACROS)})")
_EXPECTED_AFTER = "expected ',', ':', '!' or the end of the board range"


@dataclass(frozen=True)
class _Card:
    ranks: frozenset  # allowed ranks (empty: any)
    rank_variable: str
    suit: int  # -1: any
    suit_variable: str
    written_rank: bool  # one rank written outside a list (kept out of rank variables)


@dataclass(frozen=True)
class BoardRange:
    """A set of flops.

    Attributes
    ----------
    text : str
        The board range as written (stripped).
    mask : numpy.ndarray
        (22100,) bool over :func:`~omaha_equity.boards.flops.all_flops`: the flops it holds.
    """

    text: str
    mask: np.ndarray

    @property
    def flop_indexes(self) -> np.ndarray:
        """(n,) int64: its flops as rows of ``all_flops()``."""
        return np.flatnonzero(self.mask)

    @property
    def flops(self) -> np.ndarray:
        """(n, 3) int8: its flops, cards descending."""
        return all_flops()[self.mask]

    @property
    def count(self) -> int:
        """The concrete flops it holds (22,100 for ``*``)."""
        return int(self.mask.sum())

    def __contains__(self, flop) -> bool:
        cards = sorted(flop, reverse=True)
        row = np.flatnonzero((all_flops() == np.array(cards, dtype=np.int8)).all(axis=1))
        return bool(row.size and self.mask[row[0]])


def parse_board_range(text) -> BoardRange:
    """The flops of a board range (module docstring: the grammar).

    Parameters
    ----------
    text : str
        ``"AK*"``, ``"Ks**"``, ``"*"``, ``"$mono"``, ``"$twotone:$paired"``, ``"Kh7d2c, QQ*"``.

    Returns
    -------
    BoardRange

    Raises
    ------
    InputError
        Text that is not a board range: the message names the offending token, its position and
        what was expected there; a range that holds no flop.
    """
    if not isinstance(text, str) or not text.strip():
        raise InputError(f"empty board range {quoted(text)}: expected a flop pattern such as 'AK*', 'Ks**' or '*'")
    mask = _parse_cached(text.strip())
    if not mask.any():
        raise InputError(f"board range {quoted(text.strip())} holds no flop")
    return BoardRange(text.strip(), mask)


@functools.lru_cache(maxsize=64)
def _parse_cached(text: str) -> np.ndarray:
    mask = _Parser(text).parse()
    mask.flags.writeable = False
    return mask


def looks_like_board_range(text: str) -> bool:
    """Whether ``text`` uses board-range syntax (a wildcard, macro, list, variable or operator)
    rather than plain cards: then a command reads it with :func:`parse_board_range`."""
    if any(character in text for character in "*$[](),:!"):
        return True
    from ..cards import parse_cards

    try:
        parse_cards(text)
    except InputError:
        return True
    return False


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.position = 0

    def fail(self, what: str, position: int, expected: str) -> InputError:
        return InputError(f"{what} at position {position} in board range {quoted(self.text, position)}: {expected}")

    def peek(self) -> str:
        while self.position < len(self.text) and self.text[self.position].isspace():
            self.position += 1
        return self.text[self.position] if self.position < len(self.text) else ""

    def unexpected(self, expected: str) -> InputError:
        character = self.peek()
        if not character:
            return self.fail("unexpected end", self.position, expected)
        return self.fail(f"unexpected {quoted(character)}", self.position, expected)

    def parse(self) -> np.ndarray:
        mask = self.union()
        character = self.peek()
        if character == ")":
            raise self.fail("unexpected ')'", self.position, "it closes no '('")
        if character:
            raise self.unexpected(_EXPECTED_AFTER)
        return mask

    def union(self) -> np.ndarray:
        mask = self.selection()
        while self.peek() == ",":
            self.position += 1
            mask = mask | self.selection()
        return mask

    def selection(self) -> np.ndarray:
        mask = self.primary()
        while self.peek() in (":", "!") and self.peek():
            operator = self.text[self.position]
            self.position += 1
            other = self.primary()
            mask = mask & other if operator == ":" else mask & ~other
        return mask

    def primary(self) -> np.ndarray:
        character = self.peek()
        start = self.position
        if character == "(":
            self.position += 1
            mask = self.union()
            if self.peek() != ")":
                if not self.peek():
                    raise self.fail("unclosed '('", start, "expected ')'")
                raise self.unexpected(f"expected ',', ':', '!' or ')' to close the '(' at position {start}")
            self.position += 1
            return mask
        if character == "$":
            return self.macro()
        if not character or character in ",:!)":
            raise self.unexpected(_EXPECTED_PRIMARY)
        return self.pattern()

    def macro(self) -> np.ndarray:
        start = self.position
        self.position += 1
        end = self.position
        while end < len(self.text) and self.text[end].isalnum():
            end += 1
        name = self.text[self.position:end].lower()
        if name not in MACROS:
            known = ", ".join("$" + known for known in MACROS)
            raise self.fail(f"unknown macro {quoted(self.text[start:end])}", start, f"expected one of {known}")
        self.position = end
        return MACROS[name](all_flops())

    def pattern(self) -> np.ndarray:
        start = self.position
        cards: list[_Card] = []
        while self.peek() and self.peek() not in ",:!()$":
            if len(cards) == 3 and not _starts_card(self.peek()):
                break  # the caller says what may follow a pattern
            card_start = self.position
            card = self.card()
            cards.append(card)
            if len(cards) > 3:
                raise self.fail(f"card {quoted(self.text[card_start:self.position])} after three", card_start,
                                "a board range is a flop: expected three cards in a pattern, then ',', ':', '!' "
                                "or the end (turn and river conditions are not supported)")
        written = self.text[start:self.position].strip()
        if written == "*":
            return np.ones(len(all_flops()), dtype=bool)
        if len(cards) < 3:
            missing = "'" + written + "*" * (3 - len(cards)) + "'"
            raise self.fail(f"pattern {quoted(written)} of {len(cards)} card{'s' if len(cards) != 1 else ''}", start,
                            f"expected three cards, as in {missing} ('*' stands for any card)")
        return _match(cards)

    def card(self) -> _Card:
        start = self.position
        character = self.text[self.position]
        ranks: frozenset = frozenset()
        rank_variable = ""
        written_rank = False
        lower = character.lower()
        if character == "*":
            self.position += 1
        elif character == "[":
            ranks = self.rank_list()
        elif self.text.startswith("10", self.position):
            ranks, written_rank = frozenset({RANKS.index("T")}), True
            self.position += 2
        elif character.upper() in RANKS:
            ranks, written_rank = frozenset({RANKS.index(character.upper())}), True
            self.position += 1
        elif lower in SUIT_CHARACTERS or lower in _SUIT_VARIABLES:
            pass  # a lone suit part: any rank of that suit
        elif character.isascii() and character.isalpha():
            rank_variable = character.upper()
            self.position += 1
        else:
            raise self.fail(f"unknown character {quoted(character)}", start,
                            "expected a rank (2-9, T, J, Q, K, A), '*', a rank list such as '[T+]', a suit "
                            "(c, d, h, s) or a suit variable (w, x, y, z)")
        suit, suit_variable = -1, ""
        if self.position < len(self.text):
            following = self.text[self.position].lower()
            if following in SUIT_CHARACTERS:
                suit = SUIT_CHARACTERS[following]
                self.position += 1
            elif following in _SUIT_VARIABLES:
                suit_variable = following
                self.position += 1
        if self.position == start:
            raise self.unexpected(_EXPECTED_PRIMARY)
        return _Card(ranks, rank_variable, suit, suit_variable, written_rank)

    def rank_list(self) -> frozenset:
        opening = self.position
        self.position += 1
        ranks: set[int] = set()
        while True:
            character = self.peek()
            if character == "]":
                if not ranks:
                    raise self.fail("empty list", opening, "expected ranks such as '[A-T]', '[T+]' or '[A,K,Q]'")
                self.position += 1
                return frozenset(ranks)
            if character == ",":
                self.position += 1
                continue
            rank = self._list_rank(opening)
            following = self.peek()
            if following == "+":
                self.position += 1
                ranks.update(range(rank, 13))
            elif following == "-":
                self.position += 1
                after = self.peek()
                if after and (after.upper() in RANKS or self.text.startswith("10", self.position)):
                    other = self._list_rank(opening)
                    ranks.update(range(min(rank, other), max(rank, other) + 1))
                else:
                    ranks.update(range(0, rank + 1))
            else:
                ranks.add(rank)

    def _list_rank(self, opening: int) -> int:
        character = self.peek()
        if not character:
            raise self.fail("unclosed '['", opening, "expected ']'")
        if self.text.startswith("10", self.position):
            self.position += 2
            return RANKS.index("T")
        if character.upper() in RANKS:
            self.position += 1
            return RANKS.index(character.upper())
        raise self.unexpected("expected a rank (2-9, T, J, Q, K, A), '+', '-', ',' or ']' in a rank list")


def _starts_card(character: str) -> bool:
    return character in "*[" or (character.isascii() and character.isalnum())


def _distinct(values: list[np.ndarray]) -> np.ndarray:
    ok = np.ones(values[0].shape[0], dtype=bool)
    for first, second in itertools.combinations(values, 2):
        ok &= first != second
    return ok


def _match(cards: list[_Card]) -> np.ndarray:
    """Which flops match the three cards of a pattern, in some order of the flop's cards."""
    flops = all_flops().astype(np.int64)
    ranks_all, suits_all = flops >> 2, flops & 3
    written_suits = sorted({card.suit for card in cards if card.suit >= 0})
    written_ranks = sorted({next(iter(card.ranks)) for card in cards if card.written_rank})
    matched = np.zeros(flops.shape[0], dtype=bool)
    for order in itertools.permutations(range(3)):
        ranks = [ranks_all[:, position] for position in order]
        suits = [suits_all[:, position] for position in order]
        ok = np.ones(flops.shape[0], dtype=bool)
        for variable_kind, written, values in (("rank", written_ranks, ranks), ("suit", written_suits, suits)):
            groups: dict[str, list[int]] = {}
            for index, card in enumerate(cards):
                name = card.rank_variable if variable_kind == "rank" else card.suit_variable
                if name:
                    groups.setdefault(name, []).append(index)
            for members in groups.values():
                for member in members[1:]:
                    ok &= values[member] == values[members[0]]
                if written:
                    ok &= ~np.isin(values[members[0]], written)
            if len(groups) > 1:
                ok &= _distinct([values[members[0]] for members in groups.values()])
        for index, card in enumerate(cards):
            if card.ranks:
                ok &= np.isin(ranks[index], sorted(card.ranks))
            if card.suit >= 0:
                ok &= suits[index] == card.suit
        matched |= ok
    return matched
