"""The haystack's tables as the question's cells checks read them: labelled rows (a
list whose first cell is text, or a year) with their label's words, and the figure
columns whose headers say what they hold (not a period's or a date's). Made once per
haystack; which row or column a question names is :mod:`verifier.question.naming`'s."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import yearquarter
from ..index.haystack import Haystack, LeafId, is_period_label
from ..index.memo import PerHaystack
from ..text.sentences import content_words
from ..yearquarter import Period


@dataclass(frozen=True, slots=True)
class Row:
    """A labelled row of a table: its node, its label as printed, the label's stems."""

    node: int
    label: str
    stems: frozenset[str]


_TABLES: PerHaystack[tuple[dict[int, list[Row]], dict[int, tuple[int, Row]]]] = PerHaystack("cells.tables")


def labelled_tables(hay: Haystack) -> tuple[dict[int, list[Row]], dict[int, tuple[int, Row]]]:
    """(table node -> its labelled rows, row node -> (table node, row)); a labelled row
    is a list, itself a list element, whose first cell is text."""
    found = _TABLES.get(hay)
    if found is None:
        tables: dict[int, list[Row]] = {}
        rows: dict[int, tuple[int, Row]] = {}
        for leaf, entry in enumerate(hay.leaves):
            row = hay.parent(entry.node)
            if row < 0 or hay.segment(entry.node) != 0 or not isinstance(hay.segment(row), int):
                continue
            if not entry.raw.strip() or not (hay.is_string(leaf) or YEAR.fullmatch(entry.raw.strip())):
                continue
            if YEAR.fullmatch(entry.raw.strip()):  # a year labels its row ("2022", or 2022: a lease schedule)
                stems = frozenset({entry.raw.strip()})
            elif leaf in hay.leaf_value:
                continue  # a number is not a label
            else:
                # a name of no content words but a number ("S&P 500") is still a row's
                # label ("Total" alone is not: it says which row, not what)
                stems = frozenset(content_words(NOTE_REF.sub(" ", entry.raw))) or (
                    frozenset({entry.raw.strip().lower()}) if any(ch.isdigit() for ch in entry.raw) else frozenset())
            if stems:
                labelled = Row(row, entry.raw.strip(), stems)
                tables.setdefault(hay.parent(row), []).append(labelled)
                rows[row] = (hay.parent(row), labelled)
        found = tables, rows
        found = _TABLES.setdefault(hay, found)
    return found


def row_of(hay: Haystack, leaf: LeafId) -> tuple[int, Row] | None:
    """(table node, row) of a cell in a labelled row; None for anything else."""
    if hay.segment(hay.leaves[leaf].node) == 0:
        return None  # the label itself
    return labelled_tables(hay)[1].get(hay.parent(hay.leaves[leaf].node))


#: A year as a row label ("2022", "FY2022").
YEAR = re.compile(r"(?:FY)?(?:19|20)\d\d")

#: A reference to the notes in a row label: "Additions (Note (a))", "(refer to note 18)".
NOTE_REF = re.compile(r"(?i)\((?:refer to |see )?notes?\b[^()]*(?:\([^()]*\)[^()]*)*\)")

_COLUMNS: PerHaystack[dict[int, dict[str, frozenset[str]]]] = PerHaystack("cells.named_columns")


def named_columns(hay: Haystack, table: int) -> dict[str, frozenset[str]]:
    """The headers of ``table``'s figure columns that say what they hold, each with its
    words: not periods or dated ("2019", "Dec 28, 2019", "Final as of December 31,
    2019"), not words that name nothing ("Total", "% Change")."""
    by_table = _COLUMNS.setdefault(hay, {})
    found = by_table.get(table)
    if found is None:
        found = {}
        for row in labelled_tables(hay)[0].get(table, []):
            for leaf in hay.children_leaves(row.node):
                key = hay.leaves[leaf].key
                if key and key not in found and leaf in hay.leaf_value and not dated_header(key):
                    stems = frozenset(content_words(key))
                    if stems:
                        found[key] = stems
        by_table[table] = found
    return found


def dated_header(key: str) -> bool:
    """Whether a column header dates its cells ("2019", "Dec 28, 2019", "Estimated at
    June 30, 2019"): the period check's column, not the column check's."""
    return is_period_label(key) or yearquarter.YEAR_IN_TEXT.search(key) is not None


def has_column(hay: Haystack, table: int, period: Period) -> bool:
    """Whether some cell of ``table`` is in ``period``'s column."""
    for row in labelled_tables(hay)[0].get(table, []):
        for leaf in hay.children_leaves(row.node):
            held = hay.period_of(leaf)
            if held is not None and yearquarter.same(period, held):
                return True
    return False
