"""Percent units: whether a numeric field holds percent points (4.21 for "4.21%"), a
fraction of one (0.0421 for "4.21%"), basis points, or a plain number (None).

Each field's unit is inferred from what the data says about it, nearest first:

1. its own text ("4.21%"), a per-field unit map over it ({"units": {"expense_ratio":
   "percent"}}), a formatted twin beside it ({"raw": 0.0291, "fmt": "2.91%"}: a
   fraction), a unit field beside it ({"unit": "percent"});
2. its key or an enclosing key: change_pct, "Change (%)" (points), spread_bp (basis
   points), a rate word (yield, coupon, ytm, inflation, ...): points, or a fraction
   when its column or its record's other rates are all within ±1 and one is written
   to four decimals or more (0.0291, 0.3187);
3. a printed table: a row label "ROFE (%)", a column of "%" cells;
4. an enclosing record's unit field ("units": "Percent" over a series' observations),
   and, for a key that names no quantity ("value", "last", "lower"), the label of the
   nearest record that names one ("title": "Unemployment Rate") or a change stated in
   basis points beside it ({"last": 4.182, "change_bp": 6.5}).

:mod:`verifier.checks.match` reads an answer's "X%" as written only against points, and as
X/100 against a fraction. Words and unit texts are data: ``stoplists/percent_units.txt``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any, Protocol

from .memo import Memo, PerHaystack
from .percent_words import (
    BASIS,
    CURRENCY_MARK,
    FRACTION,
    HUNDRED,
    INTEGER,
    LISTED,
    NEUTRAL,
    ONE,
    PERCENT_LABEL,
    PLAIN,
    POINTS,
    RATE,
    STATED,
    UNIT_FIELDS,
    fractions,
    has,
    is_word,
    key_class,
    unit_of_text,
)


class Index(Protocol):
    """What the inference reads of a haystack."""

    @property
    def memo(self) -> Memo: ...
    @property
    def leaves(self) -> Sequence[Any]: ...  # (tool, node, key, raw)
    @property
    def leaf_value(self) -> dict[int, Decimal]: ...
    @property
    def percent_leaves(self) -> set[int]: ...
    def parent(self, node: int) -> int: ...
    def segment(self, node: int) -> str | int | None: ...
    def children_leaves(self, parent: int) -> list[int]: ...
    def is_string(self, leaf: int) -> bool: ...
    def percent_columns(self) -> set[tuple[int, str | int | None]]: ...


_UNITS: PerHaystack[_Units] = PerHaystack("percent_units.units")


def unit(hay: Index, leaf: int) -> str | None:
    """POINTS, FRACTION, BASIS, or None (a plain number) for ``leaf``."""
    units = _UNITS.get(hay)
    if units is None:
        units = _UNITS.setdefault(hay, _Units(hay))
    if leaf not in units.memo:
        units.memo[leaf] = units.infer(leaf)
    return units.memo[leaf]


class _Units:
    """One haystack's evidence, gathered in one pass over its leaves; units memoised."""

    def __init__(self, hay: Index) -> None:
        self.hay = hay
        self.memo: dict[int, str | None] = {}
        self.unit_at: dict[int, list[str]] = defaultdict(list)  # record -> its unit fields' texts
        self.maps: dict[int, dict[str, str]] = defaultdict(dict)  # record -> field -> unit text
        self.labels: dict[int, list[str]] = defaultdict(list)  # record -> its label texts
        self.basis: set[int] = set()  # records with a figure in basis points
        self.columns: dict[tuple[int, str | int | None], list[Decimal]] = defaultdict(list)
        self.marked: dict[int, list[int]] = defaultdict(list)  # record -> its "%" strings
        self.families: dict[tuple[int, bool], bool] = {}
        self.shapes: dict[object, tuple[Decimal, bool]] = {}  # group -> (largest magnitude, fractions)
        for leaf, entry in enumerate(hay.leaves):
            key, parent = entry.key, hay.parent(entry.node)
            if key is None:
                continue
            if hay.is_string(leaf):
                above = hay.segment(parent) if parent >= 0 else None
                if key.lower() in UNIT_FIELDS:
                    self.unit_at[parent].append(entry.raw)
                elif isinstance(above, str) and above.lower() in UNIT_FIELDS:
                    self.maps[hay.parent(parent)][key.lower()] = entry.raw  # {"units": {"ytm": "%"}}
                if is_word(key, "label"):
                    self.labels[parent].append(entry.raw)
                if "%" in entry.raw:
                    self.marked[parent].append(leaf)
            if leaf in hay.leaf_value and key_class(key) == BASIS:
                self.basis.add(parent)
            if leaf in hay.leaf_value and parent >= 0 and hay.parent(parent) >= 0 \
                    and isinstance(hay.segment(parent), int):
                self.columns[(hay.parent(parent), hay.segment(entry.node))].append(hay.leaf_value[leaf])

    def infer(self, leaf: int) -> str | None:
        hay = self.hay
        entry = hay.leaves[leaf]
        node, key, value = entry.node, entry.key, hay.leaf_value.get(leaf)
        parent = hay.parent(node)
        if leaf in hay.percent_leaves and "%" in entry.raw:
            return POINTS
        mapped = self._mapped(parent, key.lower()) if key and self.maps else None
        if mapped is not None:
            return None if mapped == PLAIN else mapped
        twin = self._twin(leaf, parent, (key or "").lower(), value) if value and parent in self.marked else None
        beside = self._stated(parent)
        if twin or beside in STATED:
            return twin or beside
        keys, up = [key], parent
        while up >= 0:
            if isinstance(hay.segment(up), str):
                keys.append(str(hay.segment(up)))
            up = hay.parent(up)
        for depth, k in enumerate(keys):
            cls = key_class(k) if k else None
            if cls in (POINTS, BASIS):
                return cls
            if cls == RATE or (cls == LISTED and beside != PLAIN):
                found = POINTS if value is None else self._rate(parent, self._group(node, parent, value),
                                                                 cls == LISTED, depth == 0)
                if found is not None:
                    return found
        if self._in_table(leaf, parent):
            return POINTS
        return self._context(leaf, parent, key, value)

    def _stated(self, node: int) -> str | None:
        """What a record's unit fields say (a percentage's unit first), or None."""
        said = {unit_of_text(text) for text in self.unit_at.get(node, ())}
        return next((u for u in (*STATED, PLAIN) if u in said), None)

    def _mapped(self, node: int, low: str) -> str | None:
        while node >= 0:
            text = self.maps.get(node, {}).get(low)
            if text is not None and unit_of_text(text) != NEUTRAL:
                return unit_of_text(text)
            node = self.hay.parent(node)
        return None

    def _twin(self, leaf: int, parent: int, low: str, value: Decimal) -> str | None:
        """A "%" string beside the figure that prints it: 2.91% for 0.0291 is a fraction."""
        for other in self.marked[parent]:
            okey = (self.hay.leaves[other].key or "").lower()
            rest = okey[len(low):].strip("_- ") if low and okey.startswith(low) else ""
            printed = self.hay.leaf_value.get(other)
            if printed is None or other == leaf or not (is_word(okey, "twin") or (rest and is_word(rest, "twin"))):
                continue
            half = Decimal(1).scaleb(int(printed.as_tuple().exponent)) / 2
            if abs(value * HUNDRED - printed) <= half:
                return FRACTION
            if abs(value - printed) <= half:
                return POINTS
        return None

    def _group(self, node: int, parent: int, value: Decimal) -> tuple[object, Callable[[], list[Decimal]]]:
        """The figures read together with a leaf's (its column, or its list), by an id."""
        hay = self.hay
        if parent >= 0 and hay.parent(parent) >= 0 and isinstance(hay.segment(parent), int):
            column = (hay.parent(parent), hay.segment(node))
            return column, lambda: self.columns.get(column, [value])
        if isinstance(hay.segment(node), int):  # {"yields": [4.1, 4.3]}
            return parent, lambda: [hay.leaf_value[s] for s in hay.children_leaves(parent) if s in hay.leaf_value]
        return None, lambda: [value]

    def _rate(self, parent: int, group: tuple[object, Callable[[], list[Decimal]]], listed: bool,
              own: bool) -> str | None:
        """A rate's unit from magnitudes: its group's, then its record's other rates'."""
        gid, values = group
        shape = self.shapes.get(gid) if gid is not None else None
        if shape is None:
            figures = values()
            shape = (max(abs(v) for v in figures), fractions(figures))
            if gid is not None:
                self.shapes[gid] = shape
        top, fraction = shape
        if listed and top > HUNDRED:
            return None  # "cpi": 310.3 is an index level
        if fraction or (top <= ONE and self._fraction_family(parent, own)):
            return FRACTION
        return POINTS

    def _fraction_family(self, parent: int, own: bool) -> bool:
        """Whether a record's rates (all its figures, for a rate named above it) are fractions."""
        if (parent, own) not in self.families:
            hay = self.hay
            family = [hay.leaf_value[s] for s in hay.children_leaves(parent) if s in hay.leaf_value
                      and (not own or key_class(hay.leaves[s].key or "") in (RATE, LISTED))]
            self.families[(parent, own)] = fractions(family)
        return self.families[(parent, own)]

    def _in_table(self, leaf: int, parent: int) -> bool:
        """A table row labelled "ROFE (%)", or a column of percentages ("100.0 %" atop)."""
        hay = self.hay
        if any(hay.segment(hay.leaves[c].node) == 0 and c not in hay.leaf_value
               and PERCENT_LABEL.search(hay.leaves[c].raw) for c in hay.children_leaves(parent)):
            return True
        return (parent >= 0 and not CURRENCY_MARK.search(hay.leaves[leaf].raw)
                and (hay.parent(parent), hay.segment(hay.leaves[leaf].node)) in hay.percent_columns())

    def _context(self, leaf: int, parent: int, key: str | None, value: Decimal | None) -> str | None:
        """An enclosing unit field; for a key naming no quantity, its record's label or a
        change in basis points beside it."""
        hay = self.hay
        generic = key is not None and value is not None and is_word(key, "value")
        counted = not hay.is_string(leaf) and INTEGER.fullmatch(hay.leaves[leaf].raw) is not None
        node = parent
        while node >= 0:
            found = self._stated(node)
            if found is not None:
                return found if found != PLAIN and (generic or not counted) else None
            if generic and value is not None and (node in self.basis or any(
                    has(t, "rate") or has(t, "points") or PERCENT_LABEL.search(t[:200])
                    for t in self.labels.get(node, ()))):
                group = self._group(hay.leaves[leaf].node, parent, value) if node != parent else (
                    ("values", parent), lambda: [hay.leaf_value[s] for s in hay.children_leaves(parent)
                                                 if s in hay.leaf_value and is_word(hay.leaves[s].key or "", "value")])
                return self._rate(parent, group, True, True)
            node = hay.parent(node)
        return None
