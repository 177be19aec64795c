import math
from decimal import Decimal

import jsonpath_ng
import pytest

from verifier import Haystack, InputError, LimitError, verify
from verifier.index.haystack import as_tools, iter_leaves


def resolve(h: Haystack, leaf: int):
    tool = h.tool_of(leaf)
    return [m.value for m in jsonpath_ng.parse(h.path(leaf)).find(tool.output)]


def test_every_leaf_path_resolves_with_jsonpath_ng_to_its_value():
    output = {
        "results": [{"symbol": "AAPL", "price": 142.3, "tags": ["a", "b"]}],
        "key with space": {"it's": 5, "x.y": "7%"},
        "where": 1,
    }
    h = Haystack([{"name": "t", "output": output}])
    for i, leaf in enumerate(h.leaves):
        found = resolve(h, i)
        assert found, h.path(i)
        assert str(found[0]) == leaf.raw or leaf.raw == "true" or found[0] == leaf.raw


def test_numbers_are_indexed_by_canonical_decimal():
    h = Haystack({"price": 142.30, "s": "1,234.50", "neg": "(1,234)", "pct": "12.3%", "big": "$3.4M"})
    assert h.numbers[Decimal("142.3")]
    assert h.numbers[Decimal("1234.5")]
    assert h.numbers[Decimal(-1234)]
    assert h.numbers[Decimal("12.3")] and h.numbers[Decimal("0.123")]
    assert h.numbers[Decimal(3400000)] and h.numbers[Decimal("3.4")]


def test_column_table_leaves_take_the_header_as_key():
    table = {"columns": ["symbol", "revenue_millions"], "rows": [["AAPL", 2100], ["MSFT", 3000]]}
    h = Haystack([{"name": "fin", "output": table}])
    refs = h.numbers[Decimal("2.1E9")]
    assert [h.path(r.leaf) for r in refs] == ["$.rows[0][1]"]
    assert h.leaves[refs[0].leaf].key == "revenue_millions"
    assert resolve(h, refs[0].leaf) == [2100]


def test_unit_field_scales_the_tools_numbers():
    h = Haystack([{"name": "fin", "output": {"unit": "in thousands", "revenue": 2236}},
                  {"name": "other", "output": {"revenue": 5}}])
    assert h.numbers[Decimal(2236000)][0].how == "scaled by unit field"
    assert Decimal(5000) not in h.numbers  # the other tool has no unit field


def test_epoch_milliseconds_and_iso_strings_are_dates():
    h = Haystack({"events": [{"time": 1772668800000}, {"release_date": "2026-04-01"}]})
    assert h.dates["2026-03-05"] and h.dates["2026-04-01"] and h.dates["2026-04"]


def test_record_with_quarter_and_year_fields_is_a_period():
    h = Haystack({"fiscal_quarter": 3, "fiscal_year": 2026, "eps": 1.2})
    assert h.periods["2026-Q3"]


def test_tickers_from_fields_text_and_keys():
    h = Haystack({"quotes": {"MSFT": {"px": 1}}, "a": {"symbol": "brk-b"}, "news": "Apple (AAPL) rose"})
    assert h.tickers["MSFT"] and h.tickers["BRK.B"] and h.tickers["AAPL"]


def test_nan_infinities_and_huge_numbers_are_kept_as_text_not_indexed():
    h = Haystack({"a": math.nan, "b": math.inf, "c": 10**5000, "d": Decimal("NaN")})
    raws = sorted(leaf.raw for leaf in h.leaves)
    assert "NaN" in raws and "Infinity" in raws
    assert not h.numbers


def test_deep_nesting_does_not_hit_the_recursion_limit():
    value: object = 42
    for _ in range(50_000):
        value = {"x": [value]}
    h = Haystack(value)
    assert h.numbers[Decimal(42)]
    assert h.path(h.numbers[Decimal(42)][0].leaf).count("[0]") == 50_000


def test_leaf_limit_is_a_clear_error():
    with pytest.raises(LimitError, match="over the limit of 10"):
        Haystack(list(range(100)), max_leaves=10)


def test_non_json_values_are_an_input_error_naming_the_path():
    with pytest.raises(InputError, match=r"\$\.a\[1\]"):
        Haystack({"a": [1, {1, 2}]})


def test_tool_list_shapes():
    assert [t.name for t in as_tools([{"name": "a", "output": 1}, {"name": "b", "output": 2, "id": "c"}])] == ["a", "b"]
    assert as_tools({"name": "a", "output": {}})[0].name == "a"
    assert as_tools([1, 2])[0].name == "tool"
    with pytest.raises(InputError, match=r"tool_results\[1\]"):
        as_tools([{"name": "a", "output": 1}, {"name": "b"}])


def test_string_text_is_searchable_for_quotes():
    h = Haystack({"news": "Management called it a “record   quarter” for services."})
    leaf = h.find_text('a "record quarter" for')
    assert leaf is not None and h.path(leaf) == "$.news"
    assert h.find_text("record year") is None


def test_iter_leaves_lists_tool_path_raw():
    h = Haystack([{"name": "q", "output": {"p": 1}}])
    assert list(iter_leaves(h)) == [("q", "$.p", "1")]


@pytest.mark.parametrize(("text", "absent", "present"), [
    ("Total lease liabilities(1)", [1], []),
    ("(1) During 2019 the Company recognized $417 million. (2) Balance represents other items.", [1, 2], [417]),
    ("2 Includes the value of the cash allowance", [2], []),
    ("Notes: 1 Excludes gains from long-term incentive plans.", [1], []),
    ("Significant Other Observable Inputs (Level 2)", [2], []),
    ("2 customers accounted for 40% of revenue", [], [2]),   # a count, not a footnote
    ("12 Months Ended", [], [12]),
    ("See Note 7 of Notes to the Financial Statements: $12 million", [7], [12000000]),
    ("ASU 2016-08, ASU 2017-07 (Topic 606) and Section 404(b)", [8, 7, 606, 404], []),
    ("NOTE 7 Income taxes; Item 1.01; ASC 842-10", [7, 1.01, 842], []),
    ("Senior Notes 4.50% due 2025; Note 1,250 million; Part 2.5 million shares",  # figures, not references
     [], [Decimal("0.045"), 1250000000, 2500000]),
    ("Note 25 bn; Note 7\u00a0million; see Notes 5 and 6; Rule 10b5-1 plans", [5, 1, -1], [25e9, 7000000, 6]),
])
def test_footnote_markers_and_fair_value_levels_in_data_are_not_figures(text, absent, present):
    hay = Haystack({"note": text})
    for value in absent:
        assert Decimal(value) not in hay.numbers, (text, value)
    for value in present:
        assert Decimal(value) in hay.numbers, (text, value)
    assert Decimal(-7) in Haystack({"cell": "(7)"}).numbers  # a lone "(7)" is an accounting negative


def test_footnote_markers_end_a_tables_labels_not_its_data_strings():
    hay = Haystack({"columns": ["", "2018 (4) (5)"], "rows": [["Net income (1)", "5"], ["Net change (12)", "(3)"]]})
    assert sorted(hay.numbers) == [-3, 5]  # "(12)" ends a label too
    assert Decimal(-12) in Haystack({"note": "Net change (12)"}).numbers  # a data string: an accounting negative
    assert Decimal(-12) in Haystack({"rows": [["Net change", "Net change (12)"]]}).numbers  # a cell, not a label


def test_a_unit_field_scales_cells_not_column_headers():
    hay = Haystack({"unit": "thousand", "table": {"columns": ["", "1 to 3 years", "3 to 5 years"],
                                                  "rows": [["Leases", "6,551", "0"]]}})
    assert Decimal(6551000) in hay.numbers and Decimal(5000) not in hay.numbers


@pytest.mark.parametrize(("header", "year"), [("2019", 2019), ("2019 €m", 2019), ("FY2018 $'000", 2018),
                                              ("2018 US$ million", 2018), ("2019 shares", None),
                                              ("April 26, 2019", 2019), ("Year ended December 31, 2018", 2018),
                                              ("As of Dec. 31, 2019", 2019),
                                              ("February 1, 2020", None)])  # a retailer's fiscal 2019
def test_a_column_header_of_a_year_and_a_unit_is_the_period_of_its_cells(header, year):
    hay = Haystack({"columns": ["", header], "rows": [["Revenue", "12.5"]]})
    leaf = next(i for i, e in enumerate(hay.leaves) if e.raw == "12.5")
    assert hay.period_of(leaf) == ((year, None) if year else None)


def test_a_dash_cell_is_nil_for_matching_but_no_operand():
    hay = Haystack({"columns": ["", "2019", "2018"], "rows": [["Impairment", "—", "5"]]})
    refs = hay.numbers[Decimal(0)]
    assert [hay.leaves[r.leaf].raw for r in refs] == ["—"] and refs[0].how == "dash read as zero"
    assert all(v != 0 for v in hay.leaf_value.values())  # derive does not get a 0 to subtract
    assert Decimal(0) not in Haystack({"note": "a - b"}).numbers  # only a cell that is just a dash


@pytest.mark.parametrize(("text", "where"), [('{"a": NaN}', "line 1, column 7"), ('[1,\n -Infinity]', "line 2, column 2"),
                                            ('{"NaN": "NaN", "x": Infinity}', "line 1, column 21")])
def test_json_with_nan_or_infinity_is_refused_naming_where(text, where):
    from verifier.inputs.jsonio import loads
    with pytest.raises(InputError) as err:
        loads(text, "tools.json")
    assert "is not a JSON number" in str(err.value) and where in str(err.value)
    assert loads('{"NaN": "Infinity"}') == {"NaN": "Infinity"}  # as strings they are fine


def test_a_cited_note_or_standard_is_a_name_in_the_answer_too():
    items = __import__("verifier").verify("As Note 21 and ASC 842 explain, leases were $5 million.",
                                          {"note": "leases were $5 million"}).items
    assert [(i.text, i.status) for i in items] == [("$5 million", "exact")]


def test_level_and_tier_are_names_in_the_answer_too():
    report_items = __import__("verifier").verify("Level 3 assets were $5 million.",
                                                 {"note": "Level 3 assets were $5 million"}).items
    assert [(i.text, i.status) for i in report_items] == [("$5 million", "exact")]


@pytest.mark.parametrize(("text", "value"), [("Net change: (12) Million", -12), ("2 Customers accounted for 40%", 2),
                                             ("3 Analysts raise price targets", 3)])
def test_numbers_that_only_look_like_footnote_markers_stay_figures(text, value):
    assert Decimal(value) in Haystack({"note": text}).numbers


def test_an_object_named_fields_is_no_table_header():
    hay = Haystack({"unit": "millions", "fields": {"revenue": 383.3}})
    assert Decimal(383300000) in hay.numbers


def test_a_dash_in_a_field_is_not_available_not_zero():
    assert Decimal(0) not in Haystack({"symbol": "RIVN", "pe_ratio": "—"}).numbers


def test_the_position_of_a_bare_nan_skips_strings():
    from verifier.inputs.jsonio import loads
    with pytest.raises(InputError, match="line 1, column 36"):
        loads('{"note": "value is NaN here", "x": NaN}')


def test_a_weighted_average_column_is_not_a_weight():
    # "weight" (a portfolio weight) holds percentages; "Weighted-Average Exercise Price"
    # holds prices: read as a percentage, "7%" would have matched a $7.00 price
    h = Haystack({"columns": ["", "Number of Shares", "Weighted-Average Exercise Price Per Share"],
                  "rows": [["Outstanding", "1,686,902", "7.00"]]})
    price = next(i for i, leaf in enumerate(h.leaves) if leaf.raw == "7.00")
    assert not h.is_percent(price)
    w = Haystack({"holdings": [{"symbol": "AAPL", "weight": 12.5}]})
    assert w.is_percent(next(i for i, leaf in enumerate(w.leaves) if leaf.key == "weight"))


def test_an_answer_copying_a_label_with_its_footnote_marker_reads_no_figure_in_it():
    from verifier import verify
    table = {"columns": ["", "2019", "2018"], "rows": [["Net income (1)", "5.2", "4.8"], ["Net change", "(12)", "3"]]}
    items = verify("Net income (1) was 5.2 in 2019.", table).items
    assert [(i.text, i.status) for i in items if i.kind != "date"] == [("5.2", "exact")]
    # a label the data does not print with that marker: the "(1)" is read, and not found
    items = verify("Revenue (1) was 5.2.", table).items
    assert [(i.text, i.status) for i in items] == [("(1)", "unsupported"), ("5.2", "exact")]
    items = verify("Net change was (12) in 2019.", table).items  # an accounting negative stays one
    assert [(i.text, i.status) for i in items if i.kind != "date"] == [("(12)", "exact")]


@pytest.mark.parametrize(("corner", "header_rows", "scale"), [
    ("(In millions)", None, Decimal("1E6")), ("($ in thousands, except per share data)", None, Decimal("1E3")),
    ("(Dollars in millions)", None, Decimal("1E6")), ("$'000", None, Decimal("1E3")),
    ("", [["(in thousands)", "", ""]], Decimal("1E3")), ("", [["", "(in thousands)", ""]], Decimal("1E3")),
    ("", [["(dollars in millions)", "Payments due by period", ""]], Decimal("1E6")),
    ("Years Ended December 31, (Dollars in millions)", None, Decimal("1E6")),
    ("(Dollar amounts in millions)", None, Decimal("1E6")),
    ("Shares in thousands", None, None), ("Revenue (in millions) and margin (%)", None, None),
    ("As of", None, None), ("Revenue by region", None, None)])
def test_a_tables_corner_or_title_states_the_scale_of_its_figures(corner, header_rows, scale):
    table = {"columns": [corner, "2019", "2018"], "rows": [["Revenue", "45,210", "43,147"]],
             **({"header_rows": header_rows} if header_rows else {})}
    hay = Haystack(table)
    leaf = next(i for i in hay.leaf_value if hay.leaves[i].raw == "45,210")
    assert hay.leaf_scale(leaf) == scale
    if scale is not None:
        assert Decimal(45210) * scale in hay.numbers


def test_a_scale_the_table_states_reads_answers_in_other_units_and_refuses_the_wrong_one():
    table = {"columns": ["(in thousands)", "2019", "2018"], "rows": [["Revenue", "45,210", "43,147"]]}
    question = "What was revenue in 2019?"
    assert verify("Revenue was $45.21 million in 2019.", table, question=question).items[0].status == "normalized"
    # the cell's digits with another scale word are not the cell: 45,210 thousand is no 45,210 billion
    assert verify("Revenue was $45,210 billion in 2019.", table, question=question).items[0].status == "unsupported"


def test_a_tables_unit_leaves_per_share_rows_and_percentages_alone():
    table = {"columns": ["(In millions, except per share amounts)", "2019", "2018"],
             "rows": [["Net income", "11,083", "3,587"], ["Diluted EPS", "$2.97", "$2.51"],
                      ["Cash dividends declared per common share", "$0.81", "$0.76"],
                      ["Operating margin", "34.3%", "33.7%"]]}
    question = "What was the change in diluted EPS from 2018 to 2019?"
    assert verify("Diluted EPS rose by $0.46.", table, question=question).items[0].status == "derived"
    for wrong in ("Diluted EPS rose by $460,000.", "Diluted EPS was $2,970,000 in 2019.",
                  "Diluted EPS was $2.97 million in 2019.", "Dividends were $0.81 million."):
        assert verify(wrong, table).items[0].status == "unsupported", wrong
    assert verify("Net income was $11.083 billion.", table).items[0].status == "normalized"
    # nor a row under a per-share heading, nor an amount row whose label holds a "%"
    eps = {"columns": ["(In millions)", "2019"], "rows": [["Net income", "1,200"], ["Earnings per share:", ""],
                                                          ["Basic", "$3.05"], ["Diluted", "$3.00"],
                                                          ["4.5% Senior notes due 2026", "500"]]}
    assert verify("Diluted EPS was $3,000,000.", eps).items[0].status == "unsupported"
    assert verify("The notes were $500 million.", eps).items[0].status == "normalized"
    # per-share rows are no column of their own: their sum is no derivation
    assert verify("Diluted EPS was $6.05 in 2019.", eps, question="What was diluted EPS in 2019?"
                  ).items[0].status == "unsupported"
    # a tool's unit field does not scale what the table's own corner states
    tool = {"unit": "thousands", "table": {"columns": ["(In millions)", "2019"], "rows": [["Revenue", "45,210"]]}}
    assert verify("Revenue was $45.21 billion.", tool).items[0].status == "normalized"
    assert verify("Revenue was $45.21 million.", tool).items[0].status == "unsupported"


def test_a_title_stating_a_unit_over_some_columns_scales_those_columns():
    table = {"header_rows": [["", "(Shares in thousands)", "", "(Dollars in millions)"]],
             "columns": ["Period", "Shares purchased", "Average price", "Value"],
             "rows": [["October", "1,250", "$45.10", "56.4"]]}
    hay = Haystack(table)
    scale = {hay.leaves[leaf].raw: hay.leaf_scale(leaf) for leaf in hay.leaf_value if hay.path(leaf).startswith("$.rows")}
    assert scale == {"1,250": Decimal("1E3"), "$45.10": None, "56.4": Decimal("1E6")}


def test_a_rows_scale_is_its_amounts_not_its_change_percentages():
    # two "%" change cells and two amounts "in millions": the row's derivations are in millions
    table = {"columns": ["$ MILLION", "53 WEEKS", "52 WEEKS", "CHANGE", "CHANGE NORMALISED"],
             "rows": [["Sales", "1,671", "1,612", "3.7%", "1.8%"]]}
    item = verify("The answer is 1641.5 million.", table, question="What is the average sales?").items[0]
    assert item.status == "derived", item.reason


@pytest.mark.parametrize(("answer", "table", "question", "want"), [
    # a per-share heading lists its items, not the amount rows printed below them
    ("Total assets were $98.5 billion.", {"columns": ["(In millions, except per share data)", "2019"], "rows": [
        ["EPS:", ""], ["Diluted", "3.00"], ["Total assets", "98,500"]]}, None, "normalized"),
    # a heading over share counts is no per-share heading
    ("Diluted shares were 625 million.", {"columns": ["(In millions, except per share data)", "2019"], "rows": [
        ["Shares used in per share computation:", ""], ["Diluted", "625"]]}, None, "normalized"),
    # "price" in an amount column's header is no price per share
    ("Goodwill was $1.25 billion.", {"columns": ["(In millions)", "Purchase price allocation"], "rows": [
        ["Goodwill", "1,250"], ["Intangibles", "430"]]}, None, "normalized"),
    # "%" cells do not vote on a column's scale
    ("The sum is $4.0 billion.", {"columns": ["(In millions)", "2019"], "rows": [
        ["Revenue", "2,500"], ["Cost", "1,500"], ["Margin", "40%"], ["Op margin", "15%"], ["Tax rate", "21%"]]},
     "Sum of revenue and cost in 2019?", "derived"),
    # counts and durations are not millions, nor "Gross margin %" rows
    ("There are 1.25 billion stores.", {"header_rows": [["", "", "(In millions)"]],
                                        "columns": ["Region", "Stores", "Revenue"], "rows": [["North", "1,250", "4,500"]]},
     None, "unsupported"),
    ("Gross margin was $42.5 million.", {"columns": ["(In millions)", "2019"], "rows": [["Gross margin %", "42.5"]]},
     None, "unsupported"),
    # a unit said of shares is over the shares column only
    ("The fair value was $52,000.", {"header_rows": [["", "(Shares in thousands)", ""]],
                                     "columns": ["", "Shares", "Grant-date fair value"], "rows": [["Granted", "300", "$52.00"]]},
     None, "unsupported"),
    ("300 thousand shares were granted.", {"header_rows": [["", "(Shares in thousands)", ""]],
                                           "columns": ["", "Shares", "Grant-date fair value"],
                                           "rows": [["Granted", "300", "$52.00"]]}, None, "normalized"),
])
def test_a_tables_unit_reaches_exactly_the_cells_it_is_said_of(answer, table, question, want):
    item = verify(answer, table, question=question).items[0]
    assert item.status == want, item.reason


def test_full_width_figures_joined_or_listed():
    from verifier.normalizers._text import fold
    assert fold("\uff12\uff10\uff12\uff13\uff0c\uff12\uff10\uff12\uff14") == "2023\uff0c2024"  # two years, a list
    assert fold("\uff11\uff0c\uff12\uff13\uff14") == "1,234"  # a thousands group


@pytest.mark.parametrize(("columns", "raw", "scale"), [
    (["", "2019 €m", "2018 €m"], "1,250", Decimal("1E6")),      # a currency glued to its scale
    (["£m", "2019", "2018"], "1,250", Decimal("1E6")),
    (["(Millions)", "2019", "2018"], "1,250", Decimal("1E6")),  # a bare unit word
    (["(in million)", "2019", "2018"], "1,250", Decimal("1E6")),
    (["", "2019 US$'000", "2018 US$'000"], "1,250", Decimal("1E3")),
    (["(In millions)", "2019", "Change (%)"], "13.2", Decimal(1)),  # a percentage column: stated unscaled
])
def test_units_annual_reports_print_are_read(columns, raw, scale):
    hay = Haystack({"columns": columns, "rows": [["Revenue", "1,250", "13.2"]]})
    leaf = next(i for i in hay.leaf_value if hay.leaves[i].raw == raw)
    assert hay.leaf_scale(leaf) == scale


def test_per_area_and_per_day_rows_keep_their_figures():
    table = {"columns": ["$ MILLION", "53 WEEKS"], "rows": [["Sales", "8,657"], ["Sales per square metre ($)", "18,675"]]}
    assert verify("Sales per square metre were $18,675.", table).items[0].status == "exact"
    assert verify("Sales per square metre were $18,675 million.", table).items[0].status == "unsupported"
