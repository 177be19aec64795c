"""The question read once (``verifier.question.question``): what it names, and the
stages reading it from the State rather than from the raw text."""

from __future__ import annotations

from verifier import Policy
from verifier.extract import extractor
from verifier.index.haystack import Haystack
from verifier.pipeline import run
from verifier.question.question import read_question
from verifier.state import State
from verifier.text.sentences import content_words

EX = extractor()
TABLE = {"table": {"columns": ["(In thousands)", "2019", "2018"], "rows": [
    ["Revenue", "12,640", "11,210"], ["Cost of sales", "7,150", "6,980"]]}}
UP_TO_CELLS = ("extract", "match", "question", "cells")


def _stem(word: str) -> str:
    return content_words(word)[0]


def test_a_computation_over_two_years():
    q = read_question("What was the change in revenue from 2018 to 2019?", EX)
    assert _stem("revenue") in q.words and not {"2018", "2019"} & q.words
    assert q.naming == q.words | {"2018", "2019"}  # rows are named by words and by years
    assert [year for year, _ in q.periods] == [2018, 2019]
    assert q.computes and not q.respective and "difference" in q.cues


def test_values_listed_respectively_are_no_computation():
    q = read_question("What were revenue and cost in 2017 and 2018, respectively?", EX)
    assert q.respective and not q.computes
    assert [year for year, _ in q.periods] == [2017, 2018]


def test_tickers_quarters_and_defined_terms():
    q = read_question("Compare AAPL and MSFT in Q3 2023", EX)
    assert [m.value for m in q.tickers] == ["AAPL", "MSFT"]
    assert q.periods == ((2023, 3),)
    terms = read_question("What is the Days Payable Outstanding (DPO) in FY2022?", EX).defined_terms
    assert terms == {"DPO"}


def test_the_figures_it_states_and_one_reading_per_question():
    q = read_question("What would 25,000 CHF be in euros?", EX)
    assert [m.text for m in q.mentions] == ["25,000 CHF"] and q.periods == ()
    assert read_question("What would 25,000 CHF be in euros?", EX) is q


def _cells_state(question: str | None) -> State:
    return State("The answer is 7,150.", Haystack(TABLE), "en_US", Policy(), question)


def test_the_question_stage_puts_the_question_on_the_state():
    state = run(_cells_state("What was the revenue in 2019?"), only=("question",))
    assert state.asked == read_question("What was the revenue in 2019?", EX)
    assert run(_cells_state(None), only=("question",)).asked is None


def test_the_cells_stage_reads_the_question_from_the_state():
    state = run(_cells_state("What was the revenue in 2019?"), only=UP_TO_CELLS)
    assert state.matched[0][1].status == "misattributed"  # the cost row, asked about revenue
    # the same call with the question read as another one: the cells stage follows it
    state = run(_cells_state("What was the revenue in 2019?"), only=UP_TO_CELLS[:3])
    state.asked = read_question("What was the cost of sales in 2019?", EX)
    run(state, only=("cells",))
    assert state.matched[0][1].status == "exact"
