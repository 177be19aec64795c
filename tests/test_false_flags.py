"""Correct answers that must not be flagged: cases a reviewer found where the
attribution stages (question, periods, tickers, citations, overlap, polarity, cells,
conflicts) read one label too far. Each would have shown a correct answer with a
warning, most with 'low' and a retry."""

import pytest

from verifier import verify

Q2 = [{"name": "get_quote", "id": "c1", "output": {"symbol": "AAPL", "name": "Apple Inc.", "price": 201.5,
                                                     "change_pct": 1.2}},
      {"name": "get_quote", "id": "c2", "output": {"symbol": "MSFT", "name": "Microsoft Corporation",
                                                     "price": 470.38, "change_pct": -0.4}}]
EARN = [{"name": "get_financials", "id": "call_1", "output": {"symbol": "AAPL", "unit": "billions", "annual": [
    {"fiscal_year": 2024, "revenue": 391.035, "net_income": 93.736},
    {"fiscal_year": 2023, "revenue": 383.285, "net_income": 96.995}]}}]


def flags(answer, tools, **kw):
    report = verify(answer, tools, judge=False, **kw)
    return report, [(i.text, i.status) for i in report.items if i.flagged], [n.kind for n in report.notes if n.flagged]


@pytest.mark.parametrize(("answer", "question"), [
    ("Apple rose after the Fed held rates, gaining 1.2% to $201.50.", "How did Apple react to the Fed decision?"),
    ("Apple gained 1.2% after Powell spoke, closing at $201.50.", "Did Apple move when Powell spoke?"),
])
def test_a_capitalised_word_in_the_question_is_not_a_missing_company(answer, question):
    report, flagged, _ = flags(answer, Q2, question=question)
    assert flagged == [] and report.confidence == "high"


def test_a_company_called_otherwise_than_in_the_data_keeps_its_supported_values():
    tools = [{"name": "q", "output": {"symbol": "GOOGL", "name": "Alphabet Inc. Class A", "price": 175.2,
                                       "change_pct": 0.8}}, Q2[1]]
    _, flagged, _ = flags("Google trades at $175.20, up 0.8%, and Microsoft at $470.38.", tools,
                          question="Compare Google and Microsoft")
    assert flagged == []


def test_dont_have_data_for_says_the_entity_is_missing():
    _, flagged, _ = flags("AAPL trades at $201.50. I don't have data for GOOGL.", Q2,
                          question="Compare AAPL, MSFT and GOOGL")
    assert flagged == []


@pytest.mark.parametrize("answer", [
    "Apple's revenue rose to $391.035 billion in fiscal 2024 from $383.285 billion a year earlier.",
    "In FY2024 AAPL earned $93.736 billion, down from $96.995 billion.",
    "Since 2023, net income slipped to $93.736 billion.",
])
def test_a_clause_that_moves_between_periods_is_not_pinned_to_one(answer):
    assert flags(answer, EARN)[1] == []


def test_snapshot_dates_are_not_periods_of_the_figures():
    est = [{"name": "get_estimates", "output": {"symbol": "AAPL", "as_of": "2025-06-10", "eps_next_year": 8.05}}]
    # (2026 itself is not in the data: that flag is right)
    assert flags("Analysts expect AAPL to earn $8.05 per share in 2026.", est)[1] == [("2026", "unsupported")]


def test_a_number_key_is_not_a_year():
    fees = [{"name": "fees", "output": {"commission_tiers": {"1000": 4.95, "5000": 2.95}}}]
    assert ("$4.95", "misattributed") not in flags("For 2025, trades up to 1,000 shares cost $4.95.", fees)[1]


@pytest.mark.parametrize("answer", [
    "Apple (AAPL) rose 1.2%, with Microsoft down 0.4% at $470.38.",
    "AAPL rose 1.2% as Microsoft slipped 0.4%.",
])
def test_a_company_name_ends_the_previous_tickers_reach(answer):
    assert flags(answer, Q2)[1] == []


def test_of_etf_does_not_retie_a_holding():
    spy = [{"name": "h", "output": {"etf": "SPY", "holdings": [{"symbol": "NVDA", "weight_pct": 7.12},
                                                               {"symbol": "MSFT", "weight_pct": 6.85}]}}]
    assert flags("NVDA makes up 7.12% of SPY, ahead of MSFT at 6.85%.", spy)[1] == []


def test_respectively_unties_values_from_the_last_ticker():
    screen = [{"name": "s", "output": {"results": [{"symbol": "SMCI", "change_pct": 5.61},
                                                   {"symbol": "DELL", "change_pct": 4.05}]}}]
    assert flags("Both SMCI and DELL rose, by 5.61% and 4.05% respectively.", screen)[1] == []


def test_german_clauses_end_a_tickers_reach():
    quotes = [{"name": "q", "output": {"quotes": [
        {"symbol": "SAP", "price": 254.35, "change_pct": -1.27}, {"symbol": "SIE", "price": 201.80, "change_pct": 0.85}]}}]
    answer = "SAP fiel um 1,27 % auf 254,35 €, während SIE um 0,85 % auf 201,80 € stieg."
    assert flags(answer, quotes, locale="de_DE")[1] == []


def test_citation_one_of_structured_data_is_the_whole_tool():
    tools = [{"name": "get_earnings", "output": {"symbol": "NVDA", "unit": "billions", "quarters": [
        {"fiscal_year": 2026, "fiscal_quarter": 1, "revenue": 44.06},
        {"fiscal_year": 2025, "fiscal_quarter": 4, "revenue": 39.33}]}}]
    assert flags("NVDA reported Q4 FY2025 revenue of $39.33 billion [1].", tools)[1] == []


def test_a_sources_footer_keeps_each_marker_on_its_own_line():
    news = [{"name": "search_news", "output": {"results": [
        {"title": "Nvidia warns of $5.5 billion charge on H20 export curbs", "source": "Reuters",
         "snippet": "Nvidia expects a $5.5 billion charge tied to H20 export curbs to China, it said."},
        {"title": "AMD sees $800 million hit from new chip export rules", "source": "Bloomberg",
         "snippet": "AMD expects charges of up to $800 million from the new export rules on chips."}]}}]
    answer = ("Nvidia expects a $5.5 billion charge [1] and AMD up to $800 million [2].\n\nSources:\n"
              "[1] Reuters - Nvidia warns of $5.5 billion charge on H20 export curbs\n"
              "[2] Bloomberg - AMD sees $800 million hit from new chip export rules")
    report, flagged, notes = flags(answer, news)
    assert flagged == [] and "low_overlap" not in notes
    footer = [s for s in report.sentences if s.citations == [1] and "Reuters" in answer[s.start:s.end]]
    assert footer


def test_short_strings_of_structured_tools_are_not_prose_to_overlap_with():
    screen = {"name": "screen", "output": {"results": [{"symbol": "AAPL", "name": "Apple Inc.", "sector":
              "Information Technology and Consumer Electronics Hardware", "industry": "Consumer Electronics",
              "price": 201.5, "change_pct": 1.2}]}}
    news = {"name": "news", "output": {"results": [{"title": "Analysts raise iPhone estimates",
            "snippet": "Several analysts raised their iPhone estimates after strong channel checks in Asia."}]}}
    report, _flagged, notes = flags("AAPL rose 1.2% to $201.50 today [1]. Analysts raised iPhone estimates [2].",
                                   [screen, news])
    assert notes == [] and report.confidence == "high"


def test_a_boolean_flag_belongs_to_its_company():
    scr = [{"name": "scr", "output": {"results": [{"symbol": "AAPL", "pays_dividend": True, "dividend_yield_pct": 0.44},
                                                  {"symbol": "TSLA", "pays_dividend": False}]}}]
    assert flags("AAPL pays a dividend, yielding 0.44%.", scr)[2] == []
    assert flags("TSLA does not pay a dividend.", scr)[2] == []
    assert flags("TSLA pays a dividend.", scr)[2] == ["negation"]


def test_a_verbatim_copy_of_a_source_with_two_clauses_is_not_a_negation():
    fees = [{"name": "fees", "output": {"text": (
        "Full account transfers out are charged $75; partial transfers are not charged. "
        "Paper statements cost $2 per month unless you enroll in e-delivery.")}}]
    assert flags("Full account transfers out are charged $75; partial transfers are not charged.", fees)[2] == []


@pytest.mark.parametrize("answer", [
    "NVDA beat estimates with EPS of $0.81. Even so, the stock lagged the Nasdaq.",
    "NVDA beat EPS estimates but missed on gross margin.",
    "NVDA beat estimates; investors who missed the rally are still waiting.",
])
def test_a_miss_word_that_is_not_about_the_estimate_is_not_a_direction(answer):
    earnings = [{"name": "e", "output": {"symbol": "NVDA", "eps_actual": 0.81, "eps_surprise_pct": 10.96}}]
    assert flags(answer, earnings)[2] == []


def test_a_stop_loss_is_not_a_loss():
    pos = [{"name": "pos", "output": {"symbol": "AAPL", "stop": 165.0, "target": 200.0}}]
    assert flags("Your stop loss sits at $165 and your target at $200.", pos)[1] == []


TABLE = [{"name": "filing", "output": {"table": {"columns": ["Item", "2024", "2023"], "rows": [
    ["Revenue", "391,035", "383,285"], ["Cost of sales", "210,352", "214,137"],
    ["Net income", "93,736", "96,995"]]}}}]


@pytest.mark.parametrize(("answer", "question"), [
    ("Net income was 93,736, down from 96,995.", "What was net income in 2024?"),
    ("Revenue was 391,035 and cost of sales 210,352.", "What was revenue in 2024?"),
])
def test_an_answer_that_names_its_own_row_or_moves_period_keeps_its_cells(answer, question):
    assert flags(answer, TABLE, question=question)[1] == []


def test_a_nan_surprise_does_not_crash():
    report = verify("NVDA beat estimates.", [{"name": "e", "output": {"symbol": "NVDA", "eps_surprise_pct": float("nan")}}])
    assert report.notes == []


@pytest.mark.parametrize(("tools", "answer"), [
    ([{"name": "quote", "output": {"symbol": "AAPL", "market_cap": 3.01e12}},
      {"name": "get_profile", "output": {"symbol": "AAPL", "unit": "billions", "market_cap": 3010}}],
     "AAPL has a market cap of $3.01 trillion."),
    ([{"name": "quote", "output": {"symbol": "SAP", "currency": "USD", "price": 270.1}},
      {"name": "quote_eu", "output": {"symbol": "SAP", "currency": "EUR", "price": 254.35}}],
     "SAP trades at $270.10."),
])
def test_values_in_other_units_or_currencies_are_not_conflicts(tools, answer):
    assert [n.kind for n in verify(answer, tools).notes] == []
