"""The derive stage: each derivation kind, and each guard against chance."""

import jsonpath_ng
import pytest

from verifier import Policy, verify

TABLE = [{"name": "segments", "id": "c1", "output": {
    "scale": "million",
    "columns": ["", "2019", "2018", "2017"],
    "rows": [["Fixed Price", "$ 1,452.4", "$ 1,146.2", "$ 1,036.9"],
             ["Other", "44.1", "56.7", "70.8"],
             ["Total sales", "$1,496.5", "$1,202.9", "$1,107.7"]],
}}]


def one(answer, tools=TABLE, **kw):
    report = verify(answer, tools, **kw)
    numeric = [i for i in report.items if i.kind not in ("date", "ticker")]
    assert len(numeric) == 1, [(i.text, i.status) for i in report.items]
    return numeric[0], report


@pytest.mark.parametrize(
    ("answer", "expression"),
    [
        ("Other changed by -12.6 million.", "$.rows[1][1] - $.rows[1][2]"),
        ("Other decreased by 12.6 million.", "$.rows[1][1] - $.rows[1][2]"),
        ("Other fell 22.22%.", "($.rows[1][1] - $.rows[1][2]) / $.rows[1][2] * 100"),
        ("Total sales grew 24.41%.", "($.rows[2][1] - $.rows[2][2]) / $.rows[2][2] * 100"),
        ("Fixed price plus other came to 1,496.5 million.", None),  # supported as written, not derived
        ("Fixed Price was 97.05% of total sales.", "($.rows[0][1] / $.rows[2][1]) * 100"),
        ("Other averaged 57.2 million over the three years.", "avg($.rows[1][1], $.rows[1][2], $.rows[1][3])"),
    ],
)
def test_derivations_in_a_filing_table(answer, expression):
    item, report = one(answer)
    if expression is None:
        assert item.status == "normalized"
        return
    assert item.status == "derived" and not item.flagged, item.reason
    assert item.expression == expression
    for ev in item.evidence:  # operands resolve to the cells they name
        assert jsonpath_ng.parse(ev.path).find(TABLE[0]["output"])[0].value == ev.raw
    assert report.suggestions and report.suggestions[0].expression == expression
    assert report.suggestions[0].text.startswith(f"add field {report.suggestions[0].field} = ")
    assert report.confidence == "high"


SCREEN = [{"name": "screen", "output": {"results": [
    {"symbol": s, "price": p, "change_pct": c} for s, p, c in
    [("AAPL", 214.29, 0.62), ("MSFT", 447.67, 0.94), ("NVDA", 131.24, 2.43), ("AMD", 158.32, 1.52)]]}}]


def test_column_statistics_use_a_wildcard_path():
    item, report = one("The average move was 1.38%.", SCREEN)
    assert item.status == "derived" and item.expression == "avg($.results[*].change_pct)"
    assert report.suggestions[0].field == "mean_change_pct"
    assert len(jsonpath_ng.parse("$.results[*].change_pct").find(SCREEN[0]["output"])) == 4


def test_comparison_across_records_of_one_field():
    item, _ = one("MSFT trades $233.38 above AAPL.", SCREEN)
    assert item.status == "derived" and item.expression == "$.results[1].price - $.results[0].price"


def test_written_precision_sets_the_tolerance():
    assert one("Total sales grew 24.4%.")[0].status == "derived"
    assert one("Total sales grew 24.41%.")[0].status == "derived"
    assert one("Total sales grew 24.46%.")[0].status == "unsupported"


def test_stated_direction_must_match_the_sign():
    assert one("Other rose 22.22%.")[0].status == "unsupported"  # it fell
    assert one("Other fell 22.22%.")[0].status == "derived"
    # 56.7 - 44.1 is 2018 less 2019: Other fell by 12.6, it did not rise (this used to pass)
    assert one("Other rose by 12.6 million.")[0].status == "unsupported"
    assert one("Other fell by 12.6 million.")[0].status == "derived"


def test_percentage_points_are_only_differences():
    tools = {"rates": {"columns": ["", "2019", "2018"], "rows": [["Discount rate", "4.00%", "3.75%"]]}}
    assert one("The rate rose 0.25 percentage points.", tools)[0].status == "derived"
    assert one("The rate rose 6.67%.", tools)[0].status == "derived"  # a percent change
    assert one("The rate is 1.07 percentage points of the other.", tools)[0].status == "unsupported"


def test_fields_measuring_different_things_are_not_added_or_compared():
    record = {"quote": {"price": 120.0, "pe_ttm": 30.0, "volume_m": 12.5, "target_low": 100.0, "target_high": 140.0}}
    assert one("That is 90.0 more than its multiple.", record)[0].status == "unsupported"  # price - pe
    item, _ = one("The midpoint target is $120.0.", {"quote": {"target_low": 100.0, "target_high": 140.0, "pe": 3.0}})
    assert item.status == "derived"


def test_coarser_rounding_of_a_sum_needs_a_hedge():
    tools = {"revenue": [{"year": y, "value": v} for y, v in ((2017, 412.3), (2018, 440.0), (2019, 498.6))]}
    assert one("Revenue averaged 450.3 a year.", tools)[0].status == "derived"  # 450.3 exactly
    tools = {"revenue": [{"year": y, "value": v} for y, v in ((2017, 412.31), (2018, 440.02), (2019, 498.83))]}
    # 450.3867: a mean of three may be written one digit short of its figures, not two
    assert one("Revenue averaged 450 a year.", tools)[0].status == "unsupported"
    assert one("Revenue averaged about 450 a year.", tools)[0].status == "derived"
    assert one("Revenue averaged 450.4 a year.", tools)[0].status == "derived"
    assert one("Revenue averaged 450.39 a year.", tools)[0].status == "derived"
    # a sum is exact: written short, it needs a hedge (1351.16)
    assert one("Revenue totalled 1351.2 over the three years.", tools)[0].status == "unsupported"
    assert one("Revenue totalled about 1351.2 over the three years.", tools)[0].status == "derived"


def test_chance_is_counted_over_every_group_searched():
    rows = [{"symbol": f"S{i}", "bid": round(100 + i * 3.7, 1), "ask": round(101 + i * 4.1, 1)} for i in range(40)]
    # a bare small integer is a difference of some bid and ask somewhere by accident
    assert one("It was 7 wide.", {"quotes": rows})[0].status == "unsupported"


def test_derive_can_be_turned_off():
    assert one("Other fell 22.22%.", policy=Policy(derive=False))[0].status == "unsupported"


def test_sum_ratio_and_total_are_derived():
    tools = {"segments": [{"name": "Cloud", "revenue_millions": 412.5}, {"name": "Devices", "revenue_millions": 130.25},
                          {"name": "Services", "revenue_millions": 57.75}]}
    item, _ = one("Revenue from all segments totaled $600.5 million.", tools)
    assert item.status == "derived" and item.expression == "sum($.segments[*].revenue_millions)"
    item, _ = one("Cloud was 3.17 times Devices.", tools)
    assert item.status == "derived" and item.expression == "$.segments[0].revenue_millions / $.segments[1].revenue_millions"
    row = {"quarters": {"columns": ["", "Q1 2026", "Q2 2026"], "rows": [["Bookings", "1,204.6", "1,318.9"]]}}
    item, _ = one("Bookings for the two quarters came to 2,523.5 combined.", row)
    assert item.status == "derived" and "+" in item.expression


def test_hedged_rounding_happens_after_scaling():
    tools = {"volume_thousands": 2236}
    item, _ = one("Volume was about 2.24 million shares.", tools)
    assert item.status == "rounded" and item.evidence[0].raw == "2236"
    assert one("Volume was about 2.23 million shares.", tools)[0].status == "unsupported"


#: Acquisition charges by year, with a "Total" row: 302 - 148 = 154.
CHARGES = {"table": {"columns": ["", "2019", "2018"], "rows": [
    ["Acquisition and integration costs", "$ 27", "$ 14"], ["Amortization charges", "3", "8"],
    ["Restructuring and other charges, net", "255", "126"], ["Other items", "17", "—"],
    ["Total", "$ 302", "$ 148"]]}, "unit": "million"}


def test_the_question_names_the_operation_first_and_a_row_label_is_not_one():
    from verifier.text.cues import cue_words
    assert cue_words("What was the change in Total operating income?")[0] == "difference"
    assert cue_words("What was the total change in average revenue?")[:2] == ("total", "difference")
    # "percentage of" asks for a share; "percentage" alone (or "percentage change") a change
    assert cue_words("What percentage of total obligations is due to purchase obligations?")[0] == "share"
    assert cue_words("What is the debt as a percentage of total assets?")[0] == "share"
    assert cue_words("What is the percentage change in revenue?")[0] == "percent_change"
    assert cue_words("What is the percentage of increase in revenue?")[0] == "percent_change"
    assert cue_words("What is the percentage of the increase in revenue?")[0] == "percent_change"
    from verifier import Haystack
    from verifier.derive.plan import asked_cues
    named = Haystack({"columns": ["", "2019", "2018"],
                      "rows": [["Percentage of revenue", "12%", "11%"], ["Revenue", "100", "90"]]})
    assert asked_cues("What was the Percentage of revenue in 2019?", named) == ()  # a row's name, no cue
    report = verify("The answer is 154 million.", CHARGES,
                    question="What was the change in Total operating income in 2019 from 2018?")
    assert report.items[0].status == "derived" and "rows[4][1] - $.table.rows[4][2]" in report.items[0].reason


def test_rows_the_question_names_in_full_are_searched_before_rows_it_half_names():
    # "Other deferred tax liabilities": the two "Other" rows are named in full; the
    # rows sharing "deferred tax" are half named, and searching them all first spends
    # the chance budget before the Other row is reached
    table = {"table": {"columns": ["", "April 26, 2019", "April 27, 2018"], "rows": [
        ["Reserves and accruals", "$ 50", "$ 57"], ["Stock-based compensation", "16", "22"], ["Other", "16", "29"],
        ["Gross deferred tax assets", "426", "395"], ["Deferred tax liabilities:", "", ""],
        ["Prepaids and accruals", "31", "21"], ["Acquired intangibles", "32", "29"], ["Other", "10", "12"],
        ["Gross deferred tax liabilities", "73", "62"], ["Net deferred tax assets", "230", "224"]]},
        "unit": "million"}
    question = "What was the change in Other deferred tax liabilities between 2018 and 2019?"
    assert verify("The answer is -13 million.", table, question=question).items[0].status == "derived"
    assert verify("The answer is -14 million.", table, question=question).items[0].status == "unsupported"


def test_the_mirror_of_a_hit_is_not_counted_as_a_second_chance():
    # 0.3 = (-1.9) - (-2.2); its mirror -0.3 = (-2.2) - (-1.9) comes with it, and
    # counting it as crowding put a one-decimal difference over the chance budget
    table = {"table": {"columns": ["", "2019", "2018", "2017"], "rows": [
        ["Beginning balance", "$(1.3)", "$(1.9)", "$(2.2)"], ["Bad debt expense", "(1.6)", "(0.6)", "(0.8)"],
        ["Write-offs, net of recoveries", "1.6", "1.2", "1.1"], ["Ending balance", "$(1.3)", "$(1.3)", "$(1.9)"]]},
        "unit": "million"}
    question = "What was the change in beginning balance between 2017 and 2018?"
    found = verify("The answer is 0.3 million.", table, question=question).items[0]
    assert found.status == "derived" and "rows[0][2] - $.table.rows[0][3]" in found.reason
    assert verify("The answer is 0.4 million.", table, question=question).items[0].status == "unsupported"


def test_the_question_names_the_operation_before_the_answers_sentence():
    # the sentence's "Total" would put a sum first; the question asks for a change
    report = verify("Total operating income rose by 154 million.", CHARGES,
                    question="What was the change in Total operating income in 2019 from 2018?")
    assert report.items[0].status == "derived"


@pytest.mark.parametrize("columns", [
    ["", "January 31, 2020", "February 1, 2019"],  # fiscal years ending in January
    ["", "FY19**", "FY18**"],  # footnote marks after the year
    ["", "Year ended December 31, 2019", "Year ended December 31, 2018"],
    ["", "January 31, 2020 (1)", "February 1, 2019 (2)"],  # footnote references
    ["", "Fourth", "Third"],  # quarters
])
def test_period_columns_of_one_row_measure_one_quantity(columns):
    tools = {"columns": columns, "rows": [["Total revenue", "$10,811", "$9,613"], ["Total services", "5,753", "5,268"]]}
    item, _ = one("Total revenue grew 12.46%.", tools)
    assert item.status == "derived", item.reason
    assert item.expression == "($.rows[0][1] - $.rows[0][2]) / $.rows[0][2] * 100"
    # two different quantities of one record are still not combined
    named = {"quote": {"revenue_jan": 10811, "margin_jan": 9613}}
    assert one("That is 12.46% more.", named)[0].status == "unsupported"


def test_prose_figures_with_their_own_scale_combine_in_that_scale():
    tools = {"unit": "thousand", "table": {"columns": ["", "2019"], "rows": [["Billed", "127,406"]]},
             "notes": "Amounts billed include $60.3 million and $80.5 million due on federal contracts "
                      "at September 30, 2019 and 2018, respectively."}
    item, _ = one("Together that is 140.8 million.", tools)
    assert item.status == "derived" and item.expression == "$.notes + $.notes", item.reason
    assert one("Together that is 140.9 million.", tools)[0].status == "unsupported"


def test_a_row_labelled_as_percent_holds_percentages():
    tools = {"columns": ["$ MILLION", "53 WEEKS", "52 WEEKS"],
             "rows": [["EBIT", "474", "516"], ["ROFE (%)", "15.2", "17.1"]]}
    question = "What is the average ROFE for the years F19 and F18?"
    assert one("The answer is 16.15%.", tools, question=question)[0].status == "derived"
    # a row not said to be percent does not add up to a percentage
    tools["rows"][1][0] = "ROFE"
    assert one("The answer is 16.15%.", tools, question=question)[0].status == "unsupported"


def test_a_share_of_an_expense_may_drop_its_sign_a_change_may_not():
    # D&A printed "(111)" is 29.84% of EBITDA 372 as a reader says it; -29.84% as the
    # cells divide. Only that shape drops a sign: a negative share of a positive amount.
    tools = {"columns": ["$ MILLION", "53 WEEKS", "52 WEEKS"],
             "rows": [["EBITDA", "372", "361"], ["Depreciation and amortisation", "(111)", "(102)"]]}
    question = "What is the percentage constitution of Depreciation and Amortisation in EBITDA in F19?"
    assert one("The answer is -29.84%.", tools, question=question)[0].status == "derived"
    item, _ = one("The answer is 29.84%.", tools, question=question)
    assert item.status == "derived" and item.expression == "($.rows[1][1] / $.rows[0][1]) * 100"
    assert one("The answer is 29.85%.", tools, question=question)[0].status == "unsupported"
    # an explicit plus sign keeps the sign the answer wrote
    assert one("The answer is +29.84%.", tools, question=question)[0].status == "unsupported"
    # ((-102) - (-111)) / (-111) is -8.11%, not 8.11%: a change keeps its sign
    assert one("Costs changed 8.11%.", {"columns": ["", "2019", "2018"],
                                        "rows": [["Costs", "(111)", "(102)"]]})[0].status == "unsupported"
    # a positive amount over a negative one, and a ratio of percentages, keep theirs
    assert one("The answer is 335.14%.", tools, question="What is EBITDA as a percentage of D&A in F19?"
               )[0].status == "unsupported"
    rates = {"columns": ["", "2019 over 2018"], "rows": [["Modules", "191%"], ["Systems", "(8)%"]]}
    assert one("The answer is 4.19%.", rates)[0].status == "unsupported"
    assert one("The answer is -4.19%.", rates)[0].status == "derived"


def test_percentage_of_completion_is_not_a_percent_row():
    tools = {"unit": "million", "columns": ["", "2019", "2018"],
             "rows": [["Revenue under percentage-of-completion", "1,234", "1,100"],
                      ["Revenue under completed contract", "450", "400"]]}
    question = "What was the percentage change in revenue under percentage-of-completion from 2018 to 2019?"
    assert one("It grew by 134%.", tools, question=question)[0].status == "unsupported"
    assert one("It grew by 12.18%.", tools, question=question)[0].status == "derived"


STACKED = {"unit": "thousand", "columns": ["", "Number of Shares", "Weighted Average Grant Date Fair Value"], "rows": [
    ["Nonvested at January 1, 2017", "98", "$23.52"], ["Granted", "132", "19.74"], ["Vested", "(43)", "20.44"],
    ["Nonvested at January 1, 2018", "187", "21.56"], ["Granted", "96", "18.20"], ["Vested", "(77)", "19.18"],
    ["Nonvested at December 30, 2018", "206", "17.22"], ["Granted", "353", "10.77"], ["Vested", "(118)", "14.48"],
    ["Nonvested at December 29, 2019", "441", "$12.55"]]}


def test_rows_repeating_a_label_down_a_stacked_table_are_one_quantity():
    question = "What is the average number of nonvested shares vested in 2017 and 2019?"
    item, _ = one("The answer is 80.5 thousand.", STACKED, question=question)
    assert item.status == "derived" and item.expression == "($.rows[2][1] + $.rows[8][1]) / 2", item.reason
    # only where the question names the row: otherwise the column is searched as a column
    assert one("The answer is 80.5 thousand.", STACKED)[0].status == "unsupported"
    assert one("The answer is 81.5 thousand.", STACKED, question=question)[0].status == "unsupported"


def test_cells_the_question_names_along_both_axes_combine_with_any_operation():
    restructuring = {"unit": "thousand", "columns": ["Plan", "Workforce reduction", "Facility costs", "Total"],
                     "rows": [["Balance payable as at June 30, 2018", "$2,210", "$3,406", "$5,616"],
                              ["Balance payable as at June 30, 2019", "$1,046", "$2,949", "$3,995"]]}
    question = ("For Balance payable as at June 30, 2019, What is the difference between "
                "Workforce reduction and Facility costs?")
    item, _ = one("The answer is -1903 thousand.", restructuring, question=question)
    assert item.status == "derived" and item.expression == "$.rows[1][1] - $.rows[1][2]", item.reason
    # unnamed, two different quantities of one row are not subtracted
    assert one("The answer is -1903 thousand.", restructuring)[0].status == "unsupported"
    monetary = {"unit": "million", "columns": ["", "USD denominated", "Non-USD denominated"],
                "rows": [["Monetary assets, current", "27,728", "2,899"], ["Monetary assets, non-current", "373", "–"],
                         ["Monetary liabilities, current", "(4,273)", "(14,732)"]]}
    question = "What was the total USD denominated monetary assets?"
    item, _ = one("The answer is 28101 million.", monetary, question=question)
    assert item.status == "derived" and item.expression == "$.rows[0][1] + $.rows[1][1]", item.reason
    assert one("The answer is 28101 million.", monetary)[0].status == "unsupported"  # two cells of a column
    assert one("The answer is 28102 million.", monetary, question=question)[0].status == "unsupported"


def test_a_rows_average_is_over_its_period_columns_not_its_change_columns():
    tools = {"unit": "million", "columns": ["", "Year Ended December 31, 2019", "Year Ended December 31, 2018",
                                            "Year Ended December 31, 2017", "Variation 2019 vs 2018"],
             "rows": [["Cost of sales", "$(5,860)", "$(5,803)", "$(5,075)", "1.0%"],
                      ["Gross profit", "$3,696", "$3,861", "$3,272", "(4.3)%"]]}
    item, _ = one("The answer is 3609.67 million.", tools, question="What is the average Gross profit?")
    assert item.status == "derived" and item.expression == "avg($.rows[1][1], $.rows[1][2], $.rows[1][3])"
    item, _ = one("The answer is 5579.33 million.", tools, question="What is the average Cost of sales?")
    assert item.status == "derived", item.reason  # expenses printed negative: their magnitude
    assert one("The answer is 3609.76 million.", tools, question="What is the average Gross profit?"
               )[0].status == "unsupported"


def test_a_groups_mean_is_one_result_not_a_spread_of_them():
    # three rates 2.4-3.2: their mean, 2.7, is one result; taking the spread as the
    # range a wrong answer falls in made a one-decimal mean "too likely by chance"
    tools = {"columns": ["", "2019", "2018", "2017"],
             "rows": [["Discount rate", "2.5%", "2.4%", "3.2%"], ["Salary growth", "3.0%", "3.0%", "3.5%"]]}
    question = "What is the average discount rate over the 3 year period from 2017 to 2019?"
    item, _ = one("The answer is 2.7%.", tools, question=question)
    assert item.status == "derived", item.reason
    assert item.expression == "avg($.rows[0][1], $.rows[0][2], $.rows[0][3])"
    assert one("The answer is 2.6%.", tools, question=question)[0].status == "unsupported"


def test_count_fields_are_quantities_not_period_words():
    # "quarter" and "weeks" as JSON fields hold numbers of their own
    assert one("EPS was 4.25.", {"symbol": "ACME", "quarter": 3, "eps": 1.25})[0].status == "unsupported"
    assert one("The price was 70.4.", {"weeks": 52, "price": 18.4})[0].status == "unsupported"


FCF = {"columns": ["", "2019", "2018", "2017"], "unit": "million",
       "rows": [["Free cash flow", "4,411", "4,044", "3,316"], ["Capex", "(7,227)", "(7,321)", "(7,675)"]]}


def test_a_word_of_direction_fixes_which_period_comes_first():
    question = "What is the change in free cash flow between 2018 and 2019?"
    assert one("Free cash flow rose by 367 million.", FCF, question=question)[0].status == "derived"
    # 4,044 - 4,411 is -367, but it is 2018 less 2019: free cash flow did not fall
    assert one("Free cash flow fell by 367 million.", FCF, question=question)[0].status == "unsupported"
    # without a word of direction, "the difference" may be given either way round
    assert one("The difference is -367 million.", FCF, question=question)[0].status == "derived"
    averages = "What is the change between 2018 and 2019 average free cash flow?"
    assert one("Average free cash flow rose by 547.5 million.", FCF, question=averages)[0].status == "derived"
    assert one("Average free cash flow fell by 547.5 million.", FCF, question=averages)[0].status == "unsupported"


def test_a_derivation_stays_within_the_years_the_question_asks_about():
    question = "What is the change in free cash flow between 2018 and 2019?"
    assert one("It increased by 728 million.", FCF, question=question)[0].status == "unsupported"  # 2018 - 2017
    average = "What is the average free cash flow in 2018 and 2019?"
    assert one("The answer is 4,227.5 million.", FCF, question=average)[0].status == "derived"
    assert one("The answer is 3,680 million.", FCF, question=average)[0].status == "unsupported"  # 2018 and 2017
    # one year asked: its change from the year before
    assert one("The answer is 728 million.", FCF, question="What was the change in free cash flow in 2018?"
               )[0].status == "derived"
    # years that are not the table's periods ("notes due 2024") say nothing about its columns
    assert one("The answer is 728 million.", FCF, question="What was the change in free cash flow before "
               "the notes due 2024?")[0].status == "derived"


def test_a_plain_number_is_read_in_the_tables_own_units():
    question = "What is the change in free cash flow between 2018 and 2019?"
    assert one("The answer is 367.", FCF, question=question)[0].status == "derived"  # 4,411 - 4,044 (millions)
    assert one("The answer is 376.", FCF, question=question)[0].status == "unsupported"


CARRYFORWARDS = {"unit": "thousand", "columns": ["(dollars in thousands)", "Last Fiscal Year of Expiration", "Amount"],
                 "rows": [["Operating loss carryforwards:", "", ""],
                          ["Domestic-state", "2039", "$57,299"], ["Foreign", "2039 or indefinite", "$565,609"],
                          ["Tax credit carryforwards:", "", ""], ["Domestic-federal", "2029", "$39,784"],
                          ["Domestic-state", "2027", "$3,313"], ["Foreign", "2027 or indefinite", "$15,345"]]}


def test_a_section_under_a_heading_row_is_totalled_on_its_own():
    # "the sum of all tax credit carryforwards" is the rows under that heading, not the column
    question = "What was the sum of all Tax credit carryforwards?"
    item, _ = one("The answer is 58,442 thousand.", CARRYFORWARDS, question=question)
    assert item.status == "derived" and item.expression == "sum($.rows[4][2], $.rows[5][2], $.rows[6][2])"
    assert one("The answer is 58,443 thousand.", CARRYFORWARDS, question=question)[0].status == "unsupported"
    # the section above the heading is one too (two rows under a heading row: columns
    # get no sums of two rows, a headed section gets its total)
    item, _ = one("The answer is 622,908 thousand.", CARRYFORWARDS,
                  question="What was the sum of all net operating loss carryforwards?")
    assert item.status == "derived" and item.expression == "sum($.rows[1][2], $.rows[2][2])"
    # across the heading is no section: the first and last rows are not summed
    assert one("The answer is 72,644 thousand.", CARRYFORWARDS, question=question)[0].status == "unsupported"


EXPECTED_CHARGES = {"unit": "million", "columns": ["", "Total Expected Charges", "Cumulative Charges Incurred"],
           "rows": [["Transportation Solutions", "$  160", "$  144"], ["Industrial Solutions", "80", "66"],
                    ["Communications Solutions", "49", "44"], ["Total", "$  289", "$  254"]]}


def test_a_columns_mean_leaves_out_its_total_row():
    question = "What was the average amount of total expected charges per segment?"
    item, _ = one("The answer is 96.33 million.", EXPECTED_CHARGES, question=question)
    assert item.status == "derived" and item.expression == "avg($.rows[0][1], $.rows[1][1], $.rows[2][1])"
    assert one("The answer is 96.34 million.", EXPECTED_CHARGES, question=question)[0].status == "unsupported"
    # the column's mean with its own total in it, (160 + 80 + 49 + 289) / 4, means nothing
    assert one("The answer is 144.5 million.", EXPECTED_CHARGES, question=question)[0].status == "unsupported"


def test_a_net_row_is_an_item_not_a_total():
    # "Net bookings" is an item: the column holds no total row, so its total is searched
    tools = {"unit": "million", "columns": ["", "2019", "2018"],
             "rows": [["Net bookings", "$6,388", "$7,262"], ["In-game net bookings", "$3,366", "$4,203"]]}
    question = "What was the sum of net bookings and in-game net bookings in 2019?"
    item, _ = one("The answer is 9,754 million.", tools, question=question)
    assert item.status == "derived" and item.expression == "sum($.rows[*][1])"
    assert one("The answer is 9,755 million.", tools, question=question)[0].status == "unsupported"


def test_a_rounding_of_a_cell_may_be_the_asked_computation():
    # 92 is Net Income's 91.6 rounded (drift), and exactly the change in Net Sales the
    # question asks for: the computation it names explains it; without a question, or
    # for a row it does not name, the rounding stays a rounding
    tools = {"unit": "million", "columns": ["", "April 27, 2019", "April 28, 2018"],
             "rows": [["Net Sales", "$1,000.3", "$908.3"], ["Net Income", "91.6", "57.2"],
                      ["Dividends", "0.44", "0.40"]]}
    question = "What is the change in Net Sales from Fiscal Year Ended April 28, 2018 to April 27, 2019?"
    item, _ = one("The answer is 92 million.", tools, question=question)
    assert item.status == "derived" and item.expression == "$.rows[0][1] - $.rows[0][2]"
    assert one("The answer is 92 million.", tools)[0].status == "drift"
    assert one("The answer is 92 million.", tools, question="What was Net Income in fiscal 2019?"
               )[0].status == "drift"


def test_sign_dropped_ratios_are_only_shares_of_an_amount():
    # a Change column's (111) over 2018's 372 is a fall of 29.84%, neither a rise nor a share
    tools = {"columns": ["$ MILLION", "2019", "2018", "Change"],
             "rows": [["Revenue", "261", "372", "(111)"], ["Costs", "90", "80", "10"]]}
    question = "What was the percentage change in revenue?"
    assert one("Revenue increased 29.84%.", tools, question=question)[0].status == "unsupported"
    assert one("The answer is 29.84%.", tools, question=question)[0].status == "unsupported"
    assert one("Revenue fell 29.84%.", tools, question=question)[0].status == "derived"
    # an amount over a percentage cell keeps its sign
    margins = {"columns": ["", "Operating income", "Margin"],
               "rows": [["Segment A", "(12.5)", "40%"], ["Segment B", "30.1", "22%"]]}
    assert one("The answer is 31.25%.", margins, question="What is the ratio for Segment A?"
               )[0].status == "unsupported"


def test_a_tables_first_rows_before_a_heading_are_a_section():
    # the title above the table was their heading; the next heading closes them
    tools = dict(CARRYFORWARDS, rows=CARRYFORWARDS["rows"][1:])
    item, _ = one("The answer is 622,908 thousand.", tools,
                  question="What was the sum of all net operating loss carryforwards?")
    assert item.status == "derived" and item.expression == "sum($.rows[0][2], $.rows[1][2])"


def test_sections_need_a_heading_or_three_rows_and_a_printed_table():
    # Property and Goodwill sit between two totals: two lines, not a section to total
    sheet = {"unit": "million", "columns": ["", "2019", "2018"],
             "rows": [["Cash", "10.3", "9.1"], ["Receivables", "20.6", "18.2"],
                      ["Total current assets", "30.9", "27.3"], ["Property", "50.4", "47.9"],
                      ["Goodwill", "7.2", "7.2"], ["Total assets", "88.5", "82.4"]]}
    assert one("Total assets were $57.6 million in 2019.", sheet,
               question="What were total assets in 2019?")[0].status == "unsupported"
    # a record with a null price is no heading: an array of records has no sections
    quotes = {"quotes": [{"ticker": "AAA", "price": 10.25}, {"ticker": "BBB", "price": None},
                         {"ticker": "CCC", "price": 20.5}, {"ticker": "DDD", "price": 31.75},
                         {"ticker": "EEE", "price": 12.5}]}
    assert verify("The average price is 21.58.", quotes, question="What is the average price?"
                  ).items[0].status == "unsupported"
    assert verify("The average price is 18.75.", quotes, question="What is the average price?"
                  ).items[0].status == "derived"


@pytest.mark.parametrize("total", ["Grand total", "Totals", "Segment total", "Subtotal"])
def test_a_sections_total_row_is_left_out_of_it(total):
    tools = {"unit": "thousand", "columns": ["", "Amount"],
             "rows": [["Other", "1.5"], ["Tax credits:", ""], ["Federal", "2.25"], ["State", "3.5"],
                      ["Local", "1.25"], [total, "7"]]}
    question = "What was the sum of all tax credits?"
    assert one("The sum of all tax credits is 14 thousand.", tools, question=question)[0].status == "unsupported"
    item, _ = one("The average tax credit is 2.33 thousand.", tools, question="What was the average tax credit?")
    assert item.status == "derived" and item.expression == "avg($.rows[2][1], $.rows[3][1], $.rows[4][1])"


POSITIONS = {"positions": [{"symbol": "AAPL", "qty": 150, "avg_cost": 120.5, "price": 142.3},
                           {"symbol": "MSFT", "qty": 40, "avg_cost": 300.1, "price": 410.2}]}


@pytest.mark.parametrize(("answer", "status", "expression"), [
    ("Your AAPL position is worth $21,345.", "derived", "$.positions[0].qty * $.positions[0].price"),
    ("You paid $18,075 for AAPL.", "derived", "$.positions[0].qty * $.positions[0].avg_cost"),
    ("Your AAPL position is worth $21,346.", "unsupported", None),
    # a rounding of the product is a rounding: hedged, it passes; unhedged, it does not
    ("Your AAPL position is worth about $21.3 thousand.", "derived", "$.positions[0].qty * $.positions[0].price"),
    ("Your AAPL position is worth $21.3 thousand.", "unsupported", None),
    # another ticker's value
    ("Your AAPL position is worth $16,408.", "misattributed", "$.positions[1].qty * $.positions[1].price"),
    # to the whole dollar, the cents dropped (40 x 300.1 = 12,004.0; 150 x 142.37 below)
    ("Your MSFT cost was $12,004.", "derived", "$.positions[1].qty * $.positions[1].avg_cost"),
])
def test_a_count_times_its_price_is_a_value(answer, status, expression):
    item = next(i for i in verify(answer, POSITIONS).items if i.kind != "ticker")
    assert (item.status, item.expression) == (status, expression)


def test_a_product_may_drop_its_cents_not_more():
    held = {"positions": [{"symbol": "AAPL", "qty": 150, "price": 142.37}]}  # 21,355.50
    for answer, status in (("worth $21,356.", "derived"), ("worth $21,355.50.", "derived"),
                           ("worth $21,357.", "unsupported"), ("worth $21,360.", "unsupported")):
        item = next(i for i in verify(f"Your AAPL position is {answer}", held).items if i.kind != "ticker")
        assert item.status == status, (answer, item.reason)


def test_a_number_of_securities_is_a_count_and_securities_alone_are_not():
    plans = {"columns": ["Plan category", "Number of securities remaining available for future issuance",
                         "Weighted-average exercise price of outstanding options"],
             "rows": [["Equity compensation plans", "4,446,967", "$86.98"]]}
    assert one("That would cost $386,797,190.", plans)[0].status == "derived"
    holdings = {"columns": ["", "Available-for-sale securities", "Price per share"], "rows": [["Fund", "4,446,967", "$86.98"]]}
    assert one("That would cost $386,797,190.", holdings)[0].status == "unsupported"


def test_only_a_count_and_a_price_multiply():
    # 150 x 120.5 of two prices, or of two counts, is no product; nor in a table whose
    # unit scales its counts and not its prices
    prices = {"quotes": [{"symbol": "AAPL", "bid": 150, "price": 120.5}]}
    assert one("AAPL is at 18,075.", prices)[0].status == "unsupported"
    counts = {"book": [{"symbol": "AAPL", "shares": 150, "contracts": 120}]}
    assert one("AAPL: 18,000.", counts)[0].status == "unsupported"
    table = {"unit": "thousand", "columns": ["", "Number of Shares", "Price Per Share"],
             "rows": [["Granted", "150", "$120.50"]]}
    assert one("The grants were worth 18,075 thousand.", table)[0].status == "unsupported"
    table.pop("unit")
    assert one("The grants were worth 18,075.", table)[0].status == "derived"


@pytest.mark.parametrize(("record", "answer"), [
    ({"ticker": "AAPL", "shares": 150, "price_to_earnings": 23.29}, "worth $3,493.50"),  # a ratio, not a price
    ({"ticker": "AAPL", "number_of_employees": 161000, "price": 190.5}, "revenue of $30,670,500"),
    ({"ticker": "AAPL", "shares": 150, "dividend_per_share": 0.96}, "worth $144"),  # a payout
    ({"ticker": "AAPL", "shares_thousands": 150, "price": 360.8}, "worth $54,120"),  # the count is in thousands
    ({"ticker": "F", "qty": -50, "price": 10}, "lost $500"),  # a short's value is no loss
])
def test_products_are_only_counts_times_prices_as_written(record, answer):
    item = next(i for i in verify(f"Your position is {answer}.", {"positions": [record]}).items if i.kind != "ticker")
    assert item.status == "unsupported", item.reason


def test_a_rounding_is_not_re_read_as_the_total_a_row_is_named_for():
    tools = {"unit": "million", "columns": ["", "2019", "2018", "2017"],
             "rows": [["Products", "700", "690", "650"], ["Services", "550.4", "560", "600.2"],
                      ["Total revenue", "1,250.4", "700", "550"]]}
    item, _ = one("Total revenue was 1,250 million.", tools, question="What was Total revenue in the latest year?")
    assert item.status == "drift"  # 700 + 550 (2018 + 2017) is no answer to it


def test_a_question_naming_a_total_row_asks_about_the_rows_it_totals():
    sheet = {"columns": ["", "2019", "2018"],
             "rows": [["Cash", "120", "110"], ["Receivables", "80", "90"], ["Total current assets", "200", "200"],
                      ["Non-current assets:", "", ""], ["Property", "300", "280"], ["Goodwill", "90", "90"],
                      ["Total non-current assets", "390", "370"]]}
    item, _ = one("Non-current assets averaged 195 in 2019.", sheet,
                  question="What was the average non-current asset in 2019?")
    assert item.status == "derived" and item.expression == "avg($.rows[4][1], $.rows[5][1])"
    # rows another total closes are still other rows: Receivables' change is not
    # the change in total current assets
    assert one("It changed by -10.", sheet, question="What was the change in total current assets?"
               )[0].status == "unsupported"

    from verifier.derive.operands import closes_section
    assert [closes_section(x) for x in ("Subtotal", "Grand total", "% of total", "Percentage of total")] == [
        True, True, False, False]  # a share of the total is no total row
    # a total printed last ("Non-current assets total") closes its rows as "Total ..." does
    sheet["rows"][-1][0] = "Non-current assets total"
    item, _ = one("Non-current assets averaged 195 in 2019.", sheet,
                  question="What was the average non-current asset in 2019?")
    assert item.status == "derived" and item.expression == "avg($.rows[4][1], $.rows[5][1])", item.reason


def test_a_total_row_excuses_only_the_mean_of_the_rows_it_totals():
    sheet = {"columns": ["", "2019", "2018"],
             "rows": [["Non-current assets:", "", ""], ["Property", "300", "260"], ["Goodwill", "90", "100"],
                      ["Total non-current assets", "390", "360"]]}
    # Property's own change is not the change in the total
    assert one("It grew 15.38%.", sheet, question="What was the percentage change in total non-current assets?"
               )[0].status == "unsupported"
    assert one("It averaged 280.", sheet, question="What was the average total non-current assets?"
               )[0].status == "unsupported"


def test_a_blank_row_is_no_heading():
    tools = {"columns": ["", "2019", "2018"],
             "rows": [["Revenue", "1,250", "1,100"], ["Net income", "212", "180"], ["", "", ""],
                      ["Segment A", "700", "600"], ["Segment B", "550", "500"], ["Total", "1,250", "1,100"]]}
    assert one("The total came to 1,462.", tools, question="What was the sum in 2019?")[0].status == "unsupported"


def test_rows_labelled_by_a_year_are_named_by_it():
    leases = {"unit": "million", "columns": ["", "Operating Leases", "Finance Leases"],
              "rows": [["2021", "$138", "$6"], ["2022", "135", "6"], ["2023", "120", "7"],
                       ["2024", "94", "7"], ["2025", "70", "7"], ["Thereafter", "577", "35"],
                       ["Total future minimum lease payments", "1,134", "68"]]}
    question = "What was the change in finance leases between 2022 and 2023?"
    item, _ = one("The answer is 1 million.", leases, question=question)
    assert item.status == "derived" and item.expression == "$.rows[2][2] - $.rows[1][2]", item.reason
    # the column alone has many differences of 1 (6 to 7, 7 to 7 ...): chance, not the asked rows
    assert one("The answer is 1 million.", leases)[0].status == "unsupported"
    assert one("The answer is 2 million.", leases, question=question)[0].status == "unsupported"
    numbers = {**leases, "rows": [[int(r[0]) if r[0].isdigit() else r[0], *r[1:]] for r in leases["rows"]]}
    item, _ = one("The answer is 1 million.", numbers, question=question)  # the label a JSON number
    assert item.status == "derived" and item.expression == "$.rows[2][2] - $.rows[1][2]", item.reason


PSU_NOTE = {"unit": "thousand", "paragraphs": [
    "Stock Awards",
    "In February 2016, we granted 547,000 PSUs with certain financial and operational targets.",
    ("In October 2018, we granted 464,888 PSUs with certain financial targets. These PSUs will become "
     "eligible to vest at 75% upon the achievement of the performance targets by December 31, 2020."),
    "In April 2019, we granted 346,453 PSUs with certain financial targets; 25% vest later.",
]}


@pytest.mark.parametrize(("question", "answer", "status"), [
    ("What is the percentage difference in the number of PSUs granted between February 2016 and October 2018?",
     "The answer is -15.01%.", "derived"),
    ("What is the total number of PSUs granted in October 2018 and April 2019?", "The answer is 811341.",
     "derived"),
    ("What is the total number of PSUs granted in October 2018 and April 2019?", "The answer is 811342.",
     "unsupported"),  # altered
    ("What is the percentage difference in the number of PSUs granted between March 2016 and October 2018?",
     "The answer is -15.01%.", "unsupported"),  # February's figure is not asked for
    ("What is the percentage difference in the number of PSUs granted between 2016 and 2018?",
     "The answer is -15.01%.", "derived"),  # no month named: the years name them
    ("What is the percentage difference in the number of PSUs granted between Feb. 2016 and Oct. 2018?",
     "The answer is -15.01%.", "derived"),  # abbreviated months name the months
    ("What is the percentage difference in the number of PSUs granted between Mar. 2016 and Oct. 2018?",
     "The answer is -15.01%.", "unsupported"),
    (None, "The answer is -15.01%.", "unsupported"),  # figures of two paragraphs, unasked
])
def test_figures_the_question_names_by_date_combine_across_paragraphs(question, answer, status):
    item, _ = one(answer, PSU_NOTE, question=question)
    assert item.status == status, item.reason
    if status == "derived":  # each operand says which figure of its paragraph it is
        assert {e.value for e in item.evidence} <= {"547000", "464888", "346453"}
        assert {e.path for e in item.evidence} <= {"$.paragraphs[1]", "$.paragraphs[2]", "$.paragraphs[3]"}


AFFILIATES = {
    "columns": ["", "2017", "2018", "2019"],
    "rows": [["Product and equipment sales to affiliates", "$30,303", "$26,069", "$10,436"],
             ["Purchases of resale inventories", "303,793", "256,660", "9,399"],
             ["Dividends paid", "52,983", "54,810", "56,028"]],
    "paragraphs": [("During fiscal 2017, 2018 and 2019 sales of Kyocera resale products by AVX were $318,928, "
                    "$296,316 and $18,951, respectively, and related operating profit was $17,076, $18,177 and "
                    "$3,300, respectively.")],
}
RESALE = "What is the difference between the sales of Kyocera's resale products and sales in 2017?"
RESALE_SHARE = "What is the value of Kyocera resale products as a percentage of AVX's total sales in 2019?"


@pytest.mark.parametrize(("question", "answer", "status", "expression"), [
    (RESALE, "The answer is 288625.", "derived", "$.paragraphs[0] - $.rows[0][1]"),
    (RESALE, "The answer is 288626.", "unsupported", None),  # altered
    (RESALE_SHARE, "The answer is 181.59%.", "derived", "($.paragraphs[0] / $.rows[0][3]) * 100"),
    (RESALE_SHARE, "The answer is 181.95%.", "unsupported", None),
    # the 2018 figure of the text is not the one asked for
    (RESALE.replace("2017", "2019"), "The answer is 288625.", "unsupported", None),
    # operating profit is not what the question names
    ("What is the difference between the operating profit and purchases in 2017?", "The answer is 288625.",
     "unsupported", None),
    (None, "The answer is 288625.", "unsupported", None),  # nothing asked: cells and text apart
])
def test_a_cell_and_a_figure_of_the_text_the_question_names_combine(question, answer, status, expression):
    item, _ = one(answer, AFFILIATES, question=question)
    assert item.status == status, item.reason
    if expression:
        assert item.expression == expression
        assert {e.value for e in item.evidence} == {"318928" if "288625" in answer else "18951",
                                                    "30303" if "288625" in answer else "10436"}


def test_a_cell_and_a_text_figure_add_only_at_the_figures_precision_and_size():
    income = {"unit": "thousand", "columns": ["", "2019", "2017"],
              "rows": [["Interest income", "$30,182", "$9,500"], ["Other", "$5", "$4"]],
              "paragraphs": ["Interest expense was $16.9 million in fiscal year 2019.",
                             "Income before income tax expense was $88,848 in fiscal year 2019."]}
    # 30,182 less $16.9 million is 13,282 only to the figure's precision (13.3 million)
    net = "What was the interest income less the interest expense in 2019?"
    assert one("The answer is 13,282 thousand.", income, question=net)[0].status == "unsupported"
    assert one("The answer is 13.3 million.", income, question=net)[0].status == "derived"
    # the text's 88,848 less a $5 cell: a changed last digit, not a computation
    before_tax = "What was the income before income tax expense in 2019, other than Other?"
    assert one("The answer is 88,843 thousand.", income, question=before_tax)[0].status == "unsupported"


GIVEN_2019 = "What was the interest income in 2018, given the interest income in 2019?"
DIFFERENCE = "What is the difference in interest income between 2017 and 2019?"


@pytest.mark.parametrize(("paragraph", "question", "answer"), [
    # a change is no level: neither added, subtracted nor divided
    ("Interest income increased by $16.9 million in fiscal year 2019.", GIVEN_2019, "The answer is 47.1 million."),
    ("Interest income increased by $16.9 million in fiscal year 2019.", GIVEN_2019, "The answer is 1.79."),
    # a percentage of the text is no amount beside the cells (9,500 less 95.0)
    ("In 2019, interest income grew 95.0% on higher yields.", DIFFERENCE, "The answer is 9,405 thousand."),
    # a count of the text is no amount beside cells that print a currency sign (9,500 less 2,100)
    ("In 2019, we had 2,100 interest income accounts.", DIFFERENCE, "The answer is 7,400 thousand."),
])
def test_a_cell_and_a_text_figure_must_be_the_same_kind_of_amount(paragraph, question, answer):
    income = {"unit": "thousand", "columns": ["", "2019", "2017"],
              "rows": [["Interest income", "$30,182", "$9,500"], ["Other", "$5", "$4"]], "paragraphs": [paragraph]}
    assert one(answer, income, question=question)[0].status == "unsupported"


def test_a_text_figure_without_a_scale_word_is_not_read_in_a_table_corners_unit():
    # "(in thousands)" scales the cells, not the paragraph's "$318,928"
    corner = {**AFFILIATES, "columns": ["(in thousands)", "2017", "2018", "2019"]}
    for answer in ("The answer is 288625.", "The answer is 29,984."):
        assert one(answer, corner, question=RESALE)[0].status == "unsupported", answer


def test_a_word_of_direction_orders_a_cell_and_a_text_figure_by_their_years():
    question = "How did the sales of Kyocera resale products change from 2017 to 2019?"
    item, _ = one("Sales fell by 308,492.", AFFILIATES, question=question)  # 2019's 10,436 less 2017's 318,928
    assert item.status == "derived" and item.expression == "$.rows[0][3] - $.paragraphs[0]", item.reason
    assert one("Sales rose by 308,492.", AFFILIATES, question=question)[0].status == "unsupported"


def test_a_month_abbreviated_in_the_text_is_named_by_its_full_name():
    note = {"unit": "thousand", "paragraphs": ["In Feb. 2016, we granted 547,000 PSUs with targets.",
                                               "In Oct. 2018, we granted 464,888 PSUs with targets."]}
    asked = "What is the percentage difference in the number of PSUs granted between {} 2016 and October 2018?"
    assert one("The answer is -15.01%.", note, question=asked.format("February"))[0].status == "derived"
    assert one("The answer is -15.01%.", note, question=asked.format("March"))[0].status == "unsupported"
    # a word that only looks like a month ("APR", "Dec" without its dot or a day) names none
    for question in (("What is the percentage difference in the number of PSUs (APR-linked) granted between "
                      "2016 and 2018?"), "What is the percentage difference in Dec PSUs granted between 2016 and 2018?"):
        assert one("The answer is -15.01%.", note, question=question)[0].status == "derived", question


def test_a_derivations_evidence_names_each_operands_figure():
    item, _ = one("Other changed by -12.6 million.")
    assert [(e.path, e.raw, e.value) for e in item.evidence] == [("$.rows[1][1]", "44.1", "44.1"),
                                                                ("$.rows[1][2]", "56.7", "56.7")]
    assert "$.rows[1][1] - $.rows[1][2] = 44.1 - 56.7 (x 1000000) in segments" in item.reason  # worked, in millions
    report = verify("Grants fell 15.01%.", PSU_NOTE,
                    question="What is the percentage change in the PSUs granted between February 2016 and October 2018?")
    assert "= (464888 - 547000) / 547000 * 100" in report.items[0].reason
    # a suggestion over paragraphs says which of their figures it means
    assert report.suggestions[0].text.endswith("(from (464888 - 547000) / 547000 * 100)")
    matched, _ = one("Other was 44.1 million in 2019.")
    assert matched.status != "derived" and all(e.value is None for e in matched.evidence)


def test_a_span_of_years_ended_a_year_reaches_back_that_many_years():
    graph = {"columns": ["Company Index", "November 17, 2011", "December 31, 2012", "December 31, 2013",
                         "December 31, 2014"],
             "rows": [["Delphi Automotive PLC", "$100.00", "$179.33", "$285.81", "$350.82"],
                      ["S&P 500", "100.00", "116.93", "154.80", "175.99"]]}
    span = "What was the percentage total return for Delphi Automotive PLC for the five years ended December 31 2014?"
    item, _ = one("The answer is 250.82%.", graph, question=span)
    assert item.status == "derived" and item.expression == "($.rows[0][4] - $.rows[0][1]) / $.rows[0][1] * 100"
    item, _ = one("The answer is 250.82%.", graph, question=span.replace("five years ended", "3-year period ending"))
    assert item.status == "derived"
    # one year named: the change runs from the year before, not from 2011
    one_year = "What was the percentage total return for Delphi Automotive PLC in 2014?"
    assert one("The answer is 250.82%.", graph, question=one_year)[0].status == "unsupported"


def test_a_share_of_named_rows_divides_by_their_columns_total_row():
    regions = {"unit": "million", "columns": ["For the year ended", "2019", "2018"],
               "rows": [["United States", "$12,451", "$17,116"], ["Taiwan", "2,703", "3,918"],
                        ["Hong Kong", "1,614", "1,761"], ["Japan", "958", "1,265"], ["Other", "1,053", "1,266"],
                        ["", "$18,779", "$25,326"]]}  # the total printed with no label
    question = "What is the total percentage of revenue from Taiwan and Japan over total revenue in 2019?"
    item, _ = one("The answer is 19.50%.", regions, question=question)
    assert item.status == "derived", item.reason
    assert item.expression == "(($.rows[1][1] + $.rows[3][1]) / $.rows[5][1]) * 100"
    assert one("The answer is 19.05%.", regions, question=question)[0].status == "unsupported"
    assert one("The answer is 19.50%.", regions)[0].status == "unsupported"  # unasked: not searched


@pytest.mark.parametrize(("paragraphs", "question", "answer"), [
    # the answer's own sentence names no figures of the text: only the question does
    (["In 2019, revenue was $500 million.", "In 2018, revenue was $450 million.",
      "In 2019, the Company paid dividends of $12 million."],
     None, "Between 2018 and 2019 the Company's revenue rose by $438 million."),
    # "the Company" is boilerplate, not what a figure is
    (["In 2019, revenue was $500 million.", "In 2018, revenue was $450 million.",
      "In 2019, the Company paid dividends of $12 million."],
     "What was the change in revenue between 2018 and 2019 for the Company?", "It rose by $438 million."),
    # a figure the clause dates otherwise ("in 2018") is not the opening date's
    (["In 2019, we granted 300,000 PSUs, compared with 500,000 PSUs in 2018.", "In 2020, we granted 412,000 PSUs."],
     "What is the total number of PSUs granted in 2019 and 2020?", "The answer is 912,000."),
    # a figure of the same clause that is something else (RSUs)
    (["In February 2016, we granted 547,000 PSUs.", "In October 2018, we granted 464,888 PSUs and 120,000 RSUs."],
     "What is the difference in the PSUs granted between February 2016 and October 2018?", "The answer is 427,000."),
])
def test_figures_asked_by_date_must_be_the_asked_thing_of_the_asked_date(paragraphs, question, answer):
    item, _ = one(answer, {"paragraphs": paragraphs}, question=question)
    assert item.status == "unsupported", (item.status, item.reason)


def test_figures_asked_by_date_are_not_read_past_a_bound():
    from verifier.question.asked_text import MAX_PROSE_CLAUSES
    psu = ["In February 2016, we granted 547,000 PSUs.", "In October 2018, we granted 464,888 PSUs."]
    filler = [f"In 2018, committee {i} met." for i in range(MAX_PROSE_CLAUSES)]
    question = "What is the percentage difference in the number of PSUs granted between February 2016 and October 2018?"
    assert one("The answer is -15.01%.", {"paragraphs": psu + filler[:10]}, question=question)[0].status == "derived"
    assert one("The answer is -15.01%.", {"paragraphs": psu + filler}, question=question)[0].status == "unsupported"


def test_figures_asked_by_date_are_a_few_or_none():
    from verifier.question.asked_text import MAX_PROSE_ASKED
    teams = ["sales", "audit", "legal", "risk", "ops", "tax", "trading", "research", "credit", "treasury"]
    assert len(teams) > MAX_PROSE_ASKED
    many = {"paragraphs": [f"In 2019, we granted {100 + i},000 PSUs to {team}."
                           for i, team in enumerate(teams[:MAX_PROSE_ASKED + 1])]}
    question = "How many more PSUs were granted to sales than to audit in 2019?"
    assert one("The answer is -1,000.", many, question=question)[0].status == "unsupported"
    few = {"paragraphs": many["paragraphs"][:MAX_PROSE_ASKED]}
    assert one("The answer is -1,000.", few, question=question)[0].status == "derived"


def test_figures_asked_by_date_in_one_list_share_what_they_are():
    notes = {"paragraphs": [("Total assets increased due to the issuances of long-term senior notes of $10.0 billion "
                            "in fiscal 2018, and $14.0 billion in fiscal 2017.")]}
    question = "What was the total value of long-term senior notes that were issued in fiscal 2018 and fiscal 2017?"
    item, _ = one("The answer is 24 billion.", notes, question=question)
    assert item.status == "derived" and [e.value for e in item.evidence] == ["14.0", "10.0"], item.reason
    grants = {"paragraphs": ["In 2019, we granted 300,000 PSUs, compared with 500,000 PSUs in 2018.",
                             "In 2020, we granted 412,000 PSUs."]}
    item, _ = one("The answer is 712,000.", grants, question="What is the total number of PSUs granted in 2019 and 2020?")
    assert item.status == "derived", item.reason


def test_reading_prose_by_date_never_costs_the_tables_derivations():
    paragraphs = [f"In 2019, the {w} team granted {1000 + i} awards." for i, w in enumerate(["alpha", "beta"] * 150)]
    tools = [{"name": "t", "output": {"columns": ["", "2019", "2018"],
                                      "rows": [["Revenue", "500", "450"], ["Cost", "300", "280"]]}},
             {"name": "notes", "output": {"paragraphs": paragraphs}}]
    item, _ = one("Gross profit was 200.", tools, question="What was gross profit in 2019?")
    assert item.status == "derived" and "budget" not in item.reason, item.reason


def test_a_share_divides_by_the_grand_total_past_subtotals_and_blank_rows():
    regions = {"unit": "million", "columns": ["For the year ended", "2019", "2018"],
               "rows": [["Taiwan", "2,703", "3,918"], ["Japan", "958", "1,265"], ["Other Asia", "1,053", "1,266"],
                        ["Total Asia", "4,714", "6,449"], ["United States", "12,451", "17,116"],
                        ["Hong Kong", "1,614", "1,761"], ["", "", ""], ["", "$18,779", "$25,326"], ["", "", ""]]}
    question = "What is the total percentage of revenue from Taiwan and Japan over total revenue in 2019?"
    assert one("The answer is 19.50%.", regions, question=question)[0].status == "derived"
    assert one("The answer is 77.66%.", regions, question=question)[0].status == "unsupported"  # over Total Asia
    # a heading row starts another section with its own total
    sections = {"unit": "million", "columns": ["", "2019", "2018"],
                "rows": [["Revenue:", "", ""], ["Americas", "2,000", "1,800"], ["Europe", "1,500", "1,400"],
                         ["Asia", "1,007", "900"], ["Total", "4,507", "4,100"], ["Operating income:", "", ""],
                         ["Americas", "400", "380"], ["Europe", "300", "280"], ["Asia", "78", "70"],
                         ["Total", "778", "730"]]}
    question = "What is the percentage of total revenue from Americas and Europe in 2019?"
    assert one("The answer is 77.66%.", sections, question=question)[0].status == "derived"


@pytest.mark.parametrize(("paragraphs", "question", "answer", "status"), [
    # money and counts are kept apart, and "shares for $50 million" is no figure of shares
    (["In 2019, the Company repurchased 1.2 million shares for $50 million.",
      "In 2018, the Company repurchased 0.8 million shares for $30 million."],
     "How many shares were repurchased in total in 2019 and 2018?", "The answer is 80 million.", "unsupported"),
    (["In 2019, the Company repurchased 1.2 million shares for $50 million.",
      "In 2018, the Company repurchased 0.8 million shares for $30 million."],
     "How many shares were repurchased in total in 2019 and 2018?", "The answer is 2 million shares.", "derived"),
    # "increased by $50 million" is a change, not a level; dividends are not revenue
    (["In 2019, revenue increased by $50 million to $500 million.", "In 2018, revenue was $437 million.",
      "In 2018, we paid $12 million in dividends, reflecting lower revenue."],
     "What was the change in revenue between 2018 and 2019?", "The answer is $387 million.", "unsupported"),
    (["In 2019, revenue increased by $50 million to $500 million.", "In 2018, revenue was $437 million.",
      "In 2018, we paid $12 million in dividends, reflecting lower revenue."],
     "What was the change in revenue between 2018 and 2019?", "The answer is $488 million.", "unsupported"),
    (["In 2019, revenue increased by $50 million to $500 million.", "In 2018, revenue was $437 million."],
     "What was the change in revenue between 2018 and 2019?", "The answer is $63 million.", "derived"),
    # a day number is a date's, not what a figure is
    (["As of December 31, 2019, goodwill was $57 million.", "As of December 31, 2018, cash was $31 million.",
      "As of December 31, 2019, cash was $40 million."],
     "What was the change in cash between December 31, 2018 and December 31, 2019?", "The answer is $26 million.",
     "unsupported"),
    # a quarter is not its year
    (["In Q4 2019, revenue was $130 million.", "In 2018, revenue was $450 million."],
     "What was the change in revenue between 2018 and 2019?", "The answer is -320 million.", "unsupported"),
    # a figure its own phrase dates otherwise is not the opening date's
    (["In 2019, we granted 300,000 PSUs, compared with 500,000 PSUs in the year ended December 31, 2018.",
      "In 2020, we granted 412,000 PSUs."],
     "What is the total number of PSUs granted in 2019 and 2020?", "The answer is 912,000.", "unsupported"),
    # asked across years, two figures of one year are no change
    (["In 2019, we granted 300,000 PSUs to executives.", "In 2019, we granted 120,000 PSUs to directors."],
     "What was the change in PSUs granted from 2018 to 2019?", "The answer is 180,000.", "unsupported"),
    # a word of direction is the later less the earlier
    (["In February 2016, we granted 547,000 PSUs.", "In October 2018, we granted 464,888 PSUs."],
     "By how much did the PSUs granted change between February 2016 and October 2018?",
     "PSUs granted rose by 82,112.", "unsupported"),
    (["In February 2016, we granted 547,000 PSUs.", "In October 2018, we granted 464,888 PSUs."],
     "By how much did the PSUs granted change between February 2016 and October 2018?",
     "PSUs granted fell by 82,112.", "derived"),
    (["In February 2016, we granted 547,000 PSUs.", "In October 2018, we granted 464,888 PSUs."],
     "By how much did the PSUs granted change between February 2016 and October 2018?",
     "Grants rose 17.7%.", "unsupported"),
    # a figure "up from" or "a year earlier" is not the opening date's; a change without "by"
    (["In 2019, we granted 300,000 PSUs, up from 250,000 PSUs a year earlier.", "In 2020, we granted 412,000 PSUs."],
     "What is the total number of PSUs granted in 2019 and 2020?", "The answer is 662,000.", "unsupported"),
    (["In 2019, revenue grew 11% to $500 million from $450 million.", "In 2018, revenue was $437 million."],
     "What was the change in revenue between 2018 and 2019?", "The answer is $13 million.", "unsupported"),
    (["In 2019, revenue increased $50 million to $500 million.", "In 2018, revenue was $437 million."],
     "What was the change in revenue between 2018 and 2019?", "The answer is $387 million.", "unsupported"),
    # the words after a figure end where another phrase begins ("on revenue of")
    (["In 2019, net income was $80 million on revenue of $500 million.",
      "In 2018, net income was $70 million on revenue of $450 million."],
     "What was the change in revenue between 2018 and 2019?", "The answer is $10 million.", "unsupported"),
    (["In 2019, net income was $80 million on revenue of $500 million.",
      "In 2018, net income was $70 million on revenue of $450 million."],
     "What was the change in revenue between 2018 and 2019?", "The answer is $50 million.", "derived"),
    # across dates, two figures of one date are no change even beside a third of another
    (["In 2019, we granted 300,000 PSUs to executives.", "In 2019, we granted 120,000 PSUs to directors.",
      "In 2018, we granted 200,000 PSUs."],
     "What was the change in PSUs granted from 2018 to 2019?", "The answer is 180,000.", "unsupported"),
    # within one paragraph too, by the years the text gives its figures or its clauses open with
    (["In 2019, revenue was $500 million. In 2018, revenue was $450 million."],
     None, "Revenue fell $50 million.", "unsupported"),
    (["In 2019, revenue was $500 million. In 2018, revenue was $450 million."],
     None, "Revenue rose $50 million.", "derived"),
    (["Marketing expense was $12.4 million in 2019 compared with $9.8 million in 2018."],
     None, "Marketing expense fell $2.6 million.", "unsupported"),
    (["Marketing expense was $12.4 million in 2019 compared with $9.8 million in 2018."],
     None, "Marketing expense rose $2.6 million.", "derived"),
    # a "respectively" list is about its clause's subject
    ([("The aggregate fair values of our outstanding fuel hedges as of December 31, 2016 and 2015 were "
      "current liabilities of $2.7 million and $37.8 million, respectively.")],
     "What was the ratio of the aggregate fair values of our outstanding fuel hedges for 2015 and 2016?",
     "The answer is 14.", "derived"),
])
def test_figures_of_running_text_are_what_and_when_the_text_says(paragraphs, question, answer, status):
    item, _ = one(answer, {"paragraphs": paragraphs}, question=question)
    assert item.status == status, (item.status, item.reason)


def test_a_share_is_of_the_row_the_question_names_in_the_year_it_names():
    sales = {"unit": "million", "columns": ["", "2019", "2018"],
             "rows": [["Products", "4,500", "4,100"], ["Services", "1,500", "1,390"], ["Licensing", "600", "500"],
                      ["Total net sales", "6,600", "5,990"]]}
    question = "What percentage of total net sales in 2019 came from Services?"
    assert one("The answer is 22.73%.", sales, question=question)[0].status == "derived"
    assert one("The answer is 9.09%.", sales, question=question)[0].status == "unsupported"  # Licensing's
    assert one("The answer is 23.21%.", sales, question=question)[0].status == "unsupported"  # 2018's
    leases = {"unit": "million", "columns": ["", "Operating"],
              "rows": [["2021", "145.2"], ["2022", "140.0"], ["2023", "132.8"], ["2024", "118.0"],
                       ["Total lease payments", "536.0"]]}
    question = "What percentage of total lease payments is due in 2022?"
    assert one("The answer is 26.12%.", leases, question=question)[0].status == "derived"
    assert one("The answer is 24.78%.", leases, question=question)[0].status == "unsupported"  # 2023's
    # a row named in other words, beside the total it is divided by; a ratio to the year before
    costs = {"unit": "million", "columns": ["", "2019", "2018"],
             "rows": [["Research and development", "613", "580"], ["Selling, general and administrative", "1,200", "1,100"],
                      ["Total revenue", "5,123", "4,800"]]}
    question = "What was R&D expense as a percentage of total revenue in 2019?"
    assert one("The answer is 11.97%.", costs, question=question)[0].status == "derived"
    question = "What was the ratio of total revenue in 2019 to the previous year?"
    assert one("The answer is 1.07.", costs, question=question)[0].status == "derived"


def test_a_return_over_years_ended_a_year_ends_in_it_on_the_named_row():
    graph = {"columns": ["Company", "2009", "2010", "2011", "2012", "2013", "2014"],
             "rows": [["ACME", "100.00", "110.20", "121.50", "150.10", "171.66", "205.93"],
                      ["S&P 500", "100.00", "115.06", "117.49", "136.30", "180.44", "205.14"]]}
    question = "What was the total return for ACME for the five years ended 2014?"
    assert one("The answer is 105.93%.", graph, question=question)[0].status == "derived"
    assert one("The answer is 71.66%.", graph, question=question)[0].status == "unsupported"  # ends in 2013
    assert one("The answer is 105.14%.", graph, question=question)[0].status == "unsupported"  # the index's
    three = question.replace("five", "three")
    assert one("The answer is 105.93%.", graph, question=three)[0].status == "unsupported"  # five years'


def test_fourth_review_correct_answers_stay_derived():
    balance = {"unit": "million", "columns": ["", "2019", "2018"],
               "rows": [["Cash", "1,000.0", "900.0"], ["Accounts receivable, net", "2,214.7", "2,000.0"],
                        ["Inventory", "3,201.1", "3,000.0"], ["Total current assets", "6,415.8", "5,900.0"],
                        ["Property", "8,926.3", "8,000.0"], ["Total assets", "15,342.1", "13,900.0"]]}
    # "Total assets" lies inside the named "total current assets": it names no other row
    question = "What percentage of total current assets were receivables in 2019?"
    assert one("The answer is 34.52%.", balance, question=question)[0].status == "derived"
    records = {"unit": "million", "data": [{"fiscal_year": 2019, "inventory": 3117.9},
                                           {"fiscal_year": 2018, "inventory": 2655.1}]}
    item, _ = one("The answer is $2,886.5 million.", records, question="What was the average inventory in 2019?")
    assert item.status == "derived", item.reason  # "the 2019 average" takes 2018 too
    income = {"unit": "million", "columns": ["", "2019", "2018"],
              "rows": [["Revenue", "5,123.4", "4,711.9"], ["Cost of sales", "3,000.0", "2,800.0"]]}
    question = "What was the ratio of revenue in 2019 to the year before?"
    assert one("The answer is 1.087.", income, question=question)[0].status == "derived"
    graph = {"columns": ["", "2014", "2015", "2016", "2017", "2018", "2019"],
             "rows": [["Company", "100.00", "110.00", "130.00", "150.00", "170.00", "187.43"],
                      ["S&P 500", "100.00", "101.00", "113.00", "138.00", "132.00", "173.86"]]}
    question = "By how much did the company outperform the S&P 500 in 2019?"
    assert one("The answer is 13.57.", graph, question=question)[0].status == "derived"  # the index is named
    charges = {"paragraphs": ["In 2019, the Company recorded $12.3 million of restructuring charges.",
                              "In 2018, the Company recorded $8.7 million of restructuring charges."]}
    question = "What was the change in restructuring charges from 2018 to 2019?"
    assert one("The answer is $3.6 million.", charges, question=question)[0].status == "derived"  # "million of"
    assert one("The answer is $3.7 million.", charges, question=question)[0].status == "unsupported"


_SUBSCRIBERS = {"columns": ["", "August 31, 2019", "Net additions 2019", "Net additions 2018"],
                "rows": [["Internet service customers", "446,137", "21,189", "21,417"],
                         ["Video service customers", "312,555", "(4,697)", "(6,760)"]]}


def test_a_computed_value_that_looks_like_a_year_is_derived_as_the_number_it_is():
    question = "What was the change in the net additions of video service customers from 2018 to 2019?"
    item = verify("The answer is 2063.", _SUBSCRIBERS, question=question).items[0]  # -4,697 - (-6,760)
    assert item.status == "derived" and "(-4697) - (-6760)" in item.reason
    assert verify("The answer is 2064.", _SUBSCRIBERS, question=question).items[0].status == "unsupported"
    # a question that asks for a year, or computes nothing, keeps reading it as a year
    for asked in ("In which year was the change in video service customers less than 2063?",
                  "Which of the years saw the larger change in video service customers?",
                  "What was the year with the larger change in video service customers?",
                  "Identify the year in which the change in video service customers was larger.",
                  "What was the video service customers figure?", None):
        assert verify("The answer is 2063.", _SUBSCRIBERS, question=asked).items[0].status != "derived", asked
    # and so does an answer that writes it as a year
    for answer in ("The change was largest in 2063.", "Since 2063, customers changed.",
                   "Customers rose from 4,697 to 6,760 by 2063."):
        item = next(i for i in verify(answer, _SUBSCRIBERS, question=question).items if i.text == "2063")
        assert item.status != "derived", answer


def test_a_hit_the_question_rules_out_does_not_end_the_search():
    # Total current assets 2018 / 2019 (339 / 391 = 0.867) is found first, and refused:
    # the question asks about 2018 alone; the search goes on to PP&E over total assets
    sheet = {"columns": ["As of", "2019", "2018"],
             "rows": [["Cash and equivalents", "$130", "$91"], ["Receivables", "128", "126"],
                      ["Inventories", "124", "114"], ["Other current assets", "9", "8"],
                      ["Total current assets", "391", "339"], ["Property, plant, and equipment", "2,235", "2,641"],
                      ["Other noncurrent assets", "38", "45"], ["Total assets", "$2,664", "$3,025"]]}
    question = "What is the proportion of IMFT's property, plant, and equipment over total assets in 2018?"
    item = verify("The answer is 0.87.", sheet, question=question).items[0]
    assert item.status == "derived" and item.expression == "$.rows[5][2] / $.rows[7][2]", item.reason
    assert verify("The answer is 0.88.", sheet, question=question).items[0].status == "unsupported"


def test_a_ratio_question_tries_the_ratio_over_every_named_group_before_weaker_operations():
    # the named rows' own percent changes and shares (across years) come close to 0.78
    # by chance; tried first, they spent the budget before the ratio down the column
    balance = {"columns": ["", "2019 US$'000", "2018 US$'000"],
               "rows": [["Total current assets", "121,041", "73,202"], ["Total assets", "383,665", "336,032"],
                        ["Total current liabilities", "154,619", "90,392"], ["Total liabilities", "155,521", "92,364"]]}
    item, _ = one("The answer is 0.78.", balance, question="What is the current ratio in 2019?")
    assert item.status == "derived" and item.expression == "$.rows[0][1] / $.rows[2][1]", item.reason
    assert one("The answer is 0.87.", balance, question="What is the current ratio in 2019?")[0].status == "unsupported"
    # 2018's ratio (0.81) for 2019 is not it
    assert one("The answer is 0.81.", balance, question="What is the current ratio in 2019?")[0].status == "unsupported"


def test_a_mean_of_several_figures_may_be_written_one_digit_short_of_them():
    prices = {"columns": ["", "High", "Low"],
              "rows": [["Fourth Quarter", "$11.44", "$9.47"], ["Third Quarter", "$14.96", "$10.26"],
                       ["Second Quarter", "$20.91", "$12.61"], ["First Quarter", "$18.19", "$8.87"],
                       ["2018:", "", ""], ["Fourth Quarter", "$12.16", "$7.43"], ["Third Quarter", "$20.60", "$10.95"],
                       ["Second Quarter", "$18.30", "$6.70"], ["First Quarter", "$7.35", "$6.00"]]}
    question = "What is the average quarterly low price for 2019?"
    item, _ = one("The answer is 10.3.", prices, question=question)  # 10.3025, though 10.26 rounds to it too
    assert item.status == "derived" and item.expression.count("$.rows[") == 4, item.reason
    assert one("The answer is 10.4.", prices, question=question)[0].status == "unsupported"
    # two figures' average has one digit more at most: written shorter, it is no average
    pair = {"columns": ["", "2019", "2018"], "rows": [["Net", "1,118.8", "1,193.5"], ["Gross", "1,619.0", "1,618.3"]]}
    assert one("The answer is 1156.", pair, question="What is the average net amount?")[0].status == "unsupported"
    assert one("The answer is 1156.15.", pair, question="What is the average net amount?")[0].status == "derived"


def test_a_total_printed_several_times_does_not_crowd_a_ratio():
    # "Total", "Current portion" and "Total" all 55.5: their ratios to each other are
    # exactly 1, one point, not results spread around 0.95 that could hit it by chance
    costs = {"columns": ["", "Balances, January 31, 2018", "Additions", "Balances, January 31, 2019"],
             "rows": [["Employee terminations costs", "$53.0", "$39.2", "$2.0"],
                      ["Facility terminations and other exit costs", "2.5", "3.2", "0.1"],
                      ["Total", "$55.5", "$42.4", "$2.1"], ["Current portion", "$55.5", "", "$2.1"],
                      ["Total", "$55.5", "", "$2.1"]]}
    question = "What was the employee termination costs as a proportion of total costs in 2018?"
    item, _ = one("The answer is 0.95.", costs, question=question)
    assert item.status == "derived" and item.expression == "$.rows[0][1] / $.rows[2][1]", item.reason
    assert one("The answer is 0.97.", costs, question=question)[0].status == "unsupported"


OBLIGATIONS = {"columns": ["", "Total", "Less Than 1 Year", "1-3 Years", "Years3-5", "More Than 5 Years"],
               "rows": [["Operating leases", "$98,389", "$37,427", "$36,581", "$12,556", "$11,825"],
                        ["Capital leases (1)", "50,049", "7,729", "17,422", "10,097", "14,801"],
                        ["Purchase obligations", "424,561", "345,498", "28,946", "13,442", "36,675"],
                        ["Long-term debt and interest expense (2)", "6,468,517", "660,840", "1,079,096",
                         "257,630", "4,470,951"],
                        ["Other long-term liabilities (4)", "190,821", "4,785", "13,692", "7,802", "164,542"],
                        ["Total", "$7,232,337", "$1,056,279", "$1,175,737", "$301,527", "$4,698,794"]]}


def test_a_share_of_a_named_row_divides_by_its_columns_total_row():
    question = "What is the percentage of capital leases in the total liabilities?"
    item, _ = one("The answer is 0.69%.", OBLIGATIONS, question=question)  # 50,049 / 7,232,337
    # the Total row is the whole: not added to the row's cell as a share of the pair would
    assert item.status == "derived" and item.expression == "($.rows[1][1] / $.rows[5][1]) * 100", item.reason
    assert one("The answer is 0.96%.", OBLIGATIONS, question=question)[0].status == "unsupported"
    assert one("The answer is 0.96%.", OBLIGATIONS)[0].status == "unsupported"


def test_only_the_groups_searched_up_to_a_hit_count_against_it():
    # the same ratio (capital leases over the Total row) in the first column searched
    # and in the last: the first is one column's chances; the last comes after four
    # columns whose ratios crowd it, and the budget refuses it
    first, _ = one("The answer is 0.69%.", OBLIGATIONS)  # 50,049 / 7,232,337
    assert first.status == "derived" and first.expression == "($.rows[1][1] / $.rows[5][1]) * 100", first.reason
    assert one("The answer is 0.31%.", OBLIGATIONS)[0].status == "unsupported"  # 14,801 / 4,698,794
    loose, _ = one("The answer is 0.31%.", OBLIGATIONS, policy=Policy(derive_max_chance=1.0))
    assert loose.status == "derived" and loose.expression == "($.rows[1][5] / $.rows[5][5]) * 100", loose.reason


def test_a_row_with_a_total_column_is_not_summed_averaged_or_shared_whole():
    # "Purchase obligations" with its Total cell: 28,946 over the whole row is over
    # twice the obligations (3.4%), a share of nothing
    item, _ = one("The answer is 3.4%.", OBLIGATIONS)
    assert item.status == "unsupported", item.reason
    assert one("The answer is 849,122.", OBLIGATIONS)[0].status == "unsupported"  # the row summed with its total


def test_equal_negative_cells_do_not_offset_the_crowding_of_a_ratio():
    # a whole-number ratio's magnitude never divides by a negative cell, so pairs of
    # equal negative cells were subtracted from a count that never held them
    cols = ["", "Q4", "Q3", "Q2", "Q1"]
    rows = [["Selling expense", "271", "130", "517", "789"], ["Interest income", "470", "493", "677", "398"],
            ["Revenue", "817", "224", "106", "509"]]
    rows += [[label, *[f"({v})"] * 4] for label, v in (("Foreign exchange loss", 13), ("Amortization", 12),
                                                         ("Restructuring", 14), ("Minority interest", 11))]
    for k in (2, 4, 6, 8):
        report = verify(f"The ratio is {k}.", {"columns": cols, "rows": rows}, question="What is the ratio?")
        assert report.items[0].status == "unsupported", (k, report.items[0].reason)


FILING_TEXT = {"paragraphs": [
    f"In {2000 + i}, revenue was ${100 + 7 * i} million against ${90 + 5 * i} million a year before."
    for i in range(12)
] + [("Our pension trust had assets of $415 million and $480 million as of December 31, 2018 and 2017, "
     "respectively, and the target allocations in 2018 include 40% fixed income, 30% diversified growth funds, "
     "20% equities and 10% real estate.")]}


def test_a_paragraph_the_question_names_is_searched_before_the_others():
    question = "What was the ratio of the pension trust assets for 2017 to 2018?"
    item, _ = one("The answer is 1.16.", FILING_TEXT, question=question)  # 480 / 415
    assert item.status == "derived" and item.expression == "$.paragraphs[12] / $.paragraphs[12]", item.reason
    assert one("The answer is 1.61.", FILING_TEXT, question=question)[0].status == "unsupported"
    # among thirteen paragraphs of figures, unasked, a two-decimal ratio is too likely by chance
    assert one("The answer is 1.16.", FILING_TEXT)[0].status == "unsupported"


def test_figures_of_a_paragraph_are_added_or_averaged_only_as_the_same_kind():
    eggs = {"paragraphs": [("Total dozens sold in fiscal 2019 were 1,038.9 million, an increase of 1.2 million "
                           "dozen, or 0.1%, resulting in an increase in net sales of $1.7 million.")]}
    question = "What is the average increase in shell egg sales in 2019?"
    assert one("The answer is 1.45.", eggs, question=question)[0].status == "unsupported"  # dozens and dollars
    # "5 farms" does not make the $5 million of the same sentence a count or a bare figure
    farms = {"paragraphs": ["We sold 3 million dozen eggs for revenue of $5 million at 5 farms."]}
    assert one("The answer is 4 million.", farms, question="What is the average of eggs and revenue?")[0].status \
        == "unsupported"
    debentures = {"paragraphs": [("Debt securities included approximately $53 million of Bell Canada debentures at "
                                 "December 31, 2019 and approximately $68 million at December 31, 2018.")]}
    item, _ = one("The answer is 60.5 million.", debentures,
                  question="What is the average Bell Canada debentures for 2018 and 2019?")
    assert item.status == "derived", item.reason


def test_a_one_row_table_pairs_with_a_figure_of_the_text():
    one_row = {**AFFILIATES, "rows": AFFILIATES["rows"][:1]}
    item, _ = one("The answer is 288625.", one_row, question=RESALE)
    assert item.status == "derived" and item.expression == "$.paragraphs[0] - $.rows[0][1]", item.reason


@pytest.mark.parametrize(("answer", "status"), [
    ("Sales fell by 8,515.", "unsupported"),    # 2019 cell less 2019 text: one year, asked across two
    ("Sales fell by 288,625.", "unsupported"),  # 2017 cell less 2017 text
    ("Sales fell by 308,492.", "derived"),      # 2019 cell less 2017 text
])
def test_a_change_across_years_takes_a_cell_and_a_figure_of_two_years(answer, status):
    question = "How did the sales of Kyocera resale products change from 2017 to 2019?"
    assert one(answer, AFFILIATES, question=question)[0].status == status


def test_a_word_of_direction_needs_both_dates_of_a_cell_and_a_text_figure():
    question = "How did deferred revenue change from June 30, 2019 to December 31, 2019?"
    quarters = {"columns": ["", "Q4 2019", "Q4 2018"], "rows": [["Deferred revenue", "$400.0", "$450.0"],
                                                                ["Other", "$3.0", "$2.0"]],
                "paragraphs": ["As of June 30, 2019, deferred revenue was $500.0."]}
    assert one("Deferred revenue fell by 100.0.", quarters, question=question)[0].status == "derived"
    assert one("Deferred revenue rose by 100.0.", quarters, question=question)[0].status == "unsupported"
    undated = {**quarters, "columns": ["", "Current year", "Prior year"]}  # no date: no direction
    assert one("Deferred revenue rose by 100.0.", undated, question=question)[0].status == "unsupported"


def test_money_is_read_down_a_column_not_across_a_row():
    question = "What is the difference in interest income between 2017 and 2019?"
    text = ["In 2019, we had 2,100 interest income accounts."]
    # "$" printed on the first row only: the column is money, and a count is not taken from it
    first_row = {"unit": "thousand", "columns": ["", "2019", "2017"],
                 "rows": [["Revenue", "$50,000", "$40,000"], ["Interest income", "30,182", "9,500"]],
                 "paragraphs": text}
    assert one("The answer is 7,400 thousand.", first_row, question=question)[0].status == "unsupported"
    # a row of counts beside a dollar price is still counts
    options = {"columns": ["", "Options 2019", "Options 2017", "Exercise price"],
               "rows": [["Options outstanding", "5,500", "4,300", "$13.10"], ["Forfeited", "200", "150", "$12.00"]],
               "paragraphs": ["In 2017, 1,200 options outstanding were forfeited."]}
    item, _ = one("The answer is 3,100.", options, question="What is the difference between the options "
                  "outstanding in 2017 and the options forfeited in 2017?")
    assert item.status == "derived", item.reason


def test_a_share_question_tries_the_cell_over_its_total_row_before_the_rows_own_shares():
    contracts = {"header_rows": [["(dollars in millions)", "Payments due by period"]],
                 "columns": ["Contractual Obligation", "Total", "Less Than 1 year", "1 - 3 Years", "3 - 5 Years",
                             "More than 5 years"],
                 "rows": [["Long-term Debt", "$275.1", "$8.6", "$13.8", "$138.2", "$114.5"],
                          ["Capital Leases", "6.0", "—", "—", "6.0", "—"],
                          ["Operating Leases", "62.9", "14.4", "20.7", "11.6", "16.2"],
                          ["Purchase Obligations", "177.3", "176.6", "0.7", "—", "—"],
                          ["Total", "$521.3", "$199.6", "$35.2", "$155.8", "$130.7"]]}
    question = "What percentage of total aggregate contractual obligations is due to long-term debt?"
    item, _ = one("The answer is 53%.", contracts, question=question)  # 275.1 / 521.3
    assert item.status == "derived" and item.expression == "($.rows[0][1] / $.rows[4][1]) * 100", item.reason
    assert one("The answer is 35%.", contracts, question=question)[0].status == "unsupported"


def test_a_paragraph_named_by_topic_is_searched_after_its_figures_named_by_date():
    # the long paragraph's many figures would spend the chance budget before the
    # figures the question names by year were tried
    costs = {"paragraphs": [
        ("In fiscal 2019, net sales were $812.4 million compared with $701.9 million in fiscal 2018. "
        "In fiscal 2019, cost of sales were $455.0 million compared with $390.2 million in fiscal 2018. "
        "In fiscal 2019, research costs were $96.3 million compared with $88.1 million in fiscal 2018. "
        "In fiscal 2019, interest expense were $21.7 million compared with $25.4 million in fiscal 2018."),
        "In 2000, revenue was $100 million against $90 million a year before.",
        "In 2001, revenue was $107 million against $95 million a year before."]}
    item, _ = one("The answer is 1.09.", costs, question="What was the ratio of research costs in 2019 to 2018?")
    assert item.status == "derived", item.reason
    assert {e.value for e in item.evidence} == {"96.3", "88.1"}


def test_a_bare_figure_beside_an_amount_of_money_is_added_like_one():
    rent = {"paragraphs": ["Rent expense was $5.2 million and 4.1 million for 2019 and 2018, respectively."]}
    item, _ = one("The answer is 4.65 million.", rent, question="What was the average rent expense?")
    assert item.status == "derived", item.reason


def test_a_cell_over_its_rows_total_column_is_still_a_share():
    revenue = {"columns": ["", "2019", "2018", "2017", "Total"],
               "rows": [["Advertising", "649.0", "495.0", "835.9", "1,979.9"],
                        ["Consulting", "828.8", "38.1", "543.0", "1,409.9"],
                        ["Hardware", "669.1", "470.9", "39.6", "1,179.6"],
                        ["Royalties", "267.1", "339.0", "546.9", "1,153.0"],
                        ["Total", "2,414.0", "1,343.0", "1,965.4", "5,722.4"]]}
    item, _ = one("The answer is 2.7%.", revenue, question="What percentage of Consulting total came from 2018?")
    assert item.status == "derived" and item.expression == "($.rows[1][2] / $.rows[1][4]) * 100", item.reason


def test_a_change_of_averages_is_tried_before_the_pairs_it_is_made_of():
    # the pairs' own differences and averages crowd 1.5 (4 - 2.5 is no pair); the
    # change of the two averages the question asks for is one expression over its cells
    pay = {"columns": ["", "2019 €m", "2018 €m", "2017 €m"],
           "rows": [["Salaries and fees", "4", "4", "4"], ["Incentive schemes1", "2", "3", "2"],
                    ["Other benefits2", "–", "1", "1"], ["", "6", "8", "7"]]}
    question = "What is the difference between average salaries and fees and average incentive schemes from 2018 to 2019?"
    item, _ = one("The answer is 1.5 million.", pay, question=question)
    assert item.status == "derived" and item.expression == "($.rows[0][1] + $.rows[0][2]) / 2 - ($.rows[1][1] + $.rows[1][2]) / 2", item.reason
    assert one("The answer is 1.6 million.", pay, question=question)[0].status == "unsupported"



LEASES = {"unit": "million", "table": {
    "columns": ["", "Operating Leases", "Finance Leases"],
    "rows": [["2020", "$460", "47"], ["2021", "361", "28"], ["2022", "308", "22"], ["2023", "265", "22"],
             ["2024", "194", "21"], ["Thereafter", "686", "170"], ["Total lease payments", "2,274", "310"],
             ["Less: interest", "(516)", "(90)"], ["Total", "$1,758", "220"]]}}


def test_a_sum_from_one_year_to_another_takes_the_years_between():
    question = "What is the sum of finance leases from 2020 to 2024?"
    item, _ = one("The answer is 140 million.", LEASES, question=question)  # 47 + 28 + 22 + 22 + 21
    assert item.status == "derived" and item.expression == (
        "sum($.table.rows[0][2], $.table.rows[1][2], $.table.rows[2][2], $.table.rows[3][2], $.table.rows[4][2])"
    ), item.reason
    assert one("The answer is 141 million.", LEASES, question=question)[0].status == "unsupported"


def test_the_years_between_are_not_named_for_a_change():
    # "from 2020 to 2024" asks a change of its two ends: 2021's cell is no operand
    question = "What is the change in finance leases from 2020 to 2024?"
    assert one("The answer is 6 million.", LEASES, question=question)[0].status == "unsupported"  # 28 - 22
    item, _ = one("The answer is -26 million.", LEASES, question=question)  # 21 - 47
    assert item.status == "derived" and item.expression == "$.table.rows[4][2] - $.table.rows[0][2]", item.reason


ALLOCATION = {"unit": "thousand", "table": {
    "columns": ["", "Fair value", "(in years)"],
    "rows": [["Current assets", "$37,390", "N/A"], ["Fixed assets", "543", "N/A"], ["Non-current assets", "74", "N/A"],
             ["Liabilities", "(4,422)", "N/A"], ["Deferred revenue", "(15,400)", "N/A"],
             ["Customer relationships", "15,300", "8"], ["Order backlog", "1,400", "1"],
             ["Core/developed technology", "18,500", "4"], ["Deferred tax liability, net", "(7,905)", "N/A"],
             ["Goodwill", "93,776", "Indefinite"], ["", "$139,256", ""]]}}


def test_the_total_of_a_columns_negative_members_is_the_liabilities_assumed():
    question = "What is the total fair value of all the liabilities assumed?"
    item, _ = one("The answer is 27727 thousand.", ALLOCATION, question=question)  # 4,422 + 15,400 + 7,905
    # the three cells, not the whole column's wildcard path
    assert item.status == "derived" and item.expression == (
        "sum($.table.rows[3][1], $.table.rows[4][1], $.table.rows[8][1])"), item.reason
    for wrong in ("27728", "27772", "27827"):
        assert one(f"The answer is {wrong} thousand.", ALLOCATION, question=question)[0].status == "unsupported"


def test_years_between_examples_hold():
    import doctest

    from verifier import yearquarter
    assert doctest.testmod(yearquarter).failed == 0


def test_hits_the_question_rules_out_spend_the_work_budget():
    # 3,000 rows all named "Revenue": thousands of their ratios hit 0.7 and each is
    # refused (2018's column, or no row the question names alone); each refusal is
    # work, so the search stops with a note instead of checking them all (it took
    # minutes)
    rows = [["Revenue", str(100 + i), str(90 + i)] for i in range(3000)] + [["Cost", "50", "40"]]
    report = verify("The answer is 0.7.", {"columns": ["", "2019", "2018"], "rows": rows},
                    question="What is the ratio of revenue to cost in 2019?")
    assert report.items[0].status == "unsupported"
    assert "work budget" in report.items[0].reason, report.items[0].reason


QUARTERS = {"columns": ["", "Q1", "Q2", "Q3", "Q4", "Total"],
            "rows": [["Revenue", "100", "110", "120", "160", "490"], ["Cost", "50", "55", "60", "65", "230"]]}


def test_a_named_rows_total_column_is_not_averaged_or_summed_with_it():
    item, _ = one("The answer is 122.5.", QUARTERS, question="What is the average revenue?")
    assert item.status == "derived", item.reason
    assert "[5]" not in item.expression, item.expression  # Q1-Q4, not their Total
    assert one("The answer is 196.", QUARTERS, question="What is the average revenue?")[0].status == "unsupported"
    assert one("The answer is 849,122.", OBLIGATIONS,
               question="What is the sum of all purchase obligations?")[0].status == "unsupported"


INCOME = {"columns": ["", "2019", "2018"],
          "rows": [["Revenue", "1,000", "900"], ["Cost of sales", "(600)", "(550)"],
                   ["Operating expenses", "(250)", "(230)"], ["Other income (loss)", "(12)", "8"],
                   ["Net income", "140", "128"]]}


@pytest.mark.parametrize(("tools", "question", "answer"), [
    (INCOME, "What was net income in 2019?", "Net income was 862 in 2019."),  # the negative rows summed
    (INCOME, "What was the total cost in 2019?", "The total cost was 862 in 2019."),
    (ALLOCATION, "What is the goodwill recognised?", "The answer is 27727 thousand."),
])
def test_negative_members_are_totalled_only_for_the_liabilities_a_question_asks_for(tools, question, answer):
    item, _ = one(answer, tools, question=question)
    assert item.status == "unsupported", item.reason


def test_two_years_joined_by_and_are_no_run():
    # "in 2020 and 2024" lists two years: their sum or average, not 2020-2024's
    question = "What is the sum of finance leases in 2020 and 2024?"
    assert one("The answer is 140 million.", LEASES, question=question)[0].status == "unsupported"
    item, _ = one("The answer is 34 million.", LEASES, question="What is the average finance leases in 2020 and 2024?")
    assert item.status == "derived" and item.expression == "($.table.rows[0][2] + $.table.rows[4][2]) / 2", item.reason


@pytest.mark.parametrize(("question", "answer", "expression"), [
    ("What is the change in total finance leases from 2021 to 2024?", "The answer is -7 million.",
     "$.table.rows[4][2] - $.table.rows[1][2]"),
    ("What is the change in finance leases from 2020 to 2024?", "In total, finance leases fell by 26 million.",
     "$.table.rows[4][2] - $.table.rows[0][2]"),
])
def test_a_change_over_a_run_of_years_takes_its_two_ends(question, answer, expression):
    item, _ = one(answer, LEASES, question=question)
    assert item.status == "derived" and item.expression == expression, item.reason


def test_the_difference_between_two_years_average_wording_is_still_a_pair():
    revenue = {"columns": ["", "2019", "2018", "2017", "2016"], "rows": [["Revenue", "545", "506", "481", "447"]]}
    question = "What was the difference between the average revenue in 2019 and 2018?"
    item, _ = one("The answer is 39.", revenue, question=question)
    assert item.status == "derived" and item.expression == "$.rows[0][1] - $.rows[0][2]", item.reason


def test_a_haystack_kept_for_many_questions_keeps_only_the_recent_ones_facts():
    # the service keeps a haystack for many requests: what each question names is
    # cached on it, and must not grow with every new question
    from verifier import Haystack
    from verifier.derive.operands import MAX_PER_QUESTION, PER_QUESTION, facts
    hay = Haystack(LEASES)
    for year in range(MAX_PER_QUESTION + 40):
        verify("The answer is 140 million.", haystack=hay,
               question=f"What is the ratio of finance leases to operating leases in {1900 + year}?")
    kept = {key: len(value) for key, value in facts(hay).items() if key[0] in PER_QUESTION}
    assert kept and all(n <= MAX_PER_QUESTION for n in kept.values()), kept


RENTALS = {"columns": ["", ""], "rows": [["2008", "$4,935"], ["2009", "3,144"], ["2010", "3,160"], ["2011", "3,200"],
                                         ["2012", "2,768"], ["Thereafter", "9,934"]]}


def test_the_rows_a_question_names_in_a_column_with_no_header():
    # a lease schedule's one column of amounts has no name: the rows the question names
    # ("between 2010 and 2011") are its cells named along both axes
    question = "What is the percent change in minimum annual rental payment between 2010 and 2011?"
    item, _ = one("The answer is 1.3%.", RENTALS, question=question)  # (3,200 - 3,160) / 3,160
    assert item.status == "derived" and item.expression == "($.rows[3][1] - $.rows[2][1]) / $.rows[2][1] * 100", item.reason
    assert one("The answer is 1.4%.", RENTALS, question=question)[0].status == "unsupported"


def test_columns_whose_headers_name_no_label_word_are_not_headerless():
    # "Q1" ... "Q4" carry no label words, but they are headers: the rows a question
    # names are not combined across them as if the table had one unnamed column
    quarters = {"columns": ["(in millions)", "Q1", "Q2", "Q3", "Q4"],
                "rows": [["Net revenue", "4,812", "5,106", "5,377", "5,902"],
                         ["Cost of revenue", "2,915", "3,040", "3,188", "3,461"],
                         ["Operating expenses", "1,104", "1,150", "1,201", "1,266"]]}
    question = "What was the gross margin (net revenue less cost of revenue) in Q4?"
    for wrong in ("$7,727 million", "$8,146 million"):  # Q1's and Q2's rows added
        assert one(f"The answer is {wrong}.", quarters, question=question)[0].status == "unsupported", wrong


def test_a_scaled_answer_is_derived_from_cells_of_no_stated_scale_in_their_own_units():
    # a filing table whose "(in millions)" the tool dropped: "12.6 million" is 12.6 of its cells
    table = [{"name": "t", "output": {"columns": ["", "2019", "2018"],
                                      "rows": [["Revenue", "1,452.4", "1,465.0"], ["Costs", "900.1", "880.3"]]}}]
    item = next(i for i in verify("The change in revenue is -12.6 million.", table, judge=False).items)
    assert item.status == "derived", item.reason
    stated = [{"name": "t", "output": {"unit": "thousand", "columns": ["", "2019", "2018"],
                                       "rows": [["Revenue", "1,452.4", "1,465.0"], ["Costs", "900.1", "880.3"]]}}]
    wrong = next(i for i in verify("The change in revenue is -12.6 million.", stated, judge=False).items)
    assert wrong.flagged  # a stated scale is the scale: 12.6 thousand is no 12.6 million
