"""Plausibility of a hit: a search result is only a derivation if it could be one.
Operands added or compared must measure the same quantity, a percentage is only a sum
of percentages, a rounded sum is written no coarser than its operands (9.886 is not
"10"), a word of direction makes it the later period less the earlier ("fell 12.6"),
a magnitude without its sign only in the shapes that drop one. Apart from the search,
which only finds numbers that fit, and from the chance estimate, which counts only
the pairs these checks would let through."""

from __future__ import annotations

import re
from decimal import Decimal

from verifier.normalizers.numbers import CONTEXT, exponent, half_unit

from .. import yearquarter
from ..extract import Mention
from ..index import prose_periods
from ..index.haystack import Haystack, LeafId
from ..question.asked_text import CURRENCY_SIGN, mixed_before, same_kind
from .expressions import ADDITIVE, PAIR_OPS, value_of
from .holdings import count_times_price
from .operands import Group, same_quantity
from .targets import Target


def always_plausible(group: Group, op: str) -> bool:
    return op != "product" and group.kind != "mixed" and (group.kind not in ("record", "tool") or op == "ratio")


def plausible_pair(hay: Haystack, group: Group, op: str, pair: tuple[int, int]) -> bool:
    """Whether two cells of one record could be added, subtracted or compared by
    percent change: only if they measure the same quantity (a ratio of different ones,
    a margin, is fine). Columns hold one quantity by construction. A product is only
    a count times a price (150 shares at $142.30 are worth $21,345), in any group."""
    a, b = group.leaves[pair[0]], group.leaves[pair[1]]
    if group.kind == "mixed":  # a cell and a figure of the text: the pairs of each alone were searched
        return (a in hay.text_values) != (b in hay.text_values)
    if op == "product":
        return count_times_price(hay, a, b) or count_times_price(hay, b, a)
    if always_plausible(group, op):
        return True
    return same_quantity(hay, a, b)


def acceptable(hay: Haystack, group: Group, op: str, idx: tuple[int, ...], t: Target,
                mention: Mention) -> bool:
    """Plausibility checks on a hit: operands of one record that are added or compared
    must measure the same quantity; a rounded sum or difference must be written at
    least as precisely as its operands (9.886 is not "10"), unless hedged."""
    if t.magnitude and not _sign_dropped(hay, group, op, idx):
        return False
    if not adds_up(hay, mention, t.additive, [group.leaves[i] for i in idx]):
        return False
    if len(idx) == 2 and op in PAIR_OPS and not plausible_pair(hay, group, op, (idx[0], idx[1])):
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
        product = value_of(group, op, idx)
        return not too_coarse(mention, product, t.value, [product.quantize(Decimal(1)) if exponent(product) < 0
                                                            else product])
    operands = [group.values[i] for i in idx]
    if group.kind == "mixed":  # a text's "$16.9 million" is a rounding: the result is no finer
        operands = [max(operands, key=exponent)]
    if op == "mean" and len(idx) > 2:
        # a mean of several figures has more digits than they have: one fewer than they
        # have is how it is written ("10.3" for the mean 10.3025 of four prices to the
        # cent); a pair's average has one more at most, and is written in full
        operands = [v.scaleb(1) if v else v for v in operands]
    return not (op in ADDITIVE and too_coarse(mention, value_of(group, op, idx), t.value, operands))


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


def _adds_to(group: Group, idx: tuple[int, ...], t: Target) -> bool:
    """Whether a cell and a figure of the text may be added or subtracted to give
    ``t``: the result written no finer than either was ("$30,182 thousand less $16.9
    million" is 13,3xx, not exactly 13,282: the figure is a rounding), and the smaller
    at least a hundredth of the larger (a text's $88,848 less a $5 cell is a copy of
    the figure with its last digit changed far more often than a computation)."""
    a, b = (group.values[i] for i in idx)
    small, large = sorted((abs(a), abs(b)))
    return small * 100 >= large and all(t.tolerance >= half_unit(v) for v in (a, b))


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


def adds_up(hay: Haystack, mention: Mention, additive: bool, operands: list[LeafId]) -> bool:
    """"grew 30%" is not 150 - 120: only percentages add up to a percentage."""
    return not (additive and mention.kind in ("percent", "basis_points", "percentage_points")
                and not all(hay.is_percent(leaf) for leaf in operands))


def too_coarse(mention: Mention, result: Decimal, target: Decimal, operands: list[Decimal]) -> bool:
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


def earlier_leaf(hay: Haystack, a: LeafId, b: LeafId) -> bool:
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
