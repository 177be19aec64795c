"""The operations a derivation may use, what a found one is (:class:`Derivation`), and
how it is written: the expression over the operands' paths ("($.rows[1][1] -
$.rows[1][2]) / $.rows[1][2] * 100") and the worked one over their figures. Kept apart
from the search so that every search shape (pairs, group statistics, the longer
expressions of :mod:`verifier.derive.compound`) prints its hits the same way."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from verifier.normalizers.numbers import CONTEXT

from ..index.haystack import Haystack, LeafId
from . import compound
from .holdings import count_times_price
from .operands import Group
from .targets import Target

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
#: Operations whose result is in the operands' own units (added, not divided).
ADDITIVE = frozenset({"difference", "sum", "average", "total", "mean"})


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


def value_of(group: Group, op: str, idx: tuple[int, ...]) -> Decimal:
    values = [group.values[i] for i in idx]
    if op == "difference":
        return values[0] - values[1]
    if op == "product":
        return values[0] * values[1]
    if op in ("sum", "total"):
        return sum(values, Decimal(0))
    return CONTEXT.divide(sum(values, Decimal(0)), len(values))


def derivation_of(hay: Haystack, group: Group, op: str, idx: tuple[int, ...], t: Target) -> Derivation:
    if op == "share":  # the share's own operand, then the members summed
        order = (idx[0], *sorted(idx[1:], key=lambda i: group.leaves[i]))
    elif op in ("total", "mean"):
        order = tuple(sorted(idx, key=lambda i: group.leaves[i]))
    else:
        order = idx
        if op == "product" and not count_times_price(hay, group.leaves[idx[0]], group.leaves[idx[1]]):
            order = order[::-1]  # the count, then its price
    leaves = tuple(group.leaves[i] for i in order)
    paths = [hay.path(leaf) for leaf in leaves]
    percent = t.percent and op in ("percent_change", "ratio", "share")
    worked = _expression(op, [_figure(group.values[i]) for i in order], percent) if len(order) <= 6 else ""
    if worked and group.scale != 1 and op not in ("percent_change", "ratio", "share"):
        worked = f"{worked} (x {format(group.scale.normalize(), 'f')})"  # "14.0 + 10.0 (x 1000000000)"
    whole = _column_path(hay, leaves[-1]) if (
        op in ("total", "mean", "share") and group.kind == "column" and len(set(idx)) == len(group.values)) else None
    if whole is not None:  # every record of the array: one wildcard path
        paths = ([paths[0]] if op == "share" else []) + [whole]
        worked = ""  # the wildcard is over every record, not only the figures used
    return Derivation(op, leaves, _expression(op, paths, percent), group.kind, t.value,
                      tuple(group.values[i] for i in order), worked)


def _figure(value: Decimal) -> str:
    """An operand written into a worked expression: plain, a negative in brackets."""
    text = format(value, "f")
    return f"({text})" if value < 0 else text


def _column_path(hay: Haystack, leaf: LeafId) -> str | None:
    """``$.results[3].change_pct`` -> ``$.results[*].change_pct`` (jsonpath-ng reads it);
    None when the leaf's record is no element of an array (a column of same-keyed objects
    under keys, ``{"price": {"t": 1}, "symbol": {"t": 1}}``): its paths stay one by one."""
    node = hay.leaves[leaf].node
    record = hay.parent(node)
    segment = hay.segment(record)
    if not isinstance(segment, int):
        return None
    exact = hay.path_of_node(record)
    head = exact[: exact.rfind(f"[{segment}]")]
    return head + "[*]" + hay.path(leaf)[len(exact):]


def compound_derivation(hay: Haystack, found: compound.Found, t: compound.Target) -> Derivation:
    """A result of a longer expression (:mod:`verifier.derive.compound`) as a derivation."""
    def written(operands: list[str]) -> str:  # the expression over paths, or figures
        text = found.template.format(*operands)
        return f"({text}) * 100" if t.percent and not t.additive else text
    return Derivation(found.op, tuple(c.leaf for c in found.cells),
                      written([hay.path(c.leaf) for c in found.cells]), "asked", t.value,
                      tuple(c.value for c in found.cells), written([_figure(c.value) for c in found.cells]))
