"""The two sides of a ratio a question spells out, and the cells they name.

"What is the ratio of current deferred revenue to non-current deferred revenue", "the
proportion of land and leasehold improvements over the gross cost of land, property
and equipment", "domestic-state credits as a percentage of domestic-federal credits":
the question says which figure is divided by which, and which figures are added up
first. Searched as that one expression over the rows (or columns) each side names, in
the columns (or rows) the rest of the question names, a ratio written to one or two
digits ("0.7", "0.18") is a handful of chances, not the hundreds of every pair of
cells, and the derive stage can believe it (:func:`ratio_sides`, :func:`candidates`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

import stoplists
from normalizers.numbers import CONTEXT

from .compound import Found
from .haystack import Haystack, LeafId
from .labels import focus_words, is_named, label_words, row_words
from .operands import cached, cell_of, record_label

#: Where a side of the ratio ends: a date or column the question goes on to name
#: ("... in 2019", "... as of December 31, 2019"), or the question mark (not a comma:
#: "land, property, and equipment" is one row).
_END = r"(?=\s+(?:in|for|during|from|between|at|as\s+of|on)\s+(?:the\s+)?(?:fy|fiscal|year|\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|end\b)|\s*[?;]|\s*$)"

#: "ratio of A to B", "the proportion of A over B", "A as a percentage of B",
#: "A divided by B", "the A-to-B ratio". Lazy sides: a side ends at the first word
#: that could end it.
_PATTERNS = tuple(re.compile(p, re.IGNORECASE) for p in (
    r"\bratio\s+(?:\([^)]*\)\s+)?(?:of|between)\s+(?P<a>.+?)\s+(?:to|and|over|against|versus|vs\.?)\s+(?P<b>.+?)" + _END,
    r"(?P<a>[\w][\w\s,'’&/-]*?)\s+as\s+an?\s+(?:ratio|percentage|proportion|share|fraction|percent)\s+of\s+(?:the\s+)?(?P<b>.+?)" + _END,
    r"\b(?:proportion|percentage|share|fraction|ratio)\s+of\s+(?P<a>.+?)\s+(?:over|against|relative\s+to|divided\s+by|compared\s+(?:to|with))\s+(?P<b>.+?)" + _END,
    r"\b(?P<a>[\w]+(?:\s+[\w]+)?)[-\s]to[-\s](?P<b>[\w]+(?:\s+[\w]+)?)\s+ratio\b",
    # the whole first: "what percentage of the total purchase price is represented by
    # goodwill", "what portion of total interest expense is related to unpaid taxes"
    r"\b(?:percent(?:age)?|portion|proportion|share|fraction)\s+of\s+(?:the\s+)?(?P<b>.+?)\s+(?:is|are|was|were)\s+"
    r"(?:represented\s+by|relate[sd]?\s+to|related\s+to|from|attributable\s+to|attributed\s+to|due\s+to)\s+"
    r"(?:the\s+)?(?P<a>.+?)" + _END,
))

#: The year of a date right after a side: "... at September 30, 2017".
_DATED = re.compile(r"\s+(?:in|for|during|at|as\s+of|on)\s+(?:the\s+)?(?:fy\s*|fiscal\s+(?:year\s+)?)?"
                    r"(?:[a-z]+\.?\s+\d{1,2},?\s+)?((?:19|20)\d\d)\b", re.IGNORECASE)

#: Words that start a side without naming anything: "what is the ratio", "the percentage of".
_LEAD = re.compile(r"^(?:(?:what|how\s+much)\s+(?:is|was|were|are)\s+)?(?:the\s+)?"
                   r"(?:(?:proportion|percentage|share|fraction|ratio)\s+of\s+(?:the\s+)?)?", re.IGNORECASE)

#: Between the parts of a side that are added up: "land and leasehold improvements".
_PARTS = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+", re.IGNORECASE)


#: What a ratio's numerator may not be: a change or an average of something ("the
#: change in goodwill between 2018 and 2019 as a percentage of ...") is another shape.
_NOT_A_LEVEL = frozenset({"difference", "percent_change", "mean"})


@dataclass(frozen=True, slots=True)
class Sides:
    """What the question divides: the numerator as it names it (whole, and split into
    the parts it adds up), the denominator, and the rest of the question's words (which
    name the column or row the cells are taken from). A side's years are both: "the
    ratio of A in 2019 to B" takes A and B from the 2019 column, "outstanding shares
    at September 30, 2017" is the row of that date."""

    whole: frozenset[str]
    parts: tuple[frozenset[str], ...]
    denominator: frozenset[str]
    rest: frozenset[str]
    #: the denominator says "total": a row or column labelled only "Total" may be it
    total_below: bool = False


def ratio_sides(question: str) -> Sides | None:
    """The ratio ``question`` asks for, or None when it spells out none.

    >>> s = ratio_sides("What is the ratio of current deferred revenue to non-current deferred revenue in 2019?")
    >>> sorted(s.whole), sorted(s.denominator), sorted(s.rest)
    (['current', 'deferred', 'revenue'], ['2019', 'current', 'deferred', 'non', 'revenue'], ['2019'])
    >>> [sorted(p) for p in ratio_sides("the proportion of land and leasehold improvements over gross cost").parts]
    [['land'], ['improvements', 'leasehold']]
    """
    cues = stoplists.load_pairs("operation_cues")
    for pattern in _PATTERNS:
        m = pattern.search(question)
        if m is None:
            continue
        a = _LEAD.sub("", m.group("a").strip())
        b = _LEAD.sub("", m.group("b").strip())
        before = question[:m.start()] + " " + a
        if {cues.get(w) for w in re.findall(r"[a-z]+", before.lower())} & _NOT_A_LEVEL:
            return None
        # the date that ends the denominator may be its row's ("outstanding at September
        # 30, 2017"): its year names that row too, and the others' columns
        dated = _DATED.match(question[m.end("b"):])
        whole, below = _named_words(a), _named_words(b + " " + (dated.group(1) if dated else ""))
        parts = tuple(w for w in (_named_words(p) for p in _PARTS.split(a)) if w)
        if not whole or not (below or re.search(r"(?i)\btotal\b", b)):
            return None
        years = {w for w in focus_words(a + " " + b) if w.isdigit()}
        rest = focus_words(question[:m.start()] + " " + question[m.end():]) | years
        return Sides(whole, parts, below, frozenset(rest), re.search(r"(?i)\btotal\b", b) is not None)
    return None


def _named_words(text: str) -> frozenset[str]:
    """The words of a side that name a row or column: a year too, for rows labelled by
    date ("Outstanding at September 30, 2017"), but not alone."""
    words = focus_words(text)
    return words if any(not w.isdigit() for w in words) else frozenset()


#: At most this many expressions from one question: more and it did not say which cells.
MAX_CANDIDATES = 24


@dataclass(frozen=True, slots=True)
class _Line:
    """A row or a column of one table: its label's words, whether that label is only
    "Total", and its cells by position along it (a row's by column, a column's by row)."""

    words: frozenset[str]
    total: bool
    cells: dict[object, LeafId]


def _lines(hay: Haystack) -> dict[tuple[int, str], list[_Line]]:
    """Every table's rows and columns of numbers, by (table node, "row" or "column").
    A column is one position under one header: a table whose sections rename their
    columns ("Dec 29, 2018" above "Dec 28, 2019") has one column per name. Made once
    per haystack."""
    def make() -> dict[tuple[int, str], list[_Line]]:
        rows: dict[int, dict[int, dict[object, LeafId]]] = {}
        for leaf in hay.leaf_value:
            node = hay.leaves[leaf].node
            row = hay.parent(node)
            if row >= 0:
                rows.setdefault(hay.parent(row), {}).setdefault(row, {})[hay.segment(node)] = leaf
        out: dict[tuple[int, str], list[_Line]] = {}
        for table, by_row in rows.items():
            columns: dict[tuple[object, str], dict[object, LeafId]] = {}
            for row, cells in by_row.items():
                label = record_label(hay, hay.leaves[next(iter(cells.values()))].node)
                out.setdefault((table, "row"), []).append(
                    _Line(row_words(hay, hay.leaves[next(iter(cells.values()))].node), label == "total", cells))
                for position, leaf in cells.items():
                    columns.setdefault((position, _header(hay, leaf)), {})[row] = leaf
            for (_, header), cells in columns.items():
                out.setdefault((table, "column"), []).append(
                    _Line(label_words(header), header.strip().lower() == "total", cells))
        return out
    return cached(hay, ("ratio_lines", 0), make)


def _header(hay: Haystack, leaf: LeafId) -> str:
    """A cell's column header, with the titles printed above it."""
    return " ".join((*hay.titles_of(leaf), hay.leaves[leaf].key or ""))


def _score(line: _Line, words: frozenset[str], total: bool) -> tuple[float, float]:
    """How well a side's words name a line: the share of the line's label they name
    (at least half, or nothing), then how little else they say. A line labelled only
    "Total" is named, weakly, by a side that says "total"."""
    if line.total:
        return (0.5, 0.0) if total else (0.0, 0.0)
    if not is_named(line.words, words):
        return (0.0, 0.0)
    common = len(line.words & words)
    return common / len(line.words), common / len(line.words | words)


def _best(lines: list[_Line], words: frozenset[str], total: bool = False) -> list[_Line]:
    """The lines ``words`` names best (ties kept), or none."""
    scored = [(_score(line, words, total), i) for i, line in enumerate(lines)]
    top = max((score for score, _ in scored), default=(0.0, 0.0))
    return [lines[i] for score, i in scored if score == top] if top[0] > 0 else []


def _choice(lines: list[_Line], sides: Sides) -> list[tuple[list[list[_Line]], list[_Line]]]:
    """The lines each part of the numerator names, and the denominator's: the whole
    numerator as one line, or its parts one line each, whichever names lines better
    ("land and leasehold improvements" is two rows; "property, plant and equipment",
    one). Names that fit the same line ("balances" for each of three "Balances at ..."
    rows) do not say which line is which: no reading."""
    below = _best(lines, sides.denominator, sides.total_below)
    if not below:
        return []
    readings = []
    for parts in ((sides.whole,), sides.parts) if len(sides.parts) > 1 else ((sides.whole,),):
        named = [_best(lines, part) for part in parts]
        chosen = [id(line) for lines_named in (*named, below) for line in lines_named]
        if all(named) and len(chosen) == len(set(chosen)):  # names that tell the lines apart
            worst = min(_score(line[0], part, False) for line, part in zip(named, parts, strict=True))
            readings.append((worst, named))
    if not readings:
        return []
    return [(max(readings, key=lambda r: r[0])[1], below)]


def candidates(hay: Haystack, sides: Sides) -> list[Found]:
    """The ratio the question spells out, over every table where each side names a
    row (or each names a column), at every column (or row) they share that the rest of
    the question names (every one, when it names none). None at all past
    :data:`MAX_CANDIDATES` results: the question did not say which cells."""
    found: list[tuple[bool, Found]] = []
    for (_, axis), lines in _lines(hay).items():
        for named, below in _choice(lines, sides):
            if math.prod(len(lines_named) for lines_named in (*named, below)) > MAX_CANDIDATES:
                return []  # the names fit too many lines to say which (a screener's rows)
            for picks in _picks(named, below):
                found += _at_shared(hay, picks, axis, sides.rest)
                if len(found) > MAX_CANDIDATES:
                    return []
    if any(named for named, _ in found):  # the columns (or rows) the question names, if any
        return [f for named, f in found if named]
    return [f for _, f in found]


def _picks(named: list[list[_Line]], below: list[_Line]) -> Iterator[list[_Line]]:
    """One line for each part and the denominator, all different."""
    def walk(i: int, chosen: list[_Line]) -> Iterator[list[_Line]]:
        if i == len(named):
            for d in below:
                if all(d is not c for c in chosen):
                    yield [*chosen, d]
            return
        for line in named[i]:
            if all(line is not c for c in chosen):
                yield from walk(i + 1, [*chosen, line])
    return walk(0, [])


def _at_shared(hay: Haystack, picks: list[_Line], axis: str, rest: frozenset[str]) -> list[tuple[bool, Found]]:
    """The ratio at each position the picked lines share, under one header (a row's
    cells) or on one row (a column's), and whether the rest of the question names that
    header (or row)."""
    out = []
    for position in [p for p in picks[0].cells if all(p in line.cells for line in picks[1:])]:
        leaves = [line.cells[position] for line in picks]
        if axis == "row":
            headers = {label_words(_header(hay, leaf)) for leaf in leaves}
            if len(headers) > 1:
                continue  # sections that name this position differently
            words = next(iter(headers))
        else:
            words = row_words(hay, hay.leaves[leaves[0]].node)
        values = [hay.leaf_value[leaf] for leaf in leaves]
        if values[-1] == 0 or len({hay.leaf_scale(leaf) for leaf in leaves}) > 1:
            continue
        cells = tuple(cell_of(hay, leaf, v) for leaf, v in zip(leaves, values, strict=True))
        top = " + ".join(f"{{{i}}}" for i in range(len(leaves) - 1))
        template = f"({top}) / {{{len(leaves) - 1}}}" if len(leaves) > 2 else "{0} / {1}"
        out.append((is_named(words, rest), Found("ratio" if len(leaves) == 2 else "sum_ratio", cells,
                                                  CONTEXT.divide(sum(values[:-1], Decimal(0)), values[-1]),
                                                  template, False)))
    return out
