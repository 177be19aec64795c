"""A report as plain text: the answer with its flagged spans in ``[[...]]`` and one line
per flagged value, note and judge verdict with its reason. What a test failure or a log
line shows, where no colour and no table can be assumed."""

from __future__ import annotations

from ..models import Report

#: Verdicts of the model judge that count against the answer.
_AGAINST = frozenset({"unsupported", "partial", "unverified"})


def marked(answer: str, report: Report) -> str:
    """``answer`` with each flagged value wrapped in ``[[`` ``]]`` (overlaps: the first)."""
    parts, last = [], 0
    for item in sorted((i for i in report.items if i.flagged), key=lambda i: i.start):
        if item.start >= last:
            parts += [answer[last:item.start], "[[", answer[item.start:item.end], "]]"]
            last = item.end
    return "".join(parts) + answer[last:]


def explain(answer: str, report: Report) -> str:
    """The report's verdict, the marked answer and what was flagged, line by line."""
    verdict = (f"confidence {report.confidence} (score {report.score:.2f}, action {report.action}): "
               f"{report.flagged} of {report.checked} values flagged")
    lines = [verdict, "  " + marked(answer, report).replace("\n", "\n  ")]
    lines += [f"  - {i.text!r} ({i.kind}) {i.status}: {i.reason}" for i in report.items if i.flagged]
    lines += [f"  - note ({n.kind}): {n.message}" for n in report.notes if n.flagged]
    lines += [f"  - judge ({j.model or 'model'}) on {j.sentence!r}: {j.verdict}: {j.reason}"
              for j in report.judgements if j.verdict in _AGAINST]
    if report.warnings.retry_hint:
        lines.append("retry hint: " + report.warnings.retry_hint)
    return "\n".join(lines)
