"""The Omaha games: hole-card count and whether the pot splits high/low (docs/rules.md, "Game variants").

Every game uses exactly two hole cards and exactly three board cards. Binglao picks its shape
with a die roll before the deal, so :func:`get_game` needs the die for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError, quoted
from .validate import check_die

BOARD_SIZE = 5
# The low value of a hand without a qualifying 8-or-better low (hi/lo games): low values are
# larger-is-better numbers above it (``evaluate.tables``), and the pot splitter (``pots``)
# gives no low half to it. Here, below both, so that neither imports the other for it.
NO_LOW = 0


@dataclass(frozen=True)
class Game:
    """One Omaha variant.

    Attributes
    ----------
    name : str
        Canonical name, e.g. ``"omaha8"``.
    title : str
        Human name, e.g. ``"Omaha hi/lo 8-or-better"``.
    hole_count : int
        Hole cards per player: 4, 5 or 6.
    hilo : bool
        True when the pot splits between the best high and the best 8-or-better low.
    exposed_first_flop_card : bool
        Courchevel: the first flop card is dealt face up before the first betting round.
    """

    name: str
    title: str
    hole_count: int
    hilo: bool
    exposed_first_flop_card: bool = False

    @property
    def max_players(self) -> int:
        """Most players the deck can deal in: (52 - 5 board cards) // hole cards."""
        return (52 - BOARD_SIZE) // self.hole_count


GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        Game("omaha", "Omaha hi", 4, False),
        Game("omaha8", "Omaha hi/lo 8-or-better", 4, True),
        Game("omaha5", "5-card Omaha hi", 5, False),
        Game("omaha5-8", "5-card Omaha hi/lo 8-or-better (Big O)", 5, True),
        Game("omaha6", "6-card Omaha hi", 6, False),
        Game("omaha6-8", "6-card Omaha hi/lo 8-or-better", 6, True),
        Game("courchevel", "Courchevel hi", 5, False, exposed_first_flop_card=True),
        Game("courchevel8", "Courchevel hi/lo 8-or-better", 5, True, exposed_first_flop_card=True),
    )
}

GAME_ALIASES: dict[str, str] = {
    "plo": "omaha", "omaha-hi": "omaha", "omaha-high": "omaha",
    "o8": "omaha8", "omaha-hi-lo": "omaha8", "plo8": "omaha8", "omaha-8": "omaha8",
    "omaha-hilo": "omaha8", "omaha/8": "omaha8",
    "plo5": "omaha5", "5-card-omaha": "omaha5",
    "big-o": "omaha5-8", "bigo": "omaha5-8", "o5-8": "omaha5-8", "plo5-8": "omaha5-8",
    "plo6": "omaha6", "6-card-omaha": "omaha6",
    "o6-8": "omaha6-8", "plo6-8": "omaha6-8",
    "omaha-h/l": "omaha8", "omaha-hilo8": "omaha8", "omaha5-hilo8": "omaha5-8", "omaha6-hilo8": "omaha6-8",
    "courchevel-hi-lo": "courchevel8", "courchevel-8": "courchevel8",
}


def normalize_game_name(name: str) -> str:
    """Lower case, spaces and underscores as dashes, aliases resolved: ``"Omaha H/L"`` ->
    ``"omaha8"``, ``"Big O"`` -> ``"omaha5-8"``. Unknown names come back normalized."""
    key = "-".join(name.strip().lower().replace("_", " ").split())
    return GAME_ALIASES.get(key, key)

# Binglao: the button's die roll picks the game (docs/rules.md, "Game variants").
BINGLAO_DIE: dict[int, tuple[int, bool]] = {
    1: (4, True), 2: (5, True), 3: (6, True),
    4: (4, False), 5: (5, False), 6: (6, False),
}

GAME_NAMES = (*GAMES, "binglao")


def get_game(name: str | Game, die: int | None = None) -> Game:
    """Look a game up by name or alias (case-insensitive).

    Parameters
    ----------
    name : str or Game
        ``omaha`` (aliases ``plo``, ``omaha-hi``), ``omaha8`` (``o8``, ``omaha-hi-lo``, ``plo8``),
        ``omaha5`` (``plo5``), ``omaha5-8`` (``big-o``, ``o5-8``), ``omaha6`` (``plo6``),
        ``omaha6-8`` (``o6-8``), ``courchevel``, ``courchevel8`` (``courchevel-hi-lo``),
        ``binglao``; spaces or underscores may stand for dashes (``"Big O"``, ``"Omaha H/L"``).
        A :class:`Game` is returned unchanged.
    die : int, optional
        Binglao only: the die roll 1..6 (1-3: 4/5/6 cards hi/lo, 4-6: 4/5/6 cards high only).

    Raises
    ------
    InputError
        A name that is not text or a Game; an unknown game; binglao without a die or with a die
        that is not a whole number 1..6 (``3.0`` and ``True`` are refused); a die for another game.
    """
    if isinstance(name, Game):
        return name
    if not isinstance(name, str):
        raise InputError(f"bad game {quoted(name)}: expected a game name such as 'omaha' or 'omaha8', or a Game")
    key = normalize_game_name(name)
    if key == "binglao":
        if die is None:
            raise InputError("binglao needs the die roll: expected a die of 1..6")
        die = check_die(die)
        hole_count, hilo = BINGLAO_DIE[die]
        split = "hi/lo 8-or-better" if hilo else "hi"
        return Game(f"binglao-{die}", f"Binglao (die {die}: {hole_count}-card {split})", hole_count, hilo)
    if key not in GAMES:
        known = ", ".join(GAME_NAMES)
        raise InputError(f"unknown game {quoted(name)}: expected one of {known} (or an alias)")
    if die is not None:
        raise InputError(f"a die roll is only used in binglao, not in {key}")
    return GAMES[key]
