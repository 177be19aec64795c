"""Which numbers of the data may be combined: the derive stage's operand groups.

A value an answer computed is searched for among operands that belong together: one
record or table row, one column, one section of a printed table's column (the rows
between a heading and a total), one row label repeated down a stacked table, a row's
period columns, the figures of one paragraph (and those a clause gives three or more
periods), one tool result. Groups are built once per haystack and cached on it, with
per-haystack facts about them (is a record all one quantity, what is a row called).
"""

from __future__ import annotations

import re
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import TypeVar

from verifier import stoplists
from verifier.normalizers.numbers import CONTEXT

from .. import yearquarter
from ..deadline import check as check_deadline
from ..index import prose_periods
from ..index.haystack import Haystack, LeafId, is_period_label
from ..index.memo import PerHaystack
from ..text.months import MONTH_PREFIXES
from . import compound

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Group:
    """Operands that may be combined, sorted by value for bisection."""

    kind: str  # "record", "stacked", "section", "asked", "column", "text", "tool"
    values: tuple[Decimal, ...]  # sorted
    leaves: tuple[LeafId, ...]  # in the same order as values
    scale: Decimal  # the data's own scale for these values (1 when it states none)
    #: a section's heading row ("Tax credit carryforwards:"), when one is printed above it
    heading: str = ""
    #: figures of running text asked by date: each one's (year, month), to order a change
    #: ((year, 0) when the month is unknown, (0, 0) when the year is too)
    order: tuple[tuple[int, int], ...] = ()
    #: the question asks across dates: a change is between two of them
    across: bool = False


#: The operand groups and the facts about them that do not depend on the answer.
_GROUPS: PerHaystack[tuple[list[Group], dict[tuple[str, int], object]]] = PerHaystack("derive.groups")


def groups_of(hay: Haystack) -> list[Group]:
    """The haystack's operand groups, built once and kept on the haystack."""
    built = _GROUPS.get(hay)
    if built is not None:
        return built[0]
    by_key: dict[tuple[str, int, object], list[tuple[Decimal, LeafId]]] = defaultdict(list)
    for leaf, value in hay.leaf_value.items():
        check_deadline()
        node = hay.leaves[leaf].node
        parent = hay.parent(node)
        by_key[("record", parent, None)].append((value, leaf))
        # one column under one name: a table whose sections rename its columns (a
        # repeated header "Dec 30, 2017 | ... | Dec 29, 2018") has a column per section;
        # its per-share rows ("in millions, except per share") are no part of the
        # millions of the column (nor a column of their own: the sum of EPS and
        # dividends per share means nothing)
        if parent >= 0 and hay.parent(parent) >= 0 and not hay.unit_exempt(leaf):
            column = (hay.segment(node), hay.leaves[leaf].key)
            by_key[("column", hay.parent(parent), column)].append((value, leaf))
        by_key[("tool", hay.leaves[leaf].tool, None)].append((value, leaf))
    for leaf, figures in hay.text_values.items():
        for value, own_scale in figures:
            by_key[("text", leaf, own_scale)].append((value, leaf))
    for key, members in list(by_key.items()):
        if key[0] == "record" and len(members) >= 3:
            # a row's period columns without its change columns ("2019, 2018, 2017,
            # Variation %"): the cells a row's average or total is taken over
            dated = [(v, leaf) for v, leaf in members if is_period_label(hay.leaves[leaf].key or "")]
            amounts = [(v, leaf) for v, leaf in dated if not hay.is_percent(leaf)]
            if amounts and len(amounts) < len(dated):
                dated = amounts  # "2019 | 2019 % | 2018 | 2018 %": a year's share is no period's figure
            if 2 <= len(dated) < len(members):
                by_key[("record", key[1], "periods")] = dated
    rows = _Rows(hay)
    headings: dict[tuple[str, int, object], str] = {}
    for key, members in list(by_key.items()):
        if key[0] == "column" and len(members) >= 3:
            # rows repeating one label down a column ("Granted" in each year of a stacked
            # table) are one quantity over periods: compared, added and averaged like a row
            by_label: dict[str, list[tuple[Decimal, LeafId]]] = defaultdict(list)
            for value, leaf in members:
                label = rows.label(hay.parent(hay.leaves[leaf].node))
                if label:
                    by_label[label].append((value, leaf))
            for label, same in by_label.items():
                if 2 <= len(same) < len(members):
                    by_key[("stacked", key[1], (key[2], label))] = same
            for start, (heading, section) in enumerate(_sections(hay, members, rows)):
                enough = len(section) >= MIN_SECTION or len(section) >= 2 and (
                    bool(heading) or _tops_a_table(hay, section, rows))
                if enough and len(section) < len(members):
                    by_key[("section", key[1], (key[2], start))] = section
                    headings[("section", key[1], (key[2], start))] = heading
    groups = []
    for (kind, parent, own), members in by_key.items():
        if len(members) < 2:
            continue
        members.sort()
        # the scale most of its members have, a stated one on a tie (a row's "3.7%" change
        # cells say nothing of the scale of its amounts)
        counts = Counter(hay.leaf_scale(leaf) or Decimal(1) for _, leaf in members if "%" not in hay.leaves[leaf].raw
                         ) or Counter(hay.leaf_scale(leaf) or Decimal(1) for _, leaf in members)
        scale = own if kind == "text" and isinstance(own, Decimal) else max(
            counts, key=lambda s: (counts[s], s != 1))
        groups.append(Group(kind, tuple(v for v, _ in members), tuple(l for _, l in members), scale,
                            headings.get((kind, parent, own), "")))
    order = {"record": 0, "stacked": 1, "column": 2, "section": 3, "text": 4, "tool": 5}
    groups.sort(key=lambda g: (order[g.kind], len(g.values)))
    return _GROUPS.setdefault(hay, (groups, {("rows", 0): rows}))[0]  # the one every thread sees


def column_total(hay: Haystack, leaf: LeafId) -> LeafId | None:
    """The figure of a printed table cell's column in the last total row below it (a
    row :data:`_CLOSING_ROW` names, or one with figures and no label: the grand total,
    not a subtotal such as "Total Asia" between; not past a heading row, whose section
    has its own total), or None: the whole that "A and B over
    total net sales" divides by, when the question names the total only as "total"."""
    node = hay.leaves[leaf].node
    row, column = hay.parent(node), hay.segment(node)
    index = hay.segment(row) if row >= 0 else None
    if not isinstance(index, int) or not isinstance(column, int):
        return None
    rows: _Rows = facts(hay)[("rows", 0)]  # type: ignore[assignment]
    table = rows.tables.get(hay.parent(row), {})
    total = None
    for below in sorted(i for i in table if i > index):
        label = rows.label(table[below])
        if label and not rows.has_figure(table[below]):
            break  # a heading: the next section ("Operating income:") has its own total
        if not label or _CLOSING_ROW.search(label):
            # a blank spacer row has no figure in the column: not a total
            total = next((cell for cell in hay.children_leaves(table[below])
                          if cell in hay.leaf_value and hay.segment(hay.leaves[cell].node) == column), total)
    return total


#: Row labels that close a section: its total ("Total", "Totals", "Grand total",
#: "Subtotal", "Segment total"; not "% of total", a share). "Net ..." rows are as often items ("Net bookings") as
#: the balance of what is above, and "Balance at end of year" rows are not told apart:
#: those stay items.
_CLOSING_ROW = re.compile(r"^(?:sub|grand_)?totals?(?:_|$)|(?<!_of)(?<!^of)_(?:sub)?totals?$")

#: Fewer rows than this between breaks are no section, unless a heading row is printed
#: above them (or they open the table and a heading row follows): two rows between two
#: totals are as likely any two lines of a statement.
MIN_SECTION = 3


class _Rows:
    """The rows of the haystack's printed tables (rows that are lists of cells): each
    row's label and whether it holds a figure, worked out once per row (a wide table
    asks for them once per cell), and each table's rows by position."""

    def __init__(self, hay: Haystack):
        self.hay = hay
        self._labels: dict[int, str] = {}
        self._figures: dict[int, bool] = {}
        self.tables: dict[int, dict[int, int]] = defaultdict(dict)
        for leaf in hay.leaves:
            row = hay.parent(leaf.node)
            index = hay.segment(row) if row >= 0 else None
            if isinstance(index, int) and isinstance(hay.segment(leaf.node), int):
                self.tables[hay.parent(row)][index] = row

    def label(self, row: int) -> str:
        if row not in self._labels:
            # uncached otherwise: the per-haystack cache (facts) is made from these groups
            self._labels[row] = _label_uncached(self.hay, row)
        return self._labels[row]

    def has_figure(self, row: int) -> bool:
        if row not in self._figures:
            self._figures[row] = any(x in self.hay.leaf_value for x in self.hay.children_leaves(row))
        return self._figures[row]


def _sections(hay: Haystack, members: list[tuple[Decimal, LeafId]],
              rows: _Rows) -> list[tuple[str, list[tuple[Decimal, LeafId]]]]:
    """A printed table column's sections: runs of item rows one under another. A total
    row (:data:`_CLOSING_ROW`, or a row with figures and no label) closes a run and is
    left out of it; a row with no figure in this column ends a run too, and if it has
    no figure in any column it is a heading, returned with the run below it ("Tax credit
    carryforwards:"). "The sum of all tax credit carryforwards" is the total of one
    section, not of the column. Arrays of records (API results) are not printed tables:
    a record with a null is not a heading, so they have no sections."""
    placed = []
    for value, leaf in members:
        node = hay.leaves[leaf].node
        row = hay.parent(node)
        index = hay.segment(row)
        if not isinstance(index, int) or not isinstance(hay.segment(node), int):
            return []
        placed.append((index, row, value, leaf))
    placed.sort()
    table = rows.tables.get(hay.parent(placed[0][1]), {}) if placed else {}
    runs: list[tuple[str, list[tuple[Decimal, LeafId]]]] = []
    current: list[tuple[Decimal, LeafId]] = []
    previous = None
    for index, row, value, leaf in placed:
        if previous is None or index != previous + 1:
            current = []
            above = table.get(index - 1)
            heading = "" if above is None or rows.has_figure(above) else rows.label(above)
            runs.append((heading, current))
        previous = index
        label = rows.label(row)
        if not label or _CLOSING_ROW.search(label):
            previous = None  # a total closes its section; the rows below start another
            continue
        current.append((value, leaf))
    return runs


def _tops_a_table(hay: Haystack, section: list[tuple[Decimal, LeafId]], rows: _Rows) -> bool:
    """Whether a run starts a table and a heading row follows it: the first section of
    a table whose own heading was printed above the table ("Income tax net operating
    loss carryforwards:" as a title, "Tax credit carryforwards:" as the next heading)."""
    row_nodes = [hay.parent(hay.leaves[leaf].node) for _, leaf in section]
    indices = sorted(i for i in (hay.segment(r) for r in row_nodes) if isinstance(i, int))
    if len(indices) != len(row_nodes):
        return False
    below = rows.tables.get(hay.parent(row_nodes[0]), {}).get(indices[-1] + 1)
    return indices[0] == 0 and below is not None and not rows.has_figure(below) and bool(rows.label(below))


def homogeneous(hay: Haystack, group: Group) -> bool:
    """Whether every member of a record measures the same quantity (a row of years).
    Cached per haystack."""
    cache = facts(hay)
    key = ("homogeneous", id(group))
    if key not in cache:
        first = group.leaves[0]
        cache[key] = all(same_quantity(hay, first, other) for other in group.leaves[1:])
    return bool(cache[key])


def facts(hay: Haystack) -> dict[tuple[str, int], object]:
    """Per-haystack cache of facts about groups that do not depend on the answer."""
    if _GROUPS.get(hay) is None:  # (asked for per group per search: kept to one check)
        groups_of(hay)
    return _GROUPS[hay][1]


_KEY_TOKEN = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


#: Key tokens that say when or which, not what: numbers ("FY19**" -> 19, a day, an
#: index), quarters, halves, months.
_PERIOD_KEY = re.compile(r"(?i)^(?:\d+|fy\d{2,4}|q[1-4]|h[12]|\d+[dwmqy]|" + "|".join(MONTH_PREFIXES) + ")$")


@lru_cache(maxsize=4096)
def _key_tokens(key: str | None) -> frozenset[str]:
    """Content words of a field name: ``avg_daily_volume_3m`` -> {volume}."""
    if not key or is_period_label(key):
        return frozenset()  # a period column ("January 31, 2020") says nothing about what is measured
    generic = stoplists.load("generic_key_words")
    if " " in key or key[:1].isupper():  # a printed column header, not a field name
        generic = generic | stoplists.load("period_header_words")
    return frozenset(t.lower() for t in _KEY_TOKEN.findall(key)
                     if t.lower() not in generic and not _PERIOD_KEY.match(t))


def same_quantity(hay: Haystack, a: LeafId, b: LeafId) -> bool:
    """Whether two leaves of one record measure the same thing, so adding or
    subtracting them means something. Field names that both say what they measure must
    share a content word (revenue_low / revenue_high; avg_daily_volume_3m /
    avg_daily_volume_10d; not price / pe_ttm). Labels that are only periods (a filing
    table's 2019 / 2018 columns) or empty say nothing against it."""
    ka, kb = hay.leaves[a].key, hay.leaves[b].key
    if ka == kb:
        return True
    ta, tb = _key_tokens(ka), _key_tokens(kb)
    return not (ta and tb) or bool(ta & tb)


def prose_series(hay: Haystack) -> list[tuple[Decimal, list[compound.Cell]]]:
    """Figures of one clause that it gives three or more distinct periods ("$290.2
    million in 2019, $239.6 million in 2018 and $190.4 million in 2017"), in the order
    written: a row of periods written as prose. Cached per haystack."""
    cache = facts(hay)
    key = ("prose_series", 0)  # one entry per haystack (the cache's keys are (what, id))
    if key not in cache:
        series: list[tuple[Decimal, list[compound.Cell]]] = []
        for leaf, figures in hay.text_values.items():
            for clause in prose_periods.dated_clauses(hay, leaf):
                periods = [yearquarter.text(p) for _, p in clause]
                if len(clause) < 3 or len(set(periods)) < len(periods):
                    continue  # fewer than three, or a period twice: not one series
                cells = []
                for (forms, period), name in zip(clause, periods, strict=True):
                    held = held_figure(figures, forms)
                    if held is None:
                        break
                    # a prose figure has no row: each series is a row of its own (negative
                    # ids, never a table row's node)
                    cells.append((held[1], compound.Cell(held[0], leaf, -1 - len(series), name, dated_column=True)))
                if len(cells) == len(clause) and len({own for own, _ in cells}) == 1:
                    own = cells[0][0]
                    series.append((own or hay.leaf_scale(leaf) or Decimal(1), [c for _, c in cells]))
        cache[key] = series
    return cache[key]  # type: ignore[return-value]


def held_figure(figures: list[tuple[Decimal, Decimal | None]],
                forms: frozenset[Decimal]) -> tuple[Decimal, Decimal | None] | None:
    """The operand a paragraph's figures hold for a figure read with the values
    ``forms``: as written, with its own scale ("$60.3 million": 60.3, 1E+6)."""
    return next(((v, own) for v, own in figures
                 if (CONTEXT.multiply(v, own) if own is not None else v) in forms), None)


def cell_of(hay: Haystack, leaf: LeafId, value: Decimal) -> compound.Cell:
    """A table cell as :mod:`verifier.derive.compound` reads it: its row, its column, and
    whether either is a period."""
    node = hay.leaves[leaf].node
    row = hay.parent(node)
    label = record_label(hay, node)
    return compound.Cell(value, leaf, row, hay.segment(node),
                         dated_column=_dated(hay.leaves[leaf].key or ""),
                         dated_row=_dated(label.replace("_", " ")),
                         total_column=closes_section(hay.leaves[leaf].key or ""),
                         total_row=closes_section(label))


def _dated(label: str) -> bool:
    """Whether a row or column label is of a period: a date or year ("2019", "January
    31, 2020"), or a measure of one ("Fiscal 2019 Net Sales")."""
    return is_period_label(label) or yearquarter.YEAR_IN_TEXT.search(label) is not None


def record_label(hay: Haystack, node: int) -> str:
    """The first short text value beside a leaf (a row's first cell, a record's name).
    Cached per haystack."""
    parent = hay.parent(node)
    cache = facts(hay)
    key = ("record_label", parent)
    if key not in cache:
        cache[key] = _label_uncached(hay, parent)
    return cache[key]  # type: ignore[return-value]


def _label_uncached(hay: Haystack, parent: int) -> str:
    for leaf in hay.children_leaves(parent):
        raw = hay.leaves[leaf].raw
        if not 0 < len(raw) <= 200 or raw in ("null", "true", "false"):
            continue
        if _year_row(hay, leaf, raw) or (leaf not in hay.leaf_value and any(ch.isalpha() for ch in raw)):
            return slug(raw)
    return ""


def _year_row(hay: Haystack, leaf: LeafId, raw: str) -> bool:
    """Whether a printed table row is labelled by a period in its first cell ("2022",
    or the number 2022, in a lease maturity schedule): the haystack reads it as the
    period of the row's cells, and a question names the row by it ("between 2022 and
    2023")."""
    return hay.segment(hay.leaves[leaf].node) == 0 and is_period_label(raw.strip())


def slug(text: object) -> str:
    return "_".join("".join(ch if ch.isalnum() else " " for ch in str(text).lower()).split()) or "value"


def closes_section(label: str) -> bool:
    """Whether a row label names a total that closes the rows above it ("Total",
    "Total non-current assets", "Subtotal", "Grand total", "Segment total"): printed
    text or a slug alike."""
    return _CLOSING_ROW.search(slug(label)) is not None


def holds_its_total(hay: Haystack, group: Group) -> bool:
    """Whether a column holds a row that closes a section ("Total ..."), or a row a
    cell under a "Total" column: its total, mean or shares would count items twice
    (its sections' do not). Cached."""
    cache = facts(hay)
    key = ("holds_total", id(group))
    if key not in cache:
        cache[key] = any(closes_section(hay.leaves[leaf].key or "" if group.kind == "record" else
                                        record_label(hay, hay.leaves[leaf].node))
                         for leaf in group.leaves)
    return bool(cache[key])


#: Groups one value's search makes from what its question names (cells named along
#: both axes, figures of the text asked by date, a cell beside such a figure, a cell
#: beside its column's total), not the haystack's own.
SEARCH_KINDS = frozenset({"asked", "mixed", "over_total"})


def group_fact(hay: Haystack, what: str, group: Group, make: Callable[[], _T]) -> _T:
    """A fact about ``group``, cached by its id for the haystack's groups; made afresh
    for the groups one search makes (:data:`SEARCH_KINDS`): those are dropped after
    it, and a later group could be given the same id."""
    if group.kind in SEARCH_KINDS:
        return make()
    return cached(hay, (what, id(group)), make)


#: Facts keyed by what one question (or sentence) names: a haystack the service keeps
#: for many requests keeps only the last :data:`MAX_PER_QUESTION` of each.
PER_QUESTION = frozenset({"asked_prose", "asked_figures", "focus_cells", "spelled_ratio"})
MAX_PER_QUESTION = 128


def cached(hay: Haystack, key: tuple[str, object], make: Callable[[], _T]) -> _T:
    """A per-haystack fact about its groups, made on first use."""
    cache = facts(hay)
    if key[0] in PER_QUESTION:
        recent = cache.get((key[0], -1))
        if recent is None:
            recent = cache[(key[0], -1)] = OrderedDict()  # type: ignore[index]
        assert isinstance(recent, OrderedDict)
        if key in recent:
            return recent[key]  # type: ignore[no-any-return]
        value = recent[key] = make()
        while len(recent) > MAX_PER_QUESTION:  # the oldest first; another thread may pop too
            try:
                recent.popitem(last=False)
            except KeyError:
                break
        return value
    if key not in cache:
        cache[key] = make()  # type: ignore[index]
    return cache[key]  # type: ignore[index, return-value]
