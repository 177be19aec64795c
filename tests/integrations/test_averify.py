"""``averify`` / ``averify_messages``: the report ``verify`` gives, without blocking the
event loop, and a judge with ``ajudge`` asked on the caller's loop (httpx's mock
transport answers, recording which thread asked)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import httpx
import pytest

from verifier import (
    InputError,
    JudgeReply,
    OpenAIJudge,
    averify,
    averify_messages,
    verify,
    verify_messages,
)

TOOLS = [{"name": "quote", "id": "q1", "output": {"symbol": "AAPL", "price": 142.3, "change_pct": 1.42}}]
CASES = [
    "AAPL trades at $142.30.",
    "AAPL trades at $142.80, up 1.4% today.",  # one unsupported, one drifting
    "ZZZQ is at $5.",  # an invented ticker: low
]


def _same(a: Any, b: Any) -> None:
    """Two reports equal, their timings aside."""
    left, right = a.model_dump(), b.model_dump()
    for d in (left, right):
        d.pop("latency_ms", None)
        for j in d.get("judgements", []):
            j.pop("latency_ms", None)
    assert left == right


@pytest.mark.parametrize("answer", CASES)
def test_averify_gives_the_report_verify_gives(answer: str) -> None:
    expected = verify(answer, TOOLS, question="Where is AAPL?", judge=False)
    got = asyncio.run(averify(answer, TOOLS, question="Where is AAPL?", judge=False))
    _same(got, expected)
    assert got.confidence == expected.confidence


def test_averify_messages_reads_the_transcript_as_verify_messages_does() -> None:
    messages = [
        {"role": "user", "content": "Where is AAPL?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "quote", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": json.dumps(TOOLS[0]["output"])},
        {"role": "assistant", "content": "AAPL trades at $142.80."},
    ]
    got = asyncio.run(averify_messages(messages, judge=False))
    _same(got, verify_messages(messages))
    assert [(i.text, i.status) for i in got.items] == [("AAPL", "exact"), ("$142.80", "unsupported")]


def test_averify_raises_what_verify_raises() -> None:
    with pytest.raises(InputError, match="answer: is empty"):
        asyncio.run(averify("  ", TOOLS))
    with pytest.raises(InputError, match="policy"):
        asyncio.run(averify("AAPL", TOOLS, policy={"no_such_setting": 1}))


def test_the_loop_keeps_running_while_it_verifies() -> None:
    answer = " ".join(f"AAPL was ${100 + i}.{i % 10}0 on day {i}." for i in range(400))

    async def main() -> tuple[int, Any]:
        ticks = 0
        task = asyncio.create_task(averify(answer, TOOLS, judge=False))
        while not task.done():
            ticks += 1
            await asyncio.sleep(0.001)
        return ticks, task.result()

    ticks, report = asyncio.run(main())
    assert ticks > 1  # the loop ran other work while the report was computed
    assert len(report.items) > 400


def _judge(threads: list[str]) -> OpenAIJudge:
    def reply(request: httpx.Request) -> httpx.Response:
        threads.append(threading.current_thread().name)
        content = json.dumps({"verdict": "supported", "quote": "symbol: AAPL", "reason": "in the quote"})
        body = json.dumps({"choices": [{"message": {"role": "assistant", "content": content}}]}).encode()
        return httpx.Response(200, stream=httpx.ByteStream(body))  # read as the judge reads: a stream

    return OpenAIJudge("http://judge.invalid/v1", "scripted", transport=httpx.MockTransport(reply))


def test_an_async_judge_is_asked_on_the_callers_loop() -> None:
    threads: list[str] = []
    judge = _judge(threads)

    async def main() -> tuple[Any, str]:
        try:
            return await averify("You should buy AAPL.", TOOLS, judge=judge), threading.current_thread().name
        finally:
            await judge.aclose()

    report, loop_thread = asyncio.run(main())
    assert [(j.verdict, j.quote_verified, j.model) for j in report.judgements] == [("supported", True, "scripted")]
    assert threads == [loop_thread]  # the async client, on the loop, not the worker thread


def test_on_a_second_loop_the_judge_falls_back_to_its_sync_client() -> None:
    threads: list[str] = []
    judge = _judge(threads)
    first = asyncio.run(averify("You should buy AAPL.", TOOLS, judge=judge))
    second = asyncio.run(averify("You should buy AAPL.", TOOLS, judge=judge))
    assert [j.verdict for j in first.judgements + second.judgements] == ["supported", "supported"]
    assert threads[0] == "MainThread" and threads[1] != "MainThread"
    judge.close()


def test_an_async_judge_gets_the_deadline() -> None:
    class Slow:
        model = "slow"

        def judge(self, claim: str, evidence: str) -> JudgeReply:
            raise AssertionError("the sync path should not be used")

        async def ajudge(self, claim: str, evidence: str) -> JudgeReply:
            await asyncio.sleep(5)
            return JudgeReply(verdict="supported", quote="AAPL")

    started = time.monotonic()
    report = asyncio.run(averify("You should buy AAPL.", TOOLS, judge=Slow(), policy={"deadline_ms": 600}))
    assert time.monotonic() - started < 3
    assert [j.verdict for j in report.judgements] == ["not_judged"]
    assert "deadline" in report.judgements[0].reason
