"""The one sentence and clause splitter: where the sentences and clauses of a text begin
and end, as offsets into it.

Every stage reads the answer's sentences (citations, grounding, judging, attribution,
derivations), and the data's prose is read sentence by sentence too, so the sentence
end is one pattern, here. Clauses are cut three ways, because callers ask three
questions; each way is one pattern with its options, not a copy per caller:

- clause breaks inside a sentence (:data:`CLAUSE_BREAK`): a semicolon or a conjunction,
  after which a value is no longer tied to the entity named before it;
- the clause a word stands in, looking back (:func:`clause_tail`): the text after the
  last sentence end, colon or semicolon (and comma, when asked) before it;
- the clauses of the data's prose (:func:`data_clauses`): cut at a semicolon and at a
  full stop before a capital, with no abbreviation list (filings' prose, read for the
  periods of its figures).
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

from .months import EXTRA_ABBREVIATIONS, MONTH_ABBREVIATIONS

#: A citation marker: [1], [2, 3], [1-3], [^1] (a run of them: [1][2]).
CITATION_MARKER = r"\[\^?\d{1,3}(?:\s*[,\u2013\-]\s*\^?\d{1,3})*\]"

#: Words whose full stop ends no sentence ("Apple Inc. and ..."). May is left out of the
#: months: "in May." ends one, and its abbreviation is the whole word.
ABBREVIATIONS: tuple[str, ...] = (
    "Inc", "Corp", "Co", "Ltd", "plc", "vs", "e.g", "i.e", "approx", "St", "Mr", "Ms", "Dr", "U.S", "U.K",
    "a.m", "p.m", *(a for a in MONTH_ABBREVIATIONS if a != "May"), *EXTRA_ABBREVIATIONS,
    "S.A", "N.V", "bn", "mn", "Mrd", "Mio", "z", "z. B", "bzw", "ca", "etc",
)
_NOT_AFTER_ABBREVIATION = "".join(rf"(?<!\b{re.escape(a)}\.)" for a in ABBREVIATIONS)

#: Where a sentence ends (the match's end is where the next begins). The look-behinds
#: follow the punctuation so they run only where a sentence may end.
SENTENCE_END = re.compile(
    r"""
      [.!?]                          # a full stop, ! or ?
      """ + _NOT_AFTER_ABBREVIATION + r"""  # not after a common abbreviation ("Inc.")
      (?!(?<=\bNo\.)\s+\d)           # "No. 5" goes on; "No. LULU missed" ends a sentence
      \s+                            # and the space after it
    | (?<=[.!?])                     # or a citation glued to the full stop ("exports.[1] AMD"):
      (?:""" + CITATION_MARKER + r""")+  # the sentence ends after the marker(s)
      \s+                            # and the space after them
    | [\n\u2028\u2029]\s*            # or a line break, a Unicode line or paragraph separator
    """, re.VERBOSE)

#: Clause breaks inside a sentence, after which a value is no longer tied to the ticker
#: named before them ("ASML is 3.41% and Novo Nordisk is 2.26%": the 2.26 is not ASML's).
#: Breaking more often only unties values (fewer flags, never a wrong one), so the list
#: is generous and has the German, French and Spanish conjunctions too.
CLAUSE_BREAK = re.compile(
    r"""
      ;                              # a semicolon
    | ,?\s+                          # or a conjunction between spaces, maybe after a comma:
      (?:and|while|whereas|whilst|but|versus|vs\.?|compared\ with|ahead\ of|behind|against  # English
        |während|und|aber|sowie      # German
        |tandis\ que|alors\ que|et|mais  # French
        |mientras|pero)              # Spanish
      \s+
    """, re.VERBOSE)

#: What ends the clause a word stands in, looking back from it; the options fill the
#: braces (see :func:`clause_tail`).
_CLAUSE_END = r"""
      [.;:!?{comma}]                 # a sentence's end, a colon or a semicolon (a comma, asked)
      {markup}                       # markdown closing after it, asked: "**down 5%.**"
      \s                             # then a space
      {line_break}                   # or, asked, a line break alone: "(down 5 bp)\n- 10-year"
"""

#: Where the data's prose is cut into clauses (the match's start ends one, and the next
#: begins there). Unlike :data:`SENTENCE_END` it knows no abbreviations but wants a
#: capital after a full stop, and it cuts at semicolons: a filing's "fiscal 2019; ..."
#: starts a new dated clause.
DATA_CLAUSE_END = re.compile(
    r"""
      (?<=[;])\s+                    # the space after a semicolon
    | (?<=[.!?])\s+(?=[A-Z(])        # the space after a sentence's end, before a capital or "("
    """, re.VERBOSE)


def sentence_starts(text: str) -> list[int]:
    """Offsets where sentences begin (0 first)."""
    return list(_sentence_starts(text))


@lru_cache(maxsize=256)
def _sentence_starts(text: str) -> tuple[int, ...]:
    # cached: every stage splits the same answer (and the data's prose, once per string)
    return (0, *(m.end() for m in SENTENCE_END.finditer(text)))


def sentence_bounds(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence, whitespace and all: together they cover ``text``."""
    starts = sentence_starts(text)
    return list(zip(starts, [*starts[1:], len(text)], strict=True))


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence, trimmed of surrounding whitespace; empty ones left out."""
    spans = []
    for left, right in sentence_bounds(text):
        sentence = text[left:right]
        start, end = left + len(sentence) - len(sentence.lstrip()), left + len(sentence.rstrip())
        if end > start:
            spans.append((start, end))
    return spans


def sentence_around(text: str, start: int, end: int) -> str:
    """The sentence holding ``text[start:end]``."""
    starts = _sentence_starts(text)  # ascending, 0 first: bisected, not scanned per figure
    left = starts[bisect.bisect_right(starts, start) - 1]
    after = bisect.bisect_left(starts, end)
    right = starts[after] if after < len(starts) else len(text)
    return text[left:right]


def scope_starts(text: str) -> list[int]:
    """Offsets where sentences or clauses begin, in order."""
    return list(_scope_starts(text))


@lru_cache(maxsize=64)
def _scope_starts(text: str) -> tuple[int, ...]:
    return tuple(sorted(set(_sentence_starts(text)) | {m.end() for m in CLAUSE_BREAK.finditer(text)}))


def clause_spans(sentence: str) -> list[tuple[int, int]]:
    """(start, end) of each clause of one sentence (cut after each :data:`CLAUSE_BREAK`),
    blank ones left out."""
    starts = [0] + [m.end() for m in CLAUSE_BREAK.finditer(sentence)]
    ends = [*starts[1:], len(sentence)]
    return [(a, b) for a, b in zip(starts, ends, strict=True) if sentence[a:b].strip()]


def clause_tail(window: str, *, commas: bool = False, markup: bool = True, line_breaks: bool = True) -> str:
    """The text of ``window`` after its last clause end: the clause its last word stands
    in. A clause ends at a sentence's end, a colon or a semicolon followed by a space;
    ``commas`` ends one at a comma too, ``markup`` lets markdown emphasis stand between
    the mark and the space, ``line_breaks`` ends one at a line break alone."""
    cut = [m.end() for m in _clause_end(commas, markup, line_breaks).finditer(window)]
    return window[cut[-1] if cut else 0:]


@lru_cache(maxsize=8)
def _clause_end(commas: bool, markup: bool, line_breaks: bool) -> re.Pattern[str]:
    return re.compile(_CLAUSE_END.format(
        comma="," if commas else "", markup=r"[*_`]*" if markup else "", line_break=r"| \n" if line_breaks else ""),
        re.VERBOSE)


def data_clauses(text: str) -> list[tuple[int, str]]:
    """The clauses of the data's prose (:data:`DATA_CLAUSE_END`), each with where it starts."""
    ends = [m.start() for m in DATA_CLAUSE_END.finditer(text)] + [len(text)]
    return [(start, text[start:end]) for start, end in zip([0, *ends[:-1]], ends, strict=True)]
