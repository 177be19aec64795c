"""polarity: negations and direction words (missed/beat, loss/profit) against the data."""

from __future__ import annotations

from .. import polarity
from ..state import State

REQUIRES = frozenset({"answer", "sentences", "matched", "haystack", "policy"})
ASSIGNS = frozenset({"matched", "notes"})


def run(state: State) -> None:
    """Negations and direction words (missed/beat, loss/profit) against the data."""
    state.matched, notes = polarity.check(state.answer, state.sentences, state.matched, state.haystack)
    state.notes.extend(notes)
