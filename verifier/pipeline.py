"""The verify pass: one :class:`State` moves through the stages in order.

Each stage is a module of ``verifier/stages/`` with one ``run(state)`` and the State
fields it ``REQUIRES`` and ``ASSIGNS`` (``tests/stages/test_contract.py`` checks both).
A Policy switches a stage off by its name (``Policy.derive=False`` is the ``derive``
stage, ``check_polarity=False`` the ``polarity`` one).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Literal

from ._errors import InputError, LimitError
from ._version import VERSION
from .deadline import Deadline, check
from .index.haystack import Haystack
from .judge import Judge, judge_from_env
from .models import Report
from .normalizers import NormalizeError, canonical_locale
from .policy import Policy
from .stages import (
    arithmetic,
    attribute,
    candidates,
    cells,
    cited,
    conflicts,
    counts,
    derive,
    extract,
    ground,
    judge,
    match,
    polarity,
    question,
    score,
    stale,
)
from .state import State

__all__ = ["STAGES", "VERSION", "State", "run", "verify"]

#: The stages, in order: (name, run). Each reads what the ones before it assigned.
STAGES: tuple[tuple[str, Callable[[State], None]], ...] = (
    ("extract", extract.run),        # the answer's values, with spans
    ("match", match.run),            # each value looked up in the haystack
    ("attribute", attribute.run),    # another ticker's or period's record: misattributed
    ("ground", ground.run),          # sentences, citations, overlap with cited sources
    ("stale", stale.run),            # found only in an earlier turn's results
    ("question", question.run),      # what the question states; entities it asks about that the data lacks
    ("arithmetic", arithmetic.run),  # the answer's own computations, checked
    ("cells", cells.run),            # another row or column than the one the question names
    ("polarity", polarity.run),      # negations and direction words against the data
    ("conflicts", conflicts.run),    # sources that disagree
    ("cited", cited.run),            # values computed from figures their sentence states
    ("derive", derive.run),          # values computed from the data
    ("counts", counts.run),          # counts of a list's records sharing a field's value
    ("candidates", candidates.run),  # what the data has near each unsupported or drift number
    ("judge", judge.run),            # the model judge on high-stakes sentences
    ("score", score.run),            # confidence, action, warnings: the Report
)


def switched_off(policy: Policy) -> frozenset[str]:
    """The stages ``policy`` turns off, by name."""
    return frozenset(name for name, off in (("derive", not policy.derive), ("polarity", not policy.check_polarity))
                     if off)


def run(state: State, only: Iterable[str] | None = None) -> State:
    """Run the stages on ``state`` in order (``only``: just the stages named), skipping
    those its Policy switches off; returns the state."""
    wanted = None if only is None else frozenset(only)
    off = switched_off(state.policy)
    for name, stage in STAGES:
        if name not in off and (wanted is None or name in wanted):
            if name != "score":  # the judge keeps time for it: a judged answer gets its report
                check()
            stage(state)
    return state


def verify(
    answer: str,
    tool_results: Any = None,
    *,
    question: str | None = None,
    locale: str = "en_US",
    policy: Policy | dict[str, Any] | None = None,
    haystack: Haystack | None = None,
    history: Any = None,
    judge: Judge | Literal[False] | None = None,
) -> Report:
    """Check ``answer`` against ``tool_results`` and return a :class:`Report`.

    ``tool_results`` is a list of ``{"name", "output"[, "id"]}`` or any JSON value; pass
    a prebuilt ``haystack`` instead to verify many answers over the same results.
    ``history`` holds earlier turns' tool results (same forms, or a Haystack): a value
    found only there is ``stale``.
    ``judge`` is the model judge for high-stakes sentences (see ``verifier.judge``): by
    default (None) the one ``VERIFIER_JUDGE_URL`` configures, none when it is unset;
    False turns it off. A judge's fault never fails the call: the sentence is
    ``not_judged`` and the deterministic result stands.
    Raises :class:`InputError` / :class:`LimitError` (both ``ValueError``) for unusable
    input, :class:`DeadlineExceeded` (a LimitError) past ``Policy.deadline_ms``; never
    anything from deep inside.
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
    try:  # "en-US", "en_us": one spelling for every stage (a Babel call refuses "en-US")
        locale = canonical_locale(locale)
    except NormalizeError as exc:
        raise InputError(str(exc), "locale") from None
    if policy.deadline_ms is None:  # a deadline already active (the service's) still holds
        return _verify(answer, tool_results, question, locale, policy, haystack, history, judge)
    with Deadline(policy.deadline_ms).active():
        return _verify(answer, tool_results, question, locale, policy, haystack, history, judge)


def _verify(answer: str, tool_results: Any, question: str | None, locale: str, policy: Policy,
            haystack: Haystack | None, history: Any, judge: Judge | Literal[False] | None) -> Report:
    if haystack is None:
        if tool_results is None:
            raise InputError("missing (None): pass the tool results, or haystack= a prebuilt Haystack",
                             "tool_results")
        haystack = Haystack(tool_results, locale=locale, max_leaves=policy.max_leaves)
    elif tool_results is not None:
        raise InputError("give tool_results or haystack, not both", "haystack")
    if history is not None and not isinstance(history, Haystack):
        history = Haystack(history, locale=locale, max_leaves=policy.max_leaves)
    if judge is None:
        judge = judge_from_env()
    elif judge is False:
        judge = None
    elif not callable(getattr(judge, "judge", None)):
        raise InputError(f"must have a judge(claim, evidence) method, got {type(judge).__name__}", "judge")
    state = run(State(answer, haystack, locale, policy, question, history, judge=judge))
    assert state.report is not None
    return state.report
