"""Attribution: right numbers in the wrong place."""

import pytest
from verifier.normalizers.tickers import same_entity

from verifier import verify
from verifier.checks.attribute import sentence_starts

SCREEN = [{"name": "screen", "output": {"as_of_spx_change_pct": 0.8, "results": [
    {"symbol": "NVDA", "price": 131.24, "change_pct": 1.87},
    {"symbol": "AMD", "price": 158.32, "change_pct": 2.43},
    {"symbol": "VOD", "exchange": "LSE", "price": 71.52, "change_pct": -0.42},
]}}]


def status(answer, text, tools=SCREEN):
    report = verify(answer, tools)
    found = [i for i in report.items if i.text == text]
    assert found, [(i.text, i.status) for i in report.items]
    return found[0], report


def test_value_from_another_tickers_record_is_misattributed():
    item, report = status("NVDA rose 2.43% today.", "2.43%")
    assert item.status == "misattributed" and item.flagged
    assert item.evidence[0].path == "$.results[1].change_pct" and "belongs to AMD, not NVDA" in item.reason
    assert report.confidence == "medium" and "'2.43%'" in report.warnings.retry_hint


@pytest.mark.parametrize(
    ("answer", "text"),
    [
        ("NVDA rose 1.87% and AMD rose 2.43%.", "2.43%"),  # each value after its own ticker
        ("NVDA rose 1.87%, with the market up 0.8%.", "0.8%"),  # a value outside any record
        ("VOD.L closed at 71.52.", "71.52"),  # the venue suffix names the same record
        ("AMD: $158.32, NVDA: $131.24.", "$131.24"),
    ],
)
def test_values_in_the_named_tickers_record_or_no_record_are_supported(answer, text):
    assert status(answer, text)[0].status in ("exact", "normalized")


def test_a_new_clause_or_an_unknown_entity_unties_the_value():
    # "and Broadcom" starts a clause about an entity the data has no ticker for
    assert status("NVDA rose 1.87% and Broadcom gained 2.43%.", "2.43%")[0].status == "exact"
    assert status("NVDA rose 1.87%; peers gained 2.43%.", "2.43%")[0].status == "exact"
    assert status("ZZZQ gained 2.43%.", "2.43%")[0].status == "exact"  # ZZZQ itself is flagged


def test_codes_name_their_record():
    tools = {"holdings": [{"name": "Apple", "isin": "US0378331005", "symbol": "AAPL", "weight_pct": 5.87},
                          {"name": "Microsoft", "isin": "US5949181045", "symbol": "MSFT", "weight_pct": 6.12}]}
    ok = verify("Apple (US0378331005) is 5.87% of the fund.", tools)
    assert [i.status for i in ok.items if i.kind == "percent"] == ["exact"]
    bad = verify("Apple (US0378331005) is 6.12% of the fund.", tools)
    assert [i.status for i in bad.items if i.kind == "percent"] == ["misattributed"]


def test_sentence_splitter_keeps_abbreviations_and_decimals():
    text = "Apple Inc. rose 1.5% today. NVDA fell.\nAMD rose"
    assert [text[i:i + 4] for i in sentence_starts(text)] == ["Appl", "NVDA", "AMD "]


def test_same_entity():
    assert same_entity("VOD.L", "VOD") and same_entity("BRK-B", "BRK.B")
    assert not same_entity("AMD", "NVDA")


FIN = [{"name": "fundamentals", "output": {"symbol": "ACME",
        "annual": [{"fiscal_year": 2025, "revenue": 100}, {"fiscal_year": 2026, "revenue": 120}],
        "quarters": [{"period": "Q3 2025", "eps": 1.1}, {"fiscal_quarter": 4, "fiscal_year": 2025, "eps": 1.3}],
        "table": {"columns": ["item", "2024", "2023"], "rows": [["margin", "41.2", "39.8"]]}}}]


@pytest.mark.parametrize(("answer", "text", "owner"), [
    ("ACME revenue was $120 million in 2025.", "$120 million", "the 2026 record, not 2025"),
    ("Q3 2025 EPS was $1.30.", "$1.30", "the Q4 2025 record, not Q3 2025"),
    ("In 2023 the margin was 41.2.", "41.2", "the 2024 record, not 2023"),
])
def test_a_value_from_another_periods_record_is_misattributed(answer, text, owner):
    item, _ = status(answer, text, FIN)
    assert item.status == "misattributed" and owner in item.reason


@pytest.mark.parametrize(("answer", "text"), [
    ("ACME revenue was $120 million in 2026.", "$120 million"),
    ("In FY2025 revenue was 100 and in FY2026 it was 120.", "120"),
    ("Q4 2025 EPS was $1.30.", "$1.30"),
    ("EPS was $1.30 in 2025.", "$1.30"),
])
def test_values_in_the_named_periods_record_are_supported(answer, text):
    item, _ = status(answer, text, FIN)
    assert item.status in ("exact", "normalized")


@pytest.mark.parametrize("key", ["Q2 2025", "2Q25", "2025 Q2", "2025-Q2"])
def test_a_value_stored_under_a_period_key_has_that_period(key):
    tools = {"revenue": {"Q3 2025": 5.2, key: 4.9}}
    item, _ = status("Revenue was 4.9 in Q3 2025.", "4.9", tools)
    assert item.status == "misattributed" and "Q2 2025" in item.reason
    item, _ = status("Revenue was 5.2 in Q3 2025.", "5.2", tools)
    assert item.status == "exact"


def test_a_value_followed_by_for_ticker_belongs_to_that_ticker():
    screen = [{"name": "run_screener", "output": {"results": [
        {"symbol": "AVGO", "pe_forward": 31.2}, {"symbol": "QCOM", "pe_forward": 14.9}]}}]
    report = verify("QCOM is cheaper at 14.9 times forward earnings, against 31.2 for AVGO.", screen)
    assert {i.text: i.status for i in report.items}["31.2"] == "exact"
    report = verify("QCOM is cheaper at 31.2 times forward earnings, against 14.9 for AVGO.", screen)
    assert {i.text: i.status for i in report.items}["14.9"] == "misattributed"


def test_a_capital_word_at_the_start_of_a_sentence_is_not_a_ticker_because_prose_has_it():
    schw = [{"name": "doc", "output": {"symbol": "SCHW", "text": "A $25 service charge applies to broker-assisted trades."}}]
    report = verify("A $25 service charge applies to broker-assisted trades.", schw)
    assert [(i.text, i.status) for i in report.items] == [("$25", "exact")]


def test_us_is_not_a_ticker():
    report = verify("Schwab is a U.S. broker; SCHW trades at $80.10.",
                    [{"name": "q", "output": {"symbol": "SCHW", "price": 80.1}}])
    assert report.confidence == "high" and "U.S" not in {i.text for i in report.items}


QUOTES_PREV = {"quotes": [{"symbol": "AAPL", "price": 142.3, "prev_price": 140.0},
                          {"symbol": "MSFT", "price": 410.2, "prev_price": 400.0}]}


@pytest.mark.parametrize(("answer", "status"), [
    ("AAPL rose 10.2 today.", "misattributed"),  # MSFT's change given to AAPL
    ("AAPL rose 2.55% today.", "misattributed"),
    ("AAPL rose 2.3 today.", "derived"),
    ("MSFT rose 2.55% today.", "derived"),
    ("AAPL trades 267.9 below MSFT.", "derived"),  # a comparison has AAPL's price in it
    ("AAPL and MSFT rose 2.3 and 10.2 respectively.", "derived"),  # pairs it does not read: untied
])
def test_a_value_computed_from_another_tickers_record_is_misattributed(answer, status):
    report = verify(answer, QUOTES_PREV)
    items = [i for i in report.items if i.kind != "ticker"]
    assert [i.status for i in items][:1] == [status]
    if status == "misattributed":
        assert items[0].flagged and "MSFT's record" in items[0].reason
        assert items[0].expression == "$.quotes[1].price - $.quotes[1].prev_price" or "/" in items[0].expression
        assert report.confidence != "high"


@pytest.mark.parametrize("answer", [
    "AAPL lagged MSFT with a gain of 2.3.",
    "AAPL and MSFT rose 2.3 and 10.2.",
])
def test_a_derived_value_whose_sentence_also_names_its_owner_is_not_misattributed(answer):
    statuses = [i.status for i in verify(answer, QUOTES_PREV).items if i.kind != "ticker"]
    assert statuses and set(statuses) == {"derived"}
    # the same value in a sentence of its own about the other ticker is
    assert [i.status for i in verify("AAPL rose 2.3 today. MSFT rose 2.3 too.", QUOTES_PREV).items
            if i.kind != "ticker"] == ["derived", "misattributed"]


def test_values_computed_for_two_tickers_and_swapped_are_misattributed():
    positions = {"positions": [{"symbol": "AAPL", "qty": 150, "price": 142.3},
                               {"symbol": "MSFT", "qty": 40, "price": 410.5}]}
    swapped = verify("Your AAPL position is worth $16,420 and your MSFT position is worth $21,345.", positions)
    assert [i.status for i in swapped.items if i.kind != "ticker"] == ["misattributed", "misattributed"]
    right = verify("Your AAPL position is worth $21,345 and your MSFT position is worth $16,420.", positions)
    assert [i.status for i in right.items if i.kind != "ticker"] == ["derived", "derived"]
    # the owner named later, beside a value of its own, excuses nothing
    later = verify("Your AAPL position is worth $16,420, while MSFT is at $410.50.", positions)
    assert [i.status for i in later.items if i.kind != "ticker"] == ["misattributed", "normalized"]


def test_a_sum_of_the_named_years_figures_is_not_another_years_cell():
    # 200 is 2018's total, and 2019's cash plus receivables: the clause's year decides
    sheet = {"columns": ["", "2019", "2018"],
             "rows": [["Cash", "120", "110"], ["Receivables", "80", "90"], ["Total current assets", "210", "200"]]}
    item = verify("Cash plus receivables came to 200 in 2019.", sheet).items[0]
    assert item.status == "derived" and item.expression == "$.rows[0][1] + $.rows[1][1]"
    assert verify("Cash was 110 in 2019.", sheet).items[0].status == "misattributed"
    # a computation reaching into another year does not rescue it: 200 is 2018's total,
    # and also cash of 2019 plus cash of 2018
    other = {"columns": ["", "2019", "2018"],
             "rows": [["Cash", "120", "80"], ["Receivables", "85", "95"], ["Total", "205", "200"]]}
    assert verify("Cash came to 200 in 2019.", other).items[0].status == "misattributed"


def test_another_years_cell_is_rescued_only_by_the_named_rows_of_the_named_year():
    sheet = {"columns": ["", "2019", "2018"],
             "rows": [["Revenue", "500", "440"], ["Cost of sales", "300", "300"], ["Operating expenses", "60", "40"]]}
    # 440 is 2018's revenue; 500 - 60 is an accident, not what "revenue was" means
    assert verify("Revenue was 440 in 2019.", sheet).items[0].status == "misattributed"
    # a change in 2019 is this year's figure less last year's: 500 - 460
    growth = {"columns": ["", "2019", "2018"], "rows": [["Revenue", "500", "460"], ["Operating expenses", "60", "40"]]}
    item = verify("Revenue grew by 40 in 2019.", growth).items[0]
    assert item.status == "derived" and item.expression == "$.rows[0][1] - $.rows[0][2]"


def test_an_owner_named_after_the_value_excuses_nothing():
    positions = {"positions": [{"symbol": "AAPL", "qty": 150, "price": 142.3},
                               {"symbol": "MSFT", "qty": 40, "price": 410.5}]}
    assert [i.status for i in verify("Your AAPL position is worth $16,420, and MSFT rallied today.",
                                     positions).items if i.kind != "ticker"] == ["misattributed"]
