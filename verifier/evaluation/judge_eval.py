"""``verifier judge-eval``: measure a configured model judge against labelled sentences,
so users can check their judge before trusting it.

A dataset is JSONL, one case a line::

    {"id": "...", "tool_results": [...], "sentence": "...", "label": "supported" | "unsupported" | "partial",
     "answer": "<optional: the whole answer the sentence comes from>", "locale": "en_US", "question": "..."}

Each sentence is judged exactly as the verify pass would judge it: the deterministic
stages run first, the judge is shown only the records tied to the sentence, and its
quote is checked against the tool data. Measures, over the cases the judge answered:
agreement (checked verdict equals the label; ``unverified`` counts as ``unsupported``,
since the product does not believe it), and precision / recall with ``unsupported`` as
the positive class; plus a confusion table, how many faults left cases not judged,
how often ``supported`` quotes were verified, and latency percentiles.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from .. import pipeline
from .._errors import InputError
from ..index.haystack import Haystack
from ..inputs.jsonio import read_jsonl
from ..judge import Judge, evidence_for, judge_sentence
from ..judge.evidence import sentence_leaves
from ..judge.stakes import high_stakes
from ..models import Judgement
from ..policy import Policy
from ..state import State

Label = Literal["supported", "unsupported", "partial"]


class JudgeCase(BaseModel):
    """One labelled sentence."""

    id: str
    tool_results: object
    sentence: str = Field(min_length=1)
    label: Label
    answer: str | None = None
    locale: str = "en_US"
    question: str | None = None


class JudgeEvalResult(BaseModel):
    """``verifier judge-eval`` output."""

    dataset: str
    model: str
    cases: int
    judged: int = Field(description="Cases the judge answered (not not_judged).")
    not_judged: int = Field(description="Cases a fault (timeout, error, unparseable output) left unjudged.")
    agreement: float = Field(description="Share of judged cases whose checked verdict equals the label.")
    precision: float = Field(description="Of the judged cases called unsupported (or unverified), the share labelled unsupported.")
    recall: float = Field(description="Of the judged cases labelled unsupported, the share called unsupported (or unverified).")
    quote_verified_rate: float = Field(description="Share of the judge's 'supported' verdicts whose quote was in the data.")
    confusion: dict[str, dict[str, int]] = Field(description="label -> checked verdict -> count.")
    disagreements: list[str] = Field(description="Ids of judged cases whose verdict differs from the label.")
    errors: list[str] = Field(description="Ids of not-judged cases, with the note.")
    latency_ms: dict[str, float] = Field(description="Judge latency percentiles (p50, p90, max).")


def load_cases(path: str | Path) -> list[JudgeCase]:
    """The cases of a judge-eval JSONL file; errors name the line."""
    cases = []
    for where, record in read_jsonl(path):
        try:
            case = JudgeCase.model_validate(record)
        except ValidationError as exc:
            problem = exc.errors()[0]
            raise InputError(f"{'.'.join(map(str, problem['loc']))}: {problem['msg']}", where) from None
        text = case.answer if case.answer is not None else case.sentence
        if case.sentence not in text:
            raise InputError("the sentence is not in the answer", where)
        cases.append(case)
    return cases


def judge_case(case: JudgeCase, judge: Judge) -> Judgement:
    """The judge's checked verdict on one case, as the verify pass would reach it."""
    answer = case.answer if case.answer is not None else case.sentence
    start = answer.index(case.sentence)
    end = start + len(case.sentence)
    hay = Haystack(case.tool_results, locale=case.locale)
    state = pipeline.run(State(answer, hay, case.locale, Policy(), case.question),
                only=("extract", "match", "attribute", "stale", "derive"))
    mentions = [m for m, _ in state.matched if start <= m.start < end]
    stakes = next((s.reasons for s in high_stakes(answer) if s.start <= start < s.end), ())
    return judge_sentence(judge, sentence=case.sentence, start=start, end=end,
                          evidence=evidence_for(hay, sentence_leaves(mentions, hay)), hay=hay,
                          stakes=stakes)


def _checked(verdict: str) -> str:
    return "unsupported" if verdict == "unverified" else verdict


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def run(cases: Iterable[JudgeCase], judge: Judge, dataset: str = "",
        progress: Callable[[], None] | None = None) -> JudgeEvalResult:
    """Judge every case and score the verdicts against the labels."""
    pairs: list[tuple[JudgeCase, Judgement]] = []
    for case in cases:
        pairs.append((case, judge_case(case, judge)))
        if progress:
            progress()
    judged = [(c, j) for c, j in pairs if j.verdict != "not_judged"]
    confusion: dict[str, dict[str, int]] = {}
    for case, j in judged:
        row = confusion.setdefault(case.label, {})
        row[j.verdict] = row.get(j.verdict, 0) + 1
    agree = [c.id for c, j in judged if _checked(j.verdict) == c.label]
    called = [c for c, j in judged if _checked(j.verdict) == "unsupported"]
    labelled = [c for c, _ in judged if c.label == "unsupported"]
    hits = sum(1 for c in called if c.label == "unsupported")
    supported = [j for _, j in judged if j.verdict in ("supported", "unverified")]
    latencies = [j.latency_ms for _, j in judged]
    return JudgeEvalResult(
        dataset=dataset,
        model=str(getattr(judge, "model", "")),
        cases=len(pairs),
        judged=len(judged),
        not_judged=len(pairs) - len(judged),
        agreement=round(len(agree) / len(judged), 4) if judged else 0.0,
        precision=round(hits / len(called), 4) if called else 0.0,
        recall=round(hits / len(labelled), 4) if labelled else 0.0,
        quote_verified_rate=round(sum(j.quote_verified for j in supported) / len(supported), 4) if supported else 0.0,
        confusion=confusion,
        disagreements=[c.id for c, j in judged if _checked(j.verdict) != c.label],
        errors=[f"{c.id}: {j.reason}" for c, j in pairs if j.verdict == "not_judged"],
        latency_ms={"p50": _percentile(latencies, 0.5), "p90": _percentile(latencies, 0.9),
                    "max": round(max(latencies), 2) if latencies else 0.0,
                    "mean": round(statistics.fmean(latencies), 2) if latencies else 0.0},
    )
