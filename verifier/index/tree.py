"""The tree of the flattened tool results: every node's parent and key (its segment),
the leaves hung on them, and what a printed table states around its cells (its header
lists, the titles over a column or section, the scale its corner or title gives a row
or cell).

Nodes are two parallel arrays, not objects: a haystack holds up to millions of them.
Paths are built only for leaves that become evidence (and kept, for the next answer
over the same data). Only :mod:`verifier.index` reads these arrays; everyone else asks
the Haystack (``parent``, ``segment``, ``path_of_node``, ``children_leaves``)."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

import regex

from .._errors import LimitError
from ..deadline import check as _check_deadline
from .leaves import Leaf, LeafId

_IDENT = regex.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Tree:
    """Nodes (``parents[n]``: -1 at a tool's root; ``segments[n]``: the key or list
    index that leads to ``n``), leaves, and the marks of printed tables."""

    def __init__(self, max_leaves: int) -> None:
        self.max_leaves = max_leaves
        self.leaves: list[Leaf] = []
        self.parents: list[int] = []
        self.segments: list[str | int | None] = []
        self.header_nodes: set[int] = set()  # a table's header lists ("columns" beside "rows")
        #: a table cell's titles, top first: spanning header rows and section rows
        #: ("December 31, 2018" over "Carrying Amount"), see verifier.index.table_layout
        self.titles: dict[int, tuple[str, ...]] = {}
        #: a table row's node -> the scale its table's corner or title states for it
        #: ("(In millions)"; not for an "except per share" row)
        self.table_scales: dict[int, Decimal] = {}
        self.unscaled_cells: set[int] = set()  # cells of such a row its unit leaves alone (a price)
        self.titled_cells: dict[int, Decimal] = {}  # cells under a title that states a unit
        self._paths: dict[int, str] = {}
        self._children: dict[int, list[LeafId]] | None = None

    # -- building ---------------------------------------------------------------------

    def node(self, parent: int, segment: str | int | None) -> int:
        """A new node under ``parent``, reached by ``segment``."""
        _check_deadline()  # every node of the walk: an object's 150,000 keys before a leaf
        self.parents.append(parent)
        self.segments.append(segment)
        return len(self.parents) - 1

    def add_leaf(self, tool: int, node: int, key: str | None, raw: str) -> LeafId:
        """A new leaf at ``node``; past ``max_leaves`` a LimitError."""
        if len(self.leaves) >= self.max_leaves:
            raise LimitError("number of leaves in the tool results", len(self.leaves) + 1, self.max_leaves)
        self.leaves.append(Leaf(tool, node, key, raw))
        return len(self.leaves) - 1

    # -- reading ----------------------------------------------------------------------

    def path_of_node(self, node: int) -> str:
        """The JSONPath of a node, relative to its tool's output (``$.results[3].price``).
        Kept once built: a warm haystack serves the same paths to many answers."""
        cached = self._paths.get(node)
        if cached is not None:
            return cached
        start = node
        parts: list[str] = []
        while node >= 0 and self.segments[node] is not None:
            seg = self.segments[node]
            assert seg is not None
            if isinstance(seg, int):
                parts.append(f"[{seg}]")
            elif _IDENT.fullmatch(seg) and seg not in ("and", "or", "not", "where", "in"):
                parts.append(f".{seg}")
            else:
                parts.append("['" + seg.replace("\\", "\\\\").replace("'", "\\'") + "']")
            node = self.parents[node]
        path = "$" + "".join(reversed(parts))
        if len(self._paths) < 100_000:
            self._paths[start] = path
        return path

    def children_leaves(self, parent: int) -> list[LeafId]:
        """Leaves directly under node ``parent`` (a record's fields, a row's cells), in
        document order. Built once, on first use."""
        if self._children is None:
            children: dict[int, list[LeafId]] = defaultdict(list)
            for i, leaf in enumerate(self.leaves):
                children[self.parents[leaf.node]].append(i)
            for leaves in children.values():
                # siblings get their nodes in reverse (the walk is a stack): newest first
                # is document order
                leaves.sort(key=lambda i: -self.leaves[i].node)
            self._children = children
        return self._children.get(parent, [])

    def titles_of(self, leaf: LeafId) -> tuple[str, ...]:
        """The titles printed above a table cell's column or section, top first."""
        return self.titles.get(self.leaves[leaf].node, ())

    def stated_scale(self, leaf: LeafId) -> Decimal | None:
        """The scale a table's corner or title states for a cell, or None."""
        if not self.table_scales and not self.titled_cells:
            return None
        entry = self.leaves[leaf]
        if "%" in entry.raw:
            return None
        if entry.node in self.unscaled_cells:
            return Decimal(1)
        return self.titled_cells.get(entry.node) or self.table_scales.get(self.parents[entry.node])

    def in_headers(self, leaf: LeafId) -> bool:
        """Whether a leaf is a table's column header (``columns[2]``, ``header_rows[0][1]``):
        under a header list that sits beside the table's rows."""
        node = self.parents[self.leaves[leaf].node]
        for _ in range(2):
            if node < 0:
                return False
            if node in self.header_nodes:
                return True
            node = self.parents[node]
        return False
