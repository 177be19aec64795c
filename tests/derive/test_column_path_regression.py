"""A column of same-keyed records that are not array elements (objects under keys) has no
wildcard path: the derive stage reported an AssertionError for it (issue 20, item 11)."""

from __future__ import annotations

from verifier import verify


def test_a_column_of_objects_under_keys_raises_nothing() -> None:
    tools = [{"name": "t", "output": {"price": {"price": None, "symbol": None, "fiscal_year": None, "t": 1},
                                      "symbol": {"t": 1}}}]
    report = verify("0", tools, judge=False)  # found by hypothesis: it raised AssertionError
    assert [(i.text, i.status) for i in report.items] == [("0", "unsupported")]
    report.model_dump_json()
