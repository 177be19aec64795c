"""Whole-group statistics: a group's total, its mean, and one member's share of the
total, each with the chance of an accidental hit counted as for pairs (every result
near the target that misses it is one more way to be lucky). Few results per group, so
they are cheap and little risk; groups over :data:`MAX_SUM_GROUP` get none."""

from __future__ import annotations

from decimal import Decimal

from verifier.normalizers.numbers import CONTEXT

from . import compound
from .operands import Group
from .pairs import value_range
from .targets import Target, window_of

#: Groups larger than this get no total/mean/share (sums over thousands mean nothing).
MAX_SUM_GROUP = 50


def group_stat(group: Group, op: str, t: Target, percent_like: bool,
                owed: bool = False) -> tuple[float, tuple[int, ...] | None]:
    """(chance of an accidental hit, the hit or None) for a whole-group statistic:
    ``total`` (of every member; with ``owed``, of a column's negative ones too: the
    liabilities of a purchase-price allocation), ``mean``, or one member's ``share`` of
    the total. The chance is counted as for pairs (see :func:`chance`):
    each result the statistic gives that falls in the target's neighbourhood is one
    more way to be lucky. A group has two totals, one mean, and one share per member."""
    values, n = group.values, len(group.values)
    if n > MAX_SUM_GROUP or (t.magnitude and values[0] >= 0):
        return 0.0, None
    total = sum(values, Decimal(0))
    everyone = tuple(range(n))
    if op == "total" and t.additive and not percent_like:  # percentages of different things do not add
        # and the members printed negative, summed: "the total of the liabilities
        # assumed" in an allocation of a purchase price (the sorted values' first ones)
        negative = tuple(i for i in everyone if values[i] < 0) if owed and group.kind == "column" else ()
        results = [total] + ([sum(values[:len(negative)], Decimal(0))] if 2 <= len(negative) < n else [])
        hit = everyone if abs(total - t.value) <= t.tolerance else (
            negative if len(results) > 1 and abs(results[1] - t.value) <= t.tolerance else None)
        return _stat_chance(results, t), hit
    if op == "mean" and t.additive:
        mean = CONTEXT.divide(total, n)
        return _stat_chance([mean], t), everyone if abs(mean - t.value) <= t.tolerance else None
    if op == "share" and not t.additive and total != 0:
        p = _stat_chance([CONTEXT.divide(v, total) for v in values], t)
        lo, hi = sorted((total * (t.value - t.tolerance), total * (t.value + t.tolerance)))
        found = value_range(values, lo, hi)
        return p, ((found.start, *everyone) if len(found) else None)
    return 0.0, None


def _stat_chance(results: list[Decimal], t: Target) -> float:
    """Expected accidental hits among ``results`` that miss the target: those within
    :func:`verifier.derive.targets.window_of` of it, each as likely as a pair's result (see :func:`chance`)."""
    window = window_of(t)
    near = sum(1 for r in results if t.tolerance < abs(r - t.value) <= window)
    return compound.accidental_hits(near, t.tolerance, window)
