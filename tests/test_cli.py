"""The ``verifier`` command, run as a user runs it (a subprocess)."""

import json
import subprocess
import sys

import pytest


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "verifier.cli", *args], capture_output=True,
                          text=True, input=stdin, timeout=120, check=False)


@pytest.fixture
def files(tmp_path):
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([{"name": "q", "output": {"symbol": "AAPL", "price": 142.30}}]))
    good = tmp_path / "good.txt"
    good.write_text("AAPL trades at $142.30.\n")
    bad = tmp_path / "bad.txt"
    bad.write_text("AAPL trades at $142.80 and ZZZQ at $5.\n")
    return tools, good, bad


def test_check_json_prints_the_report(files):
    tools, good, _ = files
    res = run("check", "--tools", str(tools), "--answer", str(good), "--format", "json")
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    assert report["confidence"] == "high"
    assert [i["text"] for i in report["items"]] == ["AAPL", "$142.30"]
    assert report["items"][1]["evidence"][0]["path"] == "$.price"


def test_check_text_shows_badge_and_evidence(files):
    tools, _, bad = files
    res = run("check", "--tools", str(tools), "--answer", str(bad))
    assert res.returncode == 0
    assert "Unverified" in res.stdout and "$142.80" in res.stdout and "retry hint" in res.stdout


def test_check_text_names_the_figure_each_operand_of_a_derived_value_used(tmp_path):
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps({"paragraphs": [
        "In February 2016, we granted 547,000 PSUs.", "In October 2018, we granted 464,888 PSUs."]}))
    answer = tmp_path / "answer.txt"
    answer.write_text("Grants fell 15.01%.\n")
    res = run("check", "--tools", str(tools), "--answer", str(answer), "--question",
              "What is the percentage difference in the PSUs granted between February 2016 and October 2018?")
    assert res.returncode == 0, res.stderr
    flat = " ".join(res.stdout.replace("│", " ").split())
    assert "derived" in flat and "$.paragraphs[1] = 464888" in flat and "$.paragraphs[0] = 547000" in flat


def test_fail_on_sets_the_exit_code(files):
    tools, good, bad = files
    assert run("check", "--tools", str(tools), "--answer", str(bad), "--fail-on", "low").returncode == 1
    assert run("check", "--tools", str(tools), "--answer", str(good), "--fail-on", "medium").returncode == 0


def test_answer_from_stdin(files):
    tools, _, _ = files
    res = run("check", "--tools", str(tools), "--answer", "-", "--format", "json", stdin="AAPL at $142.30")
    assert json.loads(res.stdout)["confidence"] == "high"


def test_bundled_example_runs_with_no_arguments():
    res = run("check", "--format", "json")
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    assert report["checked"] > 15 and report["confidence"] == "medium"


@pytest.mark.parametrize(
    ("content", "message"),
    [("{not json", "not valid JSON: Expecting property name"), ("[" * 100_000, "nested too deeply")],
)
def test_malformed_tools_file_is_exit_2_with_a_message(tmp_path, files, content, message):
    _, good, _ = files
    bad = tmp_path / "broken.json"
    bad.write_text(content)
    res = run("check", "--tools", str(bad), "--answer", str(good))
    assert res.returncode == 2
    assert message in res.stderr and "Traceback" not in res.stderr


def test_missing_file_and_bad_options_are_exit_2(files):
    tools, good, _ = files
    assert run("check", "--tools", "/nonexistent.json", "--answer", str(good)).returncode == 2
    assert run("check", "--tools", str(tools), "--answer", str(good), "--locale", "zz").returncode == 2
    assert run("check", "--tools", str(tools), "--answer", str(good), "--format", "xml").returncode == 2


def test_schema_command_prints_the_report_schema():
    res = run("schema")
    assert json.loads(res.stdout)["title"] == "Report"


def test_eval_reports_metrics_and_writes_json(tmp_path):
    tools = [{"name": "q", "output": {"symbol": "AAPL", "price": 142.3}}]
    lines = [
        {"id": "c", "locale": "en_US", "tool_results": tools, "answer": "AAPL at $142.30", "label": "clean", "faults": []},
        {"id": "f", "locale": "en_US", "tool_results": tools, "answer": "AAPL at $143.30", "label": "faulty",
         "faults": [{"text": "$143.30", "kind": "unsupported"}]},
    ]
    data = tmp_path / "set.jsonl"
    data.write_text("\n".join(json.dumps(x) for x in lines))
    out = tmp_path / "out.json"
    res = run("eval", str(data), "--json", str(out), "--no-progress")
    assert res.returncode == 0, res.stderr
    result = json.loads(out.read_text())
    assert result["verifier"]["clean_pass_rate"] == 1.0
    assert result["verifier"]["faulty_catch_rate"] == 1.0
    assert result["verifier"]["localisation"] == 1.0
    assert result["verifier"]["per_kind"] == {"unsupported": {"total": 1, "caught": 1}}
    assert set(result["latency_ms"]) == {"p50", "p90", "p99", "max"}


@pytest.mark.parametrize("bad", ["{oops", "[1, 2]", '{"answer": "x", "tool_results": {}, "label": "maybe"}'])
def test_eval_bad_line_names_the_line(tmp_path, bad):
    data = tmp_path / "set.jsonl"
    data.write_text('{"answer": "x", "tool_results": {}, "label": "clean"}\n' + bad + "\n")
    res = run("eval", str(data), "--no-progress")
    assert res.returncode == 2 and "set.jsonl:2" in res.stderr and "Traceback" not in res.stderr


def test_suggest_counts_missing_derived_fields_most_frequent_first(tmp_path):
    tools = [{"name": "screen", "output": {"results": [
        {"symbol": "A", "change_pct": 1.0}, {"symbol": "B", "change_pct": 2.0}, {"symbol": "C", "change_pct": 4.5}]}}]
    cases = [{"answer": "The average move was 2.5%.", "tool_results": tools}] * 3 + [
        {"answer": "B was 1.0 points above A.", "tool_results": tools}]
    data = tmp_path / "cases.jsonl"
    data.write_text("\n".join(json.dumps(c) for c in cases))
    out = tmp_path / "out.json"
    res = run("suggest", str(data), "--json", str(out))
    assert res.returncode == 0, res.stderr
    found = json.loads(out.read_text())
    assert [(s["field"], s["count"]) for s in found][:1] == [("mean_change_pct", 3)]
    assert found[0]["text"] == "add field mean_change_pct = avg($.results[*].change_pct) to tool screen"
    # reports work as input too: feed one back
    report = json.loads(run("check", "--tools", str(_write(tmp_path, tools)), "--answer", "-", "--format", "json",
                            stdin="The average move was 2.5%.").stdout)
    reports = tmp_path / "reports.jsonl"
    reports.write_text(json.dumps(report) + "\n")
    res = run("suggest", str(reports))
    assert "mean_change_pct" in res.stdout


def test_suggest_bad_line_is_exit_2(tmp_path):
    data = tmp_path / "bad.jsonl"
    data.write_text('{"neither": 1}\n')
    res = run("suggest", str(data))
    assert res.returncode == 2 and "bad.jsonl:1" in res.stderr


def _write(tmp_path, tools):
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools))
    return path


def test_check_jsonl_lines_feed_suggest(files, tmp_path):
    tools, good, _ = files
    lines = [run("check", "--tools", str(tools), "--answer", str(good), "--format", "jsonl").stdout
             for _ in range(2)]
    assert all(line.count("\n") == 1 for line in lines)
    reports = tmp_path / "reports.jsonl"
    reports.write_text("".join(lines))
    res = run("suggest", str(reports))
    assert res.returncode == 0, res.stderr


def test_check_reads_a_transcript(tmp_path):
    from tests.conftest import FIXTURES

    fixture = json.loads((FIXTURES / "transcripts" / "anthropic_multi_turn.json").read_text())
    path = tmp_path / "messages.json"
    path.write_text(json.dumps(fixture["messages"]))
    report = json.loads(run("check", "--messages", str(path), "--format", "jsonl").stdout)
    assert "stale" in {i["status"] for i in report["items"]}
    res = run("check", "--messages", str(path), "--question", "x")
    assert res.returncode == 2 and "not both" in res.stderr


def test_a_judge_url_needs_a_model(files, monkeypatch):
    tools, good, _ = files
    monkeypatch.delenv("VERIFIER_JUDGE_MODEL", raising=False)
    res = run("check", "--tools", str(tools), "--answer", str(good), "--judge-url", "http://127.0.0.1:9/v1")
    assert res.returncode == 2 and "--judge-model" in res.stderr
