"""The question: entities the data lacks (gap_fill) or the answer leaves out (incomplete)."""

from verifier import verify

QUOTES = [{"name": "quotes", "output": {"quotes": [
    {"symbol": "AAPL", "name": "Apple Inc.", "price": 227.52, "change_pct": 0.6},
    {"symbol": "MSFT", "name": "Microsoft Corporation", "price": 428.17, "change_pct": 1.2}]}}]


def statuses(report):
    return {i.text: i.status for i in report.items}


def test_values_for_an_entity_the_data_lacks_are_gap_fill_even_when_they_match_by_chance():
    report = verify("Apple rose 0.6% to $227.52, while Tesla fell 1.2% to $171.05.", QUOTES,
                    question="Compare Apple and Tesla today")
    assert statuses(report) == {"0.6%": "exact", "$227.52": "exact", "1.2%": "gap_fill", "$171.05": "gap_fill"}
    gap = next(i for i in report.items if i.text == "1.2%")
    assert gap.flagged and "asks about Tesla" in gap.reason and gap.evidence == []


def test_a_ticker_asked_about_and_absent_is_gap_fill_with_its_values():
    report = verify("AAPL rose 0.6%, while TSLA fell 1.2%.", QUOTES, question="Compare AAPL and TSLA")
    assert statuses(report)["TSLA"] == "gap_fill" and statuses(report)["1.2%"] == "gap_fill"
    assert report.confidence == "low"


def test_an_entity_asked_about_and_left_out_is_an_incomplete_note():
    report = verify("AAPL rose 0.6% to $227.52.", QUOTES, question="How did AAPL and MSFT do?")
    (note,) = report.notes
    assert note.kind == "incomplete" and not note.flagged and "MSFT" in note.message
    assert report.confidence == "high"


def test_names_meet_tickers_through_the_record_name():
    report = verify("Apple rose 0.6% and Microsoft gained 1.2%.", QUOTES,
                    question="How did Apple and Microsoft do?")
    assert report.notes == [] and set(statuses(report).values()) == {"exact"}


def test_without_a_question_nothing_changes():
    report = verify("Apple rose 0.6% to $227.52, while Tesla fell 1.2% to $171.05.", QUOTES)
    assert statuses(report)["1.2%"] != "gap_fill"


def test_an_answer_that_says_an_asked_entity_is_missing_makes_no_claim_about_it():
    ko = [{"name": "get_quotes", "output": {"quotes": [
        {"symbol": "KO", "name": "The Coca-Cola Company", "pe_ratio": 28.3},
        {"symbol": "MDLZ", "name": "Mondelez International, Inc.", "pe_ratio": 20.4}]}}]
    report = verify("KO trades at 28.3 times earnings and MDLZ at 20.4; PEP was not in the data.", ko,
                    question="How do KO, PEP and MDLZ compare on valuation?")
    assert "PEP" not in statuses(report) and report.confidence == "high"


def test_a_name_is_not_a_missing_entity_when_the_data_names_no_one():
    tools = [{"name": "get_quote", "output": {"symbol": "TSLA", "price": 336.9}}]
    report = verify("Tesla is trading at $336.90.", tools, question="Where is Tesla now?")
    assert statuses(report) == {"$336.90": "normalized"}


def test_a_ticker_only_in_prose_is_not_an_entity_the_question_asks_about():
    news = [{"name": "search_news", "output": {"results": [{
        "title": "FAA lets Boeing raise 737 MAX output to 42 a month",
        "snippet": "The FAA approved Boeing's request to lift 737 MAX production to 42 jets a month."}]}}]
    report = verify("The FAA approved Boeing's request to lift production to 42 jets a month [1].", news,
                    question="What's new with Boeing's 737 MAX production?")
    assert [n.kind for n in report.notes] == []
