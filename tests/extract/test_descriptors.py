"""Numbers that describe rather than claim: windows, tenors, settlement labels, list
numbers. They are no items, except as a count of the data's records."""

from __future__ import annotations

import pytest

from verifier import verify
from verifier.extract import extract
from verifier.extract.descriptors import spans


def _described(text: str, locale: str = "en_US") -> list[str]:
    return [text[a:b] for a, b in spans(text, locale)]


@pytest.mark.parametrize(("text", "locale", "expected"), [
    ("its 14-day RSI and 50-day SMA, a 52-week high, the 10-year yield", "en_US",
     ["14-day", "50-day", "52-week", "10-year"]),
    ("24h volume of 3.2bn; 10y at 4.2%", "en_US", ["24h", "10y"]),
    ("over the past 12 months and in the last 3 years", "en_US", ["12 months", "3 years"]),
    ("in 7 Tagen, die 10-jährige Rendite, in den letzten 5 Jahren", "de_DE", ["7 Tagen", "10-jährige", "5 Jahren"]),
    ("negli ultimi 10 anni", "it_IT", ["10 anni"]),
    ("10年債利回り", "ja_JP", ["10年"]),
    ("T+1 settlement and the 2s10s spread", "en_US", ["T+1", "2s10s"]),
    ("Top 5 holdings", "en_US", ["Top 5"]),
    ("multiplying by 100 to get a percentage; divide the sum by 3", "en_US", ["multiplying by 100", "divide the sum by 3"]),
    ("(a + b) / 2 and 365 × 1.2", "en_US", ["2", "365"]),
])
def test_windows_tenors_and_labels_are_descriptors(text, locale, expected):
    assert _described(text, locale) == expected


@pytest.mark.parametrize("text", ["raised for 66 years", "3.2 days to cover", "matures in 7 years",
                                  "revenue of $5m", "5M shares"])
def test_a_claimed_duration_or_a_scaled_figure_is_no_descriptor(text):
    assert _described(text) == []


def test_list_numbers_at_a_line_start_after_a_bullet_or_in_bold():
    text = "**1. Common dividend:** $0.25\n2) Buyback\n- 3. Guidance"
    assert _described(text) == ["**1.", "2)", "- 3."]


def test_a_descriptor_is_no_claim_unless_it_counts_records():
    quote = [{"name": "q", "output": {"symbol": "AAPL", "rsi": 61.2}}]
    report = verify("AAPL's 14-day RSI is 61.2.", quote, judge=False)
    assert [i.text for i in report.items] == ["AAPL", "61.2"] and report.confidence == "high"
    bars = [{"name": "bars", "output": {"results": [{"c": 1.0}, {"c": 2.0}, {"c": 3.0}]}}]
    counted = verify("Prices over the past 3 sessions.", bars, judge=False)
    assert [(i.text, i.status) for i in counted.items] == [("3", "derived")]


def test_a_tenor_in_data_text_supports_nothing():
    page = [{"name": "page", "output": {"text": "The 10-year note yields 4.21%."}}]
    item = next(i for i in verify("The yield is 10.", page, judge=False).items if i.text == "10")
    assert item.status == "unsupported"


def test_cjk_dates_and_spanish_dates_are_dates():
    found = [(m.kind, m.value) for m in extract("2026年11月27日時点", "ja_JP")]
    assert found == [("date", "2026-11-27")]
    assert [(m.kind, m.value) for m in extract("el 30 de octubre de 2026", "es_ES")] == [("date", "2026-10-30")]


def test_windows_after_in_and_in_a_label_and_insider_forms_are_no_values():
    from verifier.extract import extract as _extract
    found = {m.text: m.descriptor for m in _extract("down roughly 1.6% in 24 hours", locale="en_US")}
    assert found["24"] is True and found["1.6%"] is False
    found = {m.text: m.descriptor for m in _extract("Handelsvolumen (24 h): rund 32,8 Mrd. €", locale="de_DE")}
    assert found["24"] is True and found["32,8 Mrd. €"] is False
    assert not _extract("No Form 4 insider transactions this month.", locale="en_US")


def test_a_tenor_after_an_instruments_name_is_a_descriptor_and_a_duration_after_for_is_not():
    from verifier.extract.descriptors import spans
    def found(text):
        return [text[a:b] for a, b in spans(text, "it_IT")]
    assert found("- BTP 10 anni (IT0005631590): rendimento 3,52%") == ["10 anni"]
    assert found("the fund has existed for 66 years") == []
    assert found("In 10 years the bond matures") == []


@pytest.mark.parametrize(("text", "locale", "unit", "fraction"), [
    ("78 punti base", "it_IT", "bp", "0.0078"), ("25 Basispunkte", "de_DE", "bp", "0.0025"),
    ("25 points de base", "fr_FR", "bp", "0.0025"), ("25 puntos básicos", "es_ES", "bp", "0.0025"),
    ("0,2 Prozentpunkte", "de_DE", "pp", "0.002"), ("1,4 points de pourcentage", "fr_FR", "pp", "0.014"),
    ("0,5 punti percentuali", "it_IT", "pp", "0.005"), ("3 Prozent", "de_DE", "pct", "0.03"),
])
def test_basis_points_percentage_points_and_percent_in_other_languages(text, locale, unit, fraction):
    from decimal import Decimal

    from verifier.normalizers import percents
    parsed = percents.parse(text, locale)
    assert parsed.unit == unit and parsed.fraction == Decimal(fraction)
