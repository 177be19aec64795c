"""Throughput of ``verifier batch``: verifications per second per core, for 1 and 2
workers, on both engines, beside the per-record function run in this process.

    python -m benchmarks.batch_throughput            # 8 copies of the labelled set (2,016 lines)
    python -m benchmarks.batch_throughput --quick    # 2 copies (504 lines)

The input is ``fixtures/labelled.jsonl`` as API request bodies (answer, tool_results,
question, locale, metadata), repeated: 252 answers over 46 distinct tool results, so
about five answers share each index, as in a log of many questions over the same data.
"warm" keeps each worker's haystack cache (64 entries: after the first copy every index
is a hit); "cold" turns it off, so every line indexes its tool results. Each engine is
timed on all lines ("overall", which includes its fixed cost: starting worker processes
or Ray actors, which import the verifier) and on the first quarter of them; "steady" is
the lines of the difference over the time of the difference (the fixed cost cancels),
"per core" divides it by the workers. ``ray.init`` (a cluster user's Ray is already
running) is timed apart and left out. Every time is the best of 3 runs (1 with
``--quick``), the configurations taking turns; the machine's load average is recorded:
on a shared machine every figure moves with what else runs.
"""

from __future__ import annotations

import os
import platform
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import quick_main
from verifier.batch import run_batch
from verifier.batch.worker import LineVerifier
from verifier.inputs.jsonio import dumps, loads

LABELLED = Path(__file__).resolve().parent.parent / "fixtures" / "labelled.jsonl"


def _lines(copies: int) -> list[bytes]:
    out = []
    for line in LABELLED.read_text().splitlines():
        case = loads(line)
        out.append(dumps({"answer": case["answer"], "tool_results": case["tool_results"],
                          "question": case["question"], "locale": case["locale"],
                          "metadata": {"prompt_version": case["label"], "case": case["id"]}}).encode())
    return out * copies


def _in_process(lines: list[bytes], cache_size: int) -> float:
    """Seconds for the per-record function over every line in this process (one core)."""
    verifier = LineVerifier(cache_size=cache_size)
    for n, text in enumerate(lines[:50], 1):  # warm up: compiled patterns, locale data
        LineVerifier(cache_size=0)("warm-up", n, text)
    started = time.perf_counter()
    for n, text in enumerate(lines, 1):
        verifier("bench", n, text)
    return time.perf_counter() - started


def _timed(source: Path, out: Path, engine: str, workers: int, cache_size: int) -> float:
    started = time.perf_counter()
    summary = run_batch(str(source), str(out), engine=engine, workers=workers, cache_size=cache_size)
    seconds = time.perf_counter() - started
    assert summary.total.errors == 0, summary.as_dict()
    return seconds


def run(quick: bool) -> dict[str, Any]:
    lines = _lines(2 if quick else 8)
    repeats = 1 if quick else 3
    result: dict[str, Any] = {"lines": len(lines), "python": platform.python_version(), "repeats": repeats,
                              "runs": [], "load_before": os.getloadavg()[0]}
    configs = [("in process", 1, "warm"), ("in process", 1, "cold")]
    configs += [("local", w, cache) for cache in ("warm", "cold") for w in (1, 2)]
    try:
        import ray

        started = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        result["ray_init_s"] = time.perf_counter() - started
        configs += [("ray", 1, "warm"), ("ray", 2, "warm")]
    except ModuleNotFoundError:
        result["ray_init_s"] = None  # not installed: the ray rows are left out
    best: dict[tuple[str, int, str], list[float]] = {c: [float("inf"), float("inf")] for c in configs}
    quarter = len(lines) // 4
    with tempfile.TemporaryDirectory() as tmp:
        source, small = Path(tmp) / "in.jsonl", Path(tmp) / "quarter.jsonl"
        source.write_bytes(b"\n".join(lines) + b"\n")
        small.write_bytes(b"\n".join(lines[:quarter]) + b"\n")
        for r in range(repeats):
            for n, (engine, workers, cache) in enumerate(configs):
                size = 64 if cache == "warm" else 0
                times = best[(engine, workers, cache)]
                if engine == "in process":
                    times[1] = min(times[1], _in_process(lines, size))
                    continue
                suffix = "" if engine == "ray" else ".jsonl"  # the Ray engine writes a folder
                times[0] = min(times[0], _timed(small, Path(tmp) / f"q{r}{n}{suffix}", engine, workers, size))
                times[1] = min(times[1], _timed(source, Path(tmp) / f"o{r}{n}{suffix}", engine, workers, size))
    for (engine, workers, cache), (part_s, total) in best.items():
        part: float | None = None if engine == "in process" else part_s
        steady: float | None = len(lines) / total
        if part is not None:  # the fixed cost cancels in the difference; noise can still win (no figure)
            steady = (len(lines) - quarter) / (total - part) if total > part else None
        result["runs"].append({"engine": engine, "workers": workers, "cache": cache, "quarter_s": part,
                               "total_s": total, "overall_per_s": len(lines) / total, "steady_per_s": steady,
                               "per_core_per_s": steady / workers if steady else None})
    result["load_after"] = os.getloadavg()[0]
    return result


def _f(value: float | None, digits: int = 0) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def markdown(result: dict[str, Any]) -> str:
    head = (f"{result['lines']:,} lines, best of {result['repeats']}, Python {result['python']}, load average {result['load_before']:.1f} "
            f"before and {result['load_after']:.1f} after"
            + (f"; ray.init {result['ray_init_s']:.1f} s (not counted)" if result.get("ray_init_s") else "")
            + "\n\n| engine | workers | haystack cache | first quarter s | total s | lines/s overall "
              "| lines/s steady | steady per core |\n|---|---:|---|---:|---:|---:|---:|---:|\n")
    return head + "\n".join(
        f"| {r['engine']} | {r['workers']} | {r['cache']} | {_f(r['quarter_s'], 1)} | {r['total_s']:.1f} "
        f"| {r['overall_per_s']:.0f} | {_f(r['steady_per_s'])} | {_f(r['per_core_per_s'])} |"
        for r in result["runs"])


def main() -> None:
    quick_main(__doc__, run, markdown)


if __name__ == "__main__":
    main()
