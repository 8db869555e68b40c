"""Running a batch of queries: ``run_batch`` and the per-chunk work done on each worker.

The queries are read in order, named (their ``id``, else their position from 1), checked for
duplicate ids (every query after the first with an id is an error row naming the first; the ids
are kept on disk, :mod:`.ids`, so memory does not grow with the rows), given a seed (their own,
else :func:`queries.derive_seed` of the batch seed and the id), cut into chunks and sent to an
executor (``omaha_equity.runtime.executor``): this process, local worker processes, or a Dask cluster.
Results come back in input order, chunk by chunk; every query runs on one kernel thread (the
workers are the parallelism), so its numbers do not depend on where it ran.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..equity.plan import draw_seed
from ..equity.query import DEVICES
from ..equity.results.equity import EquityResult
from ..equity.results.table_rows import equity_rows
from ..errors import InputError, caused_by_interrupt, quoted
from ..runtime.executor import DaskExecutor, Executor, InProcessExecutor, make_executor
from ..validate import MAX_SEED, check_whole_number, is_whole_number
from .ids import QueryIds
from .queries import Query, UnreadableRow, derive_seed, query_from_record, record_id, written_fields

# Queries per task. Sending a task costs about a millisecond on Dask and a few tenths of one to
# a local process, while a small query (heads-up, flop or later, exact) takes a few tenths of a
# millisecond: 64 queries make a Dask task of tens of milliseconds, 16 a local one of a few.
# In this process every query is its own chunk, so each row is written as soon as it is done.
DASK_CHUNK_SIZE = 64
LOCAL_CHUNK_SIZE = 16

# The columns of every output row, in order: every statistic of ``calc`` (``equity.results.table_rows.equity_rows``;
# hi/lo columns are empty for high-only games), then the query and the error.
BATCH_COLUMNS = (
    "id", "player", "hand", "equity", "equity_exact", "standard_error", "win", "tie",
    "equity_high", "equity_low", "split", "hi_win", "hi_tie", "lo_win", "lo_tie", "scoop", "quartered", "has_low",
    "low_possible", "no_low", "game", "board", "dead", "method", "sample_count", "seed", "error",
)


@dataclass(frozen=True)
class BatchResult:
    """The outcome of one query of a batch.

    Attributes
    ----------
    position : int
        The query's place in the input, from 1.
    query_id : str
        Its id (the ``id`` given, else ``str(position)``).
    result : EquityResult, BoardRangeEquity or None
        The equity, when the query ran (a ``studies.board_ranges.BoardRangeEquity`` for a board
        range in the board column).
    error : str or None
        Why it did not run (bad cards, unknown game, duplicate id, ...).
    seed : int or None
        The Monte Carlo seed given to it: its own, else ``derive_seed(batch seed, id)``
        (exact enumeration draws nothing from it; None only for a result made by hand).
    written : dict of str
        The row's game, board, dead cards and hands as written (shown in its error row).
    """

    position: int
    query_id: str
    result: EquityResult | None = None
    error: str | None = None
    seed: int | None = None
    written: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.error is None

    def rows(self) -> list[dict[str, Any]]:
        """The output rows: one per player, or one error row; keys :data:`BATCH_COLUMNS`,
        statistics as fractions 0..1 (``equity.results.table_rows.equity_rows``), absent values None.

        The whole-number columns are filled on every row, so that a reader that types columns
        (``pandas.read_csv``) keeps them whole: an error row has ``player`` 0 (the query as a
        whole) and ``sample_count`` 0 (nothing ran), and every row has the query's ``seed``."""
        if self.result is None:
            row = dict.fromkeys(BATCH_COLUMNS)
            row.update(self.written, id=self.query_id, error=self.error, player=0, sample_count=0, seed=self.seed)
            return [row]
        rows = []
        if isinstance(self.result, EquityResult):
            player_rows = equity_rows(self.result)
        else:  # a board range (the board column): studies.board_ranges' rows, the flops as sample_count
            from ..studies.board_ranges import board_range_equity_rows

            player_rows = board_range_equity_rows(self.result)
        for player_row in player_rows:
            row = dict.fromkeys(BATCH_COLUMNS)
            row.update((key, value) for key, value in player_row.items() if key in row)
            row["id"] = self.query_id
            row["seed"] = self.seed
            if row["equity_exact"] == "":
                row["equity_exact"] = None
            rows.append(row)
        return rows


@dataclass(frozen=True)
class _Task:
    """A query on its way to a worker (or an error already known here)."""

    position: int
    query_id: str
    query: Query | None
    error: str | None
    seed: int | None
    written: dict[str, str]
    device: str = "cpu"


_warmed = False


def warm_up() -> None:
    """Load the tables and the fixed-hand kernels of this process once (a river and a Monte
    Carlo query), so the first chunk a worker gets is not slowed by loading them."""
    global _warmed
    if _warmed:
        return
    from ..equity.calculate import calculate_equity

    calculate_equity(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s5c3c", threads=1)
    calculate_equity(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", trials=1, seed=0, threads=1)
    _warmed = True


def _run_task(task: _Task) -> BatchResult:
    if task.error is not None:
        return BatchResult(task.position, task.query_id, error=task.error, seed=task.seed, written=task.written)
    from ..equity.calculate import calculate_equity

    query = task.query
    try:
        if _is_board_range(query.board):
            from ..equity.query import RunOptions
            from ..studies.board_ranges import equity_over_board_range

            options = RunOptions.checked(query.method, trials=query.trials, precision=query.precision,
                                         seed=task.seed, threads=1,
                                         device=task.device)
            result = equity_over_board_range(list(query.hands), query.board, query.game, dead=query.dead,
                                             die=query.die, options=options)
        else:
            result = calculate_equity(
                list(query.hands), query.board, query.dead, query.game, die=query.die, method=query.method,
                trials=query.trials, precision=query.precision, seed=task.seed, threads=1, device=task.device,
            )
    except InputError as error:
        return BatchResult(task.position, task.query_id, error=str(error), seed=task.seed, written=task.written)
    except Exception as error:  # a bug must not lose the rest of a long batch: report it on the row
        if caused_by_interrupt(error):  # Ctrl-C inside a kernel arrives wrapped, levels deep
            raise KeyboardInterrupt from None
        message = f"internal error ({type(error).__name__}: {error}); please report it"
        return BatchResult(task.position, task.query_id, error=message, seed=task.seed, written=task.written)
    return BatchResult(task.position, task.query_id, result=result, seed=task.seed, written=task.written)


def _is_board_range(board: str) -> bool:
    """A board column that is not cards but a board range (``AK*``, ``$mono``: docs/ranges.md)."""
    from ..boards import looks_like_board_range

    return bool(board) and looks_like_board_range(board)


def run_chunk(tasks: list[_Task]) -> list[BatchResult]:
    """Run a chunk of tasks in this process (what a worker does with one task of work)."""
    warm_up()
    return [_run_task(task) for task in tasks]


def _tasks(queries: Iterable[Query | Mapping[str, Any] | UnreadableRow], batch_seed: int,
           ids: QueryIds, device: str = "cpu") -> Iterator[_Task]:
    """The queries as tasks, numbered and named, less those already written (``ids``)."""
    for position, record in enumerate(queries, start=1):
        error = None
        if isinstance(record, UnreadableRow):
            written = {"game": "", "board": "", "dead": "", "hand": record.text[:200]}
            query_id, error = str(position), record.message
        else:
            written = written_fields(record)
            try:
                query_id = record_id(record, position)
            except InputError as problem:  # named by position, reported on its row
                query_id, error = str(position), str(problem)
        arrival = ids.arrive(query_id, position)
        if arrival.already_written:
            continue
        query = None
        if error is None and arrival.occurrence > 1:
            error = (f"duplicate id {quoted(query_id)} (also query {arrival.first_position}): each query needs its "
                     "own id (it names its rows, seeds it and lets --resume skip it)")
        if error is None:
            try:
                query = query_from_record(record)
            except InputError as problem:
                error = str(problem)
        seed = query.seed if query is not None and query.seed is not None else derive_seed(batch_seed, query_id)
        yield _Task(position, query_id, query, error, seed, written, device)


def _chunks(tasks: Iterator[_Task], size: int) -> Iterator[list[_Task]]:
    chunk: list[_Task] = []
    for task in tasks:
        chunk.append(task)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def run_batch(
    queries: Iterable[Query | Mapping[str, Any]],
    *,
    seed: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    scheduler_file: str | None = None,
    client=None,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    ids: QueryIds | None = None,
    device: str = "cpu",
) -> Iterator[BatchResult]:
    """Run many equity queries and yield one :class:`BatchResult` per query, in input order.

    Parameters
    ----------
    queries : iterable of Query or mapping
        :class:`Query` objects, or rows with the keys of a batch file (``hands`` or ``hand1``,
        ``hand2``, ..., ``board``, ``game``, ..., see ``omaha_equity.batch.queries``). Read
        lazily, as the work goes.
    seed : int, optional
        The batch seed (0..2**64-1): a query without its own seed runs with
        ``derive_seed(seed, id)``, so its numbers depend only on the seed and its id, never on
        the batch size, the workers or the order. Default: a random batch seed (pass one to
        repeat a run).
    workers : int, optional
        Local worker processes (default: one per core; 1: this process only).
    scheduler, scheduler_file, client : optional
        Run on a Dask cluster instead (address ``tcp://HOST:8786``, scheduler file, or a
        ``distributed.Client``); needs ``pip install 'omaha-equity[cluster]'``.
    executor : Executor, optional
        An executor made by the caller (``omaha_equity.runtime.executor.make_executor``), left open.
    chunk_size : int, optional
        Queries per task (default ``LOCAL_CHUNK_SIZE`` = 16 for local processes,
        ``DASK_CHUNK_SIZE`` = 64 on Dask, 1 in this process).
    ids : QueryIds, optional
        The ids of the run: with ``--resume``, loaded with the queries an earlier output holds
        (``QueryIds.add_written``), which are left out (positions still count them). Default: a
        new, empty one, closed at the end.
    device : {"cpu", "gpu", "auto"}
        Where each query's kernels run (``calculate_equity``'s ``device``; docs/gpu.md).

    Yields
    ------
    BatchResult
        One per query not skipped, in input order; a bad query yields a result with ``error``
        set and the batch goes on. A query whose id an earlier query has is an error row
        (``duplicate id``), on every run and on ``--resume``.

    Raises
    ------
    InputError
        A bad seed, worker count or chunk size, both a cluster and workers, or Dask missing; an
        unknown device, or ``gpu`` without a GPU.
    omaha_equity.runtime.executor.ExecutorLost
        The workers could not go on (see :mod:`omaha_equity.runtime.executor`); every result before
        it was yielded.

    Examples
    --------
    >>> from omaha_equity.batch import run_batch
    >>> results = run_batch([{"hands": "AsAhKsKh|JdTd9c8c", "board": "Qd7h2s"}], workers=1)
    >>> [round(player.equity, 4) for player in next(results).result.players]
    [0.8195, 0.1805]
    """
    if seed is None:
        seed = draw_seed()
    else:
        seed = check_whole_number(seed, "seed", 0, MAX_SEED, "2**64-1")
    if chunk_size is not None and (not is_whole_number(chunk_size) or chunk_size < 1):
        raise InputError(f"bad chunk size {quoted(chunk_size)}: expected a whole number of at least 1")
    chunk_size = None if chunk_size is None else int(chunk_size)
    if device != "cpu":
        if device not in DEVICES:
            raise InputError(f"unknown device {quoted(device)}: expected one of {', '.join(DEVICES)}")
        from ..gpu.device import runs_on_gpu  # lazy: numba.cuda loads only when a GPU is asked for

        runs_on_gpu(device, 0)  # gpu without one: one error for the batch, not one per row
    own_executor = executor is None
    if executor is None:
        executor = make_executor(workers, scheduler, scheduler_file, client, warm_up=warm_up)
    if chunk_size is None:
        chunk_size = (1 if isinstance(executor, InProcessExecutor)
                      else DASK_CHUNK_SIZE if isinstance(executor, DaskExecutor) else LOCAL_CHUNK_SIZE)
    own_ids = ids is None
    if ids is None:
        ids = QueryIds()
    completed = False
    try:
        for chunk in executor.map(run_chunk, _chunks(_tasks(queries, seed, ids, device), chunk_size)):
            yield from chunk
        completed = True
    finally:
        if own_executor:
            executor.close(cancel=not completed)
        if own_ids:
            ids.close()
