"""A value and what its clause says of it belong to one record: its time, its day, and
whether it is an earlier period's."""

from __future__ import annotations

from verifier import verify

BARS = [{"name": "bars", "output": {"ticker": "NVDA", "results": [
    {"o": 182.4, "h": 183.55, "t": 1794321000000},   # 2026-11-10 09:30 ET
    {"o": 183.1, "h": 186.95, "t": 1794322800000},   # 10:00 ET
    {"o": 184.65, "h": 185.9, "t": 1794324600000},   # 10:30 ET
]}}]


def _flag(report, text):
    return next(i for i in report.items if i.text == text)


def test_a_time_beside_a_value_is_the_values_records_time():
    good = verify("NVDA's high was $186.95 in the 10:00 ET bar.", BARS, judge=False)
    assert _flag(good, "10:00 ET").status == "normalized" and not good.flagged
    bad = verify("NVDA's high was $186.95 in the 10:30 ET bar.", BARS, judge=False)
    assert _flag(bad, "10:30 ET").status == "misattributed"
    assert _flag(bad, "$186.95").status == "misattributed"  # either of the two may be the wrong one


def test_a_time_in_another_zone_is_converted_and_one_not_in_the_data_is_flagged():
    assert _flag(verify("It opened at 14:30 UTC.", BARS, judge=False), "14:30 UTC").status == "normalized"
    assert _flag(verify("It opened at 11:45 ET.", BARS, judge=False), "11:45 ET").status == "unsupported"


def test_a_date_time_is_checked_as_one_moment_in_the_zone_the_answer_names():
    calendar = [{"name": "cal", "output": {"events": [
        {"event": "CPI", "timestamp": 1796909400000},   # 2026-12-10 08:30 ET
        {"event": "UMich", "timestamp": 1797001200000},  # 2026-12-11 10:00 ET
    ]}}]
    ok = verify("Times ET: CPI on Dec 10, 8:30 a.m.; UMich on Dec 11, 10:00 a.m.", calendar, judge=False)
    assert not ok.flagged, [(i.text, i.reason) for i in ok.items if i.flagged]
    wrong = verify("Times ET: UMich on Dec 10, 10:00 a.m.", calendar, judge=False)
    assert _flag(wrong, "Dec 10, 10:00 a.m.").status == "unsupported"


def test_a_time_is_no_claim_where_the_data_has_no_times():
    report = verify("AAPL closed at $142.30 at 4 p.m.", [{"name": "q", "output": {"symbol": "AAPL", "price": 142.3}}],
                    judge=False)
    assert [i.text for i in report.items] == ["AAPL", "$142.30"]


def test_an_earlier_periods_value_given_as_current_is_misattributed():
    quote = [{"name": "q", "output": {"symbol": "TSLA", "price": 452.3, "previousClose": 445.45}}]
    assert _flag(verify("TSLA is at $445.45.", quote, judge=False), "$445.45").status == "misattributed"
    for said in ("TSLA is at $452.30, up from $445.45.", "TSLA is at $452.30; yesterday's close was $445.45.",
                 "TSLA is at $452.30 against $445.45 previously."):
        assert not verify(said, quote, judge=False).flagged, said


def test_only_the_value_the_earlier_word_stands_beside_is_excused():
    calendar = [{"name": "cal", "output": {"events": [{"event": "CPI", "forecast": "2.8%", "previous": "2.9%"}]}}]
    report = verify("CPI: consensus 2.9% y/y vs. 2.9% prior.", calendar, judge=False)
    first, second = [i for i in report.items if i.text == "2.9%"]
    assert first.status == "misattributed" and second.status == "exact"


def test_a_table_column_headed_by_an_earlier_word_says_its_values_are_the_earlier_ones():
    rates = [{"name": "ecb", "output": {"deposit_rate": {"current": 1.75, "previous": 2.0}}}]
    table = "| Satz | neu | vorher |\n|---|---|---|\n| Einlagefazilität | 1,75 % | 2,00 % |"
    assert not verify(table, rates, locale="de_DE", judge=False).flagged
    unlabelled = "| Satz | neu | Wert |\n|---|---|---|\n| Einlagefazilität | 1,75 % | 2,00 % |"
    assert _flag(verify(unlabelled, rates, locale="de_DE", judge=False), "2,00 %").status == "misattributed"


def test_a_comparison_or_an_after_in_other_languages_says_so_too():
    gdp = [{"name": "gdp", "output": {"growth_pct": 2.8, "previous": {"growth_pct": 3.3}}}]
    for said in ("GDP grew 2.8%, slower than Q2's 3.3%.",):
        assert not verify(said, gdp, judge=False).flagged, said
    core = [{"name": "hicp", "output": {"core_yoy_pct": 2.3, "previous": {"core_yoy_pct": 2.4}}}]
    assert not verify("L'inflation sous-jacente recule à 2,3 % (après 2,4 %).", core, locale="fr_FR",
                      judge=False).flagged
