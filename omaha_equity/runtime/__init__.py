"""What the calculations run on: compiled-kernel cache, threads, worker processes, random state, and
whole-or-nothing output files."""
