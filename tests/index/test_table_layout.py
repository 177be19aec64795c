"""How a printed table's header reads: spanning titles and rows that open sections."""

from decimal import Decimal

import pytest

from verifier import Haystack, verify
from verifier.index.haystack import is_period_label
from verifier.index.table_layout import layout, spans


@pytest.mark.parametrize(("row", "width", "want"), [
    # a title over each pair of columns, printed at the start of its pair
    (["", "2019", "", "2018", ""], 5, ["2019", "2019", "2018", "2018"]),
    # printed in the middle of its run ("Years Ended" over 2019/2018/2017, "Change" over three)
    (["", "", "Years Ended", "", "", "Change", ""], 7,
     ["Years Ended", "Years Ended", "Years Ended", "Change", "Change", "Change"]),
    # printed at the end of each run
    (["", "", "2019", "", "2018"], 5, ["2019", "2019", "2018", "2018"]),
    # spans of unequal width that happen to divide evenly (3 + 1): own columns only
    (["", "A", "", "", "B"], 5, ["A", "", "", "B"]),
    # a title row without its trailing blanks says nothing past its end
    (["", "December 31, 2019", "", "December 31, 2018"], 7,
     ["December 31, 2019", "", "December 31, 2018", "", "", ""]),
    # one title spans the table wherever it is printed
    (["", "", "", "", "Fiscal 2019", ""], 6, ["Fiscal 2019"] * 5),
    # FinQA prints one cell per title, shorter than the table: even blocks
    (["", "2008", "2007"], 7, ["2008"] * 3 + ["2007"] * 3),
    # titles that fit no even split title their own column only
    (["", "F19", "F18", "", ""], 5, ["F19", "F18", "", ""]),
    (["", "", "2019", "2018"], 4, ["", "2019", "2018"]),
    # titles that do not divide the shorter row's table title nothing rather than guess
    (["", "2019", "2018"], 6, ["", "", "", "", ""]),
])
def test_a_title_covers_the_columns_it_spans(row, width, want):
    got = spans(row, width)
    assert got[0] == ()  # the row labels' column takes no title
    assert [t[0] if t else "" for t in got[1:]] == want


def test_a_row_of_periods_without_figures_renames_the_columns_below_it():
    rows = [["USD", "53.6", "70.07"], ["Breakup of revenue growth", "FY 2019 (%)", "FY 2018 (%)"],
            ["Business growth", "11.4", "6.7"]]
    read = layout(rows, ["Currency", "Weightage (%)", "FY 2019"], None, is_period_label)
    assert read[0][0] == ["Currency", "Weightage (%)", "FY 2019"]
    assert read[1][0] == ["Currency", "Weightage (%)", "FY 2019"]  # the row itself keeps the old names
    assert read[2][0] == ["Currency", "FY 2019 (%)", "FY 2018 (%)"]


def test_rows_without_a_period_open_no_section():
    rows = [["", "Expenses:", ""], ["", "First", "Second"], ["Cost", "5", "6"],
            ["Maturity", "2021", "7.5"]]  # a figure beside a year: a data row
    read = layout(rows, ["", "2019", "2018"], None, is_period_label)
    assert all(names == ["", "2019", "2018"] and titles == ((), (), ()) for names, titles in read)


def test_a_lone_period_in_the_first_cell_titles_the_rows_below_until_the_next():
    rows = [["June 30, 2019", "", ""], ["Total", "1,601.0", "(500.2)"],
            ["June 30, 2018", "", ""], ["Total", "1,599.7", "(406.2)"]]
    read = layout(rows, ["", "Gross", "Amortization"], None, is_period_label)
    assert [titles[1] for _, titles in read] == [(), ("June 30, 2019",), ("June 30, 2019",), ("June 30, 2018",)]


def test_header_rows_stack_their_titles_top_first():
    read = layout([["Revenue", "1", "2"]], ["", "Quarter", "Total"],
                  [["", "", "Fiscal 2019"], ["", "First", "Second"]], is_period_label)
    assert read[0][1] == ((), ("Fiscal 2019", "First"), ("Fiscal 2019", "Second"))


_DEBT = {"table": {
    "header_rows": [["", "December 31, 2019", "", "December 31, 2018", ""]],
    "columns": ["(In millions)", "Carrying Amount", "Fair Value", "Carrying Amount", "Fair Value"],
    "rows": [["Senior Notes", "421.9", "450.1", "421.1", "421.2"],
             ["Total debt", "3,774.4", "4,073.9", "3,474.2", "3,535.1"]]}}


def test_a_spanning_title_dates_the_cells_under_it():
    hay = Haystack(_DEBT)
    period = {hay.leaves[leaf].raw: hay.period_of(leaf) for leaf in hay.leaf_value}
    assert period["3,774.4"] == period["4,073.9"] == (2019, None)
    assert period["3,474.2"] == period["3,535.1"] == (2018, None)


def test_a_change_between_two_titled_columns_takes_the_year_the_question_names():
    q = "What is the percentage difference between fair value and carrying amount of total debt as of December 31, 2018?"
    ok = verify("The answer is 1.75%.", _DEBT, question=q)  # (3,535.1 - 3,474.2) / 3,474.2
    assert ok.items[0].status == "derived" and "rows[1][4]" in ok.items[0].reason
    # the 2019 pair's change (7.93%) is not what 2018's asks for
    assert verify("The answer is 7.93%.", _DEBT, question=q).items[0].status != "derived"


def test_a_section_row_of_periods_dates_and_names_the_cells_below_it():
    data = {"table": {"columns": ["Currency", "Weightage (%)", "FY 2019 `", "FY 2018 `"],
                      "rows": [["USD", "53.6", "70.07", "64.49"],
                               ["Breakup of revenue growth", "FY 2019 (%)", "FY 2018 (%)", ""],
                               ["Business growth", "11.4", "6.7", ""],
                               ["Impact of exchange rate", "7.6", "(2.3)", ""]]}}
    hay = Haystack(data)
    leaf = next(i for i in hay.leaf_value if hay.leaves[i].raw == "7.6")
    assert hay.leaves[leaf].key == "FY 2019 (%)" and hay.period_of(leaf) == (2019, None)
    report = verify("The answer is 9.9%.", data,
                    question='What is the change in "impact of exchange rate" from FY 2018 to FY 2019?')
    assert report.items[0].status == "derived" and "7.6 - (-2.3)" in report.items[0].reason


def test_a_renamed_column_is_a_column_of_its_own():
    from verifier.derive.operands import groups_of
    hay = Haystack({"columns": ["(In Millions)", "Acquisitions", "Dec 28, 2019"], "rows": [
        ["A", "3", "7,155"], ["B", "1", "10,290"], ["(In Millions)", "Acquisitions", "Dec 29, 2018"],
        ["A", "4", "5,424"], ["B", "2", "10,278"]]})
    columns = [sorted(hay.leaves[leaf].raw for leaf in g.leaves) for g in groups_of(hay) if g.kind == "column"]
    assert ["10,278", "5,424"] in columns and ["10,290", "7,155"] in columns
    assert not any("7,155" in c and "5,424" in c for c in columns)  # no column mixes the two dates
    assert Decimal(5424) in hay.numbers


def test_the_module_examples_hold():
    import doctest

    from verifier.index import table_layout
    assert doctest.testmod(table_layout).failed == 0


def _keys_and_periods(data):
    hay = Haystack(data)
    return {hay.leaves[leaf].raw: (hay.leaves[leaf].key, hay.period_of(leaf)) for leaf in hay.leaf_value}


def test_rows_of_data_that_hold_years_or_dates_open_no_section():
    # a debt table's "Maturity" row: its years are data, not the columns' new names
    debt = {"columns": ["", "2019", "2018"], "rows": [
        ["Senior notes", "500", "450"], ["Maturity", "2025", "2027"], ["Term loan", "300", "200"]]}
    assert _keys_and_periods(debt)["300"] == ("2019", (2019, None))
    assert verify("The answer is 100.", debt, question="What was the change in term loan from 2018 to 2019?"
                  ).items[0].status == "derived"
    # one row per instrument: a maturity year beside an amount is data
    notes = {"columns": ["Instrument", "Maturity", "Principal"], "rows": [
        ["Senior notes", "2025", "$500 million"], ["Term loan", "2027", "$300 million"],
        ["Revolver", "2029", "$200 million"]]}
    assert {key for key, _ in _keys_and_periods(notes).values()} == {"Principal"}
    assert verify("Total principal is $1,000 million.", notes).items[0].status == "derived"
    # a row of issue dates: dates with a day are values
    issued = {"columns": ["", "Note A", "Note B"], "rows": [
        ["Issue date", "March 1, 2019", "June 1, 2020"], ["Interest expense", "25", "30"]]}
    assert _keys_and_periods(issued)["25"] == ("Note A", None)


def test_a_key_value_table_or_a_year_row_of_a_lease_schedule_titles_nothing():
    summary = {"columns": ["Metric", "Value"], "rows": [
        ["Period", "FY2019"], ["Prior-year revenue", "$1.0bn"], ["Last report date", "March 31, 2018"],
        ["EPS", "$2.10"]]}
    assert all(period is None for _, period in _keys_and_periods(summary).values())
    leases = {"columns": ["", "Operating leases", "Finance leases"], "rows": [
        ["2020", "120", "12"], ["2021", "", ""], ["Thereafter", "300", "30"]]}
    assert _keys_and_periods(leases)["300"] == ("Operating leases", None)


def test_a_section_date_keeps_the_titles_printed_above_the_columns():
    plans = {"header_rows": [["", "Pension", "", "Other", ""]],
             "columns": ["", "Cost", "Obligation", "Cost", "Obligation"],
             "rows": [["2019:", "", "", "", ""], ["Service", "10", "100", "2", "20"],
                      ["2018:", "", "", "", ""], ["Service", "9", "90", "3", "30"]]}
    hay = Haystack(plans)
    leaf = next(i for i in hay.leaf_value if hay.leaves[i].raw == "3")
    assert hay.titles_of(leaf) == ("2018", "Other") and hay.period_of(leaf) == (2018, None)


def test_header_rows_may_be_one_flat_row_and_hold_json_years():
    for header_rows in ([["", 2019, "", 2018, ""]], ["", "2019", "", "2018", ""]):
        hay = Haystack({"header_rows": header_rows, "columns": ["", "Carrying", "Fair", "Carrying", "Fair"],
                        "rows": [["Debt", "1", "2", "3", "4"]]})
        cells = sorted((hay.leaves[leaf].raw, leaf) for leaf in hay.leaf_value if hay.path(leaf).startswith("$.rows"))
        assert [hay.period_of(leaf) for _, leaf in cells] == [(2019, None)] * 2 + [(2018, None)] * 2


def test_a_repeated_header_keeps_the_names_of_columns_it_leaves_blank():
    read = layout([["", "", "2018", "2017"], ["Revenue", "1", "2", "3"]], ["", "Note", "2019", "2018"], None,
                  is_period_label)
    assert read[1][0] == ["", "Note", "2018", "2017"]


def test_a_years_percent_column_is_not_one_of_the_rows_period_figures():
    from verifier.derive.operands import groups_of
    hay = Haystack({"columns": ["", "2019", "2019 %", "2018", "2018 %", "Change"],
                    "rows": [["Americas", "600", "50", "500", "45.5", "20%"]]})
    assert is_period_label("2019 %")  # a year's column, in percent
    records = [sorted(hay.leaves[leaf].raw for leaf in g.leaves) for g in groups_of(hay) if g.kind == "record"]
    assert ["500", "600"] in records and not any("50" in r and "600" in r and len(r) == 4 for r in records)
