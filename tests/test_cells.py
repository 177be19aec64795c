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


def test_no_row_check_when_two_rows_are_named_or_the_question_computes():
    assert status("The answer is 640.", "What were revenue and accrued expenses in 2019?")["640"][0] == "exact"
    assert status("The answer is 640.", "What was the change in revenue in 2019?")["640"][0] == "exact"


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
