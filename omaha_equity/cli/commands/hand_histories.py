"""The hand-history commands: ``play`` (replay a PHH file through the rules engine), ``convert``
(hand histories to one PHH file) and ``ev`` (a session's all-in EV and luck).
"""

from __future__ import annotations

import sys

import click

from ...errors import InputError
from ...runtime.executor import MAX_WORKERS
from ...runtime.output_files import check_not_an_input
from ..errors import EXIT_FAULT, EXIT_OK, EXIT_USAGE, usage_errors
from ..options import output_options


# the sites whose text files we read (hand_history.sites.SITES, not imported here: loading the
# command line loads no reader)
SITES = ("pokerstars", "runitonce", "pokermaster", "ggpoker", "winamax", "bovada")
SITE_OPTION = click.option("--site", type=click.Choice(SITES),
                           help="Read every text file as this site's (default: told from each file's first line).")


def _check_outputs(files, outputs: dict[str, str]) -> None:
    """Refuse, before any work, an output that is one of the input files (a folder's files
    included): ``outputs`` maps each option (``-o``) to its file; standard output too.

    Raises
    ------
    InputError
        An output is an input file.
    """
    from ...hand_history.sessions import hand_history_files

    try:
        inputs = hand_history_files(files)
    except InputError:  # a missing file: the command itself says so
        inputs = [file for file in files]
    for option, output in outputs.items():
        check_not_an_input(output, inputs, option=option)
    check_not_an_input("-", inputs, option="standard output")


@click.command(name="ev")
@click.argument("files", nargs=-1, required=True, type=click.Path(), metavar="FILE...")
@click.option("--all-hands", is_flag=True, help="List every hand, not only the hands all in before the river.")
@click.option("--workers", type=click.IntRange(1, MAX_WORKERS),
              help="Worker processes, as for batch (default: chosen from the work measured, one per core only when "
                   "they pay; the result is the same for any number).")
# the option's name before batch's --workers was taken as the one name for both
@click.option("-j", "--jobs", type=click.IntRange(1, MAX_WORKERS), hidden=True, help="Old name of --workers.")
@click.option("--summary", "summary_file", type=click.Path(dir_okay=False),
              help="Write the per-player summary to this file (in the -f format) instead of standard output.")
@SITE_OPTION
@output_options
@usage_errors
def ev_command(files, all_hands, workers, jobs, summary_file, format_name, table_style, site):
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
    from ...views.ev import SessionWriter, check_summary_path
    from ...ev.session import iter_session

    if summary_file is not None:
        check_summary_path(summary_file)
    _check_outputs(files, {} if summary_file is None else {"--summary": summary_file})
    if workers is not None and jobs is not None and workers != jobs:
        raise click.UsageError(f"--jobs is the old name of --workers: give one ({jobs} or {workers} processes)")
    results = iter_session(files, workers=workers or jobs, site=site)
    writer = SessionWriter(sys.stdout, sys.stderr, format_name, all_hands=all_hands, style=table_style)
    for result in results:
        writer.add(result)
    writer.totals.where = results.choice
    writer.finish(summary_file)
    return EXIT_FAULT if writer.totals.failed_count else EXIT_OK


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(), metavar="FILE...")
@click.option("-o", "--output", "out", required=True, type=click.Path(),
              help="The PHH file to write: .phh (one hand) or .phhs (many).")
@SITE_OPTION
@usage_errors
def convert(files, out, site):
    """Convert hand histories (PokerStars text, PHH) to one PHH file.

    Each hand is replayed by the rules engine and checked against its file before it is
    written, with its record (finishing stacks, winnings, rake): every hand written replays
    through `play` to the file's stacks. A hand that cannot be converted is one line on stderr
    and the others go on (exit code 1); hands of other games and cancelled hands are skipped,
    a hand found twice is written once. OUT is written to a temporary file renamed at the end:
    never left half-written, and not created when no hand converts.

    Example: omaha-equity convert hands/ -o session.phhs
    """
    from ...hand_history.convert import convert as convert_hands

    def report(line):
        click.echo(line, err=True)

    _check_outputs(files, {"-o": out})
    counts = convert_hands(files, out, report=report, site=site)
    click.echo(counts.line(out), err=True)
    return EXIT_FAULT if counts.failed else EXIT_OK


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@output_options(formats=("table", "json"), table_style_help="tabulate style of the settlement table.")
@usage_errors
def play(file, format_name, table_style):
    """Replay the PHH hand history FILE (.phh, or .phhs with many hands) through the rules engine.

    Prints each hand's history and settlement (per player: stack before, put in, won from each
    pot, stack after). An illegal action stops its hand with the reason and the action's index
    in `actions` (0-based); a .phhs file goes on with the other hands, and the exit code is 2.

    Example: omaha-equity play examples/hands/plo8-short-all-in.phh
    """
    from ...hand_history import load_each, replay
    from ...views.play import play_report

    check_not_an_input("-", [file], option="standard output")
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
    return EXIT_USAGE if errors else EXIT_OK
