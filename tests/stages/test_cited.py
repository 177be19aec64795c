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


def _report(answer, tools, question=None, locale="en_US"):
    return {i.text: i for i in verify(answer, tools, question=question, locale=locale, judge=False).items}


CABLE = [{"name": "fx", "output": {"pair": "GBPUSD", "bid": 1.3244, "ask": 1.3246}}]


def test_an_amount_converts_by_a_plain_rate_into_the_currency_the_answer_names():
    items = _report("At the 1.3244 bid, £50,000 converts to $66,220.", CABLE,
                    question="How much would £50,000 get me in dollars?")
    assert items["$66,220"].status == "derived" and items["$66,220"].expression == "£50,000 * 1.3244"
    wrong = _report("At the 1.3244 bid, £50,000 converts to $66,820.", CABLE,
                    question="How much would £50,000 get me in dollars?")
    assert wrong["$66,820"].flagged


def test_the_questions_figures_are_operands_and_derived_values_feed_later_ones():
    dividend = [{"name": "d", "output": {"dividend_per_share": 3.1, "withholding_tax_rate": 0.35}}]
    answer = ("Die Dividende beträgt CHF 3.10 je Aktie. Brutto sind das CHF 3'875.00.\n\n"
              "Nach 35 % Verrechnungssteuer bleiben netto CHF 2'518.75.")
    items = _report(answer, dividend, question="Wie viel Dividende bekomme ich für meine 1'250 Aktien?",
                    locale="de_CH")
    assert items["CHF 3'875.00"].status == "derived"  # 1'250 (the question's) * CHF 3.10
    assert items["CHF 2'518.75"].status == "derived"  # CHF 3'875.00 (derived above) less 35 %
    assert items["CHF 2'518.75"].expression == "CHF 3'875.00 less 35 %"


def test_a_hedged_value_rounds_the_exact_figure_its_sentence_gives():
    fx = [{"name": "fx", "output": {"rates": {"USD": 1.1642, "CHF": 0.9267}}}]
    answer = ("Zum Kurs von 1 EUR = 1,1642 USD sind 25.000 US-Dollar 21.473,97 €.\n\n"
              "In Franken (1 EUR = 0,9267 CHF) sind das rund 19.900 CHF (genau 19.899,93 CHF).")
    items = _report(answer, fx, question="Wie viel sind 25.000 US-Dollar in Euro und Franken?", locale="de_DE")
    assert not items["19.900 CHF"].flagged and not items["19.899,93 CHF"].flagged


def test_figures_of_other_lines_are_no_operands_of_a_value():
    bars = [{"name": "bars", "output": {"open": 182.40, "high": 186.95, "low": 180.12, "last": 185.22}}]
    answer = "- Open: $182.40\n- High: $186.95\n- Low: $180.12\n- Last: $185.22, up $2.28 from the open"
    item = _report(answer, bars)["$2.28"]  # 182.40 - 180.12 is a coincidence of other lines
    assert "figures the answer states" not in item.reason  # (the data search may still find it)


def test_a_figure_in_its_currencys_sub_unit_is_the_same_figure():
    futures = [{"name": "f", "output": {"contracts": [{"symbol": "ZSF27", "last": 1087.5}]}}]
    assert _report("Soybeans 1,087.5¢, i.e. about $10.88 a bushel.", futures)["$10.88"].status == "derived"
    assert _report("Soybeans 1,087.5¢, i.e. about $10.98 a bushel.", futures)["$10.98"].flagged


def test_a_total_is_the_sum_of_the_figures_listed_before_it():
    holdings = [{"name": "h", "output": {"holdings": [{"symbol": s, "weight_pct": w} for s, w in
                                                      [("NVDA", 7.82), ("MSFT", 6.71), ("AAPL", 6.54),
                                                       ("AMZN", 3.98), ("META", 2.91)]]}}]
    listed = "1. NVDA 7.82%\n2. MSFT 6.71%\n3. AAPL 6.54%\n4. AMZN 3.98%\n5. META 2.91%\n\n"
    assert _report(listed + "Together the top five are 27.96% of the fund.", holdings)["27.96%"].status == "derived"
    assert _report(listed + "Together the top five are 28.96% of the fund.", holdings)["28.96%"].flagged


def test_a_figure_said_to_be_annualized_is_one_of_its_sentence_times_the_periods_in_a_year():
    dividend = [{"name": "d", "output": {"dividend": 1.6, "frequency": "quarterly"}}]
    assert _report("A dividend of $1.60 quarterly ($6.40 annualized).", dividend)["$6.40"].status == "derived"
    assert _report("A dividend of $1.60 quarterly ($6.60 annualized).", dividend)["$6.60"].flagged
    assert _report("A dividend of $1.60 quarterly, $6.40 in total.", dividend)["$6.40"].flagged  # no word says so


def test_a_change_since_an_earlier_turn_is_a_figure_against_the_same_field_then():
    now = [{"name": "get_treasury_yields", "output": {"yields": {"2Y": 3.42, "10Y": 4.04}}}]
    then = [{"name": "get_treasury_yields", "output": {"yields": {"2Y": 3.47, "10Y": 4.08}}}]
    answer = "Yields fell since our last check:\n- 2-year: 3.42% (down 5 bp)\n- 10-year: 4.04% (down 4 bp)"

    def items(text: str, history=then):
        report = verify(text, now, history=history, judge=False)
        return [(i.text, i.status) for i in report.items if i.kind in ("basis_points", "percent")]

    assert items(answer) == [("3.42%", "exact"), ("5 bp", "derived"), ("4.04%", "exact"), ("4 bp", "derived")]
    assert ("5 bp", "derived") not in items(answer, history=None)  # no earlier turn, nothing to compare
    assert ("6 bp", "unsupported") in items(answer.replace("5 bp", "6 bp"))  # the wrong change
    assert ("5 bp", "unsupported") in items(answer.replace("down 5", "up 5"))  # the wrong direction


def test_a_mean_is_the_average_of_the_figures_listed_before_it_when_a_word_says_so():
    history = [{"name": "e", "output": {"history": [{"surprisePercent": s} for s in (0.018, 0.0332, 0.0461, 0.06)]}}]
    table = "| Quarter | Surprise |\n|---|---|\n| Q1 | +1.80% |\n| Q2 | +3.32% |\n| Q3 | +4.61% |\n| Q4 | +6.00% |\n\n"
    assert _report(table + "The average surprise is about 3.93%.", history)["3.93%"].status == "derived"
    assert _report(table + "The average surprise is about 4.93%.", history)["4.93%"].flagged
    assert _report(table + "The surprise is about 3.93%.", history)["3.93%"].flagged  # no word says it is a mean


BARS = [{"name": "bars", "output": {"results": [  # 30-minute bars: open, close, high, low
    {"o": o, "c": c, "h": h, "l": lo} for o, c, h, lo in [
        (182.4, 183.1, 183.55, 181.92), (183.1, 184.65, 184.9, 182.98), (184.65, 186.2, 186.95, 184.5),
        (186.2, 185.4, 186.3, 185.02), (185.4, 184.1, 185.5, 183.88), (182.75, 180.95, 183.1, 180.12),
        (180.95, 181.6, 182.05, 180.7), (183.85, 185.22, 185.3, 183.7)]]}}]
LISTED = ("- **Open:** $182.40\n- **Session high:** $186.95\n- **Session low:** $180.12\n"
          "- **Last:** $185.22, up {change} ({pct}) from the open")


def test_a_change_in_a_list_is_over_its_own_lines_figure_and_lends_its_operands_to_its_percentage():
    right = _report(LISTED.format(change="$2.82", pct="+1.55%"), BARS)
    assert right["$2.82"].status == "derived" and right["+1.55%"].status == "derived"
    # 182.40 - 180.12 is 2.28, but neither is the line's own figure: no accident of the list is taken
    assert _report(LISTED.format(change="$2.28", pct="+1.55%"), BARS)["$2.28"].flagged


def test_a_plain_number_restating_a_figure_of_its_block_without_its_scale_is_that_figure():
    income = [{"name": "i", "output": {"symbol": "MC.PA", "revenue": 82840000000, "operatingIncome": 17950000000}}]
    text = "Revenue was €82.84bn and operating income €17.95bn, a margin of 21.7% ({a} / 82.84)."
    assert _report(text.format(a="17.95"), income)["17.95"].status == "derived"
    assert _report(text.format(a="17.96"), income)["17.96"].flagged  # no figure of the block is 17.96


def test_review_cases_no_wrong_value_passes():
    # a change against another entity's earlier record is no change
    now = [{"name": "get_quote", "output": {"symbol": "AAPL", "price": 184.1}}]
    then = [{"name": "get_quote", "output": {"symbol": "MSFT", "price": 420}}]
    report = verify("AAPL is at $184.10 (down $235.90).", now, history=then, judge=False)
    assert next(i for i in report.items if i.text == "$235.90").flagged
    # a two-digit count is no restatement of "$45 billion"
    data = [{"name": "f", "output": {"revenue": 45e9, "analyst_count": 41}}]
    report = verify("Revenue was $45 billion. Of the 45 analysts covering it, most rate it a buy.", data, judge=False)
    assert next(i for i in report.items if i.text == "45").flagged
