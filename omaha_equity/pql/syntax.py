"""PQL text -> a :class:`Query`: a tokenizer and a recursive-descent parser.

Grammar (EBNF; keywords and names are case-insensitive)::

    query     = "select" , selector , { "," , selector } , "from" , binding , { "," , binding } ,
                [ "where" , expr ] , [ ";" ] ;
    selector  = ( "avg" | "count" | "histogram" | "min" | "max" ) , "(" , expr , ")" , [ "as" , name ] ;
    binding   = name , "=" , ( string | number | name ) | "exact" ;
    expr      = and , { "or" , and } ;
    and       = not , { "and" , not } ;
    not       = "not" , not | compare ;
    compare   = sum , [ ( "=" | "==" | "<>" | "!=" | "<" | "<=" | ">" | ">=" ) , sum ] ;
    sum       = product , { ( "+" | "-" ) , product } ;
    product   = unary , { ( "*" | "/" ) , unary } ;
    unary     = "-" , unary | primary ;
    primary   = number | string | name , [ "(" , [ expr , { "," , expr } ] , ")" ] | "(" , expr , ")" ;

Errors are :class:`PqlError`: one line naming the token and its 1-based column, then the query
and a caret under the token.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Union

from ..errors import InputError

SELECTORS = ("avg", "count", "histogram", "min", "max")
KEYWORDS = ("select", "from", "where", "as", "and", "or", "not", "exact")
_OPERATORS = ("<=", ">=", "<>", "!=", "==", "=", "<", ">", "+", "-", "*", "/", "(", ")", ",", ";")


class PqlError(InputError):
    """A query the language cannot read or check: the message names the token and its column,
    and shows the query with a caret under it."""

    def __init__(self, message: str, query: str = "", column: int | None = None, suggestions=(), choices=()):
        text = f"pql: {message}"
        if column is not None:
            text += f" at column {column}"
        close = difflib.get_close_matches(suggestions, choices, n=1, cutoff=0.6) if suggestions else []
        if close:
            text += f"; did you mean {close[0]}?"
        if column is not None and query:
            line = " ".join(query.split("\n"))
            start = max(0, column - 60)
            text += f"\n  {line[start:start + 100]}\n  {' ' * (column - 1 - start)}^"
        super().__init__(text)


@dataclass(frozen=True)
class Token:
    kind: str  # "name", "number", "string", "operator", "end"
    text: str
    column: int  # 1-based

    @property
    def lower(self) -> str:
        return self.text.lower()


@dataclass(frozen=True)
class Number:
    value: float
    column: int


@dataclass(frozen=True)
class Text:
    value: str
    column: int


@dataclass(frozen=True)
class Name:
    name: str
    column: int


@dataclass(frozen=True)
class Call:
    name: str
    arguments: tuple[Expression, ...]
    column: int


@dataclass(frozen=True)
class Unary:
    operator: str  # "not" or "-"
    operand: Expression
    column: int


@dataclass(frozen=True)
class Binary:
    operator: str  # and, or, =, <>, <, <=, >, >=, +, -, *, /
    left: Expression
    right: Expression
    column: int


Expression = Union[Number, Text, Name, Call, Unary, Binary]


@dataclass(frozen=True)
class Selector:
    kind: str
    expression: Expression
    name: str
    column: int


@dataclass(frozen=True)
class Binding:
    name: str
    value: str | float | bool
    column: int


@dataclass(frozen=True)
class Query:
    """A parsed query: its text, selectors, bindings (in order) and where clause (or None)."""

    text: str
    selectors: tuple[Selector, ...]
    bindings: tuple[Binding, ...]
    where: Expression | None


def tokenize(text: str) -> list[Token]:
    """The tokens of a query, ending with an ``end`` token.

    Raises
    ------
    PqlError
        An unclosed string or a character the language does not use.
    """
    tokens = []
    position = 0
    while position < len(text):
        character = text[position]
        if character.isspace():
            position += 1
            continue
        column = position + 1
        if character in "'\"":
            end = text.find(character, position + 1)
            if end < 0:
                raise PqlError(f"unclosed string {text[position:position + 20]!r}: expected a closing {character}",
                               text, column)
            tokens.append(Token("string", text[position + 1:end], column))
            position = end + 1
        elif character.isdigit() or (character == "." and text[position + 1:position + 2].isdigit()):
            end = position
            while end < len(text) and (text[end].isdigit() or text[end] == "."):
                end += 1
            tokens.append(Token("number", text[position:end], column))
            position = end
        elif character.isalpha() or character == "_":
            end = position
            while end < len(text) and (text[end].isalnum() or text[end] == "_"):
                end += 1
            tokens.append(Token("name", text[position:end], column))
            position = end
        else:
            for operator in _OPERATORS:
                if text.startswith(operator, position):
                    tokens.append(Token("operator", operator, column))
                    position += len(operator)
                    break
            else:
                raise PqlError(f"unexpected character {character!r}", text, column)
    tokens.append(Token("end", "", len(text) + 1))
    return tokens


def parse_query(text: str) -> Query:
    """Parse one query (module docstring: the grammar).

    Raises
    ------
    PqlError
        Syntax errors, with the column of the offending token.
    """
    if not isinstance(text, str) or not text.strip():
        raise PqlError("empty query: expected 'select ... from ...'")
    return _Parser(text).query()


def _describe(token: Token) -> str:
    return "the end of the query" if token.kind == "end" else repr(token.text)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.index = 0

    @property
    def token(self) -> Token:
        return self.tokens[self.index]

    def advance(self) -> Token:
        token = self.token
        self.index += 1
        return token

    def fail(self, expected: str, token: Token | None = None) -> PqlError:
        token = token or self.token
        return PqlError(f"unexpected {_describe(token)}: expected {expected}", self.text, token.column)

    def accept(self, *words: str) -> Token | None:
        token = self.token
        if (token.kind == "name" and token.lower in words) or (token.kind == "operator" and token.text in words):
            return self.advance()
        return None

    def expect(self, word: str, expected: str) -> Token:
        token = self.accept(word)
        if token is None:
            raise self.fail(expected)
        return token

    def query(self) -> Query:
        self.expect("select", "'select'")
        selectors = [self.selector()]
        while self.accept(","):
            selectors.append(self.selector())
        self.expect("from", "',' or 'from'")
        bindings = [self.binding()]
        while self.accept(","):
            bindings.append(self.binding())
        where = self.expression() if self.accept("where") else None
        self.accept(";")
        if self.token.kind != "end":
            raise self.fail("',', 'where' or the end of the query" if where is None else "the end of the query")
        return Query(self.text, tuple(selectors), tuple(bindings), where)

    def selector(self) -> Selector:
        token = self.token
        if token.kind != "name" or token.lower not in SELECTORS:
            if token.kind == "name":
                raise PqlError(f"unknown selector {token.text!r}", self.text, token.column, token.lower, SELECTORS)
            raise self.fail(f"a selector ({', '.join(SELECTORS)})")
        self.advance()
        self.expect("(", f"'(' after {token.text}")
        expression = self.expression()
        self.expect(")", "')'")
        if self.accept("as"):
            alias = self.advance()
            if alias.kind != "name":
                raise self.fail("a name after 'as'", alias)
            name = alias.text
        else:
            name = self.text[token.column - 1:self.tokens[self.index - 1].column].strip()
        return Selector(token.lower, expression, name, token.column)

    def binding(self) -> Binding:
        token = self.advance()
        if token.kind != "name":
            raise self.fail("a binding such as hero='AA**' or game='omahahi'", token)
        if token.lower == "exact" and not (self.token.kind == "operator" and self.token.text == "="):
            return Binding("exact", True, token.column)
        self.expect("=", f"'=' after {token.text}")
        value = self.advance()
        if value.kind == "string":
            return Binding(token.text, value.text, token.column)
        if value.kind == "number":
            return Binding(token.text, float(value.text), token.column)
        if value.kind == "name":
            return Binding(token.text, value.text, token.column)
        raise self.fail(f"a value for {token.text} (a quoted text or a number)", value)

    def expression(self) -> Expression:
        left = self.conjunction()
        while (token := self.accept("or")) is not None:
            left = Binary("or", left, self.conjunction(), token.column)
        return left

    def conjunction(self) -> Expression:
        left = self.negation()
        while (token := self.accept("and")) is not None:
            left = Binary("and", left, self.negation(), token.column)
        return left

    def negation(self) -> Expression:
        token = self.accept("not")
        if token is not None:
            return Unary("not", self.negation(), token.column)
        return self.comparison()

    def comparison(self) -> Expression:
        left = self.sum()
        token = self.accept("=", "==", "<>", "!=", "<", "<=", ">", ">=")
        if token is not None:
            operator = {"==": "=", "!=": "<>"}.get(token.text, token.text)
            left = Binary(operator, left, self.sum(), token.column)
        return left

    def sum(self) -> Expression:
        left = self.product()
        while (token := self.accept("+", "-")) is not None:
            left = Binary(token.text, left, self.product(), token.column)
        return left

    def product(self) -> Expression:
        left = self.unary()
        while (token := self.accept("*", "/")) is not None:
            left = Binary(token.text, left, self.unary(), token.column)
        return left

    def unary(self) -> Expression:
        token = self.accept("-")
        if token is not None:
            return Unary("-", self.unary(), token.column)
        return self.primary()

    def primary(self) -> Expression:
        token = self.token
        if token.kind == "number":
            self.advance()
            return Number(float(token.text), token.column)
        if token.kind == "string":
            self.advance()
            return Text(token.text, token.column)
        if self.accept("("):
            inner = self.expression()
            self.expect(")", "')'")
            return inner
        if token.kind == "name" and token.lower not in KEYWORDS:
            self.advance()
            if self.accept("("):
                arguments = []
                if not self.accept(")"):
                    arguments.append(self.expression())
                    while self.accept(","):
                        arguments.append(self.expression())
                    self.expect(")", "',' or ')'")
                return Call(token.text, tuple(arguments), token.column)
            return Name(token.text, token.column)
        raise self.fail("a value: a number, a quoted text, a name or a function call")
