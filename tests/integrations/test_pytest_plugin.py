"""The pytest plugin, run as a user's test suite runs it: pytest's own ``pytester``
starts inner sessions on test files written here, with the plugin loaded as installed
(the ``pytest11`` entry point) or, where the install predates it, with ``-p``."""

from __future__ import annotations

import os
import tomllib
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from verifier import InputError
from verifier.integrations.pytest_plugin import assert_verified, assert_verified_messages

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = "verifier.integrations.pytest_plugin"
TOOLS = [{"name": "quote", "output": {"symbol": "AAPL", "price": 142.3, "change_pct": 1.42}}]


def _plugin_args() -> list[str]:
    """``-p`` the plugin unless the installed entry point loads it already."""
    installed = any(ep.value == PLUGIN for ep in entry_points(group="pytest11"))
    return [] if installed and not os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD") else ["-p", PLUGIN]


def _run(pytester: pytest.Pytester, source: str, *args: str) -> pytest.RunResult:
    pytester.makepyfile(test_assistant=f"TOOLS = {TOOLS!r}\n" + source)
    # this session imported the plugin already: the inner one cannot rewrite its asserts (it has none)
    quiet = ["-W", "ignore::pytest.PytestAssertRewriteWarning"]
    return pytester.runpytest(*_plugin_args(), *quiet, *args)


def test_the_fixture_passes_a_verified_answer_and_fails_a_wrong_one(pytester: pytest.Pytester) -> None:
    result = _run(pytester, """
def test_good(verify_answer):
    report = verify_answer("AAPL trades at $142.30.", TOOLS)
    assert report.confidence == "high"

def test_bad(verify_answer):
    verify_answer("AAPL trades at $142.80, up 1.4% today.", TOOLS, question="Where is AAPL?")
""")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*AssertionError: the answer is not verified to 'high': confidence *",
        "*AAPL trades at [[][[]$142.80]], up [[][[]1.4%]] today.*",
        "*- '$142.80' (amount) unsupported: *",
    ])
    assert "test_good" not in "\n".join(line for line in result.outlines if "FAILED" in line)


def test_the_ini_option_sets_the_fixtures_threshold(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nfinverify_min_confidence = medium\n")
    result = _run(pytester, """
def test_drift_is_medium(verify_answer):
    assert verify_answer("AAPL is up 1.4%.", TOOLS).confidence == "medium"

def test_invented_ticker_is_low(verify_answer):
    verify_answer("ZZZQ trades at $5.", TOOLS)
""")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*not verified to 'medium': confidence low*", "*'ZZZQ' (ticker) *"])


def test_a_bad_ini_value_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nfinverify_min_confidence = great\n")
    result = _run(pytester, "def test_x():\n    pass\n")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*finverify_min_confidence must be high, medium or low, got 'great'*"])


def test_messages_are_checked_through_the_fixture(pytester: pytest.Pytester) -> None:
    result = _run(pytester, """
import json

def transcript(answer):
    return [
        {"role": "user", "content": "Where is AAPL?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "quote", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": json.dumps(TOOLS[0]["output"])},
        {"role": "assistant", "content": answer},
    ]

def test_good(verify_answer):
    verify_answer.messages(transcript("AAPL trades at $142.30."))

def test_bad(verify_answer):
    verify_answer.messages(transcript("AAPL trades at $150."))
""")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*'$150' (amount) unsupported*"])


def test_assert_verified_returns_the_report_or_raises_readably() -> None:
    report = assert_verified("AAPL is up 1.4%.", TOOLS, min_confidence="medium")
    assert report.confidence == "medium" and report.items[1].status == "drift"
    with pytest.raises(AssertionError) as failure:
        assert_verified("AAPL is up 1.4%.", TOOLS)
    message = str(failure.value)
    assert "AAPL is up [[1.4%]]." in message and "'1.4%' (percent) drift:" in message
    with pytest.raises(InputError, match="min_confidence: must be 'high', 'medium' or 'low', got 'hi'"):
        assert_verified("AAPL", TOOLS, min_confidence="hi")
    with pytest.raises(InputError, match="answer: is empty"):
        assert_verified("", TOOLS)


def test_assert_verified_messages_reads_langchain_style_dicts() -> None:
    messages = [
        {"type": "human", "content": "Where is AAPL?"},
        {"type": "ai", "content": "", "tool_calls": [{"id": "c1", "name": "quote", "args": {}}]},
        {"type": "tool", "tool_call_id": "c1", "content": '{"symbol": "AAPL", "price": 142.3}'},
        {"type": "ai", "content": "AAPL trades at $142.30."},
    ]
    assert assert_verified_messages(messages).confidence == "high"


def test_the_entry_point_names_the_plugin_module() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["pytest11"] == {"finverify": PLUGIN}
