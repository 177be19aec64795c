"""attribute: a value found only in another ticker's or another period's record is
misattributed (the period case leaves a ``periods`` flag for the derive stage), and so
is a time of day stated beside a value whose record has another time."""

from __future__ import annotations

from ..checks.attribute import attribute, attribute_periods, named_tickers
from ..index.same_record import attribute_earlier, attribute_times
from ..state import State

REQUIRES = frozenset({"answer", "matched", "haystack"})
ASSIGNS = frozenset({"matched"})


def run(state: State) -> None:
    """Values taken from another ticker's or another period's record are misattributed."""
    items = named_tickers(state.answer, state.matched, state.haystack)
    state.matched = [(m, item) for (m, _), item in zip(state.matched, items, strict=True)]
    items = attribute(state.answer, state.matched, state.haystack)
    state.matched = [(m, item) for (m, _), item in zip(state.matched, items, strict=True)]
    items = attribute_periods(state.answer, state.matched, state.haystack)
    state.matched = [(m, item) for (m, _), item in zip(state.matched, items, strict=True)]
    for check in (attribute_times, attribute_earlier):
        items = check(state.answer, state.matched, state.haystack)
        state.matched = [(m, item) for (m, _), item in zip(state.matched, items, strict=True)]
