"""Three- and four-cell derivations over the cells a question names (verifier.derive.compound)."""

from decimal import Decimal

import jsonpath_ng

from verifier import verify
from verifier.derive.compound import Cell, Target, search, templates_for

CASH = {"unit": "million", "columns": ["", "2019 €m", "2018 €m", "2017 €m"], "rows": [
    ["Operating free cash flow", "7,071", "7,001", "5,627"],
    ["Interest received and paid", "(502)", "(753)", "(830)"],
    ["Free cash flow", "4,411", "4,044", "3,316"]]}

SEGMENTS = {"columns": ["Reporting Segment", "Fiscal 2019 Net Sales", "Fiscal 2018 Net Sales", "% Inc (Dec)"],
            "rows": [["International", "793.4", "843.5", "(6)%"], ["Foodservice", "934.2", "1,054.8", "(11)%"],
                     ["Retail", "2,401.9", "2,331.6", "3%"]]}

PROPERTY = {"columns": ["(in thousands)", "2019", "2018"], "rows": [
    ["Land", "$672", "$672"], ["Leasehold improvements", "798", "1,238"], ["Machinery", "6,639", "6,471"],
    ["Land, property and equipment, gross", "$8,109", "$8,381"]]}


def only(answer, tools, question=None):
    items = [i for i in verify(answer, tools, question=question).items if i.kind not in ("date", "ticker")]
    assert len(items) == 1, [(i.text, i.status) for i in items]
    return items[0]


def resolves(item, output):
    for ev in item.evidence:
        assert jsonpath_ng.parse(ev.path).find(output)[0].value == ev.raw


def test_the_change_between_two_year_averages_of_one_row():
    question = "What is the change between 2018 and 2019 average free cash flow?"
    item = only("The answer is 547.5 million.", CASH, question)  # (4411 + 4044) / 2 - (4044 + 3316) / 2
    assert item.status == "derived", item.reason
    assert item.expression == "($.rows[2][1] + $.rows[2][2]) / 2 - ($.rows[2][2] + $.rows[2][3]) / 2"
    resolves(item, CASH)
    assert only("The answer is 548.5 million.", CASH, question).status == "unsupported"
    # without a question naming the row and the computation, nothing this long is searched
    assert only("The answer is 547.5 million.", CASH).status == "unsupported"


def test_the_percent_change_of_two_rows_combined():
    question = ("What is the percentage change in total net sales of International and Foodservice "
                "from fiscal year 2018 to 2019?")
    item = only("The answer is -8.99%.", SEGMENTS, question)
    assert item.status == "derived", item.reason
    assert item.expression == ("((($.rows[0][1] + $.rows[1][1]) - ($.rows[0][2] + $.rows[1][2])) / "
                               "($.rows[0][2] + $.rows[1][2])) * 100")
    assert only("The answer is -8.89%.", SEGMENTS, question).status == "unsupported"


def test_two_rows_share_of_a_column_total():
    question = ("What is the proportion of land and leasehold improvements over the gross cost of land, "
                "property, and equipment in 2019?")
    item = only("The answer is 18.13%.", PROPERTY, question)  # (672 + 798) / 8109
    assert item.status == "derived", item.reason
    assert item.expression == "(($.rows[0][1] + $.rows[1][1]) / $.rows[3][1]) * 100"
    assert only("The answer is 18.31%.", PROPERTY, question).status == "unsupported"


def _cells(rows):
    """A table whose columns are periods."""
    return [Cell(Decimal(v), 10 * r + c, r, c, dated_column=True)
            for r, row in enumerate(rows) for c, v in enumerate(row)]


def _target(value, tolerance="0.5"):
    v, tol = Decimal(value), Decimal(tolerance)
    return Target(v, tol, True, False, max(20 * tol, abs(v) / 4))


def accept(found, target):
    return True


def test_cells_of_different_rows_and_columns_are_not_summed():
    cells = _cells([["10", "20", "30"], ["40", "50", "60"]])
    assert search([(cells, [_target("60")])], ("total",), accept, accept)[0][0].op == "total"  # 10 + 20 + 30
    assert search([(cells, [_target("100")])], ("total",), accept, accept)[0] is None  # 10 + 30 + 60: not a line
    # a row's periods are not added and set against another period
    assert search([(cells, [_target("0")])], ("difference",), accept, accept)[0] is None  # 10 + 20 - 30


def test_a_crowded_neighbourhood_is_not_believed():
    # many cells, a one-digit target: many of the means land near it
    cells = _cells([[str(v) for v in range(10, 22)]])
    hit, risk = search([(cells, [_target("15", "0.5")])], ("mean",), accept, accept)
    assert hit is not None and risk > 0.1  # found, but among too many near results to believe
    hit, risk = search([(cells[:3], [_target("11", "0.5")])], ("mean",), accept, accept)  # 10, 11, 12
    assert hit is not None and risk <= 0.1


def test_the_question_cues_choose_the_expressions():
    names = {f.__name__ for f in templates_for(("mean", "difference"))}
    assert names == {"_means", "_mean_differences", "_sum_differences"}
    assert templates_for(()) == []
    assert {f.__name__ for f in templates_for(("ratio",))} == {"_sum_ratios"}


def test_two_rows_averages_set_against_each_other():
    pensions = {"unit": "million", "columns": ["", "2019 €m", "2018 €m", "2017 €m"], "rows": [
        ["Defined contribution schemes", "166", "178", "192"], ["Defined benefit schemes", "57", "44", "20"],
        ["Total amount charged to income statement", "223", "222", "212"]]}
    question = ("What is the difference between 2019 average defined contribution schemes and "
                "2019 average defined benefit schemes?")
    item = only("The answer is 121.5 million.", pensions, question)  # (166 + 178) / 2 - (57 + 44) / 2
    assert item.status == "derived", item.reason
    assert item.expression == "($.rows[0][1] + $.rows[0][2]) / 2 - ($.rows[1][1] + $.rows[1][2]) / 2"
    assert only("The answer is 122.5 million.", pensions, question).status == "unsupported"


def test_segments_in_columns_share_a_total_but_periods_do_not_add():
    balances = {"columns": ["", "Application Software", "Network Software", "Process Technologies", "Total"],
                "rows": [["Balances at December 31, 2018", "$ 5,236.1", "$ 2,623.7", "$312.3", "$ 9,346.8"]]}
    question = ("What is the proportion of balances in the Application Software and Process Technologies "
                "segments over total balances in all segments at December 31, 2018?")
    item = only("The answer is 59.36%.", balances, question)  # (5236.1 + 312.3) / 9346.8
    assert item.status == "derived", item.reason
    # the same figures under year columns are a row's periods: not added and divided
    years = {"columns": ["", "2019", "2018", "2017", "2016"],
             "rows": [["Balances", "$ 5,236.1", "$ 2,623.7", "$312.3", "$ 9,346.8"]]}
    assert only("The answer is 59.36%.", years, "What is the proportion of balances in 2019 and 2017 "
                "over balances in 2016?").status == "unsupported"


def test_a_total_over_figures_the_prose_gives_periods():
    tools = {"unit": "million", "table": {"columns": ["", "2019", "2018"], "rows": [["Land", "$45.0", "$45.0"]]},
             "note": "Depreciation expense totaled $290.2 million in 2019, $239.6 million in 2018 and "
                     "$190.4 million in 2017."}
    question = "What is the total depreciation expense incurred by the company between 2017 to 2019?"
    item = only("The answer is 720.2 million.", tools, question)
    assert item.status == "derived" and item.expression == "$.note + $.note + $.note", item.reason
    assert only("The answer is 720.3 million.", tools, question).status == "unsupported"
    # figures without periods are no series
    tools["note"] = "Depreciation expense was $290.2 million, $239.6 million and $190.4 million."
    assert only("The answer is 720.2 million.", tools, question).status == "unsupported"


def test_only_the_named_rows_of_a_larger_table_are_searched():
    rows = [[f"Item {chr(65 + i)}", str(4000 + 97 * i), str(3900 + 89 * i), str(3300 + 61 * i)] for i in range(6)]
    rows[2][0] = "Free cash flow"
    table = {"unit": "million", "columns": ["", "2019", "2018", "2017"], "rows": rows}
    value = (Decimal(rows[2][1]) + Decimal(rows[2][2]) - Decimal(rows[2][2]) - Decimal(rows[2][3])) / 2
    answer = f"The answer is {value} million."
    named = "What is the change between 2018 and 2019 average free cash flow?"
    assert only(answer, table, named).status == "derived"
    # six rows, none named: three- and four-cell expressions are not tried over all of them
    assert only(answer, table, "What is the change between the 2018 and 2019 averages?").status == "unsupported"


def test_a_column_header_naming_a_year_is_a_period_even_with_more_words():
    sales = {"columns": ["Segment", "Fiscal 2019 Net Sales", "Fiscal 2018 Net Sales", "Fiscal 2017 Net Sales"],
             "rows": [["Grocery", "3,279.2", "3,287.0", "3,100.0"], ["Frozen", "2,804.0", "2,753.0", "2,699.1"]]}
    question = "What is the difference in Grocery net sales?"
    # 3,279.2 + 3,287.0 - 3,100.0: a row's years are not added and set against another year
    assert only("The answer is 3466.2.", sales, question).status == "unsupported"


def test_a_series_is_one_clauses_figures_in_order():
    tools = {"unit": "million", "table": {"columns": ["", "2019", "2018"], "rows": [["Land", "$45.0", "$45.0"]]},
             "note": "Revenue was $290.2 million in 2019 and $239.6 million in 2018. Depreciation expense was "
                     "$20.1 million in 2019, $19.5 million in 2018 and $18.0 million in 2017."}
    question = "What is the total depreciation expense between 2017 and 2019?"
    assert only("The answer is 57.6 million.", tools, question).status == "derived"
    # revenue, revenue and a depreciation figure: two clauses' figures are no series
    assert only("The answer is 547.8 million.", tools, question).status == "unsupported"


def test_review_repros_stay_refused():
    # the longer expressions share the chance count of the searches before them
    cash = {"unit": "million", "columns": ["", "2019", "2018", "2017"], "rows": [
        ["Item A", "358", "296", "388"], ["Free cash flow", "395", "343", "326"], ["Item C", "371", "278", "362"]]}
    q = "What is the change between 2018 and 2019 average free cash flow?"
    assert only("The answer is -26 million.", cash, q).status == "unsupported"
    assert only("The answer is 34.5 million.", cash, q).status == "derived"  # (395+343)/2 - (343+326)/2
    # no row named: no means of any three cells of a small table
    prices = {"columns": ["", "Low", "High"], "rows": [
        ["First Quarter", "$ 5.99", "$ 8.40"], ["Second Quarter", "$ 4.79", "$ 6.48"],
        ["Third Quarter", "$ 2.66", "$ 4.63"], ["Fourth Quarter", "$ 1.88", "$ 3.39"]]}
    assert only("The answer is 4.83.", prices, "What is the average quarterly low price in 2018?").status == "unsupported"


def test_a_zero_divisor_is_no_result_and_no_error():
    zeros = {"columns": ["Segment", "2019"], "rows": [["A", "0"], ["B", "0"], ["Total", "0"], ["C", "5"]]}
    item = only("The answer is 12.5%.", zeros, "What is the proportion of A and B over the total in 2019?")
    assert item.status == "unsupported"
    cells = [Cell(Decimal(v), i, i, 0) for i, v in enumerate(["0", "0", "0", "5"])]
    hit, spent = search([(cells, [Target(Decimal(1), Decimal("0.005"), False, False, Decimal("0.25"))])],
                        ("ratio", "percent_change"), accept, accept)
    assert hit is None and spent == 0.0


def test_a_sum_of_amounts_is_no_percentage():
    tools = {"columns": ["", "2019", "2018", "2017"], "rows": [["Fees", "10.0", "12.5", "14.0"]]}
    question = "What is the total fees from 2017 to 2019?"
    assert only("The answer is 36.5.", tools, question).status == "derived"
    assert only("The answer is 36.5%.", tools, question).status == "unsupported"


def test_a_hit_is_not_believed_once_earlier_searches_spent_the_budget():
    # "the change between 2018 and 2019 average": the single-step searches over the
    # named row come first; their chances count against the longer expressions' hit
    from verifier.derive.chance import Chances
    from verifier.derive.longer import compound_hit
    from verifier.derive.operands import groups_of
    from verifier.extract import extractor
    from verifier.index.haystack import Haystack

    hay = Haystack(CASH)
    mention = next(m for m in extractor("en_US", ()).extract("The answer is 547.5 million.") if m.num_forms)
    chances = Chances(hay, mention)
    rows = [g for g in groups_of(hay) if g.kind == "record" and hay.path(g.leaves[0]).startswith("$.rows[2]")]
    assert compound_hit(mention, hay, [], rows[:1], ("mean", "difference"), 0.1, chances, None) is not None
    chances = Chances(hay, mention)
    chances.spent = 0.2
    assert compound_hit(mention, hay, [], rows[:1], ("mean", "difference"), 0.1, chances, None) is None
    assert chances.refused


def test_runs_summed_or_averaged_stop_at_a_total_or_subtotal():
    # one column: two items, their subtotal, three items, the total. A run never takes
    # a total in (everything counted twice) nor crosses it (two sections mixed)
    from verifier.derive.compound import _means, _totals
    values = [("10", False), ("20", False), ("30", True), ("40", False), ("50", False), ("60", False), ("180", True)]
    cells = [Cell(Decimal(v), leaf=i, row=i, column=1, total_row=closing) for i, (v, closing) in enumerate(values)]
    sums = {f.result for f in _totals(cells)}
    assert Decimal(150) in sums  # 40 + 50 + 60
    assert not sums & {Decimal(60), Decimal(90), Decimal(110)}  # 10 + 20 + 30, 20 + 30 + 40, 20 + 40 + 50
    means = {f.result for f in _means(cells)}
    assert Decimal(50) in means and Decimal(30) not in means  # (20 + 30 + 40) / 3 takes the subtotal in
    # along a row, the cell under a "Total" column is left out
    row = [Cell(Decimal(v), leaf=10 + i, row=0, column=i, total_column=i == 4) for i, v in enumerate(
        ["100", "110", "120", "160", "490"])]
    assert Decimal(490) in {f.result for f in _totals(row)}  # the four quarters, not five cells
    assert Decimal(980) not in {f.result for f in _totals(row)}
