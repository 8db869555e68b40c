"""The parameters the compiled equity kernels share, described once, and the decorator that
writes them into each kernel's docstring.

Most kernels take the same arrays, in the same order, from the same bundles (a deal of fixed
hands, hand lists, the score tables, the pots, the resumable chunks: each bundle's
``kernel_arguments()``). Their docstrings still give one numpydoc entry per parameter: a
docstring names bundles of :data:`BUNDLES` and parameters of :data:`PARAMETERS`, in the
signature's order, in braces on a line of their own (``{exact_lists, score_tables, units}``),
and :func:`kernel_parameters` replaces that line with their entries, indented as the line was,
before numba compiles the function (``help(kernel)`` and the API pages read the filled text).
A kernel's own parameters, and those it reads in its own way, are written out in its docstring
as usual. The filled list must name the function's parameters in order: a kernel whose
signature and docstring disagree fails at import.

>>> @kernel_parameters
... def total(pot_amounts, eligible_masks, hilo):
...     '''Parameters
...     ----------
...     {pot_arrays, hilo}
...     '''
>>> print(total.__doc__.splitlines()[2].strip())
pot_amounts : (pot_count,) int64
"""

from __future__ import annotations

import inspect
import re
import textwrap
from collections.abc import Callable

# name -> (shape and dtype, or type; what it holds)
PARAMETERS: dict[str, tuple[str, str]] = {
    # a deal of fixed hands: fixed.hands.Prepared.kernel_arguments()
    "deck": ("(n,) int8", "The undealt cards, ascending (so dealt ranks come out sorted)."),
    "dealt_count": ("int", "Board cards still to come (0..5)."),
    "fixed_suit_masks": ("(4,) int32", "Rank mask per suit of the known board cards."),
    "fixed_low_mask": ("int", "Low-rank mask of the known board cards."),
    "high_rows": ("(player_count, C(12 + dealt_count, dealt_count)) int32",
                  "Each player's high value by dealt rank multiset."),
    "flush_rows": ("(player_count, 4, 8192) int32",
                   "Each player's flush value by suit and rank mask of that suit on the board."),
    "low_rows": ("(player_count, 256) int16", "Each player's low value by board low mask."),
    "colex": ("(5, 13) int32", "Colex index of rank combinations (``evaluate.tables.Tables.colex``)."),
    # hand lists: lists.inputs.ExactLists and PlayerLists
    "list_hands": ("(hand_count, hole_count) int8",
                   "The lists of hands, concatenated (a fixed hand is a list of one)."),
    "list_masks": ("(hand_count,) int64", "Card bit mask of each hand."),
    "list_offsets": ("(list_count + 1,) int64", "List ``i`` is rows ``list_offsets[i] .. list_offsets[i + 1] - 1``."),
    "list_weights": ("(hand_count,) int64", "Whole-number weight of each hand."),
    "list_cumulative": ("(hand_count,) float64", "Running weight within each list, ending at 1."),
    "list_players": ("(list_count,) int64", "The player (odd-chip index) holding list ``i``."),
    "base_used_mask": ("int64", "Bit mask of the cards out of the deck: the known board and the dead cards, and "
                                "where fixed and partial hands are dealt (not listed), their known cards."),
    "board_known": ("(b,) int8", "The known board."),
    "dealt_board_indexes": ("(C(12 + 5 - b, 5 - b),) int32",
                            "Dealt-rank multiset -> board multiset index (``tables.dealt_board_indexes``)."),
    # the players dealt at random: lists.inputs.DealtCards
    "dealt_known": ("(dealt_player_count, hole_count) int8",
                    "Known cards of each player dealt at random (fixed, partial and random hands), padded."),
    "dealt_known_counts": ("(dealt_player_count,) int64", "How many of them are known."),
    "dealt_players": ("(dealt_player_count,) int64", "The players they are."),
    "player_count": ("int", "Players in the deal."),
    # the score tables: lists.inputs.ScoreTables
    "pair_board": ("(6188, 91) int32",
                   "High value of each board rank multiset with each hole-rank pair (``Tables.pair_board``)."),
    "flush": ("(8192,) int32", "Flush value by rank mask of one suit (``Tables.flush``)."),
    "low": ("(256, 256) int16", "Low value by hole low mask and board low mask (``Tables.low``)."),
    "hilo": ("bool", "Whether the game splits each pot high/low."),
    # counting
    "binomials": ("(53, 6) int64", "``binomials[n, k] = C(n, k)`` (``plan.BINOMIALS``)."),
    "units": ("int", "Pot units (``pots.pot_units``): every share of a pot is a whole number of them."),
    # the pots of an all-in: kernel_inputs.PotArrays
    "pot_amounts": ("(pot_count,) int64", "Chips in each pot (main pot first)."),
    "eligible_masks": ("(pot_count,) int64", "Bit ``i`` set for each player ``i`` who can win the pot."),
    # how the work is cut
    "first_chunk": ("int", "The first chunk of this call: row 0 of the outputs (or of the state arrays)."),
    "chunk_count": ("int", "Chunks in this call (the outputs' rows)."),
    "total_chunks": ("int", "Equal chunks the board completions are cut into."),
    "first_slab": ("int", "The call's first slice of the first list's hands."),
    "slab_count": ("int", "Slices in this call (the outputs' rows)."),
    "total_slabs": ("int", "Equal slices the first list's hands (at most its length) are cut into."),
    "first_unit": ("int64", "The call's first unit."),
    "unit_count": ("int64", "Units in the call."),
    # Monte Carlo: kernel_inputs.ChunkPlan, and the resumable chunks of expected_chips
    "seed": ("uint64", "The run's seed: chunk ``c`` draws from its own SplitMix64 stream seeded from "
                       "``(seed, c)`` (``random_state.chunk_random_state``)."),
    "chunk_size": ("int", "Samples per chunk (it decides which samples a seed gives)."),
    "sample_count": ("int", "Samples of the whole run."),
    "budget": ("int", "Most samples per chunk in this call."),
    "states": ("(chunk_count,) uint64", "Each chunk's generator state, updated."),
    "decks": ("(chunk_count, n) int8", "Each chunk's undealt cards, shuffled as it goes."),
    "positions": ("(chunk_count,) int64", "Samples each chunk has done, updated."),
    "payout_sums": ("(chunk_count, pot_count, player_count) int64", "Chips won, added to."),
    "square_sums": ("(chunk_count, pot_count + 1, player_count) float64",
                    "Sums of squared chips per pot and (last row) of each player's total over the pots, "
                    "added to."),
}

# A bundle's parameters, in its ``kernel_arguments()`` order.
BUNDLES: dict[str, tuple[str, ...]] = {
    "fixed_hands": ("deck", "dealt_count", "fixed_suit_masks", "fixed_low_mask", "high_rows", "flush_rows",
                    "low_rows", "colex"),
    "exact_lists": ("list_hands", "list_masks", "list_offsets", "list_weights", "base_used_mask", "board_known",
                    "dealt_board_indexes"),
    "player_lists": ("list_hands", "list_masks", "list_offsets", "list_cumulative", "list_players"),
    "dealt_cards": ("dealt_known", "dealt_known_counts", "dealt_players", "base_used_mask", "board_known",
                    "player_count"),
    "score_tables": ("colex", "pair_board", "flush", "low", "hilo"),
    "pot_arrays": ("pot_amounts", "eligible_masks"),
    "chunk_plan": ("chunk_size", "sample_count"),
    "resumable_chunks": ("states", "decks", "positions", "payout_sums", "square_sums"),
    "chunk_slices": ("first_chunk", "chunk_count", "total_chunks"),
    "list_slices": ("first_slab", "slab_count", "total_slabs"),
}

_FIELD = re.compile(r"^(?P<indent>[ \t]*)\{(?P<names>\w+(?:, *\w+)*)\}[ \t]*$", re.MULTILINE)
_SECTION = re.compile(r"^[ \t]*Parameters\n[ \t]*-+\n(?P<body>.*?)(?:\n[ \t]*\n[ \t]*\w+\n[ \t]*-+\n|\Z)",
                      re.MULTILINE | re.DOTALL)
_ENTRY = re.compile(r"^(?P<indent>[ \t]*)(?P<name>\w+) : ", re.MULTILINE)
_WIDTH = 100  # the docstrings' own width (a description wraps at its entry's indent + 4)


def parameter_entry(name: str, indent: str = "") -> str:
    """The numpydoc entry of parameter ``name`` of :data:`PARAMETERS`, each line indented by
    ``indent``: ``name : type`` and the description, wrapped, four spaces further in.

    Raises
    ------
    KeyError
        ``name`` is not in :data:`PARAMETERS`.
    """
    kind, description = PARAMETERS[name]
    body = textwrap.fill(description, _WIDTH, initial_indent=indent + "    ", subsequent_indent=indent + "    ")
    return f"{indent}{name} : {kind}\n{body}"


def kernel_parameters(function: Callable) -> Callable:
    """Fill ``function``'s docstring: each line that is only ``{name, ...}`` (names of bundles
    of :data:`BUNDLES` or of parameters of :data:`PARAMETERS`) becomes the numpydoc entries of
    their parameters, in that order, indented as the line was. Put it under the numba
    decorator, so that numba wraps the filled function.

    Raises
    ------
    KeyError
        A name in braces is neither a bundle nor a parameter.
    ValueError
        The filled Parameters section does not list the function's parameters, in order.
    """
    if not function.__doc__:  # python -OO
        return function

    def entries(field: re.Match) -> str:
        names = [name for field_name in re.split(r", *", field["names"])
                 for name in BUNDLES.get(field_name, (field_name,))]
        return "\n".join(parameter_entry(name, field["indent"]) for name in names)

    function.__doc__ = _FIELD.sub(entries, function.__doc__)
    section = _SECTION.search(function.__doc__)
    documented = []
    if section:
        indent = min((entry["indent"] for entry in _ENTRY.finditer(section["body"])), key=len, default="")
        documented = [entry["name"] for entry in _ENTRY.finditer(section["body"]) if entry["indent"] == indent]
    signature = list(inspect.signature(function).parameters)
    if documented != signature:
        raise ValueError(f"{function.__qualname__}: the docstring lists {documented}, the signature {signature}")
    return function
