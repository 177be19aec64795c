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
operation fall around the target (:func:`chance`); above ``max_chance`` the hit is
refused, since it would say nothing. A bare "7" is easily a difference of two prices
among many; "-12.6" to one decimal from a three-cell row is not.

What the answer wrote sets the tolerance: the result must round to the written value at
its written precision (17.7% matches 17.697%, not 17.62%). Units are respected: a
percent is compared as a fraction for ratios and as written for differences of
percent-valued cells; amounts are compared in the data's own scale. A sign the answer
states must match, and a word of direction makes it the later period's value less the
earlier's ("fell 12.6" is 44.1 in 2019 less 56.7 in 2018).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal

from verifier import stoplists
from verifier.normalizers import tickers
from verifier.normalizers.numbers import CONTEXT, exponent, half_unit

from .. import deadline, yearquarter
from ..extract import Mention
from ..index import prose_periods
from ..index.haystack import Haystack, LeafId
from ..index.scales import key_scale
from ..question.asked_ratio import Sides, candidates
from ..question.asked_text import (
    CURRENCY_SIGN,
    asked_mixed,
    asked_prose,
    mixed_before,
    named_texts,
    same_kind,
)
from ..text.cues import cue_terms
from ..text.labels import focus_words, is_named, label_words, row_words
from . import compound
from .operands import (
    SEARCH_KINDS,
    Group,
    cached,
    cell_of,
    column_total,
    group_fact,
    groups_of,
    holds_its_total,
    homogeneous,
    prose_series,
    record_label,
    same_quantity,
)

#: Operations tried in each group, cheapest and most common first.
PAIR_OPS = ("difference", "percent_change", "sum", "average", "ratio", "product")
#: In a column (one field across records) pairs are compared, not added: "AAPL is 12.3
#: above MSFT"; the sum or average of two arbitrary records is a poor explanation.
COLUMN_OPS = ("difference", "percent_change", "ratio")
GROUP_OPS = ("total", "mean", "share")
#: Operations tried across a whole tool result (operands from anywhere in it): the more
#: freedom, the more chance "derivations" of wrong numbers, so only the two commonest.
TOOL_OPS = ("difference", "percent_change")
#: A cell and a figure of the running text the question names: compared or added
#: ("sales of resale products, from the text, less the sales in the table").
MIXED_OPS = ("difference", "percent_change", "sum", "ratio")
#: A column's sections (see operands.groups_of) add only their own total and mean:
#: no pairs (a column's pairs are compared, not added; a two-row section under a
#: heading gets its total, which is its one sum).
SECTION_PAIR_OPS: tuple[str, ...] = ()
SECTION_STATS = ("total", "mean")
#: Groups larger than this get no pairwise search (a column of 10,000 prices).
MAX_PAIR_GROUP = 5_000
#: Groups larger than this get no total/mean/share (sums over thousands mean nothing).
MAX_SUM_GROUP = 50


@dataclass(frozen=True, slots=True)
class Derivation:
    """How a value was computed from the data."""

    op: str
    operands: tuple[LeafId, ...]
    expression: str
    group: str  # "record", "stacked" (one row label down a column), "asked" (cells the
    # question names along both axes), "column", "section" (rows of a column between a
    # heading and a total), "text", "tool"
    result: Decimal
    #: each operand's figure as used, in the order of ``operands`` (a paragraph's leaf
    #: holds several figures: its path alone does not say which)
    values: tuple[Decimal, ...] = ()
    #: the expression with those figures in place of the paths ("(464888 - 547000) /
    #: 547000 * 100"); empty when it would list a whole column
    worked: str = ""


@dataclass(frozen=True, slots=True)
class _Target:
    value: Decimal
    tolerance: Decimal
    additive: bool  # compare sums and differences (True) or ratios (False) against it
    percent: bool  # a ratio result is shown *100
    #: the answer's value negated: for sums and averages of cells printed as negatives
    #: ("(141,770)" expenses), and a negative amount's share of a positive one; only
    #: acceptable in those shapes (:func:`_sign_dropped`)
    magnitude: bool = False


def _targets(mention: Mention, scale: Decimal) -> list[_Target]:
    """What a derivation must equal, in a group whose data scale is ``scale`` (1: none stated,
    where a scaled figure's mantissa is one too, as the match stage reads "$2.1bn" vs 2.1)."""
    targets: list[_Target] = []
    percent_like = mention.kind in ("percent", "percentage_points", "basis_points")
    for form in mention.num_forms:
        if form.how == "unscaled" and scale == 1 and not percent_like:  # "12.6 million" over cells of no
            targets.append(_Target(form.value, form.tolerance, True, False))  # stated scale: in their units
        if form.how in ("unscaled", "basis points"):
            continue
        if percent_like:
            if form.how == "fraction form":
                targets.append(_Target(form.value, form.tolerance, False, True))
            else:  # percent form: differences of percent-valued cells (4.00% - 1.90%)
                targets.append(_Target(form.value, form.tolerance, True, False))
        else:
            targets.append(_Target(CONTEXT.divide(form.value, scale), CONTEXT.divide(form.tolerance, scale),
                                   True, False))
            if mention.kind in ("number", "multiplier") and len(mention.num_forms) == 1:
                targets.append(_Target(form.value, form.tolerance, False, False))  # "a ratio of 1.24"
                if mention.kind == "number" and scale != 1:
                    # "547.5" with no scale word over a table "in millions": the table's own
                    # units, as a plain cell "4,411" is matched as written
                    targets.append(_Target(form.value, form.tolerance, True, False))
    return targets


def _signed(target: _Target, mention: Mention) -> Iterator[_Target]:
    """The target with the sign the answer gave it: written ("-12.6"), or implied by
    a word of falling ("fell 12.6" is -12.6). Without either it is taken as written,
    and also negated as a magnitude, which only the shapes of :func:`_sign_dropped`
    may match (those are the only searches it costs chances in). After a word of
    rising ("rose 29.84%") a ratio has no magnitude: a fall is not a rise."""
    if mention.direction < 0 and not mention.explicit_sign and target.value > 0:
        yield _Target(-target.value, target.tolerance, target.additive, target.percent)
    else:
        yield target
        if target.value > 0 and not mention.explicit_sign and (target.additive or mention.direction == 0):
            yield _Target(-target.value, target.tolerance, target.additive, target.percent, magnitude=True)


def _range(values: tuple[Decimal, ...], lo: Decimal, hi: Decimal) -> range:
    return range(bisect.bisect_left(values, lo), bisect.bisect_right(values, hi))


def _window(t: _Target) -> Decimal:
    """Half-width of the neighbourhood whose density of results estimates chance."""
    return max(20 * t.tolerance, abs(t.value) / 4)


def chance(group: Group, op: str, t: _Target, hay: Haystack | None = None) -> float:
    """Expected number of accidental hits within tolerance of ``t`` for ``op`` over
    ``group``: how densely the group's other results fall around the target (within
    :func:`_window`), times the width of the tolerance band. Summed over every group
    searched, this is what a hit must beat: a value that many results crowd around
    (a bare "172" among a table of similar integers) proves little; one that stands
    alone at two decimals does."""
    if not _applies(op, t) or (t.magnitude and group.values[0] >= 0):
        return 0.0  # a negated target only counts where there are negative cells
    window = _window(t)
    if window <= t.tolerance:
        return 0.0
    if hay is not None and len(group.values) <= 64 and (group.kind in SEARCH_KINDS or not _always_plausible(group, op)):
        # a small record: count only the pairs a hit could be made of (same quantity).
        # A hit's mirror (b - a for a - b, b / a for a / b) is implied by the hit, not
        # a second chance, so it does not count as crowding
        # (one pass over the window's pairs: the hits are the ones within tolerance)
        around = [pair for pair in _pairs(group, op, t, window) if _plausible_pair(hay, group, op, pair)]
        hit_pairs = {pair for pair in around if _within(group, op, pair, t)}
        near = sum(1 for i, j in around if (i, j) not in hit_pairs and (j, i) not in hit_pairs
                   and not (op in _SELF_RESULT and group.values[i] == group.values[j]))
    else:  # columns, and large groups counted whole (an over-estimate: conservative)
        near = _count_pairs(group, op, t, window) - _count_pairs(group, op, t, t.tolerance)
        if op in _SELF_RESULT and t.tolerance < abs(_SELF_RESULT[op] - t.value) <= window:
            near = max(0, near - _equal_pairs(group, op, t))
    return compound.accidental_hits(near, t.tolerance, window)


#: What a figure compared with an equal one gives. A total printed twice ("Total",
#: "Current portion" and "Total" all 55.5) makes pairs whose ratio is exactly 1: one
#: point, not a spread of results that could fall on the target by chance, so they
#: do not count as crowding around a target they miss.
_SELF_RESULT = {"difference": Decimal(0), "percent_change": Decimal(0), "ratio": Decimal(1)}


def _equal_pairs(group: Group, op: str, t: _Target) -> int:
    """Ordered pairs of distinct members with equal values, among those :func:`_ranges`
    counts: no zeros for a ratio or a percent change (nothing is divided by zero), and
    no negatives for a ratio's magnitude (it never divides by one)."""
    runs = Counter(v for v in group.values if op == "difference" or (
        v > 0 if op == "ratio" and t.magnitude else v != 0))
    return sum(m * (m - 1) for m in runs.values())


def _within(group: Group, op: str, pair: tuple[int, int], t: _Target) -> bool:
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


def _applies(op: str, t: _Target) -> bool:
    """Whether ``op`` can produce ``t``: sums and differences give values in the data's
    units, ratios give fractions, percent changes give percentages."""
    if op in ("difference", "sum", "average", "product"):
        return t.additive
    if op == "percent_change" and t.magnitude:
        return False  # a fall written as a rise is a wrong sign, not a lost one
    return not t.additive  # ratios and percent changes: "24.41%", or a fraction "0.2441"


def _ranges(group: Group, op: str, t: _Target, half_width: Decimal) -> Iterator[tuple[int, range]]:
    """For each operand ``j``, the index range of operands ``i`` with op(values[i],
    values[j]) within ``half_width`` of the target: one bisection each."""
    values, tol = group.values, half_width
    if op == "product" and (not t.additive or group.scale != 1):
        # (a table "in thousands" scales its counts, not its prices: no products there;
        # a column or key that names a scale is refused pair by pair, _count_times_price)
        return
    for j, b in enumerate(values):
        if op == "difference" and t.additive:  # a - b = t
            found = _range(values, b + t.value - tol, b + t.value + tol)
        elif op == "sum" and t.additive:  # a + b = t, each pair once
            found = _range(values, t.value - b - tol, t.value - b + tol)
            found = range(max(found.start, j + 1), found.stop)
        elif op == "average" and t.additive:  # (a + b) / 2 = t
            found = _range(values, 2 * t.value - b - 2 * tol, 2 * t.value - b + 2 * tol)
            found = range(max(found.start, j + 1), found.stop)
        elif op == "percent_change" and not t.additive and b != 0:  # (a - b) / b = t
            centre, width = b * (1 + t.value), abs(b) * tol
            found = _range(values, centre - width, centre + width)
        elif op == "ratio" and not t.additive and (b > 0 or b < 0 and not t.magnitude):  # a / b = t
            centre, width = b * t.value, abs(b) * tol
            found = _range(values, centre - width, centre + width)
        elif op == "product" and b != 0:  # a * b = t, each pair once
            centre, width = CONTEXT.divide(t.value, b), CONTEXT.divide(tol, abs(b))
            found = _range(values, centre - width, centre + width)
            found = range(max(found.start, j + 1), found.stop)
        else:
            if op in ("percent_change", "ratio", "product") and t.additive == (op == "product"):
                # b == 0 (no ratio or product), or a negative b for a magnitude (see _acceptable)
                continue
            return
        yield j, found


def _pairs(group: Group, op: str, t: _Target, half_width: Decimal | None = None) -> Iterator[tuple[int, int]]:
    """Index pairs (i, j) of ``group`` with op(values[i], values[j]) within
    ``half_width`` (default: the target's tolerance) of the target."""
    for j, found in _ranges(group, op, t, t.tolerance if half_width is None else half_width):
        for i in found:
            if i != j:
                yield i, j


def _count_pairs(group: Group, op: str, t: _Target, half_width: Decimal) -> int:
    """How many pairs :func:`_pairs` would yield, counted by range lengths (no
    enumeration: a window over a 10,000-value column holds millions of pairs)."""
    return sum(len(found) - (j in found) for j, found in _ranges(group, op, t, half_width))


def _expression(op: str, paths: list[str], percent: bool) -> str:
    a = paths[0]
    b = paths[1] if len(paths) > 1 else ""
    text = {
        "difference": f"{a} - {b}",
        "sum": f"{a} + {b}",
        "average": f"({a} + {b}) / 2",
        "percent_change": f"({a} - {b}) / {b}",
        "ratio": f"{a} / {b}",
        "product": f"{a} * {b}",
    }.get(op)
    if text is None:
        listed = ", ".join(paths[1:] if op == "share" else paths)
        text = {"total": f"sum({listed})", "mean": f"avg({listed})", "share": f"{a} / sum({listed})"}[op]
    if not percent:
        return text
    return f"{text} * 100" if op == "percent_change" else f"({text}) * 100"


def _group_stat(group: Group, op: str, t: _Target, percent_like: bool,
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
        found = _range(values, lo, hi)
        return p, ((found.start, *everyone) if len(found) else None)
    return 0.0, None


def _stat_chance(results: list[Decimal], t: _Target) -> float:
    """Expected accidental hits among ``results`` that miss the target: those within
    :func:`_window` of it, each as likely as a pair's result (see :func:`chance`)."""
    window = _window(t)
    near = sum(1 for r in results if t.tolerance < abs(r - t.value) <= window)
    return compound.accidental_hits(near, t.tolerance, window)


_ADDITIVE = frozenset({"difference", "sum", "average", "total", "mean"})


def _always_plausible(group: Group, op: str) -> bool:
    return op != "product" and group.kind != "mixed" and (group.kind not in ("record", "tool") or op == "ratio")


def _plausible_pair(hay: Haystack, group: Group, op: str, pair: tuple[int, int]) -> bool:
    """Whether two cells of one record could be added, subtracted or compared by
    percent change: only if they measure the same quantity (a ratio of different ones,
    a margin, is fine). Columns hold one quantity by construction. A product is only
    a count times a price (150 shares at $142.30 are worth $21,345), in any group."""
    a, b = group.leaves[pair[0]], group.leaves[pair[1]]
    if group.kind == "mixed":  # a cell and a figure of the text: the pairs of each alone were searched
        return (a in hay.text_values) != (b in hay.text_values)
    if op == "product":
        return _count_times_price(hay, a, b) or _count_times_price(hay, b, a)
    if _always_plausible(group, op):
        return True
    return same_quantity(hay, a, b)


#: What a price's field or column is called: "price", "avg_cost", "Weighted-Average
#: Exercise Price Per Share", "AveragePrice Paidper Share", "px_last"; not a ratio of a
#: price ("price_to_earnings", "Price/Book"), not other per-share figures (a dividend
#: per share times the shares is a payout, not what a holding is worth).
_PER_UNIT = re.compile(r"(?i)price(?![\s_-]*(?:to(?:\b|_)|/))|(?:^|_)px(?:_|$)|cost[\s_-]*basis|av(?:era)?g[\s_-]*cost")
#: What a count of shares or units is called: "qty", "Number of Shares", "units",
#: "Number of securities to be issued" (not "Available-for-sale securities", an amount).
_COUNT = re.compile(r"(?i)shares|quantity|(?:^|_)qty(?:_|$)|units|contracts|number[\s_]*of[\s_]*securities")


def _prices_and_counts(hay: Haystack, group: Group) -> bool:
    """Whether ``group`` holds a count and a price (a product could be made). Cached."""
    leaves = group.leaves
    # (records are a handful of fields; a group of hundreds is no record to multiply in)
    return group_fact(hay, "products", group, lambda: group.scale == 1 and len(leaves) <= 64 and any(
        _count_times_price(hay, a, b) for a in leaves for b in leaves if a != b))


def _count_times_price(hay: Haystack, count: LeafId, price: LeafId) -> bool:
    """Whether ``count`` holds a number of shares or units and ``price`` a price per
    one: both positive (a short position's negative value is no holding's worth), as
    written (a count "in thousands", a "price_k", scales one side only), and not
    percentages."""
    kc, kp = hay.leaves[count].key or "", hay.leaves[price].key or ""
    return (bool(_PER_UNIT.search(kp)) and bool(_COUNT.search(kc)) and not _PER_UNIT.search(kc)
            and key_scale(kc) is None and key_scale(kp) is None
            and hay.leaf_value.get(count, Decimal(0)) > 0 and hay.leaf_value.get(price, Decimal(0)) > 0
            and not hay.is_percent(count) and not hay.is_percent(price))


def _acceptable(hay: Haystack, group: Group, op: str, idx: tuple[int, ...], t: _Target,
                mention: Mention) -> bool:
    """Plausibility checks on a hit: operands of one record that are added or compared
    must measure the same quantity; a rounded sum or difference must be written at
    least as precisely as its operands (9.886 is not "10"), unless hedged."""
    if t.magnitude and not _sign_dropped(hay, group, op, idx):
        return False
    if not _adds_up(hay, mention, t.additive, [group.leaves[i] for i in idx]):
        return False
    if len(idx) == 2 and op in PAIR_OPS and not _plausible_pair(hay, group, op, (idx[0], idx[1])):
        return False
    if group.kind == "mixed" and op in ("difference", "sum") and not _adds_to(group, idx, t):
        return False
    if op in ("ratio", "percent_change") and len(idx) == 2 and _money_over_percent(hay, group, idx):
        return False
    if group.kind == "text" and op in ("difference", "sum", "average") and not same_kind(hay, group, idx):
        return False
    if group.order and op in ("difference", "percent_change"):
        first, second = group.order[idx[0]], group.order[idx[1]]
        # figures of running text asked by date: where the question asks across dates a
        # change is between two of them, and "fell" / "rose" is the later less the
        # earlier (at one date, two items may be compared). A cell beside a figure of
        # the text: only the direction, where both are dated
        if group.kind == "mixed":
            # a word of direction needs the minuend known to be the later; a question
            # across dates needs two different years
            if mention.direction and mixed_before(second, first) is not True:
                return False
            if group.across and (0 in (first[0], second[0]) or first[0] == second[0]):
                return False
        elif (first == second and len(set(group.order)) > 1) or (mention.direction and first < second):
            return False
    if (mention.direction and op in ("difference", "percent_change")
            and _earlier(hay, group, idx[0], idx[1])):
        # "fell 367" is the later value less the earlier: not a rise of 367 read backwards
        # (without a word of direction, "the difference between 2018 and 2019" may be
        # given either way round)
        return False
    if op == "product":  # written as exactly as it comes out ($21,345 for 150 x 142.30), to the
        # whole unit (627,442,961 for 7,673,266 shares at $81.77: the cents dropped), or hedged
        product = _value_of(group, op, idx)
        return not _too_coarse(mention, product, t.value, [product.quantize(Decimal(1)) if exponent(product) < 0
                                                            else product])
    operands = [group.values[i] for i in idx]
    if group.kind == "mixed":  # a text's "$16.9 million" is a rounding: the result is no finer
        operands = [max(operands, key=exponent)]
    if op == "mean" and len(idx) > 2:
        # a mean of several figures has more digits than they have: one fewer than they
        # have is how it is written ("10.3" for the mean 10.3025 of four prices to the
        # cent); a pair's average has one more at most, and is written in full
        operands = [v.scaleb(1) if v else v for v in operands]
    return not (op in _ADDITIVE and _too_coarse(mention, _value_of(group, op, idx), t.value, operands))


def _money_over_percent(hay: Haystack, group: Group, idx: tuple[int, ...]) -> bool:
    """Whether one operand is a cell printed as money and the other a cell printed as
    a percentage ("$10,436" over an ownership row's "100%"): no ratio or change of the
    two means anything. Read from the cells as printed, not from their columns."""
    raws = [hay.leaves[group.leaves[i]].raw for i in idx[:2]]
    if any(group.leaves[i] in hay.text_values for i in idx[:2]):
        return False  # a paragraph's raw text says nothing of one figure
    money = [bool(CURRENCY_SIGN.search(r)) for r in raws]
    percent = ["%" in r for r in raws]
    return (money[0] and percent[1]) or (money[1] and percent[0])


def _adds_to(group: Group, idx: tuple[int, ...], t: _Target) -> bool:
    """Whether a cell and a figure of the text may be added or subtracted to give
    ``t``: the result written no finer than either was ("$30,182 thousand less $16.9
    million" is 13,3xx, not exactly 13,282: the figure is a rounding), and the smaller
    at least a hundredth of the larger (a text's $88,848 less a $5 cell is a copy of
    the figure with its last digit changed far more often than a computation)."""
    a, b = (group.values[i] for i in idx)
    small, large = sorted((abs(a), abs(b)))
    return small * 100 >= large and all(t.tolerance >= half_unit(v) for v in (a, b))


def _groups_for(hay: Haystack, groups: list[Group], entity: str) -> list[Group]:
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


def _sign_dropped(hay: Haystack, group: Group, op: str, idx: tuple[int, ...]) -> bool:
    """Whether an answer may give this hit's magnitude without its sign: the total of
    cells printed as negatives ("(141,770)" expenses), or the share of one of them in a
    positive amount ("D&A (111) is 29.84% of EBITDA 372"). A percent change keeps its
    sign (a fall written as a rise is wrong), and so does a ratio whose negative is a
    change ("Change (111)" over 2018's 372 is a fall of 29.84%) or that involves a
    percentage."""
    values = [group.values[i] for i in idx]
    if op in ("sum", "average", "total", "mean"):
        return all(v < 0 for v in values)
    if op not in ("ratio", "share"):
        return False
    first = group.leaves[idx[0]]
    whole = values[1] if op == "ratio" else sum(values[1:])
    return (values[0] < 0 < whole and not _CHANGE_WORD.search(hay.leaves[first].key or "")
            and not any(hay.is_percent(group.leaves[i]) for i in idx[:2 if op == "ratio" else len(idx)]))


#: A column header that says its cells are changes, not amounts.
_CHANGE_WORD = re.compile(r"(?i)\b(?:changes?|variances?|variation|increase|decrease|growth)\b")


def _adds_up(hay: Haystack, mention: Mention, additive: bool, operands: list[LeafId]) -> bool:
    """"grew 30%" is not 150 - 120: only percentages add up to a percentage."""
    return not (additive and mention.kind in ("percent", "basis_points", "percentage_points")
                and not all(hay.is_percent(leaf) for leaf in operands))


def _too_coarse(mention: Mention, result: Decimal, target: Decimal, operands: list[Decimal]) -> bool:
    """A sum or difference rounded coarser than its operands were written (9.886 is not
    "10"), unless the answer says it is approximate. ``target`` is in the data's units."""
    return (not mention.hedged and result != target
            and exponent(target) > min(exponent(v) for v in operands))


def _earlier(hay: Haystack, group: Group, a: int, b: int) -> bool:
    """Whether the data dates the ``a``-th operand of ``group`` before the ``b``-th
    (both dated, and differently): by their column or record, or, for figures of one
    paragraph, by the year the text gives each ("$9.8 million in 2019 compared with
    $12.4 million in 2018")."""
    return _before(_period(hay, group, a), _period(hay, group, b))


def _earlier_leaf(hay: Haystack, a: LeafId, b: LeafId) -> bool:
    """Whether the data dates cell ``a`` before cell ``b`` (by column or record)."""
    return _before(hay.period_of(a), hay.period_of(b))


def _before(pa: tuple[int, int | None] | None, pb: tuple[int, int | None] | None) -> bool:
    """Whether period ``pa`` comes before ``pb`` (both known)."""
    return pa is not None and pb is not None and (pa[0], pa[1] or 0) < (pb[0], pb[1] or 0)


def _period(hay: Haystack, group: Group, i: int) -> tuple[int, int | None] | None:
    leaf = group.leaves[i]
    if group.kind != "text":
        return hay.period_of(leaf)
    value = group.values[i]
    forms = frozenset({value, CONTEXT.multiply(value, group.scale)})
    found = prose_periods.periods_of(hay, leaf, forms)
    if found is not None:
        return next(iter(found)) if len(found) == 1 else None
    # a clause's opening date ("In 2019, revenue was $500 million. In 2018, ...")
    years = frozenset(yearquarter.YEAR_IN_TEXT.findall(hay.leaves[leaf].raw))
    dated = {d.order[0] for run in prose_periods.dated_figures(hay, leaf, years) for d in run if d.forms & forms}
    return (dated.pop(), None) if len(dated) == 1 else None


def _value_of(group: Group, op: str, idx: tuple[int, ...]) -> Decimal:
    values = [group.values[i] for i in idx]
    if op == "difference":
        return values[0] - values[1]
    if op == "product":
        return values[0] * values[1]
    if op in ("sum", "total"):
        return sum(values, Decimal(0))
    return CONTEXT.divide(sum(values, Decimal(0)), len(values))


def _label_words(hay: Haystack, group: Group) -> frozenset[str]:
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


def _named(hay: Haystack, family: list[Group], focus: frozenset[str]) -> list[Group]:
    """The groups of ``family`` whose label the question or sentence names. A whole
    family of the haystack (:func:`_families`) is looked up by word, not walked: a
    screener of 20,000 records is asked this for every value."""
    kind = family[0].kind if family else ""
    if family is _families(hay).get(kind):
        index: dict[str, list[int]] = cached(hay, ("label_index", kind), lambda: _label_index(hay, family))
        at = sorted({i for word in focus for i in index.get(word, ())})
        return [family[i] for i in at if is_named(_label_words(hay, family[i]), focus)]
    return [g for g in family if is_named(_label_words(hay, g), focus)]


def _label_index(hay: Haystack, family: list[Group]) -> dict[str, list[int]]:
    index: dict[str, list[int]] = defaultdict(list)
    for i, g in enumerate(family):
        for word in _label_words(hay, g):
            index[word].append(i)
    return index


def _families(hay: Haystack) -> dict[str, list[Group]]:
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


def _cross_named(hay: Haystack, family: list[Group], focus: frozenset[str]) -> list[Group]:
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


def derive(mention: Mention, hay: Haystack, max_chance: float = 0.1,
           focus: frozenset[str] = frozenset(), cues: tuple[str, ...] = (),
           budget: Budget | None = None, named_only: bool = False,
           entity: str | None = None, asked: frozenset[str] = frozenset(),
           refuses: Callable[[Derivation], bool] | None = None, sides: tuple[Sides, ...] = (),
           averages_compared: bool = False) -> Derivation | None:
    """The most plausible derivation of ``mention`` from the data, or None.

    Families of groups are tried in order (records and rows, columns, whole tool
    results), and within a family each operation. A hit is accepted only when the
    expected number of accidental hits over every search run for this value (every
    group searched, not just the one that hit) is at most ``max_chance``: searching 25
    rows is 25 chances to be lucky. When the question or the answer's sentence
    (``focus``, see :func:`focus_words`) names rows or columns ("the change in
    Other"), those are searched first as a family of their own: a named row is one
    chance, not 25. The operations its wording names (``cues``, see :func:`cue_words`:
    "average", "change") come first: over the named groups, then as longer expressions
    over the named cells, then everywhere; the other operations last. ``named_only``
    stops after the first two (a value that already rounds some cell is only explained
    by the computation its question asks for over the rows it names). ``entity`` (the
    ticker the value's clause names) leaves out groups that are only other entities'
    records. ``asked`` (the question's words alone) names figures of running text by
    date (:func:`asked_prose`). ``refuses`` says which hits the question rules out
    (the pipeline's row and year checks): the search goes on past them, their chances
    counted like any other search's.
    """
    if not mention.num_forms:
        return None
    if entity is not None:
        allowed = {id(g) for g in _groups_for(hay, groups_of(hay), entity)}
    named: list[tuple[str, list[Group]]] = []  # the groups the wording names, first
    unnamed: list[tuple[str, list[Group]]] = []
    named_rows: list[Group] = []  # the rows the question or sentence names (in full, if any)
    texts: list[Group] = []  # the paragraphs it names
    families = _families(hay)
    for kind in ("record", "stacked", "column", "section", "text", "tool"):
        family = families.get(kind, [])
        if entity is not None:
            family = [g for g in family if id(g) in allowed]
        if kind == "stacked":  # searched only where the question or sentence names the row
            rows = _named(hay, family, focus) if focus else []
            if rows:
                named.append((kind, rows))
            continue
        if focus and kind == "text":
            texts = named_texts(hay, family, focus)
            if len(texts) == len(family):
                texts = []
        if focus and kind in ("record", "column", "section"):
            some = _named(hay, family, focus)
            # rows the question names in full ("Other" and "Deferred tax liabilities" in
            # "other deferred tax liabilities") before rows it names half of
            whole = [g for g in some if _label_words(hay, g) <= focus]
            if kind == "record" and some:
                named_rows = whole or some
            for subset in ((whole,) if len(whole) < len(some) else ()) + (some,):
                cells = _cross_named(hay, subset, focus)
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
                cells = _cross_named(hay, headless, focus)
                if cells:
                    named.append(("asked", cells))
        unnamed.append((kind, family))
    if named_rows and len(named_rows) <= MAX_NAMED_ROWS and ("share" in cues or "ratio" in cues):
        totals = _over_totals(hay, named_rows, focus)
        if totals:  # the share's own computation: before the named rows' shares when it is what is asked
            named.insert(0 if cues[0] in ("share", "ratio") else len(named), ("over_total", totals))
    try:
        # the operations the wording names over the groups it names (table cells, then
        # the running text's figures it names by date); then longer expressions over
        # those cells; then those operations everywhere; then the others: each search
        # adds to the same count of chances
        chances = _Chances(hay, mention, refuses)
        chances.owed = "total" in cues and bool(asked & _OWED)
        spelled = cached(hay, ("spelled_ratio", sides), lambda: candidates(hay, sides)) if sides else []
        found = _spelled_ratio(mention, hay, spelled, max_chance, chances) if spelled else None
        if spelled:
            # the question said how these cells combine: another ratio of them (the
            # reciprocal, some of the numerator's parts) is not its answer
            chances.refuses = _not_spelled(spelled, refuses)
        # "the change in the average ...", "average A and average B" ask for a longer
        # expression: before the pairs
        longer = averages_compared and bool(focus) and len(named_rows) <= MAX_NAMED_ROWS
        if found is None and not chances.refused and longer:
            found = _compound(mention, hay, [g for kind, f in named if kind == "asked" for g in f], named_rows,
                              cues, max_chance, chances, budget)
        if found is None and not chances.refused:
            found = _search(mention, hay, max_chance, named, cues, budget, chances, cued_only=True)
        if found is None and not chances.refused and asked and entity is None:
            prose = asked_prose(hay, asked)  # read only when needed: it reads the paragraphs
            if prose:
                named.append(("prose", prose))
                found = _search(mention, hay, max_chance, named[-1:], cues, budget, chances, cued_only=True)
        if found is None and not chances.refused and asked and entity is None:
            mixed = asked_mixed(hay, asked, focus)
            if mixed:
                named.append(("mixed", mixed))
                found = _search(mention, hay, max_chance, named[-1:], cues, budget, chances, cued_only=True)
        if found is None and not chances.refused and texts:
            # paragraphs named by topic, after the figures named by date: a long paragraph
            # is many chances, and would spend the budget before them
            named.append(("text", texts))
            found = _search(mention, hay, max_chance, named[-1:], cues, budget, chances, cued_only=True)
        if found is None and not chances.refused and focus and cues and len(named_rows) <= MAX_NAMED_ROWS \
                and not longer:
            named_cells = [g for kind, f in named if kind == "asked" for g in f]
            found = _compound(mention, hay, named_cells, named_rows, cues, max_chance, chances, budget)
        if named_only:
            return found
        if found is None and not chances.refused:
            found = _search(mention, hay, max_chance, unnamed, cues, budget, chances, cued_only=True)
        if found is None and not chances.refused:
            # a cell beside a figure of the text only for what the wording asks
            rest = [(kind, family) for kind, family in named if kind != "mixed"]
            found = _search(mention, hay, max_chance, rest + unnamed, cues, budget, chances, cued_only=False)
    except _OutOfBudget:
        return None
    return found


def _over_totals(hay: Haystack, rows: list[Group], focus: frozenset[str]) -> list[Group]:
    """For a share or ratio: each cell of a row the question names beside its column's
    total (:func:`column_total`), which a question names only as "total" ("the
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


#: More rows named in full than this and the wording named no row in particular.
MAX_NAMED_ROWS = 4


def _compound(mention: Mention, hay: Haystack, asked: list[Group], rows: list[Group],
              cues: tuple[str, ...], max_chance: float, chances: _Chances,
              budget: Budget | None) -> Derivation | None:
    """Three- and four-cell expressions over the cells the question names (see
    :mod:`verifier.derive.compound`): every cell it names along both axes (``asked``; with,
    for a share or ratio, each one's column total), and the rows it names in full."""
    sets: list[tuple[Decimal, list[compound.Cell]]] = []
    seen: set[frozenset[LeafId]] = set()
    # the rows named in full together ("average A and average B"), or each alone
    for groups in [asked, rows, *([g] for g in rows)]:
        cells = {leaf: value for g in groups for value, leaf in zip(g.values, g.leaves, strict=True)}
        if groups is asked and ("share" in cues or "ratio" in cues):
            # "the proportion of A and B over total net sales": the named cells' column
            # total, which a question names only as "total" (no row label to match)
            for leaf in list(cells):
                total = column_total(hay, leaf)
                if total is not None:
                    cells.setdefault(total, hay.leaf_value[total])
        key = frozenset(cells)
        if groups and key not in seen and len(cells) <= compound.MAX_CELLS:
            seen.add(key)
            sets.append((groups[0].scale, [cell_of(hay, leaf, v) for leaf, v in sorted(cells.items())]))
            if groups is rows:
                break  # every row is in it
    if "total" in cues or "mean" in cues:  # "the total depreciation from 2017 to 2019"
        sets += prose_series(hay)
    jobs = [(cells, _compound_targets(mention, scale)) for scale, cells in sets]

    def fits(found: compound.Found, t: compound.Target) -> bool:
        return _adds_up(hay, mention, t.additive, [c.leaf for c in found.cells])

    def accept(found: compound.Found, t: compound.Target) -> bool:
        if (mention.direction and found.op in ("mean_difference", "sum_change")
                and _earlier_leaf(hay, found.cells[1].leaf, found.cells[3].leaf)):
            # "fell": later less earlier, as for a single change (the second cell of each
            # half tells them apart: (2019 + 2018) / 2 - (2018 + 2017) / 2)
            return False
        if t.additive and _too_coarse(mention, found.result, t.value, [c.value for c in found.cells]):
            return False
        return _unrefused(hay, chances, found, t)

    if budget is not None and not budget.spend(sum(len(cells) ** 2 for _, cells in sets)):
        raise _OutOfBudget
    hit, risk = compound.search(jobs, cues, fits, accept)
    chances.spent += risk
    if hit is None:
        return None
    if not chances.believed(max_chance):
        return None
    return _made(hay, *hit)


def _not_spelled(spelled: list[compound.Found], refuses: Callable[[Derivation], bool] | None,
                 ) -> Callable[[Derivation], bool]:
    """``refuses``, and any ratio or share of the cells of the ratio the question
    spells out: it said which is divided by which."""
    cells = frozenset(c.leaf for found in spelled for c in found.cells)

    def refused(found: Derivation) -> bool:
        if found.op in ("ratio", "share", "sum_ratio") and set(found.operands) <= cells:
            return True
        return refuses is not None and refuses(found)
    return refused


def _compound_targets(mention: Mention, scale: Decimal) -> list[compound.Target]:
    """The targets of :mod:`verifier.derive.compound`'s expressions in data of ``scale``: as
    the answer signed them, no magnitudes (those are for pair shapes only)."""
    return [compound.Target(t.value, t.tolerance, t.additive, t.percent, _window(t))
            for base in _targets(mention, scale) for t in _signed(base, mention) if not t.magnitude]


def _unrefused(hay: Haystack, chances: _Chances, found: compound.Found, t: compound.Target) -> bool:
    """Whether the question's checks (``chances.refuses``) let a longer expression's hit
    stand."""
    return not (chances.refuses and chances.refuses(_made(hay, found, t)))


def _made(hay: Haystack, found: compound.Found, t: compound.Target) -> Derivation:
    """A result of a longer expression (:mod:`verifier.derive.compound`) as a derivation."""
    def written(operands: list[str]) -> str:  # the expression over paths, or figures
        text = found.template.format(*operands)
        return f"({text}) * 100" if t.percent and not t.additive else text
    return Derivation(found.op, tuple(c.leaf for c in found.cells),
                      written([hay.path(c.leaf) for c in found.cells]), "asked", t.value,
                      tuple(c.value for c in found.cells), written([_figure(c.value) for c in found.cells]))


def _spelled_ratio(mention: Mention, hay: Haystack, founds: list[compound.Found], max_chance: float,
                   chances: _Chances) -> Derivation | None:
    """The ratio the question spells out (:mod:`verifier.question.asked_ratio`), first of all:
    the few results of that one expression are the few chances it adds."""
    targets = [t for t in _compound_targets(mention, Decimal(1)) if not t.additive]

    def accept(found: compound.Found, t: compound.Target) -> bool:
        return _unrefused(hay, chances, found, t)
    hit, risk = compound.score(founds, targets, accept)
    chances.spent += risk
    if hit is None or not chances.believed(max_chance):
        return None
    return _made(hay, *hit)


#: Operations each cue brings forward (pair operations and group statistics).
_CUED = {
    "mean": ("mean", "average"),  # "the average X over 2017-2019": the row's mean first
    "total": ("total", "sum"),
    "difference": ("difference", "percent_change"),
    "percent_change": ("percent_change", "difference"),
    "ratio": ("ratio", "share", "percent_change"),
    "share": ("share", "ratio"),
    "product": ("product",),
}


def _order(ops: tuple[str, ...], cues: tuple[str, ...]) -> list[str]:
    """``ops`` with the ones the wording asks for first, in the order it names them,
    then group statistics (few results, little risk), then the remaining pair
    operations."""
    ordered: list[str] = []
    for cue in cues:
        ordered += [op for op in _CUED.get(cue, ()) if op in ops and op not in ordered]
    ordered += [op for op in GROUP_OPS if op in ops and op not in ordered]
    return ordered + [op for op in ops if op not in ordered]


def asked_cues(question: str, hay: Haystack) -> tuple[str, ...]:
    """The operations a question asks for (:func:`cue_words`), leaving out cue words
    that are part of the name of a row it names ("What was Total revenue?" names the
    row "Total revenue" and asks for no total)."""
    labels: set[str] = set()
    for g in _named(hay, _families(hay).get("record", []), focus_words(question)):
        # every word of the label, "total" too (no content word, so not in label_words)
        labels.update(record_label(hay, hay.leaves[g.leaves[0]].node).split("_"))
    table = stoplists.load_pairs("operation_cues")
    return tuple(dict.fromkeys(table[w] for w in cue_terms(question) if not set(w.split("_")) <= labels))


def _search(mention: Mention, hay: Haystack, max_chance: float,
            families: list[tuple[str, list[Group]]], cues: tuple[str, ...] = (),
            budget: Budget | None = None, chances: _Chances | None = None,
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
        chances = _Chances(hay, mention)
    percent_like = chances.percent_like
    by_scale = chances.by_scale
    plans = []
    whole = _families(hay)
    for kind, family in families:
        stable = family is whole.get(kind)  # a whole family: its facts are cached by kind

        def scales(family: list[Group] = family) -> set[Decimal]:
            return {g.scale for g in family}
        for scale in (cached(hay, ("scales", kind), scales) if stable else scales()):
            if scale not in by_scale:
                by_scale[scale] = [t for base in _targets(mention, scale) for t in _signed(base, mention)]
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
    cued = {op for cue in cues for op in _CUED.get(cue, ())}
    # the operations the wording names, in every family, before anything else
    tests = [(plan, op) for plan in plans for op in _order(plan[2] + plan[3], cues) if op in cued
             and cued_only is not False]
    if cues and cues[0] in ("ratio", "share"):
        # a ratio's cells are two rows of one column (the question names both rows and
        # the column): the named rows' own ratios (across years) are the unlikely place,
        # so each operation is tried over every named family before the next operation
        rank = {op: i for i, op in enumerate(_order(PAIR_OPS + GROUP_OPS, cues))}
        # a cell over its column's total row is a share, ranked as one
        tests.sort(key=lambda test: rank["share" if test[0][5] == "over_total" else test[1]])
    tests += [(plan, op) for plan in plans for op in _order(plan[2] + plan[3], cues) if op not in cued
              and cued_only is not True]
    for (family, targets, pair_ops, _stats, eligible, kind, stable), op in tests:
        if op in pair_ops:
            if op == "product":  # most records hold no count and price: nothing to search
                def priced(family: list[Group] = family) -> list[Group]:
                    return [g for g in family if _prices_and_counts(hay, g)]
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
            return _make(hay, hit[0], op, hit[1], hit[2]) if chances.believed(max_chance) else None
    return None


class _Chances:
    """The chances one value's searches have had to be lucky: the expected number of
    accidental hits of every search run so far. Searches that found nothing are only
    counted once a hit needs the total (most values never hit anything)."""

    def __init__(self, hay: Haystack, mention: Mention, refuses: Callable[[Derivation], bool] | None = None):
        self.hay, self.mention = hay, mention
        self.refuses = refuses  # hits the question rules out: the search goes on past them
        #: a percentage or basis points: its fraction is what ratios and shares give
        self.percent_like = mention.kind in ("percent", "basis_points")
        #: the question asks for the total of liabilities: a column's negative members
        #: summed are a total too (set by :func:`derive`)
        self.owed = False
        self.by_scale: dict[Decimal, list[_Target]] = {}  # the targets, by the data's scale
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


#: Question words under which a column's negative members are what is totalled ("the
#: total fair value of all the liabilities assumed").
_OWED = frozenset({"liabilities", "liability"})


#: The pair operation a group statistic equals on a group of two.
_PAIR_TWIN = {"mean": "average", "total": "sum"}


def _first_stat(hay: Haystack, eligible: list[Group], targets: dict[Decimal, list[_Target]], op: str,
                mention: Mention, percent_like: bool, refuses: Callable[[Derivation], bool] | None = None,
                owed: bool = False) -> tuple[Group, tuple[int, ...], _Target] | None:
    for g in eligible:
        for t in targets[g.scale]:
            stat_hit = _group_stat(g, op, t, percent_like, owed)[1]
            if (stat_hit is not None and _acceptable(hay, g, op, stat_hit, t, mention)
                    and not (refuses and refuses(_make(hay, g, op, stat_hit, t)))):
                return g, stat_hit, t
    return None


def _fitting(hay: Haystack, group: Group, targets: dict[Decimal, list[_Target]],
             percent_like: bool) -> list[_Target]:
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


def _family_risk(hay: Haystack, family: list[Group], op: str, targets: dict[Decimal, list[_Target]],
                 percent_like: bool = False, owed: bool = False) -> float:
    """Expected accidental hits of ``op`` over a family: exact for small families,
    scaled up from an evenly spaced sample of groups for large ones (a haystack of
    12,500 records is not walked twice to learn that it is too crowded to trust)."""
    step = max(1, len(family) // RISK_SAMPLE)
    sample = family[::step]
    if op in GROUP_OPS:
        risk = sum(_group_stat(g, op, t, percent_like, owed)[0] for g in sample
                   for t in _fitting(hay, g, targets, percent_like))
    else:
        risk = sum(chance(g, op, t, hay) for g in sample for t in _fitting(hay, g, targets, percent_like))
    return risk * len(family) / len(sample) if sample else 0.0


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


class _OutOfBudget(Exception):
    pass


def _first_hit(hay: Haystack, family: list[Group], targets: dict[Decimal, list[_Target]], op: str,
               mention: Mention, percent_like: bool, budget: Budget | None = None,
               refuses: Callable[[Derivation], bool] | None = None) -> tuple[Group, tuple[int, ...], _Target] | None:
    for group in family:
        if budget is not None and not budget.spend(len(group.values) * len(targets[group.scale])):
            raise _OutOfBudget
        for t in _fitting(hay, group, targets, percent_like):
            if not _applies(op, t) or (t.magnitude and group.values[0] >= 0):
                continue  # nothing to find: a magnitude needs a negative cell
            for idx in _pairs(group, op, t):
                if not _acceptable(hay, group, op, idx, t, mention):
                    continue
                if not (refuses and refuses(_make(hay, group, op, idx, t))):
                    return group, idx, t
                if budget is not None and not budget.spend(REFUSAL_WORK):
                    raise _OutOfBudget  # thousands of hits the question rules out: a column of 3,000
    return None


def _make(hay: Haystack, group: Group, op: str, idx: tuple[int, ...], t: _Target) -> Derivation:
    if op == "share":  # the share's own operand, then the members summed
        order = (idx[0], *sorted(idx[1:], key=lambda i: group.leaves[i]))
    elif op in ("total", "mean"):
        order = tuple(sorted(idx, key=lambda i: group.leaves[i]))
    else:
        order = idx
        if op == "product" and not _count_times_price(hay, group.leaves[idx[0]], group.leaves[idx[1]]):
            order = order[::-1]  # the count, then its price
    leaves = tuple(group.leaves[i] for i in order)
    paths = [hay.path(leaf) for leaf in leaves]
    percent = t.percent and op in ("percent_change", "ratio", "share")
    worked = _expression(op, [_figure(group.values[i]) for i in order], percent) if len(order) <= 6 else ""
    if worked and group.scale != 1 and op not in ("percent_change", "ratio", "share"):
        worked = f"{worked} (x {format(group.scale.normalize(), 'f')})"  # "14.0 + 10.0 (x 1000000000)"
    if op in ("total", "mean", "share") and group.kind == "column" and len(set(idx)) == len(group.values):
        whole = _column_path(hay, leaves[-1])  # every record of the array: one wildcard path
        paths = ([paths[0]] if op == "share" else []) + [whole]
        worked = ""  # the wildcard is over every record, not only the figures used
    return Derivation(op, leaves, _expression(op, paths, percent), group.kind, t.value,
                      tuple(group.values[i] for i in order), worked)


def _figure(value: Decimal) -> str:
    """An operand written into a worked expression: plain, a negative in brackets."""
    text = format(value, "f")
    return f"({text})" if value < 0 else text


def _column_path(hay: Haystack, leaf: LeafId) -> str:
    """``$.results[3].change_pct`` -> ``$.results[*].change_pct`` (jsonpath-ng reads it)."""
    node = hay.leaves[leaf].node
    record = hay.parent(node)
    segment = hay.segment(record)
    exact = hay.path_of_node(record)
    assert isinstance(segment, int)
    head = exact[: exact.rfind(f"[{segment}]")]
    return head + "[*]" + hay.path(leaf)[len(exact):]
