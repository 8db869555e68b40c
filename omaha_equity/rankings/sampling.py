"""One piece of a ranking's Monte Carlo, shaped to run anywhere: a :class:`ClassChunk` holds a
slice of class representatives and everything the kernel needs, :func:`sample_chunk` runs it.
``scripts/generate_rankings.py`` sends the chunks to an executor (``omaha_equity.runtime.executor``):
this process, local worker processes, or a Dask cluster.

Class ``i`` draws from the stream of ``(seed, i)`` whatever chunk or worker it lands in, and
the sums are integers, so the result does not depend on where or in what pieces it ran.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ClassChunk:
    """A slice of the classes of one ranking file.

    Attributes
    ----------
    hands : (class_count, hole_count) int8
        The classes' representative hands.
    first_class_index : int
        Index of ``hands[0]`` among all classes of the file.
    opponent_count, sample_count, seed, hilo, units
        As in ``rankings._generate.sample_class_shares``.
    threads : int or None
        Numba threads for this chunk (None: numba's default, every core of the machine).
    """

    hands: np.ndarray
    first_class_index: int
    opponent_count: int
    sample_count: int
    seed: int
    hilo: bool
    units: int
    threads: int | None = None


def sample_chunk(chunk: ClassChunk) -> tuple[np.ndarray, np.ndarray]:
    """Share sums and square sums, both ``(class_count,) int64`` in pot units, of a chunk."""
    import numba

    from ..runtime.threads import across_threads
    from ..evaluate.tables import load_tables
    from ._generate import sample_class_shares

    tables = load_tables()
    previous = numba.get_num_threads()
    if chunk.threads is not None:
        numba.set_num_threads(min(chunk.threads, numba.config.NUMBA_NUM_THREADS))
    try:
        # each class has its own random stream: the same numbers however the classes are shared
        return across_threads(
            lambda first, count: sample_class_shares(
                chunk.hands[first:first + count], chunk.opponent_count, chunk.sample_count, np.uint64(chunk.seed),
                chunk.first_class_index + first, *tables.scoring_arguments(), chunk.hilo, chunk.units),
            0, len(chunk.hands), uneven=True)
    finally:
        numba.set_num_threads(previous)
