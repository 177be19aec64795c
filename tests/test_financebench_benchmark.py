"""The FinanceBench benchmark (benchmarks/financebench.py) on a slice of the real corpus
in ../shared/corpora/financebench (skipped where absent): cases build as its docstring
says, and the counts and the --json failure lists agree with verify run independently."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks import financebench as fb
from verifier import verify
from verifier.evaluation import baseline
from verifier.evaluation.evaluate import flagged_spans

ROOT = Path(__file__).resolve().parent.parent
FINANCEBENCH = ROOT.parent / "shared" / "corpora" / "financebench"
LIMIT = 5  # per results file: 20 graded answers read in all


@pytest.fixture(scope="module")
def corpus() -> Path:
    if not (FINANCEBENCH / "financebench_open_source.jsonl.gz").is_file():
        pytest.skip(f"FinanceBench not found at {FINANCEBENCH} (only present beside the team's checkout)")
    return FINANCEBENCH


@pytest.fixture(scope="module")
def raw(corpus: Path) -> dict[str, list[dict[str, Any]]]:
    """The first LIMIT graded answers of each oracle results file, read here directly."""
    out = {}
    for path in sorted((corpus / "results").glob("gpt-4*_oracle*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            out[path.name.removesuffix(".jsonl.gz")] = [json.loads(line) for line in fh][:LIMIT]
    return out


@pytest.fixture(scope="module")
def run(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    out = tmp_path_factory.mktemp("fb") / "fb.json"
    fb.main(["--corpora", str(corpus), "--limit", str(LIMIT), "--json", str(out)])
    cases, _ = fb.load_cases(corpus, LIMIT)
    return cases, json.loads(out.read_text())


def ids(rows: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(r["financebench_id"], r["file"]) for r in rows}


def test_missing_corpus_exits_with_a_message(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        fb.main(["--corpora", str(tmp_path / "absent")])
    assert "FinanceBench not found" in str(exc.value.code)  # a string code: exit status 1


def test_the_four_oracle_files_are_read_and_refusals_left_out(run, raw) -> None:
    cases, data = run
    assert set(raw) == {"gpt-4_oracle", "gpt-4_oracle_reverse",
                        "gpt-4-1106-preview_oracle", "gpt-4-1106-preview_oracle_reverse"}
    graded = [(name, r) for name, recs in raw.items() for r in recs]
    refused = {(r["financebench_id"], name) for name, r in graded if r["label"] == "Refusal"}
    assert refused, "the slice should hold refusals (gpt-4_oracle_reverse opens with some)"
    assert not refused & {(c["id"], c["file"]) for c in cases}
    assert len(cases) == len(graded) - len(refused)
    assert data["read"]["overall"] == {"read": len(graded), "refusals": len(refused)}
    labels = {(r["financebench_id"], name): r["label"] for name, r in graded}
    for case in cases:
        assert case["label"] == {"Correct Answer": "clean", "Incorrect Answer": "faulty"}[
            labels[(case["id"], case["file"])]]
    overall = data["finverify"]["overall"]
    assert overall["clean"] + overall["faulty"] + data["raised_counts"]["overall"] == len(cases)
    for name in raw:
        s = data["finverify"][name]
        non_refusals = data["read"][name]["read"] - data["read"][name]["refusals"]
        assert s["clean"] + s["faulty"] + data["raised_counts"][name] == non_refusals


def test_every_case_has_its_distinct_evidence_pages(run, corpus: Path) -> None:
    cases, _ = run
    with gzip.open(corpus / "financebench_open_source.jsonl.gz", "rt", encoding="utf-8") as fh:
        questions = {q["financebench_id"]: q for q in map(json.loads, fh)}
    for case in cases:
        tools = case["tools"]
        assert tools and all(t["name"] == "filing_page" and t["output"]["text"].strip() for t in tools)
        pages = [(t["output"]["doc_name"], t["output"]["page"], t["output"]["text"]) for t in tools]
        assert len(set(pages)) == len(pages)
        evidence = questions[case["id"]]["evidence"]
        assert set(pages) == {(e["doc_name"], e["evidence_page_num"], e["evidence_text_full_page"])
                              for e in evidence}


def test_rates_are_shares_and_files_add_up_to_overall(run, raw) -> None:
    _, data = run
    for verifier in ("finverify", "naive"):
        for s in data[verifier].values():
            assert s["clean_passed"] <= s["clean"] and s["faulty_flagged"] <= s["faulty"]
            for rate in (s["clean_pass_rate"], s["faulty_flag_rate"]):
                assert rate is None or 0.0 <= rate <= 1.0
        overall = data[verifier]["overall"]
        assert overall["clean_pass_rate"] is not None and overall["faulty_flag_rate"] is not None
        for field in ("clean", "clean_passed", "faulty", "faulty_flagged"):
            assert sum(data[verifier][name][field] for name in raw) == data[verifier]["overall"][field]


def test_json_lists_exactly_the_failing_cases(run) -> None:
    cases, data = run
    raised = {(r["financebench_id"], r["file"]) for r in data["raised"]}
    ours: dict[str, set[tuple[str, str]]] = {"clean": set(), "faulty": set()}
    naive: dict[str, set[tuple[str, str]]] = {"clean": set(), "faulty": set()}
    for case in cases:
        key = (case["id"], case["file"])
        if key in raised:
            continue
        report = verify(case["answer"], case["tools"], question=case["question"], judge=False)
        flagged = bool(flagged_spans(report))
        missing = bool(baseline.unsupported(case["answer"], case["tools"]))
        for found, hit in ((ours, flagged), (naive, missing)):
            if hit == (case["label"] == "clean"):
                found[case["label"]].add(key)
    assert ids(data["clean_not_passed"]) == ours["clean"]
    assert ids(data["faulty_not_flagged"]) == ours["faulty"]
    assert ids(data["naive_failures"]["clean_not_passed"]) == naive["clean"]
    assert ids(data["naive_failures"]["faulty_not_flagged"]) == naive["faulty"]
    overall = data["finverify"]["overall"]
    assert overall["clean"] - overall["clean_passed"] == len(ours["clean"])
    assert overall["faulty"] - overall["faulty_flagged"] == len(ours["faulty"])
    assert all(row["flagged"] and all(f["status"] and f["reason"] for f in row["flagged"])
               for row in data["clean_not_passed"])
