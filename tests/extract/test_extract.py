from decimal import Decimal

import pytest

from verifier.extract import extract, is_hedged


def kinds(text, locale="en_US"):
    """(kind, text) of the mentions that will be checked (stop-listed words left out)."""
    return [(m.kind, m.text) for m in extract(text, locale) if not m.stoplisted]


@pytest.mark.parametrize(
    ("before", "hedged"),
    [("about ", True), ("(roughly ", True), ("~", True), ("≈ ", True), ("approx. ", True),
     ("close to ", True), ("just over a ", True), ("in the region of ", True), ("rund ", True),
     ("environ ", True), ("the ", False), ("is ", False), ("was ", False), ("without ", False)],
)
def test_hedge_words_before_a_value(before, hedged):
    assert is_hedged(before + "5", len(before)) is hedged


def test_spans_cover_currency_sign_unit_and_scale_but_not_hedges():
    text = "Revenue was about $2.1bn, up −3.5% or 25 bps, at 12.5x."
    assert kinds(text) == [("amount", "$2.1bn"), ("percent", "−3.5%"), ("basis_points", "25 bps"),
                           ("multiplier", "12.5x")]
    for m in extract(text):
        assert text[m.start:m.end] == m.text


def test_codes_need_a_valid_check_digit_or_their_name():
    assert kinds("Ref 037833100 today") == [("number", "037833100")]
    assert kinds("CUSIP 037833100 today") == [("code", "037833100")]
    assert kinds("ISIN US0378331006") == [("code", "US0378331006")]  # invalid, still a code
    assert extract("ISIN US0378331006")[-1].invalid == "ISIN check digit does not match"


def test_numeric_tickers_with_venue_suffix_are_not_numbers():
    assert kinds("Toyota (7203.T) and Tencent (0700.HK)") == [("ticker", "7203.T"), ("ticker", "0700.HK")]


def test_years_are_dates_but_grouped_numbers_are_not():
    assert kinds("In 2025 it sold 2,025 units") == [("date", "2025"), ("number", "2,025")]


def test_skipped_spans():
    assert kinds("1. See [1] and [2, 3]; the 3rd S&P 500 10-K filing, COVID-19.") == []


def test_equity_compensation_acronyms_are_not_tickers():
    assert kinds("PSU grants fell 15.0%; RSU, ESPP, SBC, TSR and NOL were flat.") == [("percent", "15.0%")]


def test_stoplisted_capitals_are_marked_not_dropped():
    marks = {m.text: m.stoplisted for m in extract("CEO of ACME said EPS rose")}
    assert marks == {"CEO": True, "ACME": False, "EPS": True}


def test_locale_changes_what_is_read():
    assert extract("1.234", "de_DE")[0].num_forms[0].value == 1234
    assert extract("1.234", "en_US")[0].num_forms[0].value.as_tuple().exponent == -3


def test_data_mode_skips_answer_only_passes():
    text = "[1] 1,2,3"
    assert kinds(text) == [("number", "1,2,3")]  # the citation skipped, the garble reported
    assert [m.text for m in extract(text, data=True)] == ["1"]  # in data: neither


def test_a_direction_word_before_a_level_is_not_a_sign():
    from verifier import verify
    tools = [{"name": "get_financials", "output": {"symbol": "CRWD", "periods": [
        {"fiscal_year": 2026, "gross_margin_pct": 74.6}, {"fiscal_year": 2025, "gross_margin_pct": 75.3}]}}]
    for answer in ("CRWD's gross margin slipped to 74.6% in FY2026.",
                   "CRWD's gross margin was 74.6% in FY2026, down from 75.3% in FY2025."):
        assert verify(answer, tools).confidence == "high", answer


def test_a_falling_figure_quoted_from_prose_keeps_the_prose_sign():
    from verifier import verify
    news = [{"name": "search_news", "output": {"results": [{"snippet":
            "Global comparable store sales declined 4% in the quarter, while transactions fell 8%."}]}}]
    report = verify("Global comparable store sales declined 4% in the quarter, while transactions fell 8% [1].", news)
    assert {i.text: i.status for i in report.items} == {"4%": "exact", "8%": "exact"}


@pytest.mark.parametrize(("text", "tolerance"), [
    ("about 21,300", "50"),  # trailing zeros of a hedged whole number: its rounding
    ("about 2,240,000", "5000"),
    ("about 140", "5"),
    ("about 100", "5"),  # two significant digits kept: not "hundreds"
    ("about 2,000,000", "50000"),
    ("21,300", "0.5"),  # unhedged: as written
    ("about 21,345", "0.5"),
    ("about 21.3 thousand", "50"),
])
def test_a_hedged_whole_numbers_trailing_zeros_set_its_precision(text, tolerance):
    (mention,) = [m for m in extract(text) if m.kind == "number"]
    assert mention.num_forms[0].tolerance == Decimal(tolerance)


@pytest.mark.parametrize("text", ["more than 2,000,000", "over 100", "under 1,000", "nearly 2,000",
                                  "about 110 million"])
def test_one_sided_hedges_and_scale_words_keep_trailing_zeros_significant(text):
    (mention,) = [m for m in extract(text) if m.kind == "number"]
    written = mention.num_forms[0]
    # as precise as written: to the unit, or to the scale word's unit
    assert written.tolerance == (Decimal("0.5") if "million" not in text else Decimal("5E+5"))
