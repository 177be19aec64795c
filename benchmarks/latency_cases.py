"""Synthetic inputs of the latency benchmarks (benchmarks.latency and its growth part): a
screener of any number of leaves, the derive stage's worst-case table, a positions list with
values given to the wrong ticker, and filing-page prose of any length. Each is built from
its arguments alone, so every run measures the same input."""

from __future__ import annotations

from typing import Any

from verifier import Haystack

_WORDS = ("Apex", "Blue", "Cedar", "Delta", "Echo", "Fair", "Grand", "Harbor", "Iron", "Jade",
          "Keystone", "Lumen", "Maple", "North", "Oak", "Pine", "Quartz", "River", "Summit", "Terra")


def _symbol(i: int) -> str:
    letters = ""
    for _ in range(4):
        letters += chr(ord("A") + i % 26)
        i //= 26
    return "X" + letters


def synthetic_tools(leaves: int) -> list[dict[str, Any]]:
    """A screener-shaped tool result with about ``leaves`` leaves (8 a row). Names are
    words, as in real screeners; strings with digits in them cost more to index (each
    is read for values), see BENCHMARKS.md."""
    rows = []
    for i in range(max(1, leaves // 8)):
        name = f"{_WORDS[i % 20]} {_WORDS[(i // 20) % 20]} {_WORDS[(i // 400) % 20]} Inc"
        rows.append({
            "symbol": _symbol(i), "name": name,
            "price": round(10 + (i * 7.31) % 900, 2), "change_pct": round(((i * 13) % 1000 - 500) / 100, 2),
            "volume": 100000 + i * 37, "market_cap_bn": round(1 + (i * 3.7) % 3000, 1),
            "pe_ttm": round(5 + (i * 1.3) % 80, 1), "sector": ["Software", "Hardware", "Internet"][i % 3],
        })
    return [{"name": "run_screen", "output": {"count": len(rows), "results": rows}}]


def named_rows_case(numbers: int) -> tuple[dict[str, Any], str, str]:
    """A 4-row x 12-year table, a question naming every row and asking for totals,
    averages, changes and percentages, and an answer of ``numbers`` values found
    nowhere (so each is searched for single- and multi-step derivations)."""
    years = [str(y) for y in range(2008, 2020)]
    rows = [[name] + [f"{100 + (r * 7919 + c * 104729) % 9900:,}" for c in range(len(years))]
            for r, name in enumerate(("Revenue", "Cost of sales", "Gross profit", "Operating income"))]
    question = ("What is the total, average, change and percentage of revenue, cost of sales, gross profit "
                "and operating income?")
    answer = " ".join(f"Value {i} was {(i * 7717) % 99991 / 10 + 0.05:.2f} million." for i in range(numbers))
    return {"unit": "million", "columns": ["", *years], "rows": rows}, question, answer


def positions_case(records: int, values: int = 30) -> tuple[Haystack, str]:
    """A positions list of ``records`` records (ticker, qty, price) and an answer giving
    each of ``values`` tickers the next record's value (qty * price): every value is
    derived from another ticker's record, so each is searched again over the named
    ticker's records before it is called misattributed."""
    qty = [1 + (i * 37) % 1000 for i in range(records)]
    price = [round(5 + (i * 7.31) % 495, 2) for i in range(records)]
    rows = [{"ticker": _symbol(i), "qty": qty[i], "price": price[i]} for i in range(records)]
    answer = " ".join(f"{_symbol(i)}'s position is worth ${qty[i + 1] * price[i + 1]:,.2f}." for i in range(values))
    return Haystack([{"name": "get_positions", "output": {"positions": rows}}]), answer


_PROSE = (
    "Net revenue for fiscal {y} was ${a:,}.{b} million, an increase of {p}.{q}% compared with fiscal {y1}.",
    ("Operating expenses were ${c:,} million in the quarter ended March 31, {y}, of which research and "
     "development accounted for {p}%."),
    "The company repurchased {d:,} shares at an average price of ${e}.{b} per share during {y}.",
    ("As of December 31, {y}, cash and cash equivalents totaled ${a:,} million and long-term debt was "
     "${c:,} million."),
    "Management does not expect the change to have a material effect on results in {y1}.",
)


def _prose_sentence(i: int) -> str:
    return _PROSE[i % len(_PROSE)].format(
        y=2000 + i % 24, y1=1999 + i % 24, a=1000 + (i * 7919) % 90000, b=i % 10, p=1 + (i * 13) % 40,
        q=i % 10, c=500 + (i * 104729) % 50000, d=10000 + i * 37, e=20 + (i * 31) % 400)


def prose_page(chars: int) -> tuple[list[dict[str, Any]], str]:
    """One filing-page tool result (as benchmarks.financebench gives them) of ``chars``
    characters of 10-K-like prose, dense in amounts, percentages, dates and years, and an
    answer quoting two of its first sentence's figures and one figure found nowhere."""
    sentences, size, i = [], 0, 0
    while size < chars:
        sentences.append(_prose_sentence(i))
        size += len(sentences[-1]) + 1
        i += 1
    text = " ".join(sentences)[:chars]
    answer = ("Net revenue for fiscal 2000 was $1,000.0 million, up 1.0% on the year before. "
              "Cash and cash equivalents were $12,345 million.")
    return [{"name": "filing_page", "output": {"doc_name": "SYNTHETIC_10K", "page": 1, "text": text}}], answer
