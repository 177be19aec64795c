"""question: values for entities the question asks about but the data lacks are gap_fill;
entities asked about and left out make an 'incomplete' note."""

from __future__ import annotations

from .. import question as asked
from ..extract import extractor
from ..state import State

REQUIRES = frozenset({"question", "answer", "matched", "haystack", "locale", "policy"})
ASSIGNS = frozenset({"matched", "notes"})


def run(state: State) -> None:
    """Values for entities the question asks about but the data lacks are gap_fill;
    entities asked about and left out make an 'incomplete' note."""
    if not state.question:
        return
    ex = extractor(state.locale, tuple(state.policy.extra_stopwords))
    state.matched, notes = asked.check(state.question, state.answer, state.matched, state.haystack, ex)
    state.notes.extend(notes)
