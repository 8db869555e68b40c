"""Long unions, simplified before they reach the kernels, so parsing stays linear in the text.

The kernels test every atom of a range (pattern, macro, set) against every hand of the deck,
so a union of 9,000 written hands (a range exported from another tool, ``AsKsQhJh@0.5, ...``)
cost 9,000 tests per hand: minutes. Two rewrites of the tree, both exact:

- Patterns of written ranks in one union (``AsKsQhJh``, ``AKQJ``, ``AsAh``, ``K9s``, optionally
  weighted; no variables, lists or lone suits) become one :class:`HandList`: a set atom
  (``OP_SET``) whose hands are listed directly (every way to give each written card a card of
  the deck, then every completion), with each hand's weight from the items that hold it. A
  union gathers them while they list at most ``MAX_LIST_HANDS`` hands; the rest stay patterns.
- Repeated operands of ``,`` and ``:`` are dropped: ``X, X`` and ``X : X`` are ``X`` (same
  hands, same weights), so ``AA:AA:...:AA`` is ``AA``.

Weights follow the union rule of the package docstring: a hand held by several items takes the
largest of their weights (an unweighted item counting 1), and stays unweighted if every item
holding it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, product
from math import comb

import numpy as np

from .syntax import CategoryFilter, Combine, Macro, Node, Pattern, Percent, Weighted

# A union gathers its written hands into a list from this many on; below it the kernels'
# pattern tests are as quick.
MIN_LIST_ITEMS = 8
# Most hands (rows) a union's list may hold: about 40 bytes each while it is built.
MAX_LIST_HANDS = 16_000_000


@dataclass(frozen=True)
class HandList:
    """Written hands of a union, as one set atom.

    Attributes
    ----------
    items : tuple of tuple of int
        Cards (``rank * 4 + suit``, descending), one tuple per way of dealing a pattern's
        written cards; a tuple shorter than the hole count stands for every hand holding it.
    weights : tuple
        Each tuple's weight (its pattern's) as an exact ``Fraction``, or None if unweighted.
    position : int
        Where the first item starts in the expression.
    """

    items: tuple[tuple[int, ...], ...]
    weights: tuple[Fraction | None, ...]
    position: int

    @property
    def weighted(self) -> bool:
        return any(weight is not None for weight in self.weights)


def simplify(node: Node, hole_count: int) -> Node:
    """The tree with long unions of written hands gathered into :class:`HandList` atoms,
    repeated operands of ``,`` and ``:`` removed, and every run of ``:`` and ``!`` written as
    ``(A : B : ...) ! (C, D, ...)`` (same hands, same weights: ``!`` keeps its left side's
    weight, ``:`` the largest of its weighted sides). Every tree that comes out is shallow,
    whatever the length of the text: chains of ``!`` no longer nest one level per term."""
    if isinstance(node, Weighted):
        return Weighted(simplify(node.child, hole_count), node.weight, position=node.position, text=node.text)
    if not isinstance(node, Combine):
        return node
    if node.operator != ",":
        anded, subtracted = _selection_parts(node)
        kept = _joined(":", _distinct([simplify(operand, hole_count) for operand in anded]), node.position)
        if not subtracted:
            return kept
        removed = simplify(_joined(",", subtracted, node.position), hole_count)
        return Combine("!", kept, removed, node.position)
    operands = _distinct([simplify(operand, hole_count) for operand in _flatten(node)])
    listed = _listable(operands, hole_count)
    if len(listed) >= MIN_LIST_ITEMS:
        items, weights = [], []
        for index, card_tuples in listed.items():
            operand = operands[index]
            weight = Fraction(operand.text or repr(operand.weight)) if isinstance(operand, Weighted) else None
            items.extend(card_tuples)
            weights.extend([weight] * len(card_tuples))
        others = [operand for index, operand in enumerate(operands) if index not in listed]
        first = operands[min(listed)]
        operands = [*others, HandList(tuple(items), tuple(weights), _position(first))]
    return _joined(",", operands, node.position)


def _listable(operands: list, hole_count: int) -> dict[int, list[tuple[int, ...]]]:
    """The operands a list can hold, by index, with their card tuples, while the list stays
    within ``MAX_LIST_HANDS`` hands (and its building matrix within as many cells)."""
    listed, hand_total, cell_total = {}, 0, 0
    for index, operand in enumerate(operands):
        card_tuples = _written_choices(operand, hole_count)
        if not card_tuples:
            continue
        written = len(card_tuples[0])
        hands = len(card_tuples) * comb(52 - written, hole_count - written)
        cells = len(card_tuples) * comb(52, hole_count - written)
        if hand_total + hands > MAX_LIST_HANDS or cell_total + cells > MAX_LIST_HANDS:
            continue
        hand_total, cell_total = hand_total + hands, cell_total + cells
        listed[index] = card_tuples
    return listed


def _selection_parts(node: Combine) -> tuple[list[Node], list[Node]]:
    """``(anded, subtracted)`` with ``node`` = ``(anded joined by ':') ! (subtracted joined by
    ','``): ``(A ! S) : (B ! T)`` holds the hands of ``A : B`` outside ``S`` and ``T``."""
    anded, subtracted, pending = [], [], [node]
    while pending:
        current = pending.pop()
        if isinstance(current, Combine) and current.operator == ":":
            pending.append(current.right)
            pending.append(current.left)
        elif isinstance(current, Combine) and current.operator == "!":
            subtracted.append(current.right)
            pending.append(current.left)
        else:
            anded.append(current)
    return anded, subtracted


def _flatten(node: Combine) -> list[Node]:
    """The operands of a run of the same associative operator, left to right."""
    operands, pending = [], [node]
    while pending:
        current = pending.pop()
        if isinstance(current, Combine) and current.operator == node.operator:
            pending.append(current.right)
            pending.append(current.left)
        else:
            operands.append(current)
    return operands


def _joined(operator: str, operands: list, position: int):
    """Operands joined as a balanced tree (shallow, whatever their number)."""
    if len(operands) == 1:
        return operands[0]
    middle = len(operands) // 2
    return Combine(operator, _joined(operator, operands[:middle], position),
                   _joined(operator, operands[middle:], position), position)


def _distinct(operands: list) -> list:
    seen, kept = set(), []
    for operand in operands:
        key = _key(operand)
        if key not in seen:
            seen.add(key)
            kept.append(operand)
    return kept


def _key(node) -> tuple:
    """What a node means, without where it was written (positions and texts left out)."""
    if isinstance(node, Pattern):
        return ("pattern", tuple(card.shape() + (card.rank,) for card in node.cards))
    if isinstance(node, Macro):
        return ("macro", node.name)
    if isinstance(node, Percent):
        return ("percent", node.low, node.high, node.six_handed)
    if isinstance(node, Weighted):
        return ("weighted", _key(node.child), node.weight)
    if isinstance(node, HandList):
        return ("list", node.items, node.weights)
    if isinstance(node, CategoryFilter):
        return ("filter", node.terms)
    return (node.operator, _key(node.left), _key(node.right))


def _position(node) -> int:
    return node.position if isinstance(node, (Pattern, Weighted)) else 0


def _written_choices(node, hole_count: int) -> list[tuple[int, ...]] | None:
    """The card tuples a pattern of written ranks stands for, one per way to deal its written
    cards (``AK`` -> 16 tuples, ``AsK`` -> 4, ``AsKh`` -> 1; ``*`` adds nothing), each descending;
    None for anything else (variables, lists, lone suits, macros, ...)."""
    if isinstance(node, Weighted):
        node = node.child
    if not isinstance(node, Pattern) or len(node.cards) > hole_count:
        return None  # too many cards: the compiler says so
    choices = []
    for card in node.cards:
        if card.rank_variable or card.suit_variable or card.card_mask:
            return None
        if card.rank < 0:
            if card.suit >= 0:
                return None
            continue  # '*': a free card of the hand, as the completions give
        suits = (card.suit,) if card.suit >= 0 else range(4)
        choices.append([card.rank * 4 + suit for suit in suits])
    if not choices:
        return None
    dealt = {tuple(sorted(cards, reverse=True)) for cards in product(*choices) if len(set(cards)) == len(cards)}
    return sorted(dealt) or None


def list_hands(hand_list: HandList, hole_count: int) -> tuple[np.ndarray, np.ndarray, list]:
    """The hands of a list, each with its weight.

    Returns
    -------
    hands : (n, hole_count) int8
        In canonical order (descending card bit mask), unique.
    codes : (n,) int64
        Each hand's weight as an index into ``values``.
    values : list of Fraction or None
        The weights the codes stand for (None: unweighted).
    """
    distinct = sorted({weight for weight in hand_list.weights if weight is not None} | {Fraction(1)})
    rank_of = {weight: rank for rank, weight in enumerate(distinct)}
    item_ranks = np.array([rank_of[weight if weight is not None else Fraction(1)] for weight in hand_list.weights],
                          dtype=np.int64)
    item_weighted = np.array([weight is not None for weight in hand_list.weights], dtype=np.int64)
    by_size: dict[int, list[int]] = {}
    for index, item in enumerate(hand_list.items):
        by_size.setdefault(len(item), []).append(index)
    hand_rows, hand_masks, hand_items = [], [], []
    for size, indexes in by_size.items():
        items = np.array([hand_list.items[index] for index in indexes], dtype=np.int64).reshape(len(indexes), size)
        item_masks = (np.int64(1) << items).sum(axis=1)
        missing = hole_count - size
        completions = np.array(list(combinations(range(52), missing)), dtype=np.int64)
        completions = completions.reshape(comb(52, missing), missing)
        completion_masks = (np.int64(1) << completions).sum(axis=1)
        item_index, completion_index = np.nonzero((item_masks[:, None] & completion_masks[None, :]) == 0)
        hand_rows.append(np.concatenate((items.astype(np.int8)[item_index],
                                         completions.astype(np.int8)[completion_index]), axis=1))
        hand_masks.append(item_masks[item_index] | completion_masks[completion_index])
        hand_items.append(np.array(indexes, dtype=np.int64)[item_index])
    hands, masks, owners = np.concatenate(hand_rows), np.concatenate(hand_masks), np.concatenate(hand_items)
    order = np.argsort(-masks)
    hands, masks, owners = hands[order], masks[order], owners[order]
    starts = np.flatnonzero(np.concatenate(([True], masks[1:] != masks[:-1])))
    # a hand held by several items: the largest weight (unweighted counting 1), and
    # weighted if any of them is
    ranks = np.maximum.reduceat(item_ranks[owners], starts)
    weighted = np.maximum.reduceat(item_weighted[owners], starts)
    hands = np.ascontiguousarray(np.sort(hands[starts], axis=1)[:, ::-1], dtype=np.int8)
    values = [None if code % 2 == 0 else distinct[code // 2] for code in range(2 * len(distinct))]
    return hands, 2 * ranks + weighted, values
