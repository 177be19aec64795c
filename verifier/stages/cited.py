"""cited: a value computed from figures its own sentence states.

"SCHD is $48,000 of your $160,000 account, or 30%", "breakeven $88.40, about 4.1% above
the current $84.90", "revenue grew from $40,004 to $44,112, up 10.27%". The most
plausible operands of a computed value are the figures its own sentence (or line)
states and the data supports: a value the data does not hold that is the difference,
sum, ratio, percent change or product of two of them, at the precision written, is
``derived`` from them. The operands are few (at most eight figures a sentence), so a
match is no accident of searching a whole table; the search over the data itself is
the ``derive`` stage's, after this one.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from decimal import Decimal, DivisionByZero, InvalidOperation

from ..attribute import sentence_starts
from ..extract import NUMERIC_KINDS, Mention
from ..models import SUPPORTED_STATUSES, Item
from ..normalizers.numbers import CONTEXT
from ..state import State

REQUIRES = frozenset({"answer", "matched"})
ASSIGNS = frozenset({"matched"})

#: Most figures of one sentence searched: past this, pairs are too many to believe one.
_MAX_OPERANDS = 8
_PERCENT_KINDS = frozenset({"percent", "basis_points", "percentage_points"})


def run(state: State) -> None:
    starts = sentence_starts(state.answer)
    lines = [0] + [i + 1 for i, ch in enumerate(state.answer) if ch == "\n"]
    by_scope: dict[tuple[int, int], list[int]] = {}
    for i, (mention, item) in enumerate(state.matched):
        if mention.kind in NUMERIC_KINDS and mention.num_forms and item.status in SUPPORTED_STATUSES:
            key = (bisect.bisect_right(starts, mention.start), bisect.bisect_right(lines, mention.start))
            by_scope.setdefault(key, []).append(i)
    out = list(state.matched)
    for i, (mention, item) in enumerate(state.matched):
        if item.status != "unsupported" or mention.kind not in NUMERIC_KINDS or not mention.num_forms \
                or mention.invalid or _too_coarse(mention):
            continue
        key = (bisect.bisect_right(starts, mention.start), bisect.bisect_right(lines, mention.start))
        before = (key[0] - 1, key[1])  # the sentence before, on the same line ("... of 16,60 €. At 371,20 € that is 4,47 %")
        operands = ([j for j in by_scope.get(key, []) if j != i] + by_scope.get(before, []))[:_MAX_OPERANDS]
        found = _search(mention, [state.matched[j] for j in operands])
        if found is not None:
            expression, used = found
            evidence = [e for _, source in used for e in source.evidence[:1]]
            out[i] = (mention, item.model_copy(update={
                "status": "derived", "flagged": False, "expression": expression, "evidence": evidence,
                "evidence_total": len(evidence),
                "reason": f"computed from figures its sentence states: {expression}"}))
    state.matched = out


def _too_coarse(mention: Mention) -> bool:
    """A figure of one significant digit ("5%", "$3") could be any pair's result."""
    written = mention.written if mention.written is not None else mention.num_forms[0].value
    return len(format(abs(written), "f").replace(".", "").lstrip("0")) < 2


def _search(target: Mention, operands: list[tuple[Mention, Item]]) -> tuple[str, list[tuple[Mention, Item]]] | None:
    """The first operation over two of ``operands`` that gives ``target`` at its precision,
    in a unit that fits it."""
    value, tolerance = target.num_forms[0].value, target.num_forms[0].tolerance
    signed = target.explicit_sign or target.direction != 0  # "down 4.1%": the sign is said
    wanted = -abs(value) if target.direction < 0 and not target.explicit_sign else value
    for (a, ai), (b, bi) in _pairs(operands):
        for result, unit, shown in _results(a, b):
            if result is None or not _fits(unit, target):
                continue
            if not signed and target.kind in _PERCENT_KINDS and result < 0:
                continue  # "28% of the float" says no fall: a negative change explains nothing
            if (abs(result - wanted) if signed else abs(abs(result) - abs(value))) <= tolerance:
                return shown, [(a, ai), (b, bi)]
    return None


def _pairs(operands: list[tuple[Mention, Item]]) -> Iterator[tuple[tuple[Mention, Item], tuple[Mention, Item]]]:
    for x in range(len(operands)):
        for y in range(len(operands)):
            if x != y:
                yield operands[x], operands[y]


def _unit(mention: Mention) -> str | None:
    """A figure's unit for this arithmetic: its currency, "%" for a percentage, None for
    a plain number."""
    if mention.kind in _PERCENT_KINDS:
        return "%"
    if mention.kind == "amount":
        return mention.unit or "money"
    return None


def _results(a: Mention, b: Mention) -> Iterator[tuple[Decimal | None, str | None, str]]:
    """(value, unit, expression) of each operation over ``a`` and ``b`` whose units make
    sense: sums and differences of one unit; a ratio of one unit (a share, a change); a
    percentage of an amount; an amount times or over a plain number. Two currencies
    multiplied, or an amount times a rate quoted in it, make no figure ("1.0791 EUR ×
    EUR 8,400")."""
    x, y = a.num_forms[0].value, b.num_forms[0].value
    ua, ub = _unit(a), _unit(b)
    if ua == ub:
        yield CONTEXT.subtract(x, y), ua, f"{a.text} - {b.text}"
        yield CONTEXT.add(x, y), ua, f"{a.text} + {b.text}"
        if ua != "%":
            ratio = _divide(x, y)
            yield ratio, None, f"{a.text} / {b.text}"
            yield (CONTEXT.subtract(ratio, 1) if ratio is not None else None), None, f"({a.text} - {b.text}) / {b.text}"
    if ua == "%" and ub not in (None, "%"):
        yield CONTEXT.multiply(x, y), ub, f"{a.text} of {b.text}"
    if ub is None and ua != "%":
        yield CONTEXT.multiply(x, y), ua, f"{a.text} * {b.text}"
        if ua is not None:
            yield _divide(x, y), ua, f"{a.text} / {b.text}"


def _fits(unit: str | None, target: Mention) -> bool:
    """Whether a result in ``unit`` can be the target: a percentage is a ratio or a
    difference of percentages; an amount is in its own currency; a number is plain."""
    if target.kind in _PERCENT_KINDS:
        return unit in (None, "%")
    if target.kind == "amount":
        return unit in (None, target.unit or "money", "money")
    return unit is None


def _divide(x: Decimal, y: Decimal) -> Decimal | None:
    try:
        return CONTEXT.divide(x, y) if y else None
    except (InvalidOperation, DivisionByZero):
        return None
