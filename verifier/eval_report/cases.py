"""The cases the eval report shows: every false alarm (a clean answer the verifier
flagged), every miss (a faulty answer it did not) and, with ``--compare``, every case
whose outcome changed; each with what ``badge.js`` needs to draw it as the demo page
does: the badge, the message and the answer's highlights.

A flagged answer's highlights are the report's own (the flagged values) plus its flagged
sentence notes that overlap none of them; an unflagged one has none of its own, so its
labelled faults are drawn instead, with the status ``missed``. Offsets stay code points,
as the report's are (``badge.js`` converts them).
"""

from __future__ import annotations

from typing import Any

from ..evaluation.evaluate import fault_spans, flagged_spans
from ..models import Report
from .compare import Outcome, outcome


def _note_highlights(report: Report, taken: list[tuple[int, int]]) -> list[dict[str, Any]]:
    out = []
    for note in report.notes:
        if not note.flagged or note.start is None or note.end is None:
            continue
        if any(s < note.end and note.start < e for s, e in taken):
            continue
        out.append({"start": note.start, "end": note.end, "text": "", "kind": note.kind,
                    "status": "note", "reason": note.message})
        taken.append((note.start, note.end))
    return out


def shown_case(record: dict[str, Any], report: Report, keep: bool = False) -> dict[str, Any] | None:
    """The report's entry for ``record``: None, unless ``keep``, when it is neither a false
    alarm nor a miss."""
    flagged = bool(flagged_spans(report))
    result = outcome(record["label"], flagged)
    if not keep and result not in ("false alarm", "missed"):
        return None
    answer: str = record["answer"]
    warnings = report.warnings.model_dump(mode="json", include={"badge", "message", "highlights"})
    if flagged:
        taken = [(h.start, h.end) for h in report.warnings.highlights]
        notes = _note_highlights(report, taken)
        for note in notes:
            note["text"] = answer[note["start"]:note["end"]]
        warnings["highlights"] = sorted(warnings["highlights"] + notes, key=lambda h: h["start"])
    else:
        warnings["highlights"] = [
            {"start": s, "end": e, "text": answer[s:e], "kind": kind, "status": "missed",
             "reason": f"a labelled {kind} fault the verifier did not flag"}
            for s, e, kind in sorted(fault_spans(answer, record.get("faults", [])))]
    return {
        "id": str(record["id"]), "label": record["label"],
        "outcome": result,
        "question": record.get("question") or "", "answer": answer,
        "report": {"confidence": report.confidence, "score": report.score, "warnings": warnings},
        "notes": [n.message for n in report.notes if n.flagged],
        "faults": [{"text": str(f.get("text", "")), "kind": str(f.get("kind", "unknown"))}
                   for f in record.get("faults", [])],
    }


class Collector:
    """An ``on_report`` hook for ``evaluate.run`` that keeps the false alarms, the misses
    and the cases whose outcome differs from ``before`` (id -> outcome of the earlier run);
    only those: a large set's reports are not all held in memory."""

    def __init__(self, before: dict[str, Outcome] | None = None) -> None:
        self.before = before or {}
        self.cases: list[dict[str, Any]] = []

    def __call__(self, record: dict[str, Any], report: Report) -> None:
        then = self.before.get(str(record["id"]))
        case = shown_case(record, report, keep=then is not None)
        if case is not None and (then is None or then != case["outcome"]
                                 or case["outcome"] in ("false alarm", "missed")):
            self.cases.append(case)
