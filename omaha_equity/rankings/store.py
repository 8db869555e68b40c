"""The ranking files: which games and tables are ranked, where the files are, their format.

One file per ranked game and table, ``data/<game>.<table>.npz`` next to this module, written
by ``scripts/generate_rankings.py``. A file holds two arrays:

- ``equity``: ``(class_count,) uint16``, the estimated equity of each class (fraction of the pot,
  ``round(equity * EQUITY_SCALE)``), in class order (:func:`omaha_equity.rankings.classes.class_keys`);
- ``header``: a JSON text (0-d unicode array, loads without pickle) with the game, the table,
  the opponent count, samples per class, seed, method, the digest of the class order, the
  generation time and the script version (see :class:`omaha_equity.rankings.RankingInfo`).

Tables: ``full-ring`` is the most players the deck and the usual tables allow, 9 players
(8 opponents) for 4- and 5-card games and 7 players (6 opponents) for 6-card games, whose deck
of 52 cards deals at most (52 - 5) // 6 = 7 hands; ``6-handed`` is 6 players (5 opponents).
"""

from __future__ import annotations

import json
import os
import zipfile
import zlib
from pathlib import Path

import numpy as np

FORMAT_VERSION = 1
DATA_DIR = Path(__file__).resolve().parent / "data"
FULL_RING, SIX_HANDED = "full-ring", "6-handed"
TABLES = (FULL_RING, SIX_HANDED)
# The six ranked games, by (hole_count, hilo).
RANKED_GAMES = {
    (4, False): "omaha", (4, True): "omaha8",
    (5, False): "omaha5", (5, True): "omaha5-8",
    (6, False): "omaha6", (6, True): "omaha6-8",
}
FULL_RING_OPPONENTS = {4: 8, 5: 8, 6: 6}
SIX_HANDED_OPPONENTS = 5
EQUITY_SCALE = 65535


def table_name(six_handed: bool) -> str:
    return SIX_HANDED if six_handed else FULL_RING


def opponent_count(hole_count: int, table: str) -> int:
    """Opponents of the ranked hand at a table: see the module docstring."""
    return SIX_HANDED_OPPONENTS if table == SIX_HANDED else FULL_RING_OPPONENTS[hole_count]


def ranking_path(game_name: str, table: str, folder: Path | None = None) -> Path:
    return (folder or DATA_DIR) / f"{game_name}.{table}.npz"


def write_ranking(path: Path, equity: np.ndarray, header: dict) -> None:
    """Write one ranking file atomically (compressed npz)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.stem}.{os.getpid()}.tmp.npz")
    np.savez_compressed(
        temporary,
        equity=np.asarray(equity, dtype=np.uint16),
        header=np.array(json.dumps(header, sort_keys=True)),
    )
    os.replace(temporary, path)


def read_ranking(path: Path) -> tuple[np.ndarray, dict]:
    """``(equity, header)`` of one ranking file. Raises ``OSError`` when it cannot be read,
    including a damaged file (empty, truncated, corrupted)."""
    try:
        with np.load(path, allow_pickle=False) as stored:
            equity = np.array(stored["equity"], dtype=np.uint16)
            header = json.loads(str(stored["header"]))
    except (KeyError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as error:
        raise OSError(f"{path} is not a ranking file: {error}") from error
    return equity, header
