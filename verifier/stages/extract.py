"""extract: the answer's values, with their spans (the extractor never looks at the data;
this stage drops one thing only the data can tell: a table label's footnote marker the
answer copied with its label)."""

from __future__ import annotations

import re

from verifier.normalizers import fold, quotes

from ..extract import Mention, extractor
from ..state import State

REQUIRES = frozenset({"answer", "locale", "policy", "haystack"})
ASSIGNS = frozenset({"mentions"})


def run(state: State) -> None:
    """Read the answer's values."""
    ex = extractor(state.locale, tuple(state.policy.extra_stopwords))
    state.mentions = [m for m in ex.extract(
        state.answer, years=state.policy.check_years, quoted=state.policy.check_quotes
    ) if not _copied_marker(state, m)]


_MARKER = re.compile(r"\(\d{1,2}\)")
_LABEL_BEFORE = re.compile(r"(?:[^\W\d_][\w&'.-]*[ \t]+){1,4}$")


def _copied_marker(state: State, mention: Mention) -> bool:
    """Whether a bracketed one- or two-digit number is a table label's footnote marker
    the answer copied with its label ("Net income (1) was $5.2 million", where the data
    has the row "Net income (1)"), not an accounting negative: the label and the marker
    are in the data together."""
    if mention.kind != "number" or not _MARKER.fullmatch(mention.text):
        return False
    words = _LABEL_BEFORE.search(state.answer, max(0, mention.start - 60), mention.start)
    if words is None:
        return False
    phrase = quotes.normalize(fold(words.group() + mention.text))
    return state.haystack.find_text(phrase) is not None
