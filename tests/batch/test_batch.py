"""``verifier batch`` on the local engine: the reports are verify()'s, in input order, a
bad line is an error record in its place, gzip and folders are read, Parquet is written,
and the summary counts what the reports say."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from verifier import verify
from verifier.batch import read_output, run_batch
from verifier.inputs.jsonio import dumps, loads
from verifier.inputs.transcripts import read_transcript
from verifier.models import json_text

#: Labelled cases used: 6 scenarios of about 5 answers over the same tool results, and
#: the answers that compute derived values (missing-field suggestions).
CASES = [*range(30), *range(66, 72), 250]
MODELS = ("gpt-a", "gpt-b", None)


def requests() -> list[dict]:
    """Verify requests in the API's body shape: labelled cases with metadata, then two
    saved transcript files (``messages`` beside their own keys)."""
    out = []
    lines = (FIXTURES / "labelled.jsonl").read_text().splitlines()
    for n, case in enumerate(loads(lines[i]) for i in CASES):
        meta = {"prompt_version": case["label"], "case": case["id"]}
        if MODELS[n % 3]:
            meta["model"] = MODELS[n % 3]
        out.append({"answer": case["answer"], "tool_results": case["tool_results"], "question": case["question"],
                    "locale": case["locale"], "metadata": meta})
    for name in ("openai_chat_multi_turn.json", "anthropic_multi_turn.json"):
        out.append(loads((FIXTURES / "transcripts" / name).read_text()) | {"metadata": {"model": "gpt-a"}})
    return out


def expected(request: dict) -> dict:
    """What verify() says for a request, as its JSON reads."""
    if "messages" in request:
        t = read_transcript(request["messages"], format=request.get("format", "auto"))
        report = verify(t.answer, t.tool_results, question=t.question, locale=request.get("locale", "en_US"),
                        history=t.history or None, judge=False)
    else:
        report = verify(request["answer"], request["tool_results"], question=request["question"],
                        locale=request["locale"], judge=False)
    return loads(json_text(report))


def write_jsonl(path: Path, lines: list[str | bytes]) -> Path:
    data = b"\n".join(line if isinstance(line, bytes) else line.encode() for line in lines) + b"\n"
    path.write_bytes(gzip.compress(data) if path.name.endswith(".gz") else data)
    return path


@pytest.fixture(scope="module")
def cases() -> tuple[list[dict], list[dict]]:
    reqs = requests()
    return reqs, [expected(r) for r in reqs]


@pytest.fixture(scope="module")
def run(tmp_path_factory, cases):
    """One local run over the requests, two workers, chunks of 8 (so chunks interleave)."""
    tmp = tmp_path_factory.mktemp("batch")
    source = write_jsonl(tmp / "in.jsonl", [dumps(r) for r in cases[0]])
    out = tmp / "out.jsonl"
    summary = run_batch(str(source), str(out), workers=2, group_by="model", chunk_size=8)
    return source, list(read_output(out)), summary


def test_local_engine_reports_equal_verify_in_input_order(run, cases):
    source, records, _ = run
    assert [(r["source"], r["line"]) for r in records] == [(str(source), n) for n in range(1, len(cases[0]) + 1)]
    assert [r.get("error") for r in records] == [None] * len(records)
    assert [r["report"] for r in records] == cases[1]
    assert [r["metadata"] for r in records] == [req["metadata"] for req in cases[0]]
    assert {r["report"]["confidence"] for r in records} == {"high", "medium", "low"}  # the set is mixed


def test_summary_counts_flag_rates_by_the_metadata_field_and_ranks_missing_fields(run, cases):
    _, records, summary = run
    by_model: dict = {}
    for req, report in zip(*cases, strict=True):
        group = by_model.setdefault(req["metadata"].get("model"), Counter())
        group["n"] += 1
        group["flagged"] += report["flagged"] > 0
    got = {g["key"]: g for g in summary.as_dict()["groups"]}
    assert set(got) == set(by_model)
    for key, counts in by_model.items():
        assert got[key]["verifications"] == counts["n"]
        assert got[key]["flagged_verifications"] == counts["flagged"]
        assert got[key]["flag_rate"] == round(counts["flagged"] / counts["n"], 4)
    assert summary.total.verifications == len(records) and summary.total.errors == 0
    suggested = Counter((s["tool"], s["field"]) for report in cases[1] for s in report["suggestions"])
    assert suggested, "the cases should compute some derived value"
    assert [(s.tool, s.field, s.count) for s in summary.suggestions()] == [
        (tool, name, n) for (tool, name), n in sorted(suggested.items(), key=lambda kv: (-kv[1], kv[0]))]


def test_a_bad_line_becomes_an_error_record_in_its_place(tmp_path, cases):
    good = dumps(cases[0][0])
    lines: list[str | bytes] = [
        good,
        "not json {",
        "[1, 2]",
        json.dumps({"answer": 5, "tool_results": [], "metadata": {"model": "m"}}),
        json.dumps({"tool_results": [{"name": "q", "output": {"x": 1}}]}),
        json.dumps({"answer": "AAPL at $1.", "tool_results": [], "policy": {"medium_min_score": 7}}),
        json.dumps({"answer": "AAPL at $1.", "messages": [{"role": "user", "content": "hi"}]}),
        json.dumps({"answer": "AAPL at $1.", "tool_results": [], "locale": "xx_NOPE"}),
        b'{"answer": "caf\xe9", "tool_results": []}',
        "",
        good,
    ]
    source = write_jsonl(tmp_path / "in.jsonl", lines)
    run_batch(str(source), str(tmp_path / "out.jsonl"), workers=1)
    records = list(read_output(tmp_path / "out.jsonl"))
    assert [r["line"] for r in records] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 11]  # the blank line 10 is no record
    assert records[0]["report"] == records[-1]["report"] == cases[1][0]
    errors = [(r["error"], r["field"]) for r in records[1:-1]]
    # (a policy field the request model types itself would be invalid_request: either is the API's)
    errors[4] = ("invalid_input" if errors[4][0] == "invalid_request" else errors[4][0], errors[4][1])
    assert errors == [("invalid_input", "body"), ("invalid_request", "body"), ("invalid_request", "answer"),
                      ("invalid_input", "answer"), ("invalid_input", "policy.medium_min_score"),
                      ("invalid_input", "messages"), ("invalid_input", "locale"), ("invalid_input", "body")]
    for r in records[1:-1]:
        assert "report" not in r and r["message"] and r["errors"][0]["field"] == r["field"], r
    assert records[3]["metadata"] == {"model": "m"}  # kept where the line gave it
    assert "not valid JSON" in records[1]["message"] and "UTF-8" in records[8]["message"]


def test_gzip_and_folder_input_in_name_order(tmp_path, run, cases):
    reqs, reports = cases
    folder = tmp_path / "logs"
    (folder / "2026-12-02").mkdir(parents=True)
    write_jsonl(folder / "a.jsonl.gz", [dumps(r) for r in reqs[:5]])
    write_jsonl(folder / "2026-12-02" / "b.jsonl", [dumps(r) for r in reqs[5:9]])
    write_jsonl(folder / "c.log", ["not a request file"])  # another name: not read
    write_jsonl(folder / "_SUCCESS.jsonl", ["not a request file"])  # a marker Ray and Spark write
    zipped = write_jsonl(tmp_path / "named-plainly.jsonl", [dumps(r) for r in reqs[9:11]])
    zipped.write_bytes(gzip.compress(zipped.read_bytes()))  # gzip is read by its bytes, not its name
    run_batch(str(folder), str(tmp_path / "out.jsonl.gz"), workers=2)
    records = list(read_output(tmp_path / "out.jsonl.gz"))
    assert [(Path(r["source"]).name, r["line"]) for r in records] == [
        ("b.jsonl", 1), ("b.jsonl", 2), ("b.jsonl", 3), ("b.jsonl", 4),  # 2026-12-02/b.jsonl sorts first
        ("a.jsonl.gz", 1), ("a.jsonl.gz", 2), ("a.jsonl.gz", 3), ("a.jsonl.gz", 4), ("a.jsonl.gz", 5)]
    assert [r["report"] for r in records] == reports[5:9] + reports[:5]
    run_batch(str(zipped), str(tmp_path / "z.jsonl"), workers=1)
    assert [r["report"] for r in read_output(tmp_path / "z.jsonl")] == reports[9:11]


def test_parquet_output_holds_the_same_records_and_flat_columns(tmp_path, cases):
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet output needs pyarrow (the [parquet] extra)")
    lines = [dumps(r) for r in cases[0][:6]] + ["oops"]
    source = write_jsonl(tmp_path / "in.jsonl", lines)
    run_batch(str(source), str(tmp_path / "out.parquet"), workers=2, chunk_size=2)
    table = pq.read_table(tmp_path / "out.parquet")
    assert table.column("line").to_pylist() == list(range(1, 8))
    assert table.column("confidence").to_pylist() == [r["confidence"] for r in cases[1][:6]] + [None]
    assert table.column("error").to_pylist() == [None] * 6 + ["invalid_input"]
    assert [r.get("report") for r in read_output(tmp_path / "out.parquet")] == cases[1][:6] + [None]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verifier.cli", "batch", *args], capture_output=True, text=True,
                          timeout=180, check=False)


def test_the_command_prints_the_summary_and_writes_it_as_json(tmp_path, cases):
    source = write_jsonl(tmp_path / "in.jsonl", [dumps(r) for r in cases[0][:10]] + ["{}"])
    done = cli(str(source), str(tmp_path / "out.jsonl"), "--workers", "1", "--group-by", "prompt_version",
               "--json", str(tmp_path / "summary.json"))
    assert done.returncode == 0, done.stderr
    assert "flag rates by prompt_version" in done.stdout and "11 lines: 10 verified, 1 error records" in done.stdout
    summary = json.loads((tmp_path / "summary.json").read_text())
    flagged = sum(r["flagged"] > 0 for r in cases[1][:10])
    assert summary["total"]["flagged_verifications"] == flagged and summary["total"]["errors"] == 1
    assert {g["key"] for g in summary["groups"]} == {r["metadata"]["prompt_version"] for r in cases[0][:10]} | {None}
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 11


def test_the_command_refuses_unusable_arguments_with_exit_2(tmp_path):
    source = write_jsonl(tmp_path / "in.jsonl", ["{}"])
    for args, message in (
            ((str(tmp_path / "missing"), str(tmp_path / "o.jsonl")), "no such file or folder"),
            ((str(source), str(source)), "would destroy the input"),
            ((str(source), str(tmp_path / "o.jsonl"), "--engine", "spark"), "must be one of local, ray"),
            ((str(source), str(tmp_path / "o.jsonl"), "--address", "auto"), "only with --engine ray"),
            ((str(source), str(tmp_path / "o.jsonl"), "--workers", "0"), "Invalid value"),
            ((str(source), str(tmp_path / "no" / "such" / "o.jsonl")), "cannot write file")):
        done = cli(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert message in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert source.read_text() == "{}\n"


_WITHOUT_SERVER = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("fastapi", "starlette", "uvicorn", "sqlalchemy", "prometheus_client"):
            raise ModuleNotFoundError(name)
sys.meta_path.insert(0, Block())
from verifier.batch import read_output, run_batch
run_batch(sys.argv[1], sys.argv[2], workers=1)
print([r["report"]["confidence"] for r in read_output(sys.argv[2])])
"""


def test_batch_needs_no_server_extra(tmp_path, cases):
    source = write_jsonl(tmp_path / "in.jsonl", [dumps(r) for r in cases[0][:2]])
    done = subprocess.run([sys.executable, "-c", _WITHOUT_SERVER, str(source), str(tmp_path / "o.jsonl")],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == repr([r["confidence"] for r in cases[1][:2]])


def test_a_line_past_its_deadline_is_a_timeout_record_and_the_next_line_is_verified(tmp_path, cases):
    big = [{"name": "screen", "output": {"rows": [{"symbol": f"S{n}", "price": n + 0.25} for n in range(20_000)]}}]
    slow = {"answer": "S7 trades at $7.25.", "tool_results": big, "policy": {"deadline_ms": 1}}
    source = write_jsonl(tmp_path / "in.jsonl", [json.dumps(slow), dumps(cases[0][0])])
    run_batch(str(source), str(tmp_path / "out.jsonl"), workers=1)
    first, second = read_output(tmp_path / "out.jsonl")
    assert first["error"] == "timeout" and "over the limit of 1" in first["message"], first
    assert second["report"] == cases[1][0]
    # the batch's own deadline applies where a line's policy sets none; a loose one changes nothing
    source = write_jsonl(tmp_path / "in2.jsonl", [json.dumps(slow | {"policy": {}}), dumps(cases[0][0])])
    run_batch(str(source), str(tmp_path / "out2.jsonl"), workers=1, deadline_ms=1)
    assert next(read_output(tmp_path / "out2.jsonl"))["error"] == "timeout"
    run_batch(str(source), str(tmp_path / "out3.jsonl"), workers=1, deadline_ms=60_000)
    assert [r["report"] for r in read_output(tmp_path / "out3.jsonl")] == [
        loads(json_text(verify(slow["answer"], big, judge=False))), cases[1][0]]
