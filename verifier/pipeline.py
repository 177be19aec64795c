"""The verify pass: one state object moves through the stages in order.

Stages (each a small function ``stage(state) -> None`` that sets its own fields):
``extract`` (answer -> mentions), ``match`` (mentions -> (mention, item) pairs),
``attribute``, ``stale`` and ``derive`` (revise those items), ``score`` (items ->
report). The judge will slot in before ``score``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from normalizers import NormalizeError, number_symbols

from . import score as scoring
from ._errors import InputError, LimitError
from .attribute import attribute, sentence_around
from .derive import Budget, cue_words, derive, focus_words, suggestion_name
from .extract import NUMERIC_KINDS, Mention, extractor
from .haystack import Haystack
from .match import derived_item, match, stale_item
from .models import SUPPORTED_STATUSES, Item, Report, Suggestion
from .policy import Policy

VERSION = "0.1.0"


@dataclass
class State:
    """Everything one verification knows, filled in stage by stage."""

    answer: str
    haystack: Haystack
    locale: str
    policy: Policy
    question: str | None = None
    history: Haystack | None = None  # earlier turns' tool results
    mentions: list[Mention] = field(default_factory=list)
    matched: list[tuple[Mention, Item]] = field(default_factory=list)  # each value and its verdict
    suggestions: list[Suggestion] = field(default_factory=list)
    report: Report | None = None


def extract_stage(state: State) -> None:
    """Read the answer's values."""
    ex = extractor(state.locale, tuple(state.policy.extra_stopwords))
    state.mentions = ex.extract(
        state.answer, years=state.policy.check_years, quoted=state.policy.check_quotes
    )


def match_stage(state: State) -> None:
    """Look each value up in the haystack."""
    pairs = ((m, match(m, state.haystack, state.policy)) for m in state.mentions)
    state.matched = [(m, item) for m, item in pairs if item is not None]


def attribute_stage(state: State) -> None:
    """Values taken from another ticker's record are misattributed, not supported."""
    items = attribute(state.answer, state.matched, state.haystack)
    state.matched = [(m, item) for (m, _), item in zip(state.matched, items, strict=True)]


def stale_stage(state: State) -> None:
    """A value the current tool results lack but an earlier turn's hold is ``stale``."""
    if state.history is None:
        return
    for i, (mention, item) in enumerate(state.matched):
        if item.status == "unsupported":
            earlier = match(mention, state.history, state.policy)
            if earlier is not None and earlier.status in SUPPORTED_STATUSES:
                state.matched[i] = (mention, stale_item(mention, earlier))


def derive_stage(state: State) -> None:
    """Recognise values computed from the data; each becomes a missing-field suggestion."""
    if not state.policy.derive:
        return
    hay, budget = state.haystack, state.policy.max_derive_items
    asked = focus_words(state.question) if state.question else frozenset()
    work = Budget(state.policy.derive_max_work)
    matched: list[tuple[Mention, Item]] = []
    for mention, item in state.matched:
        if item.status == "unsupported" and mention.kind in NUMERIC_KINDS and not mention.invalid and budget > 0:
            budget -= 1
            sentence = sentence_around(state.answer, mention.start, mention.end)
            focus = asked | focus_words(sentence)
            cues = cue_words(sentence + " " + (state.question or ""))
            found = None if work.exhausted else derive(
                mention, hay, state.policy.derive_max_chance, focus, cues, work)
            if found is not None:
                tool = hay.tool_of(found.operands[0])
                item = derived_item(mention, hay, found.operands, found.expression,
                                    f"computed from the data: {found.expression} in {tool.name}")
                name = suggestion_name(found, hay)
                state.suggestions.append(Suggestion.model_construct(
                    tool=tool.name, field=name, expression=found.expression, op=found.op,
                    text=f"add field {name} = {found.expression} to tool {tool.name}",
                ))
            elif work.exhausted:
                item = item.model_copy(update={"reason": item.reason + " (derivation search skipped: "
                                               "its work budget for this answer was spent)"})
        matched.append((mention, item))
    state.matched = matched


def score_stage(state: State) -> None:
    """Turn items into confidence, action and warnings."""
    items, policy = [item for _, item in state.matched], state.policy
    confidence, score = scoring.confidence_of(items, policy)
    state.report = Report.model_construct(
        confidence=confidence,
        score=round(score, 4),
        action=scoring.action_of(confidence, score, policy),
        checked=len(items),
        flagged=sum(1 for item in items if item.flagged),
        counts=scoring.counts_of(items),
        items=items,
        warnings=scoring.warnings_of(items, confidence),
        suggestions=state.suggestions,
        locale=state.locale,
        version=VERSION,
    )


#: The stages, in order. Tests and later issues insert stages here.
STAGES: list[Callable[[State], None]] = [
    extract_stage, match_stage, attribute_stage, stale_stage, derive_stage, score_stage,
]


def verify(
    answer: str,
    tool_results: Any = None,
    *,
    question: str | None = None,
    locale: str = "en_US",
    policy: Policy | dict[str, Any] | None = None,
    haystack: Haystack | None = None,
    history: Any = None,
) -> Report:
    """Check ``answer`` against ``tool_results`` and return a :class:`Report`.

    ``tool_results`` is a list of ``{"name", "output"[, "id"]}`` or any JSON value; pass
    a prebuilt ``haystack`` instead to verify many answers over the same results.
    ``history`` holds earlier turns' tool results (same forms, or a Haystack): a value
    found only there is ``stale``.
    Raises :class:`InputError` / :class:`LimitError` (both ``ValueError``) for unusable
    input; never anything from deep inside.
    """
    if policy is None:
        policy = Policy()
    elif isinstance(policy, dict):
        try:
            policy = Policy.model_validate(policy)
        except ValueError as exc:
            raise InputError(str(exc), "policy") from None
    elif not isinstance(policy, Policy):
        raise InputError(f"must be a Policy or a dict of its fields, got {type(policy).__name__}", "policy")
    if not isinstance(answer, str):
        raise InputError(f"must be a string, got {type(answer).__name__}", "answer")
    if not answer.strip():
        raise InputError("is empty: there is nothing to verify", "answer")
    if len(answer) > policy.max_answer_chars:
        raise LimitError("answer length in characters", len(answer), policy.max_answer_chars)
    if question is not None and not isinstance(question, str):
        raise InputError(f"must be a string or None, got {type(question).__name__}", "question")
    try:
        number_symbols(locale)
    except NormalizeError as exc:
        raise InputError(str(exc), "locale") from None
    if haystack is None:
        if tool_results is None:
            raise InputError("missing (None): pass the tool results, or haystack= a prebuilt Haystack",
                             "tool_results")
        haystack = Haystack(tool_results, locale=locale, max_leaves=policy.max_leaves)
    elif tool_results is not None:
        raise InputError("give tool_results or haystack, not both", "haystack")
    if history is not None and not isinstance(history, Haystack):
        history = Haystack(history, locale=locale, max_leaves=policy.max_leaves)
    state = State(answer, haystack, locale, policy, question, history)
    for stage in STAGES:
        stage(state)
    assert state.report is not None
    return state.report
