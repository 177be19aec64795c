"""A pytest plugin so an assistant's test suite gates on the verifier.

::

    from verifier.integrations.pytest_plugin import assert_verified

    def test_quote_answer(verify_answer):          # the fixture: the ini defaults applied
        tools = [{"name": "quote", "output": {"symbol": "AAPL", "price": 142.3}}]
        verify_answer("AAPL trades at $142.30.", tools)
        assert_verified("AAPL is at about $142.", tools, min_confidence="medium")  # or directly

A failure is an ``AssertionError`` whose message is the answer with each flagged value
in ``[[...]]`` and one line per flagged value with its status and reason. The package
registers the plugin (entry point ``pytest11``, name ``finverify``); ini options
``finverify_min_confidence`` (default ``high``) and ``finverify_locale`` (``en_US``)
set the fixture's defaults. Loading it imports ``verifier`` (about 0.4 s at the start
of a session); ``-p no:finverify`` leaves it out.
"""

from __future__ import annotations

from typing import Any

import pytest

from .._errors import InputError
from ..inputs.transcripts import read_transcript
from ..models import Report
from ..pipeline import verify
from ..policy import Policy
from .explain import explain

__all__ = ["Verifier", "assert_verified", "assert_verified_messages"]

_RANK = {"high": 0, "medium": 1, "low": 2}


def _required(min_confidence: str) -> int:
    if min_confidence not in _RANK:
        raise InputError(f"must be 'high', 'medium' or 'low', got {min_confidence!r}", "min_confidence")
    return _RANK[min_confidence]


def _gate(answer: str, report: Report, min_confidence: str) -> Report:
    __tracebackhide__ = True
    if _RANK[report.confidence] > _required(min_confidence):
        raise AssertionError(f"the answer is not verified to {min_confidence!r}: {explain(answer, report)}")
    return report


def assert_verified(answer: str, tool_results: Any, min_confidence: str = "high", *,
                    question: str | None = None, locale: str = "en_US",
                    policy: Policy | dict[str, Any] | None = None) -> Report:
    """Verify ``answer`` against ``tool_results`` (as :func:`verifier.verify`, no model
    judge) and fail unless its confidence is ``min_confidence`` or better; returns the
    report. Unusable input raises the verifier's ``InputError``, not an assertion."""
    __tracebackhide__ = True
    _required(min_confidence)
    report = verify(answer, tool_results, question=question, locale=locale, policy=policy, judge=False)
    return _gate(answer, report, min_confidence)


def assert_verified_messages(messages: Any, min_confidence: str = "high", *, locale: str = "en_US",
                             policy: Policy | dict[str, Any] | None = None) -> Report:
    """:func:`assert_verified` on a transcript (OpenAI, Anthropic or LangChain messages):
    its final answer against its current turn's tool results."""
    __tracebackhide__ = True
    t = read_transcript(messages)
    _required(min_confidence)
    report = verify(t.answer, t.tool_results, question=t.question, locale=locale, policy=policy,
                    history=t.history or None, judge=False)
    return _gate(t.answer, report, min_confidence)


class Verifier:
    """What the ``verify_answer`` fixture gives: :func:`assert_verified` with the session's
    defaults (ini options); ``.messages(...)`` checks a transcript."""

    def __init__(self, min_confidence: str = "high", locale: str = "en_US") -> None:
        _required(min_confidence)
        self.min_confidence, self.locale = min_confidence, locale

    def __call__(self, answer: str, tool_results: Any, min_confidence: str | None = None, *,
                 question: str | None = None, locale: str | None = None,
                 policy: Policy | dict[str, Any] | None = None) -> Report:
        __tracebackhide__ = True
        return assert_verified(answer, tool_results, min_confidence or self.min_confidence,
                               question=question, locale=locale or self.locale, policy=policy)

    def messages(self, messages: Any, min_confidence: str | None = None, *, locale: str | None = None,
                 policy: Policy | dict[str, Any] | None = None) -> Report:
        __tracebackhide__ = True
        return assert_verified_messages(messages, min_confidence or self.min_confidence,
                                        locale=locale or self.locale, policy=policy)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("finverify_min_confidence", "Lowest confidence the verify_answer fixture accepts: "
                  "high, medium or low (default high).", default="high")
    parser.addini("finverify_locale", "Locale the verify_answer fixture reads answers in (default en_US).",
                  default="en_US")


def pytest_configure(config: pytest.Config) -> None:
    level = config.getini("finverify_min_confidence")
    if level not in _RANK:
        raise pytest.UsageError(f"finverify_min_confidence must be high, medium or low, got {level!r}")


@pytest.fixture
def verify_answer(pytestconfig: pytest.Config) -> Verifier:
    """Check an answer against its tool results and fail the test below the configured
    confidence (ini ``finverify_min_confidence``); returns the report."""
    return Verifier(pytestconfig.getini("finverify_min_confidence"), pytestconfig.getini("finverify_locale"))
