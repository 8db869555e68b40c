#!/usr/bin/env python3
"""A/B check for refactors: capture every kind of result the package gives, compare two captures.

A refactor that must not change any result (equity, all-in, studies, batch, the command line)
is checked by capturing the same queries before and after and comparing the two files::

    # before (the baseline), from the root of a checkout of it, with its environment:
    PYTHONPATH=. .venv/bin/python scripts/ab_compare.py capture /tmp/before.jsonl
    # after, the same from the changed checkout:
    PYTHONPATH=. .venv/bin/python scripts/ab_compare.py capture /tmp/after.jsonl
    python scripts/ab_compare.py compare /tmp/before.jsonl /tmp/after.jsonl   # exit 1 on any difference

``capture OUT.jsonl [--count 200] [--seed 1] [--kinds calc,allin,...]`` draws ``--count``
queries of each kind from a random generator seeded by ``--seed`` and the kind's name alone: the
queries depend on nothing in the package, so every version gets the same ones. Every query runs
in this one process: command-line queries through click's ``CliRunner`` against
``omaha_equity.cli.main`` (else ``omaha_equity.cli.app``), API queries as plain calls. Every
Monte Carlo query (and every query that could fall back to Monte Carlo) is given a seed. The
kinds:

- ``calc``: ``calc`` with 2-4 players in every game (aliases and Binglao's ``--die`` included),
  boards of 0, 3, 4 or 5 cards, dead cards, fixed, partial and random hands and ranges, exact,
  ``--exact``, Monte Carlo (``--mc``/``--trials``/``--precision``, always ``--seed``), any
  ``--threads``; mostly ``-f json``, some ``csv`` and ``table`` (with ``--table-style``);
- ``allin``: ``allin`` with ``--stacks`` or ``--committed``, ``--folded``, ``--pot``;
- ``streets``: ``calc --streets``; ``next-card``: ``calc --next-card [--above F]``;
- ``distribution``: ``distribution HAND RANGE --by hand|next-card|category [--bins N]``, a few
  with ``--plot FILE.svg`` (the file's text is recorded);
- ``hits``: ``hits RANGE -b BOARD [--vs HAND|RANGE] [--no-draws]``, a few with ``--plot``;
- ``batch``: a small CSV or JSON Lines input (some bad rows, duplicate ids) written to a temporary
  folder, ``batch FILE -o OUT --seed S --workers 1`` (in this process), the output file's text
  recorded; some read standard input or write standard output;
- ``errors``: bad input to every command (exit code and message);
- ``misc``: ``show``, ``range``, ``rank``, ``pot-limit``, ``ev``, ``play``, ``convert`` (on small
  hand histories embedded below), ``--help`` of every command, ``--version``;
- ``api``: ``calculate_equity``, ``calculate_allin``, ``equity_by_street``, ``next_card_equity``,
  ``equity_distribution``, ``read_showdown`` (from ``omaha_equity``) and
  ``omaha_equity.studies.range_composition``, called in process: the result as JSON (every
  dataclass field, fractions as ``"n/d"``, floats by ``repr``) and its ``repr``, or the
  exception's type and message.

Each query is one JSON line: ``{"id", "kind", "args", "exit_code", "output", "stderr"}``, plus
``"files"`` (batch and plot outputs: name -> text), ``"exception"`` (an exception other than
``SystemExit`` escaping the command, or raised by an API call) and ``"repr"`` (API results).
For ``api`` lines ``args`` is ``{"func", "args", "kwargs"}``, ``exit_code`` is 0 (returned) or
1 (raised) and ``output`` the result's JSON.

Normalised, because it legitimately varies between runs, and nothing else:

1. the temporary folder's path (where batch inputs, outputs and plots are written) is written
   ``{TMP}`` wherever it appears (output, stderr, files, exception messages);
2. on stderr, the lines ``omaha-equity: ...``: the cache notices of ``omaha_equity.runtime.cache``
   (``first use: building lookup tables and compiling kernels ...`` and the other once-per-process
   notices about the kernel cache), which depend on the state of the cache folder and on which
   query of the run is the first to need a kernel;
3. on stderr, the lines ``progress: N% of ...`` that a run longer than a second prints (whether
   one is printed depends on speed);
4. in batch's summary line on stderr, the elapsed time: ``rows in 3.2 s`` becomes
   ``rows in <T> s``.

The output (stdout), exit codes, output files and API results are compared byte for byte.
Timings of the capture itself go to this script's stderr only, never into the file.

``compare A.jsonl B.jsonl`` matches the lines by ``id``, prints how many queries were compared
and, for each difference, the kind, the arguments and the first differing lines of each field;
exit 1 if anything differs (or a query is missing from either file), else 0. ``--common``
compares only the queries in both files: a quick ``capture --count 20`` (the first 20 queries of
each kind are the same whatever the count) against a full capture.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import enum
import fractions
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict

KINDS = ("calc", "allin", "streets", "next-card", "distribution", "hits", "batch", "errors", "misc", "api")

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [rank + suit for rank in RANKS for suit in SUITS]

# (game as typed, hole cards, weight); Binglao's hole cards come from its die.
GAMES = (
    ("omaha", 4, 8), ("omaha8", 4, 5), ("omaha5", 5, 3), ("omaha5-8", 5, 2), ("omaha6", 6, 2),
    ("omaha6-8", 6, 1), ("courchevel", 5, 1), ("courchevel8", 5, 1), ("binglao", 0, 1),
    ("plo", 4, 1), ("o8", 4, 1), ("big-o", 5, 1), ("plo6", 6, 1), ("Omaha H/L", 4, 1),
)
BINGLAO_HOLES = {1: 4, 2: 5, 3: 6, 4: 4, 5: 5, 6: 6}
TABLE_STYLES = ("simple", "github", "plain", "grid", "pipe", "tsv", "rst", "psql")

# Ranges by hole count: (expression, small enough to enumerate exactly on a flop)
RANGES = {
    4: (("15%", False), ("5%", False), ("1%", True), ("AA", False), ("AA**", False), ("AA:$ds", True),
        ("RxRyOxOy", True), ("AKQJ", True), ("JT98", True), ("KK:$ds", True), ("AAKK", True),
        ("AA:$ss", False), ("KK-TT", False), ("2%", True)),
    5: (("AAKK", True), ("AKQJ", False), ("JT98", False)),
    6: (("AAKK", False),),
}
# Filters need a board (docs/categories.md)
FILTERED = ("15%:{pair+}", "10%:{two-pair+}", "AA:{set+}", "5%:{nfd}", "20%:{top-pair+}", "{wrap13+, nfd}")

# Small hand histories for ev / play / convert (PokerStars text and PHH).
POKERSTARS_5CARD = """\
PokerStars Hand #96318916658:  5 Card Omaha Pot Limit ($3/$6 USD) - 2013/03/29 3:47:12 ET
Table 'Armida III' 6-max Seat #4 is the button
Seat 1: Hero ($958.50 in chips)
Seat 4: Player0 ($2037.50 in chips)
Player0: posts small blind $3
Hero: posts big blind $6
*** HOLE CARDS ***
Dealt to Hero [Td 9c 7d 8c Qd]
Player0: raises $12 to $18
Hero: raises $36 to $54
Player0: raises $36 to $90
Hero: raises $180 to $270
Player0: raises $180 to $450
Hero: calls $180
*** FLOP *** [Tc 7s 8h]
Hero: bets $508.50 and is all-in
Player0: calls $508.50
*** TURN *** [Tc 7s 8h] [6d]
*** RIVER *** [Tc 7s 8h 6d] [9h]
*** SHOW DOWN ***
Hero: shows [Td 9c 7d 8c Qd] (a straight, Six to Ten)
Player0: shows [4c Jc 4s Kc Jd] (a pair of Jacks)
Hero collected $1916.50 from pot
*** SUMMARY ***
Total pot $1917 | Rake $0.50
Board [Tc 7s 8h 6d 9h]
Seat 1: Hero (big blind) showed [Td 9c 7d 8c Qd] and won ($1916.50) with a straight, Six to Ten
Seat 4: Player0 (button) (small blind) showed [4c Jc 4s Kc Jd] and lost with a pair of Jacks
"""
POKERSTARS_PLO = """\
PokerStars Hand #1337: Omaha Pot Limit ($0.50/$1.00 USD) - 2012/04/12 23:00:00 ET
Table 'SomeLie V' 6-max Seat #1 is the button
Seat 1: plr1 ($214.42 in chips)
Seat 3: plr3 ($146.25 in chips)
Seat 4: plr4 ($388.38 in chips)
Seat 5: plr5 ($138.24 in chips)
Seat 6: plr6 ($38.26 in chips)
plr3: posts small blind $0.50
plr4: posts big blind $1
*** HOLE CARDS ***
plr5: raises $1 to $2
plr6: folds
plr1: raises $4.50 to $6.50
plr3: calls $6
plr4: folds
plr5: raises $20.50 to $27
plr1: folds
plr3: calls $20.50
*** FLOP *** [Kc 2s Jc]
plr3: bets $58.73
plr5: raises $52.51 to $111.24 and is all-in
plr3: calls $52.51
*** TURN *** [Kc 2s Jc] [Qd]
*** RIVER *** [Kc 2s Jc Qd] [6h]
*** SHOW DOWN ***
plr3: shows [Kd Qc Jh 9h] (two pair, Kings and Queens)
plr5: shows [Ah As]
plr3 collected $281.18 from pot
*** SUMMARY ***
Total pot $283.98 | Rake $2.80
Board [Kc 2s Jc Qd 6h]
Seat 1: plr1 (button) folded before Flop
Seat 3: plr3 (small blind) showed [Kd Qc Jh 9h] and won ($281.18) with two pair, Kings and Queens
Seat 4: plr4 (big blind) folded before Flop
Seat 5: plr5 mucked [Ah As]
Seat 6: plr6 folded before Flop (didn't bet)
"""
PHH_PLO8 = """\
variant = "PO/8"
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
starting_stacks = [1000, 90, 1000]
actions = [
    "d dh p1 Ah3h4c6c",
    "d dh p2 KcKsQhJh",
    "d dh p3 9s9dAd3c",
    "p3 cbr 30",
    "p1 cc",
    "p2 cc",
    "d db 2c5d9h",  # Flop
    "p1 cbr 90",
    "p2 cc",
    "p3 cc",
    "d db Kd",  # Turn
    "p1 cbr 150",
    "p3 cc",
    "d db 7s",  # River
    "p1 cc",
    "p3 cc",
    "p1 sm Ah3h4c6c",
    "p2 sm KcKsQhJh",
    "p3 sm 9s9dAd3c",
]
event = "omaha-equity example"
finishing_stacks = [888, 135, 1067]
"""
HAND_HISTORIES = {"ps5.txt": POKERSTARS_5CARD, "psplo.txt": POKERSTARS_PLO, "plo8.phh": PHH_PLO8,
                  "broken.txt": "PokerStars Hand #1: this is not a hand history\n", "empty.txt": ""}


# ---------------------------------------------------------------------------------------------
# query generation: depends on random.Random only, never on the package


class Gen:
    """Random pieces of queries, from one ``random.Random``."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def game(self, holes_at_most: int = 6, weights_override=None):
        """(arguments, hole cards, four_card_high_low_family) of a random game."""
        rng = self.rng
        games = [g for g in GAMES if g[1] <= holes_at_most]
        name, holes, _ = rng.choices(games, weights=weights_override or [g[2] for g in games])[0]
        if name == "binglao":
            die = rng.choice([d for d, h in BINGLAO_HOLES.items() if h <= holes_at_most])
            return ["-g", "binglao", "--die", str(die)], BINGLAO_HOLES[die]
        if name == "omaha" and self.chance(0.4):
            return [], 4
        return [rng.choice(["-g", "--game"]), name], holes

    def cards(self, cards: list[str]) -> str:
        """Cards as typed: mostly ``AsKs``, sometimes lower case, ``10h``, spaces or commas."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.85:
            return "".join(cards)
        if roll < 0.9:
            return "".join(cards).lower()
        if roll < 0.94:
            return "".join(card.replace("T", "10") for card in cards)
        if roll < 0.97:
            return " ".join(cards)
        return ",".join(cards)

    def seed(self) -> str:
        return str(self.rng.choice([self.rng.randrange(1000), self.rng.randrange(2 ** 64)]))

    def mc(self, trials=(200, 500, 1000, 2000), precision=True) -> list[str]:
        """Monte Carlo options, always with a seed (``--precision`` only where the command has it)."""
        rng = self.rng
        args = []
        if self.chance(0.6):
            args.append("--mc")
        args += ["--trials", str(rng.choice(trials))]
        if precision and self.chance(0.05):
            args += ["--precision", rng.choice(["0.5", "2", "5"])]
        return args + ["--seed", self.seed()]

    def threads(self) -> list[str]:
        return ["--threads", str(self.rng.choice([1, 2, 3, 8]))] if self.chance(0.15) else []

    def fmt(self, json_share=0.8) -> list[str]:
        rng = self.rng
        roll = rng.random()
        if roll < json_share:
            return [rng.choice(["-f", "--format"]), "json"]
        if roll < json_share + (1 - json_share) / 2:
            return ["-f", "csv"]
        return (["--table-style", rng.choice(TABLE_STYLES)] if self.chance(0.5) else []) + \
            (["-f", "table"] if self.chance(0.5) else [])

    def hands(self, holes, players, cards, board_size, allow=("range", "partial", "random"), nonfixed=0.2,
              filters=True):
        """Players' hands from ``cards`` (fixed unless drawn otherwise) and the kinds used."""
        rng = self.rng
        hands, kinds = [], []
        for player in range(players):
            own = cards[player * holes:(player + 1) * holes]
            kind = "fixed"
            if allow and self.chance(nonfixed) and (not kinds.count("range") and not kinds.count("partial")
                                                    and not kinds.count("random") or self.chance(0.3)):
                kind = rng.choice(allow)
            if kind == "range":
                expression, small = rng.choice(RANGES[holes])
                if filters and board_size >= 3 and holes == 4 and self.chance(0.2):
                    expression, small = rng.choice(FILTERED), False
                hands.append(expression)
                kinds.append("small-range" if small else "range")
            elif kind == "partial":
                hands.append(self.cards(own[:rng.randint(1, holes - 1)]))
                kinds.append("partial")
            elif kind == "random":
                hands.append("*")
                kinds.append("random")
            else:
                hands.append(self.cards(own))
                kinds.append("fixed")
        return hands, kinds

    def deal(self, count: int) -> list[str]:
        return self.rng.sample(DECK, count)


def q(kind: str, args, **extra) -> dict:
    return {"kind": kind, "args": args, **extra}


def gen_calc(g: Gen, i: int) -> dict:
    rng = g.rng
    game, holes = g.game()
    players = rng.choice([2, 2, 2, 3, 3, 4])
    board_size = rng.choice([0, 3, 3, 4, 4, 5])
    dead_size = rng.choice([0, 0, 0, 0, 1, 2, 3])
    cards = g.deal(players * holes + board_size + dead_size)
    board = cards[players * holes:players * holes + board_size]
    dead = cards[players * holes + board_size:]
    hands, kinds = g.hands(holes, players, cards, board_size)
    args = ["calc", *hands]
    if board or g.chance(0.05):
        args += [rng.choice(["-b", "--board"]), g.cards(board) if board else "-"]
    if dead:
        args += ["-d", g.cards(dead)]
    args += game
    nonfixed = [k for k in kinds if k != "fixed"]
    if not nonfixed:
        roll = rng.random()
        if roll < 0.1:
            args.append("--exact")
        elif roll < 0.25:
            args += g.mc()
    elif (len(nonfixed) == 1 and (nonfixed[0] == "small-range" and board_size >= 3
                                  or nonfixed[0] == "range" and holes == 4 and board_size >= 4)
          and g.chance(0.7)):
        args += ["--seed", g.seed()]  # exact by the plan; the seed is there if it were not
    else:
        args += g.mc()
    args += g.threads() + g.fmt()
    if g.chance(0.1):
        args.append("-q")
    return q("calc", args)


def _stacks(g: Gen, players: int) -> list[str]:
    rng = g.rng
    chips = [rng.choice([rng.randint(1, 50), rng.randint(50, 1000), 100, 500]) for _ in range(players)]
    args = [rng.choice(["--stacks", "--stacks", "--committed"]), ",".join(map(str, chips))]
    if g.chance(0.2):
        args += ["--folded", ",".join(str(rng.randint(1, 60)) for _ in range(rng.randint(1, 2)))]
    if g.chance(0.2):
        args += ["--pot", str(rng.randint(0, 300))]
    return args


def gen_allin(g: Gen, i: int) -> dict:
    rng = g.rng
    game, holes = g.game()
    players = rng.choice([2, 3, 3, 4])
    board_size = rng.choice([0, 3, 3, 4, 5])
    dead_size = rng.choice([0, 0, 0, 1])
    cards = g.deal(players * holes + board_size + dead_size)
    board = cards[players * holes:players * holes + board_size]
    dead = cards[players * holes + board_size:]
    hands, kinds = g.hands(holes, players, cards, board_size, allow=("range", "partial", "random"), nonfixed=0.12)
    args = ["allin", *hands, *_stacks(g, players)]
    if board:
        args += ["-b", g.cards(board)]
    if dead:
        args += ["-d", g.cards(dead)]
    args += game
    if all(k == "fixed" for k in kinds):
        roll = rng.random()
        if roll < 0.1:
            args.append("--exact")
        elif roll < 0.25:
            args += g.mc()
    else:
        args += g.mc(trials=(200, 500, 1000))
    return q("allin", args + g.threads() + g.fmt())


def gen_streets(g: Gen, i: int) -> dict:
    rng = g.rng
    game, holes = g.game()
    players = rng.choice([2, 2, 3, 4])
    board_size = rng.choice([3, 4, 5, 5])
    cards = g.deal(players * holes + board_size + 1)
    board = cards[players * holes:players * holes + board_size]
    hands, kinds = g.hands(holes, players, cards, board_size, allow=("range", "partial") if holes < 6 else (),
                           nonfixed=0.12, filters=False)
    args = ["calc", *hands, "-b", g.cards(board), *game, "--streets"]
    if g.chance(0.1):
        args += ["-d", cards[-1]]
    if all(k == "fixed" for k in kinds):
        if g.chance(0.15):
            args += g.mc(trials=(200, 1000))
    else:
        args += g.mc(trials=(200, 500))
    return q("streets", args + g.threads() + g.fmt())


def gen_next_card(g: Gen, i: int) -> dict:
    rng = g.rng
    game, holes = g.game()
    players = rng.choice([2, 2, 3, 4])
    board_size = rng.choice([3, 4])
    cards = g.deal(players * holes + board_size + 1)
    board = cards[players * holes:players * holes + board_size]
    hands, kinds = g.hands(holes, players, cards, board_size, allow=("range",) if holes < 6 else (), nonfixed=0.12)
    args = ["calc", *hands, "-b", g.cards(board), *game, "--next-card"]
    if g.chance(0.3):
        args += ["--above", rng.choice(["0", "0.25", "0.5", "0.75", "0.9", "1"])]
    if g.chance(0.1):
        args += ["-d", cards[-1]]
    nonfixed = [k for k in kinds if k != "fixed"]
    if not nonfixed:
        if g.chance(0.1):
            args += g.mc(trials=(50, 100, 200))
    elif len(nonfixed) == 1 and (nonfixed[0] == "small-range" or board_size == 4 and holes == 4) and g.chance(0.7):
        args += ["--seed", g.seed()]
    else:
        args += g.mc(trials=(20, 50, 100))
    return q("next-card", args + g.threads() + g.fmt())


def gen_distribution(g: Gen, i: int) -> dict:
    rng = g.rng
    game, holes = g.game(weights_override=None)
    if holes == 6 or g.chance(0.5):
        game, holes = (["-g", rng.choice(["omaha", "omaha8", "plo"])], 4) if g.chance(0.8) else ([], 4)
    board_size = rng.choice([0, 3, 3, 4, 4, 5])
    cards = g.deal(holes + board_size + 1)
    hand, board = cards[:holes], cards[holes:holes + board_size]
    by = rng.choice(["hand", "hand", "hand", "next-card", "category"])
    if by == "next-card" and board_size not in (3, 4):
        by = "hand"
    if by == "category" and board_size < 3:
        by = "hand"
    small = [e for e, s in RANGES[holes] if s]
    every = [e for e, _ in RANGES[holes]]
    opponent = rng.choice(every if board_size >= 4 and holes == 4 and by != "next-card" else small)
    args = ["distribution", g.cards(hand), opponent]
    if board:
        args += ["-b", g.cards(board)]
    if g.chance(0.1):
        args += ["-d", cards[-1]]
    args += game
    if by != "hand" or g.chance(0.2):
        args += ["--by", by]
    if g.chance(0.25):
        args += ["--bins", str(rng.choice([1, 3, 5, 7, 20, 100]))]
    if board_size == 0 or holes > 4 and board_size == 3:
        args += g.mc(trials=(2, 5, 10), precision=False) if by == "hand" else g.mc(trials=(20, 50), precision=False)
    elif g.chance(0.15):
        args += g.mc(trials=(5, 10, 30), precision=False) if by == "hand" else g.mc(trials=(20, 50), precision=False)
    if "--seed" not in args:  # exact unless over the work budget: the seed is there if it is
        args += ["--seed", g.seed()]
    if g.chance(0.03):
        args += ["--plot", f"{{TMP}}/dist{i}.svg"]
    return q("distribution", args + g.threads() + g.fmt(), files=[f"dist{i}.svg"] if "--plot" in args else [])


def gen_hits(g: Gen, i: int) -> dict:
    rng = g.rng
    game, holes = g.game(holes_at_most=5)
    if holes == 5 and g.chance(0.5):
        game, holes = ([], 4)
    board_size = rng.choice([3, 3, 4, 5])
    cards = g.deal(holes + board_size + 1)
    hand, board = cards[:holes], cards[holes:holes + board_size]
    if holes == 4:
        expression = rng.choice([e for e, _ in RANGES[4]] + list(FILTERED[:3]) + ["*!{nothing}"])
    else:
        expression = "AAKK"
    args = ["hits", expression, "-b", g.cards(board), *game]
    if g.chance(0.1):
        args += ["-d", cards[-1]]
    roll = rng.random()
    if roll < 0.35 and expression != "*!{nothing}":  # (that one takes seconds against a hand)
        args += ["--vs", g.cards(hand)]
        if g.chance(0.2):
            args += g.mc(trials=(20, 50), precision=False)
    elif roll < 0.45 and holes == 4:
        args[1] = rng.choice(["AA:$ds", "RxRyOxOy", "AKQJ", "1%"])
        args += ["--vs", rng.choice(["KK:$ds", "JT98", "AAKK"]), "--trials", str(rng.choice([10, 30])),
                 "--seed", g.seed()]
    if "--vs" in args and "--seed" not in args:  # exact unless over the work budget
        args += ["--seed", g.seed()]
    if g.chance(0.3):
        args.append("--no-draws")
    if g.chance(0.03):
        args += ["--plot", f"{{TMP}}/hits{i}.svg"]
    return q("hits", args + g.fmt(), files=[f"hits{i}.svg"] if "--plot" in args else [])


def _batch_row(g: Gen, n: int) -> dict:
    """One batch query (its keys as in a batch file)."""
    rng = g.rng
    game, holes = g.game(holes_at_most=5)
    players = rng.choice([2, 2, 3])
    board_size = rng.choice([3, 3, 4, 5, 0])
    cards = g.deal(players * holes + board_size + 1)
    board = cards[players * holes:players * holes + board_size]
    hands = ["".join(cards[p * holes:(p + 1) * holes]) for p in range(players)]
    row = {"id": f"q{n}", "game": game[1] if game else "", "die": game[3] if "--die" in game else "",
           "board": "".join(board), "dead": "", "hands": hands, "method": "", "trials": "", "seed": "",
           "precision": ""}
    if board_size == 0 and holes == 5 or g.chance(0.15):
        row.update(method=rng.choice(["monte-carlo", "mc"]), trials=str(rng.choice([300, 1000])))
        if g.chance(0.3):
            row["seed"] = str(rng.randrange(2 ** 64))
    elif g.chance(0.1):
        hands[-1] = "*"
        row.update(trials=str(rng.choice([300, 1000])))
    elif g.chance(0.1):
        row["method"] = rng.choice(["exact", "auto"])
    if g.chance(0.1):
        row["dead"] = cards[-1]
    roll = rng.random()  # bad rows
    if roll < 0.01:
        hands[1] = hands[0][:2] + hands[1][2:]  # a duplicate card
    elif roll < 0.018:
        hands[0] = hands[0][:-2] + "1c"
    elif roll < 0.024:
        row["game"] = "stud"
    elif roll < 0.03:
        row["board"] = "".join(cards[-6:])
    elif roll < 0.036:
        row.update(method="monte-carlo", trials="0")
    elif roll < 0.042:
        row["method"] = "guess"
    elif roll < 0.048:
        row["seed"] = "-3"
    return row


def _csv_cell(text: str) -> str:
    return f'"{text}"' if any(c in text for c in ',"\n') else text


def gen_batch(g: Gen, i: int) -> dict:
    rng = g.rng
    rows = [_batch_row(g, n) for n in range(rng.randint(1, 5))]
    if len(rows) > 1 and g.chance(0.05):
        rows[-1]["id"] = rows[0]["id"]  # a duplicate id
    ids = g.chance(0.85)
    jsonl = g.chance(0.3)
    if jsonl:
        lines = []
        for row in rows:
            record = {k: v for k, v in row.items() if v not in ("", []) and (k != "id" or ids)}
            if g.chance(0.5):
                record["hands"] = "|".join(record["hands"])
            lines.append(json.dumps(record))
        if g.chance(0.05):
            lines.insert(rng.randint(0, len(lines)), "{not json")
        text = "\n".join(lines) + "\n"
        name = f"b{i}.jsonl"
    else:
        width = max(len(row["hands"]) for row in rows)
        keys = (["id"] if ids else []) + ["game", "die", "board", "dead"] + \
            [f"hand{n + 1}" for n in range(width)] + ["method", "trials", "seed", "precision"]
        if g.chance(0.3):  # the optional columns left out
            keys = [k for k in keys if k not in ("die", "precision", "dead")]
        lines = [",".join(keys)]
        for row in rows:
            cells = []
            for key in keys:
                if key.startswith("hand"):
                    n = int(key[4:]) - 1
                    cells.append(row["hands"][n] if n < len(row["hands"]) else "")
                else:
                    cells.append(_csv_cell(row[key]))
            lines.append(",".join(cells))
        if g.chance(0.05):
            lines.append('x,"omaha,Qd7h2s')  # a stray quote
        if g.chance(0.03):
            lines[0] += ",flop"  # an unknown column: exit 2
        text = "\n".join(lines) + "\n"
        name = f"b{i}.csv"
    args = ["batch"]
    stdin = None
    files = []
    if g.chance(0.1):
        args.append("-")
        stdin = text
        if jsonl:
            args += ["--input-format", "jsonl"]
    else:
        args.append(f"{{TMP}}/{name}")
    if g.chance(0.85):
        out = f"b{i}.out." + rng.choice(["csv", "jsonl"])
        args += ["-o", f"{{TMP}}/{out}"]
        files.append(out)
        if g.chance(0.1):
            args += ["-f", rng.choice(["csv", "jsonl"])]
    elif g.chance(0.3):
        args += ["-f", "jsonl"]
    args += ["--seed", g.seed(), "--workers", "1"]
    if g.chance(0.15):
        args += ["--chunk-size", str(rng.choice([1, 2, 7]))]
    if g.chance(0.1):
        args.append("-q")
    return q("batch", args, stdin=stdin, inputs={} if stdin is not None else {name: text}, files=files)


ERRORS = [
    # calc
    ["calc", "AsKsQhJh", "AsTd9c8c"], ["calc", "AsKsQhJh", "JdTd9c1c"], ["calc", "AsKsQhJh"],
    ["calc"], ["calc", "AsKsQhJh", "JdTd9c8c", "-g", "stud"], ["calc", "AsKsQhJh", "JdTd9c8c", "-b", "2c3c4c5c6c7c"],
    ["calc", "AsKsQhJh", "JdTd9c8c", "--trials", "0"], ["calc", "AsKsQhJh", "JdTd9c8c", "--seed", "-1"],
    ["calc", "AsKsQhJh", "JdTd9c8c", "--threads", "0"], ["calc", "AsKsQhJh", "JdTd9c8c", "--precision", "0"],
    ["calc", "AsKsQhJh", "JdTd9c8c", "--precision", "nan"], ["calc", "AsKsQhJh", "JdTd9c8c", "--exact", "--mc"],
    ["calc", "AA", "AA", "AA"], ["calc", "AA", "KK", "--exact"], ["calc", "AsKsQhJh", "JdTd9c8c", "-g", "binglao"],
    ["calc", "AsKsQhJh", "JdTd9c8c", "--die", "3"], ["calc", "AsKsQhJh", "JdTd9c8c", "--die", "7", "-g", "binglao"],
    ["calc", "AsKsQhJh", "JdTd9c8cQd"], ["calc", "AsKsQhJh", "JdTd9c8c", "--streets"],
    ["calc", "AsKsQhJh", "JdTd9c8c", "--next-card"],
    ["calc", "AsKsQhJh", "JdTd9c8c", "-b", "Qd7h2s5c9d", "--next-card"],
    ["calc", "AsKsQhJh", "JdTd9c8c", "-b", "Qd7h", "--streets"], ["calc", "AsKsQhJh", "JdTd9c8c", "--above", "0.5"],
    ["calc", "AsKsQhJh", "JdTd9c8c", "--bogus"], ["calc", "AsKsQhJh", "", "-f", "json"],
    ["calc", "AsKsQhJh", "Jd" * 80], ["calc", "15%:{set}", "AsKsQhJh"], ["calc", "QQ:$xx", "AsKsQhJh"],
    ["calc", "AsKsQhJh", "JdTd9c8c", "-f", "xml"], ["calc", "AsKsQhJh", "JdTd9c8c", "-d", "As"],
    ["calc", *["*"] * 12], ["calc", "AsKsQhJh", "JdTd9c8c", "--trials", "99999999999999999999"],
    # allin
    ["allin", "AsKsQhJh", "JdTd9c8c"], ["allin", "AsKsQhJh", "JdTd9c8c", "--stacks", "100"],
    ["allin", "AsKsQhJh", "JdTd9c8c", "--stacks", "100,abc"], ["allin", "AsKsQhJh", "JdTd9c8c", "--stacks", "100,-5"],
    ["allin", "AsKsQhJh", "JdTd9c8c", "--stacks", "100,100", "--committed", "100,100"],
    ["allin", "AsKsQhJh", "JdTd9c8c", "--stacks", "0,0"], ["allin", "AsKsQhJh", "AsTd9c8c", "--stacks", "100,100"],
    ["allin", "AsKsQhJh", "JdTd9c8c", "--stacks", "100,100", "--pot", "-1"],
    ["allin", "AsKsQhJh", "JdTd9c8c", "--stacks", "100,100", "--folded", "x"],
    # distribution
    ["distribution", "AsKsQhJh"], ["distribution", "AsKsQhJh", "15%", "--by", "next-card"],
    ["distribution", "AsKsQhJh", "15%", "--by", "category"], ["distribution", "AsKsQhJh", "15%", "--bins", "0"],
    ["distribution", "AsKsQhJh", "QQ%", "-b", "Qd7h2s"],
    ["distribution", "AsKsQhJh", "AA", "-b", "Qd7h2s", "--plot", "x.gif"],
    ["distribution", "AsKs", "15%", "-b", "Qd7h2s"], ["distribution", "AsKsQhJh", "AsKs**", "-b", "Qd7h2s"],
    # hits
    ["hits", "15%"], ["hits", "15%", "-b", "Qd7h"], ["hits", "15%", "-b", "Qd7h2s", "--vs", "JJ%"],
    ["hits", "15%:{bogus}", "-b", "Qd7h2s"], ["hits", "15%", "-b", "Qd7h2s", "--plot", "x.txt"],
    ["hits", "", "-b", "Qd7h2s"],
    # batch (missing input, bad options)
    ["batch", "{TMP}/does-not-exist.csv", "--seed", "1", "--workers", "1"],
    ["batch", "{TMP}/does-not-exist.csv", "--seed", "1", "--workers", "0"],
    ["batch", "-", "--seed", "1", "--workers", "1", "--input-format", "xml"],
    ["batch", "-", "--seed", "1", "--workers", "1", "--resume"],
    # others
    ["show", "AsKsQhJh", "JdTd9c8c"], ["show", "AsKsQhJh", "JdTd9c8c", "-b", "Qd7h2s"],
    ["show", "AsKsQhJh", "JdTd9c8c", "-b", "Qd7h2sAs9d"], ["range", "ZZ"], ["range", "AA", "--sample", "0"],
    ["rank", "AsKs"], ["rank", "AsKsQhJh", "-g", "nope"], ["pot-limit"], ["pot-limit", "--pot", "-5", "--bets", "1,2"],
    ["pot-limit", "--bets", "1,2", "--fixed-limit", "x"], ["ev", "{TMP}/does-not-exist.txt"],
    ["ev", "{TMP}/hh/broken.txt"], ["ev", "{TMP}/hh/empty.txt"], ["play", "{TMP}/hh/ps5.txt"],
    ["convert", "{TMP}/hh/ps5.txt"], ["nosuchcommand"], [],
]


def gen_errors(g: Gen, i: int) -> dict:
    """The fixed list first, then random bad queries (a duplicate card, a bad token, ...)."""
    if i < len(ERRORS):
        args = list(ERRORS[i])
        if args[:1] in (["calc"], ["allin"], ["distribution"], ["hits"]) and "--seed" not in args:
            args += ["--seed", "1"]  # a query that runs after all (Monte Carlo) gives the same numbers
        stdin = "id,hand1,hand2\n" if args[:2] == ["batch", "-"] else None
        return q("errors", list(args), stdin=stdin)
    rng = g.rng
    command = rng.choice(["calc", "calc", "allin", "distribution", "hits", "show", "calc --streets",
                          "calc --next-card"])
    cards = g.deal(12)
    a, b, board = "".join(cards[:4]), "".join(cards[4:8]), "".join(cards[8:11])
    fault = rng.choice(["dup", "rank", "suit", "short", "game", "board", "option", "number"])
    if fault == "dup":
        b = a[:2] + b[2:]
    elif fault == "rank":
        a = a[:2] + "X" + a[3:]
    elif fault == "suit":
        b = b[:3] + "e" + b[4:]  # (x, y, z, w are a range's suit variables)
    elif fault == "short":
        b = b[:rng.choice([2, 6])] if command in ("show", "distribution") else b + "Q"
    elif fault == "board":
        board = board + "".join(cards[11:12]) + cards[0]
    words = command.split()
    if words[0] == "distribution":
        if fault == "short":
            a = a[:6]
        args = ["distribution", a, b if fault in ("dup", "suit") else "AA:$ds", "-b", board]
    elif words[0] == "hits":
        args = ["hits", a if fault in ("rank", "dup") else "1%", "-b", board, "--vs", b]
    elif words[0] == "show":
        args = ["show", a, b, "-b", board + "".join(cards[11:12]) + "2c" if fault != "board" else board]
    elif words[0] == "allin":
        args = ["allin", a, b, "--stacks", "100,200", "-b", board]
    else:
        args = ["calc", a, b, "-b", board, *words[1:]]
    if fault == "game":
        args += ["-g", rng.choice(["razz", "omaha7", "binglao"])]
    elif fault == "option":
        args += [rng.choice(["--trails", "--seeds", "-x"]), "1"]
    elif fault == "number":
        args += [rng.choice(["--trials", "--seed", "--threads"]), rng.choice(["-1", "1.5", "x"])]
    if words[0] != "show" and "--seed" not in args:
        args += ["--seed", "1"]
    return q("errors", args + ["-f", "json"])


COMMANDS = ("calc", "allin", "distribution", "hits", "batch", "show", "range", "rank", "pot-limit",
            "ev", "convert", "play", "shell")


def gen_misc(g: Gen, i: int) -> dict:
    rng = g.rng
    fixed = [
        ["--help"], ["--version"], ["-h"],
        *[[command, "--help"] for command in COMMANDS],
        ["ev", "{TMP}/hh/ps5.txt"], ["ev", "{TMP}/hh/psplo.txt", "-f", "json"],
        ["ev", "{TMP}/hh/ps5.txt", "{TMP}/hh/psplo.txt", "--all-hands", "-f", "csv"],
        ["ev", "{TMP}/hh/plo8.phh", "-f", "json"],
        ["ev", "{TMP}/hh/psplo.txt", "--summary", "{TMP}/summary.csv", "-f", "csv"],
        ["play", "{TMP}/hh/plo8.phh"], ["play", "{TMP}/hh/plo8.phh", "-f", "json"],
        ["convert", "{TMP}/hh/ps5.txt", "{TMP}/hh/psplo.txt", "-o", "{TMP}/conv.phhs"],
        ["convert", "{TMP}/hh/psplo.txt", "-o", "{TMP}/conv1.phh"],
    ]
    if i < len(fixed):
        args = fixed[i]
        files = [a.replace("{TMP}/", "") for a in args[1:] if a.startswith("{TMP}/") and not a.startswith("{TMP}/hh/")]
        return q("misc", list(args), files=files)
    command = rng.choice(["show", "show", "range", "rank", "rank", "pot-limit"])
    if command == "show":
        game, holes = g.game()
        players = rng.randint(2, 5)
        cards = g.deal(players * holes + 5)
        hands = [g.cards(cards[p * holes:(p + 1) * holes]) for p in range(players)]
        args = ["show", *hands, "-b", g.cards(cards[-5:]), *game] + g.fmt(json_share=0.5)
    elif command == "range":
        game, holes = g.game(holes_at_most=5, weights_override=None)
        expression = rng.choice([e for e, small in RANGES[holes] if small] + ["AAKK", "AKQJ:$ds", "AA:$ds"])
        if holes != 4:
            expression = "AAKK"
        args = ["range", expression, *game, "--sample", str(rng.choice([1, 5, 20]))]
        if g.chance(0.3):
            args += ["-b", "".join(g.deal(3))]
        args += ["-f", "table"] if holes != 4 or expression != "AAKK" else g.fmt(json_share=0.5)
    elif command == "rank":
        game, holes = g.game()
        args = ["rank", g.cards(g.deal(holes)), *game]
        if g.chance(0.4):
            args.append("--six-handed")
        args += g.fmt(json_share=0.5)
    else:
        pot = rng.randint(0, 500)
        bets = [rng.randint(1, 200) for _ in range(rng.randint(1, 3))]
        args = ["pot-limit", "--pot", str(pot), "--bets", ",".join(map(str, bets))]
        if g.chance(0.4):
            args += ["--own", str(rng.randint(0, min(bets)))]
        if g.chance(0.4):
            args += ["--stack", str(rng.randint(1, 1000))]
        if g.chance(0.3):
            args += ["--blind", str(rng.choice([2, 10, 20]))]
        roll = rng.random()
        if roll < 0.2:
            args.append("--no-limit")
        elif roll < 0.35:
            args += ["--fixed-limit", rng.choice(["2/4", "10/20"]), "--round", str(rng.randint(1, 4))]
        args += g.fmt(json_share=0.5)
    return q("misc", args)


def gen_api(g: Gen, i: int) -> dict:
    """An API call: the arguments of a query of another kind, as keyword arguments."""
    rng = g.rng
    func = rng.choice(["calculate_equity", "calculate_equity", "calculate_allin", "equity_by_street",
                       "next_card_equity", "equity_distribution", "range_composition", "read_showdown"])
    source = {"calculate_equity": gen_calc, "calculate_allin": gen_allin, "equity_by_street": gen_streets,
              "next_card_equity": gen_next_card, "equity_distribution": gen_distribution,
              "range_composition": gen_hits, "read_showdown": None}[func]
    if source is None:
        game, holes = g.game()
        players = rng.randint(2, 4)
        cards = g.deal(players * holes + 5)
        kwargs = {"hands": ["".join(cards[p * holes:(p + 1) * holes]) for p in range(players)],
                  "board": "".join(cards[-5:])}
        kwargs.update(_api_game(game))
        return q("api", {"func": func, "args": [], "kwargs": kwargs})
    args = source(g, i)["args"]
    return q("api", {"func": func, "args": [], "kwargs": _api_kwargs(func, args)})


def _api_game(game_args: list[str]) -> dict:
    out = {}
    if game_args:
        out["game"] = game_args[1]
    if "--die" in game_args:
        out["die"] = int(game_args[game_args.index("--die") + 1])
    return out


def _api_kwargs(func: str, args: list[str]) -> dict:
    """The keyword arguments of ``func`` for the command-line arguments ``args``."""
    words = list(args[1:])
    positional, options, flags = [], {}, set()
    takes_value = {"-b", "--board", "-d", "--dead", "-g", "--game", "--die", "--trials", "--precision", "--seed",
                   "--threads", "-f", "--format", "--table-style", "--above", "--stacks", "--committed", "--folded",
                   "--pot", "--by", "--bins", "--vs", "--plot"}
    names = {"-b": "--board", "-d": "--dead", "-g": "--game", "-f": "--format"}
    while words:
        word = words.pop(0)
        if word in takes_value:
            options[names.get(word, word)] = words.pop(0)
        elif word.startswith("-") and word != "-":
            flags.add(word)
        else:
            positional.append(word)
    kwargs: dict = {}
    if func == "equity_distribution":
        kwargs["hand"], kwargs["opponent"] = positional[:2]
    elif func == "range_composition":
        kwargs["expression"] = positional[0]
    else:
        kwargs["hands"] = positional
    for option, key in (("--board", "board"), ("--dead", "dead"), ("--game", "game")):
        if option in options:
            kwargs[key] = options[option]
    if kwargs.get("board") == "-":
        kwargs["board"] = ""
    for option, key, kind in (("--die", "die", int), ("--trials", "trials", int), ("--precision", "precision", float),
                              ("--seed", "seed", int), ("--threads", "threads", int), ("--above", "above", float),
                              ("--bins", "bin_count", int), ("--pot", "pot", int)):
        if option in options and (key != "above" or func == "next_card_equity") and \
                (key != "bin_count" or func == "equity_distribution") and (key != "pot" or func == "calculate_allin"):
            kwargs[key] = kind(options[option])
    if func == "range_composition":
        for key in ("threads", "precision"):
            kwargs.pop(key, None)
        if "--vs" in options:
            kwargs["vs"] = options["--vs"]
    if func == "equity_distribution":
        kwargs.pop("precision", None)
        if "--by" in options:
            kwargs["by"] = options["--by"]
    if "--exact" in flags:
        kwargs["method"] = "exact"
    elif "--mc" in flags:
        kwargs["method"] = "monte-carlo"
    if func == "calculate_allin":
        chips = [int(c) for c in (options.get("--stacks") or options.get("--committed")).split(",")]
        if "--stacks" in options:  # everyone all in: the biggest stack capped at the next biggest
            cap = sorted(chips)[-2]
            chips = [min(c, cap) for c in chips]
        kwargs["committed"] = chips
        if "--folded" in options:
            kwargs["folded"] = [int(c) for c in options["--folded"].split(",")]
    return kwargs


GENERATORS = {"calc": gen_calc, "allin": gen_allin, "streets": gen_streets, "next-card": gen_next_card,
              "distribution": gen_distribution, "hits": gen_hits, "batch": gen_batch, "errors": gen_errors,
              "misc": gen_misc, "api": gen_api}


def generate(count: int, seed: int, kinds=KINDS) -> list[dict]:
    queries = []
    for kind in kinds:
        g = Gen(random.Random(f"ab-compare:{seed}:{kind}"))
        for i in range(count):
            query = GENERATORS[kind](g, i)
            query = {"id": f"{kind}-{i}", **query}
            queries.append(query)
    return queries


# ---------------------------------------------------------------------------------------------
# running and normalising


_CACHE_NOTICE = re.compile(r"^omaha-equity: .*\n?", re.M)
_PROGRESS = re.compile(r"^progress: \d+% of .*\n?", re.M)
_BATCH_TIME = re.compile(r"rows in \d+(?:\.\d+)? s")


class Normaliser:
    def __init__(self, tmp: str):
        self.paths = sorted({tmp, os.path.realpath(tmp)}, key=len, reverse=True)

    def text(self, text):
        if text is None:
            return None
        for path in self.paths:
            text = text.replace(path, "{TMP}")
        return text

    def stderr(self, text):
        text = self.text(text) or ""
        text = _CACHE_NOTICE.sub("", text)
        text = _PROGRESS.sub("", text)
        return _BATCH_TIME.sub("rows in <T> s", text)


def _substitute(args, tmp: str):
    return [a.replace("{TMP}", tmp) for a in args]


def _load_main():
    try:
        from omaha_equity.cli import main
    except ImportError:
        from omaha_equity.cli import app as main
    return main


def _runner():
    from click.testing import CliRunner

    try:
        return CliRunner(mix_stderr=False)  # click < 8.2
    except TypeError:
        return CliRunner()


def run_cli(query: dict, main, runner, tmp: str, norm: Normaliser) -> dict:
    for name, text in (query.get("inputs") or {}).items():
        with open(os.path.join(tmp, name), "w", encoding="utf-8", newline="") as file:
            file.write(text)
    stdin = query.get("stdin")
    result = runner.invoke(main, _substitute(query["args"], tmp), input=stdin, catch_exceptions=True,
                           env={"COLUMNS": "80"})
    record = {"id": query["id"], "kind": query["kind"], "args": query["args"], "exit_code": result.exit_code,
              "output": norm.text(result.stdout), "stderr": norm.stderr(result.stderr)}
    if stdin is not None:
        record["stdin"] = stdin
    if query.get("inputs"):
        record["inputs"] = query["inputs"]
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        record["exception"] = norm.text(f"{type(result.exception).__name__}: {result.exception}")
    files = {}
    for name in query.get("files") or []:
        path = os.path.join(tmp, name)
        try:
            with open(path, encoding="utf-8", newline="") as file:
                files[name] = norm.text(file.read())
        except FileNotFoundError:
            files[name] = None
        except UnicodeDecodeError:
            with open(path, "rb") as file:
                files[name] = file.read().hex()
    if files:
        record["files"] = files
    return record


def to_jsonable(value, depth=0):
    """A result as plain JSON: dataclass fields by name (with the class name), fractions as
    ``"n/d"``, floats by ``repr`` (so that ``nan`` and ``-0.0`` survive), numpy values as lists."""
    if depth > 40:
        return repr(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"__class__": type(value).__name__,
                **{f.name: to_jsonable(getattr(value, f.name), depth + 1) for f in dataclasses.fields(value)}}
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value if not isinstance(value, enum.Enum) else repr(value)
    if isinstance(value, float):
        return f"float:{value!r}"
    if isinstance(value, fractions.Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, enum.Enum):
        return repr(value)
    if isinstance(value, dict):
        return {str(k): to_jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v, depth + 1) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((to_jsonable(v, depth + 1) for v in value), key=repr)
    module = type(value).__module__
    if module == "numpy" or module.startswith("numpy."):
        if hasattr(value, "tolist"):
            return {"numpy": str(getattr(value, "dtype", "")), "value": to_jsonable(value.tolist(), depth + 1)}
    return repr(value)


def run_api(query: dict, norm: Normaliser) -> dict:
    import omaha_equity

    spec = query["args"]
    func = spec["func"]
    record = {"id": query["id"], "kind": query["kind"], "args": spec}
    try:  # a function that cannot be found is recorded as the difference it is
        if func == "range_composition":
            from omaha_equity.studies import range_composition as function
        else:
            function = getattr(omaha_equity, func)
        result = function(*spec["args"], **spec["kwargs"])
    except Exception as error:  # noqa: BLE001 - recorded, compared
        record.update(exit_code=1, output="", stderr="",
                      exception=norm.text(f"{type(error).__name__}: {error}"))
        return record
    record.update(exit_code=0, output=norm.text(json.dumps(to_jsonable(result), ensure_ascii=False)), stderr="",
                  repr=norm.text(repr(result)))
    return record


def capture(out_path: str, count: int, seed: int, kinds) -> int:
    queries = generate(count, seed, kinds)
    tmp = tempfile.mkdtemp(prefix="ab_compare_")
    norm = Normaliser(tmp)
    os.makedirs(os.path.join(tmp, "hh"))
    for name, text in HAND_HISTORIES.items():
        with open(os.path.join(tmp, "hh", name), "w", encoding="utf-8") as file:
            file.write(text)
    cwd = os.getcwd()
    started = time.perf_counter()
    main = _load_main()
    runner = _runner()
    # Load the kernels first (the first query of the run would otherwise carry the cost).
    warm = time.perf_counter()
    runner.invoke(main, ["calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s"])
    print(f"ab_compare: kernels loaded in {time.perf_counter() - warm:.1f} s", file=sys.stderr)
    by_kind_time: dict[str, float] = defaultdict(float)
    slowest: list[tuple[float, str, object]] = []
    ok: Counter = Counter()
    total: Counter = Counter()
    os.chdir(tmp)  # relative names (plots, a stray output) land in the temporary folder
    try:
        with open(out_path, "w", encoding="utf-8") as out:
            for query in queries:
                t0 = time.perf_counter()
                if query["kind"] == "api":
                    record = run_api(query, norm)
                else:
                    record = run_cli(query, main, runner, tmp, norm)
                took = time.perf_counter() - t0
                by_kind_time[query["kind"]] += took
                slowest.append((took, query["id"], query["args"]))
                total[query["kind"]] += 1
                ok[query["kind"]] += record["exit_code"] == 0
                out.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
    finally:
        os.chdir(cwd)
        shutil.rmtree(tmp, ignore_errors=True)
    elapsed = time.perf_counter() - started
    print(f"ab_compare: {len(queries)} queries in {elapsed:.1f} s -> {out_path}", file=sys.stderr)
    for kind in kinds:
        print(f"  {kind:13} {total[kind]:4} queries, {ok[kind]:4} exit 0, {by_kind_time[kind]:6.1f} s",
              file=sys.stderr)
    slowest.sort(key=lambda item: -item[0])
    print("  slowest:", file=sys.stderr)
    for took, query_id, args in slowest[:8]:
        print(f"    {took:5.2f} s  {query_id}  {json.dumps(args)[:160]}", file=sys.stderr)
    return 0


# ---------------------------------------------------------------------------------------------
# comparing


def _load(path: str) -> dict:
    records = {}
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            if line.strip():
                record = json.loads(line)
                records[record.get("id") or f"line-{number}"] = record
    return records


def _lines(value) -> list[str]:
    if isinstance(value, str):
        return value.splitlines()
    return json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False).splitlines()


def compare(path_a: str, path_b: str, context: int = 12, common: bool = False) -> int:
    a, b = _load(path_a), _load(path_b)
    ids = list(a) + [i for i in b if i not in a]
    if common:  # a smaller capture (a lower --count: the same first queries of each kind) against a full one
        skipped = len(ids)
        ids = [i for i in ids if i in a and i in b]
        print(f"--common: {skipped - len(ids)} queries in only one of the files left out")
    differing = 0
    per_kind: Counter = Counter()
    per_kind_diff: Counter = Counter()
    for query_id in ids:
        ra, rb = a.get(query_id), b.get(query_id)
        kind = (ra or rb).get("kind")
        per_kind[kind] += 1
        if ra is None or rb is None:
            differing += 1
            per_kind_diff[kind] += 1
            only_in = path_a if rb is None else path_b
            print(f"=== {query_id} [{kind}] only in {only_in}: {json.dumps((ra or rb)['args'])}")
            continue
        keys = [k for k in dict.fromkeys(list(ra) + list(rb)) if k not in ("id", "kind")]
        diffs = [k for k in keys if ra.get(k) != rb.get(k)]
        if not diffs:
            continue
        differing += 1
        per_kind_diff[kind] += 1
        print(f"=== {query_id} [{kind}] {json.dumps(ra['args'], ensure_ascii=False)}")
        fields = []
        for key in diffs:
            va, vb = ra.get(key), rb.get(key)
            if isinstance(va, dict) and isinstance(vb, dict) and key in ("files", "inputs"):  # each file on its own
                fields += [(f"{key}[{name}]", va.get(name), vb.get(name))
                           for name in dict.fromkeys(list(va) + list(vb)) if va.get(name) != vb.get(name)]
            else:
                fields.append((key, va, vb))
        for key, va, vb in fields:
            if not isinstance(va, (str, dict, list)) or not isinstance(vb, (str, dict, list)):
                print(f"  {key}: {va!r} != {vb!r}")
                continue
            diff = list(difflib.unified_diff(_lines(va), _lines(vb), "A", "B", n=1, lineterm=""))
            print(f"  {key}:")
            for line in diff[2:2 + context]:
                print(f"    {line[:300]}")
            if len(diff) > 2 + context:
                print(f"    ... ({len(diff) - 2 - context} more diff lines)")
    by_kind = f" ({', '.join(f'{k} {n}' for k, n in per_kind_diff.items())})" if differing else ""
    print(f"compared {len(ids)} queries ({', '.join(f'{k} {n}' for k, n in per_kind.items())}): "
          f"{differing} differ" + by_kind)
    return 1 if differing else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    cap = sub.add_parser("capture", help="run the queries, write one JSON line each")
    cap.add_argument("out", metavar="OUT.jsonl")
    cap.add_argument("--count", type=int, default=200, help="queries of each kind (default 200)")
    cap.add_argument("--seed", type=int, default=1, help="the generator's seed (default 1)")
    cap.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated subset of {','.join(KINDS)}")
    cmp = sub.add_parser("compare", help="compare two captures; exit 1 on any difference")
    cmp.add_argument("a", metavar="A.jsonl")
    cmp.add_argument("b", metavar="B.jsonl")
    cmp.add_argument("--context", type=int, default=12, help="diff lines shown per field (default 12)")
    cmp.add_argument("--common", action="store_true",
                     help="compare only the queries in both files (e.g. a --count 20 capture against a full one)")
    options = parser.parse_args(argv)
    if options.command == "capture":
        kinds = [k for k in options.kinds.split(",") if k]
        unknown = [k for k in kinds if k not in KINDS]
        if unknown:
            parser.error(f"unknown kinds: {', '.join(unknown)}")
        return capture(os.path.abspath(options.out), options.count, options.seed, kinds)
    return compare(options.a, options.b, options.context, options.common)


if __name__ == "__main__":
    sys.exit(main())
