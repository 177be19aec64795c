"""Flag-rate statistics over audit records: what ``GET /v1/stats`` returns.

The flag rate is the share of verifications with at least one flagged item; a rise after
a model or prompt change shows up as a group (``group_by=prompt_version``) with a higher
rate than its neighbours.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

GroupBy = Literal["model", "prompt_version", "tool", "day", "assistant"]


class KindCount(BaseModel):
    """How often flagged items of one kind and status occurred."""

    kind: str
    status: str
    count: int


class SuggestionCount(BaseModel):
    """A missing derived field and how many answers computed it."""

    text: str
    count: int


class GroupStats(BaseModel):
    """Statistics of one group of verifications."""

    key: str | None = Field(description="The group's value (a model, prompt version, tool or day); null: not given.")
    verifications: int
    flagged_verifications: int = Field(description="Verifications with at least one flagged item.")
    flag_rate: float = Field(description="flagged_verifications / verifications (0 when there are none).")
    flagged_items: int
    confidence: dict[str, int] = Field(description="Verifications per confidence (high, medium, low).")
    mean_score: float | None = Field(description="Mean supported share; null when there are no verifications.")
    top_flagged: list[KindCount] = Field(description="Most frequent flagged kinds and statuses.")
    top_suggestions: list[SuggestionCount] = Field(description="Most frequent missing derived fields.")


class Stats(BaseModel):
    """The answer of GET /v1/stats."""

    since: datetime | None
    until: datetime | None
    group_by: GroupBy | None
    total: GroupStats
    groups: list[GroupStats] = Field(description="One per group, by key (nulls last); empty without group_by.")


def _keys(row: dict[str, Any], group_by: GroupBy) -> list[str | None]:
    if group_by == "tool":
        return sorted(set(row["tools"])) or [None]
    if group_by == "day":
        return [row["created_at"].date().isoformat()]
    return [row[group_by]]


def group_stats(key: str | None, rows: list[dict[str, Any]], top: int = 10) -> GroupStats:
    """Statistics of ``rows``."""
    n = len(rows)
    flagged = sum(1 for r in rows if r["flagged"])
    kinds: Counter[tuple[str, str]] = Counter()
    suggestions: Counter[str] = Counter()
    for r in rows:
        kinds.update((i["kind"], i["status"]) for i in r["items"])
        suggestions.update({s["text"] for s in r["suggestions"]})
    confidence = Counter(r["confidence"] for r in rows)
    return GroupStats(
        key=key, verifications=n, flagged_verifications=flagged,
        flag_rate=round(flagged / n, 4) if n else 0.0,
        flagged_items=sum(r["flagged"] for r in rows),
        confidence={c: confidence[c] for c in ("high", "medium", "low")},
        mean_score=round(sum(r["score"] for r in rows) / n, 4) if n else None,
        top_flagged=[KindCount(kind=k, status=s, count=c) for (k, s), c in kinds.most_common(top)],
        top_suggestions=[SuggestionCount(text=t, count=c) for t, c in suggestions.most_common(top)],
    )


def stats(rows: Iterable[dict[str, Any]], since: datetime | None, until: datetime | None,
          group_by: GroupBy | None) -> Stats:
    """Totals, and per group when ``group_by`` is given."""
    rows = list(rows)
    groups: dict[str | None, list[dict[str, Any]]] = {}
    if group_by is not None:
        for row in rows:
            for key in _keys(row, group_by):
                groups.setdefault(key, []).append(row)
    ordered = sorted(groups, key=lambda k: (k is None, k or ""))
    return Stats(since=since, until=until, group_by=group_by, total=group_stats(None, rows),
                 groups=[group_stats(k, groups[k]) for k in ordered])
