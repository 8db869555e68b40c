"""Batches of equity queries: many spots in, one row per player per spot out.

Python::

    from omaha_equity.batch import Query, run_batch
    queries = [Query(("AsAhKsKh", "JdTd9c8c"), board=flop) for flop in ("Qd7h2s", "9h8h2c")]
    for outcome in run_batch(queries, seed=1):
        print(outcome.query_id, outcome.error or outcome.result.equities)

Command line: ``omaha-equity batch spots.csv -o equities.csv`` (see ``omaha-equity batch --help``
and the README's "Recipes"). The input keys are documented in :mod:`omaha_equity.batch.queries`,
the seeds in :func:`derive_seed`, where the work runs in :mod:`omaha_equity.runtime.executor`; the
input bounds in :mod:`.records`, the output files and faults in :mod:`.output` and :mod:`.command`.
"""

from .ids import QueryIds
from .queries import Query, UnreadableRow, derive_seed, query_from_record
from .run import BATCH_COLUMNS, DASK_CHUNK_SIZE, LOCAL_CHUNK_SIZE, BatchResult, run_batch

__all__ = [
    "BATCH_COLUMNS", "DASK_CHUNK_SIZE", "LOCAL_CHUNK_SIZE", "BatchResult", "Query", "QueryIds", "UnreadableRow",
    "derive_seed", "query_from_record", "run_batch",
]
