"""Negations and direction words against the data."""

from verifier import verify

FIN = [{"name": "fundamentals", "output": {
    "symbol": "ACME", "net_income": 1200000, "eps_result": "beat", "revenue_result": "miss",
    "pays_dividend": False,
    "fee_policy": "Normal wear is never charged. Late returns are charged a fee of 25 dollars."}}]


def notes(answer, tools=FIN):
    report = verify(answer, tools)
    return report, [(n.kind, n.flagged) for n in report.notes]


def test_a_dropped_negation_is_flagged_with_the_source_sentence():
    report, found = notes("Normal wear is always charged.")
    assert found == [("negation", True)]
    assert "never charged" in report.notes[0].message and report.notes[0].evidence[0].path == "$.fee_policy"
    assert report.confidence == "medium"


def test_the_same_polarity_passes():
    assert notes("Normal wear is never charged.")[1] == []
    assert notes("Late returns are charged a fee.")[1] == []


def test_a_sentence_against_a_boolean_field_is_flagged():
    report, found = notes("ACME pays a dividend.")
    assert found == [("negation", True)] and "pays_dividend = false" in report.notes[0].message
    assert notes("ACME does not pay a dividend.")[1] == []


def test_missed_against_beat_is_a_direction_note_and_mixed_outcomes_follow_the_named_field():
    report, found = notes("ACME missed EPS estimates.")
    assert found == [("direction", True)] and "eps_result = beat" in report.notes[0].message
    assert notes("ACME missed revenue estimates.")[1] == []
    assert notes("ACME beat on EPS but missed on revenue.")[1] == []
    assert notes("ACME did not beat revenue estimates.")[1] == []


def test_a_signed_surprise_sets_the_outcome():
    tools = [{"name": "earnings", "output": {"symbol": "ZZZ", "eps_surprise_pct": -4.1}}]
    assert notes("ZZZ beat estimates.", tools)[1] == [("direction", True)]
    assert notes("ZZZ missed estimates.", tools)[1] == []


def test_a_loss_stated_for_a_profit_flags_the_amount():
    report = verify("ACME reported a net loss of $1.2 million.", FIN)
    item = report.items[-1]
    assert item.status == "unsupported" and item.flagged and "calls it a loss" in item.reason
    assert verify("ACME reported net income of $1.2 million.", FIN).items[-1].status == "normalized"


def test_a_loss_field_is_positive_for_a_loss():
    tools = [{"name": "e", "output": {"symbol": "ZZZ", "net_loss": 500000}}]
    assert verify("ZZZ posted a loss of $500,000.", tools).items[-1].status == "normalized"
    assert verify("ZZZ posted a profit of $500,000.", tools).items[-1].status == "unsupported"


def test_the_policy_can_turn_polarity_checks_off():
    report = verify("ACME missed EPS estimates.", FIN, policy={"check_polarity": False})
    assert report.notes == []


SCHW = [{"name": "get_document_excerpt", "id": "c1", "output": {"symbol": "SCHW", "text": (
    "Schwab does not charge a commission for online trades of stocks and ETFs. A $25 service charge "
    "applies to broker-assisted trades. Schwab never charges an account maintenance fee on brokerage "
    "accounts. Online options trades are charged $0.65 per contract with no base commission.")}}]
VIKING = [{"name": "f", "id": "c", "output": {"symbol": "VKTX", "name": "Viking Therapeutics, Inc.",
                                              "has_approved_products": False, "pays_dividend": False}}]
LULU = [{"name": "get_earnings", "id": "c", "output": {
    "symbol": "LULU", "eps": {"actual": 6.14, "estimate": 5.85, "surprise_pct": 4.96},
    "revenue": {"surprise_pct": 0.85}}}]


def test_two_correct_negations_in_one_sentence_do_not_cancel():
    assert notes("Schwab does not charge a commission for online trades of stocks and ETFs, and it never "
                 "charges an account maintenance fee on brokerage accounts.", SCHW)[1] == []
    assert notes("Viking has no approved products yet and does not pay a dividend.", VIKING)[1] == []


def test_a_negation_about_another_part_of_the_source_sentence_does_not_count():
    assert notes("Online options trades cost $0.65 per contract.", SCHW)[1] == []


def test_a_flipped_negation_is_found_in_a_longer_sentence():
    _, found = notes("Schwab charges a commission for online trades of stocks and ETFs, and options cost "
                     "$0.65 per contract.", SCHW)
    assert found == [("negation", True)]


def test_only_a_negation_governing_the_outcome_word_flips_it():
    assert notes("No. LULU missed estimates, with EPS of $6.14 against the $5.85 consensus.", LULU)[1] == [
        ("direction", True)]
    assert notes("Not this time: LULU missed estimates.", LULU)[1] == [("direction", True)]
    assert notes("LULU did not miss estimates.", LULU)[1] == []


def test_outcomes_are_checked_clause_by_clause():
    results = [{"name": "cal", "output": {"results": [
        {"symbol": "ORCL", "eps_actual": 1.47, "eps_result": "miss"},
        {"symbol": "ADBE", "eps_actual": 5.08, "eps_result": "beat"}]}}]
    assert notes("ORCL missed on EPS at $1.47, while ADBE missed too with $5.08.", results)[1] == [
        ("direction", True)]
    assert notes("ORCL missed on EPS, while ADBE beat.", results)[1] == []
    assert notes("LULU topped EPS forecasts, but revenue missed.", LULU)[1] == [("direction", True)]


def test_fell_short_is_a_miss():
    assert notes("LULU's EPS of $6.14 fell short of the $5.85 consensus.", LULU)[1] == [("direction", True)]
