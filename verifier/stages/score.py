"""score: items (and the judge's verdicts) become a confidence, an action, warnings and
the Report."""

from __future__ import annotations

from .._version import VERSION
from ..checks import score as scoring
from ..models import SUPPORTED_STATUSES, Confidence, Judgement, Report, construct
from ..state import State

REQUIRES = frozenset({"matched", "question", "judgements", "notes", "suggestions", "sentence_checks", "locale",
                      "policy"})
ASSIGNS = frozenset({"report"})


#: Verdicts that lower confidence (at most 'medium'): the judge doubts the sentence.
_DOUBTED = frozenset({"unsupported", "partial", "unverified"})


def _judged_confidence(confidence: Confidence, judgements: list[Judgement]) -> tuple[Confidence, list[Judgement]]:
    """Confidence after the judge: a doubted sentence caps it at 'medium'. Monitoring
    samples are recorded, not applied; not_judged changes nothing."""
    doubted = [j for j in judgements if j.verdict in _DOUBTED and j.trigger != "sampled"]
    if doubted and confidence == "high":
        return "medium", doubted
    return confidence, doubted


_JUDGE_HINT = {
    "unsupported": "is not supported by the tool results",
    "partial": "is only partly supported by the tool results",
    "unverified": "could not be tied to a quote from the tool results",
}


def run(state: State) -> None:
    """Turn items (and the judge's verdicts) into confidence, action and warnings."""
    items, policy = [item for _, item in state.matched], state.policy
    # a date that only repeats the question's ("... in 2019" for "revenue in 2019"), or a
    # figure the question states, says nothing the question did not: it neither lifts nor
    # lowers the score
    asked = (state.question or "").lower()
    scored = [item for item in items if item.status != "stated" and not (
        asked and item.kind in ("date", "period") and item.status in SUPPORTED_STATUSES
        and item.text.lower() in asked)] or items
    confidence, score = scoring.confidence_of(scored, policy)
    confidence, doubted = _judged_confidence(confidence, state.judgements)
    confidence = scoring.noted_confidence(confidence, state.notes)
    warnings = scoring.warnings_of(items, confidence, state.notes)
    if doubted:
        many = len(doubted) > 1
        note = (f"A model judge doubts {len(doubted)} high-stakes sentence{'s' if many else ''} "
                f"({', '.join(sorted({j.verdict for j in doubted}))}); check {'them' if many else 'it'} "
                "before acting on this answer.")
        lines = "\n".join(f"- the sentence {j.sentence!r} {_JUDGE_HINT[j.verdict]} (model judge)"
                          for j in doubted)
        hint = (f"{warnings.retry_hint}\n{lines}" if warnings.retry_hint else
                "Some sentences in your previous answer are not supported by the tool results:\n"
                f"{lines}\nRewrite them using only what the tool results state, or leave them out.")
        warnings = warnings.model_copy(update={"message": f"{warnings.message} {note}", "retry_hint": hint})
    state.report = construct(Report,
        confidence=confidence,
        score=round(score, 4),
        action=scoring.action_of(confidence, score, policy),
        checked=len(items),
        flagged=sum(1 for item in items if item.flagged),
        counts=scoring.counts_of(items),
        items=items,
        warnings=warnings,
        suggestions=state.suggestions,
        judgements=state.judgements,
        sentences=state.sentence_checks,
        notes=state.notes,
        locale=state.locale,
        version=VERSION,
    )
