"""stale: a value the current tool results lack but an earlier turn's hold is ``stale``."""

from __future__ import annotations

from ..match import match, stale_item
from ..models import SUPPORTED_STATUSES
from ..state import State

REQUIRES = frozenset({"history", "matched", "policy"})
ASSIGNS = frozenset({"matched"})


def run(state: State) -> None:
    """A value the current tool results lack but an earlier turn's hold is ``stale``."""
    if state.history is None:
        return
    for i, (mention, item) in enumerate(state.matched):
        if item.status == "unsupported":
            earlier = match(mention, state.history, state.policy)
            if earlier is not None and earlier.status in SUPPORTED_STATUSES:
                state.matched[i] = (mention, stale_item(mention, earlier))
