"""The values the flattened tool results are made of: a tool result, a leaf (a scalar
of its output, or an object key that names something) and a number read at a leaf.

Kept apart from the walk and the Haystack so every module of the index (and every
caller) can name them without importing the builder."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

#: A leaf's position: an index into Haystack.leaves.
LeafId = int


@dataclass(frozen=True, slots=True)
class Tool:
    """One tool result: its name, optional call id, and output."""

    index: int
    name: str
    id: str | None
    output: Any


class Leaf(NamedTuple):
    """A scalar in a tool's output (or an object key that names something).

    A NamedTuple rather than a frozen dataclass: a haystack holds up to millions of
    these and tuple construction is several times cheaper."""

    tool: int
    node: int  # a node of the Tree: Haystack.parent(node) / Haystack.segment(node)
    key: str | None  # the object key or column header that labels the value
    raw: str  # the value as text (JSON text for numbers, the string itself, the key)


class NumRef(NamedTuple):
    """A numeric value found at a leaf, and how it was read."""

    leaf: LeafId
    how: str  # "value", "in text", "scaled by key", "scaled by unit field", ...
    digits: str  # the number as it appears at the leaf, for exact comparisons
