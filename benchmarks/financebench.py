"""Real model answers over real filing pages: FinanceBench's human-graded oracle answers.

    python -m benchmarks.financebench                    # from ../shared/corpora/financebench
    python -m benchmarks.financebench --corpora DIR --json out.json --limit 20

Cases: the oracle-mode answers of gpt-4 and gpt-4-1106-preview (results files
``<model>_oracle.jsonl.gz`` and ``<model>_oracle_reverse.jsonl.gz``), where the model was
shown exactly the question's evidence pages. Each graded answer is one case: the tool
results are those pages (``evidence_text_full_page`` of each evidence entry of the
question, joined from financebench_open_source.jsonl.gz on financebench_id), one
``{"name": "filing_page", "output": {"doc_name", "page", "text"}}`` per distinct page;
the question is the question; the answer is ``model_answer``, as the model wrote it.
"Correct Answer" is clean, "Incorrect Answer" faulty, "Refusal" left out. Every answer
goes through the same call, ``verify(answer, tools, question=question, judge=False)``:
nothing is special-cased.

Pass rule, the one ``verifier eval`` uses (``verifier.evaluation.evaluate.flagged_spans``): a case
is flagged when its report has a flagged item or a flagged sentence note. A clean case
passes when nothing is flagged; a faulty case is caught when anything is. (This is
confidence "high" but for a flagged note without a span; the number of cases where the
two rules disagree is reported.) The naive baseline (``verifier.evaluation.baseline``) runs on the
same cases in the same process and flags when it finds any unsupported token.

Reported per results file and overall, for finverify and the naive baseline: correct
answers passed (n/N, rate), incorrect answers flagged (n/N, rate), verify latency
p50/p99 in ms, and the cases whose verify raised (counted apart, left out of both
verifiers' rates, as ``verifier eval`` does). ``--json`` also writes the ids
(financebench_id + file) of correct answers that did not pass, with the flagged items'
texts, statuses and reasons, and of the incorrect answers not caught.

Caveat: the labels grade the whole answer (its reasoning and conclusion too), not its
figures: an incorrect answer may quote every number from the page correctly and draw the
wrong conclusion, so no number check reaches a catch rate of 1 here.
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from verifier import verify
from verifier.evaluation import baseline
from verifier.evaluation.evaluate import flagged_spans, percentiles

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPORA = ROOT.parent / "shared" / "corpora" / "financebench"
MODELS = ("gpt-4", "gpt-4-1106-preview")
LABELS = {"Correct Answer": "clean", "Incorrect Answer": "faulty"}
OVERALL = "overall"


def _jsonl(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def result_files(corpora: Path) -> list[Path]:
    """The oracle and oracle_reverse results of each model, in a fixed order."""
    return [p for m in MODELS for p in sorted((corpora / "results").glob(f"{m}_oracle*.jsonl.gz"))]


def evidence_pages(question: dict[str, Any]) -> list[dict[str, Any]]:
    """One filing_page tool result per distinct evidence page of a question."""
    tools: list[dict[str, Any]] = []
    seen: set[tuple[str, Any, str]] = set()
    for ev in question.get("evidence") or []:
        key = (ev["doc_name"], ev["evidence_page_num"], ev["evidence_text_full_page"])
        if key not in seen:
            seen.add(key)
            tools.append({"name": "filing_page", "output": {
                "doc_name": key[0], "page": key[1], "text": key[2]}})
    return tools


def load_cases(corpora: Path, limit: int = 0) -> tuple[list[dict[str, Any]], dict[str, dict[str, int]]]:
    """(cases, per-file counts of graded answers read / refusals left out). ``limit``:
    only the first N graded answers of each results file (0: all)."""
    questions = {q["financebench_id"]: q for q in _jsonl(corpora / "financebench_open_source.jsonl.gz")}
    cases: list[dict[str, Any]] = []
    read: dict[str, dict[str, int]] = {}
    for path in result_files(corpora):
        name = path.name.removesuffix(".jsonl.gz")
        records = _jsonl(path)
        records = records[:limit] if limit else records
        read[name] = {"read": len(records), "refusals": 0}
        for rec in records:
            label = LABELS.get(rec["label"])
            if label is None:
                if rec["label"] != "Refusal":
                    raise SystemExit(f"{path}: unknown label {rec['label']!r} for {rec['financebench_id']}")
                read[name]["refusals"] += 1
                continue
            question = questions[rec["financebench_id"]]
            cases.append({"id": rec["financebench_id"], "file": name, "label": label,
                          "question": rec.get("question") or question["question"],
                          "answer": rec["model_answer"] or "", "tools": evidence_pages(question)})
    return cases, read


class _Tally:
    def __init__(self) -> None:
        self.counts: dict[str, int] = defaultdict(int)
        self.times: list[float] = []

    def add(self, label: str, flagged: bool, ms: float) -> None:
        self.counts[label] += 1
        if label == "clean":
            self.counts["clean_passed"] += not flagged
        else:
            self.counts["faulty_flagged"] += flagged
        self.times.append(ms)

    def rate(self, hit: str, total: str) -> float | None:
        return self.counts[hit] / self.counts[total] if self.counts[total] else None

    def summary(self) -> dict[str, Any]:
        lat = percentiles(self.times)
        return {"clean": self.counts["clean"], "clean_passed": self.counts["clean_passed"],
                "clean_pass_rate": self.rate("clean_passed", "clean"),
                "faulty": self.counts["faulty"], "faulty_flagged": self.counts["faulty_flagged"],
                "faulty_flag_rate": self.rate("faulty_flagged", "faulty"),
                "latency_ms": {"p50": lat["p50"], "p99": lat["p99"]}}


def _flags(report: Any) -> list[dict[str, Any]]:
    out = [{"text": i.text, "kind": i.kind, "status": i.status, "reason": i.reason}
           for i in report.items if i.flagged]
    out += [{"text": None, "kind": f"note:{n.kind}", "status": "flagged", "reason": n.message}
            for n in report.notes if n.flagged]
    return out


def run(cases: list[dict[str, Any]]) -> dict[str, Any]:
    """Verify every case with finverify and the naive baseline; tally per file and overall."""
    ours: dict[str, _Tally] = defaultdict(_Tally)
    naive: dict[str, _Tally] = defaultdict(_Tally)
    failures: dict[str, dict[str, list[dict[str, Any]]]] = {
        v: {"clean_not_passed": [], "faulty_not_flagged": []} for v in ("finverify", "naive")}
    raised: list[dict[str, Any]] = []
    disagree: list[dict[str, str]] = []
    for case in cases:
        ref = {"financebench_id": case["id"], "file": case["file"]}
        try:
            t0 = time.perf_counter()
            report = verify(case["answer"], case["tools"], question=case["question"], judge=False)
            ms = (time.perf_counter() - t0) * 1000
            t0 = time.perf_counter()
            missing = baseline.unsupported(case["answer"], case["tools"])
            naive_ms = (time.perf_counter() - t0) * 1000
        except Exception as exc:  # noqa: BLE001 - a raise is counted and reported, never fatal
            raised.append({**ref, "label": case["label"], "error": f"{type(exc).__name__}: {exc}"})
            continue
        flagged = bool(flagged_spans(report))
        if flagged != (report.confidence != "high"):
            disagree.append({**ref, "confidence": report.confidence})
        found = {"finverify": (flagged, _flags(report)),
                 "naive": (bool(missing), [{"text": tok, "status": "unsupported"} for _, _, tok in missing])}
        for key in (case["file"], OVERALL):
            ours[key].add(case["label"], flagged, ms)
            naive[key].add(case["label"], bool(missing), naive_ms)
        for name, (hit, flags) in found.items():
            if case["label"] == "clean" and hit:
                failures[name]["clean_not_passed"].append({**ref, "flagged": flags, "answer": case["answer"]})
            elif case["label"] == "faulty" and not hit:
                failures[name]["faulty_not_flagged"].append({**ref, "answer": case["answer"]})
    return {"ours": dict(ours), "naive": dict(naive), "failures": failures, "raised": raised,
            "confidence_rule_disagreements": disagree}


def to_json(result: dict[str, Any], read: dict[str, dict[str, int]]) -> dict[str, Any]:
    """What ``--json`` writes: counts, rates, latencies, and the ids of every failure."""
    raised: dict[str, int] = defaultdict(int)
    for r in result["raised"]:
        raised[r["file"]] += 1
        raised[OVERALL] += 1
    keys = [*read, OVERALL]
    return {
        "pass_rule": "verifier.evaluation.evaluate.flagged_spans: nothing flagged (items or sentence notes)",
        "read": {**read, OVERALL: {k: sum(v[k] for v in read.values()) for k in ("read", "refusals")}},
        "raised_counts": {k: raised.get(k, 0) for k in keys},
        "finverify": {k: result["ours"].get(k, _Tally()).summary() for k in keys},
        "naive": {k: result["naive"].get(k, _Tally()).summary() for k in keys},
        **result["failures"]["finverify"],
        "naive_failures": result["failures"]["naive"],
        "raised": result["raised"],
        "confidence_rule_disagreements": result["confidence_rule_disagreements"],
    }


def _cell(summary: dict[str, Any], hit: str, total: str, rate: str) -> str:
    value = summary[rate]
    return f"{summary[hit]}/{summary[total]} ({value:.3f})" if value is not None else "n/a"


def table(data: dict[str, Any]) -> str:
    lines = [("| results file | verifier | read | refusals | raised | correct passed | "
              "incorrect flagged | latency p50 / p99 ms |"), "|---|---|---:|---:|---:|---:|---:|---:|"]
    for key in data["read"]:
        for name in ("finverify", "naive"):
            s = data[name][key]
            lat = s["latency_ms"]
            lines.append(
                f"| {key} | {'naive baseline' if name == 'naive' else name} | {data['read'][key]['read']} | "
                f"{data['read'][key]['refusals']} | {data['raised_counts'][key]} | "
                f"{_cell(s, 'clean_passed', 'clean', 'clean_pass_rate')} | "
                f"{_cell(s, 'faulty_flagged', 'faulty', 'faulty_flag_rate')} | "
                f"{lat['p50']:.2f} / {lat['p99']:.2f} |")
    lines += ["", (f"Pass rule: {data['pass_rule']}. Cases where it disagrees with confidence == "
                   f"'high': {len(data['confidence_rule_disagreements'])}. "
                   f"Verify raised: {len(data['raised'])}.")]
    lines += [f"- raised: {r['financebench_id']} ({r['file']}): {r['error']}" for r in data["raised"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA,
                        help="the financebench folder (financebench_open_source.jsonl.gz and results/)")
    parser.add_argument("--limit", type=int, default=0, help="only the first N graded answers of each results file")
    parser.add_argument("--json", type=Path, help="also write the counts and the ids of every failure here")
    args = parser.parse_args(argv)
    questions = args.corpora / "financebench_open_source.jsonl.gz"
    if not questions.exists() or not result_files(args.corpora):
        raise SystemExit(f"FinanceBench not found at {args.corpora}: pass --corpora DIR (the folder with "
                         "financebench_open_source.jsonl.gz and results/<model>_oracle*.jsonl.gz)")
    cases, read = load_cases(args.corpora, args.limit)
    data = to_json(run(cases), read)
    print(table(data))
    if args.json:
        args.json.write_text(json.dumps(data, indent=2))


if __name__ == "__main__":
    main()
