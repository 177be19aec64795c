"""match: each value looked up in the haystack (exact, reformatted, scaled, rounded). A
ticker-shaped name the data lacks, written right before a ticker it holds in brackets
("LVMH (MC.PA)"), is that ticker's name: supported by the same records."""

from __future__ import annotations

import re

from ..match import match
from ..models import SUPPORTED_STATUSES
from ..state import State

REQUIRES = frozenset({"answer", "mentions", "haystack", "policy"})
ASSIGNS = frozenset({"matched"})

#: Between a name and the ticker after it: " (" with optional spaces.
_BRACKET = re.compile(r"[ \t\u00a0]*\([ \t\u00a0]*")


def run(state: State) -> None:
    """Look each value up in the haystack."""
    pairs = ((m, match(m, state.haystack, state.policy)) for m in state.mentions)
    state.matched = [(m, item) for m, item in pairs if item is not None]
    for i in range(len(state.matched) - 1):
        (name, item), (ticker, found) = state.matched[i], state.matched[i + 1]
        if name.kind == ticker.kind == "ticker" and item.status == "unsupported" \
                and found.status in SUPPORTED_STATUSES and _BRACKET.fullmatch(state.answer, name.end, ticker.start) \
                and state.answer[ticker.end:ticker.end + 1] == ")":
            state.matched[i] = (name, item.model_copy(update={
                "status": "normalized", "flagged": False, "evidence": found.evidence,
                "evidence_total": found.evidence_total,
                "reason": f"the name of {ticker.text}, which the answer writes beside it and the data holds"}))
