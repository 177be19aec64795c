"""``verifier eval``: run a labelled set and measure the verifier against it, with the
naive baseline (``verifier.evaluation.baseline``) run on the same cases in the same process.

A case is *flagged* when its report has at least one flagged item. Measures:
clean pass rate (clean cases not flagged), faulty catch rate (faulty cases flagged),
localisation (labelled faults overlapped by a flagged span), answer-level
precision/recall/F1 with "faulty" as the positive class, per fault kind, and verify
latency percentiles. Each verified case's outcome and latency is kept too (``cases``), so two
runs can be compared case by case and the latency drawn as a distribution
(``verifier.eval_report``).
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from .._errors import InputError
from ..inputs.jsonio import read_jsonl
from ..models import Report
from ..pipeline import verify
from . import baseline


class Scores(BaseModel):
    """Accuracy of one verifier on a labelled set."""

    cases: int
    clean: int
    faulty: int
    clean_pass_rate: float = Field(description="Share of clean answers with no flag.")
    faulty_catch_rate: float = Field(description="Share of faulty answers with at least one flag.")
    localisation: float = Field(description="Share of labelled faults overlapped by a flagged span.")
    precision: float
    recall: float
    f1: float
    per_kind: dict[str, dict[str, int]] = Field(description="Per fault kind: total and caught (localised).")
    false_alarms: list[str] = Field(description="Ids of clean cases that were flagged.")
    misses: list[str] = Field(description="Ids of faulty cases that were not flagged.")


class CaseResult(BaseModel):
    """One verified case of the set: what the verifier made of it."""

    id: str
    label: str = Field(description="clean or faulty, as labelled.")
    flagged: bool = Field(description="The report flagged at least one span.")
    faults: int = Field(0, description="Labelled faults found in the answer.")
    located: int = Field(0, description="Of those, how many a flagged span overlaps.")
    latency_ms: float


class EvalResult(BaseModel):
    """``verifier eval`` output."""

    dataset: str
    verifier: Scores
    baseline: Scores
    latency_ms: dict[str, float] = Field(description="Verify latency percentiles (p50, p90, p99, max).")
    baseline_latency_ms: dict[str, float]
    errors: list[str] = Field(default_factory=list, description="Cases that raised, with the message.")
    cases: list[CaseResult] = Field(default_factory=list, description="The verifier's outcome per case, in order.")


def load_dataset(path: str | Path) -> list[dict[str, Any]]:
    """The records of a JSONL labelled set; errors name the line."""
    records = []
    for where, record in read_jsonl(path):
        for field in ("answer", "tool_results", "label"):
            if field not in record:
                raise InputError(f"missing field {field!r}", where)
        if record["label"] not in ("clean", "faulty"):
            raise InputError(f"label must be 'clean' or 'faulty', got {record['label']!r}", where)
        record.setdefault("id", "line" + where.rsplit(":", 1)[-1])
        records.append(record)
    return records


def fault_spans(answer: str, faults: list[dict[str, Any]]) -> list[tuple[int, int, str]]:
    """(start, end, kind) of each labelled fault found in ``answer`` (its first occurrence)."""
    out = []
    for fault in faults:
        text = fault.get("text", "")
        at = answer.find(text) if text else -1
        if at >= 0:
            out.append((at, at + len(text), fault.get("kind", "unknown")))
    return out


def _overlaps(span: tuple[int, int, str], flagged: list[tuple[int, int]]) -> bool:
    return any(s < span[1] and span[0] < e for s, e in flagged)


class _Tally:
    def __init__(self) -> None:
        self.tp = self.fp = self.fn = self.tn = 0
        self.faults = self.located = 0
        self.kinds: dict[str, dict[str, int]] = defaultdict(lambda: {"total": 0, "caught": 0})
        self.false_alarms: list[str] = []
        self.misses: list[str] = []

    def add(self, record: dict[str, Any], flagged: list[tuple[int, int]]) -> int:
        """Count one case; returns how many of its labelled faults ``flagged`` overlaps."""
        faulty = record["label"] == "faulty"
        hit = bool(flagged)
        if faulty and hit:
            self.tp += 1
        elif faulty:
            self.fn += 1
            self.misses.append(record["id"])
        elif hit:
            self.fp += 1
            self.false_alarms.append(record["id"])
        else:
            self.tn += 1
        found = 0
        for span in fault_spans(record["answer"], record.get("faults", [])):
            located = _overlaps(span, flagged)
            found += located
            self.faults += 1
            self.located += located
            self.kinds[span[2]]["total"] += 1
            self.kinds[span[2]]["caught"] += located
        return found

    def scores(self) -> Scores:
        clean, faulty = self.tn + self.fp, self.tp + self.fn
        precision = self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        recall = self.tp / faulty if faulty else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return Scores(
            cases=clean + faulty, clean=clean, faulty=faulty,
            clean_pass_rate=round(self.tn / clean, 4) if clean else 0.0,
            faulty_catch_rate=round(recall, 4),
            localisation=round(self.located / self.faults, 4) if self.faults else 0.0,
            precision=round(precision, 4), recall=round(recall, 4), f1=round(f1, 4),
            per_kind=dict(self.kinds), false_alarms=self.false_alarms, misses=self.misses,
        )


def flagged_spans(report: Report) -> list[tuple[int, int]]:
    """Flagged items' spans and flagged notes' sentence spans."""
    spans = [(i.start, i.end) for i in report.items if i.flagged]
    spans += [(n.start, n.end) for n in report.notes if n.flagged and n.start is not None and n.end is not None]
    return spans


def percentiles(samples: list[float]) -> dict[str, float]:
    """Nearest-rank p50/p90/p99 and max of ``samples`` (milliseconds)."""
    if not samples:
        return {"p50": 0.0, "p90": 0.0, "p99": 0.0, "max": 0.0}
    ordered = sorted(samples)

    def rank(p: float) -> float:
        return ordered[min(len(ordered) - 1, max(0, int(-(-p * len(ordered) // 100)) - 1))]

    return {k: round(v, 4) for k, v in
            {"p50": rank(50), "p90": rank(90), "p99": rank(99), "max": ordered[-1]}.items()}


def run(records: Iterable[dict[str, Any]], dataset: str = "",
        progress: Callable[[], None] | None = None,
        on_report: Callable[[dict[str, Any], Report], None] | None = None) -> EvalResult:
    """Verify every record with the verifier and the naive baseline; score both.
    ``on_report(record, report)`` is called with each verified record's report (the HTML
    report keeps the false alarms' and misses')."""
    ours, naive = _Tally(), _Tally()
    cases: list[CaseResult] = []
    times: list[float] = []
    naive_times: list[float] = []
    errors: list[str] = []
    for record in records:
        try:
            t0 = time.perf_counter()
            report = verify(record["answer"], record["tool_results"], question=record.get("question"),
                            locale=record.get("locale") or "en_US", history=record.get("history"))
            times.append((time.perf_counter() - t0) * 1000)
        except ValueError as exc:
            errors.append(f"{record['id']}: {exc}")
            continue
        spans = flagged_spans(report)
        located = ours.add(record, spans)
        cases.append(CaseResult(id=record["id"], label=record["label"], flagged=bool(spans),
                                faults=len(fault_spans(record["answer"], record.get("faults", []))),
                                located=located, latency_ms=round(times[-1], 4)))
        if on_report:
            on_report(record, report)
        t0 = time.perf_counter()
        missing = baseline.unsupported(record["answer"], record["tool_results"])
        naive_times.append((time.perf_counter() - t0) * 1000)
        naive.add(record, [(s, e) for s, e, _ in missing])
        if progress:
            progress()
    return EvalResult(
        dataset=dataset, verifier=ours.scores(), baseline=naive.scores(),
        latency_ms=percentiles(times), baseline_latency_ms=percentiles(naive_times), errors=errors,
        cases=cases,
    )
