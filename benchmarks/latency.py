"""Verify latency on the seed-shaped scenario and as the haystack grows, against the
naive baseline (numbers and tickers substring-searched in the JSON text) in the same
process, interleaved, so machine noise hits both alike.

    python -m benchmarks.latency            # full run (about a minute)
    python -m benchmarks.latency --quick    # fewer repeats

Reports medians in microseconds and the ratio to the naive baseline:
- cold: verify(answer, tool_results): builds the haystack, then checks;
- warm: verify(answer, haystack=h) with the haystack built once for many answers;
- index: building a Haystack alone, for 100 .. 100,000 leaves.
"""

from __future__ import annotations

import gc
import json
import platform
import statistics
import time
from collections.abc import Callable
from functools import partial
from importlib import resources
from typing import Any

from benchmarks import quick_main
from verifier import Haystack, Policy, verify
from verifier.evaluation import baseline

NO_DERIVE = Policy(derive=False)


def _seed() -> tuple[Any, str]:
    ex = resources.files("verifier").joinpath("examples")
    return json.loads(ex.joinpath("screen_tools.json").read_text()), ex.joinpath("screen_answer.txt").read_text()


def _median_us(fn: Callable[[], object], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(samples)


def _interleaved(fns: dict[str, Callable[[], object]], rounds: int, per_round: int) -> dict[str, float]:
    """Median of per-round medians, the functions taking turns each round."""
    results: dict[str, list[float]] = {name: [] for name in fns}
    for fn in fns.values():
        fn()  # warm caches (compiled regexes, Babel data)
    for _ in range(rounds):
        for name, fn in fns.items():
            results[name].append(_median_us(fn, per_round))
    return {name: statistics.median(v) for name, v in results.items()}


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


def run(quick: bool = False) -> dict[str, Any]:
    rounds, per = (5, 20) if quick else (15, 40)
    tools, answer = _seed()
    hay = Haystack(tools)
    naive_text = baseline.haystack_text(tools)
    seed = _interleaved({
        "verify_cold": lambda: verify(answer, tools),
        "verify_warm": lambda: verify(answer, haystack=hay),
        "verify_warm_no_derive": lambda: verify(answer, haystack=hay, policy=NO_DERIVE),
        "naive_cold": lambda: baseline.unsupported(answer, tools),
        "naive_warm": lambda: baseline.unsupported(answer, tools, naive_text),
    }, rounds, per)
    report = verify(answer, tools)
    scaling = []
    for size in (100, 1_000, 10_000, 100_000):
        big = synthetic_tools(size)
        reps = 3 if size >= 100_000 else 7 if size >= 10_000 else 25
        gc.collect()
        t0 = time.perf_counter()
        h = Haystack(big)
        index_ms = (time.perf_counter() - t0) * 1000
        index_ms = min([index_ms] + [_median_us(partial(Haystack, big), 1) / 1000 for _ in range(reps - 1)])
        text = baseline.haystack_text(big)
        timing = _interleaved({
            "verify_warm": partial(verify, answer, haystack=h),
            "verify_warm_no_derive": partial(verify, answer, haystack=h, policy=NO_DERIVE),
            "naive_warm": partial(baseline.unsupported, answer, big, text),
            "naive_cold": partial(baseline.unsupported, answer, big),
        }, 3 if size >= 10_000 else 5, 5 if size >= 10_000 else 20)
        scaling.append({"leaves": len(h), "index_ms": round(index_ms, 2), **{k: round(v, 1) for k, v in timing.items()}})
    # many tool results, each with a unit field: indexing should grow with the tools, not
    # their square (each unit field used to rescan the whole index)
    tools_count = []
    for count in (10, 100, 400):
        many = [{"name": f"filing_{i}", "output": {"unit": "millions", "rows": [
            {"item": f"line {j}", "value": j + i / 10, "note": f"{j}.5 in the year"} for j in range(40)]}}
            for i in range(count)]
        gc.collect()
        index_ms = min(_median_us(partial(Haystack, many), 1) / 1000 for _ in range(3))
        tools_count.append({"tools": count, "leaves": len(Haystack(many)), "index_ms": round(index_ms, 1)})
    # long answers over the seed data: the cost should grow with the answer, not its square
    lengths = []
    for copies in (1, 10, 40, 160):
        long_answer = "\n".join([answer] * copies)
        timing = _interleaved({
            "verify_warm": partial(verify, long_answer, haystack=hay),
            "naive_warm": partial(baseline.unsupported, long_answer, tools, naive_text),
        }, 3, 3 if copies >= 40 else 10)
        lengths.append({"chars": len(long_answer), **{k: round(v, 1) for k, v in timing.items()}})
    # the derive stage's own worst case: every row named, every operation cued, many
    # unsupported numbers (the work budget must stop it)
    named = []
    for count in (1, 10, 30, 100):
        table, question, numbers = named_rows_case(count)
        named.append({"numbers": count, "verify_cold": round(_median_us(partial(
            verify, numbers, table, question=question), 3), 1)})
    # values given to the wrong ticker: two derive searches each
    misgiven = []
    for records in (1_000, 20_000):
        h, misgiven_answer = positions_case(records)
        verify(misgiven_answer, haystack=h)  # warm the haystack's derive caches
        misgiven.append({"records": records, "leaves": len(h),
                         "verify_warm": round(_median_us(partial(verify, misgiven_answer, haystack=h), 3), 1)})
    return {
        "python": platform.python_version(),
        "named_rows": named,
        "misgiven": misgiven,
        "seed": {"items": report.checked, "tickers": sum(i.kind == "ticker" for i in report.items),
                 **{k: round(v, 1) for k, v in seed.items()}},
        "scaling": scaling,
        "answer_length": lengths,
        "tools_count": tools_count,
    }


def markdown(result: dict[str, Any]) -> str:
    s = result["seed"]
    lines = [
        (f"Seed-shaped scenario (25-row screen, three paragraphs, {s['tickers']} tickers, "
         f"{s['items']} items), median µs, Python {result['python']}:"),
        "",
        "| pass | verifier | naive baseline | ratio |",
        "|---|---:|---:|---:|",
        f"| cold (index the tool results, then check) | {s['verify_cold']:.0f} | {s['naive_cold']:.0f} | {s['verify_cold'] / s['naive_cold']:.2f}× |",
        f"| warm (haystack / JSON text prepared once) | {s['verify_warm']:.0f} | {s['naive_warm']:.0f} | {s['verify_warm'] / s['naive_warm']:.2f}× |",
        f"| warm, derive stage off | {s['verify_warm_no_derive']:.0f} | {s['naive_warm']:.0f} | {s['verify_warm_no_derive'] / s['naive_warm']:.2f}× |",
        "",
        ("Haystack size (synthetic screener rows; the same answer, so nearly every value is "
         "unsupported and searched for a derivation: the worst case for the derive stage), median:"),
        "",
        "| leaves | index build ms | verify warm µs | warm, derive off µs | naive warm µs | naive cold µs |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for row in result["scaling"]:
        lines.append(f"| {row['leaves']:,} | {row['index_ms']:.1f} | {row['verify_warm']:.0f} | "
                     f"{row['verify_warm_no_derive']:.0f} | {row['naive_warm']:.0f} | {row['naive_cold']:.0f} |")
    lines += ["", "Answer length (the seed answer repeated; warm haystack), median:", "",
              "| answer characters | verify warm ms | naive warm ms | verify µs per character |",
              "|---:|---:|---:|---:|"]
    for row in result.get("answer_length", []):
        lines.append(f"| {row['chars']:,} | {row['verify_warm'] / 1000:.1f} | {row['naive_warm'] / 1000:.2f} | "
                     f"{row['verify_warm'] / row['chars']:.2f} |")
    lines += ["", "Many tool results (40 rows each, every one with a `unit` field), index build:", "",
              "| tool results | leaves | index build ms | ms per tool result |", "|---:|---:|---:|---:|"]
    for row in result.get("tools_count", []):
        lines.append(f"| {row['tools']:,} | {row['leaves']:,} | {row['index_ms']:.1f} | "
                     f"{row['index_ms'] / row['tools']:.2f} |")
    lines += ["", ("The derive stage's worst case (a 4-row x 12-year table, a question naming every row and "
                   "every operation, answers of numbers found nowhere), cold, median:"), "",
              "| numbers in the answer | verify ms |", "|---:|---:|"]
    for row in result.get("named_rows", []):
        lines.append(f"| {row['numbers']} | {row['verify_cold'] / 1000:.0f} |")
    lines += ["", ("Values given to the wrong ticker (a positions list; 30 sentences each giving a ticker "
                   "the next record's qty x price: each value is searched again over the named ticker's "
                   "records, then called misattributed), warm, median:"), "",
              "| records | leaves | verify ms |", "|---:|---:|---:|"]
    for row in result.get("misgiven", []):
        lines.append(f"| {row['records']:,} | {row['leaves']:,} | {row['verify_warm'] / 1000:.0f} |")
    return "\n".join(lines)


def main() -> None:
    quick_main(__doc__, run, markdown)


if __name__ == "__main__":
    main()
