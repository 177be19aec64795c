from decimal import Decimal

import jsonpath_ng
import pytest

from verifier import Haystack, InputError, LimitError, Policy, Report, verify

QUOTE = [{"name": "get_quote", "id": "call_1", "output": {
    "symbol": "AAPL", "price": 142.3, "change_pct": 1.43, "volume": 2236000,
    "time": 1772668800000, "isin": "US0378331005", "history": [140.1, 141.2, 142.3]}}]


def item(report: Report, text: str):
    found = [i for i in report.items if i.text == text]
    assert found, f"{text!r} not extracted: {[i.text for i in report.items]}"
    return found[0]


def test_clean_answer_is_high_and_shown_without_warning():
    r = verify("AAPL trades at $142.30, up 1.43%, on March 5, 2026.", QUOTE)
    assert (r.confidence, r.action, r.flagged) == ("high", "show", 0)
    assert r.warnings.badge.label == "Verified" and r.warnings.retry_hint is None
    assert item(r, "$142.30").status == "normalized"
    assert item(r, "1.43%").status == "exact"


@pytest.mark.parametrize(
    ("answer", "text", "status"),
    [
        ("Volume was about 2.24 million.", "2.24 million", "rounded"),
        ("Volume was 2.24 million.", "2.24 million", "drift"),
        ("It rose 1.4%.", "1.4%", "drift"),
        ("It rose roughly 1.4%.", "1.4%", "rounded"),
        ("It rose ~1.4%.", "1.4%", "rounded"),
        ("It rose 0.0143 on the day.", "0.0143", "normalized"),
        ("The price was $143.30.", "$143.30", "unsupported"),
        ("The ISIN is US0378331005.", "US0378331005", "exact"),
        ("The ISIN is US0378331006.", "US0378331006", "invalid"),
        ("Prices over 3 sessions.", "3", "derived"),
        ("Volume was 2,236,000 shares.", "2,236,000", "normalized"),
        ("Volume was 2.236m shares.", "2.236m", "normalized"),
        ("MSFT was flat.", "MSFT", "unsupported"),
        ("As of 2026-03-05 the price held.", "2026-03-05", "normalized"),
        ("As of March 6, 2026 the price held.", "March 6, 2026", "unsupported"),
    ],
)
def test_statuses(answer, text, status):
    assert item(verify(answer, QUOTE), text).status == status


def test_unhedged_drift_is_flagged_and_named_in_retry_hint():
    r = verify("AAPL rose 1.4% to $142.30.", QUOTE)
    drift = item(r, "1.4%")
    assert drift.flagged and drift.evidence[0].path == "$.change_pct"
    assert r.confidence == "medium" and r.action == "show_with_warning"
    assert "'1.4%'" in r.warnings.retry_hint and "1.43" in r.warnings.retry_hint
    assert [(h.start, h.end) for h in r.warnings.highlights] == [(drift.start, drift.end)]


def test_invented_ticker_makes_confidence_low_with_retry():
    r = verify("AAPL at $142.30 and ZZZQ at $142.30, up 1.43% on 2026-03-05.", QUOTE)
    assert item(r, "ZZZQ").status == "unsupported"
    assert r.confidence == "low" and r.action == "retry"
    assert "ZZZQ" in r.warnings.message


def test_most_values_flagged_is_low_and_policy_can_abstain():
    answer = "It closed at $150.10 after $149.90, up 7.5%."
    assert verify(answer, QUOTE).confidence == "low"
    assert verify(answer, QUOTE, policy=Policy(abstain_below=0.5)).action == "abstain"


def test_sign_not_stated_matches_a_negative_value_but_a_wrong_sign_does_not():
    tools = {"change_pct": -3.2, "net_income": -5000000}
    assert item(verify("It fell 3.2% today.", tools), "3.2%").status == "normalized"
    assert item(verify("It moved 3.2% today.", tools), "3.2%").status == "normalized"
    assert item(verify("It moved -3.2% today.", tools), "-3.2%").status == "exact"
    assert item(verify("It moved +3.2% today.", tools), "+3.2%").status == "unsupported"
    rose = item(verify("It rose 3.2% today.", tools), "3.2%")
    assert rose.status == "unsupported" and "opposite sign" in rose.reason
    assert rose.evidence[0].path == "$.change_pct"
    assert item(verify("A loss of $5m.", tools), "$5m").status == "normalized"  # amounts: sign free


def test_a_percentage_as_written_needs_a_field_that_holds_percentages():
    tools = {"eps": 2.94, "yields": {"10Y": 4.31}, "table": {"columns": ["", "Change (%)"], "rows": [["A", "2.2"]]}}
    assert item(verify("It was up 3% on the day.", tools), "3%").status == "unsupported"  # not eps 2.94
    assert item(verify("The ten-year yields 4.31%.", tools), "4.31%").status == "exact"
    assert item(verify("A changed 2.2%.", tools), "2.2%").status in ("exact", "normalized")


def test_scale_from_key_and_from_answer():
    tools = {"revenue_millions": 2100, "net_income": 512000000}
    r = verify("Revenue was $2.1bn and net income $512 million.", tools)
    assert item(r, "$2.1bn").status == "normalized"
    assert item(r, "$512 million").status == "normalized"
    assert item(r, "$2.1bn").evidence[0].how == "scaled by key"


@pytest.mark.parametrize(
    ("locale", "answer", "text"),
    [
        ("de_DE", "Der Umsatz lag bei 1.234,56 € am 05.03.2026.", "1.234,56 €"),
        ("fr_FR", "Le chiffre d'affaires atteint 1\u202f234,56 €.", "1\u202f234,56 €"),
        ("de_CH", "Umsatz CHF 1'234.56.", "CHF 1'234.56"),
        ("en_IN", "Revenue of ₹1,234.56 only.", "₹1,234.56"),
    ],
)
def test_locales_read_the_answer_their_way(locale, answer, text):
    tools = {"revenue": 1234.56, "date": "2026-03-05"}
    r = verify(answer, tools, locale=locale)
    assert item(r, text).status == "normalized" and r.confidence == "high"


def test_ambiguous_separator_is_resolved_by_locale():
    assert item(verify("Up 1.234 points.", {"v": 1234}, locale="de_DE"), "1.234").status == "normalized"
    assert item(verify("Up 1.234 points.", {"v": 1234}, locale="en_US"), "1.234").status == "unsupported"


def test_stoplisted_words_are_not_tickers_unless_the_data_names_them():
    r = verify("EPS and EBITDA were discussed by the CEO in USD.", {"x": 1})
    assert r.items == []
    r = verify("GM rose.", {"symbol": "GM", "px": 1})  # GM is on the stop-list, and in the data
    assert item(r, "GM").status == "exact"


def test_user_stopwords_remove_false_tickers():
    assert item(verify("Ask the ABCD desk.", {"x": 1}), "ABCD").status == "unsupported"
    assert verify("Ask the ABCD desk.", {"x": 1}, policy=Policy(extra_stopwords=("ABCD",))).items == []


def test_quotes_must_appear_verbatim():
    tools = {"news": "Management called it a “record quarter” for services."}
    assert item(verify('They said "record quarter".', tools), '"record quarter"').status in ("exact", "normalized")
    assert item(verify('They said "best quarter ever".', tools), '"best quarter ever"').status == "unsupported"


def test_citations_list_numbers_and_index_names_are_not_values():
    r = verify("1. The S&P 500 rose [2] per the 10-K.", {"x": 1})
    assert r.items == []


def test_parentheses_negative_for_bare_numbers_aside_for_amounts():
    r = verify("Operating loss was (448.7) million, revenue $2,137.4 million ($2.1bn).",
               {"operating_income_millions": -448.7, "revenue_millions": 2137.4})
    assert item(r, "(448.7) million").status == "normalized"
    assert item(r, "$2.1bn").status == "drift"  # the aside is a rounding, not a negative


def test_periods_without_a_year_are_not_checked():
    assert verify("Q3 was strong, and the second half stronger.", {"x": 1}).items == []


def test_unreadable_number_is_an_unsupported_item_not_an_error():
    r = verify("Scores were 1,2,3 overall.", {"x": 1})
    assert item(r, "1,2,3").status == "unsupported"


def test_every_evidence_path_resolves_to_the_leaf_with_jsonpath_ng():
    r = verify("AAPL at $142.30, up 1.43%, volume about 2.24 million, ISIN US0378331005, "
               "on March 5, 2026, over 3 sessions.", QUOTE)
    for it in r.items:
        for ev in it.evidence:
            found = jsonpath_ng.parse(ev.path).find(QUOTE[ev.tool_index]["output"])
            assert found, ev.path
            if ev.how != "count":
                assert str(found[0].value) == ev.raw


def test_report_round_trips_through_json_and_has_a_schema():
    r = verify("AAPL rose 1.4% to $142.30.", QUOTE)
    dumped = r.model_dump(mode="json")
    assert Report.model_validate(dumped) == r
    assert Report.model_validate_json(r.model_dump_json()) == r
    schema = Report.model_json_schema()
    assert {"confidence", "score", "action", "items", "warnings"} <= set(schema["required"])
    assert schema["$defs"]["Item"]["properties"]["status"]["enum"] == [
        "exact", "normalized", "rounded", "derived", "drift", "unsupported", "invalid", "misattributed",
        "stale", "gap_fill", "wrong_arithmetic", "stated"]


def test_prebuilt_haystack_gives_the_same_report():
    h = Haystack(QUOTE)
    answer = "AAPL rose 1.4% to $142.30."
    assert verify(answer, haystack=h) == verify(answer, QUOTE)


def test_no_checkable_values_is_high_with_a_message_saying_so():
    r = verify("Markets were calm.", QUOTE)
    assert r.confidence == "high" and r.checked == 0 and "no numbers" in r.warnings.message


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"answer": 5, "tool_results": {}}, InputError, "answer: must be a string"),
        ({"answer": "x", "tool_results": None}, InputError, "tool_results"),
        ({"answer": "x", "tool_results": {}, "locale": "xx_YY"}, InputError, "locale"),
        ({"answer": "x" * 20, "tool_results": {}, "policy": Policy(max_answer_chars=10)}, LimitError, "answer length"),
        ({"answer": "x", "tool_results": list(range(20)), "policy": Policy(max_leaves=5)}, LimitError, "leaves"),
    ],
)
def test_bad_input_raises_a_clear_value_error(kwargs, error, match):
    answer = kwargs.pop("answer")
    with pytest.raises(error, match=match):
        verify(answer, **kwargs)


def test_odd_unicode_in_answer_keeps_spans():
    answer = "Price\u00a0was\u202f$１４２.３０ and change −1.43%."
    r = verify(answer, {"price": Decimal("142.30"), "chg_pct": -1.43})
    for it in r.items:
        assert answer[it.start:it.end] == it.text
    assert item(r, "$１４２.３０").status == "exact"
    assert item(r, "−1.43%").status == "exact"


def test_a_column_printed_with_percent_signs_holds_percentages_throughout():
    table = {"columns": ["", "2019", "2018"], "rows": [["Sales", "100.0 %", "100.0 %"], ["Gross profit", "40.0", "50.9"]]}
    assert item(verify("Gross margin was 50.9% in 2018.", table), "50.9%").status in ("exact", "normalized")
    rows = {"rows": [{"event": "CPI", "forecast": 2.9, "unit": "%"}, {"event": "Sentiment", "forecast": 64.2, "unit": "index"}]}
    assert item(verify("CPI is forecast at 2.9%.", rows), "2.9%").status == "exact"
    assert item(verify("Sentiment is forecast at 64.2%.", rows), "64.2%").status == "unsupported"


def test_one_percentage_row_does_not_make_a_column_of_amounts_percentages():
    table = {"columns": ["(Dollars in millions)", "2013", "2012"],
             "rows": [["Net revenue", "$52,708", "$53,341"], ["Gross margin percentage", "59.8%", "62.1%"],
                      ["Diluted earnings per share", "$0.51", "$0.58"]]}
    # 0.5% is no rounding of $0.51 (before, the "%" row marked the whole column)
    assert item(verify("Impairments were 0.5% of revenue.", table), "0.5%").status == "unsupported"
    assert item(verify("Gross margin was 62.1%.", table), "62.1%").status == "exact"
    # shares over a "Total 100.0%" row: the column holds percentages
    shares = {"columns": ["", "2019", "2018"],
              "rows": [["Americas", "45.2", "44.0"], ["EMEA", "30.1", "31.5"], ["Asia Pacific", "24.7", "24.5"],
                       ["Total", "100.0%", "100.0%"]]}
    assert item(verify("Americas was 45.2% in 2019.", shares), "45.2%").status == "exact"
    # a margin row last is one row, not the column's unit
    margin = {"columns": ["(in millions of €)", "2019", "2018"],
              "rows": [["Revenue", "10,227", "9,122"], ["Adjusted EBITA", "482", "483"],
                       ["Adjusted EBITA margin", "4.7 %", "5.3 %"]]}
    assert item(verify("Revenue was 10,227% in 2019.", margin), "10,227%").status == "unsupported"
    # a 100% that is no total (an ownership row) says nothing of the column; a "$" cell
    # is never a percentage; fields of separate tools are no column
    owned = {"columns": ["", "2019"], "rows": [["Sales to affiliates", "$10,436"], ["Ownership", "72%"],
                                               ["Kyocera ownership of AVX", "100%"]]}
    # nor is a "$" amount over a "100%" cell a ratio that means anything
    assert item(verify("Sales were 10,436% in 2019.", owned), "10,436%").status == "unsupported"
    tools = [{"name": "a", "output": {"revenue": "$10,227"}}, {"name": "b", "output": {"revenue": "62.1%"}}]
    assert item(verify("Revenue was 10,227%.", tools), "10,227%").status == "unsupported"
    # most of a column printed with "%": its plain cells are percentages too
    mostly = {"columns": ["", "Share"], "rows": [["A", "40.0%"], ["B", "50.9"], ["C", "9.1%"]]}
    assert item(verify("B was 50.9% of the total.", mostly), "50.9%").status in ("exact", "normalized")


def test_a_percent_is_not_the_fraction_of_a_cell_printed_in_percent():
    # "100.0 %" is the fraction 1.0; "1.0%" is the percent number 1.0 (the fraction 0.01)
    table = {"columns": ["", "2019"], "rows": [["Sales", "100.0 %"], ["Other income", "1.6"]]}
    assert item(verify("Other income was 1.0% of sales.", table), "1.0%").status == "unsupported"
    assert item(verify("Sales were 100% of sales.", table), "100%").status in ("exact", "normalized")
    assert item(verify("The ratio was 0.10.", {"share": "10%"}), "0.10").status == "normalized"
    assert item(verify("Growth was 0.10%.", {"note": "more than 10% of revenue"}), "0.10%").status == "unsupported"


def test_every_schema_field_has_a_description():
    schema = Report.model_json_schema()
    missing = [("Report", k) for k, v in schema["properties"].items() if "description" not in v]
    for name, model in schema["$defs"].items():
        missing += [(name, k) for k, v in model.get("properties", {}).items() if "description" not in v]
    assert missing == []


def test_policy_may_be_a_dict_and_bad_ones_are_input_errors():
    assert verify("AAPL at $142.30.", QUOTE, policy={"derive": False}).confidence == "high"
    with pytest.raises(InputError, match="policy"):
        verify("AAPL at $142.30.", QUOTE, policy={"no_such_option": 1})
    with pytest.raises(InputError, match="policy"):
        verify("AAPL at $142.30.", QUOTE, policy=3)  # type: ignore[arg-type]


def test_empty_answer_and_tool_list_without_output_are_input_errors():
    with pytest.raises(InputError, match="empty"):
        verify("   \n", QUOTE)
    with pytest.raises(InputError, match=r"tool_results\[0\]"):
        verify("AAPL", [{"name": "quote"}])


def test_an_amount_in_another_currency_than_the_data_states_is_flagged():
    tools = {"quote": {"symbol": "SAP", "price": 1234.56, "currency": "EUR"}}
    chf = item(verify("SAP trades at CHF 1'234.56.", tools, locale="de_CH"), "CHF 1'234.56")
    assert chf.status == "unsupported" and "in EUR, not CHF" in chf.reason
    assert chf.evidence[0].path == "$.quote.price"
    assert item(verify("SAP trades at €1,234.56.", tools), "€1,234.56").status == "normalized"
    assert item(verify("SAP trades at 1,234.56.", tools), "1,234.56").status == "normalized"  # none stated
    assert item(verify("It trades at $1,234.56.", {"price": 1234.56}), "$1,234.56").status == "normalized"


def test_the_retry_hint_allows_values_computed_from_the_data():
    r = verify("Revenue was $9.9 billion.", {"revenue": 8_100_000_000})
    assert r.warnings.retry_hint is not None
    assert "'$9.9 billion'" in r.warnings.retry_hint and "compute from them" in r.warnings.retry_hint


def test_a_hedged_round_number_is_a_rounding_at_its_significant_digits():
    quote = {"symbol": "AAPL", "volume": 2236000, "price": 142.3}
    assert verify("Volume was about 2,240,000 shares.", quote).items[0].status == "rounded"
    assert verify("Volume was 2,240,000 shares.", quote).items[0].status == "unsupported"
    assert verify("Volume was about 2,300,000 shares.", quote).items[0].status == "unsupported"
    assert [i.status for i in verify("AAPL trades at about $100.", quote).items if i.kind != "ticker"] == [
        "unsupported"]


def test_a_date_that_only_repeats_the_questions_does_not_lift_the_score():
    table = {"columns": ["(in thousands)", "2019", "2018"], "rows": [["Revenue", "45,210", "43,147"]]}
    question = "What was revenue in 2019?"
    wrong = verify("Revenue was $46.21 million in 2019.", table, question=question)
    assert (wrong.confidence, wrong.score, wrong.checked) == ("low", 0.0, 2)  # the year is still checked
    right = verify("Revenue was $45.21 million in 2019.", table, question=question)
    assert (right.confidence, right.score) == ("high", 1.0)
    # a year the question does not name is a claim of its own, and counts
    other = verify("Revenue was $46.21 million in 2019, up from 2018.", table, question=question)
    assert other.score == 0.5 and other.confidence == "medium"


def test_full_width_tickers_and_arabic_or_space_grouped_figures_are_checked():
    quote = {"symbol": "AAPL", "price": 142.30, "volume": 2236000}
    report = verify("\uff21\uff21\uff30\uff2c at $\u0661\u0664\u0662\u066b\u0663\u0660 on 2\u202f236\u202f000 shares.", quote)
    assert [(i.kind, i.status in ("exact", "normalized")) for i in report.items] == [
        ("ticker", True), ("amount", True), ("number", True)]
    assert verify("\uff2d\uff33\uff26\uff34 at $142.30.", quote).items[0].status == "unsupported"  # MSFT, unlisted
    assert verify("Margin was \uff11\uff12\uff0e\uff15\uff05.", {"gross_margin": 0.125}).items[0].status == "normalized"
    assert verify("Revenue was \uff04\uff11\uff0c\uff12\uff13\uff14\uff0e\uff15 million.",
                  {"revenue_m": "1234.5"}).items[0].status == "normalized"  # ＄１，２３４．５
    assert verify("\uff22\uff32\uff2b\uff0e\uff22 is up.", {"symbol": "BRK.B"}).items[0].status == "exact"
    # a full-width comma between ASCII figures separates list items: three numbers, not 150,200,300
    assert [i.status for i in verify("Revenue was 150\uff0c200\uff0c300.", {"r": [150, 200, 300]}).items] == [
        "exact"] * 3


def test_a_ticker_only_an_earlier_turn_holds_makes_the_answer_low_and_the_message_says_so():
    history = [{"name": "quote", "output": {"symbol": "NVDA", "price": 118.42}}]
    current = [{"name": "quote", "output": {"symbol": "AAPL", "price": 142.30, "volume": 2236000}}]
    report = verify("NVDA is trading at $142.30 on volume of 2,236,000 shares.", current, history=history)
    assert report.confidence == "low"  # AAPL's figures given to NVDA
    assert report.warnings.message.startswith("The answer names NVDA, which only an earlier turn's tool results hold")
    assert "does not contain" not in report.warnings.message
    # a follow-up that repeats an earlier turn's own figures is told so, not "invented"
    history = [{"name": "quote", "output": {"symbol": "NVDA", "price": 118.42, "forward_pe": 38.2}}]
    follow = verify("NVDA's forward P/E is 38.2.", current, history=history, question="And its forward P/E?")
    assert [i.status for i in follow.items] == ["stale", "stale"]
    assert "only an earlier turn's tool results hold" in follow.warnings.message
