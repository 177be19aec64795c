"""The answer's own arithmetic: chains are read, evaluated in Decimal and checked at the
precision written; a result that holds over supported inputs is derived, one that does
not is wrong_arithmetic with the value the step gives."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier import verify
from verifier.derive.arithmetic import agree, chains
from verifier.extract import extract


def _chains(text: str, locale: str = "en_US"):
    mentions = [m for m in extract(text, locale) if not m.descriptor or m.kind == "number"]
    return [[agree(c.elements[k], c.elements[k + 1]) for k in range(len(c.elements) - 1)]
            for c in chains(text, mentions)]


@pytest.mark.parametrize(("text", "locale", "expected"), [
    ("Gross margin = ($46,298M − $36,386M) / $46,298M ≈ 21.41%", "en_US", [[True]]),
    ("(12.6% + 5.7% + 5.2%) / 3 = 7.8%", "en_US", [[True]]),
    ("5 000 € × 1,0850 = 5 425,00 $", "fr_FR", [[True]]),
    ("the 2s10s spread is 4.21% − 3.86% = 35 bp", "en_US", [[True]]),
    ("4.067 − 3.466 = 60.1 bp", "en_US", [[True]]),
    ("(20,437 / 500,343) * 100 = 4.1%", "en_US", [[True]]),
    ("($72.50 − $64.12) × 300 + $258 = **$2,772**", "en_US", [[True]]),
    ("**$0.86** bid × 100 × 3 contracts = **$258**", "en_US", [[True]]),
    ("30% of $160,000 = $48,000", "en_US", [[True]]),
    ("Capex / Revenue = 1,577 / 32,765 = 0.048 or 4.8%", "en_US", [[True]]),
    ("(1.16418 + 1.16426) / 2 = 1.16422, and 1.16422 / 1.32424 ≈ 0.87916", "en_US", [[True], [True]]),
    (("Average AP = ($41,433 million + $46,092 million) / 2\nAverage AP = $87,525 million / 2\n"
     "Average AP = $43,762.5 million"), "en_US", [[True, True]]),
    ("= 365 * ((1,642.2 + 1,559.3) / 2) / 11,108.4\n   = 365 * 1,600.75 / 11,108.4\n   = 52.79 days", "en_US",
     [[True, False]]),
    ("$29,220 / $44,112 = **0.6624%**", "en_US", [[False]]),  # a fraction written as a percentage
    ("The working capital ratio is 0.68 (5,121.3 / 7,491.5).", "en_US", [[True]]),
    ("P/E = 36.4x and revenue rose to $5.2bn (up 3.1%)", "en_US", []),  # no computation shown
])
def test_chains_are_read_and_checked(text, locale, expected):
    assert _chains(text, locale) == expected


QUOTE = [{"name": "fin", "output": {"revenue": 46298, "cost": 36386, "net_income": 1248, "assets": 87583}}]


def test_a_result_that_holds_is_derived_and_the_constants_are_no_items():
    report = verify("Margin = (46,298 - 36,386) / 46,298 * 100 = 21.4%.", QUOTE, judge=False)
    assert [(i.text, i.status) for i in report.items] == [
        ("46,298", "normalized"), ("36,386", "normalized"), ("46,298", "normalized"), ("21.4%", "derived")]
    assert report.confidence == "high" and "46,298 - 36,386" in report.items[-1].expression


def test_a_wrong_result_is_wrong_arithmetic_with_the_right_value():
    report = verify("Margin = (46,298 - 36,386) / 46,298 = 23.41%.", QUOTE, judge=False)
    wrong = report.items[-1]
    assert wrong.status == "wrong_arithmetic" and wrong.flagged and "21.41%" in wrong.reason
    assert "redo the arithmetic" in report.warnings.retry_hint


def test_a_checked_result_restated_later_is_derived_and_an_input_of_the_next_step():
    answer = ("ROA = $1,248 / $87,583 = 0.01425 or 1.425%. Rounded, the ROA is 1.42%.")
    items = {i.text: i.status for i in verify(answer, QUOTE, judge=False).items}
    assert items == {"$1,248": "normalized", "$87,583": "normalized", "0.01425": "derived", "1.425%": "derived",
                     "1.42%": "derived"}


def test_an_unsupported_input_stays_flagged_and_its_result_is_not_derived():
    report = verify("Margin = (46,298 - 36,999) / 46,298 = 20.08%.", QUOTE, judge=False)
    statuses = {i.text: i.status for i in report.items}
    assert statuses["36,999"] == "unsupported" and statuses["20.08%"] == "unsupported"


@settings(max_examples=60, deadline=None)
@given(a=st.decimals(min_value=1, max_value=10**6, places=2), b=st.decimals(min_value=1, max_value=10**6, places=2),
       off=st.sampled_from([0, 1]))
def test_a_sum_holds_exactly_or_not_at_all(a, b, off):
    tools = [{"name": "t", "output": {"a": str(a), "b": str(b)}}]
    result = a + b + Decimal(off)
    report = verify(f"Total = {a:,.2f} + {b:,.2f} = {result:,.2f}.", tools, judge=False)
    last = report.items[-1]
    assert last.status == ("derived" if off == 0 else "wrong_arithmetic") or last.status == "exact"
