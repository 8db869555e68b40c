"""The Poker Query Language (PQL) for every Omaha game: ``select ... from ... where ...``,
answered exactly where the deals are few and by Monte Carlo with a standard error otherwise
(docs/pql.md)::

    from omaha_equity.pql import run
    result = run("select avg(riverEquity(hero)) as eq from game='omahahi', hero='AA**', villain='15%'")
    result.selectors[0].value, result.selectors[0].standard_error
"""

from __future__ import annotations

from .engine import Bucket, PqlResult, SelectorResult, run
from .syntax import PqlError, Query, parse_query

__all__ = ["Bucket", "PqlError", "PqlResult", "Query", "SelectorResult", "parse_query", "run"]
