import datetime as dt
from decimal import Decimal

import pytest
from verifier.normalizers import (
    amounts,
    codes,
    dates,
    multipliers,
    percents,
    periods,
    quotes,
    tickers,
)


@pytest.mark.parametrize(
    ("text", "locale", "unit", "fraction"),
    [
        ("1.4%", "en_US", "pct", Decimal("0.014")),
        ("-3.2 percent", "en_US", "pct", Decimal("-0.032")),
        ("12,5 %", "fr_FR", "pct", Decimal("0.125")),
        ("3,5\u00a0%", "de_DE", "pct", Decimal("0.035")),
        ("25 bp", "en_US", "bp", Decimal("0.0025")),
        ("25bps", "en_US", "bp", Decimal("0.0025")),
        ("25 basis points", "en_US", "bp", Decimal("0.0025")),
        ("1.5pp", "en_US", "pp", Decimal("0.015")),
        ("2 percentage points", "en_US", "pp", Decimal("0.02")),
        ("2% points", "en_US", "pp", Decimal("0.02")),
    ],
)
def test_percent_units_and_fractions(text, locale, unit, fraction):
    parsed = percents.parse(text, locale)
    assert (parsed.unit, parsed.fraction) == (unit, fraction)


def test_percent_forms_agree_across_units():
    pct = percents.canonical_forms(percents.parse("0.25%"))
    bp = percents.canonical_forms(percents.parse("25 bp"))
    assert Decimal("0.0025") in pct and Decimal("0.0025") in bp
    assert Decimal("0.25") in pct and Decimal("0.25") in bp
    assert Decimal(25) in bp and Decimal(25) not in pct


@pytest.mark.parametrize(
    ("text", "locale", "value", "code"),
    [
        ("$142.30", "en_US", Decimal("142.3"), "USD"),
        ("US$5m", "en_US", Decimal("5E6"), "USD"),
        ("EUR 2.1bn", "en_US", Decimal("2.1E9"), "EUR"),
        ("1.234,56 €", "de_DE", Decimal("1234.56"), "EUR"),
        ("1\u202f234,56\u00a0€", "fr_FR", Decimal("1234.56"), "EUR"),
        ("CHF 1'234.50", "de_CH", Decimal("1234.5"), "CHF"),
        ("₹12,34,567", "en_IN", Decimal(1234567), "INR"),
        ("₹1.2 crore", "en_IN", Decimal("1.2E7"), "INR"),
        ("-$5m", "en_US", Decimal("-5E6"), "USD"),
        ("£3.4 million", "en_GB", Decimal("3.4E6"), "GBP"),
        ("¥1,200", "ja_JP", Decimal(1200), "JPY"),
        ("500 USD", "en_US", Decimal(500), "USD"),
    ],
)
def test_amounts_with_symbol_or_code_before_or_after(text, locale, value, code):
    parsed = amounts.parse(text, locale)
    assert parsed.number.value == value
    assert code in parsed.currencies


def test_every_babel_currency_code_is_a_symbol():
    from babel.numbers import list_currencies

    table = amounts.symbol_table()
    assert set(list_currencies()) <= set(table)


def test_multiplier():
    assert multipliers.parse("2.5x").number.value == Decimal("2.5")
    assert multipliers.parse("12×").number.value == Decimal(12)
    assert not multipliers.is_valid("2.5")


@pytest.mark.parametrize(
    ("text", "locale", "key"),
    [
        ("2026-03-05", "en_US", "2026-03-05"),
        ("2026-03-05T21:00:00Z", "en_US", "2026-03-05"),
        ("March 5, 2026", "en_US", "2026-03-05"),
        ("5 March 2026", "en_GB", "2026-03-05"),
        ("5th March 2026", "en_GB", "2026-03-05"),
        ("03/05/2026", "en_US", "2026-03-05"),
        ("05/03/2026", "en_GB", "2026-03-05"),
        ("05.03.2026", "de_DE", "2026-03-05"),
        ("5. März 2026", "de_DE", "2026-03-05"),
        ("5 mars 2026", "fr_FR", "2026-03-05"),
        ("Mar 2026", "en_US", "2026-03"),
        ("Sept 2026", "en_US", "2026-09"),
        ("March 5", "en_US", "--03-05"),
        ("2025", "en_US", "2025"),
    ],
)
def test_dates_in_locales(text, locale, key):
    assert dates.parse(text, locale).key == key


def test_impossible_date_is_refused():
    assert not dates.is_valid("2026-02-30")
    assert dates.is_valid("2028-02-29")


def test_epoch_seconds_and_milliseconds_give_the_utc_day():
    ms = int(dt.datetime(2026, 3, 5, 13, 30, tzinfo=dt.UTC).timestamp() * 1000)
    assert dates.from_epoch(ms) == dt.date(2026, 3, 5)
    assert dates.from_epoch(ms // 1000) == dt.date(2026, 3, 5)
    assert dates.from_epoch(12345) is None


@pytest.mark.parametrize(
    ("text", "key"),
    [("Q3 2026", "2026-Q3"), ("3Q26", "2026-Q3"), ("Q3'26", "2026-Q3"), ("2026Q3", "2026-Q3"),
     ("third quarter of 2026", "2026-Q3"), ("H1 2026", "2026-H1"), ("1H26", "2026-H1"),
     ("first half of 2026", "2026-H1"), ("FY2025", "FY2025"), ("FY25", "FY2025"),
     ("fiscal 2025", "FY2025"), ("Q3", "Q3")],
)
def test_periods(text, key):
    assert periods.parse(text).key == key


@pytest.mark.parametrize(
    ("text", "symbol", "forms"),
    [
        ("AAPL", "AAPL", ("AAPL",)),
        ("$TSLA", "TSLA", ("TSLA",)),
        ("NASDAQ:AAPL", "AAPL", ("AAPL",)),
        ("BRK.B", "BRK.B", ("BRK.B",)),
        ("BRK-B", "BRK.B", ("BRK.B",)),
        ("BRK/B", "BRK.B", ("BRK.B",)),
        ("VOD.L", "VOD.L", ("VOD.L", "VOD")),
        ("RY.TO", "RY.TO", ("RY.TO", "RY")),
        ("7203.T", "7203.T", ("7203.T", "7203")),
        ("0700.HK", "0700.HK", ("0700.HK", "0700")),
    ],
)
def test_tickers_are_canonical(text, symbol, forms):
    parsed = tickers.parse(text)
    assert parsed.symbol == symbol
    assert tickers.canonical_forms(parsed) == forms


@pytest.mark.parametrize(
    ("text", "scheme", "valid"),
    [
        ("US0378331005", "isin", True),
        ("US0378331006", "isin", False),
        ("037833100", "cusip", True),
        ("037833101", "cusip", False),
        ("B0YBKJ7", "sedol", True),
        ("5493001KJTIIGC8Y1R12", "lei", True),
        ("5493001KJTIIGC8Y1R13", "lei", False),
    ],
)
def test_codes_checked_with_stdnum(text, scheme, valid):
    parsed = codes.parse(text)
    assert (parsed.scheme, parsed.valid) == (scheme, valid)
    assert codes.is_valid(text) is valid


def test_quote_normalization_folds_case_marks_and_space():
    assert quotes.parse("“Record  quarter”").key == quotes.parse('"record quarter"').key
    assert quotes.normalize("It’s — fine") == "it's - fine"
