"""conflicts: a warning where the answer's values come from sources that disagree."""

from __future__ import annotations

from ..checks import conflicts
from ..state import State

REQUIRES = frozenset({"sentences", "matched", "haystack"})
ASSIGNS = frozenset({"notes"})


def run(state: State) -> None:
    """Warn where the answer's values come from sources that disagree."""
    state.notes.extend(conflicts.check(state.sentences, state.matched, state.haystack))
