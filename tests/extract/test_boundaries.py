"""A figure is the whole run of digits, separators and decimals, whatever script or unit
touches it: a CJK character does not glue to a number as a Latin letter does, and the
unit after it (p, ¢, 円, 億円, 百万円) is its unit."""

from __future__ import annotations

from decimal import Decimal

import pytest
from babel.numbers import format_decimal
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier import verify
from verifier.extract import extract


def _one(text: str, locale: str = "en_US"):
    found = [m for m in extract(text, locale) if m.kind not in ("ticker",)]
    assert len(found) == 1, [(m.kind, m.text) for m in found]
    return found[0]


@pytest.mark.parametrize(("text", "locale", "written", "value", "unit"), [
    ("trading at 72.36p today", "en_GB", "72.36p", "72.36", "GBp"),
    ("a target of 14,350p", "en_GB", "14,350p", "14350", "GBp"),
    ("paid 45¢ a share", "en_US", "45¢", "45", "USc"),
    ("paid 50 cents a share", "en_US", "50 cents", "50", "USc"),
    ("終値は2,845.5円でした", "ja_JP", "2,845.5円", "2845.5", "JPY"),
    ("営業利益は4,123億円で", "ja_JP", "4,123億円", "412300000000", "JPY"),
    ("売上高は48,036,704百万円", "ja_JP", "48,036,704百万円", "48036704000000", "JPY"),
    ("25.000 US-Dollar", "de_DE", "25.000 US-Dollar", "25000", "USD"),
])
def test_a_unit_glued_to_a_figure_is_its_unit(text, locale, written, value, unit):
    m = _one(text, locale)
    assert (m.kind, m.text, m.value, m.unit) == ("amount", written, value, unit)


@pytest.mark.parametrize(("text", "written", "value"), [
    ("年0.0616%の利回り", "0.0616%", "0.000616"),
    ("0.75%に据え置き", "0.75%", "0.0075"),
    ("前年比3.07%増", "3.07%", "0.0307"),
])
def test_a_cjk_character_beside_a_percentage_does_not_glue(text, written, value):
    m = _one(text, "ja_JP")
    assert (m.kind, m.text, m.value) == ("percent", written, value)


def test_a_latin_letter_still_glues():
    assert [m.text for m in extract("the model X200 and 5x") if m.kind != "ticker"] == ["5x"]


@settings(max_examples=150, deadline=None)
@given(value=st.decimals(min_value=0, max_value=10**9, places=2, allow_nan=False, allow_infinity=False),
       before=st.sampled_from("年月日は約的で"), after=st.sampled_from("年月日でにはと増減"))
def test_cjk_text_around_a_number_leaves_its_value(value, before, after):
    written = format_decimal(value, format="#,##0.00", locale="en_US")
    numbers = [m for m in extract(f"{before}{written}{after}", "ja_JP") if m.kind == "number"]
    if numbers:  # (a number that reads as a year is a date instead)
        assert Decimal(numbers[0].value) == value


def test_pence_and_pounds_match_each_other_where_the_data_states_the_unit():
    pence = [{"name": "q", "output": {"symbol": "BARC.L", "price": 72.36, "currency": "GBp",
                                      "targetMean": 14350}}]
    assert verify("BARC.L trades at 72.36p.", pence, judge=False).items[1].status == "exact"
    assert verify("Target £143.50.", pence, judge=False).items[0].status == "normalized"
    wrong = verify("BARC.L trades at £72.36.", pence, judge=False).items[1]
    assert wrong.status == "unsupported" and "GBp" in wrong.reason  # a scale error: pence read as pounds
    pounds = [{"name": "q", "output": {"symbol": "VOD.L", "price": 0.7236, "currency": "GBP"}}]
    assert verify("VOD.L trades at 72.36p.", pounds, judge=False).items[1].status == "normalized"
    # a value with no currency stated is no pence-to-pound conversion
    bare = [{"name": "q", "output": {"symbol": "VOD.L", "price": 0.7236}}]
    assert verify("VOD.L trades at 72.36p.", bare, judge=False).items[1].status == "unsupported"


def test_a_unit_field_in_japanese_scales_the_record():
    tools = [{"name": "earnings", "output": {"code": "6758", "unit": "百万円", "operating_income": 412300}}]
    item = verify("営業利益は4,123億円でした。", tools, judge=False).items[0]
    assert item.status == "normalized" and "4,123億円" == item.text


@pytest.mark.parametrize(("text", "expected"), [
    ("a target range of 3.50%–3.75%", ["3.50%", "3.75%"]),
    ("the vote was 10–2", ["10", "2"]),
    ("between $5-$6 a share", ["$5", "$6"]),
    ("rates of 4.2%-4.4%", ["4.2%", "4.4%"]),
])
def test_a_dash_between_two_figures_is_no_minus_sign(text, expected):
    found = [m for m in extract(text, "en_US") if m.kind != "ticker"]
    assert [m.text for m in found] == expected
    assert all(m.value is None or Decimal(str(m.value)) >= 0 for m in found)


@pytest.mark.parametrize("text", ["it fell -3.75% today", "a change of −0.4%", "from 2.1% to -0.5%"])
def test_a_minus_after_a_word_or_a_space_is_still_a_sign(text):
    found = [m for m in extract(text, "en_US") if m.kind == "percent"]
    assert found[-1].text.startswith(("-", "−")) and found[-1].explicit_sign


def test_a_range_is_checked_figure_by_figure():
    report = verify("The target range is 3.50%–3.75%, from 3.75%–4.00%.",
                    [{"name": "fed", "output": {"target_range": {"lower_pct": 3.5, "upper_pct": 3.75},
                                                "previous_range": {"lower_pct": 3.75, "upper_pct": 4.0}}}])
    assert [(i.text, i.flagged) for i in report.items if i.kind == "percent"] == [
        ("3.50%", False), ("3.75%", False), ("3.75%", False), ("4.00%", False)]


def test_a_direction_word_does_not_reach_past_the_end_of_its_line():
    found = [m for m in extract("- 2-year: 3.42% (down 5 bp)\n- **10-year:** 4.04%", "en_US") if m.kind == "percent"]
    assert [(m.text, m.direction) for m in found] == [("3.42%", 0), ("4.04%", 0)]
    found = [m for m in extract("Yields fell 4 bp on the day", "en_US") if m.kind == "basis_points"]
    assert found[0].direction == -1

