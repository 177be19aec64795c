"""The LangChain Runnable on real ``langchain_core`` objects: messages built as an
agent builds them (a real ``@tool`` invoked with the model's tool call gives the
``ToolMessage``), invoked, batched, awaited and piped in a chain."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("langchain_core", reason="the [langchain] extra (langchain-core) is not installed")

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.runnables import Runnable, RunnableLambda
from langchain_core.tools import tool

from verifier import InputError, Report, TranscriptError, verify
from verifier.integrations.langchain import verifier_runnable

QUOTE = {"symbol": "AAPL", "price": 142.3, "change_pct": 1.42}


@tool
def get_quote(symbol: str) -> str:
    """The latest quote of a ticker, as JSON."""
    return json.dumps({**QUOTE, "symbol": symbol})


def run_messages(answer: str, question: str = "Where is AAPL trading?") -> list[Any]:
    call = {"name": "get_quote", "args": {"symbol": "AAPL"}, "id": "call_1", "type": "tool_call"}
    result = get_quote.invoke(call)  # the ToolMessage an agent loop appends
    assert isinstance(result, ToolMessage)
    return [SystemMessage("Answer from the tools."), HumanMessage(question),
            AIMessage(content="", tool_calls=[call]), result, AIMessage(answer)]


def test_the_runnable_gives_the_report_of_the_final_answer() -> None:
    runnable = verifier_runnable()
    assert isinstance(runnable, Runnable)
    report = runnable.invoke(run_messages("AAPL trades at $142.30, up 1.4%."))
    assert isinstance(report, Report)
    expected = verify("AAPL trades at $142.30, up 1.4%.", [{"name": "get_quote", "id": "call_1", "output": QUOTE}],
                      question="Where is AAPL trading?", judge=False)
    assert [(i.text, i.status) for i in report.items] == [(i.text, i.status) for i in expected.items]
    assert report.confidence == "medium"  # 1.4% for 1.42 without a hedge: drift
    price = report.items[1]
    assert (price.evidence[0].tool, price.evidence[0].tool_id, price.evidence[0].path) == \
        ("get_quote", "call_1", "$.price")


def test_batch_ainvoke_and_a_graph_state() -> None:
    runnable = verifier_runnable()
    good, bad = run_messages("AAPL trades at $142.30."), run_messages("AAPL trades at $150, up 3.1%.")
    assert [r.confidence for r in runnable.batch([good, bad])] == ["high", "low"]
    assert asyncio.run(runnable.ainvoke({"messages": bad, "step": 3})).confidence == "low"


def test_in_a_chain_after_the_step_that_makes_the_messages() -> None:
    chain = RunnableLambda(run_messages) | verifier_runnable(policy={"retry_on_low": False})
    report = chain.invoke("AAPL trades at $150, up 3.1%.")
    assert report.confidence == "low" and report.action != "retry"
    assert [(i.text, i.flagged) for i in report.items] == [("AAPL", False), ("$150", True), ("3.1%", True)]


def test_content_blocks_and_earlier_turns() -> None:
    first = run_messages("AAPL trades at $142.30.")
    later = [HumanMessage("And now?"), AIMessage(content=[{"type": "text", "text": "Still $142.30."}])]
    report = verifier_runnable().invoke(first + later)
    # no tool call this turn: the price is only in an earlier turn's results
    assert [(i.text, i.status) for i in report.items] == [("$142.30", "stale")]


def test_unreadable_input_says_what_is_wrong() -> None:
    runnable = verifier_runnable()
    with pytest.raises(TranscriptError, match="no final assistant answer"):
        runnable.invoke(run_messages("AAPL trades at $142.30.")[:-1])
    with pytest.raises(TranscriptError, match="must be a list of messages"):
        runnable.invoke("AAPL trades at $142.30.")
    with pytest.raises(InputError, match="unknown format 'lc'"):
        verifier_runnable(format="lc")
