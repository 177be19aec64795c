"""Pairwise search over one group: for each operand, a bisection over the group's
sorted values finds the operands that op(a, b) puts within a half-width of the target,
so a group of n values costs O(n log n), never a loop over all pairs. The same ranges
give the hits (within the tolerance) and, wider, the crowding that
:func:`verifier.derive.chance.chance` counts."""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterator
from decimal import Decimal

from verifier.normalizers.numbers import CONTEXT

from .operands import Group
from .targets import Target

#: What a figure compared with an equal one gives. A total printed twice ("Total",
#: "Current portion" and "Total" all 55.5) makes pairs whose ratio is exactly 1: one
#: point, not a spread of results that could fall on the target by chance, so they
#: do not count as crowding around a target they miss.
SELF_RESULT = {"difference": Decimal(0), "percent_change": Decimal(0), "ratio": Decimal(1)}


def value_range(values: tuple[Decimal, ...], lo: Decimal, hi: Decimal) -> range:
    return range(bisect.bisect_left(values, lo), bisect.bisect_right(values, hi))


def _ranges(group: Group, op: str, t: Target, half_width: Decimal) -> Iterator[tuple[int, range]]:
    """For each operand ``j``, the index range of operands ``i`` with op(values[i],
    values[j]) within ``half_width`` of the target: one bisection each."""
    values, tol = group.values, half_width
    if op == "product" and (not t.additive or group.scale != 1):
        # (a table "in thousands" scales its counts, not its prices: no products there;
        # a column or key that names a scale is refused pair by pair, count_times_price)
        return
    for j, b in enumerate(values):
        if op == "difference" and t.additive:  # a - b = t
            found = value_range(values, b + t.value - tol, b + t.value + tol)
        elif op == "sum" and t.additive:  # a + b = t, each pair once
            found = value_range(values, t.value - b - tol, t.value - b + tol)
            found = range(max(found.start, j + 1), found.stop)
        elif op == "average" and t.additive:  # (a + b) / 2 = t
            found = value_range(values, 2 * t.value - b - 2 * tol, 2 * t.value - b + 2 * tol)
            found = range(max(found.start, j + 1), found.stop)
        elif op == "percent_change" and not t.additive and b != 0:  # (a - b) / b = t
            centre, width = b * (1 + t.value), abs(b) * tol
            found = value_range(values, centre - width, centre + width)
        elif op == "ratio" and not t.additive and (b > 0 or b < 0 and not t.magnitude):  # a / b = t
            centre, width = b * t.value, abs(b) * tol
            found = value_range(values, centre - width, centre + width)
        elif op == "product" and b != 0:  # a * b = t, each pair once
            centre, width = CONTEXT.divide(t.value, b), CONTEXT.divide(tol, abs(b))
            found = value_range(values, centre - width, centre + width)
            found = range(max(found.start, j + 1), found.stop)
        else:
            if op in ("percent_change", "ratio", "product") and t.additive == (op == "product"):
                # b == 0 (no ratio or product), or a negative b for a magnitude (see acceptable)
                continue
            return
        yield j, found


def pairs(group: Group, op: str, t: Target, half_width: Decimal | None = None) -> Iterator[tuple[int, int]]:
    """Index pairs (i, j) of ``group`` with op(values[i], values[j]) within
    ``half_width`` (default: the target's tolerance) of the target."""
    for j, found in _ranges(group, op, t, t.tolerance if half_width is None else half_width):
        for i in found:
            if i != j:
                yield i, j


def count_pairs(group: Group, op: str, t: Target, half_width: Decimal) -> int:
    """How many pairs :func:`pairs` would yield, counted by range lengths (no
    enumeration: a window over a 10,000-value column holds millions of pairs)."""
    return sum(len(found) - (j in found) for j, found in _ranges(group, op, t, half_width))


def within(group: Group, op: str, pair: tuple[int, int], t: Target) -> bool:
    """Whether op(values[i], values[j]) is within the target's tolerance, as
    :func:`_ranges` bounds it."""
    a, b = group.values[pair[0]], group.values[pair[1]]
    if op == "difference":
        return abs(a - b - t.value) <= t.tolerance
    if op == "sum":
        return abs(a + b - t.value) <= t.tolerance
    if op == "average":
        return abs(a + b - 2 * t.value) <= 2 * t.tolerance
    if op == "percent_change":
        return abs(a - b * (1 + t.value)) <= abs(b) * t.tolerance
    if op == "product":
        return abs(a * b - t.value) <= t.tolerance
    return abs(a - b * t.value) <= abs(b) * t.tolerance  # ratio


def equal_pairs(group: Group, op: str, t: Target) -> int:
    """Ordered pairs of distinct members with equal values, among those :func:`_ranges`
    counts: no zeros for a ratio or a percent change (nothing is divided by zero), and
    no negatives for a ratio's magnitude (it never divides by one)."""
    runs = Counter(v for v in group.values if op == "difference" or (
        v > 0 if op == "ratio" and t.magnitude else v != 0))
    return sum(m * (m - 1) for m in runs.values())
