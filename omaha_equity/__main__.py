"""``python -m omaha_equity`` runs the command-line tool."""

from .cli import run

run()
