"""Derive: values the answer computed from the data (a difference, a percent change,
an average, a ratio, a share of a total) are recognised, with the expression and the
operand paths, instead of being flagged as coming from nowhere.

Only values still unsupported after matching are searched, and only over plausible
operands (:mod:`verifier.derive.operands`): the same record or table row, one row label down a
stacked table, the same column (one key across the records of an array, one column of
a table) or one section of it (totals and means only), the figures of one paragraph,
the figures of the text the question names and the cells beside them
(:mod:`verifier.question.asked_text`), then anywhere in the same tool result (difference and
percent change only). The groups the question or sentence names are
searched first with the operations its wording names, then three- and four-cell
expressions over those cells (:mod:`verifier.derive.compound`), then those operations
everywhere, then the rest. Within a group every pairwise search is a bisection over the
group's sorted values, never a loop over all pairs, so a 10,000-leaf haystack costs
O(n log n) per value searched.

Chance is bounded explicitly. When a group yields a hit, the expected number of
accidental hits is estimated from how densely the group's other results of that
operation fall around the target (:func:`verifier.derive.chance.chance`); above ``max_chance`` the hit is
refused, since it would say nothing. A bare "7" is easily a difference of two prices
among many; "-12.6" to one decimal from a three-cell row is not.

What the answer wrote sets the tolerance: the result must round to the written value at
its written precision (17.7% matches 17.697%, not 17.62%). Units are respected: a
percent is compared as a fraction for ratios and as written for differences of
percent-valued cells; amounts are compared in the data's own scale. A sign the answer
states must match, and a word of direction makes it the later period's value less the
earlier's ("fell 12.6" is 44.1 in 2019 less 56.7 in 2018).

This module holds :func:`derive` itself, the order of the searches. The parts:
:mod:`~verifier.derive.targets` (what is sought), :mod:`~verifier.derive.groups` (which
groups), :mod:`~verifier.derive.plan` (which operations first),
:mod:`~verifier.derive.search` (the search over families), :mod:`~verifier.derive.pairs`
and :mod:`~verifier.derive.stats` (one group's bisections and statistics),
:mod:`~verifier.derive.plausible` (checks on a hit), :mod:`~verifier.derive.chance`
(accidental hits and the work budget), :mod:`~verifier.derive.longer` (longer
expressions), :mod:`~verifier.derive.expressions` (operations and their printing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..extract import Mention
from ..index.haystack import Haystack
from ..question.asked_ratio import Sides, candidates
from ..question.asked_text import asked_mixed, asked_prose, named_texts
from .chance import Budget, Chances, OutOfBudget
from .expressions import Derivation
from .groups import (
    MAX_NAMED_ROWS,
    cross_named,
    families_of,
    group_words,
    groups_for,
    named_groups,
    over_totals,
)
from .longer import compound_hit, not_spelled, spelled_ratio
from .operands import Group, cached, groups_of
from .search import search_families

#: Question words under which a column's negative members are what is totalled ("the
#: total fair value of all the liabilities assumed").
_OWED = frozenset({"liabilities", "liability"})


@dataclass(frozen=True, slots=True)
class SearchContext:
    """What one value's search is told besides the value and the data: the question's
    and sentence's words, the chance and work allowed, and which hits to refuse. The
    derive stage builds one per answer and replaces the per-value fields."""

    #: at most this many accidental hits expected over every search run for the value
    max_chance: float = 0.1
    #: the words of the question and the value's sentence (:func:`focus_words`): the
    #: rows and columns they name are searched first, as a family of their own
    focus: frozenset[str] = frozenset()
    #: the operations the wording names (:func:`verifier.derive.plan.asked_cues`):
    #: "average", "change"; tried first
    cues: tuple[str, ...] = ()
    #: the work all of one answer's searches may do (shared, spent as they run)
    budget: Budget | None = None
    #: stop after the searches over the named groups: a value that already rounds some
    #: cell is only explained by the computation its question asks for over the rows it
    #: names
    named_only: bool = False
    #: the ticker the value's clause names: groups only of other entities' records are
    #: left out
    entity: str | None = None
    #: the question's words alone: they name figures of running text by date
    #: (:func:`asked_prose`)
    asked: frozenset[str] = frozenset()
    #: the hits the question rules out (the pipeline's row and year checks): the search
    #: goes on past them, their chances counted like any other search's
    refuses: Callable[[Derivation], bool] | None = None
    #: the sides of a ratio the question spells out ("the ratio of A to B")
    sides: tuple[Sides, ...] = ()
    #: the question compares averages ("the change in the average ..."): longer
    #: expressions before the pairs
    averages_compared: bool = False


def derive(mention: Mention, hay: Haystack, context: SearchContext = SearchContext()) -> Derivation | None:
    """The most plausible derivation of ``mention`` from the data, or None.

    Families of groups are tried in order (records and rows, columns, whole tool
    results), and within a family each operation. A hit is accepted only when the
    expected number of accidental hits over every search run for this value (every
    group searched, not just the one that hit) is at most ``max_chance``: searching 25
    rows is 25 chances to be lucky. When the question or the answer's sentence
    (``focus``) names rows or columns ("the change in Other"), those are searched
    first as a family of their own: a named row is one chance, not 25. The operations
    its wording names (``cues``) come first: over the named groups, then as longer
    expressions over the named cells, then everywhere; the other operations last.
    ``named_only`` stops after the first two. The fields named are ``context``'s
    (:class:`SearchContext`).
    """
    max_chance, focus, cues, budget = context.max_chance, context.focus, context.cues, context.budget
    named_only, entity, asked, refuses = context.named_only, context.entity, context.asked, context.refuses
    sides, averages_compared = context.sides, context.averages_compared
    if not mention.num_forms:
        return None
    if entity is not None:
        allowed = {id(g) for g in groups_for(hay, groups_of(hay), entity)}
    named: list[tuple[str, list[Group]]] = []  # the groups the wording names, first
    unnamed: list[tuple[str, list[Group]]] = []
    named_rows: list[Group] = []  # the rows the question or sentence names (in full, if any)
    texts: list[Group] = []  # the paragraphs it names
    families = families_of(hay)
    for kind in ("record", "stacked", "column", "section", "text", "tool"):
        family = families.get(kind, [])
        if entity is not None:
            family = [g for g in family if id(g) in allowed]
        if kind == "stacked":  # searched only where the question or sentence names the row
            rows = named_groups(hay, family, focus) if focus else []
            if rows:
                named.append((kind, rows))
            continue
        if focus and kind == "text":
            texts = named_texts(hay, family, focus)
            if len(texts) == len(family):
                texts = []
        if focus and kind in ("record", "column", "section"):
            some = named_groups(hay, family, focus)
            # rows the question names in full ("Other" and "Deferred tax liabilities" in
            # "other deferred tax liabilities") before rows it names half of
            whole = [g for g in some if group_words(hay, g) <= focus]
            if kind == "record" and some:
                named_rows = whole or some
            for subset in ((whole,) if len(whole) < len(some) else ()) + (some,):
                cells = cross_named(hay, subset, focus)
                if cells:
                    named.append(("asked", cells))
                if subset and len(subset) < len(family):
                    named.append((kind, subset))
            headless = [g for g in family if not (hay.leaves[g.leaves[0]].key or "").strip()] \
                if kind == "column" and not some else []
            if len(headless) == 1:
                # the data's one column printed with no header (a lease schedule's amounts): the
                # rows the question names in it ("between 2010 and 2011"). Not columns
                # whose header only has no label words ("Q4", "Mar"): those are named
                cells = cross_named(hay, headless, focus)
                if cells:
                    named.append(("asked", cells))
        unnamed.append((kind, family))
    if named_rows and len(named_rows) <= MAX_NAMED_ROWS and ("share" in cues or "ratio" in cues):
        totals = over_totals(hay, named_rows, focus)
        if totals:  # the share's own computation: before the named rows' shares when it is what is asked
            named.insert(0 if cues[0] in ("share", "ratio") else len(named), ("over_total", totals))
    try:
        # the operations the wording names over the groups it names (table cells, then
        # the running text's figures it names by date); then longer expressions over
        # those cells; then those operations everywhere; then the others: each search
        # adds to the same count of chances
        chances = Chances(hay, mention, refuses)
        chances.owed = "total" in cues and bool(asked & _OWED)
        spelled = cached(hay, ("spelled_ratio", sides), lambda: candidates(hay, sides)) if sides else []
        found = spelled_ratio(mention, hay, spelled, max_chance, chances) if spelled else None
        if spelled:
            # the question said how these cells combine: another ratio of them (the
            # reciprocal, some of the numerator's parts) is not its answer
            chances.refuses = not_spelled(spelled, refuses)
        # "the change in the average ...", "average A and average B" ask for a longer
        # expression: before the pairs
        longer = averages_compared and bool(focus) and len(named_rows) <= MAX_NAMED_ROWS
        if found is None and not chances.refused and longer:
            found = compound_hit(mention, hay, [g for kind, f in named if kind == "asked" for g in f], named_rows,
                              cues, max_chance, chances, budget)
        if found is None and not chances.refused:
            found = search_families(mention, hay, max_chance, named, cues, budget, chances, cued_only=True)
        if found is None and not chances.refused and asked and entity is None:
            prose = asked_prose(hay, asked)  # read only when needed: it reads the paragraphs
            if prose:
                named.append(("prose", prose))
                found = search_families(mention, hay, max_chance, named[-1:], cues, budget, chances, cued_only=True)
        if found is None and not chances.refused and asked and entity is None:
            mixed = asked_mixed(hay, asked, focus)
            if mixed:
                named.append(("mixed", mixed))
                found = search_families(mention, hay, max_chance, named[-1:], cues, budget, chances, cued_only=True)
        if found is None and not chances.refused and texts:
            # paragraphs named by topic, after the figures named by date: a long paragraph
            # is many chances, and would spend the budget before them
            named.append(("text", texts))
            found = search_families(mention, hay, max_chance, named[-1:], cues, budget, chances, cued_only=True)
        if found is None and not chances.refused and focus and cues and len(named_rows) <= MAX_NAMED_ROWS \
                and not longer:
            named_cells = [g for kind, f in named if kind == "asked" for g in f]
            found = compound_hit(mention, hay, named_cells, named_rows, cues, max_chance, chances, budget)
        if named_only:
            return found
        if found is None and not chances.refused:
            found = search_families(mention, hay, max_chance, unnamed, cues, budget, chances, cued_only=True)
        if found is None and not chances.refused:
            # a cell beside a figure of the text only for what the wording asks
            rest = [(kind, family) for kind, family in named if kind != "mixed"]
            found = search_families(mention, hay, max_chance, rest + unnamed, cues, budget, chances, cued_only=False)
    except OutOfBudget:
        return None
    return found
