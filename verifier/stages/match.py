"""match: each value looked up in the haystack (exact, reformatted, scaled, rounded)."""

from __future__ import annotations

from ..checks.match import match
from ..state import State

REQUIRES = frozenset({"mentions", "haystack", "policy"})
ASSIGNS = frozenset({"matched"})


def run(state: State) -> None:
    """Look each value up in the haystack."""
    pairs = ((m, match(m, state.haystack, state.policy)) for m in state.mentions)
    state.matched = [(m, item) for m, item in pairs if item is not None]
