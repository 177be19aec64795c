"""Policy.unhedged_rounding: a value that rounds a data value without a hedge is flagged
``drift`` by default; 'warn' unflags it (counted as supported), 'allow' makes it
``rounded``; a rounding to fewer than Policy.rounding_min_significant figures stays
flagged in every mode."""

from __future__ import annotations

import pytest

from verifier import InputError, Policy, verify

TOOLS = [{"name": "fundamentals", "output": {"symbol": "MSFT", "revenue_millions": 39331, "pe": 36.42,
                                             "price": 412.5}}]
ANSWER = "MSFT revenue was $39.3 billion and its P/E 36.4x; it trades at $412.50."


def _statuses(report):
    return {i.text: (i.status, i.flagged) for i in report.items}


def test_flag_is_the_default_and_keeps_todays_behaviour():
    default = verify(ANSWER, TOOLS, judge=False)
    assert default == verify(ANSWER, TOOLS, judge=False, policy=Policy(unhedged_rounding="flag"))
    assert _statuses(default)["$39.3 billion"] == ("drift", True)
    assert _statuses(default)["36.4x"] == ("drift", True)
    assert default.confidence == "medium" and default.score == 0.5 and default.flagged == 2
    assert [h.text for h in default.warnings.highlights] == ["$39.3 billion", "36.4x"]
    assert "does not say it is approximate" in default.items[1].reason


def test_warn_keeps_drift_unflagged_and_counts_it_as_supported():
    report = verify(ANSWER, TOOLS, judge=False, policy={"unhedged_rounding": "warn"})
    assert _statuses(report)["$39.3 billion"] == ("drift", False)
    assert _statuses(report)["36.4x"] == ("drift", False)
    assert report.counts["drift"] == 2  # still listed as what it is
    assert (report.confidence, report.score, report.action, report.flagged) == ("high", 1.0, "show", 0)
    assert report.warnings.highlights == [] and report.warnings.retry_hint is None
    assert "rounded to 3 significant figures" in report.items[1].reason
    assert "unhedged_rounding='warn'" in report.items[1].reason


def test_allow_makes_it_rounded():
    report = verify(ANSWER, TOOLS, judge=False, policy={"unhedged_rounding": "allow"})
    assert _statuses(report)["$39.3 billion"] == ("rounded", False)
    assert _statuses(report)["36.4x"] == ("rounded", False)
    assert "drift" not in report.counts
    assert (report.confidence, report.score, report.flagged) == ("high", 1.0, 0)
    assert report.items[1].evidence[0].path == "$.revenue_millions"


def test_warn_changes_the_score_when_another_value_fails():
    answer = "MSFT revenue was $39.3 billion; it trades at $500.00."
    flag = verify(answer, TOOLS, judge=False)
    warn = verify(answer, TOOLS, judge=False, policy={"unhedged_rounding": "warn"})
    # MSFT exact, the rounding, $500.00 unsupported: 1 of 3 supported flagged, 2 of 3 warned
    assert (flag.confidence, round(flag.score, 2), flag.flagged) == ("low", 0.33, 2)
    assert (warn.confidence, round(warn.score, 2), warn.flagged) == ("medium", 0.67, 1)
    assert [h.text for h in warn.warnings.highlights] == ["$500.00"]


@pytest.mark.parametrize("mode", ["warn", "allow"])
def test_a_coarse_rounding_stays_flagged(mode):
    answer = "MSFT revenue was $39 billion."  # two significant figures
    report = verify(answer, TOOLS, judge=False, policy={"unhedged_rounding": mode})
    assert _statuses(report)["$39 billion"] == ("drift", True)
    assert report.confidence == "medium"
    loose = verify(answer, TOOLS, judge=False, policy={"unhedged_rounding": mode, "rounding_min_significant": 2})
    assert _statuses(loose)["$39 billion"] == ("drift" if mode == "warn" else "rounded", False)
    assert loose.confidence == "high"


@pytest.mark.parametrize("mode", ["flag", "warn", "allow"])
def test_a_hedged_rounding_is_rounded_in_every_mode(mode):
    report = verify("MSFT revenue was about $39.3 billion.", TOOLS, judge=False, policy={"unhedged_rounding": mode})
    assert _statuses(report)["$39.3 billion"] == ("rounded", False)
    assert "marked as approximate" in report.items[1].reason


@pytest.mark.parametrize("bad", [{"unhedged_rounding": "maybe"}, {"rounding_min_significant": 0},
                                 {"rounding_min_significant": "three"}])
def test_bad_settings_are_input_errors(bad):
    with pytest.raises(InputError, match="policy"):
        verify(ANSWER, TOOLS, judge=False, policy=bad)
