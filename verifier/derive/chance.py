"""Chance and budget. The expected number of accidental hits of a search
(:func:`chance`): how densely a group's other results fall around the target, times the
width of the tolerance band; summed over every search run for one value
(:class:`Chances`), it is what a hit must beat, and above ``max_chance`` the hit is
refused, since it would say nothing. The work budget (:class:`Budget`) bounds how many
operand values one answer's searches may scan in all, so a huge haystack costs a
bounded time."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from .. import deadline
from ..extract import Mention
from ..index.haystack import Haystack
from . import compound
from .expressions import GROUP_OPS, Derivation
from .groups import MAX_PAIR_GROUP
from .operands import SEARCH_KINDS, Group, group_fact
from .pairs import SELF_RESULT, count_pairs, equal_pairs, pairs, within
from .plausible import always_plausible, plausible_pair
from .stats import group_stat
from .targets import Target, applies, window_of


def chance(group: Group, op: str, t: Target, hay: Haystack | None = None) -> float:
    """Expected number of accidental hits within tolerance of ``t`` for ``op`` over
    ``group``: how densely the group's other results fall around the target (within
    :func:`verifier.derive.targets.window_of`), times the width of the tolerance band. Summed over every group
    searched, this is what a hit must beat: a value that many results crowd around
    (a bare "172" among a table of similar integers) proves little; one that stands
    alone at two decimals does."""
    if not applies(op, t) or (t.magnitude and group.values[0] >= 0):
        return 0.0  # a negated target only counts where there are negative cells
    window = window_of(t)
    if window <= t.tolerance:
        return 0.0
    if hay is not None and len(group.values) <= 64 and (group.kind in SEARCH_KINDS or not always_plausible(group, op)):
        # a small record: count only the pairs a hit could be made of (same quantity).
        # A hit's mirror (b - a for a - b, b / a for a / b) is implied by the hit, not
        # a second chance, so it does not count as crowding
        # (one pass over the window's pairs: the hits are the ones within tolerance)
        around = [pair for pair in pairs(group, op, t, window) if plausible_pair(hay, group, op, pair)]
        hit_pairs = {pair for pair in around if within(group, op, pair, t)}
        near = sum(1 for i, j in around if (i, j) not in hit_pairs and (j, i) not in hit_pairs
                   and not (op in SELF_RESULT and group.values[i] == group.values[j]))
    else:  # columns, and large groups counted whole (an over-estimate: conservative)
        near = count_pairs(group, op, t, window) - count_pairs(group, op, t, t.tolerance)
        if op in SELF_RESULT and t.tolerance < abs(SELF_RESULT[op] - t.value) <= window:
            near = max(0, near - equal_pairs(group, op, t))
    return compound.accidental_hits(near, t.tolerance, window)


def fitting(hay: Haystack, group: Group, targets: dict[Decimal, list[Target]],
             percent_like: bool) -> list[Target]:
    """The targets a group's results could be: a percentage's own value (not its
    fraction) is only a sum or difference of percentages, so it is no target, and no
    chance, in a group without one (a paragraph's amounts in millions)."""
    ts = targets[group.scale]
    if not percent_like or not any(t.additive for t in ts) or _has_percent(hay, group):
        return ts
    return [t for t in ts if not t.additive]


def _has_percent(hay: Haystack, group: Group) -> bool:
    return group_fact(hay, "has_percent", group, lambda: len(group.leaves) > MAX_PAIR_GROUP or any(
        hay.is_percent(leaf) for leaf in group.leaves))


#: Families with more groups than this have their risk estimated from an even sample.
RISK_SAMPLE = 40


def _family_risk(hay: Haystack, family: list[Group], op: str, targets: dict[Decimal, list[Target]],
                 percent_like: bool = False, owed: bool = False) -> float:
    """Expected accidental hits of ``op`` over a family: exact for small families,
    scaled up from an evenly spaced sample of groups for large ones (a haystack of
    12,500 records is not walked twice to learn that it is too crowded to trust)."""
    step = max(1, len(family) // RISK_SAMPLE)
    sample = family[::step]
    if op in GROUP_OPS:
        risk = sum(group_stat(g, op, t, percent_like, owed)[0] for g in sample
                   for t in fitting(hay, g, targets, percent_like))
    else:
        risk = sum(chance(g, op, t, hay) for g in sample for t in fitting(hay, g, targets, percent_like))
    return risk * len(family) / len(sample) if sample else 0.0


class Chances:
    """The chances one value's searches have had to be lucky: the expected number of
    accidental hits of every search run so far. Searches that found nothing are only
    counted once a hit needs the total (most values never hit anything)."""

    def __init__(self, hay: Haystack, mention: Mention, refuses: Callable[[Derivation], bool] | None = None):
        self.hay, self.mention = hay, mention
        self.refuses = refuses  # hits the question rules out: the search goes on past them
        #: a percentage or basis points: its fraction is what ratios and shares give
        self.percent_like = mention.kind in ("percent", "basis_points")
        #: the question asks for the total of liabilities: a column's negative members
        #: summed are a total too (set by :func:`verifier.derive.core.derive`)
        self.owed = False
        self.by_scale: dict[Decimal, list[Target]] = {}  # the targets, by the data's scale
        self.pending: list[tuple[list[Group], str]] = []  # searches run, risk not yet counted
        self.spent = 0.0
        self.refused = False  # a hit was over budget: nothing later can be believed either

    def believed(self, max_chance: float) -> bool:
        """Count every search run so far; is a hit now still within ``max_chance``?"""
        for family, op in self.pending:
            self.spent += _family_risk(self.hay, family, op, self.by_scale, self.percent_like, self.owed)
        self.pending.clear()
        self.refused = self.spent > max_chance
        return not self.refused


class Budget:
    """How many operand values one answer's derive searches may scan in all. Every
    search is linear-logarithmic, but a 100,000-leaf haystack times fifty unsupported
    values is still seconds; past the budget the remaining searches are not run (the
    values stay unsupported, and the report says why)."""

    def __init__(self, values: int):
        self.left = values
        self.exhausted = False

    def spend(self, n: int) -> bool:
        deadline.check()  # the search loop's every step spends: past the deadline it stops
        self.left -= n
        self.exhausted = self.exhausted or self.left < 0
        return not self.exhausted


#: The work a hit the question rules out costs (:class:`Budget`): it is checked against
#: the question's rows and years, one more search's worth of values.
REFUSAL_WORK = 32


class OutOfBudget(Exception):
    pass
