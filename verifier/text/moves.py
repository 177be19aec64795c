"""Moves stated with both ends: "raised its target to $345 from $390", "cut the rate from
3.75% to 3.50%", "rose from 12.1 to 14.3", "$31.9 billion, down from $35.0 billion". The verb says which way the value went; the two
figures say it too, and they must agree. A disagreement is a flagged ``direction`` note
on the sentence, whatever the data holds (both ends may well be in it)."""

from __future__ import annotations

import itertools
import re
from decimal import Decimal

from verifier import stoplists

from ..extract import NUMERIC_KINDS, Mention
from ..models import Note, construct
from .sentences import Sentence

#: Between the two ends: "to A from B" or "from B to A".
_TO_FROM = re.compile(r"\s+from\s+(?:an?\s+|the\s+)?(?:\w+\s+){0,2}?$", re.IGNORECASE)
_FROM_TO = re.compile(r"\s+to\s+(?:an?\s+|the\s+)?$", re.IGNORECASE)
#: Between the two ends, the direction word itself: "A, up from B", "A (down from B)".
_SAID_FROM = re.compile(r"[\s,;(]+(?P<said>(?:[^\W\d_]+\s+){1,2})from\s+(?:an?\s+|the\s+)?$", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+")
_TO_BEFORE = re.compile(r"(?i)\bto\s+\S{0,3}$")


def check(answer: str, sentences: list[Sentence], mentions: list[Mention]) -> list[Note]:
    """Notes for sentences whose verb of direction the two ends of a move contradict."""
    directions = stoplists.load_pairs("directions")
    figures = [m for m in mentions if m.kind in NUMERIC_KINDS and m.num_forms and not m.descriptor]
    notes = []
    for a, b in itertools.pairwise(figures):
        if a.kind != b.kind:
            continue
        gap = answer[a.end:b.start]
        said_from = _SAID_FROM.fullmatch(gap)
        between = [directions[w] for w in _WORD.findall(said_from["said"].lower()) if w in directions] \
            if said_from else []
        if between:
            new, old = a, b  # "$31.882 billion, up from $34.979 billion"
        elif _TO_FROM.fullmatch(gap) and _TO_BEFORE.search(answer, max(0, a.start - 12), a.start):
            new, old = a, b  # "to $345 from $390": a is the new value
        elif _FROM_TO.fullmatch(gap) and re.search(r"(?i)\bfrom\s+\S*$", answer[max(0, a.start - 12):a.start]):
            new, old = b, a  # "from 3.75% to 3.50%"
        else:
            continue
        sentence = next((s for s in sentences if s.start <= a.start < s.end), None)
        if sentence is None:
            continue
        before = _WORD.findall(answer[max(sentence.start, min(a.start, b.start) - 60):min(a.start, b.start)].lower())
        verb = between[-1] if between else next((directions[w] for w in reversed(before[-6:]) if w in directions), None)
        if verb is None:
            continue
        went = _value(new) - _value(old)
        if went == 0 or (went > 0) == (verb == "up"):
            continue
        said = "up" if verb == "up" else "down"
        notes.append(construct(Note,
            kind="direction", flagged=True, start=sentence.start, end=sentence.end, evidence=[],
            message=f"the sentence says the value went {said}, but {new.text} (the new value) is "
                    f"{'below' if went < 0 else 'above'} {old.text} (the old one)"))
    return notes


def _value(mention: Mention) -> Decimal:
    return mention.num_forms[0].value
