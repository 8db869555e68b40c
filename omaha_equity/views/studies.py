"""What ``calc --streets``, ``calc --next-card`` and ``distribution`` show: rows, titles and
JSON data for the shared renderer (``omaha_equity.views.render``), so the Python API can produce the
same table, CSV and JSON text as the command line.
"""

from __future__ import annotations

from typing import Any

from ..equity.plan import Method
from ..equity.results.equity import EquityResult, PlayerEquity
from ..equity.results.table_rows import HILO_COLUMNS
from .render import percent, render
from ..cards import NO_CARDS
from ..studies.distribution import BY_CATEGORY, BY_HAND, ITEMS_OF_PLAYER_1, EquityDistribution
from ..studies.hand_types import HAND_TYPES, HandTypesResult
from ..studies.next_card import NextCardResult, equity_change
from ..studies.streets import StreetsResult

# The equity rows' hi/lo columns (``equity.results.table_rows.HILO_COLUMNS``) less the equity of each half and the
# split share: a study row shows how a player's equity moves (by street, next card, opponent
# hand), and its CSV and JSON columns have always been these; adding the others would change
# every hi/lo study's output.
_HILO_COLUMNS = tuple(name for name in HILO_COLUMNS if name not in ("equity_high", "equity_low", "split"))
BAR_WIDTH = 40


def _player_columns(player: PlayerEquity, hilo: bool) -> dict[str, Any]:
    row: dict[str, Any] = {
        "equity": player.equity,
        "equity_exact": str(player.equity_fraction) if player.equity_fraction is not None else "",
        "standard_error": player.standard_error,
        "win": player.win,
        "tie": player.tie,
    }
    if hilo:
        row.update({name: getattr(player, name) for name in _HILO_COLUMNS})
    return row


def _method_text(result: EquityResult) -> str:
    if result.method == Method.EXACT:
        return "exact"
    return f"Monte Carlo ({result.sample_count:,} boards)"


def _dead_text(dead: str) -> str:
    return f" | dead: {dead}" if dead else ""


# --- street by street ---------------------------------------------------------------------

def streets_rows(streets: StreetsResult) -> list[dict[str, Any]]:
    """One row per player per street, fractions 0..1 (the CSV columns)."""
    rows = []
    for entry in streets.streets:
        result = entry.result
        for number, player in enumerate(result.players, start=1):
            row: dict[str, Any] = {"street": entry.street, "board": result.board or NO_CARDS, "player": number,
                                   "hand": player.hand}
            row.update(_player_columns(player, streets.game.hilo))
            row.update(game=streets.game.name, dead=result.dead or NO_CARDS, method=result.method,
                       sample_count=result.sample_count, seed=result.seed if result.seed is not None else "")
            rows.append(row)
    return rows


def streets_data(streets: StreetsResult) -> dict[str, Any]:
    """JSON data: the query, and per street its ``EquityResult.to_dict()`` plus the street name."""
    return {
        "game": streets.game.name,
        "hands": list(streets.hands),
        "board": streets.board,
        "dead": streets.dead,
        "seed": streets.seed,
        "streets": [{"street": entry.street, **entry.result.to_dict()} for entry in streets.streets],
    }


def streets_report(streets: StreetsResult, format_name: str = "table", style: str = "simple") -> str:
    """Equity by street as ``table`` (a player a row, a street a column), ``csv`` or ``json``."""
    if format_name != "table":
        return render(format_name, streets_rows(streets), streets_data(streets))
    rows = []
    for number, hand in enumerate(streets.hands, start=1):
        row: dict[str, Any] = {"player": number, "hand": hand}
        for entry in streets.streets:
            row[f"{entry.street} {entry.result.board or ''}".strip()] = percent(entry.result.players[number - 1].equity)
        rows.append(row)
    methods = "; ".join(f"{entry.street}: {_method_text(entry.result)}" for entry in streets.streets)
    seed = f", seed {streets.seed}" if streets.seed is not None else ""
    title = f"{streets.game.title} | board: {streets.board}{_dead_text(streets.dead)} | equity by street"
    return render("table", rows, None, title=title, footer=f"{methods}{seed}", style=style)


# --- next card ----------------------------------------------------------------------------

def next_card_rows(result: NextCardResult) -> list[dict[str, Any]]:
    """One row per next card per player (cards in the result's order), fractions 0..1; each
    player's ``change`` is their own equity after the card minus now."""
    rows = []
    now = result.current.players
    for order, entry in enumerate(result.cards, start=1):
        for number, player in enumerate(entry.result.players, start=1):
            row: dict[str, Any] = {
                "order": order, "card": entry.card,
                "chance": entry.probability if entry.probability is not None else "",
                "player": number, "hand": player.hand,
                "change": equity_change(now[number - 1], player),
            }
            row.update(_player_columns(player, result.game.hilo))
            row.update(game=result.game.name, board=entry.result.board or NO_CARDS, dead=result.dead or NO_CARDS,
                       method=entry.result.method, sample_count=entry.result.sample_count)
            rows.append(row)
    return rows


def next_card_data(result: NextCardResult) -> dict[str, Any]:
    """JSON data: the query, the current equity, and per card (in order) its chance and every
    player's statistics (``EquityResult.to_dict()`` player entries) with their change."""
    now = result.current.players
    cards = []
    for entry in result.cards:
        players = entry.result.to_dict()["players"]
        for number, player in enumerate(players):
            player["change"] = equity_change(now[number], entry.result.players[number])
        cards.append({
            "card": entry.card,
            "chance": entry.probability,
            "chance_exact": str(entry.probability_fraction) if entry.probability_fraction is not None else None,
            "board": entry.result.board,
            "sample_count": entry.result.sample_count,
            "low_possible": entry.result.low_possible,
            "players": players,
        })
    return {
        "game": result.game.name,
        "hands": list(result.hands),
        "board": result.board,
        "dead": result.dead,
        "street": result.street,
        "method": result.method,
        "seed": result.seed,
        "above": result.above,
        "above_count": result.above_count,
        "above_chance": result.above_probability,
        "current": result.current.to_dict(),
        "cards": cards,
    }


def next_card_report(result: NextCardResult, format_name: str = "table", style: str = "simple") -> str:
    """Each next card with every player's equity after it, as ``table``, ``csv`` or ``json``.

    The table has one row per card: its chance, player 1's change, and each player's equity
    (hi/lo: also scoop and the high and low halves won alone)."""
    if format_name != "table":
        return render(format_name, next_card_rows(result), next_card_data(result))
    hilo = result.game.hilo
    rows = []
    for entry in result.cards:
        row: dict[str, Any] = {"card": entry.card,
                               "chance": percent(entry.probability) if entry.probability is not None else "",
                               "change 1": f"{entry.change * 100:+.2f}"}
        for number, player in enumerate(entry.result.players, start=1):
            row[f"equity {number}"] = percent(player.equity)
            if hilo:
                row[f"scoop {number}"] = percent(player.scoop)
                row[f"high {number}"] = percent(player.hi_win)
                row[f"low {number}"] = percent(player.lo_win)
        rows.append(row)
    method = "exact" if result.method == Method.EXACT else f"Monte Carlo, seed {result.seed}"
    title = (f"{result.game.title} | board: {result.board}{_dead_text(result.dead)} | every {result.street} card | "
             f"{method}")
    now = " vs ".join(f"{number} {percent(player.equity)}" for number, player in
                      enumerate(result.current.players, start=1))
    card_count = len(result.cards)
    chance = result.above_probability
    chance_text = f" ({percent(chance)} of the time)" if chance is not None else ""
    footer = (f"now: {now}; player 1's equity is above {percent(result.above)} after {result.above_count} of "
              f"{card_count} cards{chance_text}. change 1: player 1's change in percentage points"
              + ("; high/low: takes that half alone" if hilo else ""))
    return render("table", rows, None, title=title, footer=footer, style=style)


# --- distribution -------------------------------------------------------------------------

def _item_name(distribution: EquityDistribution) -> str:
    return {BY_HAND: "hand", BY_CATEGORY: "category"}.get(distribution.by, "card")


def distribution_rows(distribution: EquityDistribution) -> list[dict[str, Any]]:
    """One row per item (opponent hand or next card), highest equity first: its weight, player
    1's equity against it and the histogram bin it falls in (the CSV columns)."""
    name = _item_name(distribution)
    rows = []
    for item in distribution.items:
        row: dict[str, Any] = {
            name: item.label,
            "weight": item.weight,
            "equity": item.equity,
            "equity_exact": str(item.equity_fraction) if item.equity_fraction is not None else "",
            "standard_error": item.standard_error,
            "bin": distribution.bin_of(item).label,
        }
        if distribution.by == BY_HAND and item.category:
            row["category"] = item.category
        if distribution.by == BY_CATEGORY:
            row["hands"] = item.hand_count
        rows.append(row)
    return rows


def _item_count(distribution: EquityDistribution) -> int:
    """Items before an equity filter."""
    return distribution.item_count if distribution.item_count >= 0 else len(distribution.items)


def _filtered(distribution: EquityDistribution) -> bool:
    return distribution.minimum_equity is not None or distribution.maximum_equity is not None


def distribution_data(distribution: EquityDistribution) -> dict[str, Any]:
    """JSON data: the query, the mean equity, the bins and every item (the kept ones when
    filtered by equity: ``minimum_equity``, ``maximum_equity``, ``item_count`` before it,
    ``kept_weight`` and ``kept_range``, the kept hands as a range)."""
    data = {
        "game": distribution.game.name,
        "hand": distribution.hand,
        "opponent": distribution.opponent,
        "board": distribution.board,
        "dead": distribution.dead,
        "by": distribution.by,
        "method": distribution.method,
        "seed": distribution.seed,
        "trials": distribution.trials,
        "equity": distribution.equity,
        "equity_exact": str(distribution.equity_fraction) if distribution.equity_fraction is not None else None,
        "bins": [{"bin": entry.label, "low": entry.low, "high": entry.high, "weight": entry.weight,
                  "count": entry.item_count} for entry in distribution.bins],
        "items": distribution_rows(distribution),
    }
    if distribution.by == BY_HAND:
        data["items_of"] = "player 1" if distribution.items_of == ITEMS_OF_PLAYER_1 else "opponent"
    if _filtered(distribution):
        data.update(minimum_equity=distribution.minimum_equity, maximum_equity=distribution.maximum_equity,
                    item_count=_item_count(distribution), kept_weight=distribution.kept_weight,
                    kept_range=",".join(item.label for item in distribution.items))
    return data


def histogram_bar(weight: float, largest: float, width: int = BAR_WIDTH) -> str:
    """A text bar of ``#`` for a bin's weight, the largest bin filling ``width`` characters
    (a non-empty bin shows at least one)."""
    if weight <= 0 or largest <= 0:
        return ""
    return "#" * max(1, round(width * weight / largest))


def distribution_title(distribution: EquityDistribution) -> str:
    noun = {BY_HAND: "opponent's hands", BY_CATEGORY: "opponent's made hands"}.get(distribution.by, "next card")
    of_range = distribution.items_of == ITEMS_OF_PLAYER_1
    if of_range:
        noun = "hands of player 1's range"
    if distribution.method == Method.EXACT:
        method = "exact"
    elif of_range:
        method = (f"Monte Carlo, {distribution.trials:,} board completions, each against the whole range, "
                  f"seed {distribution.seed}")
    else:
        method = f"Monte Carlo, {distribution.trials:,} boards each, seed {distribution.seed}"
    board = distribution.board or "(none)"
    return (f"{distribution.game.title} | {distribution.hand} against {distribution.opponent!r} | board: {board}"
            f"{_dead_text(distribution.dead)} | equity across the {noun} | {method}")


def distribution_report(distribution: EquityDistribution, format_name: str = "table", style: str = "simple") -> str:
    """The distribution as a text histogram (``table``), ``csv`` (an item a row) or ``json``."""
    if format_name != "table":
        return render(format_name, distribution_rows(distribution), distribution_data(distribution))
    name = _item_name(distribution)
    if distribution.by == BY_CATEGORY:
        return _category_table(distribution, style)
    largest = max(entry.weight for entry in distribution.bins)
    rows = [{"equity": entry.label, "share": percent(entry.weight), f"{name}s": f"{entry.item_count:,}",
             "": histogram_bar(entry.weight, largest)} for entry in reversed(distribution.bins)]
    exact = f" (exactly {distribution.equity_fraction})" if distribution.equity_fraction is not None else ""
    weighted = "by range weight" if distribution.by == BY_HAND else "by chance of coming"
    if distribution.items_of == ITEMS_OF_PLAYER_1:
        weighted = "by range weight times the opponent hands each faces (card removal)"
    footer = (f"player 1's mean equity {percent(distribution.equity)}{exact} over {_item_count(distribution):,} "
              f"{name}s, weighted {weighted}; a bin holds equities from its lower bound up to (not including) its "
              f"upper one, the top bin also 100%")
    table = render("table", rows, None, title=distribution_title(distribution), footer=footer, style=style)
    if not _filtered(distribution):
        return table
    return f"{table}\n\n{_kept_table(distribution, style)}"


def _bound_text(distribution: EquityDistribution) -> str:
    bounds = []
    if distribution.minimum_equity is not None:
        bounds.append(f"at least {percent(distribution.minimum_equity)}")
    if distribution.maximum_equity is not None:
        bounds.append(f"at most {percent(distribution.maximum_equity)}")
    return " and ".join(bounds)


def _kept_table(distribution: EquityDistribution, style: str) -> str:
    """The items an equity filter kept, highest equity first: share, equity (± s.e. by Monte
    Carlo) and, by hand on a board, the made hand."""
    name = _item_name(distribution)
    monte_carlo = distribution.method != Method.EXACT
    rows = []
    for item in distribution.items:
        # a hand of a wide range is a few thousandths of a percent of it
        row: dict[str, Any] = {name: item.label, "share": f"{item.weight * 100:.4f}%", "equity": percent(item.equity)}
        if monte_carlo:
            row["± s.e."] = f"{item.standard_error * 100:.2f}"
        if item.category:
            row["made hand"] = item.category
        rows.append(row)
    title = (f"{len(distribution.items):,} of {_item_count(distribution):,} {name}s with equity "
             f"{_bound_text(distribution)} ({percent(distribution.kept_weight)} of the weight)")
    return render("table", rows, None, title=title, style=style)


def _category_table(distribution: EquityDistribution, style: str) -> str:
    """By category: a row per made hand of the opponent (best first), its share, hands and
    player 1's equity against it."""
    largest = max(item.weight for item in distribution.items)
    monte_carlo = distribution.method != Method.EXACT
    rows = []
    for item in distribution.items:
        row: dict[str, Any] = {"category": item.label, "share": percent(item.weight), "hands": f"{item.hand_count:,}",
                               "equity": percent(item.equity)}
        if monte_carlo:
            row["± s.e."] = f"{item.standard_error * 100:.2f}"
        row[""] = histogram_bar(item.weight, largest)
        rows.append(row)
    exact = f" (exactly {distribution.equity_fraction})" if distribution.equity_fraction is not None else ""
    footer = (f"player 1's mean equity {percent(distribution.equity)}{exact}; share: of the range's weight; "
              "categories in docs/categories.md")
    return render("table", rows, None, title=distribution_title(distribution), footer=footer, style=style)


# --- final hand types by the river ------------------------------------------------------

_LOW_LINES = (("made low", "made_low"), ("nut low", "nut_low"), ("counterfeited low", "counterfeited_low"))


def hand_types_rows(result: HandTypesResult) -> list[dict[str, Any]]:
    """One row per player per hand type (high card first), then hi/lo's low lines: the boards,
    their share (fraction 0..1, exact text beside it) and, for a hand type, that type or better
    (the CSV columns)."""
    rows = []
    for number, player in enumerate(result.players, start=1):
        for index, name in enumerate(HAND_TYPES):
            count, better = player.type_counts[index], player.or_better(index)
            rows.append({"player": number, "hand": player.hand, "line": name, "boards": count,
                         "share": float(player.share(count)), "share_exact": str(player.share(count)),
                         "or_better_boards": better, "or_better_share": float(player.share(better)),
                         "board_count": player.board_count})
        if result.game.hilo:
            for name, attribute in _LOW_LINES:
                count = getattr(player, attribute)
                rows.append({"player": number, "hand": player.hand, "line": name, "boards": count,
                             "share": float(player.share(count)), "share_exact": str(player.share(count)),
                             "or_better_boards": "", "or_better_share": "", "board_count": player.board_count})
    return rows


def hand_types_data(result: HandTypesResult) -> dict[str, Any]:
    """JSON data: the query, the river boards and, per player, the boards of each hand type (and
    the low lines for hi/lo)."""
    players = []
    for player in result.players:
        entry: dict[str, Any] = {"hand": player.hand,
                                 "hand_types": dict(zip(HAND_TYPES, player.type_counts)),
                                 "or_better": {name: player.or_better(index) for index, name in enumerate(HAND_TYPES)}}
        if result.game.hilo:
            entry.update({attribute: getattr(player, attribute) for _, attribute in _LOW_LINES})
        if player.ranged:
            entry.update(hand_count=player.hand_count, board_count=player.board_count)
        players.append(entry)
    return {"game": result.game.name, "board": result.board, "dead": result.dead,
            "board_count": result.board_count, "players": players}


def hand_types_report(result: HandTypesResult, format_name: str = "table", style: str = "simple") -> str:
    """Each player's final hand type by the river as ``table`` (a hand type a row, best first,
    with each player's share and share of that type or better), ``csv`` or ``json``."""
    if format_name != "table":
        return render(format_name, hand_types_rows(result), hand_types_data(result))
    rows = []
    for index in reversed(range(len(HAND_TYPES))):
        row: dict[str, Any] = {"by the river": HAND_TYPES[index]}
        for number, player in enumerate(result.players, start=1):
            row[f"{number} {player.hand}"] = percent(float(player.share(player.type_counts[index])))
            row[f"{number} or better"] = percent(float(player.share(player.or_better(index))))
        rows.append(row)
    if result.game.hilo:
        for name, attribute in _LOW_LINES:
            row = {"by the river": name}
            for number, player in enumerate(result.players, start=1):
                row[f"{number} {player.hand}"] = percent(float(player.share(getattr(player, attribute))))
                row[f"{number} or better"] = ""
            rows.append(row)
    title = (f"{result.game.title} | board: {result.board}{_dead_text(result.dead)} | final hand types by the "
             f"river | exact, {result.board_count:,} boards")
    ranged = [f"{number} {player.hand}: {player.hand_count:,} hands" for number, player in
              enumerate(result.players, start=1) if player.ranged]
    if ranged:
        title += f" | {', '.join(ranged)}; other ranges remove no cards"
    footer = "or better: that hand type or a better one"
    if ranged:
        footer += "; a range's shares: of its (hand, board) pairs, each by the hand's range weight"
    if result.game.hilo:
        footer += ("; nut low: the best low two cards make with the board; counterfeited: held the nut low on an "
                   "earlier street, a later card paired one of the hand's low cards, and not the nut low on the "
                   "river (docs/studies.md)")
    return render("table", rows, None, title=title, footer=footer, style=style)
