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

from verifier import stoplists
from verifier.normalizers.numbers import CONTEXT

from ..derive.compound import Found
from ..derive.operands import cached, cell_of, record_label
from ..index.haystack import Haystack, LeafId
from ..text.labels import focus_words, is_named, label_words, row_words
from ..text.months import MONTH_PREFIXES

#: Where a side of the ratio ends: a date or column the question goes on to name
#: ("... in 2019", "... as of December 31, 2019"), or the question mark (not a comma:
#: "land, property, and equipment" is one row).
_END = (r"(?=\s+(?:in|for|during|from|between|at|as\s+of|on)\s+(?:the\s+)?(?:fy|fiscal|year|\d|(?:" + "|".join(MONTH_PREFIXES) + r")[a-z]*\b|end\b)|\s*[?;]|\s*$)")

#: "ratio of A to B", "the proportion of A over B", "A as a percentage of B", "A
#: divided by B", "the A-to-B ratio", "what percentage of B is related to A". Lazy
#: sides: a side ends at the first word that could end it.
_PATTERNS = tuple(re.compile(p, re.IGNORECASE) for p in (
    r"(?P<a>[\w][\w\s,'’&/-]*?)\s+as\s+an?\s+(?:ratio|percentage|proportion|share|fraction|percent)\s+of\s+(?:the\s+)?(?P<b>.+?)" + _END,
    r"\b(?:proportion|percentage|share|fraction|ratio)\s+of\s+(?P<a>.+?)\s+(?:over|against|relative\s+to|divided\s+by|compared\s+(?:to|with))\s+(?P<b>.+?)" + _END,
    r"\b(?P<a>[\w-]+(?:\s+[\w-]+)?)[-\s]to[-\s](?P<b>[\w-]+(?:\s+[\w-]+)?)\s+ratio\b",
    # the whole first: "what percentage of the total purchase price is represented by
    # goodwill", "what portion of total interest expense is related to unpaid taxes"
    r"\b(?:percent(?:age)?|portion|proportion|share|fraction)\s+of\s+(?:the\s+)?(?P<b>.+?)\s+(?:is|are|was|were)\s+"
    r"(?:represented\s+by|relate[sd]?\s+to|related\s+to|from|attributable\s+to|attributed\s+to|due\s+to)\s+"
    r"(?:the\s+)?(?P<a>.+?)" + _END,
))

#: "the ratio of A to B", "the ratio between A and B": the words between, split at
#: each "to" (or "and") in turn, since a name may hold one ("Cost to serve").
_RATIO_OF = re.compile(r"\bratio\s+(?:\([^)]*\)\s+)?(?P<how>of|between)\s+(?P<body>.+?)" + _END, re.IGNORECASE)
_SPLIT = {"of": re.compile(r"\s+(?:to|over|against|versus|vs\.?)\s+", re.IGNORECASE),
          "between": re.compile(r"\s+and\s+", re.IGNORECASE)}

#: The year of a date right after a side: "... at September 30, 2017".
_DATED = re.compile(r"""
    \s+(?:in|for|during|at|as\s+of|on)\s+         # "at", "as of"
    (?:the\s+)?(?:fy\s*|fiscal\s+(?:year\s+)?)?   # "the fiscal year", "FY"
    (?:[a-z]+\.?\s+\d{1,2},?\s+)?                 # a month and its day: "September 30,"
    ((?:19|20)\d\d)\b                             # the year
""", re.IGNORECASE | re.VERBOSE)

#: Words that start a side without naming anything: "what is the ratio", "the percentage of".
_LEAD = re.compile(r"""
    ^(?:(?:what|how\s+much)\s+(?:is|was|were|are)\s+)?                      # "what is", "how much was"
    (?:the\s+)?
    (?:(?:proportion|percentage|share|fraction|ratio)\s+of\s+(?:the\s+)?)?  # "the percentage of the"
""", re.IGNORECASE | re.VERBOSE)

#: Between the parts of a side that are added up: "land and leasehold improvements".
_PARTS = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+", re.IGNORECASE)


#: What a ratio's numerator may not be: a change or an average of something ("the
#: change in goodwill between 2018 and 2019 as a percentage of ...") is another shape.
_NOT_A_LEVEL = frozenset({"difference", "percent_change", "mean"})
#: Words of change that name no operation of their own ("the decline in operating
#: income as a percentage of revenue").
_CHANGE = re.compile(r"""(?ix)
    \b(?:
        declin\w* | drop\w* | fall\w* | fell | rise | rises | rising | rose  # verbs of a move
      | reduction\w* | varian\w* | movement\w*                             # nouns of one
    )\b""")


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


def ratio_sides(question: str) -> tuple[Sides, ...]:
    """The readings of the ratio ``question`` spells out (none when it spells out none):
    one, or one per place its "to" may split it.

    >>> s = ratio_sides("What is the ratio of current deferred revenue to non-current deferred revenue in 2019?")[0]
    >>> sorted(s.whole), sorted(s.denominator), sorted(s.rest)
    (['current', 'deferred', 'revenue'], ['2019', 'current', 'deferred', 'non', 'revenue'], ['2019'])
    >>> [sorted(p) for p in ratio_sides("the proportion of land and leasehold improvements over gross cost")[0].parts]
    [['land'], ['improvements', 'leasehold']]
    >>> [(sorted(s.whole), sorted(s.denominator)) for s in ratio_sides("the ratio of cost to serve to revenue?")]
    [(['cost'], ['revenue', 'serve']), (['cost', 'serve'], ['revenue'])]
    """
    m = _RATIO_OF.search(question)
    if m is not None:
        body, start = m.group("body"), m.start("body")
        readings = []
        for cut in _SPLIT[m.group("how").lower()].finditer(body):
            sides = _sides(question, m, body[:cut.start()], body[cut.end():], start + len(body))
            if sides is not None:
                readings.append(sides)
        return tuple(readings)
    for pattern in _PATTERNS:
        m = pattern.search(question)
        if m is not None:
            sides = _sides(question, m, m.group("a"), m.group("b"), m.end("b"))
            return (sides,) if sides is not None else ()
    return ()


def _sides(question: str, m: re.Match[str], a: str, b: str, b_end: int) -> Sides | None:
    """One reading: numerator ``a`` over denominator ``b``, which ends at ``b_end``."""
    a, b = _LEAD.sub("", a.strip()), _LEAD.sub("", b.strip())
    before = question[:m.start()] + " " + a
    cues = stoplists.load_pairs("operation_cues")
    if {cues.get(w) for w in re.findall(r"[a-z]+", before.lower())} & _NOT_A_LEVEL or _CHANGE.search(before):
        return None
    # the date that ends the denominator may be its row's ("outstanding at September
    # 30, 2017"): its year names that row too, and the others' columns
    dated = _DATED.match(question[b_end:])
    whole, below = _named_words(a), _named_words(b + " " + (dated.group(1) if dated else ""))
    top_years, below_years = {w for w in whole if w.isdigit()}, {w for w in below if w.isdigit()}
    if top_years and below_years and not top_years & below_years:
        return None  # "2019 revenue to 2018 cost": a cell of each year, which this does not read
    parts = tuple(w for w in (_named_words(p) for p in _PARTS.split(a)) if w)
    if not whole or not (below or re.search(r"(?i)\btotal\b", b)):
        return None
    rest = focus_words(question[:m.start()] + " " + question[m.end():]) | top_years | below_years
    return Sides(whole, parts, below, frozenset(rest), re.search(r"(?i)\btotal\b", b) is not None)


def _named_words(text: str) -> frozenset[str]:
    """The words of a side that name a row or column: a year too, for rows labelled by
    date ("Outstanding at September 30, 2017"), but not alone."""
    words = focus_words(text)
    return words if any(not w.isdigit() for w in words) else frozenset()


#: At most this many expressions from one question: more and it did not say which cells.
MAX_CANDIDATES = 24
#: At most this many before the columns the question names are picked out of them.
MAX_FOUND = 10 * MAX_CANDIDATES


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
                node = hay.leaves[next(iter(cells.values()))].node
                out.setdefault((table, "row"), []).append(
                    _Line(row_words(hay, node), record_label(hay, node) == "total", cells))
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
    rows) do not say which line is which, and the denominator must name one line (or
    one label repeated): no reading otherwise."""
    below = _best(lines, sides.denominator, sides.total_below)
    if len({line.words for line in below}) != 1:
        # none, or a name that fits differently named lines as well: "cost of sales and
        # operating expenses" is two rows added up, which this does not read (one row
        # repeated in two sections of a stacked table is one name)
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


def candidates(hay: Haystack, readings: tuple[Sides, ...]) -> list[Found]:
    """The ratio the question spells out, over every table where each side names a
    row (or each names a column), at every column (or row) they share that the rest of
    the question names (every one, when it names none). Of several readings ("cost to
    serve to revenue"), those whose every side names one line alone, if any. None at
    all past :data:`MAX_CANDIDATES` results: the question did not say which cells."""
    read = [_reading(hay, sides) for sides in readings]
    found = [f for clean, results in read if clean for f in results] or [f for _, results in read for f in results]
    if any(named for named, _ in found):  # the columns (or rows) the question names, if any
        found = [x for x in found if x[0]]
    return [f for _, f in found] if len(found) <= MAX_CANDIDATES else []


def _reading(hay: Haystack, sides: Sides) -> tuple[bool, list[tuple[bool, Found]]]:
    """(whether each side named one line alone, the results of one reading and whether
    the rest of the question names each one's column or row)."""
    found: list[tuple[bool, Found]] = []
    clean = True
    for (_, axis), lines in _lines(hay).items():
        for named, below in _choice(lines, sides):
            ties = math.prod(len(lines_named) for lines_named in (*named, below))
            clean = clean and ties == 1
            if ties > MAX_CANDIDATES:
                return False, []  # the names fit too many lines to say which (a screener's rows)
            for picks in _picks(named, below):
                found += _at_shared(hay, picks, axis, sides.rest)
                if len(found) > MAX_FOUND:
                    return False, []
    return clean and bool(found), found


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
