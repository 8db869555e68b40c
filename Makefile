# Each target makes its own virtual environment (.venv) on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test lint bench bench-gpu docs dist clean

# What an install brings is recorded by a stamp per level: the runtime dependencies only
# (make demo), or with the test extras (make test; they include the docs and plot extras).
$(VENV)/.runtime-installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -e .
	touch $@

# The test extras are about 60 packages: uv (installed into .venv by pip first) fetches and installs
# them in a few CPU seconds where pip takes about 35 (measured on a fresh clone); where uv cannot be
# had or fails, pip does it.
$(VENV)/.test-installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet uv && $(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[test]' \
		|| $(BIN)/pip install --quiet -e '.[test]'
	touch $@

$(BIN)/omaha-equity: $(VENV)/.test-installed
	touch $@

# Install the runtime dependencies only, then answer one equity query (the product's main job).
demo: $(VENV)/.runtime-installed
	$(BIN)/omaha-equity calc AsAhKsKh JdTd9c8c

# Install, then run the test suite (two worker processes: the machine's two cores; a worker that
# runs out of tests takes some of the other's, so one slow file does not leave a core idle at the end).
# PYTHONDONTWRITEBYTECODE is emptied for the run: the suite starts about a hundred Python processes
# (workers, warm-up, the commands it runs), and without .pyc files each one would compile numpy,
# numba, the package and its own test files from source again.
test: $(BIN)/omaha-equity
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n 2 --dist worksteal

# Install, then check the code: ruff (pyflakes, pycodestyle, bugbear; [tool.ruff] in pyproject.toml)
# on everything, mypy on the packages [tool.mypy] lists as strict.
lint: $(BIN)/omaha-equity
	$(BIN)/ruff check .
	$(BIN)/mypy

# Install, then print the speed figures: first the table of each workload beside its limit (a C
# program of the same algorithm, built when a C compiler exists) and the poker-equity package, then
# every other section. poker-equity is installed here, into .venv, for the benchmark alone (no
# dependency of the package or its tests); where it cannot be installed its cells say "not installed".
# Best of 3 and no Dask LocalCluster figures (bench.py --only-batch has them): with 5 repeats and the
# cluster the whole run took 13.8 minutes on the 2-core machine (load 3-8).
bench: $(BIN)/omaha-equity
	$(BIN)/uv pip install --quiet --python $(BIN)/python poker-equity==0.1.1 \
		|| $(BIN)/pip install --quiet poker-equity==0.1.1 \
		|| echo "poker-equity could not be installed: the benchmark runs without it"
	$(BIN)/python benchmarks/bench.py --repeats 3 --skip-cluster

# Install with the [gpu] extra (numba-cuda and the CUDA 12 runtime wheels), then print the GPU table
# (benchmarks/gpu_bench.py: ours on the GPU, ours on the CPU with every core, the ratio). Without a
# CUDA GPU it says so in one line and exits with status 2 (docs/gpu.md).
bench-gpu: $(BIN)/omaha-equity
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[gpu]' || $(BIN)/pip install --quiet -e '.[gpu]'
	$(BIN)/python benchmarks/gpu_bench.py

# The documentation site, into site/.
docs: $(BIN)/omaha-equity
	$(BIN)/mkdocs build --strict --site-dir site

# The sdist and the wheel a user can publish, into dist/, checked by twine.
dist: $(VENV)/.runtime-installed
	$(BIN)/pip install --quiet build twine
	rm -rf dist
	$(BIN)/python -m build --outdir dist
	$(BIN)/python -m twine check --strict dist/*

clean:
	rm -rf $(VENV) site dist
