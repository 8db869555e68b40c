"""Random numbers for the compiled kernels: SplitMix64 streams, one per chunk of work.

Each chunk of Monte Carlo work (equity, ranges, rankings, studies) draws from its own stream,
seeded from ``(seed, chunk index)``, so the samples do not depend on which thread runs the
chunk or how the work is cut. Kernel module (numba), on the ground floor of the package: the
equity, ranking and study kernels all draw from it.
"""

from __future__ import annotations

import numpy as np

from .numba import helper, kernel

@helper
def splitmix64(state):
    """One step of SplitMix64 (Steele, Lea, Flood 2014): returns (next state, 64 random bits)."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    mixed = state
    mixed = (mixed ^ (mixed >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    mixed = (mixed ^ (mixed >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, mixed ^ (mixed >> np.uint64(31))


@kernel
def chunk_random_state(seed, chunk):
    """Starting state of a chunk's generator: a hash of (seed, chunk index), so chunks give
    independent-looking streams whatever thread runs them."""
    _, seed_hash = splitmix64(np.uint64(seed))
    _, state = splitmix64(seed_hash ^ np.uint64(chunk) * np.uint64(0xD1B54A32D192ED03))
    return state


@helper
def chunk_start(seed, chunk, chunk_size, sample_count):
    """A Monte Carlo chunk's bounds and stream: its first sample ``chunk * chunk_size``, the
    sample after its last (at most ``sample_count``), and its generator's starting state
    (:func:`chunk_random_state`). A chunk past the samples has ``start >= stop``."""
    start = chunk * chunk_size
    return start, min(start + chunk_size, sample_count), chunk_random_state(seed, chunk)
