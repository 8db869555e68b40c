"""The bundles of kernel inputs that the fixed-hand and the hand-list kernels both take: the pots
of an all-in (:class:`PotArrays`) and the chunks of a Monte Carlo run (:class:`ChunkPlan`).

Each bundle is a frozen dataclass whose ``kernel_arguments()`` gives its values in the order the
kernels take them (as ``fixed.hands.Prepared.kernel_arguments`` does for the per-hand rows, and
the hand-list bundles of ``lists.inputs``), so that a call site reads
``kernel(*lists.kernel_arguments(), *pots.kernel_arguments(), ...)`` and no call spells out a
long row of arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..pots import Pot


@dataclass(frozen=True)
class PotArrays:
    """The pots of an all-in as the kernels' ``pots.settle_pots`` reads them.

    Attributes
    ----------
    amounts : (pot_count,) int64, chips in each pot.
    eligible_masks : (pot_count,) int64, bit ``p`` set when player ``p`` may win the pot.
    """

    amounts: np.ndarray
    eligible_masks: np.ndarray

    @classmethod
    def of(cls, pots: tuple[Pot, ...] | list[Pot]) -> PotArrays:
        return cls(np.array([pot.amount for pot in pots], dtype=np.int64),
                   np.array([pot.eligible_mask for pot in pots], dtype=np.int64))

    def kernel_arguments(self) -> tuple:
        return self.amounts, self.eligible_masks


@dataclass(frozen=True)
class ChunkPlan:
    """Where a Monte Carlo run's chunks end: each chunk ``c`` holds samples
    ``c * chunk_size .. min((c + 1) * chunk_size, sample_count) - 1``.

    Attributes
    ----------
    chunk_size : int, samples per chunk (it decides which samples a seed gives).
    sample_count : int, samples of the whole run (the trials).
    """

    chunk_size: int
    sample_count: int

    def kernel_arguments(self) -> tuple:
        return self.chunk_size, self.sample_count
