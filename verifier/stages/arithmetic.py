"""arithmetic: the answer's own computations ("(46,298 − 36,386) / 46,298 ≈ 21.41%").

A chain that holds, over inputs the data supports (or constants, or figures checked in
an earlier chain), makes every figure it states after its inputs ``derived`` (the
result, its other forms, the intermediate figures). A step that does not hold makes
its figure ``wrong_arithmetic``, with the value the step before it gives. The constants
of a formula ("* 100", "/ 3", "365 ×") are descriptors (``verifier.extract.descriptors``), read
here as inputs that need no support. An input the data does not support stays flagged
on its own.
"""

from __future__ import annotations

from ..derive import arithmetic
from ..extract import NUMERIC_KINDS, Mention
from ..models import SUPPORTED_STATUSES, Evidence, Item
from ..state import State

REQUIRES = frozenset({"answer", "mentions", "matched"})
ASSIGNS = frozenset({"matched"})

#: Statuses a shown computation may replace: what the data alone did not support (a
#: value filled in for an entity the data lacks is computed from the data after all).
_REPLACEABLE = frozenset({"unsupported", "drift", "gap_fill"})


def run(state: State) -> None:
    # the chains are read over every figure the answer writes, the constants of its
    # formulas too ("/ 2", "× 100": descriptors, no items)
    mentions = [m for m in state.mentions if not m.descriptor or m.kind == "number"]
    found = arithmetic.chains(state.answer, mentions)
    if not found:
        return
    by_mention = {id(m): item for m, item in state.matched}
    items: dict[int, Item] = {i: by_mention[id(m)] for i, m in enumerate(mentions) if id(m) in by_mention}
    checked: set[int] = set()  # figures a holding chain derived: inputs of later chains
    for chain in found:
        elements = chain.elements
        text = chain.text(state.answer)
        inputs = elements[0].operands
        for o in inputs:  # "... / $87,583 million": a result checked before, restated
            if o.index in items and items[o.index].status in _REPLACEABLE and (
                    source := _restates(o.mention, checked, mentions)):
                checked.add(o.index)
                items[o.index] = _restated(items[o.index], source)
        held = all(o.index not in items or items[o.index].status in SUPPORTED_STATUSES or o.index in checked
                   for o in inputs)
        stated = [o.index for e in elements[1:] for o in (*e.operands, *e.alternatives) if o.index in items]
        wrong = next((k for k in range(len(elements) - 1) if not arithmetic.agree(elements[k], elements[k + 1])), None)
        if wrong is None:
            if held:
                checked.update(stated)
                evidence = [e for o in inputs if o.index in items for e in items[o.index].evidence][:5]
                for i in stated:
                    if items[i].status in _REPLACEABLE:
                        items[i] = _derived(items[i], evidence, text)
            continue
        left, right = elements[wrong], elements[wrong + 1]
        computed = arithmetic.values(left)[0]
        with_items = [o for o in right.operands if o.index in items]
        targets = [right.figure, *right.alternatives] if right.figure else (
            [o for o in with_items if items[o.index].status in _REPLACEABLE] or with_items[-1:])
        for operand in targets:
            if operand is None or operand.index not in items:
                continue
            shown = arithmetic.as_written(computed, operand.mention) if computed is not None else "no value"
            items[operand.index] = items[operand.index].model_copy(update={
                "status": "wrong_arithmetic", "flagged": True, "expression": text,
                "reason": f"the answer's own arithmetic does not hold: the step before {operand.mention.text} "
                          f"gives {shown} ({text})"})
    for i, item in list(items.items()):  # "Therefore, the ROA is 1.42%": a checked result, restated
        if i not in checked and item.status in _REPLACEABLE and (source := _restates(mentions[i], checked, mentions)):
            items[i] = _restated(item, source)
    revised = {id(mentions[i]): item for i, item in items.items()}
    state.matched = [(m, revised.get(id(m), item)) for m, item in state.matched]


def _restates(mention: Mention, checked: set[int], mentions: list[Mention]) -> Mention | None:
    """The checked figure before ``mention`` that it restates, at its own precision
    ("1.42%" for a checked "1.424%", "$87,583 million" again), or None."""
    if mention.kind not in NUMERIC_KINDS or not mention.num_forms:
        return None
    form = mention.num_forms[0]
    for i in sorted(checked):
        earlier = mentions[i]
        if earlier.start < mention.start and earlier.kind == mention.kind and earlier.num_forms \
                and abs(earlier.num_forms[0].value - form.value) <= form.tolerance:
            return earlier
    return None


def _restated(item: Item, source: Mention) -> Item:
    return item.model_copy(update={
        "status": "derived", "flagged": False, "expression": source.text,
        "reason": f"restates {source.text}, a result of the answer's own arithmetic checked before"})


def _derived(item: Item, evidence: list[Evidence], text: str) -> Item:
    return item.model_copy(update={
        "status": "derived", "flagged": False, "evidence": evidence, "evidence_total": len(evidence),
        "expression": text, "reason": f"the answer's own arithmetic, checked: {text}"})
