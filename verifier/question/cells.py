"""Asked cells: a value from the wrong row, column or period the question points at.

"What was the revenue in 2019?" answered with a number that is in the table, but in
the cost row, or in the 2018 column, or a figure the filing's prose gives to 2018: the
number exists, the claim is wrong. When the question names one period (and the table
has a column for it, or the prose speaks of it), or its words name exactly one row of
a table (every word of the row's label is in the question, and no other row's is), or
one column the same way ("Operating leases", not "Finance leases"), a value found only
outside that row, column or period is ``misattributed``, with where it came from as
evidence.

A question that asks for a computation ("the change in revenue from 2018 to 2019", "the
average of ...") is held to it: a value that is another row's cell, or one of the asked
row's own cells in a period the computation runs over (the 2019 value given as the
change), is flagged, and the derive stage may then explain it from the asked cells
(:func:`refuses_rescue` says when a rescue explains nothing).

Deliberately narrow, because a wrong flag on a correct answer costs more than a missed
one: only exact (not rounded or derived) values; a copy outside any labelled row or
dated prose figure means the value may come from there; a period check only when the
answer names no period and no relative one ("a year earlier"); only rows the question
names without doubt; comparisons ("which year was higher") and quantities a row names
("the gross margin") are lookups, not computations.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from functools import lru_cache

from verifier import stoplists

from .. import yearquarter
from ..checks.attribute import RELATIVE_PERIOD
from ..checks.match import candidate_leaves, misattributed_item
from ..derive.operands import closes_section
from ..extract import NUMERIC_KINDS, Extractor, Mention
from ..index import prose_periods
from ..index.haystack import Haystack, LeafId, is_period_label
from ..models import Item
from ..text.cues import cue_terms, cue_words
from ..text.sentences import content_words
from ..yearquarter import Period


@dataclass(frozen=True, slots=True)
class _Row:
    node: int
    label: str
    stems: frozenset[str]


_TABLES: weakref.WeakKeyDictionary[Haystack, tuple[dict[int, list[_Row]], dict[int, tuple[int, _Row]]]] = (
    weakref.WeakKeyDictionary())


def _tables(hay: Haystack) -> tuple[dict[int, list[_Row]], dict[int, tuple[int, _Row]]]:
    """(table node -> its labelled rows, row node -> (table node, row)); a labelled row
    is a list, itself a list element, whose first cell is text."""
    found = _TABLES.get(hay)
    if found is None:
        tables: dict[int, list[_Row]] = {}
        rows: dict[int, tuple[int, _Row]] = {}
        for leaf, entry in enumerate(hay.leaves):
            row = hay.parent(entry.node)
            if row < 0 or hay.segment(entry.node) != 0 or not isinstance(hay.segment(row), int):
                continue
            if not entry.raw.strip() or not (hay.is_string(leaf) or _YEAR.fullmatch(entry.raw.strip())):
                continue
            if _YEAR.fullmatch(entry.raw.strip()):  # a year labels its row ("2022", or 2022: a lease schedule)
                stems = frozenset({entry.raw.strip()})
            elif leaf in hay.leaf_value:
                continue  # a number is not a label
            else:
                # a name of no content words but a number ("S&P 500") is still a row's
                # label ("Total" alone is not: it says which row, not what)
                stems = frozenset(content_words(_NOTE_REF.sub(" ", entry.raw))) or (
                    frozenset({entry.raw.strip().lower()}) if any(ch.isdigit() for ch in entry.raw) else frozenset())
            if stems:
                labelled = _Row(row, entry.raw.strip(), stems)
                tables.setdefault(hay.parent(row), []).append(labelled)
                rows[row] = (hay.parent(row), labelled)
        found = tables, rows
        _TABLES[hay] = found
    return found


def _row_of(hay: Haystack, leaf: LeafId) -> tuple[int, _Row] | None:
    """(table node, row) of a cell in a labelled row; None for anything else."""
    if hay.segment(hay.leaves[leaf].node) == 0:
        return None  # the label itself
    return _tables(hay)[1].get(hay.parent(hay.leaves[leaf].node))


@lru_cache(maxsize=1024)
def _question_periods(ex: Extractor, question: str) -> tuple[Period, ...]:
    """The years and quarters a question names, in order, once each; a full date names
    its year ("as of October 31, 2019 and 2018" names two)."""
    found: dict[Period, None] = {}
    for m in ex.extract(question, quoted=False):
        period = yearquarter.of_mention(m, days=True)
        if period is not None:
            found[period] = None
    return tuple(found)


def check(question: str, answer: str, matched: list[tuple[Mention, Item]], hay: Haystack, ex: Extractor
          ) -> list[tuple[Mention, Item]]:
    """Pairs with values from cells the question does not point at marked misattributed."""
    asked_words = _question_words(question)
    computes = _computes(question)
    periods = asked_periods = _question_periods(ex, question)
    if (RELATIVE_PERIOD.search(answer) or _COMPARISON.search(answer)
            or any(m.kind in ("date", "period") for m, _ in matched)):
        periods = ()  # the answer says which period it means ("a year earlier", "in 2018")
    values = [i for i, (m, _) in enumerate(matched) if m.kind in NUMERIC_KINDS]
    # one period: every value is of it; "in 2017 and 2018, respectively" with as many
    # values as periods: the k-th value is of the k-th period
    if len(periods) == 1:
        period_of = dict.fromkeys(values, periods[0])
    elif len(periods) > 1 and not computes and len(values) == len(periods) and _RESPECTIVE.search(question):
        period_of = dict(zip(values, periods, strict=True))
    else:
        period_of = {}
    asked = _Asked(asked_words, frozenset(content_words(answer)), computes, asked_periods,
                   several=len(values) > 1 or bool(_RESPECTIVE.search(question)))
    out = []
    for i, (mention, item) in enumerate(matched):
        if mention.kind in NUMERIC_KINDS and item.status in ("exact", "normalized"):
            item = _check_value(mention, item, hay, asked, period_of.get(i))
        out.append((mention, item))
    return out


@dataclass(frozen=True, slots=True)
class _Asked:
    """What the question (and the answer's own words) point at, for every value."""

    words: frozenset[str]  # the question's content words
    answer_words: frozenset[str]
    computes: bool  # it asks for a computed number (:func:`_computes`)
    periods: tuple[Period, ...]  # the periods it names, in order
    several: bool  # the answer states several values, or the question lists them "respectively"


_YEAR = re.compile(r"(?:FY)?(?:19|20)\d\d")
_RESPECTIVE = re.compile(r"(?i)\brespective(?:ly)?\b")


#: Words by which an answer moves off the question's period: those that move between
#: periods (attribution's list) and those that compare with something else.
_COMPARISON = re.compile(r"(?i)\b(?:versus|vs\.?|compared|against)\b")


def _computes(question: str) -> bool:
    """Whether the question asks for a number computed from the table ("the change in",
    "the average"); not a comparison ("which year was higher") or a quantity a row
    names ("the gross margin"), nor values listed "respectively"."""
    if _RESPECTIVE.search(question):
        return False
    lookup = stoplists.load("not_computing_cues")
    return any(w not in lookup for w in cue_terms(question))


def _check_value(mention: Mention, item: Item, hay: Haystack, asked: _Asked, asked_period: Period | None) -> Item:
    leaves = candidate_leaves(mention, hay)
    rows = [_row_of(hay, leaf) for leaf in leaves]
    if not leaves:
        return item
    if asked_period is not None:
        owner = _other_period(mention, hay, leaves, rows, asked_period)
        if owner is not None:
            return misattributed_item(item, hay, mention, f"{yearquarter.text(asked_period)} (the question's period)",
                                      owner=owner)
    if any(r is None for r in rows):
        return item  # a copy outside a labelled table row: the value may come from there
    cells = [(leaf, r) for leaf, r in zip(leaves, rows, strict=True) if r is not None]
    # a value every copy of which is another column's cell: a lookup from the wrong
    # column, or a computation answered with one (the derive stage may then explain it
    # from the asked column)
    column = _other_column(hay, cells, asked)
    if column is not None:
        return misattributed_item(item, hay, mention, f"the column {column[0]!r} the question asks about",
                                  owner=f"the column {column[1]!r}")
    if asked.computes:
        return _check_computed(mention, item, hay, cells, asked)
    asked_rows = []
    for _, (table, row) in cells:
        named = _asked_row(hay, table, asked.words)
        if named is None or named.node == row.node or row.stems & asked.words or row.stems <= asked.answer_words:
            return item  # no row named without doubt, the question touches this row, or the answer names it
        asked_rows.append(named)
    return misattributed_item(item, hay, mention, f"the row {asked_rows[0].label!r} the question asks about",
                              owner=f"the row {cells[0][1][1].label!r}")


def _other_period(mention: Mention, hay: Haystack, leaves: list[LeafId], rows: list[tuple[int, _Row] | None],
                  asked: Period) -> str | None:
    """Where the value belongs when every copy of it is of a period other than
    ``asked``: a table cell in another period's column (of a table that has a column
    for ``asked``), or a figure in prose that the text gives to another period ("1
    million, 1 million and 6 million for fiscal 2019, 2018 and 2017, respectively", in
    a sentence that covers ``asked``). None when some copy is of ``asked`` or of no
    period the data states."""
    forms = frozenset(form.value for form in mention.num_forms)
    owners = []
    for leaf, row in zip(leaves, rows, strict=True):
        if row is not None:
            held = hay.period_of(leaf)
            if held is None or not _has_column(hay, row[0], asked):
                return None
            owners.append((held, "column"))
        elif hay.is_string(leaf) and hay.period_of(leaf) is None:
            periods = prose_periods.periods_of(hay, leaf, forms)
            if not periods or not prose_periods.covers(hay, leaf, asked):
                return None
            owners.extend((p, f"figure in {hay.path(leaf)}") for p in sorted(periods))
        else:
            return None
    if any(yearquarter.same(asked, held) for held, _ in owners):
        return None
    held, where = owners[0]
    return f"the {yearquarter.text(held)} {where}"


def _check_computed(mention: Mention, item: Item, hay: Haystack, cells: list[tuple[LeafId, tuple[int, _Row]]],
                    asked: _Asked) -> Item:
    """A question that asks for a computation ("the change in A from 2018 to 2019",
    "the average of A") answered with a value every copy of which is a cell either of
    a row other than A's (one the question does not name in full) or of A's row in a
    period column the computation runs over (the 2019 value given as the change). It
    is flagged; the derive stage then re-tries it, so a computation that happens to
    equal a cell ("the average of 4 and 4") passes."""
    # one value per period ("in 2019 and 2018, respectively") is no computation over them
    over_periods = len(asked.periods) >= 2 and not asked.several
    outside: list[tuple[_Row, _Row]] = []  # (asked row, the cell's row)
    operand: list[tuple[_Row, Period]] = []  # (asked row, the cell's period)
    for leaf, (table, row) in cells:
        named = _asked_row(hay, table, asked.words)
        if named is None or row.stems <= asked.answer_words:
            return item  # no row named without doubt, or the answer names this one
        if named.node != row.node:
            if row.stems <= asked.words:
                return item  # a row the question names too ("Revenue" in "cost of revenue")
            outside.append((named, row))
            continue
        held = hay.period_of(leaf)
        if not over_periods or held is None or _from_nothing(hay, row, asked.periods):
            # a column that is no period ("Change", "Total") may hold the result; the
            # change from a period printed "-" or 0 is the other period's value
            return item
        operand.append((named, held))
    if outside:
        return misattributed_item(item, hay, mention, f"the row {outside[0][0].label!r} the question asks about",
                                  owner=f"the row {outside[0][1].label!r}")
    named, held = operand[0]
    return misattributed_item(
        item, hay, mention, "the computation the question asks for",
        owner=f"the {yearquarter.text(held)} column of the row {named.label!r}, one value, not the computed one")


#: A question that names the year before its year in words: "2019 to the previous year".
_YEAR_BEFORE = re.compile(r"(?i)\b(?:prior|previous|preceding|last)\s+(?:fiscal\s+)?year\b|"
                          r"\byear[- ]over[- ]year\b|\byoy\b|\b(?:a|the)\s+year\s+(?:earlier|before|ago)\b|"
                          r"\byear[- ]ago\b")
_NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
#: "the five years ended December 31, 2014", "the 3-year period ending 2019": a span
#: of years back from the year named.
_SPAN = re.compile(r"(?i)\b(\d{1,2}|" + "|".join(_NUMBER_WORDS) + r")[- ]years?(?:[- ]period)?\s+(?:ended|ending)\b")


def outside_asked_years(question: str, operands: tuple[LeafId, ...], hay: Haystack, change: bool = True) -> bool:
    """Whether a derivation uses a period the question does not ask about: an operand
    dated outside the years it names (from the earliest to the latest; for a
    ``change`` or a two-year average, a single year also allows the year before it,
    "the change in 2019", "the 2019 average"; "the share in 2019" does not). Only when
    the question's years are periods of the operands' own rows or columns ("notes due 2024" beside 2019 and 2018 columns says
    nothing about them; "due in 2022" in a table of rows 2021 ... 2025 does). A change
    of two-year averages reaches one year further back; "the five years ended 2014"
    runs five years back from 2014, and ends in 2014."""
    asked = sorted({int(y) for y in yearquarter.YEAR_IN_TEXT.findall(question)})
    if not asked:
        return False
    change = change or _YEAR_BEFORE.search(question) is not None  # "2019 to the previous year"
    low, high = (asked[0] - (1 if change else 0), asked[0]) if len(asked) == 1 else (asked[0], asked[-1])
    span = _SPAN.search(question)
    if span is not None:
        years = span.group(1).lower()
        low = min(low, high - (int(years) if years.isdigit() else _NUMBER_WORDS.index(years) + 1))
    if {"mean", "difference"} <= set(cue_words(question)):
        low -= 1  # "the change between the 2018 and 2019 average": 2018's is 2018's and 2017's
    dated = [p for p in (hay.period_of(leaf) for leaf in operands) if p is not None]
    if not dated or not _periods_around(hay, operands) & set(asked):
        return False
    if span is not None and max(year for year, _ in dated) != high:
        return True  # "the five years ended 2014" end in 2014
    return any(not low <= year <= high for year, _ in dated)


def _periods_around(hay: Haystack, operands: tuple[LeafId, ...]) -> set[int]:
    """The years of the cells in the operands' rows and, in printed tables, columns.
    Each row's and column's years are worked out once per haystack: a search may ask
    this of thousands of hits in one column."""
    cache = _AROUND.get(hay)
    if cache is None:
        cache = _AROUND[hay] = {}
    years: set[int] = set()
    for leaf in operands:
        node = hay.leaves[leaf].node
        row = hay.parent(node)
        if ("row", row) not in cache:
            cache[("row", row)] = frozenset(p[0] for cell in hay.children_leaves(row)
                                            if (p := hay.period_of(cell)) is not None)
        years |= cache[("row", row)]
        column, found = hay.segment(node), _row_of(hay, leaf)
        if isinstance(column, int) and found is not None:
            key = ("column", found[0], column)
            if key not in cache:
                cache[key] = frozenset(
                    p[0] for r in _tables(hay)[0].get(found[0], []) for cell in hay.children_leaves(r.node)
                    if hay.segment(hay.leaves[cell].node) == column and (p := hay.period_of(cell)) is not None)
            years |= cache[key]
    return years


#: Per haystack: the years of a row's cells, and of a printed table column's.
_AROUND: weakref.WeakKeyDictionary[Haystack, dict[tuple[object, ...], frozenset[int]]] = weakref.WeakKeyDictionary()


def share_of_unnamed_row(question: str, operands: tuple[LeafId, ...], hay: Haystack,
                         whole: bool = False) -> bool:
    """Whether a share's own operand (the first) is in a row the question does not
    name while it names another row of that table that is no operand ("what percentage
    of total net sales came from Services" is not answered by Licensing's share; "R&D
    as a percentage of total revenue" names only the total it divides by, so the
    numerator's row may be named in other words). Named: all of a row's label words in
    the question (a year labels a row too: "due in 2022"), or, for the share's own row,
    at least half of them. With ``whole`` (a share of a whole column, which sums every
    row) only the first operand's row is the share's own. A row whose words lie inside
    an operand's ("Total assets" inside "Total current assets") names no other row."""
    found = _row_of(hay, operands[0])
    if found is None:
        return False
    table, row = found
    words = _question_words(question)
    if row.stems and len(row.stems & words) * 2 >= len(row.stems):
        return False
    used = {hay.parent(hay.leaves[leaf].node) for leaf in (operands[:1] if whole else operands)}
    rows = _tables(hay)[0].get(table, [])
    used_stems = [r.stems for r in rows if r.node in used]
    # a named row is another row unless it is an operand or its words are an operand's
    # ("Total assets" inside "total current assets", the total divided by)
    return any(r.stems and r.stems <= words and r.node not in used and not r.stems <= _years_only(r.stems)
               and not any(r.stems <= u for u in used_stems) for r in rows)


def _question_words(question: str) -> frozenset[str]:
    """What a question names rows by: its content words, and its years (a row labelled
    "2023" in a lease schedule is named by the year)."""
    return frozenset(content_words(question)) | frozenset(yearquarter.YEAR_IN_TEXT.findall(question))


def _years_only(stems: frozenset[str]) -> frozenset[str]:
    """The stems that are years: a row named only by a year is no row a share is asked
    against ("what percentage is due after 2014" names no row)."""
    return frozenset(s for s in stems if _YEAR.fullmatch(s))


def refuses_rescue(question: str, mention: Mention, operands: tuple[LeafId, ...], hay: Haystack,
                   ex: Extractor, op: str = "") -> bool:
    """Whether a derivation offered for a value this stage flagged explains nothing: it
    combines the very cell the flag is about with something else (55% as 55% / 100%;
    the average of 50 and 50 is fine), takes an operand from a row other than the one
    the question names ("the change in revenue" is not explained by the change in
    operating expenses), or from a period column the question does not name ("the
    average in 2017 and 2018" is not explained by the 2019 and 2017 values; a mean or
    total "from 2021 to 2023" runs through 2022)."""
    flagged = set(candidate_leaves(mention, hay))
    if flagged & set(operands) and not set(operands) <= flagged:
        return True
    if other_row(question, operands, hay) or other_column(question, operands, hay):
        return True
    periods = _question_periods(ex, question)
    if len(periods) < 2:
        return False  # "the change in 2019" runs from the year before: any column may serve
    years = [p[0] for p in periods]
    through = op in ("mean", "total") and _SPANNED.search(question) is not None
    for leaf in operands:
        held = hay.period_of(leaf)
        if held is None or any(yearquarter.same(p, held) for p in periods):
            continue
        if not (through and min(years) < held[0] < max(years)):
            return True
    return False


#: Two periods a question spans rather than lists: "from 2021 to 2023", "2021-2023",
#: "between 2021 and 2023", "2021 through 2023".
_SPANNED = re.compile(r"(?i)\bfrom\s+(?:fy\s*'?)?(?:(?:19|20)\d\d|\d\d)\s+(?:to|through|until)\b"
                      r"|\b(?:fy\s*'?)?(?:19|20)\d\d\s*(?:[-–]|through)\s*(?:fy\s*'?)?(?:19|20)?\d\d\b"
                      r"|\bbetween\s+(?:fy\s*'?)?(?:(?:19|20)\d\d|\d\d)\s+and\b")


def other_row(question: str, operands: tuple[LeafId, ...], hay: Haystack, totalled: bool = False) -> bool:
    """Whether a derivation takes an operand from a table row other than the one the
    question names without doubt (and does not name in full itself): "the change in
    revenue" is not explained by the change in operating expenses. With ``totalled`` (a
    mean over several rows), the rows a named "Total ..." row totals are not other rows.)"""
    words = frozenset(content_words(question))
    for leaf in operands:
        found = _row_of(hay, leaf)
        if found is not None:
            table, row = found
            named = _asked_row(hay, table, words)
            if named is not None and named.node != row.node and not (
                    row.stems and row.stems <= words and not row.stems <= _WHEN_STEMS) and not (
                    totalled and _totals(hay, table, named, row)) and not _named_by_name(row, question):
                return True
    return False


def other_column(question: str, operands: tuple[LeafId, ...], hay: Haystack) -> bool:
    """Whether a derivation takes an operand from a column other than the one the
    question names without doubt, and does not name itself: "the operating lease
    payments due in 2023" is not the finance lease column's figures, nor its "Total"
    column's less the operating one (a header of no content words, such as "Total", is
    named by its own words: "of total lease payments"). Dated columns are the period
    check's."""
    words = _question_words(question)
    said = frozenset(_WORD.findall(question.lower()))
    for leaf in operands:
        found = _row_of(hay, leaf)
        key = hay.leaves[leaf].key
        if found is None or not key or _dated(key):
            continue
        table, row = found
        columns = _columns(hay, table)
        named = _asked_column(hay, table, words)
        if named is None or key == named or columns[named] <= row.stems:
            continue  # (the question's words for the column are the row's: "cost of revenue")
        stems = columns.get(key)
        if not ((stems & words) - columns[named] if stems else frozenset(_WORD.findall(key.lower())) <= said):
            return True
    return False


_WORD = re.compile(r"[^\W\d_]+")


def _named_by_name(row: _Row, question: str) -> bool:
    """Whether a row labelled by a name with a number ("S&P 500": no content words)
    is named by the question writing that name."""
    return row.stems == frozenset({row.label.lower()}) and row.label.lower() in question.lower()


def _totals(hay: Haystack, table: int, total: _Row, row: _Row) -> bool:
    """Whether ``total`` is a "Total ..." row closing the run of rows ``row`` is in
    ("the average non-current asset" names "Total non-current assets"; the rows above
    it, up to a heading or another total, are what it totals)."""
    if not closes_section(total.label) or closes_section(row.label):
        return False  # (a total above it closes a run of its own)
    at = {hay.segment(r.node): r for r in _tables(hay)[0].get(table, [])}
    first, last = hay.segment(row.node), hay.segment(total.node)
    if not isinstance(first, int) or not isinstance(last, int) or first >= last:
        return False
    for index in range(first + 1, last):
        between = at.get(index)
        if between is None or closes_section(between.label) or not any(
                leaf in hay.leaf_value for leaf in hay.children_leaves(between.node)
                if hay.segment(hay.leaves[leaf].node) != 0):
            return False  # a heading, a blank or another total: another run
    return True


def _from_nothing(hay: Haystack, row: _Row, periods: tuple[Period, ...]) -> bool:
    """Whether ``row`` has, in one of ``periods``' columns, a cell that is zero or no
    number at all (a dash)."""
    for leaf in hay.children_leaves(row.node):
        held = hay.period_of(leaf)
        if held is not None and any(yearquarter.same(p, held) for p in periods):
            value = hay.leaf_value.get(leaf)
            if value is None or value == 0:
                return True
    return False


#: A reference to the notes in a row label: "Additions (Note (a))", "(refer to note 18)".
_NOTE_REF = re.compile(r"(?i)\((?:refer to |see )?notes?\b[^()]*(?:\([^()]*\)[^()]*)*\)")

#: Stems of row labels that only say when ("At end of the year", "Beginning"): a
#: question's "2018 year end" names a date, not that row.
_WHEN_STEMS = frozenset({"end", "beginn", "begin", "start"})


def _asked_row(hay: Haystack, table: int, asked_words: frozenset[str]) -> _Row | None:
    """The one row of ``table`` whose label words are all in the question; None when
    no row's are, or when several rows' are and no one's words contain the others'
    ("Total revenue" over "Revenue"; "Accrued expenses" and "Other liabilities" both
    named: no single row). A heading row with no figure ("Tax credits:") is not asked
    about: the question that names it asks about the rows under it."""
    full = [r for r in _tables(hay)[0].get(table, []) if r.stems <= asked_words and not r.stems <= _WHEN_STEMS
            and any(leaf in hay.leaf_value for leaf in hay.children_leaves(r.node)
                    if hay.segment(hay.leaves[leaf].node) != 0)]
    if not full:
        return None
    widest = max(full, key=lambda r: len(r.stems))
    return widest if all(r.stems <= widest.stems for r in full) else None


def _other_column(hay: Haystack, cells: list[tuple[LeafId, tuple[int, _Row]]], asked: _Asked
                  ) -> tuple[str, str] | None:
    """(the column asked about, the value's column) when every copy of the value sits
    in a column other than the one the question names without doubt ("the operating
    lease payments due in 2023" answered from the "Finance Leases" column); None when
    the question names no single column, or shares a word with the value's column, or
    the answer does, or states several values. Period columns are the period check's,
    not this one's."""
    if asked.several:
        return None  # an answer of several values may give other columns' too ("at $150.20, yielding 0.6%")
    found = None
    for leaf, (table, row) in cells:
        key = hay.leaves[leaf].key
        named = _asked_column(hay, table, asked.words)
        if named is None or not key or key == named:
            return None
        columns = _columns(hay, table)
        stems = columns.get(key)
        if not stems or (stems & (asked.words | asked.answer_words)) - columns[named] or columns[named] <= row.stems:
            # a dated or unnamed column, one the question or answer touches by a word the
            # asked column lacks ("the exercise price of the options": "Weighted average
            # exercise price"; "leases" is both columns'), or a question whose words for
            # the column are the row's ("working capital adjustment")
            return None
        found = found or (named, key)
    return found


def _asked_column(hay: Haystack, table: int, asked_words: frozenset[str]) -> str | None:
    """The one column of ``table`` whose header's words are all in the question, as
    :func:`_asked_row` picks a row."""
    full = [(key, stems) for key, stems in _columns(hay, table).items() if stems <= asked_words]
    if not full:
        return None
    widest = max(full, key=lambda c: len(c[1]))
    return widest[0] if all(stems <= widest[1] for _, stems in full) else None


_COLUMNS: weakref.WeakKeyDictionary[Haystack, dict[int, dict[str, frozenset[str]]]] = weakref.WeakKeyDictionary()


def _columns(hay: Haystack, table: int) -> dict[str, frozenset[str]]:
    """The headers of ``table``'s figure columns that say what they hold, each with its
    words: not periods or dated ("2019", "Dec 28, 2019", "Final as of December 31,
    2019"), not words that name nothing ("Total", "% Change")."""
    by_table = _COLUMNS.setdefault(hay, {})
    found = by_table.get(table)
    if found is None:
        found = {}
        for row in _tables(hay)[0].get(table, []):
            for leaf in hay.children_leaves(row.node):
                key = hay.leaves[leaf].key
                if key and key not in found and leaf in hay.leaf_value and not _dated(key):
                    stems = frozenset(content_words(key))
                    if stems:
                        found[key] = stems
        by_table[table] = found
    return found


def _dated(key: str) -> bool:
    """Whether a column header dates its cells ("2019", "Dec 28, 2019", "Estimated at
    June 30, 2019"): the period check's column, not the column check's."""
    return is_period_label(key) or yearquarter.YEAR_IN_TEXT.search(key) is not None


def _has_column(hay: Haystack, table: int, period: Period) -> bool:
    """Whether some cell of ``table`` is in ``period``'s column."""
    for row in _tables(hay)[0].get(table, []):
        for leaf in hay.children_leaves(row.node):
            held = hay.period_of(leaf)
            if held is not None and yearquarter.same(period, held):
                return True
    return False
