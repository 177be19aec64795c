"""Who a value is about: an exchange or broker the data names is no owner of records, a
defined acronym is a term, a company the data writes in words is covered, and a value
the data supports is retrieved, not filled in."""

from __future__ import annotations

from verifier import verify
from verifier.text.acronyms import defined_terms

QUOTE = [{"name": "q", "output": {"symbol": "SAP.DE", "exchange": "XETRA", "price": 231.45, "change": -1.4}}]


def _status(report, text):
    return next(i.status for i in report.items if i.text == text)


def test_an_exchange_the_data_names_does_not_take_over_the_clause():
    report = verify("SAP.DE trades on XETRA at €231.45, down €1.40.", QUOTE, judge=False)
    assert _status(report, "€231.45") == "exact" and not report.flagged
    other = [{"name": "q", "output": [{"symbol": "SAP.DE", "price": 231.45}, {"symbol": "SIE.DE", "price": 180.2}]}]
    assert _status(verify("SIE.DE trades at €231.45.", other, judge=False), "€231.45") == "misattributed"


def test_acronyms_a_text_defines_are_terms():
    assert defined_terms("the Days Payable Outstanding (DPO) and Property, Plant and Equipment (PP&E)") == {
        "DPO", "PP&E"}
    assert defined_terms("EBITDA (earnings before interest, taxes, depreciation and amortization)") == {"EBITDA"}
    assert defined_terms("Das Kurs-Gewinn-Verhältnis (KGV) liegt bei 44,85") == {"KGV"}
    assert defined_terms("Apple (AAPL) and NVIDIA (NVDA) rose") == set()
    report = verify("Walmart's Days Payable Outstanding (DPO) was 45 days; DPO is up.",
                    [{"name": "t", "output": {"dpo_days": 45}}], judge=False)
    assert [i.text for i in report.items if i.kind == "ticker"] == []


def test_a_question_acronym_the_answer_defines_is_no_missing_entity():
    tools = [{"name": "t", "output": {"text": "Accounts payable 41,433 and 46,092"}}]
    report = verify("The Days Payable Outstanding (DPO) uses 41,433 and 46,092.", tools,
                    question="What is the FY2018 DPO?", judge=False)
    assert not report.flagged, [(i.text, i.status) for i in report.items if i.flagged]


def test_a_company_the_data_writes_in_words_is_covered():
    pages = [{"name": "page", "output": {"text": "Amcor plc reported net sales of $14,694 million."}}]
    report = verify("AMCOR's net sales were $14,694 million.", pages, question="What were AMCOR's net sales?",
                    judge=False)
    assert _status(report, "$14,694 million") in ("exact", "normalized")


def test_only_a_value_found_nowhere_is_filled_in():
    tools = [{"name": "q", "output": {"symbol": "AAPL", "price": 142.3}}]
    question = "What are MSFT and AAPL at?"
    assert _status(verify("MSFT is at $420.10.", tools, question=question, judge=False), "$420.10") == "gap_fill"
    # in the data, but only in another entity's record: that entity's
    assert _status(verify("MSFT is at $142.30.", tools, question=question, judge=False), "$142.30") == "misattributed"
    pages = [{"name": "page", "output": {"text": "Net sales were $14,694 million."}}]
    covered = verify("AMCR's net sales were $14,694 million.", pages, question="What were AMCR's net sales?",
                     judge=False)
    assert _status(covered, "$14,694 million") in ("exact", "normalized")  # retrieved, not filled in


def test_a_move_must_go_the_way_its_verb_says():
    tools = [{"name": "q", "output": {"target": 345, "prior": 390}}]
    wrong = verify("Goldman raised its target to $345 from $390.", tools, judge=False)
    assert [n.kind for n in wrong.notes if n.flagged] == ["direction"]
    for right in ("Goldman cut its target to $345 from $390.", "Goldman lowered its target from $390 to $345.",
                  "Costs went up by 3.0% from 53.2% in 2021 to 56.2% in 2022."):
        assert not [n for n in verify(right, tools, judge=False).notes if n.flagged], right
    # the direction word between the two ends: "A, up from B"
    income = [{"name": "q", "output": {"net_income": 31882, "prior": 34979, "unit": "millions"}}]
    wrong = verify("Net income was $31.882 billion, up from $34.979 billion.", income, judge=False)
    assert [n.kind for n in wrong.notes if n.flagged] == ["direction"]
    for right in ("Net income was $31.882 billion, down from $34.979 billion.",
                  "Net income was $31.882 billion (lower from $34.979 billion)."):
        assert not [n for n in verify(right, income, judge=False).notes if n.flagged], right


def test_a_field_named_like_a_ticker_owns_no_record():
    overview = [{"name": "o", "output": {"Symbol": "KO", "DividendPerShare": 2.04, "EPS": 2.82}}]
    report = verify("With EPS of $2.82, the payout ratio is $2.04 / $2.82 ≈ 72.3%.", overview, judge=False)
    assert not report.flagged, [(i.text, i.status, i.reason) for i in report.items if i.flagged]


def test_a_ticker_the_answer_names_a_company_by_is_covered_where_the_data_writes_the_name():
    pages = [{"name": "page", "output": {"text": "JPMorgan Chase & Co. reported net income of $8,649 million."}}]
    report = verify("JPMorgan Chase & Co. (JPM) earned $8,649 million.", pages, question="What did JPM earn?",
                    judge=False)
    assert not report.flagged, [(i.text, i.status) for i in report.items if i.flagged]


def test_and_reads_as_its_n_in_an_acronym():
    assert defined_terms("Property, Plant and Equipment (PPNE) rose") == {"PPNE"}
    assert defined_terms("Research and Development (R&D) rose") == {"R&D"}


def test_fund_document_and_filer_acronyms_are_no_tickers():
    profile = [{"name": "p", "output": {"symbol": "COST", "cik": "0000909832", "kid_sri": 3}}]
    report = verify("Costco (COST) files under CIK 0000909832; the fund's KID gives an SRI of 3.", profile,
                    judge=False)
    assert not [i.text for i in report.items if i.kind == "ticker" and i.flagged]
