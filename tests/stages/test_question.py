"""The question stage: what the question states is the user's own, not a claim."""

from __future__ import annotations

from verifier import verify

FX = [{"name": "fx", "output": {"pair": "EURCHF", "rate": 0.9412}}]


def _status(report, text):
    return next(i.status for i in report.items if i.text == text)


def test_a_figure_the_question_states_is_stated_and_an_input_of_the_answers_arithmetic():
    report = verify("25,000 CHF × 0.9412 = €23,530.", FX, question="What would 25,000 CHF be in euros?",
                    judge=False)
    assert _status(report, "25,000 CHF") == "stated"
    assert _status(report, "€23,530") == "derived" and report.confidence == "high"


def test_a_period_the_question_states_is_the_answers_frame():
    pages = [{"name": "page", "output": {"text": "Net income was $1,248 million."}}]
    report = verify("In FY2022, net income was $1,248 million.", pages, question="What was FY2022 net income?",
                    judge=False)
    assert _status(report, "FY2022") == "stated" and not report.flagged
    other = verify("In FY2021, net income was $1,248 million.", pages, question="What was FY2022 net income?",
                   judge=False)
    assert _status(other, "FY2021") == "unsupported"  # another period than the question's is still a claim


def test_a_stated_figure_neither_lifts_nor_lowers_the_score():
    report = verify("For 25,000 CHF the rate is 0.9412.", FX, question="What would 25,000 CHF be in euros?",
                    judge=False)
    assert report.score == 1.0 and [i.status for i in report.items] == ["stated", "exact"]
