"""question: what the question itself says. A figure, date or period the question states
("what would 25,000 CHF be in euros", "the FY2022 net income") is ``stated``: the
user's own, the answer's frame, no claim of the data's. Values for entities the question
asks about but the data lacks are ``gap_fill``; entities asked about and left out make an
'incomplete' note. Its first step reads the question once (``State.asked``, a
:class:`~verifier.question.question.Question`) for itself and the stages after it."""

from __future__ import annotations

from collections.abc import Sequence

from ..extract import NUMERIC_KINDS, Mention, extractor
from ..models import Item
from ..question import entities as asked
from ..question.question import read_question
from ..state import State

REQUIRES = frozenset({"question", "answer", "matched", "haystack", "locale", "policy"})
ASSIGNS = frozenset({"asked", "matched", "notes"})

#: What a figure the question states may replace: what the data did not support.
_REPLACEABLE = frozenset({"unsupported", "drift"})
_PERCENT_KINDS = frozenset({"percent", "basis_points", "percentage_points"})


def run(state: State) -> None:
    if not state.question:
        return
    ex = extractor(state.locale, tuple(state.policy.extra_stopwords))
    state.asked = question = read_question(state.question, ex)
    said = question.mentions
    state.matched = [(m, _stated(m, item, said) if item.status in _REPLACEABLE else item) for m, item in state.matched]
    state.matched, notes = asked.check(question, state.answer, state.matched, state.haystack)
    state.notes.extend(notes)


def _stated(mention: Mention, item: Item, said: Sequence[Mention]) -> Item:
    """``item`` as ``stated`` when the question states the same figure, date or period."""
    for other in said:
        if _same(mention, other):
            return item.model_copy(update={
                "status": "stated", "flagged": False, "evidence": [], "evidence_total": 0,
                "reason": f"the question states it ({other.text!r}): the user's own, not a claim of the data"})
    return item


def _same(mention: Mention, other: Mention) -> bool:
    if mention.kind in NUMERIC_KINDS:
        # the same figure at the answer's precision, and of the same sort (a percentage is
        # no amount): "25,000 CHF" for "25,000 CHF", not "250.82%" for a "3-year" window
        if other.kind not in NUMERIC_KINDS or other.descriptor or not other.num_forms or not mention.num_forms:
            return False
        if (mention.kind in _PERCENT_KINDS) != (other.kind in _PERCENT_KINDS):
            return False
        value, tolerance = mention.num_forms[0].value, mention.num_forms[0].tolerance
        return abs(other.num_forms[0].value - value) <= tolerance
    if mention.kind in ("date", "period", "time") and other.kind in ("date", "period", "time"):
        return bool(set(mention.keys) & set(other.keys)) or mention.value == other.value
    return False
