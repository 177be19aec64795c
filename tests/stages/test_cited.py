"""The cited stage: a value computed from figures its own sentence states."""

from __future__ import annotations

import pytest

from verifier import verify

PORTFOLIO = [{"name": "p", "output": {"positions": [{"symbol": "SCHD", "market_value": 48000}],
                                      "account": {"equity": 160000}}}]
OPTION = [{"name": "q", "output": {"symbol": "X", "price": 84.90, "breakeven": 88.40}}]
FX = [{"name": "fx", "output": {"base": "CHF", "rates": {"EUR": 1.0791}}}]


def _item(answer, tools, text, locale="en_US"):
    return next(i for i in verify(answer, tools, locale=locale, judge=False).items if i.text == text)


@pytest.mark.parametrize(("answer", "tools", "text", "expression"), [
    ("SCHD is $48,000 of your $160,000 account, or 30%.", PORTFOLIO, "30%", "$48,000 / $160,000"),
    ("Breakeven is $88.40, about 4.1% above the current $84.90.", OPTION, "4.1%", "($88.40 - $84.90) / $84.90"),
    ("Breakeven is $88.40, $3.50 above the current $84.90.", OPTION, "$3.50", "$88.40 - $84.90"),
])
def test_a_value_its_sentence_computes_is_derived_from_the_figures_it_states(answer, tools, text, expression):
    item = _item(answer, tools, text)
    assert item.status == "derived" and item.expression == expression and len(item.evidence) == 2


@pytest.mark.parametrize(("answer", "tools", "text"), [
    ("Breakeven is $88.40, down 4.1% from the current $84.90.", OPTION, "4.1%"),  # the sign said is wrong
    ("SCHD is $48,000 of your $160,000 account, or 35%.", PORTFOLIO, "35%"),
    ("SCHD is $48,000 of your $160,000 account, or 3%.", PORTFOLIO, "3%"),  # one digit: any pair gives one
    # a rate quoted in the currency times an amount in it is no conversion: the fault stays flagged
    ("At 1 CHF = 1.0791 EUR, EUR 8'400 costs CHF 9'064.44.", FX, "CHF 9'064.44"),
])
def test_a_value_no_pair_of_its_figures_gives_in_a_fitting_unit_stays_unsupported(answer, tools, text):
    assert _item(answer, tools, text, locale="de_CH").status == "unsupported"


def test_the_sentence_before_lends_its_figures_and_an_unsigned_share_is_no_fall():
    dividend = [{"name": "d", "output": {"dividend": 16.60}}, {"name": "q", "output": {"price": 371.20}}]
    item = _item("Die Dividende beträgt 16,60 €. Beim Kurs von 371,20 € sind das 4,47 %.", dividend, "4,47 %",
                 locale="de_DE")
    assert item.status == "derived" and item.expression == "16,60 € / 371,20 €"
    volumes = [{"name": "v", "output": {"avg_3m": 2240000, "avg_10d": 3100000, "short": 19500000}}]
    # (2.24 - 3.1) / 3.1 is -27.7%: no "28% of the float"
    assert _item("Volume was 2.24 million, 3.1 million lately. Short interest is 28% of the float.", volumes,
                 "28%").status == "unsupported"
