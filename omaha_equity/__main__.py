"""``python -m omaha_equity`` runs the command-line tool."""

import os
import sys

try:
    from .cli import run
except KeyboardInterrupt:  # Ctrl-C while the program loads: its one line, as later, not a traceback
    if sys.stderr is not None:
        sys.stderr.write("Aborted!\n")
        sys.stderr.flush()
    os._exit(130)

run()
