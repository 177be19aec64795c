"""Periods of figures in running text: lists paired by "respectively", "X in 2019"."""

from decimal import Decimal

import pytest

from verifier import Haystack, verify
from verifier.index.prose_periods import periods_of

SHARES = ("Potential shares from outstanding employee equity awards totaling 1 million, 1 million and "
          "6 million for fiscal 2019, 2018 and 2017, respectively, were excluded from diluted EPS.")
REGIONS = ("Revenue from sales into China accounted for 53%, 57%, and 51% of total revenue in 2019, 2018, "
           "and 2017, respectively; revenue from sales into the United States accounted for 11%, 12%, "
           "and 14% of total revenue in 2019, 2018, and 2017, respectively.")
RESALE = ("During fiscal 2017, 2018 and 2019 sales of Kyocera resale products by AVX were $318,928, $296,316 "
          "and $18,951, respectively, and related operating profit was $17,076, $18,177 and $3,300, respectively.")
DEPRECIATION = ("Depreciation expense totaled $290.2 million in 2019, $239.6 million in 2018 and "
                "$190.4 million in 2017.")

MATURITIES = ("Interest expense fell due to the maturities and repayments of $2.0 billion of senior notes during "
              "fiscal 2019 and $6.0 billion of senior notes during fiscal 2018.")

RECOGNIZED = ("For the years ended December 31, 2019, 2018 and 2017, the Company recognized $0.3 million, "
              "$0.9 million and $0.6 million, respectively of stock-based compensation expense.")


def periods(text: str, value: str) -> set[int] | None:
    hay = Haystack({"note": text})
    found = periods_of(hay, 0, frozenset({Decimal(value)}))
    return None if found is None else {year for year, _ in found}


@pytest.mark.parametrize(("text", "value", "years"), [
    (SHARES, "6E+6", {2017}),
    (SHARES, "1E+6", {2019, 2018}),       # the same figure for two periods
    (REGIONS, "0.14", {2017}),            # each "respectively" clause pairs its own list
    (REGIONS, "0.53", {2019}),
    (DEPRECIATION, "239.6E+6", {2018}),   # a figure followed by "in 2018"
    (MATURITIES, "6.0E+9", {2018}),        # "... of senior notes during fiscal 2018"
    (MATURITIES, "2.0E+9", {2019}),
    ("We issued $500 million of 2021 Notes in 2019.", "5E+8", None),  # a year that names the notes
    (RECOGNIZED, "9E+5", {2018}),          # the periods first, then the figures
    (RECOGNIZED, "6E+5", {2017}),
    ("In 2019, revenue rose 5% to $10 million.", "1E+7", None),  # no period beside it: unknown
    ("Revenue was $5 million and $6 million in 2019 and 2018, respectively, up 3%.", "0.03", None),
])
def test_figures_in_prose_take_the_period_the_text_gives_them(text, value, years):
    assert periods(text, value) == years


def test_every_respectively_list_of_a_clause_pairs_with_its_periods():
    text = RESALE
    hay = Haystack({"note": text})
    for value, year in (("318928", 2017), ("18951", 2019), ("17076", 2017), ("3300", 2019)):
        assert periods_of(hay, 0, frozenset({Decimal(value)})) == {(year, None)}, value
    # a figure after the last "respectively" is in no list: the clause pairs nothing
    hay = Haystack({"note": text[:-1] + ", and $5 million of other sales."})
    assert periods_of(hay, 0, frozenset({Decimal(318928)})) is None


def test_a_list_whose_figures_do_not_pair_with_its_periods_says_nothing():
    text = "Sales were $1 million, $2 million and $3 million in 2019 and 2018, respectively."
    assert periods(text, "1E+6") is None


def test_a_prose_figure_of_another_period_is_misattributed():
    tools = [{"name": "filing", "output": {"paragraphs": [SHARES]}}]
    report = verify("In fiscal 2019, 6 million potential shares were excluded.", tools)
    item = next(i for i in report.items if i.text == "6 million")
    assert item.status == "misattributed" and "the 2017 figure in $.paragraphs[0]" in item.reason
    assert verify("In fiscal 2017, 6 million potential shares were excluded.", tools).flagged == 0
    asked = verify("The answer is 6 million.", tools, question="What were the potential shares in 2019?")
    assert asked.items[0].status == "misattributed"
    assert verify("The answer is 1 million.", tools, question="What were the potential shares in 2019?").flagged == 0


def test_long_prose_evidence_is_quoted_by_its_start_in_reasons():
    tools = [{"name": "filing", "output": {"paragraphs": [SHARES]}}]
    item = verify("In fiscal 2019, 6 million potential shares were excluded.", tools).items[-1]
    assert "…' at $.paragraphs[0]" in item.reason and item.evidence[0].raw == SHARES


@pytest.mark.parametrize("text", [
    ("R&D expense was $12.1 million, or 8% of revenue, and $10.3 million, or 7% of revenue, for 2019 and 2018, "
     "respectively."),
    ("Revenue and operating income were $100 million and $20 million in 2019 and $90 million and $15 million "
     "in 2018, respectively."),
])
def test_figures_that_are_not_one_list_before_one_list_of_periods_get_none(text):
    assert periods(text, "0.08") is None and periods(text, "2E+7") is None


def test_a_year_that_names_something_else_is_not_the_figures_period():
    text = "During 2019, we repaid $500 million of 2021 Notes and $300 million in 2019."
    assert periods(text, "5E+8") is None and periods(text, "3E+8") == {2019}


def test_a_date_in_january_or_february_names_no_period_in_prose_either():
    text = "Total assets were $5.2 billion as of February 1, 2020 and $4.8 billion as of May 2, 2019."
    assert periods(text, "5.2E+9") is None and periods(text, "4.8E+9") == {2019}


def test_long_prose_is_quoted_around_the_figure():
    tools = [{"name": "filing", "output": {"paragraphs": [SHARES]}}]
    item = verify("The answer is 6 million.", tools).items[0]
    assert "and 6 million for fiscal" in item.reason and item.reason.startswith("found as written '…")


def test_periods_first_need_as_many_figures():
    text = "For 2019 and 2018, the Company recognized $0.3 million, $0.9 million and $0.6 million, respectively."
    assert periods(text, "3E+5") is None


def test_periods_first_pair_only_when_nothing_else_is_listed_after_the_figures():
    text = "In fiscal 2019 and 2018, the Company sold 1,200 and 800 units to Acme and Beta, respectively."
    assert periods(text, "1200") is None


@pytest.mark.parametrize(("text", "years", "expected"), [
    # a clause that opens with one date dates every figure in it, to the month
    ("In April 2019, we granted 346,453 PSUs. These vest at 75%.", {"2019"},
     [("346453", {"april", "2019"})]),
    ("During fiscal 2018 the Company issued $10.0 billion of notes.", {"2018"}, [("1.00E+10", {"2018"})]),
    # a figure followed by its year
    (DEPRECIATION, {"2018"}, [("239.6", {"2018"})]),
    # a list of years opening the clause dates nothing by itself; "respectively" pairs them
    (RECOGNIZED, {"2018"}, [("0.9", {"2018"})]),
    ("In April, we granted 346,453 PSUs in fiscal 2019 and beyond.", {"2019"}, []),  # which April?
    ("In April 2019, we granted 346,453 PSUs.", {"2018"}, []),  # only the asked years are read
    # the opening date covers the figures up to the clause's next date, not one that
    # date follows in its own phrase
    ("In 2019, we granted 300,000 PSUs, compared with 500,000 PSUs in 2018.", {"2019"}, [("300000", {"2019"})]),
    ("In April 2019, we granted 346,453 PSUs that vest by December 31, 2021.", {"2019"},
     [("346453", {"april", "2019"})]),
])
def test_dated_figures_of_running_text(text, years, expected):
    from verifier.index.prose_periods import dated_figures
    hay = Haystack({"note": text})
    found = [(d.forms, set(d.when)) for run in dated_figures(hay, 0, frozenset(years)) for d in run
             if d.when & years]
    assert len(found) == len(expected), found
    for (forms, when), (value, want) in zip(found, expected, strict=True):
        assert Decimal(value) in forms and when == want


def test_a_second_respectively_list_paired_with_its_own_items_takes_no_periods():
    text = ("During fiscal 2019 and 2018, net sales were $100.0 million and $90.0 million, respectively, "
            "of which the Americas and EMEA accounted for 60% and 40%, respectively.")
    assert periods(text, "0.40") is None and periods(text, "1.000E+8") == {2019}
    report = verify("EMEA accounted for 40% of net sales in fiscal 2019.", [{"name": "n", "output": {"note": text}}])
    assert report.items[0].status in ("exact", "normalized"), report.items[0].reason
    # a line item named with "and" is no list of its own
    text = ("During fiscal 2019 and 2018, net sales were $100.0 million and $90.0 million, respectively, and "
            "research and development expenses were $21.3 million and $18.6 million, respectively.")
    assert periods(text, "1.86E+7") == {2018} and periods(text, "9.00E+7") == {2018}
