"""The polarity check's shortcut: a haystack whose strings hold no negation cue builds no
source sentences, and that never changes a verdict, because the cue pre-scan finds every
cue token :func:`scopes` reads (checked here on generated text)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from verifier import Haystack, verify
from verifier.checks import polarity
from verifier.checks.polarity import _cue_inside, _data_negates, _roles, scopes

_NOT_WORDS = sorted(w for w, role in _roles().items() if role == "not")
_PIECES = st.sampled_from([*_NOT_WORDS, *(w.upper() for w in _NOT_WORDS), "n't", "n’t", "don", "isn", "o'",
                           "'", "’", " ", "  ", ",", ".", "-", "fee", "charge", "é", "x", "nota", "now", "ß"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=12).map("".join))
def test_every_text_with_a_negation_scope_is_caught_by_the_pre_scan(text: str) -> None:
    if scopes(text + " charges commission fees"):
        assert _cue_inside(text + " charges commission fees")


def test_data_without_cues_builds_no_source_sentences(monkeypatch) -> None:
    tools = [{"name": "news", "output": {"text": "Schwab charges a flat commission of $0 on online trades."}}]
    hay = Haystack(tools)
    calls = []
    monkeypatch.setattr(polarity, "_source_sentences", lambda h: calls.append(h) or ([], {}))
    report = verify("Schwab charges a flat commission of $0 on online trades.", haystack=hay, judge=False)
    assert not _data_negates(hay) and calls == [] and report.confidence == "high"


def test_a_dropped_negation_is_still_found() -> None:
    tools = [{"name": "news", "output": {"text": "Schwab does not charge a commission on online trades."}}]
    report = verify("Schwab charges a commission on online trades.", tools, judge=False)
    assert [n.kind for n in report.notes if n.flagged] == ["negation"]


def test_an_added_negation_over_data_without_cues_is_still_found() -> None:
    tools = [{"name": "news", "output": {"text": "Schwab charges a commission on online trades."}}]
    report = verify("Schwab does not charge a commission on online trades.", tools, judge=False)
    assert [n.kind for n in report.notes if n.flagged] == ["negation"]
