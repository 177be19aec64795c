"""stale: a value the current tool results lack but an earlier turn's hold is ``stale``,
unless its clause dates it to that earlier look ("lower than when we checked at 08:02":
``stoplists/earlier_check_words.txt``), where it is supported by that turn."""

from __future__ import annotations

from verifier import stoplists

from ..checks.match import match, stale_item
from ..models import SUPPORTED_STATUSES
from ..state import State
from ..text.splitter import clause_tail

REQUIRES = frozenset({"answer", "history", "matched", "policy"})
ASSIGNS = frozenset({"matched"})


def run(state: State) -> None:
    """A value the current tool results lack but an earlier turn's hold is ``stale``."""
    if state.history is None:
        return
    for i, (mention, item) in enumerate(state.matched):
        if item.status == "unsupported":
            earlier = match(mention, state.history, state.policy)
            if earlier is not None and earlier.status in SUPPORTED_STATUSES:
                dated = _dated_earlier(state.answer, mention.start)
                state.matched[i] = (mention, earlier.model_copy(update={
                    "evidence": [e.model_copy(update={"history": True}) for e in earlier.evidence],
                    "reason": f"{earlier.reason}, in an earlier turn's results, as the answer says"})
                    if dated else stale_item(mention, earlier))


def _dated_earlier(answer: str, start: int) -> bool:
    """Whether the clause before ``start`` dates what follows to an earlier look."""
    clause = clause_tail(answer[max(0, start - 80):start])
    return stoplists.word_pattern("earlier_check_words").search(clause) is not None
