"""Read a range expression into a tree of nodes (the grammar is in the package docstring).

The parser is a hand-written recursive descent over the characters of the expression, so every
error can name the 0-based position of the offending character:
``unexpected ')' at position 7 in 'AA,(KK))': it closes no '('``.

Nothing here depends on the game: the hole-card count is checked when the tree is compiled
(:mod:`omaha_equity.ranges.program`). Rank spans (``KK-TT``, ``TT+``) are expanded here into a
union of plain patterns, because they only move ranks.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from ..cards import RANKS, SUIT_CHARACTERS, SUITS
from ..categories.names import parse_term
from ..errors import InputError, quoted

RANK_COUNT = 13
SUIT_COUNT = 4
ACE = RANK_COUNT - 1

SUIT_VARIABLES = "wxyz"
#: Macro names (after ``$``) and what they mean; the kernels implement them.
MACROS = {
    "ds": "double suited: two suits hold exactly two cards each, no suit holds more",
    "ss": "single suited: one suit holds exactly two cards, no other suit holds two or more",
    "r": "rainbow: no two cards share a suit",
    "np": "no pair: no two cards share a rank",
}
MACRO_NAMES = tuple(MACROS)

_RANK_EXPECTED = "expected a rank 2-9, T or 10, J, Q, K or A"
_PRIMARY_EXPECTED = (
    "expected a hand pattern such as 'AA' or 'AxAyxy', '*', a percent such as '15%', "
    "a macro such as '$ds', a category filter such as '{set+}' or '('"
)
# Characters of a category term: letters, digits, '-' and a final '+' (``two-pair+``, ``wrap13+``).
_TERM_CHARACTERS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-+")
_MAX_PARENTHESES = 60
_AFTER_RANGE_EXPECTED = "expected ',', ':', '!', '@' or the end"
# Characters with a meaning somewhere in the grammar; anything else is an unknown character.
_OPERATOR_CHARACTERS = set("*[]-+,:!()@$%.{}")
# The grammar's digits are ASCII: str.isdigit() would also take '²' or fullwidth '１'.
_DIGITS = "0123456789"
_MACRO_CHARACTERS = set(_DIGITS + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
# The grammar's number: digits with an optional fraction, or a fraction alone, then an optional
# exponent ("10", "0.5", ".5", "1e3", "2.5E-1").
_NUMBER = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
# A hand's weight, the product of the weights written around it, stays within these bounds, so
# a range's total over millions of hands, and the product of such totals over the most players a
# deck deals (11), stay finite and normal in 64-bit floats ('AA@1e308' and
# '(AA@1e200)@1e200' overflowed to infinity and changed the equity).
MIN_WEIGHT = Fraction(1, 10**20)
MAX_WEIGHT = Fraction(10**20)


@dataclass(frozen=True)
class CardSpec:
    """One card of a pattern: a rank part and an optional suit part.

    Attributes
    ----------
    rank : int
        Explicit rank 0..12 (2..A) written outside brackets, else -1.
    rank_variable : str
        Rank variable letter (upper case), else ``""``.
    card_mask : int
        For a bracketed list such as ``[A-T]`` or ``[As,Kh]``: the allowed cards as a 52-bit mask
        (bit ``rank * 4 + suit``); 0 when the rank part is not a list.
    suit : int
        Explicit suit 0..3 (c, d, h, s) written outside brackets, else -1.
    suit_variable : str
        Suit variable letter ``w``, ``x``, ``y`` or ``z``, else ``""``.
    position : int
        Where the card starts in the expression.

    A card with none of ``rank``, ``rank_variable``, ``card_mask`` is a wildcard rank (``*``, or a
    lone suit such as ``s`` or ``x``).
    """

    rank: int = -1
    rank_variable: str = ""
    card_mask: int = 0
    suit: int = -1
    suit_variable: str = ""
    position: int = 0

    def shape(self) -> tuple:
        """Everything but the explicit rank and the position (to compare span ends)."""
        return (self.rank >= 0, self.rank_variable, self.card_mask, self.suit, self.suit_variable)


@dataclass(frozen=True, kw_only=True)
class Written:
    """Where a node starts in the expression (``position``) and the text it was written as, for
    messages; keyword-only, after a node's own fields."""

    position: int
    text: str


@dataclass(frozen=True)
class Pattern(Written):
    """A hand pattern: a hand holds it when it has distinct cards matching every card spec."""

    cards: tuple[CardSpec, ...]


@dataclass(frozen=True)
class Macro(Written):
    """``$name``: a named range (docs/ranges.md)."""

    name: str


@dataclass(frozen=True)
class Percent(Written):
    """``low%-high%`` (``high%`` alone has ``low == 0``), ``6h`` for the 6-handed ranking."""

    low: float
    high: float
    six_handed: bool


@dataclass(frozen=True)
class CategoryFilter(Written):
    """``{set+, nfd}``: the hands that hold any of the category terms on the board
    (docs/categories.md); ``terms`` lower case as written, checked by the parser."""

    terms: tuple[str, ...]


@dataclass(frozen=True)
class Weighted(Written):
    """``child@weight``; ``text`` is the number as written (its exact decimal value)."""

    child: Node
    weight: float


@dataclass(frozen=True)
class Combine:
    """``left , right`` (or), ``left : right`` (and), ``left ! right`` (and not)."""

    operator: str
    left: Node
    right: Node
    position: int


Node = Pattern | Macro | Percent | CategoryFilter | Weighted | Combine


def _balanced(operator: str, operands: list, positions: list) -> Node:
    """Join operands of an associative operator (``,`` or ``:``) as a balanced tree, so a
    list of a thousand hands nests ten levels deep rather than a thousand."""
    if len(operands) == 1:
        return operands[0]
    middle = len(operands) // 2
    return Combine(operator, _balanced(operator, operands[:middle], positions[:middle - 1]),
                   _balanced(operator, operands[middle:], positions[middle:]), positions[middle - 1])


def parse_expression(expression: str) -> Node:
    """Parse a range expression into a tree.

    Raises
    ------
    InputError
        With the 0-based position of the offending character, e.g.
        ``unexpected ')' at position 7 in 'AA,(KK))': it closes no '('``; or for anything but
        text (``['AA']``).
    """
    check_expression(expression)
    return _parse(expression)


def check_expression(expression) -> None:
    """Raises InputError unless ``expression`` is text (before any cache sees it)."""
    if not isinstance(expression, str):
        raise InputError(f"expected a range expression as text, such as 'AA:$ds', got {quoted(expression)}")


@lru_cache(maxsize=1024)
def _parse(expression: str) -> Node:
    return _Parser(expression).parse()


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.position = 0
        self.depth = 0

    # -- helpers ------------------------------------------------------------------------------

    def fail(self, what: str, position: int, expected: str = "") -> InputError:
        suffix = f": {expected}" if expected else ""
        return InputError(f"{what} at position {position} in {quoted(self.text, position)}{suffix}")

    def skip_space(self) -> None:
        while self.position < len(self.text) and self.text[self.position].isspace():
            self.position += 1

    def peek(self) -> str:
        """The next non-space character, or ``""`` at the end."""
        self.skip_space()
        return self.text[self.position] if self.position < len(self.text) else ""

    def unexpected(self, expected: str) -> InputError:
        character = self.peek()
        if not character:
            return self.fail("unexpected end", self.position, expected)
        if not _is_known_character(character):
            return self.fail(f"unknown character {quoted(character)}", self.position, expected)
        return self.fail(f"unexpected {quoted(character)}", self.position, expected)

    # -- combinators --------------------------------------------------------------------------

    def parse(self) -> Node:
        if not self.text.strip():
            raise InputError(f"empty range {quoted(self.text)}: expected a hand pattern such as 'AA' or '*'")
        node = self.union()
        character = self.peek()
        if character == ")":
            raise self.fail("unexpected ')'", self.position, "it closes no '('")
        if character == "$":
            raise self.fail(
                "unexpected '$'", self.position, "a macro is a whole range: combine it with ':' as in 'AA:$ds'"
            )
        if character:
            raise self.unexpected(_AFTER_RANGE_EXPECTED)
        self.check_weights(node)
        return node

    def check_weights(self, root: Node) -> None:
        """Every hand's weight is the product of the weights written around some part of the
        range, from that part out to the whole: keep each such product within
        ``MIN_WEIGHT..MAX_WEIGHT`` (exact decimal arithmetic, so nothing overflows on the way)."""
        pending: list[tuple[Node, Fraction]] = [(root, Fraction(1))]
        while pending:  # a loop, not recursion: chains of '!' nest one level per term
            node, product = pending.pop()
            if isinstance(node, Weighted):
                product *= Fraction(node.text or repr(node.weight))
                if not MIN_WEIGHT <= product <= MAX_WEIGHT:
                    raise self.fail(
                        f"weight {quoted(node.text)} makes a hand weigh {_magnitude(product)}", node.position + 1,
                        "expected every hand's weight (the product of the weights around it) from 1e-20 to 1e20",
                    )
                pending.append((node.child, product))
            elif isinstance(node, Combine):
                pending.append((node.left, product))
                pending.append((node.right, product))

    def union(self) -> Node:
        operands = [self.selection()]
        positions = []
        while self.peek() == ",":
            positions.append(self.position)
            self.position += 1
            operands.append(self.selection())
        return _balanced(",", operands, positions)

    def selection(self) -> Node:
        operands = [self.weighted()]
        operators = []
        while self.peek() in (":", "!"):
            operators.append((self.text[self.position], self.position))
            self.position += 1
            operands.append(self.weighted())
        if all(operator == ":" for operator, _ in operators):
            return _balanced(":", operands, [position for _, position in operators])
        node = operands[0]
        for (operator, position), operand in zip(operators, operands[1:]):
            node = Combine(operator, node, operand, position)
        return node

    def weighted(self) -> Node:
        node = self.primary()
        if self.peek() == "@":
            position = self.position
            self.position += 1
            self.skip_space()
            start = self.position
            # the token as far as it looks like a number, to quote it whole when it is not one
            while self.position < len(self.text) and self.text[self.position] in _DIGITS + ".+-eE":
                self.position += 1
            token = self.text[start:self.position]
            if not token:
                raise self.unexpected("expected a positive number after '@', as in 'AA@10'")
            if not _NUMBER.fullmatch(token):
                raise self.fail(
                    f"bad weight {quoted(token)}", start, "expected a positive number after '@', as in 'AA@10'"
                )
            weight = float(token)
            if not (math.isfinite(weight) and weight > 0):
                raise self.fail(f"bad weight {quoted(token)}", start, "expected a positive number, as in 'AA@10'")
            node = Weighted(node, weight, position=position, text=token)
            if self.peek() == "@":
                raise self.fail(
                    "second weight", self.position, "expected one '@N' per range, or parentheses as in '(AA@2)@3'"
                )
        return node

    def primary(self) -> Node:
        character = self.peek()
        start = self.position
        if character == "(":
            self.depth += 1
            if self.depth > _MAX_PARENTHESES:
                raise self.fail("too many nested '('", start, f"expected at most {_MAX_PARENTHESES} levels")
            self.position += 1
            node = self.union()
            self.depth -= 1
            closing = self.peek()
            if closing == ")":
                self.position += 1
                return node
            if not closing:
                raise self.fail("unclosed '('", start, "expected ')'")
            raise self.unexpected(f"expected ',', ':', '!', '@' or ')' to close the '(' at position {start}")
        if character == "$":
            return self.macro()
        if character == "{":
            return self.category_filter()
        if character in _DIGITS or character == ".":
            number_end = self._number_end(self.position)
            following = number_end
            while following < len(self.text) and self.text[following].isspace():
                following += 1
            if following < len(self.text) and self.text[following] == "%":
                return self.percent()
        if _starts_card(character):
            return self.hand()
        raise self.unexpected(_PRIMARY_EXPECTED)

    # -- macros and percent ranges ------------------------------------------------------------

    def macro(self) -> Macro:
        start = self.position
        self.position += 1
        while self.position < len(self.text) and self.text[self.position] in _MACRO_CHARACTERS:
            self.position += 1
        text = self.text[start:self.position]
        name = text[1:].lower()
        if name not in MACROS:
            known = ", ".join("$" + known_name for known_name in MACRO_NAMES)
            raise self.fail(f"unknown macro {quoted(text)}", start, f"expected one of {known}")
        return Macro(name, position=start, text=text)

    def category_filter(self) -> CategoryFilter:
        """``{set+}``, ``{wrap13+, nfd}``: category terms between braces (any of them)."""
        opening = self.position
        self.position += 1
        terms = []
        while True:
            self.skip_space()
            start = self.position
            while self.position < len(self.text) and self.text[self.position] in _TERM_CHARACTERS:
                self.position += 1
            term = self.text[start:self.position]
            if not term:
                if not self.peek():
                    raise self.fail("unclosed '{'", opening, "expected '}'")
                raise self.unexpected("expected a category name such as 'set' or 'two-pair+'")
            try:
                terms.append(parse_term(term).name)
            except InputError as error:
                raise self.fail(str(error).split(":", 1)[0], start, str(error).split(": ", 1)[1]) from None
            character = self.peek()
            if character == ",":
                self.position += 1
                continue
            if character == "}":
                self.position += 1
                return CategoryFilter(tuple(terms), position=opening, text=self.text[opening:self.position])
            if not character:
                raise self.fail("unclosed '{'", opening, "expected '}'")
            raise self.unexpected("expected ',' or '}' after a category name")

    def _number_end(self, position: int) -> int:
        """Where the grammar's number starting at ``position`` ends (``position`` if none)."""
        match = _NUMBER.match(self.text, position)
        return match.end() if match else position

    def _number(self) -> tuple[float, int, str]:
        self.skip_space()
        start = self.position
        self.position = self._number_end(start)
        token = self.text[start:self.position]
        try:
            return float(token), start, token
        except ValueError:
            raise self.fail(f"bad number {quoted(token)}", start, "expected a percent such as '15%'") from None

    def percent(self) -> Percent:
        start = self.position
        low, low_position, low_text = self._number()
        self.peek()
        self.position += 1  # the '%' (checked by primary)
        high, high_position, high_text = low, low_position, low_text
        spanned = False
        if self.peek() == "-":
            after = self.position + 1
            while after < len(self.text) and self.text[after].isspace():
                after += 1
            if after < len(self.text) and self.text[after] in _DIGITS + ".":
                self.position += 1
                high, high_position, high_text = self._number()
                if self.peek() != "%":
                    raise self.unexpected(f"expected '%' after {quoted(high_text)}, as in '5%-10%'")
                self.position += 1
                spanned = True
        six_handed = False
        if self.text[self.position:self.position + 2].lower() == "6h":
            six_handed = True
            self.position += 2
        text = self.text[start:self.position].strip()
        if not spanned:
            if not 0 < high <= 100:
                raise self.fail(f"percent {quoted(text)} out of range", start,
                                "expected a number above 0 and at most 100")
            return Percent(0.0, high, six_handed, position=start, text=text)
        if not 0 <= low <= 100:
            raise self.fail(f"percent {quoted(low_text + '%')} out of range", low_position,
                            "expected a number from 0 to 100")
        if not 0 < high <= 100:
            raise self.fail(
                f"percent {quoted(high_text + '%')} out of range", high_position,
                "expected a number above 0 and at most 100",
            )
        if low >= high:
            raise self.fail(
                f"percent range {quoted(text)} runs the wrong way", start,
                "expected the lower percent first and below the upper one, as in '5%-10%'",
            )
        return Percent(low, high, six_handed, position=start, text=text)

    # -- hand patterns and spans --------------------------------------------------------------

    def hand(self) -> Node:
        start = self.position
        first = self.pattern()
        character = self.peek()
        if character == "+":
            self.position += 1
            return self._moved(first, start, up=True)
        if character == "-":
            after = self.position + 1
            while after < len(self.text) and self.text[after].isspace():
                after += 1
            if after < len(self.text) and _starts_card(self.text[after]):
                self.position += 1
                second = self.pattern()
                return self._span(first, second, start)
            self.position += 1
            return self._moved(first, start, up=False)
        return first

    def _span_text(self, start: int) -> str:
        return self.text[start:self.position].strip()

    def _moved(self, pattern: Pattern, start: int, up: bool) -> Node:
        """``TT+`` (TT up to AA) or ``TT-`` (TT down to 22): every explicit rank moves together."""
        text = self._span_text(start)
        ranks = [card.rank for card in pattern.cards if card.rank >= 0]
        if not ranks:
            raise self.fail(
                f"span {quoted(text)} has no rank to move", start,
                "expected explicit ranks before '+' or '-', as in 'TT+'",
            )
        steps = range(0, ACE - max(ranks) + 1) if up else range(-min(ranks), 1)
        return _union_of([_shift(pattern, step, start, text) for step in steps])

    def _span(self, high: Pattern, low: Pattern, start: int) -> Node:
        """``KK-TT``: both ends have the same shape and their explicit ranks differ by one amount."""
        text = self._span_text(start)
        same_shape = len(high.cards) == len(low.cards) and all(
            high_card.shape() == low_card.shape() for high_card, low_card in zip(high.cards, low.cards)
        )
        steps = {
            high_card.rank - low_card.rank for high_card, low_card in zip(high.cards, low.cards) if high_card.rank >= 0
        }
        if not same_shape or len(steps) > 1:
            raise self.fail(
                f"span {quoted(text)} has ends of different shapes", start,
                "expected the same cards on both sides, every rank moved by the same amount, as in 'KK-TT' or 'AK-T9'",
            )
        if not steps:
            raise self.fail(f"span {quoted(text)} has no rank to move", start, "expected explicit ranks, as in 'KK-TT'")
        step = steps.pop()
        if step < 0:
            raise self.fail(f"span {quoted(text)} runs the wrong way", start,
                            "expected the higher end first, as in 'KK-TT'")
        return _union_of([_shift(low, offset, start, text) for offset in range(step + 1)])

    def pattern(self) -> Pattern:
        self.skip_space()
        start = self.position
        cards: list[CardSpec] = []
        while True:
            self.skip_space()
            if self.position >= len(self.text) or not _starts_card(self.text[self.position]):
                break
            cards.append(self.card())
        text = self.text[start:self.position].strip()
        _check_no_repeated_card(cards, text, self)
        return Pattern(tuple(cards), position=start, text=text)

    def card(self) -> CardSpec:
        start = self.position
        character = self.text[start]
        lower = character.lower()
        if lower in SUIT_CHARACTERS:
            self.position += 1
            return CardSpec(suit=SUIT_CHARACTERS[lower], position=start)
        if lower in SUIT_VARIABLES:
            self.position += 1
            return CardSpec(suit_variable=lower, position=start)
        if character == "[":
            spec = CardSpec(card_mask=self.card_list(), position=start)
        elif character == "*":
            self.position += 1
            spec = CardSpec(position=start)
        elif _is_rank_character(character):
            spec = CardSpec(rank=self.rank(), position=start)
        else:  # any other ASCII letter: a rank variable
            self.position += 1
            spec = CardSpec(rank_variable=character.upper(), position=start)
        following = self.peek()
        lower = following.lower()
        if following and lower in SUIT_CHARACTERS:
            self.position += 1
            spec = replace(spec, suit=SUIT_CHARACTERS[lower])
        elif following and lower in SUIT_VARIABLES:
            self.position += 1
            spec = replace(spec, suit_variable=lower)
        return spec

    def rank(self) -> int:
        start = self.position
        character = self.text[start].upper()
        if character == "1":
            if self.text[start + 1:start + 2] == "0":
                self.position += 2
                return RANKS.index("T")
            raise self.fail("unknown rank '1'", start, _RANK_EXPECTED)
        if character not in RANKS:
            raise self.fail(f"unknown rank {quoted(self.text[start])}", start, _RANK_EXPECTED)
        self.position += 1
        return RANKS.index(character)

    def card_list(self) -> int:
        """``[A-T]``, ``[A,2,3,4,5]``, ``[T+]``, ``[s,h]``, ``[As,Kh]``: the allowed cards as a mask."""
        opening = self.position
        self.position += 1
        mask = 0
        item_count = 0
        while True:
            character = self.peek()
            if not character:
                raise self.fail("unclosed '['", opening, "expected ']'")
            if character == "]":
                self.position += 1
                if item_count == 0:
                    raise self.fail("empty list '[]'", opening, "expected ranks, as in '[A-T]' or '[A,2,3,4,5]'")
                return mask
            if character == ",":
                self.position += 1
                continue
            lower = character.lower()
            if lower in SUIT_CHARACTERS:
                self.position += 1
                mask |= _cards_mask(range(RANK_COUNT), SUIT_CHARACTERS[lower])
            elif _is_rank_character(character):
                mask |= self.list_item()
            else:
                raise self.unexpected("expected a rank, a rank span such as 'A-T', a suit or ']'")
            item_count += 1

    def _optional_suit(self) -> int:
        if self.position < len(self.text) and self.text[self.position].lower() in SUIT_CHARACTERS:
            suit = SUIT_CHARACTERS[self.text[self.position].lower()]
            self.position += 1
            return suit
        return -1

    def list_item(self) -> int:
        start = self.position
        first = self.rank()
        first_suit = self._optional_suit()
        ranks: range = range(first, first + 1)
        suit = first_suit
        if self.peek() == "+":
            self.position += 1
            ranks = range(first, ACE + 1)
        elif self.peek() == "-":
            self.position += 1
            following = self.peek()
            if following and _is_rank_character(following):
                last = self.rank()
                last_suit = self._optional_suit()
                text = self.text[start:self.position]
                if last_suit != first_suit:
                    raise self.fail(
                        f"span {quoted(text)} has different suits at its ends", start,
                        "expected the same suit on both ends, as in 'As-Ts'",
                    )
                if last > first:
                    raise self.fail(
                        f"span {quoted(text)} runs the wrong way", start,
                        "expected the higher rank first (aces high), as in 'A-T'",
                    )
                ranks = range(last, first + 1)
            else:
                ranks = range(0, first + 1)
        if suit < 0:
            suit = self._optional_suit()
        return _cards_mask(ranks, suit)


def _is_rank_character(character: str) -> bool:
    return character.isascii() and (character.upper() in RANKS or character in "10")


def _starts_card(character: str) -> bool:
    if not character:
        return False
    return (
        character in "*["
        or character in _DIGITS
        or character.lower() in SUIT_CHARACTERS
        or (character.isascii() and character.isalpha())
    )


def _is_known_character(character: str) -> bool:
    return _starts_card(character) or character in _OPERATOR_CHARACTERS or character.isspace()


def _magnitude(value: Fraction) -> str:
    """A positive number for a message, also beyond the range of floats: ``1e+400``."""
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if sys.float_info.min <= number < math.inf:  # a normal float: shown as it is
        return f"{number:g}"
    exponent = math.floor(math.log10(value.numerator) - math.log10(value.denominator))
    return f"about 1e{exponent:+d}"


def _cards_mask(ranks, suit: int) -> int:
    """52-bit mask of the cards of these ranks, of one suit (0..3) or of every suit (-1)."""
    suits = range(SUIT_COUNT) if suit < 0 else (suit,)
    mask = 0
    for rank in ranks:
        for each_suit in suits:
            mask |= 1 << (rank * 4 + each_suit)
    return mask


def _shift(pattern: Pattern, step: int, position: int, text: str) -> Pattern:
    cards = tuple(replace(card, rank=card.rank + step) if card.rank >= 0 else card for card in pattern.cards)
    return Pattern(cards, position=position, text=text)


def _union_of(patterns: list[Pattern]) -> Node:
    node: Node = patterns[0]
    for pattern in patterns[1:]:
        node = Combine(",", node, pattern, pattern.position)
    return node


def _check_no_repeated_card(cards: list[CardSpec], text: str, parser: _Parser) -> None:
    """``AsAs`` can never match (a hand holds each card once): say so instead of an empty range."""
    seen = set()
    for card in cards:
        if card.rank >= 0 and card.suit >= 0:
            key = (card.rank, card.suit)
            if key in seen:
                name = RANKS[card.rank] + SUITS[card.suit]
                raise parser.fail(
                    f"card {name} appears twice in pattern {quoted(text)}", card.position, "expected each card once"
                )
            seen.add(key)
