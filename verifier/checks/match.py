"""Match: each mention -> an Item with a status and evidence from the haystack.

Numbers are looked up by every canonical form (1.4% as 0.014 and 1.4; $2.1bn as
2.1E+9 and, beside a scale hint, 2.1), by hash. Only when no form is found are nearby
values searched by bisection, at the precision the answer wrote: a hedged value that
rounds from the data is ``rounded``; the same rounding without a hedge is ``drift``.
A whole number that equals the length of an array in the data is a count
(``derived``). A value written without a sign also matches its negative (``fell
3.2%`` against -3.2); the sign is then reported in the evidence as not stated.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal
from typing import cast

from verifier.normalizers import amounts, numbers

from ..extract import NUMERIC_KINDS, Mention, NumForm
from ..index.haystack import Haystack, LeafId, NumRef
from ..index.memo import PerHaystack
from ..index.percent_words import BASIS, FRACTION, POINTS
from ..models import Evidence, Item, Kind, Status, construct
from ..policy import Policy
from .clock import time_hits
from .rounding import unhedged
from .signs import PERCENT_KINDS as _PERCENT_KINDS
from .signs import sign_may_drop as _sign_may_drop
from .signs import signed as _signed

_EXACT_FORMS = frozenset({"as written", "percent form", "basis points"})
_EXACT_REFS = frozenset({"value", "in text", "percent form", "basis points"})


def match(mention: Mention, hay: Haystack, policy: Policy) -> Item | None:
    """The Item for ``mention``; None for a stop-listed word the data does not name."""
    if mention.descriptor:  # "over the past 3 sessions": a claim only as a count of records
        return _count(mention, hay, policy)
    if mention.kind in NUMERIC_KINDS:
        return _match_number(mention, hay, policy)
    if mention.kind == "ticker":
        return _match_keyed(mention, hay, policy, _ticker_refs(mention, hay), "ticker")
    if mention.kind == "date":
        return _match_keyed(mention, hay, policy, _refs(hay.dates, mention.keys), "date")
    if mention.kind == "period":
        refs = _refs(hay.periods, mention.keys) or _refs(hay.dates, mention.keys[1:])
        return _match_keyed(mention, hay, policy, refs, "period")
    if mention.kind in ("code", "rating"):  # a security code, a credit rating: looked up as written
        index = hay.codes if mention.kind == "code" else hay.ratings
        return _match_keyed(mention, hay, policy, _refs(index, mention.keys), mention.kind)
    if mention.kind == "time":
        return _match_time(mention, hay, policy)
    if mention.kind == "quote":
        leaf = hay.find_text(mention.keys[0]) if mention.keys else None
        return _match_keyed(mention, hay, policy, [leaf] if leaf is not None else [], "quote")
    raise AssertionError(f"unknown mention kind {mention.kind!r}")


def _refs(index: dict[str, list[LeafId]], keys: tuple[str, ...]) -> list[LeafId]:
    for key in keys:
        found = index.get(key)
        if found:
            return found
    return []


def _ticker_refs(mention: Mention, hay: Haystack) -> list[LeafId]:
    refs = _refs(hay.tickers, mention.keys)
    if not refs and "." not in (mention.value or ""):
        refs = hay.tickers.get("base:" + (mention.value or ""), [])  # "VOD" vs data "VOD.L"
    if mention.stoplisted:
        # a stop-listed word ("A", "IT") is a ticker only where the data names it as one:
        # a symbol field or key, not a word of prose that happens to be capitalised
        refs = [r for r in refs if hay.names_ticker(r)]
    return refs


def _item(mention: Mention, status: Status, reason: str, evidence: list[Evidence] | None = None,
          total: int = 0, flagged: bool | None = None, expression: str | None = None) -> Item:
    return construct(Item,
        kind=cast(Kind, mention.kind), text=mention.text, start=mention.start, end=mention.end,
        value=mention.value, unit=mention.unit, hedged=mention.hedged, status=status,
        flagged=status in ("drift", "unsupported", "invalid") if flagged is None else flagged,
        reason=reason, evidence=evidence or [], evidence_total=total, expression=expression,
    )


def candidate_leaves(mention: Mention, hay: Haystack) -> list[LeafId]:
    """Every leaf that holds the value of a numeric mention (in any accepted form),
    or, for a value matched only by rounding, the leaf it rounds from."""
    leaves = list(dict.fromkeys(ref.leaf for _, ref, _ in _exact_candidates(mention, hay)))
    if not leaves:
        near = _nearest(mention, hay)
        if near is not None:
            leaves = [near[0].leaf]
    return leaves


def misattributed_item(item: Item, hay: Haystack, mention: Mention, named: str, owner: str | None = None) -> Item:
    """``item`` re-marked: its value belongs to another record (another ticker's, or
    ``owner``), not to ``named``."""
    leaves = candidate_leaves(mention, hay)
    if owner is None:
        owner = hay.entity_of(leaves[0]) if leaves else None
        ev = [_evidence(hay, leaf, f"{hay.entity_of(leaf)}'s record") for leaf in leaves[:3]]
    else:
        ev = [_evidence(hay, leaf, f"{owner}") for leaf in leaves[:3]]
    return item.model_copy(update={
        "status": "misattributed", "flagged": True, "evidence": ev, "evidence_total": len(leaves),
        "reason": f"{_where(ev[0], mention)} belongs to {owner}, not {named}",
    })


def misattributed_derivation(item: Item, hay: Haystack, operands: tuple[LeafId, ...],
                             values: tuple[Decimal, ...], expression: str, owner: str, named: str) -> Item:
    """``item`` re-marked: it is computed (``expression`` over ``operands``, their figures
    ``values``) from ``owner``'s record only, not ``named``'s ("AAPL rose 10.2" where 10.2
    is MSFT's change)."""
    ev = _operands(hay, operands, values)
    return item.model_copy(update={
        "status": "misattributed", "flagged": True, "evidence": ev, "evidence_total": len(ev),
        "expression": expression,
        "reason": f"computed from {owner}'s record ({expression}), not {named}'s",
    })


def miscited_item(item: Item, hay: Haystack, leaves: list[LeafId], cited: str) -> Item:
    """``item`` re-marked: its sentence cites ``cited`` but the value is only elsewhere."""
    ev = [_evidence(hay, leaf, "outside the cited source") for leaf in leaves[:3]]
    return item.model_copy(update={
        "status": "misattributed", "flagged": True, "evidence": ev, "evidence_total": len(leaves),
        "reason": f"the sentence cites {cited}, but the value is only at {_where(ev[0])}",
    })


def leaf_evidence(hay: Haystack, leaf: LeafId, how: str) -> Evidence:
    """Evidence pointing at ``leaf``."""
    return _evidence(hay, leaf, how)


def stale_item(mention: Mention, earlier: Item) -> Item:
    """``earlier`` (the mention matched against history) re-marked: the value is stale."""
    ev = [e.model_copy(update={"history": True}) for e in earlier.evidence]
    where = f" ({_where(ev[0])})" if ev else ""
    return earlier.model_copy(update={
        "status": "stale", "flagged": True, "evidence": ev,
        "reason": f"found only in an earlier turn's tool results{where}, not in the current ones",
    })


def derived_item(mention: Mention, hay: Haystack, operands: tuple[LeafId, ...], expression: str,
                 reason: str, values: tuple[Decimal, ...] = ()) -> Item:
    """The Item for a value the derive stage computed from ``operands`` (whose figures,
    as used, are ``values``)."""
    ev = _operands(hay, operands, values)
    return _item(mention, "derived", reason, ev, len(ev), expression=expression)


def _operands(hay: Haystack, operands: tuple[LeafId, ...], values: tuple[Decimal, ...]) -> list[Evidence]:
    if len(values) != len(operands):
        return [_evidence(hay, leaf, "operand") for leaf in operands]
    return [_evidence(hay, leaf, "operand", format(value, "f")) for leaf, value in zip(operands, values, strict=True)]


def _evidence(hay: Haystack, leaf: LeafId, how: str, value: str | None = None) -> Evidence:
    tool = hay.tool_of(leaf)
    if leaf in hay.key_leaves:
        how = "object key"  # the path leads to the value stored under this key
    return construct(Evidence,
        tool=tool.name, tool_index=tool.index, tool_id=tool.id, path=hay.path(leaf),
        raw=hay.leaves[leaf].raw, how=how, value=value,
    )


def _where(ev: Evidence, near: Mention | None = None) -> str:
    return f"{_quote(ev.raw, near)!r} at {ev.path} in {ev.tool}"


def _quote(raw: str, near: Mention | None) -> str:
    """A long text quoted around the figure the answer states (or by its start): the
    evidence keeps it whole."""
    if len(raw) <= 80:
        return raw
    needles = [n for n in ((near.text, near.digits) if near is not None else ()) if n]
    found = next(((raw.find(n), n) for n in needles if n in raw), None)
    if found is None:
        return raw[:60].rstrip() + "…"
    at, needle = found
    start, end = max(0, at - 30), min(len(raw), at + len(needle) + 30)
    return ("…" if start else "") + raw[start:end].strip() + ("…" if end < len(raw) else "")


# -- keyed kinds: tickers, dates, periods, codes, quotes ---------------------------------

_NOT_FOUND = {
    "time": "time of day not found in the tool data",
    "ticker": "ticker not found in any tool result",
    "date": "date not found in the tool data",
    "period": "period not found in the tool data",
    "code": "security code not found in the tool data",
    "quote": "quoted phrase does not appear in the tool data",
    "rating": "credit rating not found in the tool data",
}


def _match_keyed(mention: Mention, hay: Haystack, policy: Policy, refs: list[LeafId],
                 what: str) -> Item | None:
    if not refs:
        if mention.stoplisted:
            return None
        if mention.invalid:
            status: Status = "invalid" if mention.kind == "code" else "unsupported"
            return _item(mention, status, f"{mention.invalid}; not found in the tool data")
        return _item(mention, "unsupported", _NOT_FOUND[what])
    written = mention.digits or mention.text
    exact = [r for r in refs if _strips_to(hay.leaves[r].raw, (mention.text, written))]
    if mention.kind == "quote":
        inner = mention.text[1:-1]
        exact = [r for r in refs if inner in hay.leaves[r].raw]
    found: Status = "exact" if exact else "normalized"
    exact_set = set(exact)
    best = (exact + [r for r in refs if r not in exact_set])[: policy.max_evidence]  # as written first
    evidence = [_evidence(hay, r, "as written" if r in exact else "reformatted") for r in best]
    reason = ("found as written" if exact else "matches") + f" {_where(evidence[0])}"
    if mention.invalid:
        reason += f" ({mention.invalid}, as in the data)"
    return _item(mention, found, reason, evidence, len(refs))


# -- times of day -----------------------------------------------------------------------

def _match_time(mention: Mention, hay: Haystack, policy: Policy) -> Item | None:
    """A time of day against the moments the data states, read in the time's zone (or,
    with none written, in UTC and in each moment's own offset), and, when the answer
    dates it ("Dec 10, 10:00 a.m."), on that day. When the data states no time of day
    at all, a date-time is checked as its date, and a bare time is no item: it only
    describes, as "the 4 p.m. close" does."""
    day = mention.keys[1] if len(mention.keys) > 1 else None
    if not hay.instants and not hay.clock_times:
        # no time of day in the data: a date-time is checked for its date, a bare time not at all
        if day is None:
            return None
        as_date = replace(mention, kind="date", value=day, keys=(day,))
        return _match_keyed(as_date, hay, policy, hay.dates.get(day, []), "date")
    hits = time_hits(mention, hay)
    zone_text = f" {mention.unit}" if mention.unit else ""
    if not hits:
        on = f" on {day.lstrip('-')}" if day else ""
        return _item(mention, "unsupported", f"no time in the tool data is {mention.keys[0]}{zone_text}{on}")
    evidence = [_evidence(hay, leaf, f"at {local}") for leaf, local in hits[: policy.max_evidence]]
    return _item(mention, "normalized", f"matches {_where(evidence[0])} ({evidence[0].how})", evidence, len(hits))


# -- numbers -----------------------------------------------------------------------------

def _match_number(mention: Mention, hay: Haystack, policy: Policy) -> Item:
    if mention.invalid or not mention.num_forms:
        return _item(mention, "unsupported", mention.invalid or "could not read this value")
    found = _exact_candidates(mention, hay)
    if mention.currencies:
        # "$1,234.56" is not supported by 1234.56 in a record that says EUR, nor "£72.36"
        # by a price of 72.36 in pence (GBp); "£143.50" is by 14350 in pence
        agree = [c for c in found if hay.currency_of(c[1].leaf) in (None, *mention.currencies)]
        if not agree:
            converted = _in_other_unit(mention, hay)
            if converted:
                return _supported(mention, hay, policy, converted)
        if found and not agree:
            elsewhere = _evidence(hay, found[0][1].leaf, "other currency")
            other = hay.currency_of(found[0][1].leaf)
            return _item(mention, "unsupported", f"{_where(elsewhere)} is in {other}, not "
                         f"{' / '.join(mention.currencies[:3])}", [elsewhere], 1)
        found = agree
    if found:
        return _supported(mention, hay, policy, found)
    counted = _count(mention, hay, policy)
    if counted is not None:
        return counted
    near = _nearest(mention, hay)
    if near is not None:
        ref, flipped = near
        hedged = mention.hedged and policy.hedge_allows_rounding
        how = "rounded" + (", sign not stated" if flipped else "")
        ev = [_evidence(hay, ref.leaf, how)]
        if hedged:
            return _item(mention, "rounded", f"rounds from {_where(ev[0], mention)}; marked as approximate", ev, 1)
        if _UNROUNDED.search(hay.leaves[ref.leaf].raw) and mention.significant_digits >= 3 and not (
                mention.kind == "percent" and hay.percent_unit(ref.leaf) == POINTS  # 85.41% is no 0.85412 points
                and abs(hay.leaf_value.get(ref.leaf, Decimal(0))) < abs(mention.written or Decimal(0)) / 10):
            # 0.3034483 shown as 30.34%: a raw float's tail, which no display keeps, not a drift
            return _item(mention, "normalized", f"{_where(ev[0], mention)} shown at the precision written", ev, 1)
        status, said, flagged = unhedged(mention, policy)  # drift, unless the Policy lets it pass
        return _item(mention, status, f"{_where(ev[0], mention)} rounds to this{said}", ev, 1, flagged=flagged)
    wrong_way = _opposite_sign(mention, hay)
    if wrong_way is not None:
        return _item(mention, "unsupported", f"{_where(wrong_way)} has the opposite sign: the answer says it "
                     f"{'fell' if mention.direction < 0 else 'rose'}", [wrong_way], 1)
    return _item(mention, "unsupported", "not found in the tool data")


#: A figure with five decimals or more: a raw computation (0.0604369607570275), not a display.
_UNROUNDED = re.compile(r"\.\d{4,}[1-9]")  # not "18.42150000": a display padded with zeros


def _in_other_unit(mention: Mention, hay: Haystack) -> list[tuple[NumForm, NumRef, bool]]:
    """Leaves holding an amount in its currency's other unit, where the data states that
    unit: "£143.50" as 14350 in a record in GBp (pence), "72.36p" as 0.7236 in GBP."""
    found: list[tuple[NumForm, NumRef, bool]] = []
    form = mention.num_forms[0]
    for code in mention.currencies[:1]:
        for other, factor in amounts.counterparts(code):
            converted = NumForm(numbers.CONTEXT.multiply(form.value, factor),
                                numbers.CONTEXT.multiply(form.tolerance, factor), f"in {other}")
            for value, flipped in _signed(converted, mention):
                found.extend((converted, ref, flipped) for ref in _num_refs(hay, converted, value)
                             if hay.currency_of(ref.leaf) == other)
    return found


def _count(mention: Mention, hay: Haystack, policy: Policy) -> Item | None:
    """A whole number that is the length of an array in the data: ``derived`` as a count."""
    if mention.integer is None or mention.integer not in hay.counts:
        return None
    nodes = hay.counts[mention.integer]
    ev = [
        construct(Evidence,
            tool=hay.tools[t].name, tool_index=t, tool_id=hay.tools[t].id,
            path=hay.path_of_node(n), raw=f"{mention.integer} elements", how="count",
        )
        for t, n in nodes[: policy.max_evidence]
    ]
    return _item(mention, "derived", f"count of the {mention.integer} elements of {ev[0].path} "
                 f"in {ev[0].tool}", ev, len(nodes))


def _opposite_sign(mention: Mention, hay: Haystack) -> Evidence | None:
    """For "rose 1.2%" against -1.2 (or "fell" against +1.2; for an amount only "up $3.18"
    against -3.18): the leaf that shows the value went the other way."""
    if not mention.direction or mention.explicit_sign or (mention.kind not in _PERCENT_KINDS
                                                          and mention.direction < 0):
        return None
    for form in mention.num_forms:
        value = form.value if mention.direction < 0 else -form.value
        refs = [r for r in _num_refs(hay, form, value) if mention.kind in _PERCENT_KINDS or not hay.is_string(r.leaf)]
        if refs:
            return _evidence(hay, refs[0].leaf, "opposite sign")
    return None


#: A percent field's figure over 100: 1.43 points is the fraction 0.0143, 25 basis points 0.25 points.
_HUNDREDTH = "percent field as fraction"


def _num_refs(hay: Haystack, form: NumForm, value: Decimal) -> list[NumRef]:
    """Leaves holding ``value`` in the sense of ``form``: a percentage as written (1.4
    for 1.4%) only where the data's unit is percent points (a fraction 0.014 is 1.4%
    only as a fraction); a bare scaled mantissa ($2.1bn vs 2.1) only where the data
    states no scale."""
    refs = hay.numbers.get(value)
    if not refs:
        return []
    if form.how == "percent form":
        # 1.0% is the number 1.0, not a "100.0 %" cell's fraction; 0.25% is 25 bp over 100
        return [r for r in refs if r.how != "fraction form"
                and hay.percent_unit(r.leaf) == (BASIS if r.how == _HUNDREDTH else POINTS)]
    if form.how == "unscaled":
        return [r for r in refs if r.how in ("value", "in text") and hay.leaf_scale(r.leaf) is None]
    if form.how == "fraction form":  # 1.43% is 1.43 points over 100, not a fraction's or basis points'
        return [r for r in refs if r.how != _HUNDREDTH or hay.percent_unit(r.leaf) == POINTS]
    return [r for r in refs if r.how != _HUNDREDTH or hay.percent_unit(r.leaf) != FRACTION]


#: Candidates per haystack and mention, so later stages (attribution) do not look the
#: same value up again; weakly keyed, so a haystack's entries go with it.
_CANDIDATES: PerHaystack[dict[Mention, list[tuple[NumForm, NumRef, bool]]]] = PerHaystack("match.candidates")


def _exact_candidates(mention: Mention, hay: Haystack) -> list[tuple[NumForm, NumRef, bool]]:
    memo = _CANDIDATES.setdefault(hay, {})
    if mention in memo:
        return memo[mention]
    if len(memo) > 10_000:
        memo.clear()
    found: list[tuple[NumForm, NumRef, bool]] = []
    for form in mention.num_forms:
        for value, flipped in _signed(form, mention):
            found.extend((form, ref, flipped) for ref in _num_refs(hay, form, value)
                         if _sign_may_drop(mention, flipped, hay, ref))
    if not found and mention.kind in _PERCENT_KINDS and mention.direction < 0 and not mention.explicit_sign:
        # "transactions fell 8%" quoted from prose that says "fell 8%": a figure in text
        # carries its direction as a word, not as a sign, so its magnitude is what counts
        for form in mention.num_forms:
            found.extend((form, ref, False) for ref in _num_refs(hay, form, form.value) if hay.is_string(ref.leaf))
    memo[mention] = found
    return found


def _supported(mention: Mention, hay: Haystack, policy: Policy,
               found: list[tuple[NumForm, NumRef, bool]]) -> Item:
    def is_exact(form: NumForm, ref: NumRef, flipped: bool) -> bool:
        if flipped:
            return False
        return _strips_to(hay.leaves[ref.leaf].raw, (mention.text,)) or (
            ref.digits == mention.digits and form.how in _EXACT_FORMS and ref.how in _EXACT_REFS
        )

    ranked = sorted(found, key=lambda c: (not is_exact(*c), c[2], c[1].how != "value", c[1].leaf))
    seen: set[LeafId] = set()
    evidence: list[Evidence] = []
    for form, ref, flipped in ranked:
        if ref.leaf in seen:
            continue
        seen.add(ref.leaf)
        if len(evidence) < policy.max_evidence:
            evidence.append(_evidence(hay, ref.leaf, _how(form, ref, flipped, is_exact(form, ref, flipped))))
    exact = is_exact(*ranked[0])
    status: Status = "exact" if exact else "normalized"
    reason = ("found as written " if exact else "matches ") + _where(evidence[0], mention)
    if not exact and evidence[0].how != "reformatted":
        reason += f" ({evidence[0].how})"
    return _item(mention, status, reason, evidence, len(seen))


def _how(form: NumForm, ref: NumRef, flipped: bool, exact: bool) -> str:
    if exact:
        return "as written"
    parts = [p for p in (form.how, ref.how) if p not in ("as written", "value", "in text")]
    if flipped:
        parts.append("sign not stated")
    return ", ".join(dict.fromkeys(parts)) or "reformatted"


def _nearest(mention: Mention, hay: Haystack) -> tuple[NumRef, bool] | None:
    """The closest data value that rounds to the mention at its written precision."""
    best: tuple[Decimal, NumRef, bool] | None = None
    for form in mention.num_forms:
        for value, flipped in _signed(form, mention):
            if form.how == "unscaled":
                continue  # rounding a bare mantissa is too loose to mean anything
            for candidate in hay.near(value, form.tolerance):
                refs = [r for r in _num_refs(hay, form, candidate) if _sign_may_drop(mention, flipped, hay, r)]
                distance = abs(candidate - value) / form.tolerance if form.tolerance else Decimal(0)
                if refs and (best is None or distance < best[0]):
                    best = (distance, refs[0], flipped)
    if best is None:
        return None
    return best[1], best[2]


def _strips_to(raw: str, texts: tuple[str, ...]) -> bool:
    """``raw.strip() in texts``, without copying a page of prose for each of its
    figures: only the spaces at its ends are stepped over (``str.isspace``, what
    ``strip`` strips) and the text between compared."""
    start, end = 0, len(raw)
    while start < end and raw[start].isspace():
        start += 1
    while end > start and raw[end - 1].isspace():
        end -= 1
    return any(end - start == len(text) and raw.startswith(text, start) for text in texts)
