# Each target makes its own virtual environment (.venv) on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test bench clean

$(BIN)/omaha-equity: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

# Install, then answer one equity query (the product's main job).
demo: $(BIN)/omaha-equity
	$(BIN)/omaha-equity calc AsAhKsKh JdTd9c8c

# Install, then run the test suite (two worker processes: the machine's two cores; a worker that
# runs out of tests takes some of the other's, so one slow file does not leave a core idle at the end).
test: $(BIN)/omaha-equity
	$(BIN)/python -m pytest -q -n 2 --dist worksteal

# Install, then print the speed figures (and a peer's, when poker-equity is installed).
bench: $(BIN)/omaha-equity
	$(BIN)/python benchmarks/bench.py

clean:
	rm -rf $(VENV)
