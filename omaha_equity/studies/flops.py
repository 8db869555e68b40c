"""``flops``: a range on every flop (or every flop of a board range), by category, and with
``vs`` its equity, one row per suit-isomorphic flop class or per texture (docs/flops.md).

A query is the same on two flops that a renaming of the suits maps onto each other, as long as
the renaming keeps every suit the query writes (in the range, in ``vs`` when it is a range, in
the dead cards). So the flops of the board range are split into orbits of that group of
renamings (``boards.orbits``: the 1,755 classes when no suit is written), each orbit runs once,
on one of its flops, and counts as many times as it has flops. A hand for ``vs`` is the one
exception that costs nothing: an orbit's flops with the hand are its one flop with each renamed
copy of the hand, so ``vs`` becomes the list of those copies on that flop.

The shares are of the range's weight on the flops (less the board and dead cards; ``vs``'s cards
are not removed from the shares). A class's or texture's share pools its flops: hand
combinations (and weights) summed over every concrete flop, divided by the range's. Equity is
the range's against ``vs`` over every deal whose flop is in the row, each orbit weighted by its
deals (against a hand: its flops that the hand leaves, each by the range's weight that the flop
and the hand leave; against a range: its flops times the range's weight on each): exact per flop
where that is cheap, else Monte Carlo (``FLOP_DEFAULT_TRIALS`` deals a flop) with its standard
error.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..boards import Orbit, all_flops, orbits, parse_board_range, suit_group
from ..boards.flops import flop_keys
from ..boards.texture import TEXTURE_GROUPS, texture_groups
from ..cards import format_cards, parse_cards
from ..categories import categorize_hands, names
from ..categories.filters import terms_mask
from ..deal import CardsLike, parse_board_and_dead
from ..equity import plan
from ..equity.calculate import run_equity
from ..equity.query import RunOptions, seat_cards
from ..errors import InputError, quoted
from ..games import Game, get_game
from ..ranges import is_specific_hand, parse_range
from ..ranges.syntax import CardSpec, parse_expression
from ..validate import MAX_SEED
from .hits import MADE_SECTION, NUT_ROWS, NUT_SECTION, LOW_SECTION, check_range_text

# Monte Carlo deals per flop when trials are not given (standard error about half a point a
# flop; a texture or the whole board range pools hundreds of flops).
FLOP_DEFAULT_TRIALS = 10_000
# Exact per flop when it costs at most this many player-boards (a tenth of a second or so).
FLOP_EXACT_WORK = 5_000_000
BY_CHOICES = ("flop", "texture")
FILTER_SECTION = "filter"
TOTAL_LABEL = "all flops"

# Made-hand groups that fit a terminal table or a heat map's columns: (header, categories).
MADE_HAND_GROUPS = (
    ("straight+", ("straight-flush", "quads", "full-house", "flush", "straight")),
    ("set/trips", ("set", "trips")),
    ("two pair", ("top-two", "top-and-bottom", "bottom-two", "board-pair-plus-pair")),
    ("overpair", ("overpair",)),
    ("top pair", ("top-pair-top-kicker", "top-pair-weak-kicker")),
    ("weaker pair", ("second-pair", "underpair", "low-pair")),
    ("nothing", ("nothing",)),
)

ProgressCallback = Callable[[int, int], None]


@dataclass(frozen=True)
class OrbitSums:
    """What one orbit of a flop study adds up, summed over its concrete flops (times its flops).

    Attributes
    ----------
    flops : int
        Concrete flops of the orbit (in the board range).
    texture : str
        The texture group of its flops.
    total_count : int
        Hand combinations of the range, summed over the flops.
    total_weight : float
        The range's weight, summed over the flops.
    counts, weights : tuple
        Per column of the study: hand combinations (int) and weights (float) in it.
    equity_sum, equity_weight, variance_sum : float
        With ``vs``: the equity times its weight (the deals the orbit weighs), the weight, and the
        squared weighted standard error (zeros without ``vs``, or with no deal).
    method : str or None
        ``"exact"`` or ``"monte-carlo"``: how the orbit's equity ran (None: it did not).
    """

    flops: int
    texture: str
    total_count: int
    total_weight: float
    counts: tuple[int, ...]
    weights: tuple[float, ...]
    equity_sum: float = 0.0
    equity_weight: float = 0.0
    variance_sum: float = 0.0
    method: str | None = None


@dataclass(frozen=True)
class FlopRow:
    """One flop class, one texture, or the whole board range.

    Attributes
    ----------
    label : str
        The class's canonical flop (``AsKsQh``), the texture (``two-tone, paired``) or
        ``"all flops"``.
    texture : str
        The texture group of a class's flops (``""`` for texture and total rows).
    flops : int
        Concrete flops of the board range in the row (a class's weight when all are in).
    classes : int
        Flop classes in the row (1 for a class).
    combinations : int
        Hand combinations of the range summed over the row's concrete flops.
    counts : tuple of int
        Per column (``FlopStudy.columns``): hand combinations in it, summed over the flops.
    shares : tuple of float
        Per column: its share of the range's weight on the row's flops, 0..1.
    equity, standard_error : float or None
        With ``vs``: the range's equity against it (0..1) and its standard error (0.0 when every
        flop was enumerated exactly).
    """

    label: str
    texture: str
    flops: int
    classes: int
    combinations: int
    counts: tuple[int, ...]
    shares: tuple[float, ...]
    equity: float | None = None
    standard_error: float | None = None


@dataclass(frozen=True)
class FlopStudy:
    """A range across the flops of a board range.

    Attributes
    ----------
    game : Game
    expression : str
        The range as written.
    vs : str or None
        The other player's hand or range.
    board_range : str
        The board range (``*``: every flop).
    dead : str
    filter : str or None
        The ``--filter`` terms (``{set+}``): their share is the last column.
    by : str
        ``"flop"`` (a row per class) or ``"texture"``.
    columns : tuple of (str, str)
        (section, name) per column: the made hands, the nut status, the lows (hi/lo), the filter.
    rows : tuple of FlopRow
    total : FlopRow
        The whole board range.
    method : str or None
        With ``vs``: ``"exact"`` when every flop was enumerated, else ``"monte-carlo"``.
    seed : int or None
        The Monte Carlo seed of the first flop (flop ``i`` of the run uses ``seed + i``).
    trials : int or None
        Monte Carlo deals a flop.
    orbits : int
        Flops run (one per orbit of the suit renamings the query keeps).
    """

    game: Game
    expression: str
    vs: str | None
    board_range: str
    dead: str
    filter: str | None
    by: str
    columns: tuple[tuple[str, str], ...]
    rows: tuple[FlopRow, ...]
    total: FlopRow
    method: str | None
    seed: int | None
    trials: int | None
    orbits: int


def study_columns(game: Game, filter_text: str | None) -> tuple[tuple[str, str], ...]:
    """The columns of a study: (section, name) of each made hand, nut bucket, low class (hi/lo)
    and the filter."""
    columns = [(MADE_SECTION, name) for name in names.MADE_HANDS]
    columns += [(NUT_SECTION, row[0]) for row in NUT_ROWS]
    if game.hilo:
        columns += [(LOW_SECTION, name) for name in names.LOW_CLASSES]
    if filter_text is not None:
        columns.append((FILTER_SECTION, filter_text))
    return tuple(columns)


def parse_filter(text: str) -> tuple[str, ...]:
    """The terms of ``{set+, nfd}`` (a hand in any of them passes), checked.

    Raises
    ------
    InputError
        Not a ``{...}`` filter, or an unknown category (named).
    """
    stripped = text.strip() if isinstance(text, str) else ""
    if not (stripped.startswith("{") and stripped.endswith("}")) or not stripped[1:-1].strip():
        raise InputError(f"bad filter {quoted(text)}: expected categories in braces, such as '{{set+}}' or "
                         "'{two-pair+, nfd}'")
    terms = tuple(term.strip() for term in stripped[1:-1].split(","))
    for term in terms:
        names.parse_term(term)
    return terms


def written_suits(expression: str) -> set[int]:
    """The suits a range expression writes (``As**`` writes spades; a list ``[As,Kh]`` writes
    each suit it holds unless it holds every suit of its ranks): the renamings that keep them
    keep the range."""
    suits: set[int] = set()

    def visit(node) -> None:
        if isinstance(node, CardSpec):
            if node.suit >= 0:
                suits.add(node.suit)
            for rank in range(13):
                bits = (node.card_mask >> (4 * rank)) & 0xF
                if bits not in (0, 0xF):
                    suits.update(suit for suit in range(4) if bits >> suit & 1)
            return
        if dataclasses.is_dataclass(node):
            for field in dataclasses.fields(node):
                visit(getattr(node, field.name))
        elif isinstance(node, (list, tuple)):
            for item in node:
                visit(item)

    visit(parse_expression(expression))
    return suits


class FlopRun:
    """A flop study prepared: its inputs checked, its flops split into the orbits it runs; then
    run orbit by orbit (:meth:`run_orbit`, in any order, each on its own) and summed up
    (:meth:`study`). :func:`flop_study` runs it whole; ``flops -o FILE`` keeps each orbit's sums in
    a file as it goes, so that a stopped run goes on where it stopped (:mod:`.flops_file`).

    The parameters are those of :func:`flop_study`.

    Attributes
    ----------
    seed : int or None
        With ``vs`` and Monte Carlo possible: the seed of orbit 0 (orbit ``i`` uses ``seed + i``),
        drawn when the options give none; a resumed run sets the one its file holds.
    given_seed : int or None
        The options' seed (None: drawn).
    orbit_count : int
        Orbits to run.

    Raises
    ------
    InputError
        As :func:`flop_study`, before anything runs (but a range with no hand on any flop, which
        only the whole run can tell).
    """

    def __init__(self, expression: str, game: str | Game = "omaha", *, vs: str | None = None,
                 board_range: str = "*", dead: CardsLike = "", die: int | None = None, filter: str | None = None,
                 by: str = "flop", options: RunOptions | None = None) -> None:
        check_range_text(expression)
        if by not in BY_CHOICES:
            raise InputError(f"unknown grouping {quoted(by)}: expected one of {', '.join(BY_CHOICES)}")
        self.game = game = get_game(game, die)
        self.options = options = options or RunOptions()
        _, dead_cards = parse_board_and_dead("", dead or "")
        board_set = parse_board_range(board_range)
        self.filter_terms = parse_filter(filter) if filter is not None else None
        fixed = written_suits(expression) | {card & 3 for card in dead_cards}
        vs_hand: tuple[int, ...] = ()
        if vs is not None:
            if not isinstance(vs, str) or not vs.strip():
                raise InputError(f"expected a hand or range for vs, got {quoted(vs)}")
            if is_specific_hand(vs, game):
                vs_hand = parse_cards(vs)
            else:
                fixed |= written_suits(vs)
        # flops holding a dead card are not dealt
        flop_indexes = board_set.flop_indexes
        if dead_cards:
            flops = board_set.flops
            flop_indexes = flop_indexes[~np.isin(flops, dead_cards).any(axis=1)]
        if flop_indexes.size == 0:
            raise InputError(f"no flop of board range {quoted(board_set.text)} is possible with dead cards "
                             f"{format_cards(dead_cards)}")
        self.expression, self.vs, self.vs_hand, self.by = expression, vs, vs_hand, by
        self.board_set, self.dead_cards = board_set, dead_cards
        self.filter_text = filter.strip() if filter is not None else None
        self.group = suit_group(fixed)
        self.orbits = orbits(flop_indexes, self.group)
        self.orbit_count = len(self.orbits)
        self.columns = study_columns(game, self.filter_text)
        self.base_range = self.base_bits = None
        if "{" not in expression:  # no category filter: the range is the same on every flop
            self.base_range = parse_range(expression, game, excluded=dead_cards,
                                          excluded_reason="the dead cards " + format_cards(dead_cards))
            self.base_bits = _card_bits(self.base_range.hands)
        self.given_seed = options.seed
        self.seed = None
        if vs is not None and options.method != plan.Method.EXACT:
            self.seed = plan.draw_seed() if options.seed is None else options.seed
        self.trials = options.trials or FLOP_DEFAULT_TRIALS

    def identity(self) -> dict:
        """What the orbits' sums depend on, as JSON-ready values: two runs with the same identity
        give the same sums, orbit for orbit (the grouping ``by``, the thread count and, when none
        was given, the drawn seed are not part of it)."""
        options = self.options
        return {"game": self.game.name, "range": self.expression.strip(), "vs": self.vs.strip() if self.vs else None,
                "board_range": self.board_set.text, "dead": format_cards(self.dead_cards, sort=True),
                "filter": self.filter_text, "method": options.method.value, "trials": options.trials,
                "seed": self.given_seed, "orbits": self.orbit_count}

    def run_orbit(self, number: int) -> OrbitSums:
        """The sums of orbit ``number`` (0 .. ``orbit_count`` - 1)."""
        orbit = self.orbits[number]
        tally = _orbit_tally(self.expression, self.base_range, self.base_bits, orbit, self.dead_cards, self.game,
                             self.columns, self.filter_terms, keep_hands=bool(self.vs_hand))
        method = None
        if self.vs is not None and tally.total_count:
            orbit_seed = None if self.seed is None else (self.seed + number) % (MAX_SEED + 1)
            method = _add_equity(tally, self.expression, self.vs, self.vs_hand, self.group, orbit, self.dead_cards,
                                 self.game, self.options, self.trials, orbit_seed)
        return tally.sums(method)

    def study(self, sums: Sequence[OrbitSums]) -> FlopStudy:
        """The study from every orbit's sums, in orbit order.

        Raises
        ------
        InputError
            The range has no hand on any flop.
        """
        if len(sums) != self.orbit_count:
            raise ValueError(f"expected the sums of {self.orbit_count} orbits, got {len(sums)}")
        tallies = [(orbit, _Tally.from_sums(one, len(self.columns))) for orbit, one in zip(self.orbits, sums)]
        if not any(tally.total_count for _, tally in tallies):
            raise InputError(f"no hand of range {quoted(self.expression.strip())} is possible on any flop of "
                             f"{quoted(self.board_set.text)}")
        rows = _rows(tallies, self.by, len(self.columns))
        total = _Tally.merged([tally for _, tally in tallies], len(self.columns)).row(TOTAL_LABEL, "", len(tallies))
        method = None
        methods = {one.method for one in sums if one.method is not None}
        if self.vs is not None:
            method = plan.Method.MONTE_CARLO.value if plan.Method.MONTE_CARLO.value in methods \
                else plan.Method.EXACT.value
        monte_carlo = method == plan.Method.MONTE_CARLO.value
        return FlopStudy(game=self.game, expression=self.expression.strip(), vs=self.vs.strip() if self.vs else None,
                         board_range=self.board_set.text, dead=format_cards(self.dead_cards, sort=True),
                         filter=self.filter_text, by=self.by, columns=self.columns, rows=tuple(rows),
                         total=dataclasses.replace(total, classes=len(_class_ids(tallies))), method=method,
                         seed=self.seed if monte_carlo else None, trials=self.trials if monte_carlo else None,
                         orbits=self.orbit_count)


def flop_study(
    expression: str,
    game: str | Game = "omaha",
    *,
    vs: str | None = None,
    board_range: str = "*",
    dead: CardsLike = "",
    die: int | None = None,
    filter: str | None = None,
    by: str = "flop",
    options: RunOptions | None = None,
    progress: ProgressCallback | None = None,
) -> FlopStudy:
    """``expression`` on every flop of ``board_range``: its share in each category, and with
    ``vs`` its equity, per flop class (``by="flop"``) or texture (``by="texture"``).

    Parameters
    ----------
    expression : str
        A hand range (``"15%"``, ``"AA:$ds"``).
    game, die : as in :func:`~omaha_equity.calculate_equity`.
    vs : str, optional
        The other player: a hand or a range.
    board_range : str
        The flops (``"*"``, ``"AK*"``, ``"$mono"``: :func:`~omaha_equity.boards.parse_board_range`).
    dead : str
        Dead cards (removed from the range, the flops and ``vs``).
    filter : str, optional
        Category terms in braces (``"{set+}"``): their share becomes the last column.
    by : str
        ``"flop"`` or ``"texture"``.
    options : RunOptions, optional
        With ``vs``: method (``auto`` runs a flop exactly when it costs at most
        ``FLOP_EXACT_WORK`` player-boards), trials a flop (default ``FLOP_DEFAULT_TRIALS``), seed.
    progress : callable, optional
        ``progress(done, total)`` after each flop run.

    Returns
    -------
    FlopStudy

    Raises
    ------
    InputError
        A bad range, ``vs``, board range, dead cards, filter or ``by``; a range with no hand on
        any flop.
    """
    run = FlopRun(expression, game, vs=vs, board_range=board_range, dead=dead, die=die, filter=filter, by=by,
                  options=options)
    sums = []
    for number in range(run.orbit_count):
        sums.append(run.run_orbit(number))
        if progress is not None:
            progress(number + 1, run.orbit_count)
    return run.study(sums)


def _class_ids(tallies):
    return {orbit.flop_class for orbit, _ in tallies}


class _Tally:
    """What one orbit (or a merge of them) adds up: hand combinations and weights per column,
    summed over its concrete flops, and the weighted equity sums."""

    def __init__(self, column_count: int) -> None:
        self.counts = np.zeros(column_count, dtype=np.int64)
        self.weights = np.zeros(column_count, dtype=np.float64)
        self.total_count = 0
        self.total_weight = 0.0
        self.flops = 0
        self.equity_sum = 0.0
        self.equity_weight = 0.0
        self.variance_sum = 0.0
        self.texture = ""
        # the orbit's range hands as 52-bit card masks, and their weights (``_add_equity``)
        self.hand_bits: np.ndarray | None = None
        self.hand_weights: np.ndarray | None = None

    def sums(self, method: str | None) -> OrbitSums:
        return OrbitSums(flops=int(self.flops), texture=self.texture, total_count=int(self.total_count),
                         total_weight=float(self.total_weight), counts=tuple(int(count) for count in self.counts),
                         weights=tuple(float(weight) for weight in self.weights), equity_sum=float(self.equity_sum),
                         equity_weight=float(self.equity_weight), variance_sum=float(self.variance_sum),
                         method=method)

    @classmethod
    def from_sums(cls, sums: OrbitSums, column_count: int) -> _Tally:
        tally = cls(column_count)
        tally.counts[:] = sums.counts
        tally.weights[:] = sums.weights
        tally.total_count, tally.total_weight, tally.flops = sums.total_count, sums.total_weight, sums.flops
        tally.equity_sum, tally.equity_weight, tally.variance_sum = sums.equity_sum, sums.equity_weight, \
            sums.variance_sum
        tally.texture = sums.texture
        return tally

    @classmethod
    def merged(cls, tallies, column_count: int) -> _Tally:
        merged = cls(column_count)
        for tally in tallies:
            merged.counts += tally.counts
            merged.weights += tally.weights
            merged.total_count += tally.total_count
            merged.total_weight += tally.total_weight
            merged.flops += tally.flops
            merged.equity_sum += tally.equity_sum
            merged.equity_weight += tally.equity_weight
            merged.variance_sum += tally.variance_sum
        return merged

    def row(self, label: str, texture: str, classes: int) -> FlopRow:
        shares = self.weights / self.total_weight if self.total_weight else np.zeros_like(self.weights)
        equity = standard_error = None
        if self.equity_weight:
            equity = self.equity_sum / self.equity_weight
            standard_error = float(np.sqrt(self.variance_sum)) / self.equity_weight
        return FlopRow(label=label, texture=texture, flops=self.flops, classes=classes,
                       combinations=int(self.total_count), counts=tuple(int(count) for count in self.counts),
                       shares=tuple(float(share) for share in shares), equity=equity, standard_error=standard_error)


def _card_bits(hands: np.ndarray) -> np.ndarray:
    """(n,) uint64: each hand's cards as a 52-bit mask."""
    return np.bitwise_or.reduce(np.left_shift(np.uint64(1), hands.astype(np.uint64)), axis=1)


def _orbit_tally(expression, base_range, base_bits, orbit: Orbit, dead_cards, game: Game, columns, filter_terms,
                 keep_hands: bool = False) -> _Tally:
    """The range on the orbit's flop, categorized, counted per column and times the orbit's flops."""
    flop = orbit.cards
    if base_range is None:
        try:
            hand_range = parse_range(expression, game, excluded=dead_cards, board=flop)
        except InputError as error:
            if str(error).startswith("no hand in range"):  # none on this flop: it counts nothing
                return _Tally(len(columns))
            raise
    else:
        hand_range = base_range
    flop_bits = np.uint64(sum(1 << card for card in flop))
    hand_bits = base_bits if base_range is not None else _card_bits(hand_range.hands)
    keep = (hand_bits & flop_bits) == 0
    hands, weights = hand_range.hands[keep], hand_range.weights[keep]
    tally = _Tally(len(columns))
    tally.flops = orbit.weight
    tally.texture = texture_groups(np.array([flop]))[0]
    if hands.shape[0] == 0:
        return tally
    # the draws are counted only for a filter's terms: the columns need made hands, nuts and lows
    fields = categorize_hands(hands, flop, game.hilo, draws=filter_terms is not None)
    made = len(names.MADE_HANDS)
    cells = [(fields[:, names.MADE].astype(np.int64), 0, made),
             (np.minimum(fields[:, names.BEATEN], 2).astype(np.int64), made, len(NUT_ROWS))]
    if game.hilo:
        cells.append((np.maximum(fields[:, names.LOW], 0).astype(np.int64), made + len(NUT_ROWS),
                      len(names.LOW_CLASSES)))
    for cell, first, size in cells:
        tally.counts[first:first + size] = np.bincount(cell, minlength=size)[:size]
        tally.weights[first:first + size] = np.bincount(cell, weights=weights, minlength=size)[:size]
    if filter_terms is not None:
        selected = terms_mask(fields, filter_terms)
        tally.counts[-1] = int(selected.sum())
        tally.weights[-1] = float(weights[selected].sum())
    tally.total_count = hands.shape[0]
    tally.total_weight = float(weights.sum())
    if keep_hands:
        tally.hand_bits = hand_bits[keep]
        tally.hand_weights = weights
    tally.counts *= orbit.weight
    tally.weights *= orbit.weight
    tally.total_count *= orbit.weight
    tally.total_weight *= orbit.weight
    return tally


def _add_equity(tally: _Tally, expression, vs, vs_hand, group, orbit: Orbit, dead_cards, game: Game,
                options: RunOptions, trials: int, seed) -> str | None:
    """The range's equity against ``vs`` on the orbit's flop, added to the tally weighted by the
    orbit's flops times the range's weight (a hand for ``vs``: every renamed copy of it); returns
    the method it ran with (None: no deal on this flop)."""
    flop = orbit.cards
    opponent = vs
    share_dealt = 1.0
    if vs_hand:
        # a renaming s maps the flop onto a member M: the hand on M is the hand renamed back
        # (s^-1) on the flop. Each member is reached equally often, so the copies, counted
        # with their multiplicity, weigh every member of the orbit (in the board range) alike.
        known = set(flop) | set(dead_cards)
        members = set(flop_keys(all_flops()[orbit.flop_indexes]).tolist())
        copies: Counter = Counter()
        reached = 0
        for renaming in group:
            image = flop_keys(np.array([[(card >> 2) * 4 + int(renaming[card & 3]) for card in flop]]))[0]
            if int(image) not in members:
                continue
            reached += 1
            back = np.argsort(renaming)  # the inverse renaming
            copy = tuple(sorted(((card >> 2) * 4 + int(back[card & 3]) for card in vs_hand), reverse=True))
            if not known & set(copy):
                copies[copy] += 1
        if not copies:
            return None  # the hand meets every flop of the orbit: no deal
        # the orbit weighs its deals: for each flop, the range's hands that the hand leaves
        # (a flop that holds a card of the hand is never dealt with it)
        dealt_weight = 0.0
        for copy, count in copies.items():
            copy_bits = np.uint64(sum(1 << card for card in copy))
            dealt_weight += count * float(tally.hand_weights[(tally.hand_bits & copy_bits) == 0].sum())
        share_dealt = dealt_weight / reached / tally.total_weight * orbit.weight
        same = len(set(copies.values())) == 1
        opponent = ", ".join(format_cards(copy) + ("" if same else f"@{count}")
                             for copy, count in sorted(copies.items()))
    try:
        seated = seat_cards([expression, opponent], flop, dead_cards, game)
    except InputError as error:
        if "no hand" in str(error) or "no deal" in str(error) or "leave" in str(error):
            return None  # no deal on this flop
        raise
    method = options.method
    if method == plan.Method.AUTO:
        method = plan.Method.EXACT if seated.exact_work <= FLOP_EXACT_WORK and options.trials is None else \
            plan.Method.MONTE_CARLO
    run = RunOptions.checked(method.value, trials=None if method == plan.Method.EXACT else trials,
                             seed=None if method == plan.Method.EXACT else seed, threads=options.threads)
    result = run_equity(seated, run)
    player = result.players[0]
    weight = tally.total_weight * share_dealt
    tally.equity_sum += weight * player.equity
    tally.equity_weight += weight
    tally.variance_sum += (weight * (player.standard_error or 0.0)) ** 2
    return plan.Method(result.method).value


def _rows(tallies, by: str, column_count: int) -> list[FlopRow]:
    if by == "texture":
        rows = []
        for texture in TEXTURE_GROUPS:
            members = [(orbit, tally) for orbit, tally in tallies if tally.texture == texture]
            if members:
                merged = _Tally.merged([tally for _, tally in members], column_count)
                rows.append(merged.row(texture, "", len(_class_ids(members))))
        return rows
    by_class: dict[int, list] = {}
    for orbit, tally in tallies:
        by_class.setdefault(orbit.flop_class, []).append((orbit, tally))
    from ..boards import flop_classes

    classes = flop_classes()
    rows = []
    for index in sorted(by_class):
        members = by_class[index]
        merged = _Tally.merged([tally for _, tally in members], column_count)
        rows.append(merged.row(classes[index].text, members[0][1].texture, 1))
    return rows
