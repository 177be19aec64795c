"""The one sentence and clause splitter: sentence starts and spans, clause breaks, the
clause a word stands in (with its options), and the data's prose clauses."""

import pytest

from verifier.text.splitter import (
    clause_spans,
    clause_tail,
    data_clauses,
    scope_starts,
    sentence_around,
    sentence_bounds,
    sentence_spans,
    sentence_starts,
)


def _sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text)]


@pytest.mark.parametrize(("text", "expected"), [
    ("Apple Inc. rose 2%. Dell fell.", ["Apple Inc. rose 2%.", "Dell fell."]),
    # "No. 5" goes on; "No." before a word is an answer that ends there
    ("It ranks No. 5 in the index. No. LULU missed.", ["It ranks No. 5 in the index.", "No.", "LULU missed."]),
    ("Paid on Sept. 30 and Dec. 31. Then more.", ["Paid on Sept. 30 and Dec. 31.", "Then more."]),
    ("It closed in May. Then it rose.", ["It closed in May.", "Then it rose."]),
    ("Exports fell.[1][2] AMD said so.", ["Exports fell.[1][2]", "AMD said so."]),
    ("One\n\n  Two\u2029Three", ["One", "Two", "Three"]),
])
def test_sentences_end_at_full_stops_but_not_after_abbreviations(text, expected):
    assert _sentences(text) == expected


def test_bounds_cover_the_text_and_spans_are_its_trimmed_sentences():
    text = "  One.  Two!\n\n Three?  "
    bounds = sentence_bounds(text)
    assert "".join(text[a:b] for a, b in bounds) == text
    assert [a for a, _ in bounds] == sentence_starts(text)
    assert [text[a:b] for a, b in sentence_spans(text)] == ["One.", "Two!", "Three?"]
    assert sentence_spans("  \n ") == []


def test_the_sentence_around_a_span():
    text = "AMD rose 3%. NVDA fell 2%. Done."
    at = text.index("2%")
    assert sentence_around(text, at, at + 2) == "NVDA fell 2%. "


@pytest.mark.parametrize(("sentence", "clauses"), [
    ("ASML is 3.41% and Novo Nordisk is 2.26%", ["ASML is 3.41% and ", "Novo Nordisk is 2.26%"]),
    ("charged $75; partial transfers are free", ["charged $75;", " partial transfers are free"]),
    ("SAP stieg um 2% und Siemens fiel", ["SAP stieg um 2% und ", "Siemens fiel"]),
    ("Sales rose, compared with a year ago", ["Sales rose, compared with ", "a year ago"]),
    ("Brand-new standalone text", ["Brand-new standalone text"]),
])
def test_clauses_break_at_semicolons_and_conjunctions(sentence, clauses):
    assert [sentence[a:b] for a, b in clause_spans(sentence)] == clauses


def test_scopes_begin_at_every_sentence_and_every_clause():
    text = "AMD rose 3% and NVDA fell 2%. Dell held."
    assert scope_starts(text) == [0, text.index("NVDA"), text.index("Dell")]


def test_the_clause_a_word_stands_in_looks_back_to_the_last_clause_end():
    assert clause_tail("Revenue rose. Net loss of") == "Net loss of"
    assert clause_tail("Yield: down") == "down"
    assert clause_tail("no end here") == "no end here"
    # commas end a clause only when asked
    assert clause_tail("profit rose, a loss of") == "profit rose, a loss of"
    assert clause_tail("profit rose, a loss of", commas=True) == "a loss of"
    # markdown between the mark and the space, and a bare line break, count unless told not to
    assert clause_tail("**up 5%.** fell") == "fell"
    assert clause_tail("**up 5%.** fell", markup=False) == "**up 5%.** fell"
    assert clause_tail("(down 5 bp)\n- 10-year") == "- 10-year"
    assert clause_tail("(down 5 bp)\n- 10-year", line_breaks=False) == "(down 5 bp)\n- 10-year"


def test_data_clauses_cut_at_semicolons_and_before_a_capital():
    text = "Revenue was $5 in fiscal 2019; $4 in 2018. Costs (net) rose. e.g. lower. Acme Inc. The end"
    clauses = data_clauses(text)
    assert [c for _, c in clauses] == ["Revenue was $5 in fiscal 2019;", " $4 in 2018.",
                                       " Costs (net) rose. e.g. lower.", " Acme Inc.", " The end"]
    assert all(text[start:start + len(c)] == c for start, c in clauses)
    # unlike the sentence splitter, no abbreviation list: "Inc. The" is cut
    assert len(sentence_starts("Acme Inc. The end")) == 1
