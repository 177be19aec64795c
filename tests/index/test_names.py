"""Company names in the data: the words that stand for a record's ticker in text."""

from __future__ import annotations

from verifier import Haystack
from verifier.index.names import name_mentions, names

_TOOLS = [{"name": "quotes", "output": [
    {"symbol": "MSFT", "name": "Microsoft Corporation", "price": 410.2},
    {"symbol": "KO", "name": "The Coca-Cola Company", "price": 61.1},
    {"symbol": "NESN.SW", "name": "Nestlé S.A.", "price": 88.0}]}]


def test_first_significant_word_of_each_name_maps_to_its_ticker() -> None:
    assert names(Haystack(_TOOLS)) == {"microsoft": "MSFT", "coca-cola": "KO", "nestlé": "NESN.SW"}


def test_names_are_found_case_insensitively_at_word_boundaries() -> None:
    hay = Haystack(_TOOLS)
    text = "MICROSOFT rose; Coca-Cola fell, and microsofts is no name."
    assert name_mentions(hay, text) == [(0, "MSFT"), (16, "KO")]


def test_a_text_naming_no_company_finds_none_and_later_texts_still_match() -> None:
    hay = Haystack(_TOOLS)
    assert name_mentions(hay, "Shares rose 2% on the day.") == []  # the quick path: no name inside
    assert name_mentions(hay, "Nestlé slipped.") == [(0, "NESN.SW")]  # non-ASCII: the full pattern
    assert name_mentions(hay, "then microsoft") == [(5, "MSFT")]
