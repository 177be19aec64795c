"""The search over families of groups (:func:`search_families`): each family and
operation in turn, the ones the wording names first, each group by bisection (pairs) or
whole (statistics), until a hit passes the plausibility checks and the question's
refusals, and is believed only while the chances spent up to it stay within
``max_chance``."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from ..extract import Mention
from ..index.haystack import Haystack
from .chance import REFUSAL_WORK, Budget, Chances, OutOfBudget, fitting
from .expressions import (
    COLUMN_OPS,
    GROUP_OPS,
    MIXED_OPS,
    PAIR_OPS,
    SECTION_PAIR_OPS,
    SECTION_STATS,
    TOOL_OPS,
    Derivation,
    derivation_of,
)
from .groups import families_of
from .holdings import prices_and_counts
from .operands import Group, cached, holds_its_total, homogeneous
from .pairs import pairs
from .plan import CUED, cued_first
from .plausible import acceptable
from .stats import group_stat
from .targets import Target, applies, signed, targets_for


def search_families(mention: Mention, hay: Haystack, max_chance: float,
            families: list[tuple[str, list[Group]]], cues: tuple[str, ...] = (),
            budget: Budget | None = None, chances: Chances | None = None,
            cued_only: bool | None = None) -> Derivation | None:
    """Try each family and operation in turn. Every search run is one more chance to be
    lucky, so a hit is believed only while the accidental-hit risk of all the searches
    up to and including its own (and of the searches before, in ``chances``) stays
    within ``max_chance``; once a hit is refused nothing later can be believed either
    (``chances.refused``).
    ``cued_only`` True searches only the operations the wording names, False only the
    others, None both (those first)."""
    points = mention.kind == "percentage_points"
    if chances is None:
        chances = Chances(hay, mention)
    percent_like = chances.percent_like
    by_scale = chances.by_scale
    plans = []
    whole = families_of(hay)
    for kind, family in families:
        stable = family is whole.get(kind)  # a whole family: its facts are cached by kind

        def scales(family: list[Group] = family) -> set[Decimal]:
            return {g.scale for g in family}
        for scale in (cached(hay, ("scales", kind), scales) if stable else scales()):
            if scale not in by_scale:
                by_scale[scale] = [t for base in targets_for(mention, scale) for t in signed(base, mention)]
        targets = by_scale
        pair_ops = ("difference",) if points else {"tool": TOOL_OPS, "column": COLUMN_OPS, "mixed": MIXED_OPS,
                                                    "over_total": ("ratio",),
                                                    "section": SECTION_PAIR_OPS}.get(kind, PAIR_OPS)
        # no means of a paragraph, nor of cells and figures of the text; a cell and its
        # column's total are no group to take a share of
        stats: tuple[str, ...] = () if kind in ("tool", "text", "mixed", "over_total") or points else GROUP_OPS
        if kind == "section" and stats:
            stats = SECTION_STATS
        def averageable(family: list[Group] = family, kind: str = kind) -> list[Group]:
            return [g for g in family if (not holds_its_total(hay, g) if kind == "column" else
                                          kind in ("section", "asked", "prose") or homogeneous(hay, g)
                                          and not (kind == "record" and holds_its_total(hay, g)))]
        eligible = (cached(hay, ("eligible", kind), averageable) if stable else averageable()) if stats else []
        plans.append((family, targets, pair_ops, stats, eligible, kind, stable))
    cued = {op for cue in cues for op in CUED.get(cue, ())}
    # the operations the wording names, in every family, before anything else
    tests = [(plan, op) for plan in plans for op in cued_first(plan[2] + plan[3], cues) if op in cued
             and cued_only is not False]
    if cues and cues[0] in ("ratio", "share"):
        # a ratio's cells are two rows of one column (the question names both rows and
        # the column): the named rows' own ratios (across years) are the unlikely place,
        # so each operation is tried over every named family before the next operation
        rank = {op: i for i, op in enumerate(cued_first(PAIR_OPS + GROUP_OPS, cues))}
        # a cell over its column's total row is a share, ranked as one
        tests.sort(key=lambda test: rank["share" if test[0][5] == "over_total" else test[1]])
    tests += [(plan, op) for plan in plans for op in cued_first(plan[2] + plan[3], cues) if op not in cued
              and cued_only is not True]
    for (family, targets, pair_ops, _stats, eligible, kind, stable), op in tests:
        if op in pair_ops:
            if op == "product":  # most records hold no count and price: nothing to search
                def priced(family: list[Group] = family) -> list[Group]:
                    return [g for g in family if prices_and_counts(hay, g)]
                family = cached(hay, ("priced", kind), priced) if stable else priced()
            chances.pending.append((family, op))
            hit = _first_hit(hay, family, targets, op, mention, percent_like, budget, chances.refuses)
        else:
            # a pair's mean and total are the pair operations' results: not searched twice
            twin = _PAIR_TWIN.get(op)
            groups = [g for g in eligible if len(g.values) > 2 or twin not in pair_ops]
            chances.pending.append((groups, op))
            hit = _first_stat(hay, groups, targets, op, mention, percent_like, chances.refuses, chances.owed)
        if hit is not None:
            # the groups after the hit's own were never searched for this value: a wrong
            # value is believed only where the risk of the groups searched up to its hit
            # is within budget, which bounds the expected false derivations by the budget
            searched, _ = chances.pending[-1]
            chances.pending[-1] = (searched[:next(i for i, g in enumerate(searched) if g is hit[0]) + 1], op)
            # risk is only worked out once a hit needs it; past the budget nothing later
            # could be believed either, so the search ends here
            return derivation_of(hay, hit[0], op, hit[1], hit[2]) if chances.believed(max_chance) else None
    return None


#: The pair operation a group statistic equals on a group of two.
_PAIR_TWIN = {"mean": "average", "total": "sum"}


def _first_stat(hay: Haystack, eligible: list[Group], targets: dict[Decimal, list[Target]], op: str,
                mention: Mention, percent_like: bool, refuses: Callable[[Derivation], bool] | None = None,
                owed: bool = False) -> tuple[Group, tuple[int, ...], Target] | None:
    for g in eligible:
        for t in targets[g.scale]:
            stat_hit = group_stat(g, op, t, percent_like, owed)[1]
            if (stat_hit is not None and acceptable(hay, g, op, stat_hit, t, mention)
                    and not (refuses and refuses(derivation_of(hay, g, op, stat_hit, t)))):
                return g, stat_hit, t
    return None


def _first_hit(hay: Haystack, family: list[Group], targets: dict[Decimal, list[Target]], op: str,
               mention: Mention, percent_like: bool, budget: Budget | None = None,
               refuses: Callable[[Derivation], bool] | None = None) -> tuple[Group, tuple[int, ...], Target] | None:
    for group in family:
        if budget is not None and not budget.spend(len(group.values) * len(targets[group.scale])):
            raise OutOfBudget
        for t in fitting(hay, group, targets, percent_like):
            if not applies(op, t) or (t.magnitude and group.values[0] >= 0):
                continue  # nothing to find: a magnitude needs a negative cell
            for idx in pairs(group, op, t):
                if not acceptable(hay, group, op, idx, t, mention):
                    continue
                if not (refuses and refuses(derivation_of(hay, group, op, idx, t))):
                    return group, idx, t
                if budget is not None and not budget.spend(REFUSAL_WORK):
                    raise OutOfBudget  # thousands of hits the question rules out: a column of 3,000
    return None
