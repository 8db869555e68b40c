"""PHH variant codes: which game and betting structure a code names.

The PHH specification (github.com/uoftcprg/phh-std, ``required.rst``) defines two Omaha codes:
``PO`` (pot-limit Omaha) and ``FO/8`` (fixed-limit Omaha hi/lo 8-or-better). It says a variant
it lacks "can simply be integrated by introducing new variant codes"; ours follow its pattern,
a structure letter (``F`` fixed limit, ``P`` pot limit, ``N`` no limit) then the game, ``/8``
for hi/lo. The table is in ``docs/phh.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError, quoted
from ..rules import StructureKind

# The game part of a code, and our game name (``omaha_equity.games``).
GAME_CODES: dict[str, str] = {
    "O": "omaha",
    "O/8": "omaha8",
    "5O": "omaha5",
    "5O/8": "omaha5-8",
    "6O": "omaha6",
    "6O/8": "omaha6-8",
    "CO": "courchevel",
    "CO/8": "courchevel8",
    "BLO": "binglao",  # the game itself is picked by the die: the `_die` field
}

STRUCTURE_CODES: dict[str, StructureKind] = {
    "F": StructureKind.FIXED_LIMIT,
    "P": StructureKind.POT_LIMIT,
    "N": StructureKind.NO_LIMIT,
}

# The codes the PHH specification itself defines (pokerkit reads these).
SPEC_CODES = frozenset({"PO", "FO/8"})


@dataclass(frozen=True)
class Variant:
    """A PHH variant code read as our game and betting structure.

    Attributes
    ----------
    code : str
        The code, e.g. ``"PO"``, ``"FO/8"``, ``"P5O/8"``.
    game : str
        Our game name (``omaha_equity.games``): ``"omaha"``, ``"omaha8"``, ..., ``"binglao"``.
    structure : StructureKind
        Fixed limit, pot limit or no limit.
    in_spec : bool
        True for the codes the PHH specification defines (``PO``, ``FO/8``).
    """

    code: str
    game: str
    structure: StructureKind

    @property
    def in_spec(self) -> bool:
        return self.code in SPEC_CODES

    @property
    def fixed_limit(self) -> bool:
        return self.structure == StructureKind.FIXED_LIMIT


VARIANTS: dict[str, Variant] = {
    structure_code + game_code: Variant(structure_code + game_code, game, structure)
    for structure_code, structure in STRUCTURE_CODES.items()
    for game_code, game in GAME_CODES.items()
}


def get_variant(code: str) -> Variant:
    """The variant of a PHH code.

    Raises
    ------
    InputError
        An unknown code (the message lists the known ones).
    """
    if code in VARIANTS:
        return VARIANTS[code]
    known = ", ".join(VARIANTS)
    raise InputError(f"unknown variant {quoted(code)}: expected an Omaha code, one of {known}")


def variant_code(game: str, structure: StructureKind) -> str:
    """The code of one of our games (``binglao-3`` counts as ``binglao``) under a structure."""
    base = "binglao" if game.startswith("binglao") else game
    game_code = next(code for code, name in GAME_CODES.items() if name == base)
    structure_code = next(code for code, kind in STRUCTURE_CODES.items() if kind == structure)
    return structure_code + game_code
