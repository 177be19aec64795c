"""cited: a value computed from figures its own sentence states.

"SCHD is $48,000 of your $160,000 account, or 30%", "breakeven $88.40, about 4.1% above
the current $84.90", "revenue grew from $40,004 to $44,112, up 10.27%". The most
plausible operands of a computed value are the figures its own sentence (or line)
states and the data supports: a value the data does not hold that is the difference,
sum, ratio, percent change or product of two of them, at the precision written, is
``derived`` from them. The operands are few (at most eight figures a sentence), so a
match is no accident of searching a whole table; the search over the data itself is
the ``derive`` stage's, after this one.

A value not found so is searched again over the figures of its whole line (its
paragraph), the values this stage derived anywhere before ("€21,473.97, so CHF
19,899.93") and the figures of the question ("for my 1'250 shares", "£50,000 in
dollars"), the user's own inputs, but kept only when a result that close is unlikely
among that many: the results between half and twice the value, spread over that
range, must leave a chance of one in fifty or less of a hit at the value's precision.
A total is the sum of a run of the figures listed before it in its unit ("Together the
top five are 27.96%"), under the same bound. An amount converts to another currency by a plain
rate or one quoted per unit ("at the 1.3244 bid, £50,000 is $66,220", "₹85.4625 per US
dollar") or into its sub-unit ("1,087.5¢, i.e. about $10.88"), and an amount is taken
net or gross of a percentage ("after 35% tax"). A figure said to be annualized is one of
its sentence times the periods in a year ("$1.60 quarterly ($6.40 annualized)").
A change since an earlier turn is a figure of the sentence against the same field in
that turn's results ("2-year: 3.42% (down 5 bp)" where the 2-year yield was 3.47 then).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from decimal import Decimal, DivisionByZero, InvalidOperation
from typing import cast

from verifier import stoplists
from verifier.deadline import check as check_deadline

from ..checks.attribute import sentence_starts
from ..extract import NUMERIC_KINDS, Mention, extractor
from ..index.haystack import Haystack
from ..models import SUPPORTED_STATUSES, Item, Kind, construct
from ..normalizers import amounts
from ..normalizers.numbers import CONTEXT
from ..state import State

REQUIRES = frozenset({"answer", "question", "matched", "locale", "policy", "history", "haystack"})
ASSIGNS = frozenset({"matched"})

#: Most figures of one sentence searched: past this, pairs are too many to believe one.
_MAX_OPERANDS = 8
#: Most figures of the wider search (its line, values derived, the question's), nearest first.
_MAX_WIDE = 24
#: Largest chance of a hit at the value's precision accepted from the wide search.
_MAX_CHANCE = 0.02
_PERCENT_KINDS = frozenset({"percent", "basis_points", "percentage_points"})
#: A blank line: the end of a paragraph, a list or a table.
_BLOCK_BREAK = re.compile(r"\n[ \t]*\n")
#: Passes over the answer: a value derived from values derived before it ("€21,473.97,
#: so CHF 19,899.93") is found in the next.
_PASSES = 3


def run(state: State) -> None:
    starts = sentence_starts(state.answer)
    lines = [0] + [i + 1 for i, ch in enumerate(state.answer) if ch == "\n"]
    blocks = [0] + [m.end() for m in _BLOCK_BREAK.finditer(state.answer)]
    scope = [(bisect.bisect_right(starts, m.start), bisect.bisect_right(lines, m.start),
              bisect.bisect_right(blocks, m.start)) for m, _ in state.matched]
    out = list(state.matched)
    asked = _question_figures(state)
    derived: set[int] = set()
    lent: dict[int, list[tuple[Mention, Item]]] = {}  # a derived value's operands
    earlier = _Earlier(state.history, state.haystack)
    wide_left = state.policy.max_derive_items  # wider searches are costly: as many as derive's
    for _ in range(_PASSES):  # a value derived in one pass is an operand in the next
        changed = False
        figures = [j for j, (m, it) in enumerate(out) if m.kind in NUMERIC_KINDS and m.num_forms
                   and it.status in SUPPORTED_STATUSES]
        for i, (mention, item) in enumerate(out):
            if item.status != "unsupported" or mention.kind not in NUMERIC_KINDS or not mention.num_forms \
                    or mention.invalid or any(e.how == "opposite sign" for e in item.evidence):
                continue  # the data holds it with the other sign: "up $3.18" where the change is -3.18
            check_deadline()
            # its sentence, and the sentence before on the same line ("... of 16,60 €. At 371,20 € that is 4,47 %")
            near = [j for j in figures if scope[j][:2] in (scope[i][:2], (scope[i][0] - 1, scope[i][1]))]
            operands = _with_lent([out[j] for j in near], [lent.get(j, []) for j in near])
            # one pair a figure against an earlier turn: even a one-digit change is no accident
            found = _since(mention, operands, earlier)
            if found is None and _too_coarse(mention):
                continue
            if found is None:  # "(17,95 / 82,84)" after "82,84 Md€": the same figure without its unit
                found = _restated(mention, [out[j] for j in figures if scope[j][1] == scope[i][1]]) \
                    if mention.kind == "number" else None
            if found is None:
                found = _search(mention, operands)
            if found is None and _annualized(state.answer, mention):
                found = _annual(mention, operands)
            if found is None and wide_left > 0:
                wide_left -= 1
                wider = [j for j in figures if scope[j][2] == scope[i][2] or j in derived]
                nearest = sorted(wider, key=lambda j: abs(out[j][0].start - mention.start))[:_MAX_WIDE]
                # one operand its own line's, a value derived or the question's: "up $2.28 from
                # the open" on the line of the last price is no difference of two other lines
                anchors = frozenset(id(out[j][0]) for j in nearest if scope[j][1] == scope[i][1] or j in derived)
                found = _search(mention, [out[j] for j in nearest] + asked, bounded=True,
                                anchors=anchors | {id(m) for m, _ in asked})
            if found is None and wide_left > 0:  # "Together the top five are 27.96%": the figures listed before it
                found = _run_sum(mention, [out[j] for j in sorted(figures) if out[j][0].start < mention.start],
                                 averaged=_said(state.answer, mention, "average_words"))
            if found is not None:
                expression, used = found
                evidence = [e for _, source in used for e in source.evidence[:1]]
                out[i] = (mention, item.model_copy(update={
                    "status": "derived", "flagged": False, "expression": expression, "evidence": evidence,
                    "evidence_total": len(evidence),
                    "reason": f"computed from figures the answer states: {expression}"}))
                figures.append(i)
                derived.add(i)
                lent[i] = used
                changed = True
        if not changed:
            break
    state.matched = out


def _restated(target: Mention, block: list[tuple[Mention, Item]]) -> tuple[str, list[tuple[Mention, Item]]] | None:
    """A plain number of three significant digits or more that writes the digits of a
    scaled figure or percentage of its line ("a margin of 21.7% (17.95 / 82.84)" after
    "$82.84 billion", "0.0100% → 0.0100 × 3 × 365")."""
    if target.kind != "number" or target.written is None or target.unit or target.significant_digits < 3:
        return None
    for m, it in block:
        scaled = bool(m.num_forms) and m.written != m.num_forms[0].value  # "$82.84 billion", "0.0100%"
        if m is not target and m.written == target.written and m.text != target.text and scaled:
            return f"{m.text} as written", [(m, it)]
    return None


def _with_lent(own: list[tuple[Mention, Item]],
               lent: list[list[tuple[Mention, Item]]]) -> list[tuple[Mention, Item]]:
    """A sentence's figures, then the operands of those derived from others: "up $2.82
    (+1.55%) from the open" is over the open that $2.82 was computed from."""
    out = own[:_MAX_OPERANDS]
    seen = {id(m) for m, _ in out}
    for operands in lent:
        for o in operands:
            if id(o[0]) not in seen and len(out) < _MAX_OPERANDS:
                out.append(o)
                seen.add(id(o[0]))
    return out


class _Earlier:
    """The earlier turns' numeric fields by (tool name, path), read on first use, each
    with the ticker its record belongs to; a field that tool results of one name give
    twice with two values is left out."""

    def __init__(self, history: Haystack | None, current: Haystack):
        self._history, self._current = history, current
        self._then: dict[tuple[str, str], tuple[Decimal, str | None] | None] | None = None
        self._now: dict[tuple[str, str], str | None] | None = None

    def value(self, tool: str, path: str) -> Decimal | None:
        """The field's earlier value, if its record is the same entity's as now."""
        if self._history is None:
            return None
        if self._then is None:
            hay, then = self._history, dict[tuple[str, str], tuple[Decimal, str | None] | None]()
            for leaf, number in hay.leaf_value.items():
                check_deadline()
                key, entry = (hay.tool_of(leaf).name, hay.path(leaf)), (number, hay.entity_of(leaf))
                then[key] = entry if then.get(key, entry) == entry else None
            self._then = then
        found = self._then.get((tool, path))
        if found is None:
            return None
        if self._now is None:
            hay = self._current
            self._now = {}
            for leaf in hay.leaf_value:
                check_deadline()
                self._now[(hay.tool_of(leaf).name, hay.path(leaf))] = hay.entity_of(leaf)
        # AAPL now against MSFT then is no change: the same path in another entity's record
        return found[0] if self._now.get((tool, path)) == found[1] else None


def _since(target: Mention, operands: list[tuple[Mention, Item]],
           earlier: _Earlier) -> tuple[str, list[tuple[Mention, Item]]] | None:
    """A change of a figure of the sentence since an earlier turn: the figure against
    the value the same field had then (one pair a figure, so no search among many)."""
    for a, ai in operands:
        if not ai.evidence or ai.status not in ("exact", "normalized"):
            continue  # a figure read off one field, not one derived from several
        source = ai.evidence[0]
        then, now = earlier.value(source.tool, source.path), _number(source.raw)
        if then is None or now is None or not now or then == now:
            continue
        x = a.num_forms[0].value
        y = CONTEXT.multiply(x, CONTEXT.divide(then, now))  # the answer's forms are linear in the field
        was = f"{_plain(then)} (an earlier turn's {source.path})"
        value, tolerance = target.num_forms[0].value, target.num_forms[0].tolerance
        wanted = -abs(value) if target.direction < 0 and not target.explicit_sign else value
        signed = target.explicit_sign or target.direction != 0
        changes: list[tuple[Decimal | None, str | None, str]] = [
            (CONTEXT.subtract(x, y), _unit(a), f"{a.text} - {was}")]  # now against then, in that order
        if _unit(a) != "%":
            change = _divide(x, y)
            changes.append((None if change is None else CONTEXT.subtract(change, 1), None, f"({a.text} - {was}) / {was}"))
        for result, unit, shown in changes:
            if result is not None and not signed and target.kind in _PERCENT_KINDS and result < 0:
                continue  # as in _search: an unsigned percentage says no fall
            if result is not None and _fits(unit, target) \
                    and (abs(result - wanted) if signed else abs(abs(result) - abs(value))) <= tolerance:
                return shown, [(a, ai)]
    return None


def _number(raw: str) -> Decimal | None:
    """A leaf's JSON number text as a finite Decimal, else None."""
    try:
        number = Decimal(raw)
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def _plain(value: Decimal) -> str:
    return format(value.normalize(), "f")


def _too_coarse(mention: Mention) -> bool:
    """A figure of one significant digit ("5%", "$3") could be any pair's result."""
    return mention.significant_digits < 2


def _question_figures(state: State) -> list[tuple[Mention, Item]]:
    """The figures the question states, as operands (the user's own: no evidence)."""
    if not state.question:
        return []
    figures = [m for m in extractor(state.locale).extract(state.question)
               if m.kind in NUMERIC_KINDS and m.num_forms and not m.descriptor]
    return [(m, construct(Item, kind=cast(Kind, m.kind), text=m.text, start=m.start, end=m.end, value=m.value,
                                     status="stated", flagged=False, reason="the question states it", evidence=[]))
            for m in figures[:_MAX_OPERANDS]]  # offsets into the question: operands only, never reported


def _search(target: Mention, operands: list[tuple[Mention, Item]], bounded: bool = False,
            anchors: frozenset[int] | None = None) -> tuple[str, list[tuple[Mention, Item]]] | None:
    """The first operation over two of ``operands`` that gives ``target`` at its precision,
    in a unit that fits it; ``bounded``: only if so close a result is unlikely by chance;
    ``anchors`` (ids of mentions): only an operation over one of them at least."""
    value, tolerance = target.num_forms[0].value, target.num_forms[0].tolerance
    signed = target.explicit_sign or target.direction != 0  # "down 4.1%": the sign is said
    wanted = -abs(value) if target.direction < 0 and not target.explicit_sign else value
    hit: tuple[str, list[tuple[Mention, Item]]] | None = None
    near = 0
    if not bounded:  # the same figure in another unit ("1,087.5¢, i.e. about $10.88"), or rounded
        for a, ai in operands:
            for factor in _unit_factors(a, target):
                if abs(a.num_forms[0].value * factor - value) <= tolerance:
                    return (f"≈ {a.text}" if factor == 1 else f"{a.text} * {factor}"), [(a, ai)]
    for (a, ai), (b, bi) in _pairs(operands):
        for result, unit, shown in _results(a, b, target):
            if result is None or not _fits(unit, target):
                continue
            if not signed and target.kind in _PERCENT_KINDS and result < 0:
                continue  # "28% of the float" says no fall: a negative change explains nothing
            off = abs(result - wanted) if signed else abs(abs(result) - abs(value))
            if off <= tolerance and hit is None and (anchors is None or id(a) in anchors or id(b) in anchors):
                hit = shown, [(a, ai), (b, bi)]
                if not bounded:
                    return hit
            # a signed value is hit only by results of its sign: only those count as near
            near += abs(value) / 2 <= (result * (1 if wanted > 0 else -1) if signed else abs(result)) <= abs(value) * 2
    if hit is None or not bounded or not value:
        return hit
    return hit if _unlikely(near, tolerance, abs(value)) else None


def _run_sum(target: Mention, before: list[tuple[Mention, Item]],
             averaged: bool = False) -> tuple[str, list[tuple[Mention, Item]]] | None:
    """The sum of a run of consecutive figures in the target's unit, two or more, of the
    last :data:`_MAX_WIDE` before it (a list, a table's column), at the target's
    precision and unlikely by chance among all such runs; ``averaged`` (a word says it
    is a mean): the run's mean instead."""
    same = [(m, it) for m, it in before if m.kind == target.kind and _unit(m) == _unit(target)][-_MAX_WIDE:]
    value, tolerance = abs(target.num_forms[0].value), target.num_forms[0].tolerance
    hit, near = None, 0
    for start in range(len(same)):
        total = Decimal(0)
        for end in range(start, len(same)):
            total += same[end][0].num_forms[0].value
            if end == start:
                continue
            result = CONTEXT.divide(total, end - start + 1) if averaged else total
            if hit is None and abs(abs(result) - value) <= tolerance:
                shown = " + ".join(m.text for m, _ in same[start:end + 1])
                hit = (f"({shown}) / {end - start + 1}" if averaged else shown), same[start:end + 1]
            near += value / 2 <= abs(result) <= value * 2
    if hit is None or not value or not _unlikely(near, tolerance, value):
        return None
    return hit


def _unlikely(near: int, tolerance: Decimal, value: Decimal) -> bool:
    """Whether a hit within ``tolerance`` of ``value`` is no accident, when ``near``
    results fell between half and twice the value (a range of 1.5 times it)."""
    return near * 2 * tolerance / (value * Decimal("1.5")) <= _MAX_CHANCE


#: Periods in a year, for a figure scaled to a year (quarters, months, weeks, days,
#: halves, and the three 8-hour funding periods of a day).
_PER_YEAR = (Decimal(4), Decimal(12), Decimal(52), Decimal(365), Decimal(2), Decimal(3 * 365))


def _annualized(answer: str, target: Mention) -> bool:
    """Whether a word saying "scaled to a year" stands within a few words of the figure."""
    near = answer[max(0, target.start - 40):target.end + 30]
    return stoplists.word_pattern("annualized_words").search(near) is not None


def _said(answer: str, target: Mention, words: str) -> bool:
    """Whether a word of the list ``words`` stands in the 60 characters before the figure
    on its line."""
    before = answer[max(0, target.start - 60):target.start].rsplit("\n", 1)[-1]
    return stoplists.word_pattern(words).search(before) is not None


def _annual(target: Mention, operands: list[tuple[Mention, Item]]) -> tuple[str, list[tuple[Mention, Item]]] | None:
    """A figure of the sentence in the target's unit times the periods in a year."""
    value, tolerance = target.num_forms[0].value, target.num_forms[0].tolerance
    for a, ai in operands:
        if a.kind == target.kind and _unit(a) == _unit(target):
            for periods in _PER_YEAR:
                if abs(abs(a.num_forms[0].value * periods) - abs(value)) <= tolerance:
                    return f"{a.text} * {periods}", [(a, ai)]
    return None


def _unit_factors(a: Mention, target: Mention) -> tuple[Decimal, ...]:
    """Factors that state ``a`` in the target's unit: 1 for a hedged rounding in the same
    unit ("rund 19.900 CHF (genau 19.899,93 CHF)"), 0.01 or 100 between a currency and
    its sub-unit (cents and dollars, pence and pounds)."""
    if a.kind != "amount" or target.kind != "amount" or not a.unit or not target.unit:
        return (Decimal(1),) if target.hedged and _unit(a) == _unit(target) else ()
    if a.unit == target.unit:
        return (Decimal(1),) if target.hedged else ()
    return tuple(factor for unit, factor in amounts.counterparts(a.unit) if unit == target.unit)


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


def _results(a: Mention, b: Mention, target: Mention) -> Iterator[tuple[Decimal | None, str | None, str]]:
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
        yield CONTEXT.multiply(y, CONTEXT.subtract(1, x)), ub, f"{b.text} less {a.text}"  # net of a tax
        yield CONTEXT.multiply(y, CONTEXT.add(1, x)), ub, f"{b.text} plus {a.text}"
    if ub is None and ua != "%":
        yield CONTEXT.multiply(x, y), ua, f"{a.text} * {b.text}"
        if ua is not None:
            yield _divide(x, y), ua, f"{a.text} / {b.text}"
    to = target.unit or "money"
    if target.kind == "amount" and ua not in (None, "%", to) and (ub is None or ub == to):
        # a conversion: £50,000 at a rate of 1.3244 (plain, or "₹85.4625 per US dollar")
        yield CONTEXT.multiply(x, y), to, f"{a.text} * {b.text}"
        yield _divide(x, y), to, f"{a.text} / {b.text}"


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
