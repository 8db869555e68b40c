"""The ``omaha-equity`` command line: click code only; the poker lives in the library.

Argument syntax is checked by click parameter types; the library's ``InputError`` (bad cards,
duplicates, counts, games) becomes a one-line usage error with exit code 2.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import math
import sys
import time

import click

from .. import __version__
from ..cards import NO_CARDS, parse_cards
from ..errors import (ClosedPipeError, InputError, InterruptReported, OutputError, bounded_message, caused_by_interrupt,
                     quoted)
from ..runtime.executor import DEFAULT_WORKER_TIMEOUT, MAX_WORKER_TIMEOUT, MAX_WORKERS
from .fast_exit import exit_program
from ..runtime.output_faults import STREAM_NAMES, discard_pending_output, guarded_standard_streams
from ..games import GAME_NAMES, get_game, normalize_game_name
from ..views.render import FORMATS
from ..validate import MAX_SEED, MAX_THREADS, MAX_TRIALS


class CardsType(click.ParamType):
    """Card text such as ``AsKsQhJh``, ``"As Ks Qh Jh"`` or ``As,Ks,Qh,Jh``; with
    ``none_marker``, also ``-`` (no cards, how CSV output writes an empty board or dead list)."""

    name = "cards"

    def __init__(self, none_marker: bool = False):
        self.none_marker = none_marker

    def convert(self, value, param, ctx):
        if self.none_marker and value.strip() == NO_CARDS:
            return ""
        try:
            parse_cards(value)
        except InputError as error:
            self.fail(str(error), param, ctx)
        return value


class GameType(click.ParamType):
    """A game name or alias, case-insensitive."""

    name = "game"

    def convert(self, value, param, ctx):
        key = normalize_game_name(value)
        if key not in GAME_NAMES:
            try:
                get_game(value)
            except InputError as error:
                self.fail(str(error), param, ctx)
        return key


class FiniteFloatRange(click.FloatRange):
    """click's FloatRange without nan and infinities (nan passes every bound check)."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{quoted(value)} is not a finite number.", param, ctx)
        return number


# Python's int() reads at most this many digits (sys.get_int_max_str_digits, 4,300 by default).
_MAX_DIGITS = 4_000


def _is_whole_number_text(text: str) -> bool:
    """ASCII digits only (``str.isdigit`` also accepts '²' and '٣', which ``int`` refuses or
    reads), and no more of them than ``int`` reads."""
    return text.isascii() and text.isdigit() and len(text) <= _MAX_DIGITS


# The bounds of the numbers every equity command takes (omaha_equity.validate checks the same
# in the API): out-of-range values are usage errors before any work starts.
TRIALS = click.IntRange(1, MAX_TRIALS)
SEED = click.IntRange(0, MAX_SEED)
THREADS = click.IntRange(1, MAX_THREADS)
PRECISION = FiniteFloatRange(min=0, min_open=True)


def _usage_errors(command):
    """Turn the library's InputError into a usage error (exit code 2, no traceback)."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except InputError as error:
            raise click.UsageError(str(error)) from None

    return wrapper


DEFAULT_TABLE_STYLE = "simple"


class TableStyleType(click.Choice):
    """tabulate's table formats, looked up in tabulate only when a style other than the default
    is given, or the choices are shown (help, completion): importing tabulate costs about 0.02 s,
    wasted on CSV and JSON output."""

    def __init__(self):
        super().__init__((DEFAULT_TABLE_STYLE,))

    @property
    def choices(self):
        from tabulate import tabulate_formats

        return tuple(tabulate_formats)

    @choices.setter
    def choices(self, value):  # click.Choice.__init__ assigns them: they come from tabulate instead
        pass

    def convert(self, value, param, ctx):
        if value == DEFAULT_TABLE_STYLE:
            return value
        return super().convert(value, param, ctx)


def _output_options(command):
    command = click.option("--table-style", default=DEFAULT_TABLE_STYLE, show_default=True,
                           type=TableStyleType(), help="tabulate style of the table.")(command)
    command = click.option("-f", "--format", "format_name", default="table", show_default=True,
                           type=click.Choice(FORMATS), help="Output format.")(command)
    return command


def _game_options(original):
    @functools.wraps(original)
    def command(*args, **kwargs):
        # the library asks for "a die"; here it is an option
        if kwargs.get("game") == "binglao" and kwargs.get("die") is None:
            raise click.UsageError("binglao needs the die roll: expected --die 1..6")
        return original(*args, **kwargs)

    command = click.option("--die", type=click.IntRange(1, 6),
                           help="Binglao only: the die roll 1..6 picking the game.")(command)
    command = click.option("-g", "--game", default="omaha", show_default=True, type=GameType(),
                           help=f"Game: {', '.join(GAME_NAMES)} (aliases: plo, o8, plo8, big-o, ...).")(command)
    return command


# Progress of a long run (``calc``, ``allin``) appears once it has run this long, then, when
# stderr is not a terminal (a log, a pipe), as a plain line this often.
PROGRESS_AFTER_SECONDS = 1.0
PROGRESS_LINE_SECONDS = 5.0


class _ProgressBar:
    """Progress of a long run on stderr, drawn from the library's ``progress(done, total)``
    callback: nothing for the first ``PROGRESS_AFTER_SECONDS`` (or when the run finishes in its
    first call); then a click progress bar when stderr is a terminal, else a plain line every
    ``PROGRESS_LINE_SECONDS`` such as ``progress: 41% of 2,250,000,000 deals, 0:12 left``
    (the time left at the rate measured since the first call, which excludes loading the
    kernels)."""

    def __init__(self, enabled: bool, terminal: bool, clock=time.monotonic):
        self.enabled = enabled
        self.terminal = terminal
        self.clock = clock
        self.started = clock()
        self.first: tuple[float, int] | None = None
        self.next_line_at = self.started + PROGRESS_AFTER_SECONDS
        self.bar = None

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or done >= total:
            return
        now = self.clock()
        if self.first is None:
            self.first = (now, done)
        if now - self.started < PROGRESS_AFTER_SECONDS:
            return
        if self.terminal:
            if self.bar is None:
                self.bar = click.progressbar(length=total, label="deals", file=sys.stderr)
                self.bar.__enter__()
            self.bar.update(done - self.bar.pos)
        elif now >= self.next_line_at:
            self.next_line_at = now + PROGRESS_LINE_SECONDS
            _say(f"progress: {100 * done // total}% of {total:,} deals{self._time_left(now, done, total)}")

    def _time_left(self, now: float, done: int, total: int) -> str:
        first_at, first_done = self.first
        if done <= first_done or now - first_at <= 0:
            return ""
        seconds = int((total - done) * (now - first_at) / (done - first_done) + 0.5)
        minutes, second = divmod(seconds, 60)
        hours, minute = divmod(minutes, 60)
        return f", {hours}:{minute:02d}:{second:02d} left" if hours else f", {minute}:{second:02d} left"

    def close(self) -> None:
        if self.bar is not None:
            self.bar.update(self.bar.length - self.bar.pos)
            self.bar.__exit__(None, None, None)


# Exit codes of the program (docs/errors.md): a fault of the machine or of a file (a full disk,
# an unreadable file) or failed rows; a usage error; an interrupt; a reader that went away.
EXIT_FAULT = 1
EXIT_INTERRUPTED = 130
EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a program a closed pipe stopped


def _say(line: str) -> None:
    """Print ``line`` on stderr, if stderr can still be written."""
    try:
        click.echo(line, err=True)
    except (OutputError, ClosedPipeError, OSError):
        discard_pending_output("stderr")


def _say_interrupted() -> None:
    """The one line of Ctrl-C. On a terminal it starts on a new line: the terminal's own ``^C``
    echo is still on the current one."""
    terminal = sys.stderr is not None and sys.stderr.isatty()
    _say(("\n" if terminal else "") + "Aborted!")


class _Interrupted(Exception):
    """A KeyboardInterrupt (``interrupt``) from a command, carried past click's own handling."""

    def __init__(self, interrupt: KeyboardInterrupt):
        super().__init__("interrupted")
        self.interrupt = interrupt


class _OneLineErrors(click.Group):
    """Reports every usage error as one ``Error: ...`` line (exit code 2) echoing at most a
    bounded piece of what was typed; Ctrl-C as one line, exit code 130, even inside a compiled
    kernel: ``Aborted!``, or the command's own line (``InterruptReported``: the batch's summary
    says where the finished rows are); an output that cannot be written (``output_faults``) as one line, exit
    code 1; a closed pipe quietly (exit code 141); any other ``OSError`` (a file that cannot be
    read) as one line, exit code 1."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        typed = sys.argv[1:] if args is None else list(args)
        with guarded_standard_streams():
            code = self._run(typed, prog_name, complete_var, **extra)
        sys.exit(code)

    def invoke(self, ctx):
        # click answers a KeyboardInterrupt from a command with a line of its own (a blank one,
        # then its Abort): carried past click as _Interrupted, Ctrl-C gives one line in all
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as interrupt:
            raise _Interrupted(interrupt) from interrupt

    def _run(self, args, prog_name, complete_var, **extra) -> int:
        """The command's exit code; every failure reported on stderr in one line."""
        try:
            result = super().main(args, prog_name, complete_var, False, **extra)
            if sys.stdout is not None:  # None when closed (>&-): click.echo then writes nothing
                sys.stdout.flush()  # what is still buffered fails here, while it can be reported
            return result if isinstance(result, int) else 0
        except click.ClickException as error:
            _say(f"Error: {bounded_message(error.format_message(), args)}")
            return error.exit_code
        except _Interrupted as stop:
            if not isinstance(stop.interrupt, InterruptReported):  # else the command's own line said it
                _say_interrupted()
            return EXIT_INTERRUPTED
        except (KeyboardInterrupt, click.Abort):
            _say_interrupted()
            return EXIT_INTERRUPTED
        except SystemError as error:
            # an interrupt landing in numba's calls back into Python comes out as a chain of
            # SystemError (kernels run under threads.deferred_interrupt avoid it)
            if not caused_by_interrupt(error):
                raise
            _say_interrupted()
            return EXIT_INTERRUPTED
        except OutputError as error:
            if error.target in STREAM_NAMES.values():
                discard_pending_output(error.target)
            _say(f"Error: {error}")
            return EXIT_FAULT
        except ClosedPipeError as error:
            discard_pending_output(str(error))
            return EXIT_CLOSED_PIPE
        except OSError as error:
            if error.errno == errno.EPIPE:  # a pipe other than ours, as a plain OSError
                discard_pending_output("stdout")
                return EXIT_CLOSED_PIPE
            where = f": {error.filename}" if error.filename is not None else ""
            _say(f"Error: {bounded_message(f'{error.strerror or error}{where}', args)}")
            return EXIT_FAULT


@click.group(cls=_OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="omaha-equity")
def main():
    """Omaha equity: exact enumeration or Monte Carlo, for every Omaha variant.

    Example: omaha-equity calc AsAhKsKh JdTd9c8c
    """


@main.command()
@click.argument("hands", nargs=-1, required=True, metavar="HAND...")
@click.option("-b", "--board", default="", type=CardsType(none_marker=True), help="Known board cards (0 to 5).")
@click.option("-d", "--dead", default="", type=CardsType(none_marker=True), help="Dead cards (out of play).")
@_game_options
@click.option("--exact", is_flag=True, help="Force exact enumeration of every board.")
@click.option("--mc", is_flag=True, help="Force Monte Carlo sampling.")
@click.option("--trials", type=TRIALS,
              help="Monte Carlo boards to sample (default 1,000,000; the cap with --precision).")
@click.option("--precision", type=PRECISION,
              help="Monte Carlo: stop when every equity's standard error is below this many percentage points.")
@click.option("--seed", type=SEED, help="Monte Carlo seed (same seed, same numbers).")
@click.option("--threads", type=THREADS,
              help="Worker threads (default: one per core; more than the cores run as many as the cores; any count "
              "gives the same numbers).")
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
@click.option("--streets", is_flag=True, help="Equity on each street as the board comes (board of 3 to 5 cards).")
@click.option("--next-card", "next_card", is_flag=True,
              help="Equity after each possible next card, on a flop or a turn, by player 1's change.")
@click.option("--above", type=FiniteFloatRange(0, 1),
              help="With --next-card: count the cards after which player 1's equity is above this (default 0.5).")
@_output_options
@_usage_errors
def calc(hands, board, dead, game, die, exact, mc, trials, precision, seed, threads, quiet, streets, next_card, above,
         format_name, table_style):
    """Equity of each HAND against the others.

    A HAND is a hand (AsKsQhJh), a partial hand (AsAh: the other cards dealt at random), a
    random hand (*) or a range in the generic syntax (AA:$ds, KK-TT, 15%, ...).

    Exact enumeration when the work is affordable, Monte Carlo otherwise (or when asked with
    --mc, --trials or --precision).

    --streets shows the equity on each street up to the board; --next-card the equity after
    each possible turn (on a flop) or river (on a turn).

    Example: omaha-equity calc AsAhKsKh JdTd9c8c -b Qd7h2s
    """
    if exact and mc:
        raise click.UsageError("--exact and --mc cannot be used together")
    if exact and seed is not None:
        raise click.UsageError("--seed applies to Monte Carlo, not to --exact")
    # the query's options, as calculate_equity and the studies take them
    query = dict(dead=dead, game=game, die=die, method="exact" if exact else "monte-carlo" if mc else "auto",
                 trials=trials, precision=precision, seed=seed, threads=threads)
    if streets or next_card or above is not None:
        _calc_study(list(hands), board, query, streets=streets, next_card=next_card, above=above,
                    format_name=format_name, table_style=table_style)
        return
    from ..equity.calculate import calculate_equity
    from ..views.equity import equity_report

    progress = _ProgressBar(enabled=not quiet, terminal=sys.stderr.isatty())
    try:
        result = calculate_equity(list(hands), board, progress=progress, **query)
    finally:
        progress.close()
    click.echo(equity_report(result, format_name, table_style))
    errors = [player.standard_error for player in result.players]
    if precision is not None and (None in errors or max(errors) * 100 >= precision):
        largest = ("undefined: a standard error needs at least 2 boards" if None in errors
                   else f"{max(errors) * 100:.3f} points")
        click.echo(f"note: precision {precision:g} not reached after {result.sample_count:,} boards (largest "
                   f"standard error {largest}): raise --trials", err=True)


@main.command()
@click.argument("hands", nargs=-1, required=True, type=CardsType())
@click.option("-b", "--board", required=True, type=CardsType(none_marker=True), help="The complete board (5 cards).")
@_game_options
@_output_options
@_usage_errors
def show(hands, board, game, die, format_name, table_style):
    """Read a showdown: each HAND's best high and low, the winners and the shares of the pot.

    Example: omaha-equity show 6h6c4h2c AsKdQh9c -b 8c6s4s3hAc -g omaha8
    """
    from ..evaluate.showdown import read_showdown
    from ..views.equity import showdown_report

    click.echo(showdown_report(read_showdown(list(hands), board, game, die=die), format_name, table_style))


@main.command(name="range")
@click.argument("expression")
@click.option("-b", "--board", default="", type=CardsType(none_marker=True),
              help="Board cards to remove from the range.")
@click.option("-d", "--dead", default="", type=CardsType(none_marker=True), help="Dead cards to remove from the range.")
@_game_options
@click.option("--sample", "sample_size", default=20, show_default=True, type=click.IntRange(1, 10_000),  # views.MAX_TABLE_SAMPLE
              help="Hands shown in the table (at most 10,000; -f csv or -f json lists every hand).")
@_output_options
@_usage_errors
def range_command(expression, board, dead, game, die, sample_size, format_name, table_style):
    """Count the hands of a range EXPRESSION and show a sample of them.

    The generic range syntax: AA (at least two aces), AxAyxy (double-suited aces), RRON,
    [A-T], KK-TT, TT+, AA:$ds, JJ!JJJ, AA@10,KK@5, 15%, 5%-10%, 15%6h, ... (see the README).

    Example: omaha-equity range 'AA:$ds' -g omaha
    """
    from ..cards import check_no_duplicates, format_cards
    from ..deal import parse_board_and_dead
    from ..ranges import parse_range
    from ..views.equity import range_pieces, range_report

    resolved = get_game(game, die)
    board_cards, dead_cards = parse_board_and_dead(board, dead)
    check_no_duplicates([("board", board_cards), ("dead cards", dead_cards)])
    removed = [f"board {format_cards(board_cards)}" if board_cards else "",
               f"dead cards {format_cards(dead_cards)}" if dead_cards else ""]
    excluded_text = " and ".join(part for part in removed if part)
    hand_range = parse_range(expression, resolved, excluded=board_cards + dead_cards, excluded_reason=excluded_text,
                             board=board_cards)
    if format_name == "table":
        click.echo(range_report(hand_range, resolved, excluded_text, format_name, sample_size, table_style))
        return
    for piece in range_pieces(hand_range, resolved, excluded_text, format_name):  # streamed: ranges can be huge
        click.echo(piece, nl=False)


@main.command()
@click.argument("hand", type=CardsType())
@_game_options
@click.option("--six-handed", is_flag=True, help="Use the 6-handed ranking instead of the full-ring one.")
@_output_options
@_usage_errors
def rank(hand, game, die, six_handed, format_name, table_style):
    """Where HAND stands in our starting-hand ranking (the one percent ranges use).

    Example: omaha-equity rank AsAhKsKh -g omaha
    """
    from ..rankings import hand_ranking
    from ..views.equity import rank_report

    resolved = get_game(game, die)
    click.echo(rank_report(hand_ranking(resolved, hand, six_handed), resolved, format_name, table_style))


class ChipsListType(click.ParamType):
    """Chip amounts separated by commas, such as ``500,200,1000`` (whole numbers, at least
    ``minimum``); an empty value is an empty tuple when ``allow_empty``."""

    name = "chips"

    def __init__(self, what: str, minimum: int, allow_empty: bool = False):
        self.what = what
        self.minimum = minimum
        self.allow_empty = allow_empty

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        if not str(value).strip():
            if self.allow_empty:
                return ()
            self.fail(f"expected {self.what}s in chips separated by commas, got nothing", param, ctx)
        amounts = []
        for token in str(value).split(","):
            token = token.strip().replace("_", "")
            if not _is_whole_number_text(token.removeprefix("-")) or int(token) < self.minimum:
                self.fail(f"bad {self.what} {quoted(token)} in {quoted(value)}: expected whole numbers of chips, at least "
                          f"{self.minimum}, separated by commas", param, ctx)
            amounts.append(int(token))
        return tuple(amounts)


class FixedLimitType(click.ParamType):
    """Fixed-limit sizes ``SMALL/BIG``, e.g. ``2/4``."""

    name = "small/big"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        from ..rules.chips import MAX_CHIPS

        small, _, big = value.partition("/")
        digit_count = len(str(MAX_CHIPS))
        if not (_is_whole_number_text(small) and _is_whole_number_text(big) and len(small) <= digit_count
                and len(big) <= digit_count and 0 < int(small) <= int(big) <= MAX_CHIPS):
            self.fail(f"bad fixed-limit sizes {quoted(value)}: expected SMALL/BIG such as 2/4 (the big bet at "
                      f"least the small bet, at most {MAX_CHIPS:,})", param, ctx)
        return int(small), int(big)


class RoundType(click.ParamType):
    """A betting round: 1..4 or pre-flop, flop, turn, river."""

    name = "round"

    def convert(self, value, param, ctx):
        from ..rules.streets import Street

        if isinstance(value, Street):
            return value
        text = str(value).strip()
        try:
            return Street.of(int(text) - 1 if _is_whole_number_text(text) else text)
        except InputError:
            self.fail(f"bad round {quoted(value)}: expected 1..4 or pre-flop, flop, turn, river", param, ctx)


class TableChipsType(click.ParamType):
    """Chips on the table for ``pot-limit``: one whole amount, or several separated by commas
    (``list_of``), each ``minimum`` to the engine's ``MAX_CHIPS`` (``rules.chips.parse_chips``)."""

    name = "chips"

    def __init__(self, what: str, minimum: int = 0, list_of: bool = False):
        self.what = what
        self.minimum = minimum
        self.list_of = list_of

    def convert(self, value, param, ctx):
        from ..rules.chips import parse_chips

        if isinstance(value, int | tuple):
            return value
        text = str(value)
        try:
            if not self.list_of:
                return parse_chips(text, self.what, self.minimum)
            tokens = text.split(",") if text.strip() else []
            return tuple(parse_chips(token.strip(), self.what, self.minimum, within=text) for token in tokens)
        except InputError as error:
            self.fail(str(error), param, ctx)


@main.command(name="pot-limit")
@click.option("--pot", default=0, show_default=True, type=TableChipsType("pot"),
              help="Chips in the middle from earlier rounds (antes and dead blinds included), not the bets below.")
@click.option("--bets", default="", type=TableChipsType("bet", list_of=True), help="The other players' bets this round, "
              "e.g. 14,17 (pre-flop: the blinds).")
@click.option("--own", "own_bet", default=0, show_default=True, type=TableChipsType("own bet"),
              help="The acting player's own bet this round (e.g. the small blind).")
@click.option("--stack", type=TableChipsType("stack"), help="The acting player's chips behind (default: unlimited).")
@click.option("--blind", type=TableChipsType("big blind", 1), help="The big blind: the minimum bet (pot and no limit).")
@click.option("--no-limit", is_flag=True, help="No limit instead of pot limit.")
@click.option("--fixed-limit", type=FixedLimitType(), help="Fixed limit with these small and big bets, e.g. 2/4.")
@click.option("--round", "street", default="1", show_default=True, type=RoundType(),
              help="Fixed limit: the betting round, 1 (pre-flop) .. 4 (river).")
@_output_options
@_usage_errors
def raise_limits_command(pot, bets, own_bet, stack, blind, no_limit, fixed_limit, street, format_name, table_style):
    """The legal minimum and maximum raise-to of the player to act.

    Pot limit by default: the maximum raise-to is the pot after calling, added on top of the
    call. The bets are read as a sequence of full bets and raises (the minimum raise is the
    largest step between them, at least --blind).

    Example: omaha-equity pot-limit --pot 100 --bets 100
    """
    from ..rules.structures import FixedLimit, NoLimit, PotLimit
    from ..rules.views import sizing_report, sizing_row

    if no_limit and fixed_limit:
        raise click.UsageError("--no-limit and --fixed-limit cannot be used together")
    if not fixed_limit and blind is None and not bets and not own_bet:
        raise click.UsageError("nothing on the table: give --blind (the big blind, the minimum bet)")
    if fixed_limit:
        structure = FixedLimit(*fixed_limit)
    elif no_limit:
        structure = NoLimit(blind or 1)
    else:
        structure = PotLimit(blind or 1)
    row = sizing_row(structure, pot=pot, bets=bets, player_bet=own_bet, stack=stack, street=street,
                     blind_given=blind is not None)
    click.echo(sizing_report(row, format_name, table_style))


@main.command(name="ev")
@click.argument("files", nargs=-1, required=True, type=click.Path(), metavar="FILE...")
@click.option("--all-hands", is_flag=True, help="List every hand, not only the hands all in before the river.")
@click.option("--workers", type=click.IntRange(1, MAX_WORKERS),
              help="Worker processes, as for batch (default: 1, none; the result is the same for any number).")
# the option's name before batch's --workers was taken as the one name for both (issue 19)
@click.option("-j", "--jobs", type=click.IntRange(1, MAX_WORKERS), hidden=True, help="Old name of --workers.")
@click.option("--summary", "summary_file", type=click.Path(dir_okay=False),
              help="Write the per-player summary to this file (in the -f format) instead of standard output.")
@_output_options
@_usage_errors
def ev_command(files, all_hands, workers, jobs, summary_file, format_name, table_style):
    """All-in EV and luck of a session: replay every hand of the hand-history FILEs.

    PokerStars text files (.txt) and PHH files (.phh, .phhs); a folder reads every such file.
    Each hand is replayed by the rules engine and must give each player back what the file
    says; where players were all in before the river with their cards shown, each one's all-in
    EV is computed exactly over the remaining boards, with the hand's side pots and rake, and
    luck = won - EV. Results stream as the hands are replayed; a summary per player (per
    currency or tournament) follows, or goes to --summary FILE (with -f csv, the CSV is the
    hand rows only). A hand found twice counts once (named on stderr). Bad hands are reported
    on stderr (file, line, hand, reason) and the others go on; the exit code is 1 when any hand
    failed.

    Example: omaha-equity ev hands/ -f csv --summary players.csv > hands.csv
    """
    from ..ev.output import SessionWriter, check_summary_path
    from ..ev.session import iter_session

    if summary_file is not None:
        check_summary_path(summary_file)
    if workers is not None and jobs is not None and workers != jobs:
        raise click.UsageError(f"--jobs is the old name of --workers: give one ({jobs} or {workers} processes)")
    results = iter_session(files, workers=workers or jobs or 1)
    writer = SessionWriter(sys.stdout, sys.stderr, format_name, all_hands=all_hands, style=table_style)
    for result in results:
        writer.add(result)
    writer.finish(summary_file)
    return 1 if writer.totals.failed_count else 0


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(), metavar="FILE...")
@click.option("-o", "--output", "out", required=True, type=click.Path(),
              help="The PHH file to write: .phh (one hand) or .phhs (many).")
@_usage_errors
def convert(files, out):
    """Convert hand histories (PokerStars text, PHH) to one PHH file.

    Each hand is replayed by the rules engine and checked against its file before it is
    written, with its record (finishing stacks, winnings, rake): every hand written replays
    through `play` to the file's stacks. A hand that cannot be converted is one line on stderr
    and the others go on (exit code 1); hands of other games and cancelled hands are skipped,
    a hand found twice is written once. OUT is written to a temporary file renamed at the end:
    never left half-written, and not created when no hand converts.

    Example: omaha-equity convert hands/ -o session.phhs
    """
    from ..hand_history.convert import convert as convert_hands

    def report(line):
        click.echo(line, err=True)

    counts = convert_hands(files, out, report=report)
    click.echo(counts.line(out), err=True)
    return 1 if counts.failed else 0


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-f", "--format", "format_name", default="table", show_default=True,
              type=click.Choice(["table", "json"]), help="Output format.")
@click.option("--table-style", default=DEFAULT_TABLE_STYLE, show_default=True, type=TableStyleType(),
              help="tabulate style of the settlement table.")
@_usage_errors
def play(file, format_name, table_style):
    """Replay the PHH hand history FILE (.phh, or .phhs with many hands) through the rules engine.

    Prints each hand's history and settlement (per player: stack before, put in, won from each
    pot, stack after). An illegal action stops its hand with the reason and the action's index
    in `actions` (0-based); a .phhs file goes on with the other hands, and the exit code is 2.

    Example: omaha-equity play examples/hands/plo8-short-all-in.phh
    """
    from ..hand_history import load_each, replay
    from ..hand_history.report import play_report

    results = []
    for label, hand_history in load_each(file):
        if isinstance(hand_history, Exception):
            results.append((label, hand_history))
            continue
        try:
            results.append((label, replay(hand_history)))
        except InputError as error:
            where = file if label is None else f"{file}, hand [{label}]"
            results.append((label, InputError(f"{where}: {error}")))
    errors = [result for _, result in results if isinstance(result, Exception)]
    if len(results) == 1 and errors:
        raise click.UsageError(str(errors[0]))
    click.echo(play_report(results, format_name, table_style))
    for error in errors:
        click.echo(f"Error: {error}", err=True)
    return 2 if errors else 0


@main.command()
@click.argument("hands", nargs=-1, required=True, metavar="HAND...")
@click.option("--stacks", type=ChipsListType("stack", 1),
              help="Each player's stack, all in (S1,S2,...; the biggest is capped at the next biggest).")
@click.option("--committed", type=ChipsListType("committed amount", 1),
              help="Chips each player has already put in, all in (C1,C2,...), instead of --stacks.")
@click.option("--folded", type=ChipsListType("folded amount", 0),
              help="Chips put in by players who folded (dead money in the pots they reach).")
@click.option("--pot", "dead_money", default=0, type=click.IntRange(min=0),
              help="Extra dead money in the main pot (chips).")
@click.option("-b", "--board", default="", type=CardsType(none_marker=True), help="Known board cards (0 to 5).")
@click.option("-d", "--dead", default="", type=CardsType(none_marker=True), help="Dead cards (out of play).")
@_game_options
@click.option("--exact", is_flag=True, help="Force exact enumeration of every board.")
@click.option("--mc", is_flag=True, help="Force Monte Carlo sampling.")
@click.option("--trials", type=TRIALS,
              help="Monte Carlo deals to sample (default 1,000,000; the cap with --precision).")
@click.option("--precision", type=PRECISION,
              help="Monte Carlo: stop when every player's standard error is below this percent of the chips.")
@click.option("--seed", type=SEED, help="Monte Carlo seed (same seed, same numbers).")
@click.option("--threads", type=THREADS,
              help="Worker threads (default: one per core; more than the cores run as many as the cores; any count "
              "gives the same numbers).")
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
@_output_options
@_usage_errors
def allin(hands, stacks, committed, folded, dead_money, board, dead, game, die, exact, mc, trials, precision, seed,
          threads, quiet, format_name, table_style):
    """Every HAND all in: expected chips back from the main pot and each side pot, and net EV.

    List the players in seat order starting left of the button (it decides odd chips). Give
    --stacks (everyone all in) or --committed (chips already in). A HAND is a hand, a partial
    hand, * or a range, as in calc. Each pot is split high/low among its own eligible players.

    Example: omaha-equity allin AsAhKsKh JdTd9c8c 2c3d4h5s --stacks 300,200,100 -b Qd7h2s -g omaha8
    """
    from ..equity.expected_chips import calculate_allin, committed_from_stacks
    from ..views.allin import allin_report

    if (stacks is None) == (committed is None):
        raise click.UsageError("give either --stacks or --committed (one amount per player)")
    if exact and mc:
        raise click.UsageError("--exact and --mc cannot be used together")
    if exact and seed is not None:
        raise click.UsageError("--seed applies to Monte Carlo, not to --exact")
    amounts, option = (stacks, "--stacks") if stacks is not None else (committed, "--committed")
    if len(amounts) != len(hands):
        hand_count = f"{len(hands)} hand{'' if len(hands) == 1 else 's'}"
        raise click.UsageError(f"expected one amount per hand in {option} ({hand_count}), got {len(amounts)}: "
                               f"{quoted(','.join(str(amount) for amount in amounts))}")
    if stacks is not None:
        amounts = committed_from_stacks(stacks, folded or ())
    progress = _ProgressBar(enabled=not quiet, terminal=sys.stderr.isatty())
    try:
        result = calculate_allin(
            list(hands), amounts, board, dead, game, die=die, folded=folded or (), pot=dead_money,
            method="exact" if exact else "monte-carlo" if mc else "auto",
            trials=trials, precision=precision, seed=seed, threads=threads, progress=progress,
        )
    finally:
        progress.close()
    click.echo(allin_report(result, format_name, table_style))
    errors = [player.standard_error for player in result.players]
    chips = sum(pot.amount for pot in result.pots)
    if precision is not None and (None in errors or max(errors) * 100 >= precision * chips):
        click.echo(f"note: precision {precision:g} not reached after {result.sample_count:,} deals: raise --trials",
                   err=True)


@main.command()
@click.argument("input_file", default="-", metavar="[FILE|-]")
@click.option("-o", "--output", default="-", metavar="FILE", help="Where the rows go (default: standard output).")
@click.option("--input-format", type=click.Choice(("csv", "jsonl")),
              help="Input format (default: by the extension, .csv or .jsonl; CSV for standard input).")
@click.option("-f", "--format", "output_format", type=click.Choice(("csv", "jsonl")),
              help="Output format (default: by the -o extension, else CSV).")
@click.option("--seed", type=SEED,
              help="Batch seed: a query without a seed gets one derived from it and its id (default: random, reported).")
@click.option("--workers", type=click.IntRange(1, MAX_WORKERS),
              help=f"Local worker processes (default: one per core; at most one per core without --oversubscribe, "
                   f"{MAX_WORKERS} with it; 1: run in this process).")
@click.option("--oversubscribe", is_flag=True, help="Start every --workers process asked for, even beyond the cores.")
@click.option("--scheduler", metavar="ADDRESS", help="Run on a Dask cluster: its scheduler, e.g. tcp://HOST:8786.")
@click.option("--scheduler-file", type=click.Path(exists=True, dir_okay=False),
              help="Run on a Dask cluster named by a scheduler file.")
@click.option("--worker-timeout", type=FiniteFloatRange(0, MAX_WORKER_TIMEOUT, min_open=True),
              default=DEFAULT_WORKER_TIMEOUT, show_default=True, metavar="SECONDS",
              help="Dask: how long to wait for the scheduler and for a worker before stopping (at most "
                   f"{MAX_WORKER_TIMEOUT:,.0f}, a day).")
@click.option("--chunk-size", type=click.IntRange(min=1),
              help="Queries per task (default 16 on local workers, 64 on Dask).")
@click.option("--resume", is_flag=True, help="Go on with the -o file of a stopped run: skip the queries in it.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
@_usage_errors
@click.pass_context
def batch(ctx, input_file, output, input_format, output_format, seed, workers, oversubscribe, scheduler,
          scheduler_file, worker_timeout, chunk_size, resume, quiet):
    """Run many equity queries from a CSV or JSON Lines FILE (or - for standard input).

    Each row is a query: columns game, die, board, dead, hand1, hand2, ... (or one hands column,
    players separated by |), and optionally trials, precision, seed, method, id. Writes one row
    per player per query, in input order, with every statistic of calc; a bad row gives one row
    with an error column and the batch goes on. -o FILE is written as FILE.part and renamed
    when the run is complete. Exit codes: 0 all ran, 1 some failed or the output could not be
    written, 2 usage error (nothing written), 3 workers lost (finished rows kept), 130 Ctrl-C.

    Example: omaha-equity batch spots.csv -o equities.csv --seed 1
    """
    from ..batch.command import BatchOptions, run_batch_command

    options = BatchOptions(input_file=input_file, output=output, input_format=input_format,
                           output_format=output_format, seed=seed, workers=workers, scheduler=scheduler,
                           scheduler_file=scheduler_file, chunk_size=chunk_size, resume=resume, quiet=quiet,
                           worker_timeout=worker_timeout, oversubscribe=oversubscribe)
    ctx.exit(run_batch_command(options, report=lambda line: click.echo(line, err=True),
                               progress_bar=_batch_progress_bar if sys.stderr.isatty() else None))


@contextlib.contextmanager
def _batch_progress_bar(total: int):
    """The batch's bar of ``total`` queries on stderr; yields the per-query update (its text:
    the time left)."""
    with click.progressbar(length=total, label="queries", file=sys.stderr, show_eta=False,
                           item_show_func=lambda text: text) as bar:
        yield lambda text: bar.update(1, text)


def _calc_study(hands: list, board: str, query: dict, *, streets: bool, next_card: bool, above: float | None,
                format_name: str, table_style: str) -> None:
    """``calc --streets`` and ``calc --next-card`` (issue 8): the studies' API and views.
    ``query`` holds the keyword options the studies share with ``calculate_equity`` (dead,
    game, die, method, trials, precision, seed, threads)."""
    if streets and next_card:
        raise click.UsageError("--streets and --next-card cannot be used together")
    if above is not None and not next_card:
        raise click.UsageError("--above applies to --next-card")
    from ..studies import equity_by_street, next_card_equity
    from ..studies.next_card import DEFAULT_ABOVE
    from ..studies.views import next_card_report, streets_report

    if streets:
        click.echo(streets_report(equity_by_street(hands, board, **query), format_name, table_style))
    else:
        result = next_card_equity(hands, board, above=DEFAULT_ABOVE if above is None else above, **query)
        click.echo(next_card_report(result, format_name, table_style))


@main.command()
@click.argument("hand")
@click.argument("opponent", metavar="RANGE")
@click.option("-b", "--board", default="", type=CardsType(none_marker=True), help="Known board cards (0 to 5).")
@click.option("-d", "--dead", default="", type=CardsType(none_marker=True), help="Dead cards (out of play).")
@_game_options
@click.option("--by", "by", default="hand", show_default=True, type=click.Choice(["hand", "next-card", "category"]),
              help="Across the opponent's range hands, across the next card (on a flop or a turn), or across the "
              "opponent's made hands (category, on a flop, turn or river).")
@click.option("--bins", "bin_count", default=10, show_default=True, type=click.IntRange(1, 100),
              help="Equal histogram bins over 0-100%.")
@click.option("--exact", is_flag=True, help="Force exact enumeration.")
@click.option("--mc", is_flag=True, help="Force Monte Carlo.")
@click.option("--trials", type=TRIALS,
              help="Monte Carlo boards per range hand (default 5,000) or per next card (default 100,000).")
@click.option("--seed", type=SEED, help="Monte Carlo seed (same seed, same numbers).")
@click.option("--threads", type=THREADS,
              help="Worker threads (default: one per core; more than the cores run as many as the cores; any count "
              "gives the same numbers).")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False),
              help="Also draw the histogram to FILE.png or FILE.svg (needs omaha-equity[plot]).")
@_output_options
@_usage_errors
def distribution(hand, opponent, board, dead, game, die, by, bin_count, exact, mc, trials, seed, threads, plot_path,
                 format_name, table_style):
    """The distribution of HAND's equity across the hands of RANGE (each weighted by its range
    weight), across the next card (--by next-card) or across RANGE's made hands (--by category,
    docs/categories.md): a histogram, CSV or JSON, and a plot.

    Example: omaha-equity distribution AsAhKsKh '15%' -b Qd7h2s --plot spread.png
    """
    if exact and mc:
        raise click.UsageError("--exact and --mc cannot be used together")
    from ..studies import equity_distribution
    from ..studies.plot import check_plot_target, plot_distribution
    from ..studies.views import distribution_report

    if plot_path is not None:
        check_plot_target(plot_path)  # before the work: a bad name or no matplotlib fails at once
    result = equity_distribution(hand, opponent, board, dead, game, die=die, by=by, bin_count=bin_count,
                                 method="exact" if exact else "monte-carlo" if mc else "auto", trials=trials,
                                 seed=seed, threads=threads)
    click.echo(distribution_report(result, format_name, table_style))
    if plot_path is not None:
        click.echo(f"plot written to {plot_distribution(result, plot_path)}", err=True)


@main.command()
@click.argument("expression", metavar="RANGE")
@click.option("-b", "--board", required=True, type=CardsType(), help="The board: a flop, turn or river (3 to 5 cards).")
@click.option("-d", "--dead", default="", type=CardsType(none_marker=True), help="Dead cards (removed from the range).")
@_game_options
@click.option("--vs", "vs", metavar="HAND|RANGE", help="Equity of each part of RANGE against this hand or range.")
@click.option("--exact", is_flag=True, help="With --vs: force exact enumeration.")
@click.option("--mc", is_flag=True, help="With --vs: force Monte Carlo.")
@click.option("--trials", type=TRIALS, help="With --vs: Monte Carlo boards per hand (a hand) or deals per part (a range).")
@click.option("--seed", type=SEED, help="Monte Carlo seed (same seed, same numbers).")
@click.option("--no-draws", "no_draws", is_flag=True, help="Table without the draw rows under each made hand.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False),
              help="Also draw the shares as a stacked bar to FILE.png or FILE.svg (needs omaha-equity[plot]).")
@_output_options
@_usage_errors
def hits(expression, board, dead, game, die, vs, exact, mc, trials, seed, no_draws, plot_path, format_name,
         table_style):
    """What RANGE holds on the board: made hands (split by draws), nut status and lows, with
    the hand combinations and share of each part; with --vs, each part's equity.

    The categories and their rules are in docs/categories.md; each row's filter (CSV column
    'filter') selects the same hands in any range, e.g. '15%:{set}'.

    Example: omaha-equity hits '15%' -b Qh7d2c --vs AsKsQdJh
    """
    if exact and mc:
        raise click.UsageError("--exact and --mc cannot be used together")
    if vs is None and (exact or mc or trials is not None or seed is not None):
        raise click.UsageError("--exact, --mc, --trials and --seed apply to --vs")
    from ..studies.hits import range_composition
    from ..studies.hits_views import composition_report

    if plot_path is not None:
        from ..studies.plot import check_plot_target

        check_plot_target(plot_path)  # before the work: a bad name or no matplotlib fails at once
    composition = range_composition(expression, board, game, dead=dead, vs=vs, die=die,
                                    method="exact" if exact else "monte-carlo" if mc else "auto", trials=trials,
                                    seed=seed)
    click.echo(composition_report(composition, format_name, table_style, draws=not no_draws))
    if plot_path is not None:
        from ..studies.hits_plot import plot_composition

        click.echo(f"plot written to {plot_composition(composition, plot_path)}", err=True)


@main.command()
@click.pass_context
def shell(ctx):
    """An interactive session: type any command of the program as on the command line, without
    'omaha-equity' in front. Kernels and tables stay loaded, so a small query answers at once.

    In a terminal: line editing, history and completion (needs omaha-equity[shell]). Reading
    standard input (omaha-equity shell < commands.txt): each line runs as a command, no prompt;
    the exit code is that of the last command that failed. Type help, help COMMAND, exit or quit;
    Ctrl-C stops the running command, Ctrl-D leaves. See docs/shell.md.

    Example: omaha-equity shell
    """
    from .shell import run_shell

    ctx.exit(run_shell(main, lambda words: main._run(words, ctx.find_root().info_name, None)))


def run() -> None:
    """The ``omaha-equity`` program (console script and ``python -m omaha_equity``): :func:`main`,
    then a fast exit once the output is flushed (:mod:`omaha_equity.cli.fast_exit`). Tests and other
    code that call :func:`main` in their own process keep the ordinary ``SystemExit``."""
    try:
        main()
    except SystemExit as stop:
        exit_program(stop.code)


if __name__ == "__main__":
    run()
