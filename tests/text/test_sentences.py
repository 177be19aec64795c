"""Sentences, citation markers, the sources they name, and content-word overlap."""

import json

import pytest

from tests.conftest import SCENARIOS
from verifier import Haystack, verify
from verifier.text.sentences import content_words, sources, split, stem

NEWS = json.loads((SCENARIOS / "17_news_quotes.json").read_text())


def test_markers_after_the_full_stop_belong_to_the_sentence_before():
    text = "Revenue rose 12%. [1] Margins held at 40% [2, 3]. Costs fell [^4][5]."
    got = [(s.text, s.citations) for s in split(text)]
    assert got == [("Revenue rose 12%. [1]", (1,)), ("Margins held at 40% [2, 3].", (2, 3)),
                   ("Costs fell [^4][5].", (4, 5))]


def test_ranges_abbreviations_decimals_and_dotted_tickers_do_not_break_sentences():
    text = "Apple Inc. and BRK.B rose 3.2% vs. peers, e.g. MSFT [1-3]. Next one."
    sentences = split(text)
    assert len(sentences) == 2 and sentences[0].citations == (1, 2, 3)
    assert sentences[1].text == "Next one."


def test_spans_cover_the_text_they_claim():
    text = "One [1].  Two [2]!\n\nThree?"
    for s in split(text):
        assert text[s.start:s.end] == s.text


def test_a_citation_names_the_nth_tool_or_the_nth_record_of_a_single_tool():
    single = Haystack(NEWS["tool_results"])
    assert sources(single, 2).label == "search_news $.results[1]"
    assert sources(single, 9) is None
    many = Haystack([{"name": "a", "output": {"x": 1}}, {"name": "b", "output": {"x": 2}}])
    assert sources(many, 2).label == "b" and sources(many, 3) is None
    by_id = Haystack([{"name": "a", "id": "2", "output": {}}, {"name": "b", "id": "1", "output": {}}])
    assert sources(by_id, 1).label == "b"


@pytest.mark.parametrize(("a", "b"), [("warned", "warning"), ("tariffs", "tariff"), ("Nike's", "nike"),
                                      ("companies", "company")])
def test_stems_meet_inflections(a, b):
    assert stem(a) == stem(b)


def test_content_words_leave_out_function_words_and_skipped_spans():
    assert content_words("The company is making real progress in 2026", [(36, 40)]) == [
        "company", "mak", "real", "progress"]


def test_the_clean_news_answer_has_its_cited_sentences_above_the_threshold():
    answer = NEWS["answers"][0]["text"]
    report = verify(answer, NEWS["tool_results"])
    cited = [s for s in report.sentences if s.citations]
    assert [s.citations for s in cited] == [[1], [2], [3]]
    assert all(s.overlap >= 0.7 and not s.flagged for s in cited)
    assert cited[0].sources == ["search_news $.results[0]"]


def test_a_cited_sentence_that_adds_claims_is_flagged_low_overlap():
    tools = NEWS["tool_results"]
    answer = "Bloomberg said Nike will open forty flagship megastores across Asia next winter [2]."
    report = verify(answer, tools)
    (sentence,) = report.sentences
    assert sentence.flagged and sentence.overlap < 0.7
    (note,) = [n for n in report.notes if n.kind == "low_overlap"]
    assert note.flagged and "search_news $.results[1]" in note.message
    assert report.confidence != "high"


def test_a_value_cited_to_the_wrong_source_is_misattributed():
    tools = [{"name": "get_quote", "output": {"symbol": "NKE", "price": 71.2}},
             {"name": "get_news", "output": {"headline": "Nike shares slip as tariffs bite"}}]
    report = verify("NKE trades at $71.20 [2].", tools)
    item = next(i for i in report.items if i.text == "$71.20")
    assert item.status == "misattributed" and "[2] (get_news)" in item.reason
    assert item.evidence[0].tool == "get_quote"
    assert verify("NKE trades at $71.20 [1].", tools).items[1].status == "normalized"


def test_a_citation_to_nothing_is_a_flagged_note():
    report = verify("NKE trades at $71.20 [4].", [{"name": "get_quote", "output": {"symbol": "NKE", "price": 71.2}}])
    (note,) = report.notes
    assert note.kind == "unknown_citation" and note.flagged and "[4]" in note.message
    assert report.confidence == "medium"


@pytest.mark.parametrize(("text", "count"), [
    ("Made in the U.S. by Apple Inc. at 9 a.m. on Jan. 5, revenue rose.", 1),
    ("Der Umsatz stieg um 5 Mrd. Euro, z. B. in Asien.", 1),
    ("One\u2028Two.", 2),
])
def test_abbreviations_do_not_end_sentences_and_line_separators_do(text, count):
    assert len(split(text)) == count


def test_a_citation_glued_to_the_full_stop_closes_its_sentence():
    got = [(s.text, s.citations) for s in split("Nvidia took a charge on exports.[1] AMD said so too.[2]")]
    assert got == [("Nvidia took a charge on exports.[1]", (1,)), ("AMD said so too.[2]", (2,))]


def test_a_very_long_range_is_not_a_citation():
    assert split("See [1-100] for details.")[0].citations == ()
