"""Which row or column of a table a question names without doubt: the one whose label
words are all among the question's (and whose words hold every other such row's:
"Total revenue" over "Revenue"). The cells checks flag a value from another row or
column only when the question names one this way."""

from __future__ import annotations

from ..index.haystack import Haystack
from .tables import YEAR, Row, labelled_tables, named_columns

#: Stems of row labels that only say when ("At end of the year", "Beginning"): a
#: question's "2018 year end" names a date, not that row.
WHEN_STEMS = frozenset({"end", "beginn", "begin", "start"})


def asked_row(hay: Haystack, table: int, asked_words: frozenset[str]) -> Row | None:
    """The one row of ``table`` whose label words are all in the question; None when
    no row's are, or when several rows' are and no one's words contain the others'
    ("Total revenue" over "Revenue"; "Accrued expenses" and "Other liabilities" both
    named: no single row). A heading row with no figure ("Tax credits:") is not asked
    about: the question that names it asks about the rows under it."""
    full = [r for r in labelled_tables(hay)[0].get(table, []) if r.stems <= asked_words and not r.stems <= WHEN_STEMS
            and any(leaf in hay.leaf_value for leaf in hay.children_leaves(r.node)
                    if hay.segment(hay.leaves[leaf].node) != 0)]
    if not full:
        return None
    widest = max(full, key=lambda r: len(r.stems))
    return widest if all(r.stems <= widest.stems for r in full) else None


def asked_column(hay: Haystack, table: int, asked_words: frozenset[str]) -> str | None:
    """The one column of ``table`` whose header's words are all in the question, as
    :func:`asked_row` picks a row."""
    full = [(key, stems) for key, stems in named_columns(hay, table).items() if stems <= asked_words]
    if not full:
        return None
    widest = max(full, key=lambda c: len(c[1]))
    return widest[0] if all(stems <= widest[1] for _, stems in full) else None


def named_by_name(row: Row, question: str) -> bool:
    """Whether a row labelled by a name with a number ("S&P 500": no content words)
    is named by the question writing that name."""
    return row.stems == frozenset({row.label.lower()}) and row.label.lower() in question.lower()


def years_only(stems: frozenset[str]) -> frozenset[str]:
    """The stems that are years: a row named only by a year is no row a share is asked
    against ("what percentage is due after 2014" names no row)."""
    return frozenset(s for s in stems if YEAR.fullmatch(s))
