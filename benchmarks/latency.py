"""Verify latency: the side-by-side run of issue 21 on the real sets, growth with the data,
start-up, and the seed-shaped scenario and synthetic worst cases, each beside the naive
baseline (numbers and tickers substring-searched in the JSON text) in the same process,
interleaved, so machine noise hits all alike.

    python -m benchmarks.latency                   # everything (all cases of every set; long)
    python -m benchmarks.latency --quick           # 40 cases a set, fewer repeats (under ~2 min)
    python -m benchmarks.latency --part side --limit 100 --json out.json

Parts (``--part``, repeatable; default all):

- ``side``: ``benchmarks.latency_side``: on the fixtures, both dev evalsets, TAT-QA dev
  and FinanceBench's oracle pages (``benchmarks.latency_sets``), the median and p95 CPU
  time of verify cold and warm, the naive check and figured, and their ratios;
- ``growth``: ``benchmarks.latency_growth``: 100 to 100,000 leaves, 1k to 1M characters;
- ``startup``: ``benchmarks.latency_startup``: ``import verifier`` and the first call, in
  fresh interpreters;
- ``classic``: the seed-shaped scenario (cold, warm, derive off), index build for 100 ..
  100,000 leaves, answer length, many tool results, the derive stage's worst case and
  values given to the wrong ticker: medians of wall time in microseconds and the ratio to
  the naive baseline (cold: verify(answer, tool_results) builds the haystack, then checks;
  warm: verify(answer, haystack=h) with the haystack built once for many answers).
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import statistics
import time
from collections.abc import Callable
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

from benchmarks import latency_growth, latency_sets, latency_side, latency_startup
from benchmarks.latency_cases import named_rows_case, positions_case, synthetic_tools
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


def classic(quick: bool = False) -> dict[str, Any]:
    rounds, per = (3, 10) if quick else (15, 40)
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
        reps = 1 if quick and size >= 100_000 else 3 if size >= 100_000 else 7 if size >= 10_000 else 25
        gc.collect()
        t0 = time.perf_counter()
        h = Haystack(big)
        index_ms = (time.perf_counter() - t0) * 1000
        index_ms = min([index_ms] + [_median_us(partial(Haystack, big), 1) / 1000 for _ in range(reps - 1)])
        text = baseline.haystack_text(big)
        big_rounds = (2, 3) if quick else (3, 5)
        size_rounds, size_per = big_rounds if size >= 10_000 else (5, 10 if quick else 20)
        timing = _interleaved({
            "verify_warm": partial(verify, answer, haystack=h),
            "verify_warm_no_derive": partial(verify, answer, haystack=h, policy=NO_DERIVE),
            "naive_warm": partial(baseline.unsupported, answer, big, text),
            "naive_cold": partial(baseline.unsupported, answer, big),
        }, size_rounds, size_per)
        scaling.append({"leaves": len(h), "index_ms": round(index_ms, 2), **{k: round(v, 1) for k, v in timing.items()}})
    # many tool results, each with a unit field: indexing should grow with the tools, not
    # their square (each unit field used to rescan the whole index)
    tools_count = []
    for count in (10, 100, 400):
        many = [{"name": f"filing_{i}", "output": {"unit": "millions", "rows": [
            {"item": f"line {j}", "value": j + i / 10, "note": f"{j}.5 in the year"} for j in range(40)]}}
            for i in range(count)]
        gc.collect()
        index_ms = min(_median_us(partial(Haystack, many), 1) / 1000 for _ in range(2 if quick else 3))
        tools_count.append({"tools": count, "leaves": len(Haystack(many)), "index_ms": round(index_ms, 1)})
    # long answers over the seed data: the cost should grow with the answer, not its square
    lengths = []
    for copies in (1, 10, 40, 160):
        long_answer = "\n".join([answer] * copies)
        timing = _interleaved({
            "verify_warm": partial(verify, long_answer, haystack=hay),
            "naive_warm": partial(baseline.unsupported, long_answer, tools, naive_text),
        }, 2 if quick else 3, (1 if quick else 3) if copies >= 40 else 10)
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


def classic_markdown(result: dict[str, Any]) -> str:
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


PARTS = ("side", "growth", "startup", "classic")


def run(quick: bool = False, parts: tuple[str, ...] = PARTS, limit: int | None = None) -> dict[str, Any]:
    """The chosen parts; ``limit`` cases per set in the side-by-side run (default: 40 with
    ``quick``, else all)."""
    figured = latency_side.figured_check()
    out: dict[str, Any] = {"python": platform.python_version(), "quick": quick}
    if "side" in parts:
        cap = limit if limit is not None else 40 if quick else 0
        out["side_by_side"] = latency_side.run_sets(latency_sets.sets(), cap, figured)
    if "growth" in parts:
        out["growth"] = latency_growth.run(quick, figured)
    if "startup" in parts:
        out["startup"] = latency_startup.run(3 if quick else 7)
    if "classic" in parts:
        out["classic"] = classic(quick)
    return out


def markdown(result: dict[str, Any]) -> str:
    blocks = []
    if "side_by_side" in result:
        side = result["side_by_side"]
        blocks.append(f"Side by side, CPU time per call, one process, interleaved per case "
                      f"(Python {result['python']}, {side['figured'] or 'figured not installed'}):\n\n"
                      + latency_side.markdown(side))
    if "growth" in result:
        blocks.append(latency_growth.markdown(result["growth"]))
    if "startup" in result:
        blocks.append(latency_startup.markdown(result["startup"]))
    if "classic" in result:
        blocks.append(classic_markdown(result["classic"]))
    return "\n\n".join(blocks)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="40 cases a set, fewer repeats, smaller budgets")
    parser.add_argument("--part", action="append", choices=PARTS, help="only this part (repeatable)")
    parser.add_argument("--limit", type=int, default=None,
                        help="cases per set in the side-by-side run (0: all; default 40 with --quick, else all)")
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 0:
        parser.error("--limit must be 0 (all) or more")
    result = run(args.quick, tuple(args.part or PARTS), args.limit)
    print(markdown(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
