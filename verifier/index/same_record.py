"""A value and what its clause says of it belong to one record of the data.

- A time of day or a day beside a value is that value's record's moment ("Session high:
  $186.95 in the 11:30 ET bar" where $186.95 is the 10:30 bar's high).
- A value the data holds only in a record of an earlier period ("prior_year",
  "previous", "previousClose", "year_ago") is given as current unless its clause says it
  is the earlier one ("from", "prior", "a year earlier", "前年同期", "Vorjahr";
  ``stoplists/earlier_words.txt``).
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

from verifier import stoplists

from ..checks.attribute import scope_starts
from ..checks.clock import time_leaves
from ..checks.match import candidate_leaves, leaf_evidence
from ..extract import NUMERIC_KINDS, Mention
from ..extract.tables import Headers
from ..models import SUPPORTED_STATUSES, Item
from .haystack import Haystack, LeafId


def attribute_times(answer: str, matched: list[tuple[Mention, Item]], hay: Haystack) -> list[Item]:
    """A time of day or a day, and the value its clause states, both marked
    ``misattributed`` when the value is found only in records whose own moment is
    another ("Session high: $186.95 in the 11:30 ET bar" where $186.95 is the 10:30
    bar's high; "weekly high 154.85 (Nov 24)" where 154.85 is the Nov 23 bar's): a time
    beside a value is that value's, and either of the two may be the wrong one."""
    starts = scope_starts(answer)
    by_scope: dict[int, list[int]] = {}
    for index, (mention, _) in enumerate(matched):
        by_scope.setdefault(bisect.bisect_right(starts, mention.start), []).append(index)
    stamped = {hay.parent(hay.leaves[leaf].node): leaf for leaf, _ in hay.instants}
    items = [item for _, item in matched]
    if not stamped:
        return items
    for index, (mention, item) in enumerate(matched):
        own = _moment_leaves(mention, hay) if item.status in SUPPORTED_STATUSES else []
        if not own:
            continue
        records = {hay.parent(hay.leaves[leaf].node) for leaf in own}
        for other_index in by_scope[bisect.bisect_right(starts, mention.start)]:
            other, found = matched[other_index]
            if other.kind not in NUMERIC_KINDS or found.status not in ("exact", "normalized"):
                continue
            leaves = candidate_leaves(other, hay)
            holders = {hay.parent(hay.leaves[leaf].node) for leaf in leaves}
            if holders and holders <= stamped.keys() and not holders & records:
                stamp = stamped[hay.parent(hay.leaves[leaves[0]].node)]
                reason = (f"{other.text} is at {hay.path(leaves[0])}, whose record's time is at {hay.path(stamp)}; "
                          f"{mention.text} is another record's: one of the two is not the other's")
                for at, ev in ((index, leaf_evidence(hay, own[0], "the time stated")),
                               (other_index, leaf_evidence(hay, stamp, "the value's own time"))):
                    items[at] = items[at].model_copy(update={
                        "status": "misattributed", "flagged": True, "evidence": [ev], "evidence_total": 1,
                        "reason": reason})
                break
    return items


def _moment_leaves(mention: Mention, hay: Haystack) -> list[LeafId]:
    """The leaves holding the moment of a time of day, or the day of a full date."""
    if mention.kind == "time":
        return time_leaves(mention, hay)
    if mention.kind == "date" and mention.value and (len(mention.value) == 10 or mention.value.startswith("--")):
        return hay.dates.get(mention.value, [])
    return []


#: Key words naming a record of an earlier period: "previousClose", "prior_year",
#: "prev", "year_ago", "lastYear" ("last" alone is the latest trade: not earlier).
_EARLIER_KEY = re.compile(r"(?i)(?:^|[_\s-]|(?<=[a-z])(?=[A-Z]))(?:previous|prior|prev|preceding|ago|earlier|"
                          r"last[_\s-]?(?:year|quarter|month|week|period)|yoy_base)(?=$|[_\s\-A-Z])")
_WORD = re.compile(r"[^\W\d_]+(?:'s)?")


@lru_cache(maxsize=1)
def _earlier_words() -> tuple[frozenset[str], frozenset[str], tuple[str, ...]]:
    """(words before an earlier value, words after it, words of scripts without spaces)."""
    before, after = stoplists.load("earlier_words"), stoplists.load("earlier_words_after")
    glued = tuple(w for w in before | after if not w.isascii() and not w.isalpha() or w[0] > "\u3000")
    return (frozenset(w.lower() for w in before if w not in glued),
            frozenset(w.lower() for w in after if w not in glued), glued)


def _earlier_record(hay: Haystack, leaf: LeafId) -> str | None:
    """The key naming an earlier period that ``leaf`` sits under, if any."""
    node = hay.leaves[leaf].node
    while node >= 0:
        segment = hay.segment(node)
        if isinstance(segment, str) and _EARLIER_KEY.search(segment):
            return segment
        node = hay.parent(node)
    return None


def _said_earlier(answer: str, mention: Mention, starts: list[int]) -> bool:
    """Whether a word saying "the earlier one" stands beside the value: among the five
    words before it ("down from $431.62", "yesterday's close of $445.45") or the two
    after it ("3.1% prior"), in its sentence ("前年同期の3,756億円"), or in the header of its
    table column ("| vorher |", "| Prior |"). Not a "prior" two values
    on: "consensus 2.9% y/y vs. 2.9% prior" says it of the second value only."""
    before_words, after_words, glued = _earlier_words()
    sentence = bisect.bisect_right(starts, mention.start) - 1
    lo = max(0, mention.start - 48)
    before = {w.lower() for w in _WORD.findall(answer[lo:mention.start])[-5:]}
    after = {w.lower() for w in _WORD.findall(answer[mention.end:mention.end + 24])[:2]}
    if before & (before_words | after_words) or after & after_words:
        return True
    near = answer[max(lo, starts[sentence]):mention.end + 12]
    if any(g in near for g in glued):
        return True
    header = Headers(answer).at(mention.start) if "|" in answer else None  # a column "| vorher |"
    return header is not None and bool({w.lower() for w in _WORD.findall(header)} & (before_words | after_words))


def attribute_earlier(answer: str, matched: list[tuple[Mention, Item]], hay: Haystack) -> list[Item]:
    """Values found only in records of an earlier period, marked ``misattributed`` when
    their clause does not say they are the earlier one."""
    starts = scope_starts(answer)
    items = []
    for mention, item in matched:
        if mention.kind in NUMERIC_KINDS and item.status in ("exact", "normalized"):
            leaves = candidate_leaves(mention, hay)
            keys = [_earlier_record(hay, leaf) for leaf in leaves]
            if leaves and all(keys):
                said = _said_earlier(answer, mention, starts)
                if not said:
                    item = item.model_copy(update={
                        "status": "misattributed", "flagged": True, "evidence_total": len(leaves),
                        "evidence": [leaf_evidence(hay, leaf, f"under {keys[0]}") for leaf in leaves[:3]],
                        "reason": f"found only under {keys[0]!r} ({hay.path(leaves[0])}), an earlier period's "
                                  "record, but the answer gives it as current"})
        items.append(item)
    return items
