"""Haystack: tool results flattened once into leaves with their JSON paths, and
indexed so that every lookup is a hash or a bisect, never a scan of the JSON text.

This module is the face of :mod:`verifier.index`: the Haystack holds what
:mod:`~verifier.index.walk` found (numbers, dates, periods, tickers, codes, ratings,
counts, moments, the text of every string), the :mod:`~verifier.index.tree` of nodes
and leaves, and the :mod:`~verifier.index.records` lookups, and answers the questions
the stages ask of the data: values near a figure, the leaves a phrase is in, a leaf's
path, period, entity, currency, scale and percent unit. The tree's arrays stay inside
the package; callers use ``parent(node)``, ``segment(node)`` and the lookups below.
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import Any

import regex

from verifier.normalizers import NormalizeError, fold, quotes

from .._errors import InputError, LimitError
from ..deadline import check as _check_deadline
from ..extract import Extractor, extractor
from ..inputs.jsonio import count_leaves
from . import percent_units
from .field_keys import SYMBOL_KEYS
from .leaves import Leaf, LeafId, NumRef, Tool
from .memo import Memo
from .period_labels import is_period_label
from .records import Records
from .scales import key_scale
from .tree import Tree
from .walk import Walk

#: What callers import from here (the types live in :mod:`verifier.index.leaves`).
__all__ = ["Haystack", "Leaf", "LeafId", "NumRef", "Tool", "as_tools", "is_period_label", "iter_leaves"]


def as_tools(tool_results: Any) -> list[Tool]:
    """Normalize the ``tool_results`` argument of ``verify`` to a list of Tools.

    A list of ``{"name", "output"[, "id"]}`` objects is a list of tool results; any
    other JSON value is one anonymous tool result named ``"tool"``.
    """
    if isinstance(tool_results, Haystack):
        raise InputError("pass a Haystack as haystack=, not as tool_results", "tool_results")
    if isinstance(tool_results, dict) and "output" in tool_results and "name" in tool_results \
            and set(tool_results) <= {"name", "output", "id", "arguments"}:
        tool_results = [tool_results]
    if isinstance(tool_results, (list, tuple)) and tool_results and all(
        isinstance(t, dict) and "name" in t and set(t) <= {"name", "id", "arguments", "output"}
        for t in tool_results
    ):  # every element shaped like a tool result: one without "output" is a mistake, not data
        tools = []
        for i, t in enumerate(tool_results):
            if "output" not in t:
                raise InputError("tool result has a name but no 'output'", f"tool_results[{i}]")
            name, call_id = t["name"], t.get("id")
            if not isinstance(name, str):
                raise InputError(f"'name' must be a string, got {type(name).__name__}", f"tool_results[{i}].name")
            if call_id is not None and not isinstance(call_id, str):
                call_id = str(call_id)
            tools.append(Tool(i, name, call_id, t["output"]))
        return tools
    return [Tool(0, "tool", None, tool_results)]


class Haystack:
    """The indexed tool results. Build once, pass to many ``verify`` calls.

    >>> h = Haystack([{"name": "quote", "output": {"symbol": "AAPL", "price": 142.3}}])
    >>> [h.path(r.leaf) for r in h.numbers[Decimal("142.30")]]
    ['$.price']
    """

    def __init__(
        self, tool_results: Any, *, locale: str = "en_US", max_leaves: int = 2_000_000
    ) -> None:
        self.locale = locale
        self.tools = as_tools(tool_results)
        self.max_leaves = max_leaves
        try:
            self._extractor: Extractor = extractor(locale)
        except NormalizeError as exc:
            raise InputError(str(exc), "locale") from None
        if count_leaves([t.output for t in self.tools], max_leaves) > max_leaves:  # before any indexing
            raise LimitError("number of leaves in the tool results", max_leaves + 1, max_leaves)
        tree = Tree(max_leaves)
        found = Walk(self.tools, self._extractor, tree)
        self._tree = tree
        self.leaves: list[Leaf] = tree.leaves
        self._parent = tree.parents
        self._segment = tree.segments
        self.numbers: dict[Decimal, list[NumRef]] = found.numbers
        self.dates: dict[str, list[LeafId]] = found.dates
        self.periods: dict[str, list[LeafId]] = found.periods
        self.tickers: dict[str, list[LeafId]] = found.tickers
        self.codes: dict[str, list[LeafId]] = found.codes
        self.ratings: dict[str, list[LeafId]] = found.ratings  # a string leaf that is a grade: "BBB+"
        self.counts: dict[int, list[tuple[int, int]]] = found.counts  # length -> (tool, node)
        #: moments the data states (ISO date-times with a zone or offset, epoch timestamps)
        self.instants: list[tuple[LeafId, dt.datetime]] = found.instants
        #: times of day the data states without a moment: (leaf, "HH:MM", IANA zone or None)
        self.clock_times: list[tuple[LeafId, str, str | None]] = found.clock_times
        self.tool_scale: dict[int, Decimal] = found.tool_scale  # tool index -> scale from a unit field
        self.key_leaves: set[LeafId] = found.key_leaves  # leaves that are object keys, not values
        #: each numeric leaf's own number as written (a percent string "4.00%" -> 4.00):
        #: the operands the derive stage combines
        self.leaf_value: dict[LeafId, Decimal] = found.leaf_value
        #: figures in running text, as written, each with the scale its own words give it
        #: ("$60.3 million" -> (60.3, 1E+6)) or None (then its tool's unit applies)
        self.text_values: dict[LeafId, list[tuple[Decimal, Decimal | None]]] = found.text_values
        #: leaves that hold a percentage: a "12.3%" string, or a number under a key or
        #: column header that says so (change_pct, "Change (%)", yield, rate)
        self.percent_leaves: set[LeafId] = found.percent_leaves
        #: what later stages derive from this haystack, kept for its lifetime (see memo.py)
        self.memo = Memo()
        self._strings: list[LeafId] = found.strings
        self._string_set: frozenset[LeafId] | None = None
        self._sorted: list[Decimal] | None = None
        self._text: str | None = None
        self._text_starts: list[int] = []
        self._pct_columns: set[tuple[int, str | int | None]] | None = None
        self._records = Records(tree, self.key_leaves, self.periods, self.dates)

    # -- lookups ----------------------------------------------------------------------

    def near(self, value: Decimal, tolerance: Decimal) -> Iterator[Decimal]:
        """Indexed values within ``tolerance`` of ``value`` (inclusive), by bisection."""
        if self._sorted is None:
            self._sorted = sorted(self.numbers)
        keys = self._sorted
        lo = bisect.bisect_left(keys, value - tolerance)
        hi = bisect.bisect_right(keys, value + tolerance)
        return iter(keys[lo:hi])

    def find_text_all(self, phrase: str, limit: int = 1_000) -> list[LeafId]:
        """Every string leaf whose normalized text contains ``phrase`` (at most ``limit``)."""
        text = self._joined_text()
        found: list[LeafId] = []
        at = text.find(phrase)
        while at >= 0 and len(found) < limit:
            leaf = self._strings[bisect.bisect_right(self._text_starts, at) - 1]
            if not found or found[-1] != leaf:
                found.append(leaf)
            at = text.find(phrase, at + 1)
        return found

    def find_text(self, phrase: str) -> LeafId | None:
        """The first string leaf whose normalized text contains ``phrase``."""
        at = self._joined_text().find(phrase)
        if at < 0:
            return None
        return self._strings[bisect.bisect_right(self._text_starts, at) - 1]

    def _joined_text(self) -> str:
        """Every string leaf, normalized, joined by NULs (built once): phrase searches
        are one ``str.find`` over it, and ``_text_starts`` maps a hit back to its leaf."""
        if self._text is None:
            parts, starts, pos = [], [], 0
            for leaf in self._strings:
                text = quotes.normalize(fold(self.leaves[leaf].raw))
                starts.append(pos)
                parts.append(text)
                pos += len(text) + 1
            self._text = "\x00".join(parts)
            self._text_starts = starts
        return self._text

    # -- provenance -------------------------------------------------------------------

    def path_of_node(self, node: int) -> str:
        """The JSONPath of a node, relative to its tool's output (``$.results[3].price``).
        Kept once built: a warm haystack serves the same paths to many answers."""
        return self._tree.path_of_node(node)

    def path(self, leaf: LeafId) -> str:
        """The JSONPath of a leaf."""
        return self._tree.path_of_node(self.leaves[leaf].node)

    def titles_of(self, leaf: LeafId) -> tuple[str, ...]:
        """The titles printed above a table cell's column or section, top first."""
        return self._tree.titles_of(leaf)

    def period_of(self, leaf: LeafId) -> tuple[int, int | None] | None:
        """(year, quarter or None) the data states for a leaf's figure: see
        :meth:`verifier.index.records.Records.period_of`."""
        return self._records.period_of(leaf)

    def names_ticker(self, leaf: LeafId) -> bool:
        """Whether ``leaf`` names a ticker as such: an object key, a symbol field, or a
        string that is only the ticker ("AAPL", "NASDAQ:AAPL"), not a word of prose."""
        entry = self.leaves[leaf]
        if leaf in self.key_leaves or (entry.key and entry.key.lower() in SYMBOL_KEYS):
            return True
        return " " not in entry.raw.strip()

    def parent(self, node: int) -> int:
        """The node enclosing ``node`` (-1 at a tool's root)."""
        return self._parent[node]

    def segment(self, node: int) -> str | int | None:
        """The key or list index that leads to ``node`` from its parent."""
        return self._segment[node]

    @property
    def extractor(self) -> Extractor:
        """The extractor that read this haystack's strings (its locale's)."""
        return self._extractor

    def is_string(self, leaf: LeafId) -> bool:
        """Whether ``leaf`` is a string value (not a number, boolean or key)."""
        if self._string_set is None:
            self._string_set = frozenset(self._strings)
        return leaf in self._string_set

    def children_leaves(self, parent: int) -> list[LeafId]:
        """Leaves directly under node ``parent`` (a record's fields, a row's cells), in
        document order. Built once, on first use."""
        return self._tree.children_leaves(parent)

    def is_percent(self, leaf: LeafId) -> bool:
        """Whether a leaf holds a percentage, in any unit (:func:`percent_unit`)."""
        return percent_units.unit(self, leaf) is not None

    def percent_unit(self, leaf: LeafId) -> str | None:
        """The unit of a leaf's figure: ``"points"`` (4.21 for 4.21%), ``"fraction"``
        (0.0421), ``"basis points"``, or None (a plain number), as the data states or
        implies it (a unit field or map, a "2.91%" beside it, its key, its column's
        magnitudes): see :mod:`verifier.index.percent_units`."""
        return percent_units.unit(self, leaf)

    def percent_columns(self) -> set[tuple[int, str | int | None]]:
        """(table or array node, column) pairs whose figures are percentages: the first
        is printed with "%" ("100.0 %" atop a common-size statement, "50.9" below), the
        last is a "100.0%" (shares over their total), or at least half of them are. One
        "Gross margin percentage" or "EBITA margin" row among them does not make a
        column of dollar amounts percentages."""
        if self._pct_columns is None:
            first: dict[tuple[int, str | int | None], bool] = {}
            last: dict[tuple[int, str | int | None], bool] = {}
            counts: dict[tuple[int, str | int | None], list[int]] = defaultdict(lambda: [0, 0])
            for leaf in sorted(self.leaf_value):
                entry = self.leaves[leaf]
                parent = self._parent[entry.node]
                if parent >= 0 and self._parent[parent] >= 0:  # rows of a table or array, not a tool's fields
                    column = (self._parent[parent], self._segment[entry.node])
                    marked = "%" in entry.raw and leaf in self.percent_leaves
                    first.setdefault(column, marked)
                    # shares over their total: a "Total" row of "100.0%"
                    last[column] = marked and self.leaf_value[leaf] == 100 and bool(
                        _TOTAL_LABEL.match(self._row_label(parent)))
                    counts[column][0] += marked
                    counts[column][1] += 1
            self._pct_columns = {c for c, (marked, n) in counts.items()
                                 if first[c] or last[c] or marked * 2 >= n > 0 and marked}
        return self._pct_columns

    def _row_label(self, row: int) -> str:
        """A printed table row's label: its first cell, when that is text."""
        for cell in self.children_leaves(row):
            if self._segment[self.leaves[cell].node] == 0 and cell not in self.leaf_value:
                return self.leaves[cell].raw
        return ""

    def entity_of(self, leaf: LeafId) -> str | None:
        """The ticker whose record holds ``leaf`` (its record's symbol field, or the
        ticker key it is stored under), or None: see :class:`verifier.index.records.Records`."""
        return self._records.entity_of(leaf)

    def currency_of(self, leaf: LeafId) -> str | None:
        """The ISO currency the data states for a leaf (a ``currency`` field in its
        record or an enclosing one), or None."""
        return self._records.currency_of(leaf)

    def leaf_scale(self, leaf: LeafId) -> Decimal | None:
        """The scale the data states for a leaf: from its key/column header, else from
        its table's corner or title ("(In millions)"), else from its tool's unit field;
        None when the data says nothing."""
        _check_deadline()  # asked of every member of an operand group
        entry = self.leaves[leaf]
        own = key_scale(entry.key) or self._tree.stated_scale(leaf)
        return own or self.tool_scale.get(entry.tool)

    def unit_exempt(self, leaf: LeafId) -> bool:
        """Whether a cell's table states a unit that leaves this cell alone (a per-share
        row or a price column of a table "in millions")."""
        return self._tree.stated_scale(leaf) == 1

    def tool_of(self, leaf: LeafId) -> Tool:
        """The tool result a leaf belongs to."""
        return self.tools[self.leaves[leaf].tool]

    def __len__(self) -> int:
        return len(self.leaves)

    def __repr__(self) -> str:
        return f"<Haystack {len(self.tools)} tools, {len(self.leaves)} leaves, locale {self.locale}>"


#: A total row's label.
_TOTAL_LABEL = regex.compile(r"(?i)\s*(?:grand\s+)?totals?\b")


def iter_leaves(h: Haystack) -> Iterable[tuple[str, str, str]]:
    """(tool name, path, raw) of every leaf, for debugging and tests."""
    for i, leaf in enumerate(h.leaves):
        yield h.tools[leaf.tool].name, h.path(i), leaf.raw
