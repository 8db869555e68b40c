#!/usr/bin/env bash
# The GPU check, run once on a machine with a CUDA GPU (GPU time is scarce: one script, under
# 8 minutes in all, 30 + 60 + 180 + 180 s at most): the card, the kernels compiled for it, the
# GPU tests on the real device (tests/test_gpu.py with OMAHA_EQUITY_GPU_TESTS=device) and
# `make bench-gpu`'s table. Every step has its own time limit and the script goes on after a
# failure; everything goes to one file, $OUT/gpu_check.txt (OUT defaults to ./gpu-check), and the
# script's status is the worst step's.
#
# It needs omaha-equity installed with its gpu extra (`pip install -e '.[gpu]'`, what
# `make bench-gpu` installs); PYTHON names the interpreter (default: .venv/bin/python when there
# is one, else python3). On a machine without a GPU the device steps end with the one no-GPU line.
set -u
cd "$(dirname "$0")/.."
OUT="${OUT:-gpu-check}"
mkdir -p "$OUT"
LOG="$OUT/gpu_check.txt"
if [ -z "${PYTHON:-}" ]; then
    if [ -x .venv/bin/python ]; then PYTHON=.venv/bin/python; else PYTHON=python3; fi
fi
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"  # this checkout, installed or not
export OMAHA_EQUITY_CACHE="${OMAHA_EQUITY_CACHE:-$OUT/kernel-cache}"
status=0

step() {  # step SECONDS TITLE COMMAND...: run with a time limit, log its output and seconds
    local limit="$1" title="$2"
    shift 2
    local started=$SECONDS
    echo "=== $title (limit ${limit}s)" >>"$LOG"
    timeout "$limit" "$@" >>"$LOG" 2>&1
    local code=$?
    echo "=== $title: exit $code after $((SECONDS - started))s" >>"$LOG"
    if [ "$code" -gt "$status" ]; then status=$code; fi
}

: >"$LOG"
{
    echo "gpu_check $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname), $(nproc) cores"
    git log -1 --format='commit %H %s' 2>/dev/null
    uptime
    nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv 2>&1 || echo "no nvidia-smi"
} >>"$LOG" 2>&1
step 30 "versions and the device" "$PYTHON" -c '
import numpy, numba
from omaha_equity.gpu.device import describe
print("numpy", numpy.__version__, "numba", numba.__version__)
try:
    from importlib.metadata import version
    print("numba-cuda", version("numba-cuda"))
except Exception as error:
    print("numba-cuda: not installed", error)
print("device:", describe())'
step 60 "the kernels compiled to PTX (compute capability 9.0)" "$PYTHON" benchmarks/gpu_bench.py --ptx
step 180 "tests/test_gpu.py on the device" env OMAHA_EQUITY_GPU_TESTS=device PYTHONDONTWRITEBYTECODE=1 \
    "$PYTHON" -m pytest -q -p no:cacheprovider tests/test_gpu.py --durations=10
step 180 "make bench-gpu's table (benchmarks/gpu_bench.py)" "$PYTHON" benchmarks/gpu_bench.py
echo "gpu_check: done, status $status; uptime $(uptime)" >>"$LOG"
cat "$LOG"
exit "$status"
