"""counts: a whole number counting the records of a list that share a field's value."""

from __future__ import annotations

from verifier import verify

ACTIONS = [{"name": "ratings", "output": {"actions": [
    {"issuer": "Ford", "action": "downgrade", "to": "Ba2"},
    {"issuer": "Intel", "action": "outlook_change", "rating": "BBB"},
    {"issuer": "Boeing", "action": "upgrade", "to": "BBB"},
    {"issuer": "WBD", "action": "downgrade", "to": "BB"}]}}]


def _item(answer: str, text: str):
    return next(i for i in verify(answer, ACTIONS, judge=False).items if i.text == text)


def test_a_number_before_a_field_value_counts_the_records_holding_it():
    item = _item("Net: 2 downgrades and one upgrade.", "2")
    assert item.status == "derived" and not item.flagged
    assert [e.path for e in item.evidence] == ["$.actions[0].action", "$.actions[3].action"]


def test_a_wrong_count_or_a_word_no_field_holds_is_no_count():
    assert _item("Net: 3 downgrades and one upgrade.", "3").flagged
    assert _item("Net: 2 issuers were cut.", "2").flagged


def test_a_value_two_lists_hold_is_counted_in_neither():
    two = [{"name": "r", "output": {"symbol": "AAPL", "actions": [{"action": "downgrade"}] * 3}},
           {"name": "r", "output": {"symbol": "MSFT", "actions": [{"action": "downgrade"}] * 2 + [{"action": "upgrade"}]}}]
    report = verify("AAPL saw 2 downgrades.", two, judge=False)
    assert next(i for i in report.items if i.text == "2").flagged
