"""Signs: a word of rising rules out a negative field for an amount too; a page's
parenthesised figure keeps its statement's convention; directions read in German,
French, Spanish and Italian."""

from __future__ import annotations

import pytest

from verifier import verify
from verifier.extract import extract

QUOTE = [{"name": "q", "output": {"symbol": "AAPL", "price": 236.47, "change": -3.18, "previousClose": 239.65}}]


def _item(answer, tools, text, locale="en_US"):
    return next(i for i in verify(answer, tools, locale=locale, judge=False).items if i.text == text)


def test_an_amount_said_to_rise_is_not_a_negative_field():
    item = _item("AAPL is at $236.47, up $3.18 from yesterday's close of $239.65.", QUOTE, "$3.18")
    assert item.flagged and "opposite sign" in item.reason
    assert not _item("AAPL is at $236.47, down $3.18 from yesterday's close.", QUOTE, "$3.18").flagged
    assert not _item("AAPL is at $236.47, a change of $3.18 on the day.", QUOTE, "$3.18").flagged  # no direction


def test_a_pages_parenthesised_figure_keeps_its_lines_convention():
    page = [{"name": "page", "output": {"text": "Other (income)/deductions--net (8,107) 2,116"}}]
    assert not _item("The transaction resulted in a gain of $8,107 million.", page, "$8,107 million").flagged


@pytest.mark.parametrize(("text", "locale", "direction"), [
    ("ein Plus von 1,40 €", "de_DE", 1),
    ("ein Minus von 1,40 €", "de_DE", -1),
    ("en baisse de 1,2 %", "fr_FR", -1),
    ("en hausse de 1,2 %", "fr_FR", 1),
    ("el paro subió un 0,3 %", "es_ES", 1),
    ("in calo del 2,1%", "it_IT", -1),
    ("remonte à 2,3 %", "fr_FR", 0),  # "à": a level, not a change
    ("stieg auf 4,1 %", "de_DE", 0),
])
def test_directions_in_other_languages(text, locale, direction):
    figures = [m for m in extract(text, locale=locale) if m.num_forms]
    assert [m.direction for m in figures] == [direction]


def test_a_raw_floats_tail_is_no_drift_but_a_displayed_figure_rounded_further_is():
    positions = [{"name": "p", "output": [{"symbol": "NVDA", "unrealized_plpc": "0.3034483", "rate": "18.42150000",
                                           "ytm": 4.067}]}]
    assert not _item("NVDA is up +30.34% on the position.", positions, "+30.34%").flagged
    assert _item("The rate is 18.42 pesos per dollar.", positions, "18.42").status == "drift"  # 18.4215, padded
    assert _item("The yield is 4.07%.", positions, "4.07%").status == "drift"  # 4.067 as displayed
    assert _item("NVDA is up 30% on the position.", positions, "30%").status == "drift"  # too coarse to be a display
