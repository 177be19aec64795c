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
