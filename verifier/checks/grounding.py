"""Grounding per sentence: citations scope a sentence to its sources, and each sentence's
content-word overlap with its source is measured.

A value in a cited sentence must be in a source the sentence cites: "revenue rose 12%
[2]" where 12% is only in source [1] is ``misattributed`` (the model cited the wrong
source, or took the figure from elsewhere). A citation to nothing (``[7]`` with three
sources) and a cited sentence below ``Policy.min_overlap`` are flagged notes.
"""

from __future__ import annotations

import bisect

from ..extract import NUMERIC_KINDS, Mention
from ..index.haystack import Haystack, LeafId
from ..models import SUPPORTED_STATUSES, Item, Note, SentenceCheck, construct
from ..policy import Policy
from ..text.sentences import (
    MIN_SOURCE_WORDS,
    Sentence,
    Source,
    content_words,
    in_source,
    mention_spans,
    overlap,
    source_words,
    sources,
)
from .match import candidate_leaves, miscited_item


def ground(sentences: list[Sentence], matched: list[tuple[Mention, Item]], hay: Haystack, policy: Policy
           ) -> tuple[list[tuple[Mention, Item]], list[SentenceCheck], list[Note]]:
    """(revised pairs, one check per sentence of the answer, notes)."""
    spans = sorted(mention_spans(m for m, _ in matched))
    span_starts = [a for a, _ in spans]
    all_words: frozenset[str] = frozenset().union(*(source_words(hay, t.index, -1)[0] for t in hay.tools))
    checks, notes = [], []
    out = list(matched)
    for sentence in sentences:
        found = [(n, sources(hay, n)) for n in sentence.citations]
        cited = [src for _, src in found if src is not None]
        missing = [n for n, src in found if src is None]
        lo, hi = bisect.bisect_left(span_starts, sentence.start), bisect.bisect_left(span_starts, sentence.end)
        local = [(a - sentence.start, b - sentence.start) for a, b in spans[lo:hi]]
        words = content_words(sentence.text, local)
        if cited:
            known: frozenset[str] = frozenset().union(*(source_words(hay, s.tool, s.node)[0] for s in cited))
            prose = sum(source_words(hay, s.tool, s.node)[1] for s in cited)
        else:
            known, prose = all_words, 0
        share = overlap(words, known)
        low = bool(cited) and prose >= MIN_SOURCE_WORDS and share is not None and share < policy.min_overlap
        if missing:
            notes.append(construct(Note,
                kind="unknown_citation", flagged=True, start=sentence.start, end=sentence.end, evidence=[],
                message=f"cites {_markers(missing)}, which {'is' if len(missing) == 1 else 'are'} not among "
                f"the {len(hay.tools)} tool result{'s' if len(hay.tools) != 1 else ''}"))
        if low:
            notes.append(construct(Note,
                kind="low_overlap", flagged=True, start=sentence.start, end=sentence.end, evidence=[],
                message=f"only {share:.0%} of the sentence's words are in its cited source "
                f"({', '.join(s.label for s in cited)}); below {policy.min_overlap:.0%}: it may add "
                "or change what the source says"))
        checks.append(construct(SentenceCheck,
            start=sentence.start, end=sentence.end, citations=list(sentence.citations),
            sources=[s.label for s in cited], overlap=None if share is None else round(share, 4),
            flagged=bool(missing) or low))
        if cited:
            _scope(out, sentence, cited, hay)
    return out, checks, notes


def _markers(numbers: list[int]) -> str:
    return ", ".join(f"[{n}]" for n in numbers)


def _scope(pairs: list[tuple[Mention, Item]], sentence: Sentence, cited: list[Source], hay: Haystack) -> None:
    """Values of a cited sentence found only outside its sources become misattributed."""
    label = ", ".join(f"[{s.number}] ({s.label})" for s in cited)
    for i, (mention, item) in enumerate(pairs):
        if not (sentence.start <= mention.start < sentence.end) or item.status not in SUPPORTED_STATUSES:
            continue
        if mention.kind in NUMERIC_KINDS and item.status != "derived":
            leaves = candidate_leaves(mention, hay)
        elif mention.kind == "quote" and mention.keys:
            leaves = _quote_leaves(hay, mention.keys[0])
        else:
            continue
        if leaves and not any(in_source(hay, leaf, src) for src in cited for leaf in leaves):
            pairs[i] = (mention, miscited_item(item, hay, leaves, label))


def _quote_leaves(hay: Haystack, phrase: str) -> list[LeafId]:
    return hay.find_text_all(phrase)
