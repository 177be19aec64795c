"""polarity: negations and direction words (missed/beat, loss/profit) against the data,
and moves whose two ends contradict their verb ("raised to $345 from $390")."""

from __future__ import annotations

from ..checks import polarity
from ..state import State
from ..text import moves

REQUIRES = frozenset({"answer", "sentences", "matched", "haystack", "policy"})
ASSIGNS = frozenset({"matched", "notes"})


def run(state: State) -> None:
    """Negations and direction words (missed/beat, loss/profit) against the data."""
    state.matched, notes = polarity.check(state.answer, state.sentences, state.matched, state.haystack)
    state.notes.extend(notes)
    state.notes.extend(moves.check(state.answer, state.sentences, [m for m, _ in state.matched]))
