"""Golden tests: every answer of every scenario in fixtures/scenarios gets the
confidence, item statuses and flags its file expects (format: fixtures/README.md)."""

from __future__ import annotations

from collections import Counter
from typing import get_args

import jsonpath_ng
import pytest

from verifier import verify
from verifier.evaluation.evaluate import flagged_spans
from verifier.evaluation.labelled import render, scenarios
from verifier.models import FLAGGED_STATUSES, SUPPORTED_STATUSES, NoteKind

from .conftest import FIXTURES, SCENARIOS

CASES = [
    pytest.param(scenario, answer, id=f"{scenario['id']}/{answer['id']}")
    for _, scenario in scenarios(SCENARIOS)
    for answer in scenario["answers"]
]


NOTE_KINDS = frozenset(get_args(NoteKind))


def _status_ok(expected: str, actual: str) -> bool:
    return actual in SUPPORTED_STATUSES if expected == "supported" else actual == expected


def test_there_are_enough_realistic_scenarios():
    found = list(scenarios(SCENARIOS))
    assert len(found) >= 25
    labels = Counter(a["label"] for _, s in found for a in s["answers"])
    assert labels["clean"] >= 25 and labels["faulty"] >= 50


@pytest.mark.parametrize(("scenario", "answer"), CASES)
def test_answer_gets_expected_report(scenario, answer):
    report = verify(answer["text"], scenario["tool_results"], question=scenario.get("question"),
                    locale=scenario.get("locale", "en_US"), history=scenario.get("history"))
    expect = answer["expect"]
    got = [(i.text, i.kind, i.status) for i in report.items]
    for exp in expect["items"]:
        same_text = [i for i in report.items if i.text == exp["text"]]
        n = exp.get("occurrence", 1)
        assert len(same_text) >= n, f"{exp['text']!r} not extracted; got {got}"
        item = same_text[n - 1]
        assert item.kind == exp["kind"], f"{exp['text']!r}: kind {item.kind}, expected {exp['kind']}; {item.reason}"
        assert _status_ok(exp["status"], item.status), (
            f"{exp['text']!r}: status {item.status}, expected {exp['status']}; {item.reason}")
    flagged = Counter(i.text for i in report.items if i.flagged)
    expected_flags = Counter(e["text"] for e in expect["items"] if e["status"] in FLAGGED_STATUSES)
    assert flagged == expected_flags, f"flagged {dict(flagged)}, expected {dict(expected_flags)}; got {got}"
    assert report.confidence == expect["confidence"], f"{report.confidence}: {report.warnings.message}"
    notes = Counter(n.kind for n in report.notes)
    assert notes == Counter(n["kind"] for n in expect.get("notes", [])), (
        f"notes {[(n.kind, n.message) for n in report.notes]}, expected {expect.get('notes', [])}")
    if answer["label"] == "faulty":
        spans = flagged_spans(report)
        for fault in answer.get("faults", []):
            at = answer["text"].find(fault["text"])
            assert at >= 0 and any(s < at + len(fault["text"]) and at < e for s, e in spans), fault
            if fault["kind"] in NOTE_KINDS:
                assert any(n.kind == fault["kind"] and n.flagged for n in report.notes), fault


@pytest.mark.parametrize(("scenario", "answer"), CASES)
def test_evidence_paths_resolve_to_the_matched_leaf(scenario, answer):
    report = verify(answer["text"], scenario["tool_results"], locale=scenario.get("locale", "en_US"),
                    history=scenario.get("history"))
    for item in report.items:
        if any(ev.history for ev in item.evidence):
            continue  # evidence in the history resolves against the history, checked in test_stale
        for ev in item.evidence:
            output = scenario["tool_results"][ev.tool_index]["output"] if isinstance(
                scenario["tool_results"], list) and scenario["tool_results"] and "output" in scenario["tool_results"][0] \
                else scenario["tool_results"]
            found = jsonpath_ng.parse(ev.path).find(output)
            assert found, f"{ev.path} does not resolve"
            if ev.how == "object key":
                assert ev.path.endswith((f".{ev.raw}", f"['{ev.raw}']")), (ev.path, ev.raw)
            elif ev.how != "count":
                value = found[0].value
                assert ev.raw in (str(value), value) or (isinstance(value, str) and ev.raw == value), (ev.path, ev.raw, value)


def test_labelled_jsonl_matches_the_scenarios():
    committed = (FIXTURES / "labelled.jsonl").read_text(encoding="utf-8")
    assert committed == render(SCENARIOS), (
        "fixtures/labelled.jsonl is stale: run python -m verifier.evaluation.labelled fixtures/scenarios fixtures/labelled.jsonl")
