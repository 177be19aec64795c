"""Month names from Babel, and the readers that use them: label words, the data's
prose periods, and the sentence splitter's abbreviations."""

from verifier.index.prose_periods import MONTHS, when_words
from verifier.text.labels import label_words
from verifier.text.months import EXTRA_ABBREVIATIONS, MONTH_ABBREVIATIONS, MONTH_NAMES
from verifier.text.splitter import ABBREVIATIONS


def test_english_month_names_in_order():
    assert len(MONTH_NAMES) == len(MONTH_ABBREVIATIONS) == 12
    assert (MONTH_NAMES[0], MONTH_NAMES[8], MONTH_NAMES[11]) == ("January", "September", "December")
    assert (MONTH_ABBREVIATIONS[1], MONTH_ABBREVIATIONS[4], MONTH_ABBREVIATIONS[8]) == ("Feb", "May", "Sep")
    assert EXTRA_ABBREVIATIONS == {"Sept": "September"}
    assert MONTHS[3] == "april"


def test_month_names_and_days_are_no_label_words():
    assert label_words("Dec 28, 2019") == frozenset({"2019"})
    assert label_words("Sept 30 revenue") == label_words("September revenue") == frozenset({"revenue"})


def test_abbreviations_read_as_the_month_only_with_a_dot_or_a_number():
    assert when_words("Paid Sept. 30, 2019") == frozenset({"september", "2019"})
    assert when_words("Feb 2016 and May 2017") == frozenset({"february", "may", "2016", "2017"})
    assert when_words("APR rose; Inc/(Dec)") == frozenset()


def test_the_splitter_knows_every_month_abbreviation_but_may():
    assert {"Jan", "Sep", "Sept", "Dec"} <= set(ABBREVIATIONS)
    assert "May" not in ABBREVIATIONS
