"""``verifier suggest``: missing derived fields, aggregated over many answers.

Every value an answer computed from the data (a difference, a percent change, an
average) is a field the tool could have returned. Across many reports, the fields
the assistants keep computing are the ones worth adding, so they are counted per
tool and field name, most frequent first.

Input: one JSON object a line, either a report (``verifier check --format json``,
the service's audit log) or a case to verify (``answer`` and ``tool_results``, with
optional ``question`` and ``locale``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, Field

from ._errors import InputError
from .pipeline import verify


class FieldSuggestion(BaseModel):
    """One missing field and how often answers computed it."""

    tool: str
    field: str
    op: str
    count: int = Field(description="Answers that computed this value.")
    expression: str = Field(description="The most recent expression, over that tool's JSONPaths.")
    text: str = Field(description="The suggestion for the tool's owner.")


def _suggestions_of(record: dict[str, Any], where: str) -> list[dict[str, Any]]:
    if "suggestions" in record:
        found = record["suggestions"]
        if not isinstance(found, list):
            raise InputError("'suggestions' must be a list", where)
        return [s for s in found if isinstance(s, dict)]
    if "answer" in record and "tool_results" in record:
        report = verify(record["answer"], record["tool_results"], question=record.get("question"),
                        locale=record.get("locale") or "en_US")
        return [s.model_dump() for s in report.suggestions]
    raise InputError("a line must be a report (with 'suggestions') or a case ('answer' and 'tool_results')",
                     where)


def aggregate(records: Iterable[tuple[str, dict[str, Any]]]) -> list[FieldSuggestion]:
    """Suggestions counted over ``(where, record)`` pairs, most frequent first."""
    counts: Counter[tuple[str, str, str]] = Counter()
    latest: dict[tuple[str, str, str], str] = {}
    for where, record in records:
        for s in _suggestions_of(record, where):
            try:
                key = (str(s["tool"]), str(s["field"]), str(s.get("op", "")))
            except KeyError as exc:
                raise InputError(f"suggestion without {exc.args[0]!r}", where) from None
            counts[key] += 1
            latest[key] = str(s.get("expression", ""))
    return [
        FieldSuggestion(tool=tool, field=field, op=op, count=n, expression=latest[(tool, field, op)],
                        text=f"add field {field} = {latest[(tool, field, op)]} to tool {tool}")
        for (tool, field, op), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]

