"""Records: what the enclosing records of a leaf say about it. The period its figures
are for (a year/quarter field, a key that is one, a year column header, row label or
title), the ticker whose record holds it, and the currency it is stated in.

Each answer walks up from a leaf's node to its tool's root; the per-record facts are
read once per haystack, on first use."""

from __future__ import annotations

from collections.abc import Mapping

from verifier.normalizers import amounts, tickers

from .field_keys import CURRENCY_KEYS, SYMBOL_KEYS
from .leaves import LeafId
from .period_labels import PERIOD_FIELD, period_role, year_quarter
from .tree import Tree


class Records:
    """The record-level lookups over one tree and the walk's period, date and key
    indexes."""

    def __init__(self, tree: Tree, key_leaves: set[LeafId], periods: Mapping[str, list[LeafId]],
                 dates: Mapping[str, list[LeafId]]) -> None:
        self.tree = tree
        self.leaves = tree.leaves
        self._parent = tree.parents
        self._segment = tree.segments
        self.key_leaves = key_leaves
        self.periods = periods
        self.dates = dates
        self._periods_by_node: dict[int, tuple[int, int | None]] | None = None
        self._entities: dict[int, str] | None = None

    def period_of(self, leaf: LeafId) -> tuple[int, int | None] | None:
        """(year, quarter or None) of the nearest enclosing record that states a period:
        a year/quarter/period/date field among its fields ({"fiscal_year": 2025},
        {"period": "Q3 2025"}), or a key that is one ({"2025": {...}}). None when no
        enclosing record states one. A column header that is a year ("2025") is the
        period of the cells under it, and so is a row label that is one, and then a
        title printed above the column or section (:mod:`verifier.index.table_layout`)."""
        entry = self.leaves[leaf]
        if entry.key and leaf not in self.key_leaves:
            own = year_quarter(entry.key.strip())
            if own is not None:
                return own
        row = self._parent[entry.node]
        if row >= 0 and isinstance(self._segment[row], int) and self._segment[entry.node] != 0:
            # a table row labelled by a year (a lease schedule: "2022", 6, 7)
            for cell in self.tree.children_leaves(row):
                if self._segment[self.leaves[cell].node] == 0:
                    label = year_quarter(self.leaves[cell].raw.strip())
                    if label is not None:
                        return label
                    break
        for title in self.tree.titles.get(entry.node, ()):
            # a title over the column or section ("December 31, 2018" over "Fair Value")
            own = year_quarter(title)
            if own is not None:
                return own
        node = self._parent[entry.node]
        while node >= 0:
            found = self._record_periods().get(node)
            if found is not None:
                return found
            node = self._parent[node]
        return None

    def _record_periods(self) -> dict[int, tuple[int, int | None]]:
        if self._periods_by_node is None:
            by_node: dict[int, tuple[int, int | None]] = {}
            for key, leaves in list(self.periods.items()) + list(self.dates.items()):
                period = year_quarter(key)
                if period is None:
                    continue
                for leaf in leaves:
                    entry = self.leaves[leaf]
                    if leaf in self.key_leaves:  # {"2025": {...}}: the key names the object under it
                        record = entry.node
                    elif entry.key and (period_role(entry.key) or PERIOD_FIELD.match(entry.key)):
                        record = self._parent[entry.node]
                    else:
                        continue
                    old = by_node.get(record)
                    if old is None or (old[1] is None and period[1] is not None and old[0] == period[0]):
                        by_node[record] = period
            self._periods_by_node = by_node
        return self._periods_by_node

    def entity_of(self, leaf: LeafId) -> str | None:
        """The ticker whose record holds ``leaf``: the nearest enclosing object or row
        with a symbol field ({"symbol": "AAPL", "price": ...}), or an object stored
        under a ticker key ({"AAPL": {...}}); None for values outside any such record."""
        if self._entities is None:
            entities: dict[int, str] = {}
            for i, entry in enumerate(self.leaves):
                if i in self.key_leaves and tickers.is_valid(entry.raw):
                    entities.setdefault(entry.node, tickers.canonical(entry.raw))
                elif entry.key and entry.key.lower() in SYMBOL_KEYS and 0 < len(entry.raw.strip()) <= 16:
                    entities.setdefault(self._parent[entry.node], tickers.canonical(entry.raw))
            self._entities = entities
        node = self._parent[self.leaves[leaf].node]
        while node >= 0:
            if node in self._entities:
                return self._entities[node]
            node = self._parent[node]
        return None

    def currency_of(self, leaf: LeafId) -> str | None:
        """The ISO currency the data states for a leaf: a ``currency`` field in its
        record or an enclosing one ({"currency": "EUR", "price": 1234.56}), a sub-unit
        code as such ("GBp": pence); None when it states none."""
        node = self._parent[self.leaves[leaf].node]
        while node >= -1:
            for sibling in self.tree.children_leaves(node):
                entry = self.leaves[sibling]
                if entry.key and entry.key.lower() in CURRENCY_KEYS:
                    code = amounts.currency_code(entry.raw)  # "usd" -> USD; "GBX" -> GBp (pence)
                    if code is not None:
                        return code
            if node < 0:
                break
            node = self._parent[node]
        return None
