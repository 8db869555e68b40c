"""Finding a CUDA GPU, and choosing the device a query runs on (``--device cpu|gpu|auto``).

``numba.cuda`` is imported here only, and only when a GPU is asked for (``gpu``, or ``auto`` on
work big enough to pay for a launch): a command that runs on the CPU never loads it.

numba-cuda 0.30 still names ``numpy.row_stack``, which numpy 2.5 removed, so importing it there
fails; :func:`cuda_module` aliases it to ``numpy.vstack`` (what numpy documented it as) before
the import, only when numpy lacks it.

Under ``NUMBA_ENABLE_CUDASIM=1`` numba's CUDA simulator stands in for a GPU (slow Python, for
tests): ``gpu`` runs on it, ``auto`` never chooses it.
"""

from __future__ import annotations

import functools
from enum import StrEnum
from types import ModuleType

from ..errors import InputError

NO_GPU_MESSAGE = "no CUDA GPU found: install omaha-equity[gpu] and an NVIDIA driver; see docs/gpu.md"
# ``auto`` runs on a GPU from this much work (player-boards): about a tenth of a second on all
# the cores of a 16-core CPU (``make bench`` measured 0.16 G player-boards a second there), where
# a launch, the copies and a first compile of the kernels stop being most of the time. Below
# it the CPU answers as fast. (Set from the CPU's measured speed; the GPU side is not measured
# yet: docs/gpu.md.)
AUTO_GPU_WORK = 20_000_000


class GpuKind(StrEnum):
    """What ``numba.cuda`` finds: no GPU, the simulator, or a CUDA device."""

    NONE = "none"
    SIMULATOR = "simulator"
    DEVICE = "device"


class NoGpuError(InputError):
    """A GPU was asked for (``device="gpu"``) and none was found: :data:`NO_GPU_MESSAGE`."""


def _alias_row_stack() -> None:
    """``numpy.row_stack = numpy.vstack`` where numpy (2.5 and later) no longer has it: numba-cuda
    registers an implementation under that name when it is imported."""
    import numpy

    if "row_stack" not in dir(numpy):
        numpy.row_stack = numpy.vstack


def cuda_module() -> ModuleType:
    """``numba.cuda``, imported after the ``row_stack`` alias (the module docstring).

    Raises
    ------
    ImportError
        numba-cuda (or numba's own CUDA target) cannot be imported.
    """
    _alias_row_stack()
    from numba import cuda

    return cuda


@functools.cache
def gpu_kind() -> GpuKind:
    """Whether ``numba.cuda`` finds a GPU (once per process: the answer does not change)."""
    try:
        cuda = cuda_module()
    except Exception:  # no numba.cuda, or one that fails to load: no GPU either way
        return GpuKind.NONE
    from numba.core import config

    if config.ENABLE_CUDASIM:
        return GpuKind.SIMULATOR
    try:
        return GpuKind.DEVICE if cuda.is_available() else GpuKind.NONE
    except Exception:  # a driver that fails to initialise
        return GpuKind.NONE


def runs_on_gpu(device: str, work: int) -> bool:
    """Whether a query of ``work`` player-boards runs on the GPU: ``gpu`` always (simulator
    included), ``auto`` when a real GPU is found and ``work >= AUTO_GPU_WORK``, ``cpu`` never.

    Raises
    ------
    NoGpuError
        ``gpu`` and no GPU found (:data:`NO_GPU_MESSAGE`).
    """
    if device == "gpu":
        if gpu_kind() == GpuKind.NONE:
            raise NoGpuError(NO_GPU_MESSAGE)
        return True
    if device == "auto":
        return work >= AUTO_GPU_WORK and gpu_kind() == GpuKind.DEVICE
    return False


def describe() -> str:
    """One line naming the GPU numba-cuda would run on (its name and compute capability), the
    simulator, or none."""
    kind = gpu_kind()
    if kind == GpuKind.NONE:
        return "no CUDA GPU"
    if kind == GpuKind.SIMULATOR:
        return "numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1)"
    device = cuda_module().get_current_device()
    name = device.name.decode() if isinstance(device.name, bytes) else str(device.name)
    major, minor = device.compute_capability
    return f"{name} (compute capability {major}.{minor})"
