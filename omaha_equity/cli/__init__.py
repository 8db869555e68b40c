"""The ``omaha-equity`` command line: click code only; the poker lives in the library.

Argument syntax is checked by click parameter types (:mod:`.params`); the library's
``InputError`` (bad cards, duplicates, counts, games) becomes a one-line usage error with exit
code 2 (:mod:`.errors`, where every exit code is decided). The modules:

- :mod:`.app`: the command group ``main`` and the console script ``run``;
- :mod:`.commands`: the commands, one module per family;
- :mod:`.options`: option groups shared by several commands (output, game, run options);
- :mod:`.params`: the argument types; :mod:`.progress`: progress on stderr;
- :mod:`.shell`: the interactive session; :mod:`.fast_exit`: the exit without the teardown.
"""

from .app import main, run

__all__ = ["main", "run"]
