"""Which operand groups are searched: the haystack's groups by kind
(:func:`families_of`), those the question or sentence names by label
(:func:`named_groups`), the cells it names along both axes (:func:`cross_named`), a
named row's cells over their column's total (:func:`over_totals`), and the groups of
the entity a clause names (:func:`groups_for`). Looked up by word and cached per
haystack: a screener of 20,000 records is asked this for every value."""

from __future__ import annotations

from collections import defaultdict

from verifier.normalizers import tickers

from ..index.haystack import Haystack, LeafId
from ..text.labels import is_named, label_words, row_words
from .operands import Group, cached, column_total, group_fact, groups_of, record_label

#: Groups larger than this get no pairwise search (a column of 10,000 prices).
MAX_PAIR_GROUP = 5_000


#: More rows named in full than this and the wording named no row in particular.
MAX_NAMED_ROWS = 4


def families_of(hay: Haystack) -> dict[str, list[Group]]:
    """The haystack's groups by kind, each small enough for a pairwise search. Cached:
    the same lists every search, so what is worked out about a whole family (its
    labels, which of its groups may be averaged) is worked out once."""
    def make() -> dict[str, list[Group]]:
        by_kind: dict[str, list[Group]] = defaultdict(list)
        for g in groups_of(hay):
            if len(g.values) <= MAX_PAIR_GROUP:
                by_kind[g.kind].append(g)
        return dict(by_kind)
    return cached(hay, ("families", 0), make)


def group_words(hay: Haystack, group: Group) -> frozenset[str]:
    """What a group is called: a row's or record's label, a column's header. Cached."""
    return group_fact(hay, "label", group, lambda: _label_words_uncached(hay, group))


def _label_words_uncached(hay: Haystack, group: Group) -> frozenset[str]:
    leaf = hay.leaves[group.leaves[0]]
    if group.kind in ("record", "stacked"):
        return row_words(hay, leaf.node)
    if group.kind == "column":
        text = leaf.key or str(hay.segment(leaf.node))
    elif group.kind == "section":  # its column's header and its heading row's words
        text = f"{leaf.key or ''} {group.heading.replace('_', ' ')}"
    else:
        return frozenset()
    return label_words(text)


def _label_index(hay: Haystack, family: list[Group]) -> dict[str, list[int]]:
    index: dict[str, list[int]] = defaultdict(list)
    for i, g in enumerate(family):
        for word in group_words(hay, g):
            index[word].append(i)
    return index


def named_groups(hay: Haystack, family: list[Group], focus: frozenset[str]) -> list[Group]:
    """The groups of ``family`` whose label the question or sentence names. A whole
    family of the haystack (:func:`families_of`) is looked up by word, not walked: a
    screener of 20,000 records is asked this for every value."""
    kind = family[0].kind if family else ""
    if family is families_of(hay).get(kind):
        index: dict[str, list[int]] = cached(hay, ("label_index", kind), lambda: _label_index(hay, family))
        at = sorted({i for word in focus for i in index.get(word, ())})
        return [family[i] for i in at if is_named(group_words(hay, family[i]), focus)]
    return [g for g in family if is_named(group_words(hay, g), focus)]


def cross_named(hay: Haystack, family: list[Group], focus: frozenset[str]) -> list[Group]:
    """Within each group, only the cells named across it too: in a row, the columns
    the question names ("2019", "2018"); in a column, the rows ("total assets",
    "total liabilities"). Groups left with fewer than two cells are dropped. These are
    ``asked`` groups: the question names their cells along both axes, so any operation
    may combine them ("the difference between Workforce reduction and Facility costs",
    "the total USD denominated monetary assets")."""
    out = []
    for group in family:
        keep = []
        # a row under titles that differ ("December 31, 2019" and "... 2018" over
        # "Carrying Amount | Fair Value"): a cell is named by its title and its name
        titled = group.kind == "record" and len({hay.titles_of(leaf) for leaf in group.leaves}) > 1
        for i, leaf in enumerate(group.leaves):
            entry = hay.leaves[leaf]
            if group.kind == "record":
                words = label_words(entry.key or "")
                titles = hay.titles_of(leaf) if titled else ()
                if titles and not is_named(label_words(" ".join(titles)), focus):
                    continue
            else:
                words = label_words(record_label(hay, entry.node).replace("_", " "))
            if is_named(words, focus):
                keep.append(i)
        if 2 <= len(keep) < len(group.values):
            out.append(Group("asked", tuple(group.values[i] for i in keep),
                              tuple(group.leaves[i] for i in keep), group.scale))
    return out


def over_totals(hay: Haystack, rows: list[Group], focus: frozenset[str]) -> list[Group]:
    """For a share or ratio: each cell of a row the question names beside its column's
    total (:func:`verifier.derive.operands.column_total`), which a question names only as "total" ("the
    percentage of capital leases in the total liabilities": Capital leases over the
    Total row). Only the cells of the columns it names (by header or title), when it
    names some; each pair once (a row's period cells are a group of their own too)."""
    out = []
    seen: set[tuple[LeafId, LeafId]] = set()
    for row in rows:
        cells = list(zip(row.values, row.leaves, strict=True))
        cells = [(v, leaf) for v, leaf in cells if _column_named(hay, leaf, focus)] or cells
        for value, leaf in cells:
            total = column_total(hay, leaf)
            if total is not None and total != leaf and (leaf, total) not in seen:
                seen.add((leaf, total))
                pair = sorted([(value, leaf), (hay.leaf_value[total], total)])
                out.append(Group("over_total", tuple(v for v, _ in pair), tuple(l for _, l in pair), row.scale))
    return out


def _column_named(hay: Haystack, leaf: LeafId, focus: frozenset[str]) -> bool:
    """Whether ``focus`` names a cell's column, by its header or its titles."""
    return is_named(label_words(hay.leaves[leaf].key or ""), focus) or any(
        is_named(label_words(title), focus) for title in hay.titles_of(leaf))


def groups_for(hay: Haystack, groups: list[Group], entity: str) -> list[Group]:
    """``groups`` without those wholly in the records of entities other than
    ``entity``. Indexed once per haystack by owner, so each entity costs one pass of
    set lookups (a screener of 20,000 records and an answer naming 30 tickers)."""
    def make() -> tuple[dict[str, list[tuple[str, int]]], set[int]]:
        solo: dict[str, list[tuple[str, int]]] = defaultdict(list)  # base ticker -> (owner, group id)
        for g in groups:
            owners = {hay.entity_of(leaf) for leaf in g.leaves}
            if len(owners) == 1 and None not in owners:
                owner = owners.pop() or ""
                solo[tickers.canonical(owner).split(".", 1)[0]].append((owner, id(g)))
        return solo, {gid for pairs in solo.values() for _, gid in pairs}
    solo, owned = cached(hay, ("owner_index", 0), make)
    own = {gid for owner, gid in solo.get(tickers.canonical(entity).split(".", 1)[0], ())
           if tickers.same_entity(entity, owner)}
    return [g for g in groups if id(g) not in owned or id(g) in own]
