"""The OpenAI Agents SDK guardrail on real runs: a real ``Agent`` and ``Runner``, a real
function tool, and a scripted ``Model`` (canned responses, no network) that calls the
tool and then answers with the text a test gives it."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

agents = pytest.importorskip("agents", reason="the [agents] extra (openai-agents) is not installed")

from agents import (
    Agent,
    AgentHooks,
    ModelResponse,
    OutputGuardrailTripwireTriggered,
    Runner,
    Usage,
    function_tool,
    set_tracing_disabled,
)
from agents.models.interface import Model
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from verifier import InputError, Report
from verifier.integrations.agents import VerifierGuardrail

set_tracing_disabled(True)  # no trace export: the tests use no network

PRICES = {"AAPL": 142.3, "MSFT": 411.22}


@function_tool
def get_quote(symbol: str) -> dict[str, Any]:
    """The latest quote of a ticker."""
    return {"symbol": symbol, "price": PRICES[symbol], "change_pct": 1.42}


@function_tool
def get_history(symbol: str) -> str:
    """Closing prices as CSV text."""
    return f"date,symbol,close\n2025-01-02,{symbol},139.10\n2025-01-03,{symbol},140.25"


class ScriptedModel(Model):
    """Calls each tool in ``calls`` (name, arguments) in one turn, then answers ``answer``."""

    def __init__(self, calls: list[tuple[str, dict[str, Any]]], answer: str) -> None:
        self.turns: list[list[Any]] = [[
            ResponseFunctionToolCall(type="function_call", call_id=f"call_{i}", name=name,
                                     arguments=json.dumps(args), id=f"fc_{i}", status="completed")
            for i, (name, args) in enumerate(calls, 1)]] if calls else []
        self.turns.append([ResponseOutputMessage(
            type="message", id="msg_1", role="assistant", status="completed",
            content=[ResponseOutputText(type="output_text", text=answer, annotations=[])])])

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        return ModelResponse(output=self.turns.pop(0), usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("the tests run without streaming")


def _agent(guard: VerifierGuardrail, answer: str, symbol: str = "AAPL", history: bool = False) -> Agent[Any]:
    calls = [("get_quote", {"symbol": symbol})] + ([("get_history", {"symbol": symbol})] if history else [])
    return guard.apply(Agent(name="analyst", model=ScriptedModel(calls, answer),
                             tools=[get_quote, get_history], instructions="Answer from the tools."))


def _report(result: Any) -> Report:
    [outcome] = result.output_guardrail_results
    assert isinstance(outcome.output.output_info, Report)
    return outcome.output.output_info


def test_a_supported_answer_passes_with_its_report() -> None:
    guard = VerifierGuardrail()
    result = asyncio.run(Runner.run(_agent(guard, "AAPL trades at $142.30, up 1.42%."), "Where is AAPL?"))
    assert result.final_output == "AAPL trades at $142.30, up 1.42%."
    report = _report(result)
    assert report.confidence == "high" and not result.output_guardrail_results[0].output.tripwire_triggered
    price = next(i for i in report.items if i.text == "$142.30")
    assert (price.evidence[0].tool, price.evidence[0].tool_id, price.evidence[0].path) == \
        ("get_quote", "call_1", "$.price")


def test_a_low_confidence_answer_trips_the_guardrail() -> None:
    guard = VerifierGuardrail()
    with pytest.raises(OutputGuardrailTripwireTriggered) as tripped:
        asyncio.run(Runner.run(_agent(guard, "AAPL trades at $151.00; ZZZQ is at $5."), "Where is AAPL?"))
    report = tripped.value.guardrail_result.output.output_info
    assert report.confidence == "low"
    assert {i.text: i.status for i in report.items if i.flagged} == {"$151.00": "unsupported", "ZZZQ": "unsupported",
                                                                    "$5": "unsupported"}


def test_medium_passes_with_the_report_unless_fail_on_is_medium() -> None:
    answer = "AAPL trades at $142.30, up 1.4%."  # rounded without a hedge: drift
    result = asyncio.run(Runner.run(_agent(VerifierGuardrail(), answer), "Where is AAPL?"))
    report = _report(result)
    assert report.confidence == "medium" and [i.status for i in report.items if i.flagged] == ["drift"]
    assert report.items[0].text == "AAPL"
    with pytest.raises(OutputGuardrailTripwireTriggered):
        asyncio.run(Runner.run(_agent(VerifierGuardrail(fail_on="medium"), answer), "Where is AAPL?"))


def test_a_text_tool_result_is_read_as_a_table() -> None:
    answer = "AAPL closed at $140.25 on January 3, 2025, after $139.10 the day before."
    result = asyncio.run(Runner.run(_agent(VerifierGuardrail(), answer, history=True), "AAPL history?"))
    report = _report(result)
    close = next(i for i in report.items if i.text == "$140.25")
    assert (close.status, close.evidence[0].tool, close.evidence[0].tool_id) == ("exact", "get_history", "call_2")


def test_concurrent_runs_are_verified_against_their_own_tool_outputs() -> None:
    guard = VerifierGuardrail()  # one guard for all three runs

    async def together() -> list[Any]:
        return await asyncio.gather(
            Runner.run(_agent(guard, "AAPL trades at $142.30."), "AAPL?"),
            Runner.run(_agent(guard, "MSFT trades at $411.22.", symbol="MSFT"), "MSFT?"),
            # AAPL's figures, in a run that fetched only MSFT: supported only if runs mixed
            Runner.run(_agent(guard, "AAPL trades at $142.30.", symbol="MSFT"), "AAPL?"),
            return_exceptions=True)

    aapl, msft, mixed = asyncio.run(together())
    assert _report(aapl).confidence == "high" and _report(msft).confidence == "high"
    assert isinstance(mixed, OutputGuardrailTripwireTriggered)
    report = mixed.guardrail_result.output.output_info
    assert report.confidence == "low"
    assert [(i.text, i.flagged) for i in report.items] == [("AAPL", True), ("$142.30", True)]
    assert not any(e.tool_id for i in report.items for e in i.evidence)  # nothing from the other runs


def test_run_hooks_record_for_an_agent_with_hooks_of_its_own() -> None:
    class Own(AgentHooks[Any]):
        pass

    guard = VerifierGuardrail()
    agent = Agent(name="analyst", model=ScriptedModel([("get_quote", {"symbol": "AAPL"})], "AAPL is $142.30."),
                  tools=[get_quote], hooks=Own())
    with pytest.raises(InputError, match="has hooks already"):
        guard.apply(agent)
    agent = agent.clone(output_guardrails=[guard.guardrail])
    result = asyncio.run(Runner.run(agent, "AAPL?", hooks=guard.run_hooks))
    assert _report(result).confidence == "high"


def test_the_question_comes_from_the_run_input() -> None:
    guard = VerifierGuardrail()
    result = asyncio.run(Runner.run(_agent(guard, "It trades at $142.30."), "Where is AAPL trading?"))
    notes = [n.message for n in _report(result).notes]
    assert any("the question asks about AAPL" in n for n in notes), notes
    with pytest.raises(InputError, match="fail_on: must be 'medium' or 'low'"):
        VerifierGuardrail(fail_on="high")  # type: ignore[arg-type]
