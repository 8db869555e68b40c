"""The GPU backend (numba-cuda): imported only when a GPU is asked for (docs/gpu.md)."""
