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

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..equity.many_spots import Spot, plain_spot, spot_result
from ..equity.plan import draw_seed
from ..equity.query import DEVICES
from ..games import Game, get_game
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
# Spots (``equity.many_spots``: small exact queries of fixed hands) are cheap: they are sent in
# chunks of about this much work, in player-boards (about 20-40 ms on the spot kernel), each
# spot also counting SPOT_OVERHEAD_WORK for its Python (parsing, formatting: some 10 us), and the
# chunk's spots of one shape are scored by one kernel call. Any other query weighs as much as
# CHUNK_WORK divided by the chunk size above (alone in this process: its rows are written as
# soon as it is done).
CHUNK_WORK = 2_000_000
SPOT_OVERHEAD_WORK = 500
# Queries read ahead of the work, to look their ids up in one statement (``QueryIds.arrive_many``).
_ID_BLOCK = 256

# The columns of every output row, in order: every statistic of ``calc`` (``equity.results.table_rows.equity_rows``;
# hi/lo columns are empty for high-only games), then the query and the error.
BATCH_COLUMNS = (
    "id", "player", "hand", "equity", "equity_exact", "standard_error", "win", "tie",
    "equity_high", "equity_low", "split", "hi_win", "hi_tie", "lo_win", "lo_tie", "scoop", "quartered", "has_low",
    "low_possible", "no_low", "game", "board", "dead", "method", "sample_count", "seed", "error",
)


class BatchResult:
    """The outcome of one query of a batch.

    Attributes
    ----------
    position : int
        The query's place in the input, from 1.
    query_id : str
        Its id (the ``id`` given, else ``str(position)``).
    result : EquityResult, BoardRangeEquity or None
        The equity, when the query ran (made when first read for a spot: ``equity.many_spots``;
        a ``studies.board_ranges.BoardRangeEquity`` for a board range in the board column).
    error : str or None
        Why it did not run (bad cards, unknown game, duplicate id, ...).
    seed : int or None
        The Monte Carlo seed given to it: its own, else ``derive_seed(batch seed, id)``
        (exact enumeration draws nothing from it; None only for a result made by hand).
    written : dict of str
        The row's game, board, dead cards and hands as written (shown in its error row).
    """

    __slots__ = ("position", "query_id", "_result", "error", "seed", "written", "_spot", "_counts", "_low_boards")

    def __init__(self, position: int, query_id: str, result: EquityResult | None = None, error: str | None = None,
                 seed: int | None = None, written: dict[str, str] | None = None, *, spot: Spot | None = None,
                 counts: list | None = None, low_boards: int = 0):
        self.position = position
        self.query_id = query_id
        self._result = result
        self.error = error
        self.seed = seed
        self.written = {} if written is None else written
        self._spot = spot
        self._counts = counts
        self._low_boards = low_boards

    @property
    def result(self) -> EquityResult | None:
        if self._result is None and self._spot is not None:
            self._result = spot_result(self._spot, self._counts, self._low_boards)
        return self._result

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BatchResult):
            return NotImplemented
        return (self.position, self.query_id, self.result, self.error, self.seed, self.written) == \
            (other.position, other.query_id, other.result, other.error, other.seed, other.written)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"BatchResult(position={self.position!r}, query_id={self.query_id!r}, result={self.result!r}, "
                f"error={self.error!r}, seed={self.seed!r}, written={self.written!r})")

    def __getstate__(self):
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    @property
    def ok(self) -> bool:
        return self.error is None

    def csv_text(self) -> str | None:
        """The CSV lines of :meth:`rows`, made straight from a spot's counts
        (``spot_rows.spot_csv_text``), or None when the result is not a spot's."""
        if self._spot is None or self.error is not None:
            return None
        from .spot_rows import spot_csv_text

        return spot_csv_text(self.query_id, self.seed, self._spot, self._counts, self._low_boards)

    def rows(self) -> list[dict[str, Any]]:
        """The output rows: one per player, or one error row; keys :data:`BATCH_COLUMNS`,
        statistics as fractions 0..1 (``equity.results.table_rows.equity_rows``), absent values None.

        The whole-number columns are filled on every row, so that a reader that types columns
        (``pandas.read_csv``) keeps them whole: an error row has ``player`` 0 (the query as a
        whole) and ``sample_count`` 0 (nothing ran), and every row has the query's ``seed``."""
        result = self.result
        if result is None:
            row = dict.fromkeys(BATCH_COLUMNS)
            row.update(self.written, id=self.query_id, error=self.error, player=0, sample_count=0, seed=self.seed)
            return [row]
        rows = []
        if isinstance(result, EquityResult):
            player_rows = equity_rows(result)
        else:  # a board range (the board column): studies.board_ranges' rows, the flops as sample_count
            from ..studies.board_ranges import board_range_equity_rows

            player_rows = board_range_equity_rows(result)
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
    spot: Spot | None = None
    device: str = "cpu"

    @property
    def work(self) -> int | None:
        """Player-boards of a spot with its Python's share (``SPOT_OVERHEAD_WORK``); an error
        row counts as the overhead alone; None for any other query."""
        if self.error is not None:
            return SPOT_OVERHEAD_WORK
        if self.spot is None:
            return None
        return self.spot.board_count * len(self.spot.hands) + SPOT_OVERHEAD_WORK


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
    from ..equity.many_spots import spot_counts

    spot_counts([plain_spot(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s5c3c", "", get_game("omaha"))])
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
                                         seed=task.seed, threads=1, device=task.device)
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
    """Run a chunk of tasks in this process (what a worker does with one task of work): the
    spots of each shape in one kernel call (``equity.many_spots.spot_counts``), every other
    query on its own; results in the tasks' order."""
    from ..equity.many_spots import spot_counts

    results: list[BatchResult | None] = [None] * len(tasks)
    shapes: dict[tuple, list[int]] = {}
    for index, task in enumerate(tasks):
        if task.spot is not None and task.error is None:
            shapes.setdefault(task.spot.shape, []).append(index)
        else:
            results[index] = _run_task(task)
    for indexes in shapes.values():
        try:
            counts, low_boards = spot_counts([tasks[index].spot for index in indexes])
        except Exception as error:
            if caused_by_interrupt(error):
                raise KeyboardInterrupt from None
            for index in indexes:  # each query on its own: its row says what went wrong
                results[index] = _run_task(tasks[index])
            continue
        for index, spot_rows, spot_low_boards in zip(indexes, counts.tolist(), low_boards.tolist()):
            task = tasks[index]
            results[index] = BatchResult(task.position, task.query_id, seed=task.seed, written=task.written,
                                         spot=task.spot, counts=spot_rows, low_boards=spot_low_boards)
    return results  # type: ignore[return-value]


# Games by the text of a row's game cell (None: not a game; ``calculate_equity`` says why).
_games: dict[str, Game | None] = {}


def _spot_of(query: Query) -> Spot | None:
    """The query as a spot (``equity.many_spots.plain_spot``), or None."""
    if query.method not in ("auto", "exact") or query.trials is not None or query.precision is not None \
            or query.die is not None:
        return None
    game = _games.get(query.game, False)
    if game is False:
        try:
            game = get_game(query.game)
        except InputError:
            game = None
        if len(_games) > 1000:
            _games.clear()
        _games[query.game] = game
    if game is None:
        return None
    return plain_spot(query.hands, query.board, query.dead, game)


def _tasks(queries: Iterable[Query | Mapping[str, Any] | UnreadableRow], batch_seed: int,
           ids: QueryIds, device: str = "cpu") -> Iterator[_Task]:
    """The queries as tasks, numbered and named, less those already written (``ids``). Read
    :data:`_ID_BLOCK` at a time so that their ids are looked up together; a fault reading the
    input is raised after the tasks of every query before it."""
    records = enumerate(queries, start=1)
    while True:
        block = []
        fault = None
        try:
            for position, record in records:
                block.append((position, record))
                if len(block) >= _ID_BLOCK:
                    break
        except Exception as error:  # the input cannot be read further: the queries before it first
            fault = error
        named = []
        for position, record in block:
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
            named.append((position, record, query_id, error, written))
        arrivals = ids.arrive_many([(query_id, position) for position, _, query_id, _, _ in named])
        for (position, record, query_id, error, written), arrival in zip(named, arrivals):
            if arrival.already_written:
                continue
            query = None
            if error is None and arrival.occurrence > 1:
                error = (f"duplicate id {quoted(query_id)} (also query {arrival.first_position}): each query needs "
                         "its own id (it names its rows, seeds it and lets --resume skip it)")
            if error is None:
                try:
                    query = query_from_record(record)
                except InputError as problem:
                    error = str(problem)
            seed = query.seed if query is not None and query.seed is not None else derive_seed(batch_seed, query_id)
            # spots run on the CPU's spot kernel; a GPU asked for by name gets every query
            spot = _spot_of(query) if query is not None and error is None and device != "gpu" else None
            yield _Task(position, query_id, query, error, seed, written, spot, device)
        if fault is not None:
            raise fault
        if len(block) < _ID_BLOCK:
            return


def _chunks(tasks: Iterator[_Task], size: int | None, queries_per_chunk: Callable[[], int]) -> Iterator[list[_Task]]:
    """Tasks in chunks: ``size`` each when given, else by work (:data:`CHUNK_WORK`; a query
    other than a spot weighs ``CHUNK_WORK / queries_per_chunk()``, asked as the chunks are made:
    the executor may change)."""
    chunk: list[_Task] = []
    work = 0
    for task in tasks:
        if size is not None:
            chunk.append(task)
            if len(chunk) >= size:
                yield chunk
                chunk = []
            continue
        cost = task.work
        if cost is None:
            cost = CHUNK_WORK // queries_per_chunk()
        if chunk and work + cost > CHUNK_WORK:
            yield chunk
            chunk, work = [], 0
        chunk.append(task)
        work += cost
    if chunk:
        yield chunk


def queries_per_chunk(executor: Executor) -> int:
    """Queries other than spots sent in one task: 1 in this process (each written as soon as it
    is done), ``LOCAL_CHUNK_SIZE`` to local workers, ``DASK_CHUNK_SIZE`` on Dask."""
    chunk_size = getattr(executor, "queries_per_chunk", None)
    if chunk_size is not None:
        return chunk_size()
    return (1 if isinstance(executor, InProcessExecutor)
            else DASK_CHUNK_SIZE if isinstance(executor, DaskExecutor) else LOCAL_CHUNK_SIZE)


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
        Queries per task. Default: by work (:data:`CHUNK_WORK`): spots in chunks of about
        that many player-boards, other queries ``LOCAL_CHUNK_SIZE`` = 16 to a task for local
        processes, ``DASK_CHUNK_SIZE`` = 64 on Dask, 1 in this process.
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
    for chunk in run_batch_chunks(queries, seed=seed, workers=workers, scheduler=scheduler,
                                  scheduler_file=scheduler_file, client=client, executor=executor,
                                  chunk_size=chunk_size, ids=ids, device=device):
        yield from chunk


def run_batch_chunks(queries: Iterable[Query | Mapping[str, Any]], *, seed: int | None = None,
                     workers: int | None = None, scheduler: str | None = None, scheduler_file: str | None = None,
                     client=None, executor: Executor | None = None, chunk_size: int | None = None,
                     ids: QueryIds | None = None, device: str = "cpu") -> Iterator[list[BatchResult]]:
    """:func:`run_batch`, a chunk of results at a time (as they come back from the executor),
    so that a writer can write and flush them together."""
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
        # in this process the kernels load as the first queries need them (a warm-up would load unused ones)
        executor = make_executor(workers, scheduler, scheduler_file, client,
                                 warm_up=None if workers == 1 else warm_up)
    own_ids = ids is None
    if ids is None:
        ids = QueryIds()
    completed = False
    try:
        for chunk in executor.map(run_chunk, _chunks(_tasks(queries, seed, ids, device), chunk_size,
                                                     lambda: queries_per_chunk(executor))):
            yield chunk
        completed = True
    finally:
        if own_executor:
            executor.close(cancel=not completed)
        if own_ids:
            ids.close()
