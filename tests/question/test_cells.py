"""The question's row and column: a value from another cell of the table it names."""

import pytest

from verifier import verify

TABLE = [{"name": "filing", "output": {
    "table": {"columns": ["(In thousands)", "2019", "2018"], "rows": [
        ["Revenue", "12,640", "11,210"],
        ["Cost of sales", "7,150", "6,980"],
        ["Revenue and other income", "13,020", "11,800"],
        ["Accrued expenses", "640", "593"]]},
    "paragraphs": ["Revenue grew on strong demand; other income was 380 thousand."]}}]


def status(answer, question):
    report = verify(answer, TABLE, question=question)
    return {i.text: (i.status, i.reason) for i in report.items}


def test_the_asked_cell_is_supported():
    assert status("The answer is 12,640.", "What was the revenue in 2019?")["12,640"][0] == "exact"


@pytest.mark.parametrize(("answer", "why"), [
    ("The answer is 7,150.", "the row 'Cost of sales'"),          # another row, same column
    ("The answer is 11,210.", "the 2018 column"),                  # same row, another column
])
def test_a_value_from_another_row_or_column_is_misattributed(answer, why):
    text = answer.removeprefix("The answer is ").rstrip(".")
    got, reason = status(answer, "What was the revenue in 2019?")[text]
    assert got == "misattributed" and why in reason


def test_a_wider_row_label_wins_over_one_it_contains_and_rows_sharing_words_are_spared():
    question = "What was revenue and other income in 2019?"
    assert status("The answer is 13,020.", question)["13,020"][0] == "exact"
    assert status("The answer is 7,150.", question)["7,150"][0] == "misattributed"
    # the Revenue row shares a word with the question: it may be what was meant
    assert status("The answer is 12,640.", question)["12,640"][0] == "exact"


def test_no_row_check_when_two_rows_are_named():
    assert status("The answer is 640.", "What were revenue and accrued expenses in 2019?")["640"][0] == "exact"
    assert status("The answer is 640.", "What was the sum of revenue and accrued expenses in 2019?"
                  )["640"][0] == "exact"


def test_a_computation_answered_with_another_rows_cell_is_misattributed():
    got, reason = status("The answer is 640.", "What was the change in revenue from 2018 to 2019?")["640"]
    assert got == "misattributed" and "the row 'Accrued expenses'" in reason


def test_a_computation_answered_with_one_of_its_operands_is_misattributed():
    got, reason = status("The answer is 12,640.", "What was the change in revenue from 2018 to 2019?")["12,640"]
    assert got == "misattributed" and "the 2019 column of the row 'Revenue'" in reason
    got, reason = status("The answer is 11,210.", "What was the average revenue in 2018 and 2019?")["11,210"]
    assert got == "misattributed" and "one value, not the computed one" in reason


def test_the_right_computation_passes_even_when_it_equals_another_cell():
    tools = [{"name": "filing", "output": {"table": {"columns": ["", "2019", "2018"], "rows": [
        ["Revenue", "1,200", "1,000"], ["Other income", "200", "150"], ["Tax", "50", "45"]]}}}]
    report = verify("The answer is 200.", tools, question="What was the change in revenue from 2018 to 2019?")
    assert report.items[0].status == "derived" and "rows[0]" in report.items[0].evidence[0].path
    # the average of two equal values is each of them
    tools[0]["output"]["table"]["rows"][2] = ["Tax", "50", "50"]
    report = verify("The answer is 50.", tools, question="What was the average tax in 2018 and 2019?")
    assert report.items[0].status == "derived"


def test_a_rescue_from_a_column_the_question_does_not_ask_about_is_refused():
    tools = [{"name": "filing", "output": {"table": {"columns": ["", "2019", "2018", "2017"], "rows": [
        ["Dividend yield", "4.5%", "4.6%", "4.1%"], ["Expected term", "4.3", "5.0", "5.2"]]}}}]
    # 4.3 is the Expected term's cell and also (4.5 + 4.1) / 2, the 2019 and 2017 yields
    report = verify("The answer is 4.30%.", tools, question="What is the average dividend yield in 2017 and 2018?")
    assert report.items[0].status == "misattributed"
    report = verify("The answer is 4.35%.", tools, question="What is the average dividend yield in 2017 and 2018?")
    assert report.items[0].status == "derived"


def test_one_value_per_period_or_a_change_from_nothing_is_no_operand_error():
    tools = [{"name": "filing", "output": {"table": {"columns": ["", "2019", "2018"], "rows": [
        ["Total prepaid expenses", "2,496", "1,947"], ["Preferred stock disposition", "(9.9)", "-"]]}}}]
    got = status_of(tools, "The answer is 2,496 and 1,947.",
                    "What is the total prepaid expenses for 2019 and 2018 respectively?")
    assert got == {"2,496": "exact", "1,947": "exact"}
    got = status_of(tools, "The answer is -9.9.", "What was the change in the preferred stock disposition from 2018 to 2019?")
    assert got["-9.9"] in ("exact", "normalized")


def status_of(tools, answer, question):
    return {i.text: i.status for i in verify(answer, tools, question=question).items}


def test_a_value_that_also_appears_in_prose_is_left_alone():
    tools = [{"name": "filing", "output": {**TABLE[0]["output"],
                                           "paragraphs": ["Cost of sales was 7,150 thousand."]}}]
    report = verify("The answer is 7,150.", tools, question="What was the revenue in 2019?")
    assert report.items[0].status == "exact"


def test_a_sentence_that_names_its_own_year_is_judged_by_it():
    got = status("In 2018, revenue was 11,210.", "What was the revenue in 2019?")
    assert got["11,210"][0] == "exact"


def test_without_a_question_nothing_changes():
    assert verify("The answer is 7,150.", TABLE).items[0].status == "exact"


def test_an_answer_that_names_or_relates_periods_gets_no_column_check():
    question = "What was the revenue in 2019?"
    got = status("Revenue was 12,640, against 11,210 a year earlier.", question)
    assert got["11,210"][0] == "exact"


def test_respectively_pairs_values_with_periods_in_order():
    question = "What was the revenue in 2019 and 2018 respectively?"
    got = status("The answer is 12,640 and 11,210.", question)
    assert {k: v[0] for k, v in got.items()} == {"12,640": "exact", "11,210": "exact"}
    got = status("The answer is 11,210 and 12,640.", question)
    assert got["11,210"][0] == "misattributed" and got["12,640"][0] == "misattributed"


def test_a_row_labelled_by_a_year_gives_its_cells_that_period():
    leases = [{"name": "filing", "output": {"table": {"columns": ["", "Operating Leases", "Finance Leases"],
                                                      "rows": [["2021", "9", "5"], ["2022", "8", "6"],
                                                               ["2023", "7", "4"]]}}}]
    assert verify("The answer is 6.", leases, question="What were the finance leases for 2022?").items[0].status == "exact"
    flagged = verify("The answer is 4.", leases, question="What were the finance leases for 2022?").items[0]
    assert flagged.status == "misattributed" and "2023" in flagged.reason


def test_respectively_pairs_values_with_periods_even_when_the_question_names_a_ratio():
    tools = [{"name": "filing", "output": {"table": {"columns": ["", "2019", "2018", "2017"], "rows": [
        ["Revenue", "100%", "100%", "100%"], ["Cost of revenue", "43%", "50%", "55%"]]}}}]
    question = "What are the respective proportion of cost of revenue as a percentage of revenue in 2017 and 2018?"
    report = verify("The answer is 55% and 55%.", tools, question=question)
    assert [i.status for i in report.items] == ["exact", "misattributed"]
    assert verify("The answer is 55% and 50%.", tools, question=question).flagged == 0


T2 = [{"name": "filing", "output": {"table": {"columns": ["", "2019", "2018"], "rows": [
    ["Revenue", "12,640", "11,210"], ["Other income", "5", "4"], ["Gross margin", "59%", "59%"],
    ["Average price", "12.5", "11.0"]]}}}]


@pytest.mark.parametrize(("answer", "question"), [
    ("2019, at 12,640.", "In which year was revenue higher, 2018 or 2019?"),   # a comparison
    ("It was 59% in both years.", "What was the gross margin in 2019 and 2018?"),  # a row's name
    ("It was 12.5.", "What was the average price in 2019?"),  # one period: the row may hold it
    ("The two years were 12,640 and 11,210; the average was 11,925.",
     "What was the average revenue in 2018 and 2019?"),  # the operands stated with the result
])
def test_lookups_and_stated_operands_are_not_wrong_computations(answer, question):
    report = verify(answer, T2, question=question)
    assert report.flagged == 0, [(i.text, i.status, i.reason) for i in report.items]


def test_the_change_in_one_named_year_may_be_computed_from_the_year_before():
    tools = [{"name": "filing", "output": {"table": {"columns": ["", "2019", "2018"], "rows": [
        ["Revenue", "100", "95"], ["Other income", "5", "4"]]}}}]
    report = verify("Revenue increased by 5.", tools, question="What was the change in revenue in 2019?")
    assert report.items[0].status == "derived" and "rows[0][1] - $.table.rows[0][2]" in report.items[0].reason


def test_a_prose_figure_is_judged_only_where_its_text_speaks_of_the_asked_period():
    one = [{"name": "filing", "output": {"paragraphs": ["Revenue was $5 million in 2018."]}}]
    assert verify("The answer is $5 million.", one, question="What was revenue in 2019?").flagged == 0
    both = [{"name": "filing", "output": {"paragraphs": ["Revenue was $5 million in 2018 and $6 million in 2019."]}}]
    item = verify("The answer is $5 million.", both, question="What was revenue in 2019?").items[0]
    assert item.status == "misattributed" and "the 2018 figure" in item.reason


def test_another_rows_computation_is_not_the_answer_to_a_question_that_names_the_row():
    tools = [{"name": "filing", "output": {"table": {"columns": ["", "2019", "2018"], "rows": [
        ["Revenue", "1,250.0", "1,120.5"], ["Operating expenses", "480.2", "422.0"], ["Headcount", "2,900", "2,456"]]}}}]
    question = "What was the change in revenue from 2018 to 2019?"
    assert verify("The answer is 129.5.", tools, question=question).items[0].status == "derived"
    assert verify("The answer is 58.2.", tools, question=question).items[0].status == "unsupported"  # op-ex's change
    assert verify("The answer is 444.", tools, question=question).items[0].status == "unsupported"  # headcount's
    # ratios and shares combine rows by nature
    ratio = verify("The answer is 38.4%.", tools, question="What were operating expenses as a percentage of revenue in 2019?")
    assert ratio.items[0].status == "derived"


def test_a_row_labelled_only_by_a_time_is_not_named_by_a_date_in_the_question():
    tools = {"table": {"columns": ["", "2019 RMB'Million", "2018 RMB'Million"], "rows": [
        ["At beginning of the year", "120,402", "95,530"], ["Additions (Note (a))", "44,618", "60,807"],
        ["Disposals (Note (c))", "(16,664)", "(14,805)"], ["At end of the year", "148,356", "141,532"]]},
        "unit": "million"}
    question = "How much is the change in additions of financial assets between 2018 year end and 2019 year end?"
    assert verify("The answer is -16189 million.", tools, question=question).items[0].status == "derived"
    # "Additions" is the asked row: the year-end row's change is still not its answer
    assert verify("The answer is 6824 million.", tools, question=question).items[0].status == "unsupported"


@pytest.mark.parametrize("label", [str, int])
def test_a_row_labelled_by_a_year_is_the_row_a_question_names_by_it(label):
    leases = {"unit": "million", "columns": ["", "Operating leases", "Finance leases"],
              "rows": [[label(2022), "145.2", "12.0"], [label(2023), "132.8", "11.4"], [label(2024), "118.0", "10.1"],
                       ["Total lease payments", "396.0", "33.5"]]}
    question = "What are the operating lease payments due in 2023?"
    assert [(i.status, i.flagged) for i in verify("The answer is $132.8 million.", leases, question=question).items] == [
        ("normalized", False)]  # not "the row 'Total lease payments'"
    wrong = verify("The answer is $118.0 million.", leases, question=question).items[0]
    assert wrong.status == "misattributed", wrong.reason  # 2024's, a JSON number label too


LEASES = {"unit": "million", "columns": ["", "Operating leases", "Finance leases"],
          "rows": [["2022", "145.2", "12.0"], ["2023", "132.8", "11.4"], ["Total lease payments", "396.0", "33.5"]]}


@pytest.mark.parametrize(("question", "answer", "want"), [
    # the finance lease figure for the operating lease question: the column is wrong
    ("What are the operating lease payments due in 2023?", "The answer is $11.4 million.", "misattributed"),
    # nor is the finance column's total less its 2022 a rescue (33.5 - 12.0 = 21.5)
    ("What are the operating lease payments due in 2023?", "The answer is $21.5 million.", "unsupported"),
    ("What are the operating lease payments due in 2023?", "The answer is $132.8 million.", "normalized"),
    # no column named without doubt, both named, or the answer says which: no column check
    ("What are the lease payments due in 2023?", "The answer is $11.4 million.", "normalized"),
    ("What are the operating and finance lease payments due in 2023?", "They are $132.8 million and $11.4 million.",
     "normalized"),
    ("What are the operating lease payments due in 2023?", "Finance lease payments are $11.4 million.", "normalized"),
])
def test_a_value_from_a_column_other_than_the_one_the_question_names_is_misattributed(question, answer, want):
    items = verify(answer, LEASES, question=question).items
    assert items[-1].status == want, items[-1].reason
    if want == "misattributed":
        assert "the column 'Finance leases', not the column 'Operating leases'" in items[-1].reason


def test_words_of_the_asked_row_do_not_name_a_column():
    # "adjustment" names the row "Working capital adjustment"; the "Adjustments" column
    # is not thereby asked about, and a dated column is the period check's
    for first in ("Estimated", "Estimated at June 30, 2019"):
        table = {"unit": "thousand", "columns": ["", first, "Adjustments", "Final"],
                 "rows": [["Working capital adjustment", "(38)", "20", "(18)"], ["Cash", "3,795", "-", "3,795"]]}
        item = verify("The answer is 38 thousand.", table, question="What is the working capital adjustment?").items[0]
        assert not item.flagged, item.reason


def test_the_column_check_spares_what_a_demanding_user_would_call_right():
    # the value's column shares the question's words the asked column lacks
    options = {"columns": ["", "Options", "Weighted average exercise price"],
               "rows": [["Exercised", "300", "$18.20"], ["Granted", "450", "$21.10"]]}
    item = verify("The options exercised had an exercise price of $18.20.", options,
                  question="What was the exercise price of the options exercised?").items[-1]
    assert not item.flagged, item.reason
    # an answer of several values may give other columns' too
    screen = {"columns": ["ticker", "price", "market_cap", "dividend_yield"],
              "rows": [["AAPL", "150.20", "2.5 trillion", "0.6%"], ["MSFT", "310.50", "2.3 trillion", "0.8%"]]}
    report = verify("AAPL trades at $150.20, a $2.5 trillion company yielding 0.6%.", screen,
                    question="What is Apple's price?")
    assert not any(i.status == "misattributed" for i in report.items), [i.reason for i in report.items]


def test_no_other_column_rescues_or_computes_the_asked_columns_value():
    leases = {"unit": "million", "columns": ["", "Operating leases", "Finance leases", "Total"],
              "rows": [["2022", "145.2", "12.0", "157.2"], ["2023", "132.8", "11.4", "144.2"]]}
    question = "What are the operating lease payments due in 2023?"
    # 144.2 - 132.8 = 11.4: the Total column less the asked one is no rescue
    assert verify("The answer is $11.4 million.", leases, question=question).items[0].status == "misattributed"
    # a change computed down the finance column does not answer the operating one
    change = "What was the change in operating lease payments due from 2022 to 2023?"
    assert verify("The answer is -$0.6 million.", leases, question=change).items[0].status == "unsupported"
    assert verify("The answer is -$12.4 million.", leases, question=change).items[0].status == "derived"
    # a share of the Total column the question names by its word is fine
    share = "What percentage of total lease payments in 2023 are operating lease payments?"
    assert verify("The answer is 92.09%.", leases, question=share).items[0].status == "derived"


def test_a_column_named_only_by_the_asked_rows_words_rules_nothing_out():
    # "revenue" names the row "Total cost of revenue", not the "% of total revenue" column
    costs = {"unit": "thousand", "columns": ["", "Amount", "% of total revenue", "Amount", "% of total revenue"],
             "rows": [["Services", "243,053", "34", "246,548", "38"],
                      ["Total cost of revenue", "$ 324,350", "45%", "296,783", "45%"]]}
    item = verify("The answer is 310566.5 thousand.", costs,
                  question="What is the average total cost of revenue for 2018 and 2019?").items[0]
    assert item.status == "derived", item.reason


def test_a_computation_answered_with_another_columns_cell_is_misattributed():
    leases = {"unit": "million", "columns": ["", "Operating leases", "Finance leases"],
              "rows": [["2021", "140.9", "14.9"], ["2022", "133.2", "12.0"], ["2023", "132.8", "2.9"]]}
    question = "What is the change in operating lease payments from 2021 to 2022?"
    assert verify("They fell by 2.9.", leases, question=question).items[0].status == "misattributed"
    assert verify("They fell by 7.7.", leases, question=question).items[0].status == "derived"


def test_a_value_a_table_prints_is_asked_by_name_not_computed():
    # "value" names a quantity ("fair value"), so the question is a lookup: the carrying
    # amount in its place is the wrong column
    debt = {"header_rows": [["", "December 31, 2019", "", "December 31, 2018", ""]],
            "columns": ["(In millions)", "Carrying Amount", "Fair Value", "Carrying Amount", "Fair Value"],
            "rows": [["Total debt", "2,341.2", "2,410.0", "3,474.2", "3,535.1"]]}
    question = "What was the fair value of total debt as of December 31, 2019?"
    assert verify("The answer is $2,410.0 million.", debt, question=question).items[0].status == "normalized"
    item = verify("The answer is $2,341.2 million.", debt, question=question).items[0]
    assert item.status == "misattributed" and "'Carrying Amount'" in item.reason


#: Lease payments whose operating mean over 2021-2023 (135.63) equals a finance lease cell.
LEASE_YEARS = {"unit": "million", "columns": ["", "Operating leases", "Finance leases"],
               "rows": [["2021", "140.9", "135.6"], ["2022", "133.2", "12.0"], ["2023", "132.8", "2.9"]]}


def test_a_mean_from_one_year_to_another_runs_through_the_years_between():
    # the average 135.6 equals a finance lease cell: flagged, then explained by the
    # operating column's mean over 2021-2023, which takes 2022 too
    spanned = verify("The average was 135.6.", LEASE_YEARS, question="What is the average operating lease payment "
                     "from 2021 to 2023?").items[0]
    assert spanned.status == "derived", spanned.reason
    listed = verify("The average was 135.6.", LEASE_YEARS, question="What is the average operating lease payment "
                    "in 2021 and 2023?").items[0]
    assert listed.status == "misattributed"  # two years listed: 2022 is not asked for


def test_a_through_that_is_no_year_span_lets_no_year_in():
    item = verify("The average was 135.6.", LEASE_YEARS, question="What is the average operating lease payment in 2021 "
                  "and 2023 for leases running through 2030?").items[0]
    assert item.status == "misattributed", item.reason


def test_a_span_of_fiscal_years_written_short_runs_through_the_years_between():
    leases = {**LEASE_YEARS, "rows": [[f"FY{row[0][2:]}", *row[1:]] for row in LEASE_YEARS["rows"]]}
    assert [row[0] for row in leases["rows"]] == ["FY21", "FY22", "FY23"]
    item = verify("The average was 135.6.", leases,
                  question="What is the average operating lease payment from FY21 to FY23?").items[0]
    assert item.status == "derived", item.reason
