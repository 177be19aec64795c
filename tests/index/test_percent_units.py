"""A numeric field's unit (percent points, fraction, basis points or plain) is inferred
from what the data says about it, and an answer's "X%" is matched to it by that unit."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verifier import verify
from verifier.index.haystack import Haystack


def status(answer: str, tools: Any, locale: str = "en_US") -> dict[str, str]:
    return {i.text: i.status for i in verify(answer, tools, locale=locale, judge=False).items if i.kind != "date"}


def unit_of(tools: Any, key: str) -> str | None:
    h = Haystack(tools)
    leaf = next(i for i, leaf in enumerate(h.leaves) if leaf.key == key and i in h.leaf_value)
    return h.percent_unit(leaf)


# -- percent points: "X%" matches as written ------------------------------------------

@pytest.mark.parametrize(("answer", "tools", "locale"), [
    ("The notes yield 4.21% to maturity.", {"cusip": "037833EZ9", "ytm": "4.21"}, "en_US"),
    ("The 4.250% coupon.", {"coupon": 4.25, "price": "99.5"}, "en_US"),
    ("Die Rendite liegt bei 2,774 %.", {"anleihen": [{"kupon": 2.6, "kurs": 98.51, "rendite": 2.774}]}, "de_DE"),
    ("L'inflation s'établit à 2,1 %.", {"unit": "RCH_A", "values": {"all_items": 2.1, "core": 2.3}}, "fr_FR"),
    ("Unemployment was 4.6%.", {"series_id": "UNRATE", "units": "Percent",
                                "observations": [{"date": "2025-11-01", "value": "4.6"}]}, "en_US"),
    ("U-6 rose to 8.2%.", {"series_id": "U6RATE", "units": "lin",
                           "observations": [{"date": "2026-10-01", "value": "8.2"}]}, "en_US"),
    ("La tasa de paro bajó al 10,21 %.", {"indicadores": [
        {"nombre": "Tasa de paro (EPA)", "valor": 10.21},
        {"nombre": "Ocupados (EPA)", "valor": 22521.4, "unidad": "miles de personas"}]}, "es_ES"),
    ("The 10-year is at 4.182%.", {"quotes": [{"symbol": "US10Y", "last": "4.182", "change_bp": "6.5"}]}, "en_US"),
    ("Wages rose 0.3% m/m and 3.7% y/y.", {"data": {"avg_hourly_earnings_mom": "0.3",
                                                    "avg_hourly_earnings_yoy": "3.7"}}, "en_US"),
    ("The Bank of Japan held at 0.75%.", {"policy_rate": "0.75", "previous": "0.75"}, "en_US"),
    ("A trust fee of 0.0616%.", {"trust_fee_pct": "0.0616"}, "en_US"),  # a percent word keeps four decimals points
])
def test_a_field_in_percent_points_matches_x_percent_as_written(answer: str, tools: Any, locale: str) -> None:
    items = [i for i in verify(answer, tools, locale=locale, judge=False).items if i.kind == "percent"]
    assert items and all(i.status in ("exact", "normalized") and "fraction" not in i.reason for i in items), [
        (i.text, i.status, i.reason) for i in items]


def test_a_unit_map_states_each_fields_unit() -> None:
    tools = {"units": {"expense_ratio": "percent", "aum_bn": "USD billions"},
             "columns": ["symbol", "expense_ratio", "aum_bn"], "rows": [["VOO", "0.03", "742.6"], ["SPY", "0.0945", "712.4"]]}
    assert status("VOO charges 0.03% and SPY 0.0945%.", tools) == {"VOO": "exact", "0.03%": "exact",
                                                                      "SPY": "exact", "0.0945%": "exact"}
    assert unit_of(tools, "aum_bn") is None  # declared plain: "742.6%" is no AUM
    # without the map, four decimals within ±1 read as a fraction: 0.0945 is 9.45%
    del tools["units"]
    assert status("SPY charges 0.0945%.", tools)["0.0945%"] == "unsupported"
    assert status("SPY charges 9.45%.", tools)["9.45%"] == "normalized"


# -- fractions: "X%" matches only as X/100 --------------------------------------------

@pytest.mark.parametrize(("wrong", "right", "tools"), [
    ("0.0315%", "3.15%", {"symbol": "KO", "dividend_yield": 0.0315}),
    ("0.0291%", "2.91%", {"Symbol": "KO", "DividendYield": "0.0291", "ProfitMargin": "0.253"}),
    ("0.0001%", "0.01%", [{"symbol": "BTCUSDT", "fundingRate": "0.00010000"},
                          {"symbol": "ETHUSDT", "fundingRate": "-0.00002500"}]),
    ("0.2488%", "24.88%", {"calls": [{"strike": "240.0", "impliedVolatility": "0.2488"},
                                     {"strike": "245.0", "impliedVolatility": "0.2431"}]}),
    # a formatted twin says so even at two decimals: surprisePercent 0.06 is 6.00%
    ("0.06%", "6.00%", {"surprisePercent": {"raw": "0.06", "fmt": "6.00%"}}),
    ("0.0112%", "1.12%", {"yield": {"raw": "0.0112", "fmt": "1.12%"}}),
])
def test_a_fraction_field_written_as_percent_points_stays_a_percent_confusion(wrong: str, right: str,
                                                                             tools: Any) -> None:
    assert status(f"The yield is {wrong}.", tools)[wrong] == "unsupported"
    assert status(f"The yield is {right}.", tools)[right] in ("exact", "normalized")


def test_a_twin_or_its_column_decides_points_against_fraction() -> None:
    assert unit_of({"DividendYield": "0.0291", "DividendYieldFmt": "2.91%"}, "DividendYield") == "fraction"
    assert unit_of({"DividendYield": "0.0291", "DividendYieldFmt": "0.03%"}, "DividendYield") == "points"
    # a column with figures above 1 is in points, whatever one of its cells looks like
    points = {"rows": [{"dividend_yield": "0.5432"}, {"dividend_yield": "2.91"}]}
    fractions = {"rows": [{"dividend_yield": "0.5432"}, {"dividend_yield": "0.0291"}]}
    assert unit_of(points, "dividend_yield") == "points"
    assert unit_of(fractions, "dividend_yield") == "fraction"
    # its record's other rates: a margin of 0.253 beside a yield of 0.0291 is a fraction too
    assert unit_of({"ProfitMargin": "0.253", "DividendYield": "0.0291"}, "ProfitMargin") == "fraction"
    assert unit_of({"ProfitMargin": "0.253", "price": "0.0291"}, "ProfitMargin") == "points"


# -- basis points and plain figures ----------------------------------------------------

def test_basis_points_are_not_percent_points() -> None:
    tools = {"decision": "cut", "change_bp": -25, "target_range": {"lower": "3.5", "upper": "3.75"}}
    found = status("The Fed cut 25 bp, or 0.25%, to a range of 3.50% to 3.75%.", tools)
    assert found == {"25 bp": "normalized", "0.25%": "normalized", "3.50%": "normalized", "3.75%": "exact"}, found
    assert status("The Fed cut 25%.", tools)["25%"] == "unsupported"  # 25 bp is no 25%
    assert unit_of({"spread_bp": 47}, "spread_bp") == "basis points"


def test_a_plain_field_matches_x_percent_only_as_a_fraction() -> None:
    tools = {"probabilities": [{"target_range": "325-350", "prob": "0.62"}, {"target_range": "350-375", "prob": "0.38"}]}
    assert status("A 62% chance of a cut.", tools)["62%"] == "normalized"
    assert status("A 0.62% chance of a cut.", tools)["0.62%"] == "unsupported"
    assert status("The call last traded at 4.1%.", {"calls": [{"strike": "245.0", "last": "4.1"}]})["4.1%"] == "unsupported"
    # an index level is no percentage, even under a rate word
    assert unit_of({"cpi": "310.326"}, "cpi") is None
    assert unit_of({"series_id": "CPIAUCSL", "units": "Index 1982-1984=100",
                    "observations": [{"date": "2026-10-01", "value": "98.4"}]}, "value") is None


def test_a_percent_field_over_100_is_no_percent_as_written() -> None:
    # change_pct 1.43 is the fraction 0.0143; "0.0143%" is not what it says
    assert status("AAPL rose 1.43%.", {"symbol": "AAPL", "change_pct": 1.43})["1.43%"] == "exact"
    assert status("AAPL rose 0.0143%.", {"symbol": "AAPL", "change_pct": 1.43})["0.0143%"] == "unsupported"


# -- properties ------------------------------------------------------------------------

_FRACTIONS = st.integers(min_value=1, max_value=9999).filter(lambda n: n % 10).map(lambda n: Decimal(n).scaleb(-4))
_POINTS = st.integers(min_value=50, max_value=3000).map(lambda n: Decimal(n).scaleb(-2))


@given(_FRACTIONS)
def test_a_four_decimal_yield_is_a_fraction_and_matches_only_times_100(f: Decimal) -> None:
    tools = {"symbol": "KO", "dividend_yield": str(f)}
    assert unit_of(tools, "dividend_yield") == "fraction"
    as_written, times_100 = f"{f}%", f"{(f * 100).normalize():f}%"
    assert status(f"A yield of {as_written}.", tools)[as_written] == "unsupported"
    assert status(f"A yield of {times_100}.", tools)[times_100] in ("exact", "normalized")


@given(_POINTS)
def test_a_yield_to_maturity_is_in_points_and_matches_as_written(v: Decimal) -> None:
    tools = {"cusip": "037833EZ9", "ytm": f"{v:f}"}
    assert unit_of(tools, "ytm") == "points"
    assert status(f"It yields {v:f}%.", tools)[f"{v:f}%"] == "exact"
    fraction = f"{(v / 100):f}%"
    assert status(f"It yields {fraction}.", tools)[fraction] == "unsupported"
