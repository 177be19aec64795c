"""ground: the answer's sentences; citations scope their values to the cited sources,
and each cited sentence's overlap with its source is measured."""

from __future__ import annotations

from ..checks.grounding import ground
from ..state import State
from ..text.sentences import split

REQUIRES = frozenset({"answer", "matched", "haystack", "policy"})
ASSIGNS = frozenset({"sentences", "matched", "sentence_checks", "notes"})


def run(state: State) -> None:
    """Sentences: citations scope their values to the cited sources; overlap is measured."""
    state.sentences = split(state.answer)
    state.matched, state.sentence_checks, notes = ground(
        state.sentences, state.matched, state.haystack, state.policy)
    state.notes.extend(notes)
