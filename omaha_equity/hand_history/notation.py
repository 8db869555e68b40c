"""The PHH action notation: one string per action, parsed and written.

Grammar (PHH specification, ``required.rst``, "Actions"):
``[[Actor Action[ Arguments...]][ # Commentary]]``, words separated by whitespace. The actor is
``d`` (the dealer) or ``pN`` (player N, counted from 1). The actions used by Omaha:

============================  ===========================================
``d dh pN CARDS``             deal player N's hole cards (``??`` unknown)
``d db CARDS``                deal board cards
``pN cbr AMOUNT``             bet, raise or complete **to** AMOUNT
``pN cc``                     check or call
``pN f``                      fold
``pN sm CARDS`` / ``pN sm -`` show (``-``: the cards already dealt)
``pN sm``                     muck
``# text`` or empty           no-op (commentary only)
============================  ===========================================

``pN pb`` (bring-in) and ``pN sd`` (stand pat/discard) parse but belong to stud and draw games.
Cards are written two characters each, no separators (``AsKd``); an unknown card is ``??``.

The helper functions (:func:`deal_hole`, :func:`bet_or_raise_to`, ...) write the notation, so
a converter from another format never formats it by hand.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from ..cards import format_card, parse_card
from ..errors import InputError, quoted

Amount = int | Decimal
"""Chips as the PHH file gives them: an ``int``, or a ``Decimal`` for fractional amounts."""

UNKNOWN_CARD = "??"
PLAYER_VERBS = frozenset({"cbr", "cc", "f", "sm", "sd", "pb"})
DEALER_VERBS = frozenset({"dh", "db"})


@dataclass(frozen=True)
class ActionNotation:
    """One parsed PHH action.

    Attributes
    ----------
    text : str
        The notation as written.
    actor : str or None
        ``"d"`` or ``"pN"``; None for a no-op (empty or commentary only).
    verb : str or None
        ``"dh"``, ``"db"``, ``"cbr"``, ``"cc"``, ``"f"``, ``"sm"``, ``"sd"``, ``"pb"``.
    player : int or None
        Player number (1-based): the acting player, or the player dealt to by ``dh``.
    cards : tuple of (int or None) or None
        Cards of ``dh``, ``db``, ``sm`` and ``sd`` (card ints 0..51, None for each ``??``);
        None when the action has none (``pN sm`` mucks).
    show_dealt : bool
        ``pN sm -``: show the hole cards already dealt.
    amount : int or Decimal or None
        ``cbr``: the raise-to total.
    commentary : str or None
        The text after ``#``.
    """

    text: str
    actor: str | None = None
    verb: str | None = None
    player: int | None = None
    cards: tuple[int | None, ...] | None = None
    show_dealt: bool = False
    amount: Amount | None = None
    commentary: str | None = None

    @property
    def is_no_op(self) -> bool:
        return self.actor is None

    @property
    def known_cards(self) -> tuple[int, ...] | None:
        """The cards when every one is known, else None."""
        if self.cards is None or any(card is None for card in self.cards):
            return None
        return tuple(self.cards)  # type: ignore[arg-type]


#: Decimal places an amount may have: a file in units of 10**-9 (finer than any currency or
#: crypto coin the rooms use) is replayed in whole engine chips without loss.
MAX_DECIMAL_PLACES = 9


def amount_problem(value: Amount) -> str | None:
    """Why ``value`` cannot be an amount of chips, or None: negative, not finite, more than
    ``MAX_CHIPS`` (2**63 - 1, what a hand settles exactly) or finer than
    :data:`MAX_DECIMAL_PLACES` decimal places. Read from the digits, before any arithmetic, so a
    huge or tiny number (``1e999999999``, ``1e-100000``) is refused at once and never rounded."""
    from ..rules.chips import MAX_CHIPS

    if isinstance(value, Decimal):
        if not value.is_finite():
            return "expected a finite number of chips"
        if value.is_signed() and value != 0:
            return "expected a number of chips >= 0"
        _, digits, exponent = value.as_tuple()
        assert isinstance(exponent, int)  # a finite Decimal's exponent ('n', 'N', 'F': NaN, inf)
        significant = len(digits)
        while exponent < 0 and significant > 1 and digits[significant - 1] == 0:  # trailing zeros
            significant -= 1
            exponent += 1
        if significant + exponent > len(str(MAX_CHIPS)) or (exponent >= 0 and int(value) > MAX_CHIPS):
            return f"expected at most {MAX_CHIPS:,} chips"
        if -exponent > MAX_DECIMAL_PLACES:
            return f"expected at most {MAX_DECIMAL_PLACES} decimal places"
        if int(value) > MAX_CHIPS:
            return f"expected at most {MAX_CHIPS:,} chips"
        return None
    if value < 0:
        return "expected a number of chips >= 0"
    if value > MAX_CHIPS:
        return f"expected at most {MAX_CHIPS:,} chips"
    return None


def parse_amount(text: str) -> Amount:
    """``"500" -> 500``, ``"0.25" -> Decimal("0.25")``.

    Raises
    ------
    InputError
        Not a non-negative number, or one outside :func:`amount_problem`'s bounds.
    """
    if len(text) > 100:  # longer than any amount in bounds: no need to read it
        raise InputError(f"bad amount {quoted(text)}: expected a number of chips, at most 2**63 - 1")
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise InputError(f"bad amount {quoted(text)}: expected a number of chips") from None
    problem = amount_problem(value)
    if problem:
        raise InputError(f"bad amount {quoted(text)}: {problem}")
    return int(text) if text.isdigit() else value


def parse_phh_cards(text: str) -> tuple[int | None, ...]:
    """PHH card text, two characters a card and no separators: ``"AsKd??"``; ``??`` (or any
    card with a ``?``) is an unknown card (None).

    Raises
    ------
    InputError
        An odd number of characters or an unknown card.
    """
    if len(text) % 2:
        raise InputError(f"bad cards {quoted(text)}: expected two characters per card (e.g. AsKd, ?? if unknown)")
    cards: list[int | None] = []
    for position in range(0, len(text), 2):
        token = text[position:position + 2]
        cards.append(None if "?" in token else parse_card(token))
    return tuple(cards)


def format_phh_cards(cards: Iterable[int | None]) -> str:
    """Cards as PHH text: ``AsKd``, ``??`` for an unknown card."""
    return "".join(UNKNOWN_CARD if card is None else format_card(card) for card in cards)


def _player_number(token: str, text: str) -> int:
    if 1 < len(token) <= 6 and token[0] == "p" and token[1:].isdigit() and int(token[1:]) >= 1:
        return int(token[1:])
    raise InputError(f"bad player {quoted(token)} in {quoted(text)}: expected p1, p2, ...")


def parse_action(text: str) -> ActionNotation:
    """Parse one PHH action string.

    Raises
    ------
    InputError
        ``bad action 'p3 raise 500': unknown action 'raise' ...`` and the like, naming what was
        expected.
    """
    if not isinstance(text, str):
        raise InputError(f"bad action {quoted(text)}: expected a string such as 'p1 cc'")
    return _parse_action_text(text)


@functools.lru_cache(maxsize=4096)
def _parse_action_text(text: str) -> ActionNotation:
    # cached: a hand is read, checked and replayed, and "p1 cc" comes back in every hand
    body, hash_mark, comment = text.partition("#")
    commentary = comment.strip() if hash_mark else None
    words = body.split()
    if not words:
        return ActionNotation(text=text, commentary=commentary)
    actor, verb, arguments = words[0], words[1] if len(words) > 1 else "", words[2:]
    try:
        if actor == "d":
            if verb == "db" and len(arguments) == 1:
                return ActionNotation(text, actor, verb, cards=parse_phh_cards(arguments[0]), commentary=commentary)
            if verb == "dh" and len(arguments) == 2:
                player = _player_number(arguments[0], text)
                return ActionNotation(text, actor, verb, player=player, cards=parse_phh_cards(arguments[1]),
                                      commentary=commentary)
            raise InputError("expected 'd db CARDS' or 'd dh pN CARDS'")
        player = _player_number(actor, text)
        if verb not in PLAYER_VERBS:
            raise InputError(f"unknown action {quoted(verb)}: expected cbr, cc, f, sm (or sd, pb)")
        if verb == "cbr":
            if len(arguments) != 1:
                raise InputError("expected 'pN cbr AMOUNT'")
            return ActionNotation(text, actor, verb, player=player, amount=parse_amount(arguments[0]),
                                  commentary=commentary)
        if verb in ("sm", "sd") and len(arguments) <= 1:
            if arguments and arguments[0] == "-":
                if verb != "sm":
                    raise InputError("'-' stands for the dealt cards only in 'pN sm -'")
                return ActionNotation(text, actor, verb, player=player, show_dealt=True, commentary=commentary)
            cards = parse_phh_cards(arguments[0]) if arguments else None
            return ActionNotation(text, actor, verb, player=player, cards=cards, commentary=commentary)
        if arguments:
            raise InputError(f"'{verb}' takes no arguments")
        return ActionNotation(text, actor, verb, player=player, commentary=commentary)
    except InputError as error:
        raise InputError(f"bad action {quoted(text)}: {error}") from None


def _with_commentary(text: str, commentary: str | None) -> str:
    return f"{text} # {commentary}" if commentary else text


def deal_hole(player: int, cards: Sequence[int | None] | None, hole_count: int = 4,
              commentary: str | None = None) -> str:
    """``d dh pN CARDS``; ``cards=None`` writes ``hole_count`` unknown cards."""
    shown = format_phh_cards(cards) if cards is not None else UNKNOWN_CARD * hole_count
    return _with_commentary(f"d dh p{player} {shown}", commentary)


def deal_board(cards: Sequence[int], commentary: str | None = None) -> str:
    """``d db CARDS``."""
    return _with_commentary(f"d db {format_phh_cards(cards)}", commentary)


def bet_or_raise_to(player: int, amount: Amount, commentary: str | None = None) -> str:
    """``pN cbr AMOUNT`` (AMOUNT is the player's whole bet this round afterwards)."""
    return _with_commentary(f"p{player} cbr {amount}", commentary)


def check_or_call(player: int, commentary: str | None = None) -> str:
    """``pN cc``."""
    return _with_commentary(f"p{player} cc", commentary)


def fold(player: int, commentary: str | None = None) -> str:
    """``pN f``."""
    return _with_commentary(f"p{player} f", commentary)


def show(player: int, cards: Sequence[int | None] | None = None, commentary: str | None = None) -> str:
    """``pN sm CARDS``, or ``pN sm -`` (the dealt cards) when ``cards`` is None."""
    return _with_commentary(f"p{player} sm {format_phh_cards(cards) if cards is not None else '-'}", commentary)


def muck(player: int, commentary: str | None = None) -> str:
    """``pN sm``."""
    return _with_commentary(f"p{player} sm", commentary)
