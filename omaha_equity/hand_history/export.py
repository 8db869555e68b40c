"""Writing a hand played with the rules engine as a PHH hand history.

Player p1 is the seat left of the button (the small blind; heads-up the big blind), the button
is the last player (PHH specification, ``spec.rst``, "Position"); heads-up the antes and blinds
arrays are written reversed, as the specification reverse-assigns them. What PHH has no field
for (dead blinds, Binglao's die, structure and showdown settings, run count, rake) goes into the
user-defined fields of ``docs/phh.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeVar

from ..pots import OddChipRule
from ..rules import Action, ActionKind, FixedLimit, Hand, PotLimit, ShowdownOrder, StatedRake
from .notation import bet_or_raise_to, check_or_call, deal_board, deal_hole, fold, muck, show
from .phh import HandHistory
from .variants import variant_code

_Value = TypeVar("_Value")


def _phh_order(values: Sequence[_Value], hand: Hand) -> list[_Value]:
    """Seat values in PHH player order (p1 = left of the button), reversed heads-up."""
    ordered = [values[seat] for seat in hand.positions]
    return ordered[::-1] if hand.seat_count == 2 else ordered


def _percent(value: Fraction) -> Decimal | str:
    """A rake percent as a TOML number when it has a finite decimal form, else ``"p/q"``."""
    decimal = Decimal(value.numerator) / Decimal(value.denominator)
    return decimal if Fraction(decimal) == value else f"{value.numerator}/{value.denominator}"


def _custom_fields(hand: Hand) -> dict[str, Any]:
    custom: dict[str, Any] = {}
    if hand.game.name.startswith("binglao"):
        custom["_die"] = hand.die
    structure = hand.structure
    if isinstance(structure, FixedLimit):
        if structure.max_raises != 3:
            custom["_max_raises"] = structure.max_raises
        if structure.uncapped_heads_up:
            custom["_uncapped_heads_up"] = True
    elif isinstance(structure, PotLimit) and structure.small_blind_counts_as_big_blind:
        custom["_small_blind_counts_as_big_blind"] = True
    forced = hand.forced_bets
    if any(forced.dead_blinds):
        custom["_dead_blinds"] = _phh_order(forced.dead_blinds, hand)
    if forced.first_to_act is not None:
        custom["_first_to_act"] = f"p{hand.positions.index(forced.first_to_act) + 1}"
    settings = hand.settings
    # the runs dealt once the betting is over (fewer than asked when the deck runs short: a
    # replay must deal what the actions deal), else the runs asked for
    running_out = hand.is_complete or hand._running_out  # noqa: SLF001 (the engine's all-in point)
    run_count = hand.run_count if running_out else settings.run_count
    if run_count > 1:
        custom["_run_count"] = run_count
    if settings.fold_when_check_allowed:
        custom["_fold_when_check_allowed"] = True
    if settings.raise_when_nobody_can_call:
        custom["_raise_when_nobody_can_call"] = True
    if settings.odd_chip != OddChipRule.LEFT_OF_BUTTON:
        custom["_odd_chip"] = settings.odd_chip.value
    if settings.showdown_order != ShowdownOrder.FINAL_ROUND:
        custom["_showdown_order"] = settings.showdown_order.value
    if isinstance(settings.rake, StatedRake):
        custom["_rake"] = settings.rake.total
        if settings.rake.stated_pots:
            custom["_stated_pots"] = list(settings.rake.stated_pots)
    elif settings.rake is not None:
        custom["_rake_percent"] = _percent(settings.rake.percent)
        if settings.rake.cap is not None:
            custom["_rake_cap"] = settings.rake.cap
        if not settings.rake.no_flop_no_drop:
            custom["_rake_no_flop_no_drop"] = False
    return custom


def _actions(hand: Hand) -> list[str]:
    player_of = {seat: position + 1 for position, seat in enumerate(hand.positions)}
    actions: list[str] = []
    hole_deals: list[tuple[int, str]] = []

    def player_number(action: Action) -> int:
        assert action.seat is not None  # a player's action names the seat
        return player_of[action.seat]

    def flush_hole_deals() -> None:
        # The specification deals hole cards from the first player to the last.
        actions.extend(text for _, text in sorted(hole_deals))
        hole_deals.clear()

    for action in hand.actions:
        kind = action.kind
        if kind == ActionKind.DEAL_HOLE_CARDS:
            player = player_number(action)
            hole_deals.append((player, deal_hole(player, action.cards, hand.game.hole_count)))
            continue
        flush_hole_deals()
        if kind == ActionKind.DEAL_BOARD:
            assert action.cards is not None  # a board deal names its cards
            actions.append(deal_board(action.cards))
        elif kind == ActionKind.FOLD:
            actions.append(fold(player_number(action)))
        elif kind in (ActionKind.CHECK, ActionKind.CALL):
            actions.append(check_or_call(player_number(action)))
        elif kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE):
            actions.append(bet_or_raise_to(player_number(action), action.total))
        elif kind == ActionKind.SHOW:
            actions.append(show(player_number(action), action.cards))
        elif kind == ActionKind.MUCK:
            actions.append(muck(player_number(action)))
        # posts, returns, run counts and wins follow from the fields and the rules
    flush_hole_deals()
    return actions


def to_phh(hand: Hand, /, **fields: Any) -> HandHistory:
    """A PHH hand history of an engine hand, finished or not.

    Parameters
    ----------
    hand : Hand
        Any engine hand (every game and structure). A finished hand also gets
        ``finishing_stacks`` and ``winnings`` (chips collected from the pots).
    **fields
        Optional PHH fields to set (``event="..."``, ``hand=12``, ``author=...``) or
        user-defined ones (names beginning with ``_``).

    Returns
    -------
    HandHistory
        Variant ``PO``/``FO/8`` when the spec has a code, else ours (``docs/phh.md``); the
        player names (``players``) unless they are the engine's defaults (``Seat 1``, ...).

    Examples
    --------
    >>> from omaha_equity.rules import Hand, PotLimit
    >>> hand = Hand.with_blinds("omaha", PotLimit(10), [1000, 1000], button=0, small_blind=5,
    ...                         big_blind=10, seed=3)
    >>> _ = hand.fold()
    >>> phh = to_phh(hand)
    >>> phh.blinds_or_straddles, phh.actions[2], phh.finishing_stacks
    ((5, 10), 'p2 f', (1005, 995))
    """
    structure = hand.structure
    sizes: dict[str, Any] = ({"small_bet": structure.small_bet, "big_bet": structure.big_bet}
                             if isinstance(structure, FixedLimit) else {"min_bet": structure.min_bet})
    forced = hand.forced_bets
    names = [hand.names[seat] for seat in hand.positions]
    defaults = ([f"Seat {seat + 1}" for seat in hand.positions], [f"p{player}" for player in range(1, len(names) + 1)])
    values: dict[str, Any] = {
        "variant": variant_code(hand.game.name, structure.kind),
        "antes": _phh_order(forced.antes, hand),
        "blinds_or_straddles": _phh_order(forced.blinds, hand),
        **sizes,
        "starting_stacks": [hand.starting_stacks[seat] for seat in hand.positions],
        "actions": _actions(hand),
    }
    if names not in defaults:
        values["players"] = names
    if hand.is_complete and hand.settlement is not None:
        values["finishing_stacks"] = [hand.stacks[seat] for seat in hand.positions]
        values["winnings"] = [sum(hand.settlement.players[seat].won) for seat in hand.positions]
    custom = _custom_fields(hand)
    for key, value in fields.items():
        if key.startswith("_"):
            custom[key] = value
        else:
            values[key] = value
    return HandHistory(**values, user_defined_fields=custom)
