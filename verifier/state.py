"""The state one verification carries from stage to stage.

The first fields are the call's inputs; each later field is assigned by the stage that
declares it in its ``ASSIGNS`` (see ``verifier/stages/``). A stage reads only the inputs
and what an earlier stage assigned (its ``REQUIRES``); ``tests/stages/test_contract.py``
checks both.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .extract import Mention
from .index.haystack import Haystack
from .judge.protocol import Judge
from .models import Item, Judgement, Note, Report, SentenceCheck, Suggestion
from .policy import Policy
from .question.question import Question
from .text.sentences import Sentence

#: The fields a verification starts with: the arguments of ``verify()``.
INPUTS = frozenset({"answer", "haystack", "locale", "policy", "question", "history", "judge"})


@dataclass
class State:
    """Everything one verification knows, filled in stage by stage."""

    answer: str
    haystack: Haystack
    locale: str
    policy: Policy
    question: str | None = None
    history: Haystack | None = None  # earlier turns' tool results
    judge: Judge | None = None  # the model judge; None: off, nothing is called
    asked: Question | None = None  # the question, read once (by the question stage); None without one
    mentions: list[Mention] = field(default_factory=list)
    matched: list[tuple[Mention, Item]] = field(default_factory=list)  # each value and its verdict
    sentences: list[Sentence] = field(default_factory=list)
    sentence_checks: list[SentenceCheck] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)  # findings about sentences or the answer
    suggestions: list[Suggestion] = field(default_factory=list)
    judgements: list[Judgement] = field(default_factory=list)
    report: Report | None = None
