"""Two tool results that disagree about the same entity's field."""

from verifier import verify

TWO = [{"name": "get_quote", "output": {"symbol": "AAPL", "price": 227.52, "pe": 34.1}},
       {"name": "market_data", "output": {"quotes": [{"symbol": "AAPL", "price": 227.48, "pe": 34.1,
                                                      "volume": 51000000}]}}]


def test_a_value_from_one_of_two_disagreeing_sources_names_both():
    report = verify("AAPL trades at $227.52.", TWO)
    (note,) = report.notes
    assert note.kind == "conflict" and not note.flagged
    assert "get_quote" in note.message and "market_data says 227.48" in note.message
    assert [e.path for e in note.evidence] == ["$.price", "$.quotes[0].price"]
    assert report.confidence == "high"  # a warning, not a failure


def test_sources_that_agree_raise_nothing():
    assert verify("AAPL trades at 34.1 times earnings.", TWO).notes == []


def test_sources_that_differ_only_by_rounding_agree():
    tools = [{"name": "get_quote", "output": {"symbol": "AAPL", "price": 227.5}},
             {"name": "positions", "output": {"holdings": [{"symbol": "AAPL", "price": 227.52, "qty": 10}]}}]
    assert verify("AAPL trades at $227.52.", tools).notes == []
    assert verify("AAPL trades at $227.50.", tools).notes == []
    tools[0]["output"]["price"] = 227.6  # 227.52 rounds to 227.5, not 227.6: they disagree
    assert [n.kind for n in verify("AAPL trades at $227.52.", tools).notes] == ["conflict"]


def test_a_sentence_that_merges_records_from_disagreeing_sources_says_so():
    report = verify("AAPL trades at $227.52 on volume of 51 million shares.", TWO)
    kinds = [n.kind for n in report.notes]
    assert kinds == ["conflict", "merged_sources"]
    assert "get_quote and market_data" in report.notes[1].message


def test_a_single_tool_has_no_conflicts():
    assert verify("AAPL trades at $227.52.", TWO[:1]).notes == []


AGREE_ON_VOLUME = [
    {"name": "get_quote", "output": {"symbol": "AAPL", "price": 227.48, "volume": 41873200}},
    {"name": "market_data", "output": {"data": [{"ticker": "AAPL", "price": 227.52, "volume": 41873200,
                                                 "pe_ratio": 34.6}]}}]


def test_values_one_source_holds_together_are_not_merged():
    report = verify("AAPL trades at 34.6 times earnings on volume of 41,873,200 shares.", AGREE_ON_VOLUME)
    assert report.notes == []


def test_a_rounded_value_is_not_pinned_to_one_source():
    report = verify("AAPL is trading around $227.5.", AGREE_ON_VOLUME)
    assert [n.kind for n in report.notes] == []


def test_an_integer_is_not_a_rounding_and_half_a_unit_agrees():
    tools = [{"name": "a", "output": {"symbol": "AAPL", "change_pct": 0, "price": 227.5}},
             {"name": "b", "output": {"quotes": [{"symbol": "AAPL", "change_pct": 0.45, "price": 227.45}]}}]
    kinds = [n.kind for n in verify("AAPL was flat at 0% on the day.", tools).notes]
    assert kinds == ["conflict"]  # 0 against 0.45 is a disagreement, not a rounding
    assert verify("AAPL trades at $227.45.", tools).notes == []  # 227.5 is 227.45 rounded
