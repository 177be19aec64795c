"""cells: values from a table row or column other than the one the question names are
misattributed, each with a ``cells`` flag for the derive stage."""

from __future__ import annotations

from ..extract import extractor
from ..models import Flag
from ..question import cells
from ..state import State

REQUIRES = frozenset({"question", "answer", "matched", "haystack", "locale", "policy"})
ASSIGNS = frozenset({"matched"})


def run(state: State) -> None:
    """Values from a table row or column other than the one the question names are
    misattributed."""
    if not state.question:
        return
    ex = extractor(state.locale, tuple(state.policy.extra_stopwords))
    before = [item for _, item in state.matched]
    state.matched = cells.check(state.question, state.answer, state.matched, state.haystack, ex)
    state.matched = [(m, item if item is old else item.with_flag(Flag("cells")))
                     for (m, item), old in zip(state.matched, before, strict=True)]
