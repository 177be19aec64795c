"""``verifier check``'s --policy (a JSON file or inline JSON) and its enum options
(--format, --fail-on: choices in --help, a wrong one refused), through Typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from verifier.cli import app

runner = CliRunner()
TOOLS = [{"name": "fin", "output": {"revenue_2023": 100, "revenue_2024": 125}}]


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps(TOOLS))
    answer = tmp_path / "answer.txt"
    answer.write_text("Revenue grew 25%.\n")  # computed from the data: the derive stage finds it
    return tools, answer


def _check(files: tuple[Path, Path], *args: str) -> tuple[int, dict | None, str]:
    tools, answer = files
    result = runner.invoke(app, ["check", "--tools", str(tools), "--answer", str(answer), "--format", "json", *args])
    report = json.loads(result.stdout) if result.exit_code in (0, 1) else None
    return result.exit_code, report, result.stderr


def test_the_help_lists_the_choices() -> None:
    result = runner.invoke(app, ["check", "--help"], terminal_width=200)
    assert result.exit_code == 0
    assert "text|json|jsonl" in result.stdout and "medium|low" in result.stdout
    assert "FILE|JSON" in result.stdout


def test_a_choice_not_listed_is_a_usage_error(files: tuple[Path, Path]) -> None:
    for option, value in (("--format", "xml"), ("--fail-on", "high")):
        tools, answer = files
        result = runner.invoke(app, ["check", "--tools", str(tools), "--answer", str(answer), option, value],
                               terminal_width=200)
        assert result.exit_code == 2
        assert f"'{value}' is not one of" in result.stderr, result.stderr


def test_fail_on_sets_the_exit_code(files: tuple[Path, Path]) -> None:
    code, report, _ = _check(files, "--policy", '{"derive": false}', "--fail-on", "low")
    assert code == 1 and report is not None and report["confidence"] == "low"
    code, report, _ = _check(files, "--fail-on", "medium")
    assert code == 0 and report is not None and report["confidence"] == "high"


def test_inline_policy_json_changes_the_verdict(files: tuple[Path, Path]) -> None:
    _, default, _ = _check(files)
    _, strict, _ = _check(files, "--policy", '{"derive": false}')
    assert default is not None and strict is not None
    assert [(i["text"], i["status"]) for i in default["items"]] == [("25%", "derived")]
    assert [(i["text"], i["status"]) for i in strict["items"]] == [("25%", "unsupported")]


def test_policy_from_a_file_and_stopwords_add_up(files: tuple[Path, Path], tmp_path: Path) -> None:
    answer = files[1]
    answer.write_text("ZZZQ and YYYQ are up 25%.\n")
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"extra_stopwords": ["ZZZQ"], "derive": False}))
    words = tmp_path / "words.txt"
    words.write_text("YYYQ\n")
    _, with_file, _ = _check(files, "--policy", str(policy))
    assert with_file is not None
    assert [(i["text"], i["status"]) for i in with_file["items"]] == [("YYYQ", "unsupported"), ("25%", "unsupported")]
    _, both, _ = _check(files, "--policy", str(policy), "--stopwords", str(words))
    assert both is not None and [i["text"] for i in both["items"]] == ["25%"]


@pytest.mark.parametrize(("spec", "message"), [
    ('{"derive": "maybe"}', "error: --policy: derive: Input should be a valid boolean"),
    ('{"no_such_field": 1}', "error: --policy: no_such_field: Extra inputs are not permitted"),
    ('{"medium_min_score": 2}', "error: --policy: medium_min_score: Input should be less than or equal to 1"),
    ('{"derive": fals', "error: --policy: not valid JSON: "),
    ("[1, 2]", "error: --policy: must be a JSON object of Policy fields, got list"),
    ("missing.json", "error: missing.json: cannot read file (No such file or directory)"),
])
def test_an_invalid_policy_is_a_clear_error(files: tuple[Path, Path], spec: str, message: str) -> None:
    code, report, stderr = _check(files, "--policy", spec)
    assert code == 2 and report is None
    assert stderr.startswith(message), stderr
    assert "Traceback" not in stderr
