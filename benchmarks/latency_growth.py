"""How verify's cost grows with the data (issue 21): from 100 to 100,000 leaves (the
synthetic screener of ``benchmarks.latency_cases``, with the seed answer: nearly every value
unsupported, the derive stage's worst case) and from 1k to 1M characters of filing-page
prose (``latency_cases.prose_page``), in CPU time, beside the naive check and figured.

Per size: ``build`` is ``Haystack(tool_results)``; ``cold`` is build plus the first verify on
that fresh haystack (what ``verify(answer, tool_results)`` does, measured once, in two
parts); ``warm``, ``naive`` and ``figured`` are the medians of a few rounds, taking turns.
A size whose cold call is predicted to take longer than the budget (from the growth
between the two sizes before it, never less than linear) is not run, and says so. The
prediction is a guard, not a forecast: long text grows faster than it guesses (77 s
predicted for 1M characters, 337 s taken, BENCHMARKS.md).
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable
from typing import Any

from benchmarks.latency_cases import prose_page, synthetic_tools
from benchmarks.latency_sets import seed_case
from benchmarks.latency_side import Figured, ratio_text
from verifier import Haystack, verify
from verifier.evaluation import baseline

LEAVES = (100, 1_000, 10_000, 100_000)
CHARS = (1_000, 10_000, 100_000, 1_000_000)
Inputs = Callable[[int], tuple[list[dict[str, Any]], str]]


def _cpu_ms(fn: Callable[[], object]) -> float:
    t0 = time.process_time_ns()
    fn()
    return (time.process_time_ns() - t0) / 1e6


def leaves_inputs(leaves: int) -> tuple[list[dict[str, Any]], str]:
    return synthetic_tools(leaves), seed_case().answer


def measure(tools: list[dict[str, Any]], answer: str, rounds: int, figured: Figured | None) -> dict[str, Any]:
    """CPU ms of build, cold (build + first verify), and the medians of ``rounds`` rounds of
    warm, naive and figured."""
    gc.collect()
    built: list[Haystack] = []
    build = _cpu_ms(lambda: built.append(Haystack(tools)))
    hay = built[0]
    first = _cpu_ms(lambda: verify(answer, haystack=hay, judge=False))
    fns: list[tuple[str, Callable[[], object]]] = [
        ("warm", lambda: verify(answer, haystack=hay, judge=False)),
        ("naive", lambda: baseline.unsupported(answer, tools))]
    if figured is not None:
        fns.append(("figured", lambda: figured(answer, tools, None)))
    samples: dict[str, list[float]] = {name: [] for name, _ in fns}
    for r in range(rounds):
        k = r % len(fns)
        for name, fn in fns[k:] + fns[:k]:
            samples[name].append(_cpu_ms(fn))
    return {"leaves": len(hay), "build_ms": build, "cold_ms": build + first,
            **{f"{name}_ms": statistics.median(v) for name, v in samples.items()}}


def _predicted(done: list[tuple[int, float]], size: int) -> float:
    """The cold time ``size`` would take, by the growth seen so far (at least linear)."""
    (s2, t2) = done[-1]
    exponent = 1.0
    if len(done) >= 2:
        (s1, t1) = done[-2]
        if t1 > 0 and t2 > t1:
            exponent = max(1.0, math.log(t2 / t1) / math.log(s2 / s1))
    return t2 * (size / s2) ** exponent


def grow(sizes: tuple[int, ...], inputs: Inputs, budget_s: float, rounds: int,
         figured: Figured | None) -> list[dict[str, Any]]:
    """One row per size; a size predicted over ``budget_s`` cold gets ``skipped`` instead."""
    rows: list[dict[str, Any]] = []
    done: list[tuple[int, float]] = []
    for size in sizes:
        if done and (guess := _predicted(done, size) / 1000) > budget_s:
            rows.append({"size": size, "skipped": f"cold predicted about {guess:.0f} s, over the "
                                                  f"{budget_s:.0f} s budget"})
            continue
        tools, answer = inputs(size)
        row = {"size": size, **measure(tools, answer, rounds, figured)}
        done.append((size, row["cold_ms"]))
        rows.append(row)
    return rows


def run(quick: bool, figured: Figured | None) -> dict[str, Any]:
    budget, rounds = (15.0, 3) if quick else (300.0, 7)
    for warm_up in (leaves_inputs(100), prose_page(1_000)):  # first-use costs: not the first size's
        measure(*warm_up, 1, figured)
    return {"budget_s": budget,
            "leaves": grow(LEAVES, leaves_inputs, budget, rounds, figured),
            "chars": grow(CHARS, prose_page, budget, rounds, figured)}


def _ms(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:,.0f}" if value >= 100 else f"{value:.1f}" if value >= 1 else f"{value:.2f}"


def markdown(result: dict[str, Any]) -> str:
    lines: list[str] = []
    for key, title in (("leaves", "leaves (synthetic screener, the seed answer)"),
                       ("chars", "characters of text (one filing page of prose)")):
        lines += ["", f"Growth in {title}, CPU ms (warm, naive, figured: medians of rounds):", "",
                  "| size | leaves | build | cold | warm | naive | figured | cold ÷ figured | warm ÷ figured |",
                  "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for row in result[key]:
            if "skipped" in row:
                lines.append(f"| {row['size']:,} | not run: {row['skipped']} | | | | | | | |")
                continue
            fig = row.get("figured_ms")
            ratios = (f"{ratio_text(row['cold_ms'] / fig)} | {ratio_text(row['warm_ms'] / fig)}" if fig else "– | –")
            lines.append(f"| {row['size']:,} | {row['leaves']:,} | {_ms(row['build_ms'])} | {_ms(row['cold_ms'])} | "
                         f"{_ms(row['warm_ms'])} | {_ms(row['naive_ms'])} | {_ms(fig)} | {ratios} |")
    return "\n".join(lines[1:])
