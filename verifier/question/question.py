"""The question, read once: what the question-side checks compare an answer with.

A verification asks one question of its answer, and several stages read the same
things from it: the words it names rows and columns by, the periods it names, whether
it asks for a computation, which figures and tickers it states. :func:`read_question`
reads them once per call (and once per question and extractor: a conversation asks
one question of several answers, retries and variants); the ``question`` stage puts the
result on the State (``State.asked``) for the stages after it. What is read from the
question and a haystack together (which row of a table it names) is not here: that
depends on the table (:mod:`verifier.question.naming`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from verifier import stoplists

from .. import yearquarter
from ..extract import Extractor, Mention
from ..text import acronyms
from ..text.cues import cue_terms, cue_words
from ..text.sentences import content_words
from ..yearquarter import Period


@dataclass(frozen=True, slots=True)
class Question:
    """What one question says, read once (:func:`read_question`)."""

    text: str  # as asked: what is read by position (a ratio's sides, names between commas)
    words: frozenset[str]  # its content words, stemmed (:func:`content_words`)
    naming: frozenset[str]  # what it names rows and columns by: ``words`` and its years
    periods: tuple[Period, ...]  # the years and quarters it names, in order, once each
    cues: tuple[str, ...]  # the operations its wording points to ("average" -> mean), in order
    computes: bool  # it asks for a number computed from the table (:func:`computes`)
    respective: bool  # it lists values "respectively"
    mentions: tuple[Mention, ...]  # every figure, date, period and ticker it states
    tickers: tuple[Mention, ...]  # its ticker mentions (read without years or quotes)
    defined_terms: frozenset[str]  # the acronyms it defines ("DPO" beside "Days Payable Outstanding")


@lru_cache(maxsize=1024)
def read_question(text: str, ex: Extractor) -> Question:
    """``text`` read once with ``ex`` (the call's extractor: its locale and stop-words)."""
    return Question(
        text=text,
        words=frozenset(content_words(text)),
        naming=naming_words(text),
        periods=question_periods(ex, text),
        cues=cue_words(text),
        computes=computes(text),
        respective=RESPECTIVE.search(text) is not None,
        mentions=tuple(ex.extract(text)),
        tickers=question_tickers(ex, text),
        defined_terms=acronyms.defined_terms(text),
    )


@lru_cache(maxsize=1024)
def question_periods(ex: Extractor, question: str) -> tuple[Period, ...]:
    """The years and quarters a question names, in order, once each; a full date names
    its year ("as of October 31, 2019 and 2018" names two)."""
    found: dict[Period, None] = {}
    for m in ex.extract(question, quoted=False):
        period = yearquarter.of_mention(m, days=True)
        if period is not None:
            found[period] = None
    return tuple(found)


RESPECTIVE = re.compile(r"(?i)\brespective(?:ly)?\b")


def computes(question: str) -> bool:
    """Whether the question asks for a number computed from the table ("the change in",
    "the average"); not a comparison ("which year was higher") or a quantity a row
    names ("the gross margin"), nor values listed "respectively"."""
    if RESPECTIVE.search(question):
        return False
    lookup = stoplists.load("not_computing_cues")
    return any(w not in lookup for w in cue_terms(question))


def naming_words(question: str) -> frozenset[str]:
    """What a question names rows by: its content words, and its years (a row labelled
    "2023" in a lease schedule is named by the year)."""
    return frozenset(content_words(question)) | frozenset(yearquarter.YEAR_IN_TEXT.findall(question))


@lru_cache(maxsize=1024)
def question_tickers(ex: Extractor, question: str) -> tuple[Mention, ...]:
    """The ticker mentions of a question (cached: a conversation asks one question of
    several answers, retries and variants)."""
    return tuple(m for m in ex.extract(question, years=False, quoted=False) if m.kind == "ticker")
