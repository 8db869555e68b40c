"""Compile a parsed range into the flat arrays the kernels run (:mod:`._kernels`).

A pattern becomes a list of pattern cards, each with the 52-bit mask of the cards it may take,
its rank and suit variable (or -1) and whether it is identical to the card before it. Pure
wildcards (``*`` with no suit) are dropped: a pattern has at most as many cards as the hand, so
they always find a free card. The cards are ordered for the search: variable-free cards from the
most selective, then the cards of each rank variable (the most used first), then the suit
variable cards, identical cards side by side.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..errors import InputError, quoted
from . import _kernels as kernels
from .hand_lists import HandList, simplify
from .syntax import RANK_COUNT, SUIT_COUNT, CategoryFilter, Combine, Macro, Node, Pattern, Percent, Weighted

DECK_MASK = (1 << 52) - 1
RANK_CARDS = tuple(0b1111 << (4 * rank) for rank in range(RANK_COUNT))
SUIT_CARDS = tuple(sum(1 << (4 * rank + suit) for rank in range(RANK_COUNT)) for suit in range(SUIT_COUNT))
MACRO_CODES = {
    "ds": kernels.MACRO_DOUBLE_SUITED,
    "ss": kernels.MACRO_SINGLE_SUITED,
    "r": kernels.MACRO_RAINBOW,
    "np": kernels.MACRO_NO_PAIR,
}
MAX_STACK_DEPTH = 62
_OPERATOR_CODES = {",": kernels.OP_OR, ":": kernels.OP_AND, "!": kernels.OP_AND_NOT}


@dataclass(frozen=True)
class Program:
    """A range compiled for one hole-card count.

    Attributes
    ----------
    operations : (operation_count, 2) int64
        Postfix program: (opcode, argument) rows, opcodes ``_kernels.OP_*``.
    weight_values : (weight_count,) float64
        Arguments of ``OP_WEIGHT``.
    card_allowed : (card_count,) int64
        Per pattern card, the 52-bit mask of cards it may take.
    card_info : (card_count, 3) int64
        Per pattern card: rank variable, suit variable (-1 for none), same-as-previous flag.
    pattern_info : (pattern_count, 8) int64
        Per pattern: first card, card count, rank and suit variable domains (bit masks over
        ranks 0..12 and suits 0..3), rank and suit variable counts, rank and suit needs (for
        the quick filter: nibble ``t - 1`` counts the pattern's one-rank (one-suit) groups of at
        least ``t`` cards).
    sets : tuple of Percent, HandList or CategoryFilter
        The percent ranges, lists of written hands and category filters (hands that depend on
        the board), in ``OP_SET`` argument order.
    required_cards : tuple of int
        Cards every hand of the range must hold (descending).
    weighted : bool
        True when some ``@N`` appears (also inside a list of written hands).
    set_negated : tuple of bool
        Per set atom, whether it stands on the right of an odd number of ``!`` (a hand is more
        likely in the range when it is *not* in that set).

    The tree is simplified first (:func:`omaha_equity.ranges.hand_lists.simplify`): long lists
    of written hands become one set, repeated operands of ``,`` and ``:`` go.
    """

    operations: np.ndarray
    weight_values: np.ndarray
    card_allowed: np.ndarray
    card_info: np.ndarray
    pattern_info: np.ndarray
    sets: tuple[Percent | HandList | CategoryFilter, ...]
    required_cards: tuple[int, ...]
    weighted: bool
    set_negated: tuple[bool, ...] = ()


def _bits(values) -> int:
    mask = 0
    for value in values:
        mask |= 1 << value
    return mask


def _union_of_masks(masks, selected: int) -> int:
    result = 0
    for value, mask in enumerate(masks):
        if (selected >> value) & 1:
            result |= mask
    return result


def pattern_cards(pattern: Pattern, hole_count: int, game_name: str, expression: str):
    """The search entries of one pattern: ``(cards, (rank_domain, suit_domain, rank_variable_count,
    suit_variable_count, rank_need, suit_need))`` with ``cards`` a list of ``(allowed,
    rank_variable, suit_variable)``.

    Raises
    ------
    InputError
        When the pattern has more cards than the hand.
    """
    if len(pattern.cards) > hole_count:
        raise InputError(
            f"pattern {quoted(pattern.text)} at position {pattern.position} in {quoted(expression)} has "
            f"{len(pattern.cards)} cards: expected at most the {hole_count} hole cards of {game_name}"
        )
    rank_domain = ((1 << RANK_COUNT) - 1) & ~_bits(card.rank for card in pattern.cards if card.rank >= 0)
    suit_domain = ((1 << SUIT_COUNT) - 1) & ~_bits(card.suit for card in pattern.cards if card.suit >= 0)
    rank_variables: dict[str, int] = {}
    suit_variables: dict[str, int] = {}
    entries = []
    for card in pattern.cards:
        allowed = DECK_MASK
        rank_variable = suit_variable = -1
        if card.rank >= 0:
            allowed &= RANK_CARDS[card.rank]
        if card.card_mask:
            allowed &= card.card_mask
        if card.rank_variable:
            rank_variable = rank_variables.setdefault(card.rank_variable, len(rank_variables))
            allowed &= _union_of_masks(RANK_CARDS, rank_domain)
        if card.suit >= 0:
            allowed &= SUIT_CARDS[card.suit]
        if card.suit_variable:
            suit_variable = suit_variables.setdefault(card.suit_variable, len(suit_variables))
            allowed &= _union_of_masks(SUIT_CARDS, suit_domain)
        if allowed == DECK_MASK and rank_variable < 0 and suit_variable < 0:
            continue  # a wildcard always finds a free card
        entries.append((allowed, rank_variable, suit_variable))
    rank_uses = [sum(1 for entry in entries if entry[1] == variable) for variable in range(len(rank_variables))]

    def search_order(entry):
        allowed, rank_variable, suit_variable = entry
        selectivity = bin(allowed).count("1")
        if rank_variable < 0 and suit_variable < 0:
            return (0, selectivity, 0, 0, allowed)
        if rank_variable >= 0:
            return (1, -rank_uses[rank_variable], rank_variable, selectivity, suit_variable, allowed)
        return (2, selectivity, suit_variable, 0, allowed)

    entries.sort(key=search_order)
    if not rank_variables and not suit_variables:
        # Without variables the search is quick and the filter would cost more than it saves.
        return entries, (rank_domain, suit_domain, 0, 0, 0, 0)
    rank_need = _need(
        [("rank", card.rank) for card in pattern.cards if card.rank >= 0]
        + [("variable", card.rank_variable) for card in pattern.cards if card.rank_variable]
    )
    suit_need = _need(
        [("suit", card.suit) for card in pattern.cards if card.suit >= 0]
        + [("variable", card.suit_variable) for card in pattern.cards if card.suit_variable]
    )
    return entries, (rank_domain, suit_domain, len(rank_variables), len(suit_variables), rank_need, suit_need)


def _need(group_keys: list) -> int:
    """Packed group sizes: nibble ``t - 1`` counts the groups (cards of one explicit or variable
    rank, or suit) of at least ``t`` cards. Groups take distinct ranks (suits), so a hand needs
    at least as many ranks (suits) held ``t`` times or more: a quick necessary test."""
    sizes: dict = {}
    for key in group_keys:
        sizes[key] = sizes.get(key, 0) + 1
    return sum(((1 << (4 * size)) - 1) // 15 for size in sizes.values())


def required_cards(node: Node) -> frozenset[int]:
    """Cards every hand of the range must hold (a fully written card of a pattern)."""
    if isinstance(node, Pattern):
        return frozenset(
            card.rank * 4 + card.suit
            for card in node.cards
            if card.rank >= 0 and card.suit >= 0 and not card.rank_variable and not card.suit_variable
            and (not card.card_mask or (card.card_mask >> (card.rank * 4 + card.suit)) & 1)
        )
    if isinstance(node, HandList):
        return frozenset.intersection(*(frozenset(item) for item in node.items))
    if isinstance(node, Weighted):
        return required_cards(node.child)
    if isinstance(node, Combine):
        left = required_cards(node.left)
        if node.operator == ",":
            return left & required_cards(node.right)
        if node.operator == ":":
            return left | required_cards(node.right)
        return left
    return frozenset()


def compile_program(node: Node, hole_count: int, game_name: str, expression: str) -> Program:
    """Compile a parsed range for hands of ``hole_count`` cards.

    Raises
    ------
    InputError
        When a pattern has more cards than the hand.
    """
    operations: list[tuple[int, int]] = []
    weight_values: list[float] = []
    card_rows: list[tuple[int, int, int, int]] = []
    pattern_rows: list[tuple[int, ...]] = []
    sets: list[Percent | HandList | CategoryFilter] = []
    set_negated: list[bool] = []

    def emit(current: Node, negated: bool = False) -> None:
        if isinstance(current, Pattern):
            entries, details = pattern_cards(current, hole_count, game_name, expression)
            start = len(card_rows)
            for index, (allowed, rank_variable, suit_variable) in enumerate(entries):
                same = int(index > 0 and entries[index - 1] == entries[index])
                card_rows.append((allowed, rank_variable, suit_variable, same))
            pattern_rows.append((start, len(entries), *details))
            operations.append((kernels.OP_PATTERN, len(pattern_rows) - 1))
        elif isinstance(current, Macro):
            operations.append((kernels.OP_MACRO, MACRO_CODES[current.name]))
        elif isinstance(current, (Percent, HandList, CategoryFilter)):
            sets.append(current)
            set_negated.append(negated)
            operations.append((kernels.OP_SET, len(sets) - 1))
        elif isinstance(current, Weighted):
            emit(current.child, negated)
            weight_values.append(current.weight)
            operations.append((kernels.OP_WEIGHT, len(weight_values) - 1))
        else:
            emit(current.left, negated)
            emit(current.right, negated != (current.operator == "!"))
            operations.append((_OPERATOR_CODES[current.operator], 0))

    node = simplify(node, hole_count)
    emit(node)
    depth = deepest = 0
    for operation, _ in operations:
        depth += 1 if operation in (kernels.OP_PATTERN, kernels.OP_MACRO, kernels.OP_SET) else (
            0 if operation == kernels.OP_WEIGHT else -1
        )
        deepest = max(deepest, depth)
    if deepest > MAX_STACK_DEPTH:  # the kernels keep the stack of results in one 64-bit integer
        raise InputError(
            f"range {quoted(expression)} nests too deeply: "
            f"expected at most {MAX_STACK_DEPTH} ranges waiting on each other"
        )
    card_allowed = np.array([row[0] for row in card_rows], dtype=np.int64)
    card_info = np.array([row[1:] for row in card_rows], dtype=np.int64).reshape(len(card_rows), 3)
    pattern_info = np.array(pattern_rows, dtype=np.int64).reshape(len(pattern_rows), kernels.PATTERN_INFO_WIDTH)
    return Program(
        operations=np.array(operations, dtype=np.int64).reshape(len(operations), 2),
        weight_values=np.array(weight_values, dtype=np.float64),
        card_allowed=card_allowed,
        card_info=card_info,
        pattern_info=pattern_info,
        sets=tuple(sets),
        required_cards=tuple(sorted(required_cards(node), reverse=True)),
        weighted=bool(weight_values) or any(isinstance(source, HandList) and source.weighted for source in sets),
        set_negated=tuple(set_negated),
    )


def weigh_signature(program: Program, matched_atoms: list[bool], atom_weights: dict | None = None) -> float:
    """The weight of a hand from which atoms it matches (``matched_atoms`` in program order).

    The rules (package docstring): ``X@N`` multiplies ``X``'s weights by ``N`` (unweighted: ``N``);
    ``X, Y`` takes the larger weight where both hold the hand, an unweighted side counting 1,
    and stays unweighted when both are; ``X : Y`` takes the larger weighted side (an unweighted
    side is a filter); ``X ! Y`` keeps ``X``'s weight. ``None`` stands for "unweighted" and
    becomes 1.0 at the end; a hand out of the range weighs 0.0. ``atom_weights`` gives the
    hand's own weight in a weighted list of written hands (atom index to Fraction or None).

    The arithmetic is exact, on the weights' decimals as written (``(AA@0.1)@3`` weighs 0.3,
    not 0.30000000000000004), and rounded to a float once at the end.
    """
    atom_weights = atom_weights or {}
    stack: list[tuple[bool, Fraction | None]] = []
    atom = 0
    for operation, argument in program.operations.tolist():
        if operation in (kernels.OP_PATTERN, kernels.OP_MACRO, kernels.OP_SET):
            stack.append((matched_atoms[atom], atom_weights.get(atom)))
            atom += 1
        elif operation == kernels.OP_WEIGHT:
            held, weight = stack.pop()
            factor = Fraction(repr(float(program.weight_values[argument])))
            stack.append((held, factor if weight is None else weight * factor))
        else:
            right_held, right = stack.pop()
            left_held, left = stack.pop()
            if operation == kernels.OP_OR:
                if left_held and right_held and (left is not None or right is not None):
                    weight = max(1 if left is None else left, 1 if right is None else right)
                elif left_held:
                    weight = left
                else:
                    weight = right
                stack.append((left_held or right_held, weight))
            elif operation == kernels.OP_AND:
                weights = [value for value in (left, right) if value is not None]
                stack.append((left_held and right_held, max(weights) if weights else None))
            else:
                stack.append((left_held and not right_held, left))
    held, weight = stack.pop()
    if not held:
        return 0.0
    return 1.0 if weight is None else float(weight)
