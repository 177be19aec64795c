"""Every dev benchmark at once, in one table: the figure a change is judged by.

    python -m benchmarks.dev                       # run all, print the table
    python -m benchmarks.dev --save out/dev.json   # ... and keep the figures
    python -m benchmarks.dev --compare out/dev.json  # ... and show the change against them

Sets: the golden fixtures; both evalsets (``../shared/evalsets``); FinanceBench's graded
oracle answers; TAT-QA dev with and without the ``unit`` field and the FinQA subset
(``../shared/corpora``), each measured as its own benchmark module measures it. The
sets run in parallel worker processes (one per core). A set whose data is absent is
left out and said so. Every figure here has its full breakdown in the set's own module
(``verifier eval``, ``benchmarks.financebench``, ``benchmarks.tatqa``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def _labelled(path: Path) -> dict[str, Any]:
    from verifier.evaluation.evaluate import load_dataset, run

    s = run(load_dataset(path), dataset=path.name).verifier
    kinds = {k: v["caught"] / v["total"] for k, v in s.per_kind.items() if v["total"]}
    worst = min(kinds, key=lambda k: kinds[k]) if kinds else None
    return {"correct passed": s.clean_pass_rate, "faulty caught": s.faulty_catch_rate,
            "localised": s.localisation, "worst kind": f"{worst} {kinds[worst]:.2f}" if worst else "-"}


def _financebench(path: Path) -> dict[str, Any]:
    from benchmarks import financebench

    cases, _ = financebench.load_cases(path)
    result = financebench.run(cases)
    overall = result["ours"][financebench.OVERALL].summary()
    return {"correct passed": overall["clean_pass_rate"], "incorrect flagged": overall["faulty_flag_rate"],
            "raised": len(result["raised"])}


def _tatqa(corpora: Path, unit: bool, corpus: str) -> dict[str, Any]:
    from benchmarks import tatqa

    if corpus == "tatqa":
        cases = tatqa.tatqa_cases(corpora / "tatqa" / "tatqa_dataset_dev.json.gz")
    else:
        cases = tatqa.finqa_cases(min((corpora / "finqa").glob("*dev*.json.gz")))
    if not unit:
        for case in cases:
            for tool in case["tools"]:
                if isinstance(tool.get("output"), dict):
                    tool["output"].pop("unit", None)
    result = tatqa.run(cases, with_peers=False)
    out: dict[str, Any] = {}
    for key, tally in sorted(result["ours"].items()):
        c = tally.counts
        kind = key.split("/")[1]
        out[f"{kind} passed"] = c["correct_passed"] / c["correct"] if c["correct"] else None
        out[f"{kind} altered flagged"] = c["altered_flagged"] / c["altered"] if c["altered"] else None
        out[f"{kind} false derivations"] = c["false_derivation"]
    return out


def _jobs() -> tuple[dict[str, tuple[Any, ...]], dict[str, str]]:
    jobs: dict[str, tuple[Any, ...]] = {"fixtures": (_labelled, ROOT / "fixtures" / "labelled.jsonl")}
    absent: dict[str, str] = {}
    for name in ("assistant_equities", "assistant_markets"):
        path = SHARED / "evalsets" / f"{name}.jsonl"
        if path.exists():
            jobs[name] = (_labelled, path)
        else:
            absent[name] = f"{path} not found"
    corpora = SHARED / "corpora"
    if (corpora / "financebench" / "results").is_dir():
        jobs["financebench"] = (_financebench, corpora / "financebench")
    else:
        absent["financebench"] = f"{corpora / 'financebench'} not found"
    if (corpora / "tatqa" / "tatqa_dataset_dev.json.gz").exists():
        jobs["tatqa"] = (_tatqa, corpora, True, "tatqa")
        jobs["tatqa_no_unit"] = (_tatqa, corpora, False, "tatqa")
    else:
        absent["tatqa"] = f"{corpora / 'tatqa'} not found"
    if sorted((corpora / "finqa").glob("*dev*.json.gz")) if (corpora / "finqa").is_dir() else []:
        jobs["finqa"] = (_tatqa, corpora, True, "finqa")
    else:
        absent["finqa"] = f"{corpora / 'finqa'} not found"
    return jobs, absent


def _call(job: tuple[Any, ...]) -> dict[str, Any]:
    return job[0](*job[1:])


def measure(workers: int | None = None) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    jobs, absent = _jobs()
    # the slow sets first, so the pool is not left waiting on one at the end
    order = sorted(jobs, key=lambda n: not n.startswith("tatqa"))
    with ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
        results = dict(zip(order, pool.map(_call, [jobs[n] for n in order]), strict=True))
    return {n: results[n] for n in jobs}, absent


def _fmt(value: Any) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def table(figures: dict[str, dict[str, Any]], before: dict[str, dict[str, Any]] | None = None) -> str:
    lines = ["| set | figure | now | before | change |", "|---|---|---:|---:|---:|"]
    for name, values in figures.items():
        for key, value in values.items():
            old = (before or {}).get(name, {}).get(key)
            change = ""
            if isinstance(value, (int, float)) and isinstance(old, (int, float)) and value != old:
                change = f"{value - old:+.3f}" if isinstance(value, float) else f"{value - old:+d}"
            lines.append(f"| {name} | {key} | {_fmt(value)} | {_fmt(old) if old is not None else ''} | {change} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--save", type=Path, help="write the figures here as JSON")
    parser.add_argument("--compare", type=Path, help="figures saved before, to show the change against")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: one per core)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    figures, absent = measure(args.workers)
    before = json.loads(args.compare.read_text()) if args.compare else None
    print(table(figures, before))
    for name, why in absent.items():
        print(f"{name}: left out ({why})")
    print(f"({time.perf_counter() - started:.0f} s)")
    if args.save:
        args.save.parent.mkdir(parents=True, exist_ok=True)
        args.save.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
