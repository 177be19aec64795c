"""attribute: a value found only in another ticker's or another period's record is
misattributed (the period case leaves a ``periods`` flag for the derive stage)."""

from __future__ import annotations

from ..attribute import attribute, attribute_periods
from ..state import State

REQUIRES = frozenset({"answer", "matched", "haystack"})
ASSIGNS = frozenset({"matched"})


def run(state: State) -> None:
    """Values taken from another ticker's or another period's record are misattributed."""
    items = attribute(state.answer, state.matched, state.haystack)
    state.matched = [(m, item) for (m, _), item in zip(state.matched, items, strict=True)]
    items = attribute_periods(state.answer, state.matched, state.haystack)
    state.matched = [(m, item) for (m, _), item in zip(state.matched, items, strict=True)]
