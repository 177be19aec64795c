"""candidates: for each unsupported or drift number, the data's nearest figures of the
same kind and unit, so a warning says what the data has instead ("the data has 142.3
at $.price").

Where to look, narrowest first, the first scope that holds any figure of the kind:
the fields of the entity (ticker) the value's clause names; else the record or table
row of the sentence's other, supported values (a drift's own leaf, when it has one),
unless that is one line item over several periods; else their tool result; else all
the data. Figures of another entity than the one
named are never offered. Within a scope the closest figures win (at most 3, within a
factor of 2 of the value): a bisect over the scope's figures sorted by magnitude (built
once per haystack), walking outward from the value, so on a 100,000-leaf haystack each
value costs a few hundred comparisons at most, not a scan.
"""

from __future__ import annotations

import bisect
import functools
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

import regex

from ..checks.attribute import clause_entities, sentence_starts
from ..checks.match import candidate_leaves
from ..deadline import check
from ..extract import NUMERIC_KINDS, Mention
from ..index.haystack import Haystack, LeafId
from ..index.memo import PerHaystack
from ..index.percent_words import BASIS, FRACTION, POINTS
from ..models import SUPPORTED_STATUSES, Candidate, Item, Scope, construct, decimal_text
from ..normalizers.numbers import CONTEXT
from ..state import State

REQUIRES = frozenset({"answer", "matched", "haystack"})
ASSIGNS = frozenset({"matched"})

#: Most candidates per item.
LIMIT = 3
#: A candidate is within this factor of the value (3 to 12 for 6.0): further off, it is
#: another quantity (a price beside a P/E), not what the answer meant.
FACTOR = 2.0
#: Most figures one search looks at (each nearer than the last rejected one): bounds
#: the walk where figures of other kinds or entities crowd the value.
MAX_VISITS = 200
#: A record scanned directly (its fields, a table row's cells) when no larger than this.
MAX_RECORD = 500

_WANTED = frozenset({"unsupported", "drift"})
_PERCENT_KINDS = frozenset({"percent", "basis_points", "percentage_points"})
#: Each percent unit and the factor from a fraction to it (4.21% is 0.0421, 4.21 points, 421 bp).
_PERCENT_SCALES = ((FRACTION, Decimal(1)), (POINTS, Decimal(100)), (BASIS, Decimal(10_000)))
#: Keys of fields that label or date, not measure: a fiscal year, an id.
_NOT_A_QUANTITY = regex.compile(
    r"(?i)(?:^|[_\W])(?:fiscal_?)?(?:years?|yr|fy|quarter|qtr|date|day|month|period|time|timestamp|ts|epoch"
    r"|id|cik|zip|page|rank)$|(?<=[a-z])(?:Id|Year|Date)$")


@dataclass(frozen=True, slots=True)
class _Sorted:
    """Figures sorted by magnitude: the magnitudes as floats (a fast bisect; distances
    are taken in Decimal), each figure's leaf and the figure as a plain number."""

    keys: list[float]
    leaves: list[LeafId]
    values: list[Decimal]


def _sorted(entries: Iterable[tuple[LeafId, Decimal]]) -> _Sorted:
    rows = sorted((abs(float(value)), leaf, value) for leaf, value in entries)
    return _Sorted([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows])


_MISSING = object()


@dataclass(slots=True)
class _Index:
    """One haystack's figures: sorted per tool; per entity (sorted when first asked
    for); all of them (merged when first asked for)."""

    tools: dict[int, _Sorted]
    entity_figures: dict[str, list[tuple[LeafId, Decimal]]]
    entities: dict[str, _Sorted] = field(default_factory=dict)
    everything: _Sorted | None = None
    currency: dict[int, str | None] = field(default_factory=dict)  # record node -> the currency it states

    def entity(self, name: str) -> _Sorted | None:
        if name not in self.entities:
            self.entities[name] = _sorted(self.entity_figures.get(name, ()))
        return self.entities[name]

    def all(self) -> _Sorted:
        if self.everything is None:
            groups = list(self.tools.values())
            self.everything = groups[0] if len(groups) == 1 else _sorted(
                (leaf, value) for g in groups for leaf, value in zip(g.leaves, g.values, strict=True))
        return self.everything


_INDEXES: PerHaystack[_Index] = PerHaystack("candidates.index")


@functools.lru_cache(maxsize=4096)
def _labels(key: str) -> bool:
    return _NOT_A_QUANTITY.search(key) is not None


def _forms(hay: Haystack, leaf: LeafId) -> list[Decimal]:
    """A numeric leaf's figure as written and, where the data states a scale, scaled;
    none for a zero, an object key or a field that labels rather than measures."""
    value = hay.leaf_value.get(leaf)
    entry = hay.leaves[leaf]
    if not value or leaf in hay.key_leaves or (entry.key and _labels(entry.key)):
        return []
    scale = hay.leaf_scale(leaf)
    return [value] if scale is None or scale == 1 else [value, CONTEXT.multiply(value, scale)]


def _index(hay: Haystack) -> _Index:
    """The haystack's figures by magnitude, built on first use: one pass over its
    numeric leaves, kept for every later answer over the same haystack."""
    index = _INDEXES.get(hay)
    if index is not None:
        return index
    tools: dict[int, list[tuple[LeafId, Decimal]]] = defaultdict(list)
    entities: dict[str, list[tuple[LeafId, Decimal]]] = defaultdict(list)
    owners: dict[int, Any] = {}  # record node -> its entity: a leaf's is its record's
    for leaf in hay.leaf_value:
        forms = _forms(hay, leaf)
        if not forms:
            continue
        entry = hay.leaves[leaf]
        record = hay.parent(entry.node)
        entity = owners.get(record, _MISSING)
        if entity is _MISSING:
            entity = owners[record] = hay.entity_of(leaf)
        for form in forms:
            tools[entry.tool].append((leaf, form))
            if entity is not None:
                entities[entity].append((leaf, form))
    index = _INDEXES.setdefault(hay, _Index({tool: _sorted(figures) for tool, figures in tools.items()}, entities))
    return index


def _record(hay: Haystack, leaves: list[LeafId]) -> _Sorted:
    """A record's (or a table row's) figures, sorted."""
    return _sorted((leaf, form) for leaf in leaves for form in _forms(hay, leaf))


@dataclass(frozen=True, slots=True)
class _Found:
    distance: Decimal  # |magnitude - target| / target
    leaf: LeafId
    value: Decimal  # normalized as the answer's value is (a percentage as a fraction)


#: Whether a figure (its leaf, the figure as a plain number) is a candidate: the value
#: it stands for, normalized as the answer's value is, or None.
Accept = Callable[[LeafId, Decimal], Decimal | None]


def _nearest(group: _Sorted, target: Decimal, accept: Accept) -> list[_Found]:
    """The 2 * LIMIT accepted figures (room for twins) nearest ``target`` (a magnitude), walking outward from
    its place in ``group``, at most MAX_VISITS figures, all within FACTOR of it."""
    keys, at_target = group.keys, float(target)
    low, high = at_target / FACTOR, at_target * FACTOR
    hi = bisect.bisect_left(keys, at_target)
    lo = hi - 1
    found: list[_Found] = []
    seen: set[LeafId] = set()
    for _ in range(MAX_VISITS):
        below = keys[lo] if lo >= 0 and keys[lo] >= low else None
        above = keys[hi] if hi < len(keys) and keys[hi] <= high else None
        if below is None and above is None:
            break
        if above is None or (below is not None and at_target - below <= above - at_target):
            at, lo = lo, lo - 1
        else:
            at, hi = hi, hi + 1
        leaf, figure = group.leaves[at], group.values[at]
        if leaf in seen:
            continue
        value = accept(leaf, figure)
        if value is not None:
            seen.add(leaf)
            found.append(_Found(abs(abs(figure) - target) / target, leaf, value))
            if len(found) >= 2 * LIMIT:
                break
    return found


def _searches(mention: Mention, hay: Haystack, index: _Index, entity: str | None) -> list[tuple[Decimal, Accept]]:
    """(magnitude, acceptor) pairs to walk for ``mention``: a percentage in each unit the
    data may state one in (4.21%: 0.0421 as a fraction, 4.21 points, 421 basis points),
    only where a leaf is in that unit; any other kind at its value, among plain numbers
    of the answer's currency (where the data states one). Never another entity's figure
    than ``entity``'s."""
    value = abs(Decimal(mention.value or "0"))

    def ours(leaf: LeafId) -> bool:
        return entity is None or hay.entity_of(leaf) in (None, entity)

    def currency(leaf: LeafId) -> str | None:
        record = hay.parent(hay.leaves[leaf].node)
        if record not in index.currency:  # one look-up per record: a currency field is its siblings'
            index.currency[record] = hay.currency_of(leaf)
        return index.currency[record]

    if mention.kind not in _PERCENT_KINDS:
        currencies = (None, *mention.currencies)

        def plain(leaf: LeafId, figure: Decimal) -> Decimal | None:
            if not ours(leaf) or (mention.currencies and currency(leaf) not in currencies):
                return None
            return figure if hay.percent_unit(leaf) is None else None  # (the costliest test last)
        return [(value, plain)]

    def in_unit(unit: str, factor: Decimal) -> Accept:
        def accept(leaf: LeafId, figure: Decimal) -> Decimal | None:
            # a percentage as written: a scaled reading of one is no percentage
            if figure != hay.leaf_value.get(leaf) or not ours(leaf) or hay.percent_unit(leaf) != unit:
                return None
            return CONTEXT.divide(figure, factor)
        return accept
    return [(value * factor, in_unit(unit, factor)) for unit, factor in _PERCENT_SCALES]


def _search(hay: Haystack, searches: list[tuple[Decimal, Accept]],
            scopes: Iterable[tuple[Scope, _Sorted | None]]) -> tuple[Scope, list[_Found]] | None:
    """The nearest figures (at most LIMIT, closest first) in the first scope that has any.
    A formatted twin is left out: {"raw": 0.0332, "fmt": "3.32%"} holds one figure."""
    for scope, group in scopes:
        if group is None or not group.keys:
            continue
        found = [hit for target, accept in searches for hit in _nearest(group, target, accept)]
        kept: list[_Found] = []
        numbers: set[tuple[int, Decimal]] = set()  # (record, figure) of the numbers kept
        for hit in sorted(found, key=lambda h: (h.distance, hay.is_string(h.leaf), h.leaf)):
            figure = (hay.parent(hay.leaves[hit.leaf].node), hit.value)
            if any(k.leaf == hit.leaf for k in kept) or (hay.is_string(hit.leaf) and figure in numbers):
                continue
            kept.append(hit)
            numbers.add(figure)
        if kept:
            return scope, kept[:LIMIT]
    return None


def _anchor(state: State, at: int, neighbours: list[int]) -> LeafId | None:
    """The leaf that places the value at ``at`` in the data: a drift's own (the figure it
    rounds), or the leaf of the nearest of ``neighbours`` (its sentence's supported numbers)."""
    mention, item = state.matched[at]
    if item.status == "drift":
        own = candidate_leaves(mention, state.haystack)
        if own:
            return own[0]
    for i in sorted(neighbours, key=lambda i: abs(state.matched[i][0].start - mention.start)):
        leaves = candidate_leaves(state.matched[i][0], state.haystack)
        if leaves:
            return leaves[0]
    return None


def _by_sentence(state: State) -> tuple[list[int], dict[int, list[int]]]:
    """The answer's sentence starts, and each sentence's supported numbers (by index)."""
    starts = sentence_starts(state.answer)
    supported: dict[int, list[int]] = defaultdict(list)
    for i, (mention, item) in enumerate(state.matched):
        if mention.kind in NUMERIC_KINDS and item.status in SUPPORTED_STATUSES and item.status != "derived":
            supported[bisect.bisect_right(starts, mention.start)].append(i)
    return starts, supported


def _line_item(hay: Haystack, leaves: list[LeafId]) -> bool:
    """Whether a record's figures are one line item's over several periods (a table row
    "Revenue | 1210.4 | 1100.2" under 2019 and 2018): its other figures are then the
    same quantity in another period, not what a value of another line item meant."""
    return len({hay.period_of(leaf) for leaf in leaves if leaf in hay.leaf_value}) > 1


def _wanted(mention: Mention, item: Item) -> bool:
    if item.status not in _WANTED or mention.kind not in NUMERIC_KINDS or mention.invalid or not mention.value:
        return False
    try:
        return Decimal(mention.value) != 0
    except InvalidOperation:
        return False


def run(state: State) -> None:
    """Give each unsupported or drift number the data's nearest figures of its kind."""
    wanted = [i for i, (mention, item) in enumerate(state.matched) if _wanted(mention, item)]
    if not wanted:
        return
    hay = state.haystack
    index = _index(hay)
    entities = clause_entities(state.answer, state.matched, hay)
    starts, supported = _by_sentence(state)
    matched = list(state.matched)
    for at in wanted:
        check()  # an answer of thousands of figures: each one's search is short, but adds up
        mention, item = matched[at]
        anchor = _anchor(state, at, supported.get(bisect.bisect_right(starts, mention.start), []))
        entity = entities[at] or (hay.entity_of(anchor) if anchor is not None else None)
        scopes: list[tuple[Scope, _Sorted | None]] = []
        if entity is not None:
            scopes.append(("entity", index.entity(entity)))
        if anchor is not None:
            leaves = hay.children_leaves(hay.parent(hay.leaves[anchor].node))
            if len(leaves) <= MAX_RECORD and not _line_item(hay, leaves):
                scopes.append(("record", _record(hay, leaves)))
            scopes.append(("tool", index.tools.get(hay.leaves[anchor].tool)))
        if anchor is None or len(hay.tools) > 1:
            scopes.append(("data", index.all()))
        value = abs(Decimal(mention.value or "0"))
        found = _search(hay, _searches(mention, hay, index, entity), scopes)
        if found is not None:
            scope, hits = found
            matched[at] = (mention, item.model_copy(update={"candidates": [
                _candidate(hay, hit, value, scope) for hit in hits]}))
    state.matched = matched


def _candidate(hay: Haystack, hit: _Found, value: Decimal, scope: Scope) -> Candidate:
    tool = hay.tool_of(hit.leaf)
    difference = CONTEXT.divide(abs(hit.value) - value, value).quantize(_PLACES, context=CONTEXT)
    return construct(Candidate,
        tool=tool.name, tool_index=tool.index, path=hay.path(hit.leaf), raw=hay.leaves[hit.leaf].raw,
        value=decimal_text(hit.value), difference=decimal_text(difference), scope=scope)


_PLACES = Decimal("0.0001")
