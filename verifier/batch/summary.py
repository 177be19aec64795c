"""What a batch found: flag rates by a metadata field, and the missing fields answers computed.

The flag rate is the share of verified lines with at least one flagged item, as
``GET /v1/stats`` counts it; a line that was no valid request counts as an error, not as
a verification. Summaries of parts of a batch merge (Ray's write tasks each return one),
and the missing-field suggestions are ranked by :func:`verifier.suggest.aggregate`, the
logic ``verifier suggest`` uses.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from rich.table import Table

from ..suggest import FieldSuggestion, aggregate
from .output import Row

_CONFIDENCES = ("high", "medium", "low")


@dataclass
class Group:
    """The tallies of one group of lines."""

    verifications: int = 0
    errors: int = 0
    flagged_verifications: int = 0
    flagged_items: int = 0
    score_sum: float = 0.0
    confidence: Counter[str] = field(default_factory=Counter)

    def add(self, row: Row) -> None:
        if row["error"] is not None:
            self.errors += 1
            return
        self.verifications += 1
        self.flagged_verifications += row["flagged"] > 0
        self.flagged_items += row["flagged"]
        self.score_sum += row["score"]
        self.confidence[row["confidence"]] += 1

    def merge(self, other: Group) -> None:
        self.verifications += other.verifications
        self.errors += other.errors
        self.flagged_verifications += other.flagged_verifications
        self.flagged_items += other.flagged_items
        self.score_sum += other.score_sum
        self.confidence.update(other.confidence)

    @property
    def flag_rate(self) -> float:
        return round(self.flagged_verifications / self.verifications, 4) if self.verifications else 0.0

    def as_dict(self, key: str | None) -> dict[str, Any]:
        return {"key": key, "verifications": self.verifications, "errors": self.errors,
                "flagged_verifications": self.flagged_verifications, "flag_rate": self.flag_rate,
                "flagged_items": self.flagged_items,
                "confidence": {c: self.confidence[c] for c in _CONFIDENCES},
                "mean_score": round(self.score_sum / self.verifications, 4) if self.verifications else None}


class Summary:
    """Tallies over rows, in total and by the metadata field ``group_by``."""

    def __init__(self, group_by: str | None = None):
        self.group_by = group_by
        self.total = Group()
        self.groups: dict[str | None, Group] = {}
        self._suggested: Counter[tuple[str, str, str]] = Counter()
        self._expression: dict[tuple[str, str, str], str] = {}

    def _key(self, row: Row) -> str | None:
        value = json.loads(row["metadata"]).get(self.group_by) if self.group_by else None
        return value if value is None or isinstance(value, str) else json.dumps(value)

    def add(self, rows: Iterable[Row]) -> Summary:
        for row in rows:
            self.total.add(row)
            if self.group_by:
                self.groups.setdefault(self._key(row), Group()).add(row)
            for s in json.loads(row["suggestions"]):
                key = (s["tool"], s["field"], s["op"])
                self._suggested[key] += 1
                self._expression[key] = s["expression"]
        return self

    def merge(self, other: Summary) -> Summary:
        self.total.merge(other.total)
        for key, group in other.groups.items():
            self.groups.setdefault(key, Group()).merge(group)
        self._suggested.update(other._suggested)
        self._expression.update(other._expression)
        return self

    def suggestions(self) -> list[FieldSuggestion]:
        """The missing fields, most frequent first (``verifier suggest``'s ranking)."""
        def records() -> Iterator[tuple[str, dict[str, Any]]]:
            for (tool, name, op), n in self._suggested.items():
                s = {"tool": tool, "field": name, "op": op, "expression": self._expression[(tool, name, op)]}
                yield "batch", {"suggestions": [s] * n}  # aggregate() counts each occurrence

        return aggregate(records())

    def ordered_groups(self) -> list[tuple[str | None, Group]]:
        return sorted(self.groups.items(), key=lambda kv: (kv[0] is None, kv[0] or ""))

    def as_dict(self, top: int = 20) -> dict[str, Any]:
        return {"group_by": self.group_by, "total": self.total.as_dict(None),
                "groups": [g.as_dict(k) for k, g in self.ordered_groups()],
                "suggestions": [s.model_dump() for s in self.suggestions()[:top]]}

    def tables(self, top: int = 10) -> list[Table]:
        """The summary as rich tables: flag rates, then the top missing fields."""
        by = Table(title=f"flag rates by {self.group_by}" if self.group_by else "flag rates")
        for col in (self.group_by or "", "verified", "errors", "flagged", "flag rate", *_CONFIDENCES):
            by.add_column(col, justify="left" if col == (self.group_by or "") else "right")
        rows = [*((k if k is not None else "(not given)", g) for k, g in self.ordered_groups()), ("total", self.total)]
        for name, g in rows:
            by.add_row(name, str(g.verifications), str(g.errors), str(g.flagged_verifications), f"{g.flag_rate:.3f}",
                       *(str(g.confidence[c]) for c in _CONFIDENCES))
        found = self.suggestions()
        missing = Table(title=f"top missing derived fields ({min(top, len(found))} of {len(found)})")
        for col in ("count", "tool", "field", "expression"):
            missing.add_column(col, justify="right" if col == "count" else "left")
        for s in found[:top]:
            missing.add_row(str(s.count), s.tool, s.field, s.expression)
        return [by, missing]
