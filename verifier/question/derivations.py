"""Whether a derivation the derive stage found answers what the question asks: its
operands from the row, column and years the question names, not others.

"The change in revenue" is not explained by the change in operating expenses, "the
operating lease payments due in 2023" not by the finance lease column, "the average in
2017 and 2018" not by the 2019 and 2017 values; a value the cells check flagged is not
explained by a derivation that combines the flagged cell with something else. Each
check reads the question's text as the derive stage passes it (see
:mod:`verifier.question.question` for the question read once).
"""

from __future__ import annotations

import re

from verifier import stoplists

from .. import yearquarter
from ..checks.match import candidate_leaves
from ..derive.operands import closes_section
from ..extract import Extractor, Mention
from ..index.haystack import Haystack, LeafId
from ..index.memo import PerHaystack
from ..text.cues import cue_words
from ..text.sentences import content_words
from .naming import WHEN_STEMS, asked_column, asked_row, named_by_name, years_only
from .question import naming_words, question_periods
from .tables import Row, dated_header, labelled_tables, named_columns, row_of

#: A question that names the year before its year in words: "2019 to the previous year".
_YEAR_BEFORE = re.compile(r"""(?ix)
    \b(?:prior|previous|preceding|last)\s+(?:fiscal\s+)?year\b  # "the previous year", "last fiscal year"
  | \byear[- ]over[- ]year\b | \byoy\b                         # "year-over-year", "YoY"
  | \b(?:a|the)\s+year\s+(?:earlier|before|ago)\b              # "a year earlier"
  | \byear[- ]ago\b                                             # "the year-ago quarter"
""")
#: "five" -> 5 (stoplists/number_words.txt).
_NUMBER_WORDS = {word: int(value) for word, value in stoplists.load_pairs("number_words").items()}
#: "the five years ended December 31, 2014", "the 3-year period ending 2019": a span
#: of years back from the year named.
_SPAN = re.compile(r"""(?ix)
    \b(\d{1,2}|""" + "|".join(sorted(_NUMBER_WORDS, key=_NUMBER_WORDS.__getitem__)) + r""")  # "five", "3"
    [- ]years?(?:[- ]period)?                                    # " years", "-year period"
    \s+(?:ended|ending)\b                                        # "ended December 31, 2014"
""")


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
        low = min(low, high - (int(years) if years.isdigit() else _NUMBER_WORDS[years]))
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
        cache = _AROUND.setdefault(hay, {})
    years: set[int] = set()
    for leaf in operands:
        node = hay.leaves[leaf].node
        row = hay.parent(node)
        if ("row", row) not in cache:
            cache[("row", row)] = frozenset(p[0] for cell in hay.children_leaves(row)
                                            if (p := hay.period_of(cell)) is not None)
        years |= cache[("row", row)]
        column, found = hay.segment(node), row_of(hay, leaf)
        if isinstance(column, int) and found is not None:
            key = ("column", found[0], column)
            if key not in cache:
                cache[key] = frozenset(
                    p[0] for r in labelled_tables(hay)[0].get(found[0], []) for cell in hay.children_leaves(r.node)
                    if hay.segment(hay.leaves[cell].node) == column and (p := hay.period_of(cell)) is not None)
            years |= cache[key]
    return years


#: Per haystack: the years of a row's cells, and of a printed table column's.
_AROUND: PerHaystack[dict[tuple[object, ...], frozenset[int]]] = PerHaystack("cells.periods_around")


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
    found = row_of(hay, operands[0])
    if found is None:
        return False
    table, row = found
    words = naming_words(question)
    if row.stems and len(row.stems & words) * 2 >= len(row.stems):
        return False
    used = {hay.parent(hay.leaves[leaf].node) for leaf in (operands[:1] if whole else operands)}
    rows = labelled_tables(hay)[0].get(table, [])
    used_stems = [r.stems for r in rows if r.node in used]
    # a named row is another row unless it is an operand or its words are an operand's
    # ("Total assets" inside "total current assets", the total divided by)
    return any(r.stems and r.stems <= words and r.node not in used and not r.stems <= years_only(r.stems)
               and not any(r.stems <= u for u in used_stems) for r in rows)


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
    periods = question_periods(ex, question)
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
_SPANNED = re.compile(r"""(?ix)
    \bfrom\s+(?:fy\s*'?)?(?:(?:19|20)\d\d|\d\d)\s+(?:to|through|until)\b            # "from 2021 to"
  | \b(?:fy\s*'?)?(?:19|20)\d\d\s*(?:[-–]|through)\s*(?:fy\s*'?)?(?:19|20)?\d\d\b  # "2021-2023", "2021 through 23"
  | \bbetween\s+(?:fy\s*'?)?(?:(?:19|20)\d\d|\d\d)\s+and\b                          # "between 2021 and"
""")


def other_row(question: str, operands: tuple[LeafId, ...], hay: Haystack, totalled: bool = False) -> bool:
    """Whether a derivation takes an operand from a table row other than the one the
    question names without doubt (and does not name in full itself): "the change in
    revenue" is not explained by the change in operating expenses. With ``totalled`` (a
    mean over several rows), the rows a named "Total ..." row totals are not other rows.)"""
    words = frozenset(content_words(question))
    for leaf in operands:
        found = row_of(hay, leaf)
        if found is not None:
            table, row = found
            named = asked_row(hay, table, words)
            if named is not None and named.node != row.node and not (
                    row.stems and row.stems <= words and not row.stems <= WHEN_STEMS) and not (
                    totalled and _totals(hay, table, named, row)) and not named_by_name(row, question):
                return True
    return False


def other_column(question: str, operands: tuple[LeafId, ...], hay: Haystack) -> bool:
    """Whether a derivation takes an operand from a column other than the one the
    question names without doubt, and does not name itself: "the operating lease
    payments due in 2023" is not the finance lease column's figures, nor its "Total"
    column's less the operating one (a header of no content words, such as "Total", is
    named by its own words: "of total lease payments"). Dated columns are the period
    check's."""
    words = naming_words(question)
    said = frozenset(_WORD.findall(question.lower()))
    for leaf in operands:
        found = row_of(hay, leaf)
        key = hay.leaves[leaf].key
        if found is None or not key or dated_header(key):
            continue
        table, row = found
        columns = named_columns(hay, table)
        named = asked_column(hay, table, words)
        if named is None or key == named or columns[named] <= row.stems:
            continue  # (the question's words for the column are the row's: "cost of revenue")
        stems = columns.get(key)
        if not ((stems & words) - columns[named] if stems else frozenset(_WORD.findall(key.lower())) <= said):
            return True
    return False


_WORD = re.compile(r"[^\W\d_]+")


def _totals(hay: Haystack, table: int, total: Row, row: Row) -> bool:
    """Whether ``total`` is a "Total ..." row closing the run of rows ``row`` is in
    ("the average non-current asset" names "Total non-current assets"; the rows above
    it, up to a heading or another total, are what it totals)."""
    if not closes_section(total.label) or closes_section(row.label):
        return False  # (a total above it closes a run of its own)
    at = {hay.segment(r.node): r for r in labelled_tables(hay)[0].get(table, [])}
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
