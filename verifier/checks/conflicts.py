"""Cross-source conflicts: the same entity in two tool results with different values for
the same field.

When the answer uses one of them, the report names both sources (a warning: the answer
may be right, but a reader should know the systems disagree). When a sentence about one
entity takes its values from that entity's records in two tool results that disagree,
the answer has merged two records into one that exists in neither: a second warning
says so.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal, InvalidOperation

import regex

from verifier.normalizers import numbers

from ..extract import NUMERIC_KINDS, Mention
from ..index.haystack import Haystack, LeafId
from ..index.memo import PerHaystack
from ..models import Item, Note, construct
from ..text.sentences import Sentence
from .match import candidate_leaves, leaf_evidence

_KEY = regex.compile(r"[^a-z0-9]")

#: (entity, field) -> {tool index: [(leaf, value)]}
_Index = dict[tuple[str, str], dict[int, list[tuple[LeafId, Decimal]]]]
_INDEX: PerHaystack[_Index] = PerHaystack("conflicts.index")


def _index(hay: Haystack) -> _Index:
    found = _INDEX.get(hay)
    if found is None:
        fields: _Index = defaultdict(lambda: defaultdict(list))
        for leaf, entry in enumerate(hay.leaves):
            if not entry.key or hay.is_string(leaf):
                continue
            try:
                value = Decimal(entry.raw)
            except InvalidOperation:
                continue
            entity = hay.entity_of(leaf)
            if entity is not None:
                fields[(entity, _KEY.sub("", entry.key.lower()))][entry.tool].append((leaf, value))
        found = {k: dict(v) for k, v in fields.items() if len(v) > 1}  # only fields in 2+ tools
        found = _INDEX.setdefault(hay, found)
    return found


def _rival(hay: Haystack, leaf: LeafId) -> tuple[str, LeafId] | None:
    """(field, a leaf in another tool) where that tool has a different value for the
    same entity and field as ``leaf``; None when the sources agree."""
    entry = hay.leaves[leaf]
    entity = hay.entity_of(leaf)
    if entity is None or not entry.key:
        return None
    name = _KEY.sub("", entry.key.lower())
    by_tool = _index(hay).get((entity, name))
    if not by_tool:
        return None
    try:
        mine = Decimal(entry.raw)
    except InvalidOperation:
        return None
    for tool, values in by_tool.items():
        if tool != entry.tool:
            for other, value in values:
                if not _agree(value, mine) and _comparable(hay, leaf, other):
                    return entry.key, other
    return None


def _agree(a: Decimal, b: Decimal) -> bool:
    """Whether two values are the same figure, one perhaps rounded: a quote feed's
    227.5 and a position system's 227.52 do not disagree. Only a value written with
    decimals counts as rounded (an integer 0 may be a JavaScript 0.0, not a rounding
    of 0.45); it agrees with one within half a unit of its last digit."""
    if a == b:
        return True
    coarse, fine = (a, b) if numbers.exponent(a) > numbers.exponent(b) else (b, a)
    if numbers.exponent(coarse) >= 0:
        return False
    return abs(fine - coarse) <= numbers.half_unit(coarse)


def _comparable(hay: Haystack, a: LeafId, b: LeafId) -> bool:
    """Whether two leaves state the same quantity: the same scale (3.01e12 and 3010 "in
    billions" agree), currency and period (a daily bar's close is not today's quote)."""
    scale_a, scale_b = hay.leaf_scale(a), hay.leaf_scale(b)
    if scale_a != scale_b:
        value_a = Decimal(hay.leaves[a].raw) * (scale_a or 1)
        value_b = Decimal(hay.leaves[b].raw) * (scale_b or 1)
        return False if value_a == value_b else _same_context(hay, a, b)
    return _same_context(hay, a, b)


def _same_context(hay: Haystack, a: LeafId, b: LeafId) -> bool:
    return hay.currency_of(a) == hay.currency_of(b) and hay.period_of(a) == hay.period_of(b)


def check(sentences: list[Sentence], matched: list[tuple[Mention, Item]], hay: Haystack) -> list[Note]:
    """Warnings for values whose sources disagree, and for sentences that merge them."""
    if len(hay.tools) < 2 or not _index(hay):
        return []
    notes: list[Note] = []
    for sentence in sentences:
        # entity -> for each of its values, the tools that hold it
        used: dict[str, list[set[int]]] = defaultdict(list)
        disagree: dict[str, str] = {}  # entity -> a field the tools disagree on
        for mention, item in matched:
            if not (sentence.start <= mention.start < sentence.end) or mention.kind not in NUMERIC_KINDS:
                continue
            if item.status not in ("exact", "normalized"):  # a rounding may come from either source
                continue
            leaves = candidate_leaves(mention, hay)
            holders: dict[str, set[int]] = defaultdict(set)
            for leaf in leaves:
                entity = hay.entity_of(leaf)
                if entity is not None:
                    holders[entity].add(hay.leaves[leaf].tool)
            for entity, tools in holders.items():
                used[entity].append(tools)
            for leaf in leaves[:1]:
                entity = hay.entity_of(leaf)
                rival = _rival(hay, leaf)
                if rival is not None and entity is not None:
                    field, other = rival
                    disagree[entity] = field
                    mine_tool, other_tool = hay.tool_of(leaf), hay.tool_of(other)
                    notes.append(construct(Note,
                        kind="conflict", flagged=False, start=sentence.start, end=sentence.end,
                        evidence=[leaf_evidence(hay, leaf, "used"), leaf_evidence(hay, other, "conflicting")],
                        message=f"{entity} {field}: the answer's {mention.text} is from {mine_tool.name} "
                        f"({hay.path(leaf)}); {other_tool.name} says {hay.leaves[other].raw} "
                        f"({hay.path(other)})"))
        for entity, per_value in used.items():
            tools = set().union(*per_value)
            if set.intersection(*per_value):
                continue  # one source holds every value: nothing was merged
            if len(tools) > 1 and (entity in disagree or _any_disagreement(hay, entity, tools)):
                names = " and ".join(sorted(hay.tools[t].name for t in tools))
                notes.append(construct(Note,
                    kind="merged_sources", flagged=False, start=sentence.start, end=sentence.end, evidence=[],
                    message=f"the sentence combines {entity}'s figures from {names}, which disagree "
                    f"on {disagree.get(entity) or 'some fields'}: the combined record exists in neither"))
    return notes


def _any_disagreement(hay: Haystack, entity: str, tools: set[int]) -> bool:
    for (name_entity, _), by_tool in _index(hay).items():
        if name_entity != entity:
            continue
        values = sorted({v for t in tools for _, v in by_tool.get(t, [])})
        if len([t for t in tools if t in by_tool]) > 1 and any(
                not _agree(a, b) for i, a in enumerate(values) for b in values[i + 1:]):
            return True
    return False
