"""cells: values from a table row or column other than the one the question names are
misattributed, each with a ``cells`` flag for the derive stage. Reads the question as
the question stage read it (``State.asked``)."""

from __future__ import annotations

from ..models import Flag
from ..question import cells
from ..state import State

REQUIRES = frozenset({"asked", "answer", "matched", "haystack"})
ASSIGNS = frozenset({"matched"})


def run(state: State) -> None:
    """Values from a table row or column other than the one the question names are
    misattributed."""
    if state.asked is None:
        return
    before = [item for _, item in state.matched]
    state.matched = cells.check(state.asked, state.answer, state.matched, state.haystack)
    state.matched = [(m, item if item is old else item.with_flag(Flag("cells")))
                     for (m, item), old in zip(state.matched, before, strict=True)]
