"""The candidates stage: an unsupported or drift number gets the data's nearest figures
of its kind and unit (its entity's first), in the report, the retry hint and nowhere
else; and it stays cheap on a 100,000-leaf haystack."""

from __future__ import annotations

import json
import random
import string
import time

import pytest

from verifier import Haystack, Report, pipeline, verify
from verifier.stages import candidates

QUOTE = [{"name": "get_quote", "output": {
    "symbol": "AAPL", "price": 142.3, "open": 139.0, "high": 145.9, "change_pct": 1.43, "volume": 2236000,
    "revenue_millions": 39331, "fiscal_year": 2025}}]
TWO = [{"name": "get_quotes", "output": [
    {"symbol": "AAPL", "price": 142.3, "change_pct": 1.43},
    {"symbol": "MSFT", "price": 142.75, "change_pct": 1.48}]}]


def _item(report: Report, text: str):
    return next(i for i in report.items if i.text == text)


def test_the_nearest_field_comes_first_with_its_path_raw_text_and_distance():
    report = verify("AAPL trades at $142.80.", QUOTE, judge=False)
    item = _item(report, "$142.80")
    assert item.status == "unsupported"
    first = item.candidates[0]
    assert (first.path, first.tool, first.tool_index, first.raw, first.value) == (
        "$.price", "get_quote", 0, "142.3", "142.3")
    assert first.difference == "-0.0035" and first.scope == "entity"  # (142.3 - 142.8) / 142.8
    # closest first; the volume, a percentage and the fiscal year are no amounts near $142.80
    assert [c.path for c in item.candidates] == ["$.price", "$.high", "$.open"]
    assert "the data has 142.3 at $.price in get_quote" in report.warnings.retry_hint


def test_the_same_entity_is_preferred_over_a_closer_value_of_another():
    aapl = _item(verify("AAPL trades at $142.80.", TWO, judge=False), "$142.80")
    assert [c.path for c in aapl.candidates] == ["$[0].price"]  # MSFT's 142.75 is closer, and not AAPL's
    msft = _item(verify("MSFT trades at $142.20.", TWO, judge=False), "$142.20")
    assert [c.path for c in msft.candidates] == ["$[1].price"]
    assert all(c.scope == "entity" for c in aapl.candidates + msft.candidates)


def test_a_supported_item_has_none_and_the_json_does_not_change():
    report = verify("AAPL trades at $142.30, up 1.43%.", QUOTE, judge=False)
    assert all(not i.candidates for i in report.items)
    assert "candidates" not in report.model_dump_json()  # left out when empty, not []
    assert "candidates" not in json.dumps(report.model_dump(mode="json"))


def test_percentages_match_percentages_in_the_data_unit_and_amounts_scale():
    report = verify("AAPL rose 1.5% to $142.30; revenue was $41.2 billion.", QUOTE, judge=False)
    pct = _item(report, "1.5%")
    assert [(c.path, c.raw, c.value) for c in pct.candidates] == [("$.change_pct", "1.43", "0.0143")]
    revenue = _item(report, "$41.2 billion")
    assert revenue.status == "unsupported"
    assert [(c.path, c.value) for c in revenue.candidates] == [("$.revenue_millions", "39331000000")]
    assert revenue.candidates[0].difference == "-0.0454"


def test_a_figure_far_off_or_of_another_currency_is_no_candidate():
    assert _item(verify("AAPL trades at $14.23.", QUOTE, judge=False), "$14.23").candidates == []
    euro = [{"name": "q", "output": {"symbol": "SAP", "currency": "EUR", "price": 142.3}}]
    assert _item(verify("SAP trades at $142.80.", euro, judge=False), "$142.80").candidates == []
    assert _item(verify("SAP trades at €142.80.", euro, judge=False), "€142.80").candidates[0].path == "$.price"


def test_a_drift_names_the_figure_it_rounds_once():
    report = verify("AAPL revenue was $39.3 billion.", QUOTE, judge=False)
    item = _item(report, "$39.3 billion")
    assert item.status == "drift" and item.candidates[0].path == item.evidence[0].path == "$.revenue_millions"
    line = next(x for x in report.warnings.retry_hint.splitlines() if "$39.3 billion" in x)
    assert "the tool result says 39331 at $.revenue_millions" in line and "the data has" not in line


def test_without_an_entity_the_sentence_s_record_is_searched():
    tools = [{"name": "t", "output": {"quote": {"last": 142.3, "open": 139.0},
                                      "peer_quote": {"last": 142.75, "open": 140.0}}}]
    item = _item(verify("It opened at $139.00 and last traded at $142.80.", tools, judge=False), "$142.80")
    assert [(c.path, c.scope) for c in item.candidates] == [("$.quote.last", "record"), ("$.quote.open", "record")]


def test_a_table_row_over_periods_is_no_record_to_search():
    rows = {"columns": ["Item", "2019", "2018"], "rows": [["Revenue", 1210.4, 1100.2], ["Cost", 640.5, 610.0]]}
    report = verify("Revenue was 1,210.4 in 2019 and cost 655.0.", [{"name": "t", "output": rows}], judge=False)
    item = _item(report, "655.0")  # Revenue's 2018 figure is no cost: the table's nearest figure is
    assert [(c.path, c.scope) for c in item.candidates] == [
        ("$.rows[1][1]", "tool"), ("$.rows[1][2]", "tool"), ("$.rows[0][2]", "tool")]


def test_the_report_round_trips_with_candidates():
    report = verify("AAPL trades at $142.80.", QUOTE, judge=False)
    assert Report.model_validate_json(report.model_dump_json()) == report
    assert '"candidates":[{"tool":"get_quote"' in report.model_dump_json()


def test_the_stage_runs_after_derive_and_before_the_judge():
    names = [name for name, _ in pipeline.STAGES]
    assert names.index("derive") < names.index("candidates") < names.index("judge")


def _name(i: int) -> str:
    letters = ""
    for _ in range(4):
        letters, i = letters + string.ascii_uppercase[i % 26], i // 26
    return letters


def test_a_100k_leaf_haystack_stays_cheap(monkeypatch: pytest.MonkeyPatch):
    rng = random.Random(7)
    rows = [{"symbol": _name(i), "price": round(rng.uniform(10, 500), 2), "volume": rng.randint(10**5, 10**7),
             "change_pct": round(rng.uniform(-5, 5), 2)} for i in range(25_000)]
    tools = [{"name": "screen", "output": {"rows": rows}}]
    spent: list[float] = []

    def timed(state):
        start = time.perf_counter()
        candidates.run(state)
        spent.append(time.perf_counter() - start)
    monkeypatch.setattr(pipeline, "STAGES", tuple((n, timed if n == "candidates" else f) for n, f in pipeline.STAGES))
    # three decimals: no 2-decimal figure of the data is (or rounds to) them
    move = abs(rows[42]["change_pct"]) + 0.004
    answer = f"{_name(42)} trades at ${rows[42]['price'] + 0.004:.3f}, moving {move:.3f}%. {_name(77)} is at $987.65."
    start = time.perf_counter()
    hay = Haystack(tools)
    report = verify(answer, haystack=hay, judge=False)
    total = time.perf_counter() - start
    assert len(hay) == 100_000
    price = next(i for i in report.items if i.text.startswith("$") and i.start < 30)
    assert price.candidates[0].path == "$.rows[42].price"  # its entity's, among 25,000 prices
    assert [c.path for c in _item(report, f"{move:.3f}%").candidates] == ["$.rows[42].change_pct"]
    assert spent[0] < 0.25 * total, (spent, total)  # the first answer pays for the index
    again = verify(answer.replace(f"{move:.3f}%", f"{move + 0.01:.3f}%"), haystack=hay, judge=False)
    assert _item(again, f"{move + 0.01:.3f}%").candidates[0].path == "$.rows[42].change_pct"
    assert spent[1] < 0.05, spent  # later answers over the same haystack: a bisect each
