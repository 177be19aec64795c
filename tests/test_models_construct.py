"""``verifier.models.construct`` makes exactly what pydantic's ``model_construct`` makes
(it exists only to skip pydantic's per-call default-factory introspection)."""

from __future__ import annotations

from typing import Any

import pytest

from verifier.models import (
    Badge,
    Evidence,
    Highlight,
    Item,
    Note,
    Report,
    SentenceCheck,
    Suggestion,
    Warnings,
    construct,
)

_ITEM = {"kind": "amount", "text": "$1", "start": 0, "end": 2, "status": "exact", "flagged": False, "reason": "r"}
_CASES: list[tuple[type, dict[str, Any]]] = [
    (Item, _ITEM),
    (Item, {**_ITEM, "_flags": ("x",)}),  # a private attribute passed in, as pydantic allows
    (Item, {"kind": "ticker", "text": "A"}),  # required fields left out: neither invents them
    (Evidence, {"tool": "t", "tool_index": 0, "path": "$.p", "raw": "1", "how": "exact"}),
    (Note, {"kind": "conflict", "flagged": False, "start": 0, "end": 1, "message": "m"}),
    (SentenceCheck, {"start": 0, "end": 3}),
    (Suggestion, {"tool": "t", "field": "f", "expression": "a / b", "op": "ratio", "text": "x"}),
    (Badge, {"level": "high", "label": "ok"}),
    (Highlight, {"start": 0, "end": 1, "text": "1", "kind": "number", "status": "unsupported", "reason": "r"}),
    (Warnings, {"badge": Badge(level="low", label="no"), "message": "m"}),
]


@pytest.mark.parametrize(("cls", "values"), _CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_construct_equals_model_construct(cls: type, values: dict[str, Any]) -> None:
    ours, theirs = construct(cls, **values), cls.model_construct(**values)
    assert list(ours.__dict__.items()) == list(theirs.__dict__.items())  # same values, same order
    assert ours.model_fields_set == theirs.model_fields_set
    assert ours.__pydantic_private__ == theirs.__pydantic_private__
    assert ours.__pydantic_extra__ == theirs.__pydantic_extra__
    if cls is not Item or "status" in values:
        assert ours.model_dump_json() == theirs.model_dump_json()


def test_defaults_are_fresh_per_instance() -> None:
    a, b = construct(Item, **_ITEM), construct(Item, **_ITEM)
    a.evidence.append("x")  # type: ignore[arg-type]
    assert b.evidence == []


def test_report_constructs_like_pydantic() -> None:
    from verifier import verify
    report = verify("AAPL trades at $142.30.", [{"name": "q", "output": {"symbol": "AAPL", "price": 142.3}}])
    values = {name: getattr(report, name) for name in report.model_fields_set}
    assert construct(Report, **values).model_dump_json() == Report.model_construct(**values).model_dump_json()
