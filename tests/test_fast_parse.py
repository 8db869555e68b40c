"""The plain-line reader of the command line (``cli.fast_parse``) and the shell's split of plain
lines: 1,000 varied ``calc`` lines (options, formats, errors, exit codes) give the same output,
errors and exit codes through the shell's fast path as through click's own parser; the values a
plain line sets are click's; the simple table is tabulate's."""

from __future__ import annotations

import contextlib
import io
import random
import shlex

import click
import pytest
from tabulate import tabulate

from omaha_equity.cards import format_cards
from omaha_equity.cli import main
from omaha_equity.cli.fast_parse import FastParseCommand
from omaha_equity.cli.quick_calc import quick_calc
from omaha_equity.cli.shell import Session, command_words
from omaha_equity.views.render import simple_table

PROGRAM = "omaha-equity"
FIRST_USE = "omaha-equity: first use"

GAMES = ["omaha", "omaha8", "o8", "plo", "PLO8", "omaha5", "courchevel", "binglao", "nosuchgame"]
RANGES = ["AA", "KK:$ds", "5%", "*", "AsAh", "AsKsQs", "vs", "$ds", "AsAsKhKh", "Zz9c8c7c", "-"]


def _hand(rng: random.Random, deck: list[int], count: int = 4) -> str:
    return format_cards([deck.pop() for _ in range(count)])


def _calc_line(rng: random.Random) -> str:
    """One ``calc`` line: mostly plain queries on a flop, turn or river, with every option of
    calc now and then, and the slips people make (bad cards, values, options, repeats)."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [_hand(rng, deck) for _ in range(rng.choice([2, 2, 2, 3]))]
    if rng.random() < 0.1:
        hands[-1] = rng.choice(RANGES)
    if rng.random() < 0.1:
        hands.insert(1, rng.choice(["vs", "VS", "v"]))
    board = format_cards([deck.pop() for _ in range(rng.choice([3, 4, 5, 5, 5]))])
    words = ["calc", *hands]
    options: list[list[str]] = [[rng.choice(["-b", "--board"]), board]]
    monte_carlo = False
    if rng.random() < 0.15:
        options.append([rng.choice(["-d", "--dead"]), format_cards([deck.pop()])])
    game = rng.choice(GAMES) if rng.random() < 0.15 else None
    if game is not None:
        options.append([rng.choice(["-g", "--game"]), game])
    if rng.random() < 0.03:
        options.append(["--die", rng.choice(["1", "3", "6", "7"])])
    if rng.random() < 0.3:
        options.append([rng.choice(["-q", "--quiet"])])
    if rng.random() < 0.3:
        options.append([rng.choice(["-f", "--format"]), rng.choice(["table", "csv", "json"] * 4 + ["xml", "CSV"])])
    if rng.random() < 0.15:
        options.append(["--table-style", rng.choice(["simple", "grid", "github", "plain", "bogus"])])
    if rng.random() < 0.15:
        options.append(["--exact"])
    if rng.random() < 0.15:
        options.append(["--mc"])
        monte_carlo = True
    # a Monte Carlo run (partial hands, ranges, 5-card games) samples few boards, from a seed
    if rng.random() < 0.1 or monte_carlo or game in ("omaha5", "courchevel") or hands[-1] in RANGES:
        options.append(["--trials", rng.choice(["50", "200"] * 6 + ["0", "1e3", "+100", " 100", "abc"])])
        options.append(["--seed", rng.choice(["1", "7"] * 6 + ["-1"])])
    if rng.random() < 0.1:
        options.append(["--threads", rng.choice(["1", "2"] * 3 + ["0"])])
    if rng.random() < 0.05:
        options.append(["--precision", rng.choice(["0.5", "nan", "0", "-1"])])
        options.append(["--trials", "100"])
        options.append(["--seed", "3"])
    if rng.random() < 0.04:
        options.append([rng.choice(["--streets", "--next-card"])])
    if rng.random() < 0.03:
        options.append(["--above", rng.choice(["0.3", "2"])])
    rng.shuffle(options)
    for option in options:
        words.extend(option)
    slip = rng.random()
    if slip < 0.03:
        words.append(rng.choice(["--bogus", "-x", "-qf", "--board=" + board, "--", "-h"]))
    elif slip < 0.05:
        words.append(rng.choice(["-b", "--seed", "-f"]))  # no value
    elif slip < 0.07:
        words.extend(rng.choice([["-q", "-q"], ["-b", board], ["-f", "csv", "-f", "json"]]))  # repeated
    elif slip < 0.08:
        words = ["calc"]
    elif slip < 0.09:
        words.insert(2, "-" + board)  # a value that looks like an option
    return shlex.join(words) if rng.random() < 0.2 else " ".join(words)


def _run(line: str, run) -> tuple[str, str, int]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run(line)
    # the notice of a first use (kernels compiled into the cache) comes once, whichever way ran first
    errors = "".join(line for line in err.getvalue().splitlines(keepends=True) if not line.startswith(FIRST_USE))
    return out.getvalue(), errors, code


def test_a_thousand_calc_lines_give_the_same_output_errors_and_codes_both_ways(monkeypatch):
    session = Session(main, lambda words: main.run_words(words, PROGRAM, None), quick_calc)
    lines = [_calc_line(random.Random(seed)) for seed in range(1000)]
    shell_way = [_run(line, session.run_line) for line in lines]
    monkeypatch.setattr(FastParseCommand, "plain_values", lambda self, ctx, args: None)
    click_way = [_run(line, lambda line: main.run_words(shlex.split(line), PROGRAM, None)) for line in lines]
    for line, fast, slow in zip(lines, shell_way, click_way):
        assert fast == slow, line
    codes = [code for _, _, code in click_way]
    assert codes.count(0) > 600 and codes.count(2) > 100  # varied: most lines answer, many are refused
    assert sum("Error: No such option" in err for _, err, _ in click_way) > 5
    assert sum(quick_calc(command_words(line)) is not None for line in lines) > 150  # the quick way answered


def _click_values(command: click.Command, args: list[str]) -> dict | None:
    context = command.context_class(command, info_name=command.name)
    try:
        click.Command.parse_args(command, context, list(args))
    except click.ClickException:
        return None
    return dict(context.params)


@pytest.mark.parametrize("seed", range(4))
def test_a_plain_line_sets_the_values_click_sets(seed):
    calc = main.get_command(None, "calc")
    rng = random.Random(seed)
    checked = 0
    for _ in range(250):
        words = shlex.split(_calc_line(rng))[1:]
        context = calc.context_class(calc, info_name="calc")
        parsed = calc.plain_values(context, list(words))
        if parsed is None:
            continue
        values, rest = parsed
        assert rest == []
        assert {name: value for name, (value, _) in values.items()} == _click_values(calc, words), words
        checked += 1
    assert checked > 150


def test_options_after_the_command_name_are_the_commands():
    """The group reads its own options only before the command's name, as click does."""
    context = main.context_class(main, info_name=PROGRAM)
    values, rest = main.plain_values(context, ["calc", "AsAhKsKh", "-q"])
    assert values == {} and rest == ["calc", "AsAhKsKh", "-q"]
    assert main.plain_values(main.context_class(main, info_name=PROGRAM), ["--version"]) is None


def test_the_shell_splits_a_plain_line_as_shlex_does():
    rng = random.Random(5)
    characters = " \t\r\n\x0b\x0c\x1c\x85\xa0ab-'\"\\#é"
    for _ in range(20_000):
        line = "".join(rng.choice(characters) for _ in range(rng.randint(0, 10)))
        try:
            expected = shlex.split(line, comments=True)
        except ValueError:
            continue
        words = command_words(line)
        if expected[:1] == [PROGRAM]:
            expected = expected[1:]
        if expected[:1] == ["help"]:
            expected = [*expected[1:], "--help"]
        assert words == expected, repr(line)


def _cell(rng: random.Random):
    if rng.random() < 0.9:
        return rng.choice([0, 7, -3, 12345, "x", "61.48%", "a b", "±0.1", "1/2", "AsAhKsKh", "n/a", "100%"])
    return rng.choice(["", " padded", "True", "é", None, 1.5, True, "two\nlines", "tab\there", "\x1b[31mred\x1b[0m"])


def test_the_simple_table_is_tabulates():
    rng = random.Random(11)
    written = 0
    for _ in range(3000):
        keys = rng.sample(["player", "hand", "equity", "± s.e.", "x", "a long header", "é", " blank"],
                          rng.randint(1, 5))
        rows = [{key: _cell(rng) for key in keys} for _ in range(rng.randint(1, 4))]
        if rng.random() < 0.05:
            rows[-1] = dict(reversed(list(rows[-1].items())))
        ours = simple_table(rows)
        if ours is not None:
            assert ours == tabulate(rows, headers="keys", tablefmt="simple", disable_numparse=True), rows
            written += 1
    assert written > 300
