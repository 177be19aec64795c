"""Multi-turn: a value only in an earlier turn's tool results is stale."""

import pytest

from verifier import Haystack, InputError, verify

NOW = [{"name": "get_quote", "output": {"symbol": "AAPL", "price": 190.1, "change_pct": 1.2}}]
EARLIER = [{"name": "get_quote", "output": {"symbol": "AAPL", "price": 187.2, "volume": 51_000_000}}]


def by_text(report):
    return {item.text: item for item in report.items}


def test_value_only_in_history_is_stale_and_flagged_with_its_earlier_evidence():
    report = verify("AAPL trades at $187.20, up 1.2%.", NOW, history=EARLIER)
    item = by_text(report)["$187.20"]
    assert item.status == "stale" and item.flagged
    assert item.evidence[0].history is True and item.evidence[0].path == "$.price"
    assert "earlier turn" in item.reason
    assert report.confidence == "medium" and "'$187.20'" in report.warnings.retry_hint
    assert report.warnings.highlights[0].status == "stale"


def test_a_value_in_the_current_results_stays_supported_even_if_history_has_it_too():
    report = verify("AAPL trades at $190.10.", NOW, history=NOW + EARLIER)
    item = by_text(report)["$190.10"]
    assert item.status == "normalized" and not item.flagged
    assert not any(e.history for e in item.evidence)


def test_a_value_in_neither_turn_stays_unsupported():
    report = verify("AAPL trades at $201.55.", NOW, history=EARLIER)
    assert by_text(report)["$201.55"].status == "unsupported"


def test_without_history_the_same_value_is_unsupported():
    report = verify("AAPL trades at $187.20.", NOW)
    assert by_text(report)["$187.20"].status == "unsupported"


def test_history_accepts_a_prebuilt_haystack():
    report = verify("Volume was 51 million.", NOW, history=Haystack(EARLIER))
    assert by_text(report)["51 million"].status == "stale"


def test_bad_history_is_an_input_error():
    with pytest.raises(InputError):
        verify("AAPL trades at $187.20.", NOW, history=[{"name": 3, "output": {}}])


def test_a_value_its_clause_dates_to_an_earlier_look_is_no_stale_value():
    now = [{"name": "fx", "output": {"pair": "GBPUSD", "mid": 1.3245, "timestamp": "2026-11-30T11:15:40Z"}}]
    then = [{"name": "fx", "output": {"pair": "GBPUSD", "mid": 1.3298, "timestamp": "2026-11-30T08:02:11Z"}}]

    def status(answer):
        report = verify(answer, now, history=then, locale="en_GB", judge=False)
        return next(i.status for i in report.items if i.text == "1.3298")

    assert status("Cable is at 1.3245, lower than when we checked, at 1.3298.") == "exact"
    assert status("Cable is at 1.3298.") == "stale"  # given as current
    assert status("We checked twice. Cable is at 1.3298.") == "stale"  # another clause's words


def test_most_recently_is_no_earlier_look():
    now = [{"name": "q", "output": {"symbol": "SAP", "price": 181.2}}]
    then = [{"name": "q", "output": {"symbol": "SAP", "price": 179.3}}]
    report = verify("Die SAP-Aktie notierte zuletzt bei 179,30 €.", now, history=then, locale="de_DE", judge=False)
    assert next(i for i in report.items if i.kind == "amount").status == "stale"
