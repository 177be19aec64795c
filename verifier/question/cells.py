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
(:mod:`verifier.question.derivations` says when a rescue explains nothing; its checks
are importable from here too, where the derive stage reads them).

Deliberately narrow, because a wrong flag on a correct answer costs more than a missed
one: only exact (not rounded or derived) values; a copy outside any labelled row or
dated prose figure means the value may come from there; a period check only when the
answer names no period and no relative one ("a year earlier"); only rows the question
names without doubt; comparisons ("which year was higher") and quantities a row names
("the gross margin") are lookups, not computations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import yearquarter
from ..checks.attribute import RELATIVE_PERIOD
from ..checks.match import candidate_leaves, misattributed_item
from ..extract import NUMERIC_KINDS, Mention
from ..index import prose_periods
from ..index.haystack import Haystack, LeafId
from ..models import Item
from ..text.sentences import content_words
from ..yearquarter import Period
from .derivations import (
    other_column,
    other_row,
    outside_asked_years,
    refuses_rescue,
    share_of_unnamed_row,
)
from .naming import asked_column, asked_row
from .question import Question
from .tables import Row, has_column, named_columns, row_of

#: The derivation checks the derive stage reads from here (:mod:`verifier.question.derivations`).
__all__ = ["check", "other_column", "other_row", "outside_asked_years", "refuses_rescue", "share_of_unnamed_row"]


def check(question: Question, answer: str, matched: list[tuple[Mention, Item]], hay: Haystack
          ) -> list[tuple[Mention, Item]]:
    """Pairs with values from cells the question does not point at marked misattributed."""
    periods = question.periods
    if (RELATIVE_PERIOD.search(answer) or _COMPARISON.search(answer)
            or any(m.kind in ("date", "period") for m, _ in matched)):
        periods = ()  # the answer says which period it means ("a year earlier", "in 2018")
    values = [i for i, (m, _) in enumerate(matched) if m.kind in NUMERIC_KINDS]
    # one period: every value is of it; "in 2017 and 2018, respectively" with as many
    # values as periods: the k-th value is of the k-th period
    if len(periods) == 1:
        period_of = dict.fromkeys(values, periods[0])
    elif len(periods) > 1 and not question.computes and len(values) == len(periods) and question.respective:
        period_of = dict(zip(values, periods, strict=True))
    else:
        period_of = {}
    asked = _Asked(question.naming, frozenset(content_words(answer)), question.computes, question.periods,
                   several=len(values) > 1 or question.respective)
    out = []
    for i, (mention, item) in enumerate(matched):
        if mention.kind in NUMERIC_KINDS and item.status in ("exact", "normalized"):
            item = _check_value(mention, item, hay, asked, period_of.get(i))
        out.append((mention, item))
    return out


@dataclass(frozen=True, slots=True)
class _Asked:
    """What the question (and the answer's own words) point at, for every value."""

    words: frozenset[str]  # the question's content words and years (``Question.naming``)
    answer_words: frozenset[str]
    computes: bool  # it asks for a computed number (``Question.computes``)
    periods: tuple[Period, ...]  # the periods it names, in order
    several: bool  # the answer states several values, or the question lists them "respectively"


#: Words by which an answer moves off the question's period: those that move between
#: periods (attribution's list) and those that compare with something else.
_COMPARISON = re.compile(r"(?i)\b(?:versus|vs\.?|compared|against)\b")


def _check_value(mention: Mention, item: Item, hay: Haystack, asked: _Asked, asked_period: Period | None) -> Item:
    leaves = candidate_leaves(mention, hay)
    rows = [row_of(hay, leaf) for leaf in leaves]
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
        named = asked_row(hay, table, asked.words)
        if named is None or named.node == row.node or row.stems & asked.words or row.stems <= asked.answer_words:
            return item  # no row named without doubt, the question touches this row, or the answer names it
        asked_rows.append(named)
    return misattributed_item(item, hay, mention, f"the row {asked_rows[0].label!r} the question asks about",
                              owner=f"the row {cells[0][1][1].label!r}")


def _other_period(mention: Mention, hay: Haystack, leaves: list[LeafId], rows: list[tuple[int, Row] | None],
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
            if held is None or not has_column(hay, row[0], asked):
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


def _check_computed(mention: Mention, item: Item, hay: Haystack, cells: list[tuple[LeafId, tuple[int, Row]]],
                    asked: _Asked) -> Item:
    """A question that asks for a computation ("the change in A from 2018 to 2019",
    "the average of A") answered with a value every copy of which is a cell either of
    a row other than A's (one the question does not name in full) or of A's row in a
    period column the computation runs over (the 2019 value given as the change). It
    is flagged; the derive stage then re-tries it, so a computation that happens to
    equal a cell ("the average of 4 and 4") passes."""
    # one value per period ("in 2019 and 2018, respectively") is no computation over them
    over_periods = len(asked.periods) >= 2 and not asked.several
    outside: list[tuple[Row, Row]] = []  # (asked row, the cell's row)
    operand: list[tuple[Row, Period]] = []  # (asked row, the cell's period)
    for leaf, (table, row) in cells:
        named = asked_row(hay, table, asked.words)
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


def _from_nothing(hay: Haystack, row: Row, periods: tuple[Period, ...]) -> bool:
    """Whether ``row`` has, in one of ``periods``' columns, a cell that is zero or no
    number at all (a dash)."""
    for leaf in hay.children_leaves(row.node):
        held = hay.period_of(leaf)
        if held is not None and any(yearquarter.same(p, held) for p in periods):
            value = hay.leaf_value.get(leaf)
            if value is None or value == 0:
                return True
    return False


def _other_column(hay: Haystack, cells: list[tuple[LeafId, tuple[int, Row]]], asked: _Asked
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
        named = asked_column(hay, table, asked.words)
        if named is None or not key or key == named:
            return None
        columns = named_columns(hay, table)
        stems = columns.get(key)
        if not stems or (stems & (asked.words | asked.answer_words)) - columns[named] or columns[named] <= row.stems:
            # a dated or unnamed column, one the question or answer touches by a word the
            # asked column lacks ("the exercise price of the options": "Weighted average
            # exercise price"; "leases" is both columns'), or a question whose words for
            # the column are the row's ("working capital adjustment")
            return None
        found = found or (named, key)
    return found
