"""Credit ratings: read on lines that speak of ratings, compared grade for grade (case
is the scale: Moody's Aa2 is no S&P AA), and a grade the data does not hold is flagged."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from verifier.normalizers import NormalizeError, ratings

from verifier import verify
from verifier.extract import extract

LETTER = ["AAA", "AA+", "AA", "AA-", "A+", "A-", "BBB+", "BBB", "BBB-", "BB+", "BB", "B+", "CCC+", "CC"]
MOODYS = ["Aaa", "Aa1", "Aa2", "Aa3", "A1", "A2", "A3", "Baa1", "Baa2", "Baa3", "Ba1", "B3", "Caa1", "Ca"]


@given(st.sampled_from(LETTER + MOODYS), st.sampled_from(["", " "]), st.sampled_from(["", "  "]))
def test_every_grade_round_trips_through_its_typeset_forms(grade, inner, outer):
    typeset = outer + (grade[:-1] + inner + grade[-1].replace("-", "−") if grade[-1] in "+-" else grade) + outer
    parsed = ratings.parse(typeset)
    assert parsed.grade == grade
    assert parsed.scale == ("moodys" if grade in MOODYS else "letter")
    assert ratings.canonical_forms(parsed) == (grade,)


@pytest.mark.parametrize("text", ["A", "B", "D", "AB", "AAAA", "Baa4", "aa", "BBB++", "Aa0"])
def test_what_is_no_grade_is_refused(text):
    assert not ratings.is_valid(text)
    with pytest.raises(NormalizeError):
        ratings.parse(text)


def test_dbrs_grades_keep_their_qualifier():
    assert ratings.parse("A(low)").grade == "A (low)"
    assert ratings.parse("AA (high)").grade == "AA (high)"


def test_a_grade_is_a_rating_only_where_the_line_or_column_speaks_of_ratings():
    found = [(m.text, m.kind) for m in extract("Fitch has them at AA-. Alcoa (AA) rose 3%.\nBBB rose 3%.")]
    assert ("AA-", "rating") in found
    assert ("AA", "rating") not in found  # the same line, but a ticker in parentheses after its name
    assert ("BBB", "rating") not in found  # a line that speaks of no rating
    table = "| Agency | Rating |\n|---|---|\n| Moody's | Baa2 |"
    assert [m.text for m in extract(table) if m.kind == "rating"] == ["Baa2"]
    assert not [m for m in extract("Sales in region B2 rose 3%.") if m.kind == "rating"]


BOND = [{"name": "bond", "output": {"cusip": "037833EZ9", "ratings": {"sp": "AA+", "moodys": "Aaa", "fitch": None}}}]


def test_grades_the_data_holds_pass_and_an_invented_one_is_flagged():
    report = verify("Rated AA+ by S&P and Aaa by Moody's; Fitch has them at AA-.", BOND, judge=False)
    statuses = {i.text: (i.kind, i.status) for i in report.items}
    assert statuses["AA+"] == ("rating", "exact")
    assert statuses["Aaa"] == ("rating", "exact")
    assert statuses["AA-"][0] == "rating" and report.items[-1].flagged
    assert report.confidence != "high"


def test_the_other_scales_grade_is_not_the_same_rating():
    report = verify("Moody's rates them AA+.", [{"name": "b", "output": {"moodys": "Aa1"}}], judge=False)
    assert [(i.text, i.flagged) for i in report.items] == [("AA+", True)]
