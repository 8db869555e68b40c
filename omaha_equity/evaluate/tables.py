"""Lookup tables for the evaluator, generated from the ranking rules and cached on disk.

Nothing here is typed in by hand: every entry is computed from the standard hand ranking
(docs/rules.md, "Cards and hands") and the 8-or-better rule ("The low hand"). The tables are
built once (well under a second), saved to a user cache folder and reloaded from there; the
file name carries a hash of this module's source, so a changed generator rebuilds them, and a
file that cannot be read (truncated, corrupted, empty) is rebuilt too. Tables read back must
match :data:`TABLES_DIGEST`, the SHA-256 of the generated tables built into the package (a test
rebuilds them and compares): a file changed by anyone is rebuilt, said once on stderr. Checking
costs about 3 ms of each warm command (5 MB hashed).

High-hand values are ``int32``: ``category << 20`` plus the five ranks (0..12) ordered by
significance, four bits each, so a larger value is a better hand. Low values are ``int16``:
``255 - mask`` where ``mask`` has bit ``r`` set for each low rank (bit 0 ace .. bit 7 eight);
larger is better and ``NO_LOW`` (0) means no qualifying low. Comparing masks as numbers is
exactly comparing lows from the highest card down, because the five ranks are distinct.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import os
import stat
from collections import Counter
from dataclasses import dataclass
from math import comb
from pathlib import Path

import numpy as np

from ..games import NO_LOW
from ..runtime.cache import cache_dir, cache_root_state, notify_not_cached, notify_once

HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = (
    "high card", "pair", "two pair", "three of a kind", "straight",
    "flush", "full house", "four of a kind", "straight flush",
)
CATEGORY_SHIFT = 20
RANK_COUNT = 13
ACE = 12
# Multisets of k ranks out of 13: C(12 + k, k). 5 ranks: 6,188; 3 ranks: 455; 2 ranks: 91.
MULTISET_COUNTS = tuple(comb(RANK_COUNT - 1 + k, k) for k in range(6))
BOARD_MULTISETS = MULTISET_COUNTS[5]
TRIPLE_MULTISETS = MULTISET_COUNTS[3]
PAIR_MULTISETS = MULTISET_COUNTS[2]
SUITED_PAIRS = comb(RANK_COUNT, 2)  # two distinct ranks: 78

def multiset_index(sorted_ranks) -> int:
    """Colex index of a multiset of ranks given in ascending order.

    With ranks ``r0 <= r1 <= ...`` the numbers ``r_i + i`` are strictly increasing, which maps
    multisets one-to-one onto combinations; the index is ``sum C(r_i + i, i + 1)``. Five ranks
    give 0..6187. The kernels use the same formula through :attr:`Tables.colex`.
    """
    return sum(comb(rank + position, position + 1) for position, rank in enumerate(sorted_ranks))


# The low-mask bit of each rank: ace bit 0, deuce bit 1 ... eight bit 7, other ranks 0 (the
# kernels' ``_kernels.low_rank_bit`` as a table; tests/test_rows.py checks they agree).
LOW_RANK_BITS = tuple(1 << (rank + 1) if rank <= 6 else 1 if rank == 12 else 0 for rank in range(13))


def low_bit(rank: int) -> int:
    """Bit of a rank in a low mask (:data:`LOW_RANK_BITS`)."""
    return LOW_RANK_BITS[rank]


def pack_hand_value(category: int, ranks_by_significance) -> int:
    """A high hand value from its category and its ranks, most significant first: the category
    from bit ``CATEGORY_SHIFT`` up, then four bits per rank from bit 16 down (larger is better)."""
    value = category << CATEGORY_SHIFT
    for position, rank in enumerate(ranks_by_significance):
        value |= rank << (16 - 4 * position)
    return value


def _straight_high(distinct_ranks) -> int:
    """High rank of a straight made by five distinct ranks, or -1. A-2-3-4-5 is 5-high."""
    ranks = sorted(distinct_ranks)
    if ranks == [0, 1, 2, 3, ACE]:
        return 3
    if ranks[-1] - ranks[0] == 4:
        return ranks[-1]
    return -1


def unsuited_value(ranks) -> int:
    """Value of five cards that are not a flush, from their ranks alone."""
    counts = Counter(ranks)
    groups = sorted(((count, rank) for rank, count in counts.items()), reverse=True)
    ordered = [rank for count, rank in groups for _ in range(count)]
    shape = tuple(count for count, _ in groups)
    if shape == (1, 1, 1, 1, 1):
        high = _straight_high(ranks)
        if high >= 0:
            return pack_hand_value(STRAIGHT, [high])
        return pack_hand_value(HIGH_CARD, ordered)
    category = {
        (2, 1, 1, 1): PAIR, (2, 2, 1): TWO_PAIR, (3, 1, 1): THREE_OF_A_KIND,
        (3, 2): FULL_HOUSE, (4, 1): FOUR_OF_A_KIND,
        (5,): FOUR_OF_A_KIND,  # five of one rank cannot be dealt; any value will do
    }[shape]
    return pack_hand_value(category, ordered)


def suited_value(ranks) -> int:
    """Value of five cards of one suit (five distinct ranks): flush or straight flush."""
    high = _straight_high(ranks)
    if high >= 0:
        return pack_hand_value(STRAIGHT_FLUSH, [high])
    return pack_hand_value(FLUSH, sorted(ranks, reverse=True))


def low_value(mask: int) -> int:
    """Low value of five distinct low ranks given as a bit mask (bit 0 ace .. bit 7 eight)."""
    return 255 - mask


@dataclass(frozen=True)
class Tables:
    """The evaluator's lookup tables (all generated by :func:`build_tables`).

    Attributes
    ----------
    colex : (5, 13) int32
        ``colex[i, r] = C(r + i, i + 1)``: the term of rank ``r`` at position ``i`` of a sorted
        multiset in :func:`multiset_index`.
    pair_triple : (91, 455) int32
        Unsuited high value of a hole-rank pair (multiset index) with a board-rank triple.
    pair_board : (6188, 91) int32
        Best unsuited high value of a hole-rank pair (multiset index) on a five-rank board
        multiset: the best of its ten triples. A board's 91 values are contiguous, so every
        player's pairs on one board read from the same few cache lines.
    flush : (8192,) int32
        Flush or straight-flush value of a 13-bit rank mask with five bits set (0 otherwise).
    pair_flush : (78, 8192) int32
        Best flush or straight flush of two hole ranks of one suit (row ``suited_pair_index``)
        with three ranks of the board's cards of that suit (a 13-bit rank mask), 0 when the
        board has fewer than three of them: a hand's flush value on a board is the best of its
        suited pairs' rows.
    low : (256, 256) int16
        Best 8-or-better low value using exactly two ranks of the hole mask and three of the
        board mask (bit 0 ace .. bit 7 eight), ``NO_LOW`` when none qualifies.
    """

    colex: np.ndarray
    pair_triple: np.ndarray
    pair_board: np.ndarray
    flush: np.ndarray
    pair_flush: np.ndarray
    low: np.ndarray

    def scoring_arguments(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The tables a kernel that scores whole hands on whole boards reads, in its order:
        ``colex, pair_board, flush, low``."""
        return self.colex, self.pair_board, self.flush, self.low


def _multisets(size: int):
    """All multisets of ``size`` ranks, ascending, in index order."""
    items = list(itertools.combinations_with_replacement(range(RANK_COUNT), size))
    items.sort(key=multiset_index)
    return items


def dealt_board_indexes(fixed_ranks, dealt_count: int, colex: np.ndarray) -> np.ndarray:
    """Map each multiset of ``dealt_count`` dealt ranks to the five-rank board multiset index.

    Parameters
    ----------
    fixed_ranks : sequence of 5 - ``dealt_count`` ints, the ranks (0..12) of the known board cards.
    dealt_count : int, board cards still to come (0..5).
    colex : (5, 13) int32, :attr:`Tables.colex`.

    Returns
    -------
    (C(12 + dealt_count, dealt_count),) int32, indexed by the dealt multiset's colex index.

    Plain numpy (at most 6,188 multisets, a millisecond): a compiled kernel here cost about a
    second of a first run's compiling.
    """
    multisets = list(itertools.combinations_with_replacement(range(RANK_COUNT), dealt_count))
    dealt = np.array(multisets, dtype=np.int64).reshape(len(multisets), dealt_count)
    positions = np.arange(dealt_count)
    dealt_index = colex[positions, dealt].sum(axis=1)
    fixed = np.broadcast_to(np.asarray(fixed_ranks, dtype=np.int64), (len(dealt), 5 - dealt_count))
    board = np.sort(np.concatenate([fixed, dealt], axis=1), axis=1)
    mapping = np.empty(len(dealt), dtype=np.int32)
    mapping[dealt_index] = colex[np.arange(5), board].sum(axis=1)
    return mapping


def _build_low_table() -> np.ndarray:
    pairs = [sum(1 << r for r in pair) for pair in itertools.combinations(range(8), 2)]
    triples = [sum(1 << r for r in triple) for triple in itertools.combinations(range(8), 3)]
    pairs_array = np.array(pairs)
    triples_array = np.array(triples)
    union = pairs_array[:, None] | triples_array[None, :]
    disjoint = (pairs_array[:, None] & triples_array[None, :]) == 0
    pair_triple_low = np.where(disjoint, 255 - union, NO_LOW)  # (28, 56)
    masks = np.arange(256)
    pair_in_mask = (masks[:, None] & pairs_array[None, :]) == pairs_array[None, :]  # (256, 28)
    triple_in_mask = (masks[:, None] & triples_array[None, :]) == triples_array[None, :]  # (256, 56)
    # best over hole pairs for each (hole mask, board triple), then over board triples
    best_per_triple = np.where(pair_in_mask[:, :, None], pair_triple_low[None, :, :], NO_LOW).max(axis=1)
    low = np.where(triple_in_mask[None, :, :], best_per_triple[:, None, :], NO_LOW).max(axis=2)
    return low.astype(np.int16)


def build_tables() -> Tables:
    """Generate every table from the ranking rules (about a tenth of a second)."""
    colex = np.array([[comb(r + i, i + 1) for r in range(RANK_COUNT)] for i in range(5)], dtype=np.int32)
    pairs = _multisets(2)
    triples = _multisets(3)
    boards = _multisets(5)
    # a pair and a triple of ranks make a five-rank multiset: rank each multiset once (6,188)
    # and look every (pair, triple) up by its multiset's index
    multiset_values = np.array([unsuited_value(ranks) for ranks in boards], dtype=np.int32)
    pair_ranks = np.broadcast_to(np.array(pairs)[:, None, :], (len(pairs), len(triples), 2))
    triple_ranks = np.broadcast_to(np.array(triples)[None, :, :], (len(pairs), len(triples), 3))
    five = np.sort(np.concatenate([pair_ranks, triple_ranks], axis=2), axis=2)
    pair_triple = multiset_values[colex[np.arange(5), five].sum(axis=2)]
    # each board's ten rank triples (ascending ranks stay ascending) by their multiset index
    triple_positions = np.array(list(itertools.combinations(range(5), 3)))
    board_triples = colex[np.arange(3), np.array(boards)[:, triple_positions]].sum(axis=2).astype(np.int16)
    # pair_board[board, pair] = best of pair_triple[pair, triple] over the board's ten triples:
    # ten gathers of whole rows (a triple's values for every pair), each folded in with a maximum
    by_triple = np.ascontiguousarray(pair_triple.T)
    pair_board = by_triple[board_triples[:, 0]]
    for position in range(1, len(triple_positions)):
        np.maximum(pair_board, by_triple[board_triples[:, position]], out=pair_board)
    flush = np.zeros(1 << RANK_COUNT, dtype=np.int32)
    for ranks in itertools.combinations(range(RANK_COUNT), 5):
        flush[sum(1 << r for r in ranks)] = suited_value(ranks)
    return Tables(colex, pair_triple, pair_board, flush, _build_pair_flush(flush), _build_low_table())


def suited_pair_index(low_rank: int, high_rank: int) -> int:
    """Row of two distinct ranks (``low_rank < high_rank``) in :attr:`Tables.pair_flush`: 0..77."""
    return high_rank * (high_rank - 1) // 2 + low_rank


def _build_pair_flush(flush: np.ndarray) -> np.ndarray:
    """:attr:`Tables.pair_flush`: each suited pair with each board mask of exactly three ranks
    is a five-rank flush (0 when they share a rank), then every larger mask takes the best of
    its subsets, one rank at a time (a max over subsets, 13 passes)."""
    masks = np.arange(1 << RANK_COUNT)
    bit_counts = np.zeros(1 << RANK_COUNT, dtype=np.int64)
    for rank in range(RANK_COUNT):
        bit_counts += (masks >> rank) & 1
    pair_masks = np.zeros(SUITED_PAIRS, dtype=np.int64)
    for low_rank, high_rank in itertools.combinations(range(RANK_COUNT), 2):
        pair_masks[suited_pair_index(low_rank, high_rank)] = (1 << low_rank) | (1 << high_rank)
    # built as (mask, pair), so that each pass moves whole rows of 78 values (a tenth of the time
    # of gathering columns), then turned round
    by_mask = np.where((bit_counts == 3)[:, None], flush[masks[:, None] | pair_masks[None, :]], 0).astype(np.int32)
    for rank in range(RANK_COUNT):
        with_rank = masks[(masks >> rank) & 1 == 1]
        by_mask[with_rank] = np.maximum(by_mask[with_rank], by_mask[with_rank ^ (1 << rank)])
    return np.ascontiguousarray(by_mask.T)


def _source_hash() -> str:
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]


# Stored in every tables file this tool writes: cleanup removes only files that hold it.
MARKER_KEY = "created_by"
MARKER_VALUE = "omaha-equity lookup tables"
# Shape and dtype of every table (see :class:`Tables`): a file that does not match is rebuilt.
TABLE_LAYOUT = {
    "colex": ((5, RANK_COUNT), np.int32),
    "pair_triple": ((PAIR_MULTISETS, TRIPLE_MULTISETS), np.int32),
    "pair_board": ((BOARD_MULTISETS, PAIR_MULTISETS), np.int32),
    "flush": ((1 << RANK_COUNT,), np.int32),
    "pair_flush": ((SUITED_PAIRS, 1 << RANK_COUNT), np.int32),
    "low": ((256, 256), np.int16),
}


# SHA-256 of the generated tables (:func:`tables_digest` of :func:`build_tables`): tables read
# from the cache must match it. A change to the generator changes it (the test suite says so).
TABLES_DIGEST = "562b5d78bba6eaed074c7e412a4166d591aed75a6ae04a56e6f9ad962d889db6"
# A tables file is about 5 MB: anything much larger is not one (and is not read whole).
MAX_TABLES_FILE_BYTES = 16 * 2**20


def tables_digest(tables: Tables) -> str:
    """SHA-256 (hex) of every table's name, dtype, shape and bytes, in :data:`TABLE_LAYOUT` order."""
    digest = hashlib.sha256()
    for name in TABLE_LAYOUT:
        array = np.ascontiguousarray(getattr(tables, name))
        digest.update(f"{name} {array.dtype.str} {array.shape}\n".encode())
        digest.update(memoryview(array).cast("B"))
    return digest.hexdigest()


def tables_path() -> Path:
    """The cached tables file of this generator: ``tables-<hash of this module>.npz``."""
    return cache_dir() / f"tables-{_source_hash()}.npz"


def _read_stored(path: Path) -> Tables | None:
    """The tables stored in ``path`` as they are (not checked against the digest), or None when
    the file is missing, not a regular file (a symbolic link is not followed), too large,
    unreadable (the zip's CRC is checked), without the marker, or with a table of the wrong
    shape or dtype."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)  # a FIFO must not block
    try:
        with open(os.open(path, flags), "rb") as file:
            status = os.fstat(file.fileno())
            if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_TABLES_FILE_BYTES:
                return None
            with np.load(file, allow_pickle=False) as stored:
                if str(stored[MARKER_KEY]) != MARKER_VALUE:
                    return None
                arrays = {name: stored[name] for name in Tables.__dataclass_fields__}
    except Exception:  # noqa: BLE001 (any unreadable cache file is a miss: BadZipFile, EOFError, zlib.error...)
        return None
    for name, (shape, dtype) in TABLE_LAYOUT.items():
        if arrays[name].shape != shape or arrays[name].dtype != dtype:
            return None
    return Tables(**arrays)


def read_tables(path: Path) -> Tables | None:
    """The tables stored in ``path``, or None when the file is missing or unusable: not a
    regular file, unreadable (empty, truncated, corrupted), without the marker, with a table of
    the wrong shape or dtype, or with values that do not match :data:`TABLES_DIGEST`. Never
    raises on a bad file (the caller rebuilds)."""
    tables = _read_stored(path)
    return tables if tables is not None and tables_digest(tables) == TABLES_DIGEST else None


def _is_own_tables_file(path: Path) -> bool:
    """Whether ``path`` is a tables file written by this tool (any version): it holds the marker."""
    if path.is_symlink() or not path.is_file():
        return False
    try:
        with np.load(path, allow_pickle=False) as stored:
            return str(stored[MARKER_KEY]) == MARKER_VALUE
    except Exception:  # noqa: BLE001 (unreadable: not provably ours, left alone)
        return False


def _save_tables(path: Path, tables: Tables) -> None:
    """Write ``path`` atomically (a temporary file renamed), then remove this tool's tables
    files of other generator versions. Raises ``OSError`` when the folder cannot be written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.stem}.{os.getpid()}.tmp.npz")
    try:
        np.savez(temporary, **{MARKER_KEY: np.array(MARKER_VALUE)}, **tables.__dict__)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    for other in path.parent.glob("tables-*.npz"):
        if other != path and _is_own_tables_file(other):
            other.unlink(missing_ok=True)


@functools.cache
def load_tables() -> Tables:
    """The tables, from the disk cache when present, current, readable and matching
    :data:`TABLES_DIGEST`, else built and cached.

    A missing, unreadable or malformed file is rebuilt and replaced; a file whose values do not
    match the digest too, said once on stderr. A cache folder that cannot be written is not an
    error: the tables are then rebuilt in memory on every run (about 0.2 s), and so they are
    when the cache folder cannot be trusted (``cache.cache_root_state``; said once on stderr).
    """
    root, _ = cache_root_state()
    if root is None:
        notify_not_cached()
        return build_tables()
    path = tables_path()
    stored = _read_stored(path)
    if stored is not None and tables_digest(stored) == TABLES_DIGEST:
        return stored
    tables = build_tables()
    if stored is not None:
        notify_once("tables", f"the cached lookup tables {path} did not match the package's digest (changed since "
                              "written): rebuilt them")
    try:
        _save_tables(path, tables)
    except OSError:
        pass
    return tables
