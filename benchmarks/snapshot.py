"""Behaviour snapshots: a digest of the report of every case the benchmarks run, so a
restructuring can show it changed nothing.

    python -m benchmarks.snapshot            # compare with tests/snapshots/reports.json
    python -m benchmarks.snapshot --write    # record the current behaviour (after a change meant to alter it)

Each case's report is written with ``Report.model_dump_json()`` and reduced to the first
16 hex digits of its SHA-256: the digests say *whether* a report changed, not how, and
keep corpus text out of the repository. To see how one changed, run the case on both
commits. Sets: the golden fixtures (``fixtures/labelled.jsonl``), both dev evalsets and
TAT-QA dev and the FinQA subset as ``benchmarks.tatqa`` builds them (each correct answer
and its altered twins, with and without the ``unit`` field) and FinanceBench's graded
oracle answers as ``benchmarks.financebench`` builds them, read from ``../shared``;
a set whose data is absent is left out and said so.
"""

from __future__ import annotations

import argparse
import copy
import functools
import hashlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from benchmarks import financebench, tatqa
from verifier import Haystack, verify
from verifier.evaluation.evaluate import load_dataset

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOT = ROOT / "tests" / "snapshots" / "reports.json"
SHARED = ROOT.parent / "shared"
EVALSETS = SHARED / "evalsets"
CORPORA = SHARED / "corpora"


def digest(report: Any) -> str:
    return hashlib.sha256(report.model_dump_json().encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _records(path: Path) -> Iterator[tuple[str, str]]:
    for record in load_dataset(path):
        report = verify(record["answer"], record["tool_results"], question=record.get("question"),
                        locale=record.get("locale") or "en_US", history=record.get("history"), judge=False)
        yield record["id"], digest(report)


def _corpus(cases: list[dict[str, Any]], unit: bool) -> Iterator[tuple[str, str]]:
    for case in cases:
        tools = case["tools"]
        if not unit:
            tools = copy.deepcopy(tools)
            for tool in tools:
                if isinstance(tool.get("output"), dict):
                    tool["output"].pop("unit", None)
        yield case["id"], digest(verify(case["answer"], tools, question=case["question"], judge=False))
        if not unit:
            continue  # the altered twins once, with the unit field (as benchmarks.tatqa runs them)
        hay = Haystack(tools)
        at = case["answer"].index(case["number"])
        for how, altered, _ in tatqa._alterations(case["number"]):
            if altered != case["number"]:
                answer = case["answer"][:at] + altered + case["answer"][at + len(case["number"]):]
                report = verify(answer, haystack=hay, question=case["question"], judge=False)
                yield f"{case['id']}/{how}", digest(report)


def _financebench(corpora: Path) -> Iterator[tuple[str, str]]:
    cases, _ = financebench.load_cases(corpora)
    for case in cases:
        report = verify(case["answer"], case["tools"], question=case["question"], judge=False)
        yield f"{case['file']}/{case['id']}", digest(report)


def _corpus_of(build: Callable[[Path], list[dict[str, Any]]], path: Path, unit: bool) -> Iterator[tuple[str, str]]:
    return _corpus(build(path), unit)


def sets() -> dict[str, Callable[[], Iterator[tuple[str, str]]] | str]:
    """Name -> a generator of (case id, digest), or the reason the set is absent."""
    out: dict[str, Callable[[], Iterator[tuple[str, str]]] | str] = {
        "fixtures": lambda: _records(ROOT / "fixtures" / "labelled.jsonl")}
    for name in ("assistant_equities", "assistant_markets"):
        path = EVALSETS / f"{name}.jsonl"
        out[name] = functools.partial(_records, path) if path.exists() else f"{path} not found"
    tatqa_path = CORPORA / "tatqa" / "tatqa_dataset_dev.json.gz"
    finqa_paths = sorted((CORPORA / "finqa").glob("*dev*.json.gz")) if (CORPORA / "finqa").is_dir() else []
    for name, found, build in (("tatqa", tatqa_path if tatqa_path.exists() else None, tatqa.tatqa_cases),
                               ("finqa", finqa_paths[0] if finqa_paths else None, tatqa.finqa_cases)):
        for unit in (True, False):
            key = name if unit else f"{name}_no_unit"
            if found is None:
                out[key] = f"{name} corpus not found under {CORPORA}"
            else:
                out[key] = functools.partial(_corpus_of, build, found, unit)
    fb = CORPORA / "financebench"
    out["financebench"] = (functools.partial(_financebench, fb) if (fb / "results").is_dir()
                           else f"{fb} not found")
    return out


def compute(only: set[str] | None = None) -> tuple[dict[str, dict[str, str]], dict[str, str]]:
    """(set name -> {case id: digest}, set name -> why it was left out)."""
    done: dict[str, dict[str, str]] = {}
    absent: dict[str, str] = {}
    for name, source in sets().items():
        if only and name not in only:
            continue
        if isinstance(source, str):
            absent[name] = source
            continue
        digests: dict[str, str] = {}
        for case_id, value in source():
            key, n = case_id, 1
            while key in digests:  # ids repeat in FinQA: number the repeats
                n += 1
                key = f"{case_id}#{n}"
            digests[key] = value
        done[name] = digests
    return done, absent


def differences(expected: dict[str, str], got: dict[str, str]) -> list[str]:
    """The case ids whose digest differs, is new, or is gone."""
    return sorted(k for k in expected.keys() | got.keys() if expected.get(k) != got.get(k))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="record the current reports' digests")
    parser.add_argument("--only", action="append", help="only this set (repeatable)")
    args = parser.parse_args(argv)
    done, absent = compute(set(args.only) if args.only else None)
    for name, why in absent.items():
        print(f"{name}: left out ({why})")
    stored = json.loads(SNAPSHOT.read_text()) if SNAPSHOT.exists() else {}
    if args.write:
        stored.update(done)
        SNAPSHOT.write_text(json.dumps(stored, indent=0, sort_keys=True) + "\n")
        print(f"wrote {sum(map(len, done.values()))} digests of {len(done)} sets to {SNAPSHOT}")
        return 0
    changed = 0
    for name, digests in done.items():
        diff = differences(stored.get(name, {}), digests)
        changed += len(diff)
        print(f"{name}: {len(digests)} reports, {len(diff)} changed" + (f": {', '.join(diff[:10])}" if diff else ""))
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
