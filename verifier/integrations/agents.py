"""An OpenAI Agents SDK (``openai-agents``) output guardrail: the agent's final output
verified against the outputs of the tools it called in the run.

::

    from verifier.integrations.agents import VerifierGuardrail

    guard = VerifierGuardrail()                    # trips on low confidence (fail_on="low")
    agent = guard.apply(Agent(name="analyst", tools=[get_quote]))
    result = await Runner.run(agent, "Where is AAPL?")  # OutputGuardrailTripwireTriggered on low
    report = result.output_guardrail_results[0].output.output_info   # the Report, always

The guard is the agent's hooks (``AgentHooks``): ``on_tool_end`` records each tool's
name, call id, arguments and the value it returned (not the string the model was
shown: a dict stays a dict; a string is read as JSON or a table where it is one). The
guardrail verifies the final output (a structured output as its JSON) with
:func:`verifier.averify`, the question being the run's last user message, and puts the
Report in ``output_info``; its tripwire is set when confidence reaches ``fail_on``. In
a run with handoffs, pass ``hooks=guard.run_hooks`` to ``Runner.run`` instead, so every
agent's tool calls are recorded. One guard serves any number of runs, concurrent ones
too: the records of a run are kept with the run's ``Usage`` object, which the SDK
shares between the run's context and its tool contexts, and go when the run does.
Importing this module needs the ``[agents]`` extra; ``import verifier`` does not.
"""

from __future__ import annotations

import dataclasses
import json
import weakref
from typing import Any, Literal

from pydantic import BaseModel

try:
    from agents import (
        Agent,
        AgentHooks,
        GuardrailFunctionOutput,
        OutputGuardrail,
        RunContextWrapper,
        RunHooks,
        Tool,
    )
except ModuleNotFoundError as exc:  # say which extra brings it
    raise ModuleNotFoundError(f"verifier.integrations.agents needs the [agents] extra "
                              f"(pip install 'finverify[agents]'): {exc}", name=exc.name) from exc

from .._errors import InputError
from ..aio import averify
from ..inputs.transcripts import parse_text
from ..judge.protocol import Judge
from ..policy import Policy

__all__ = ["VerifierGuardrail"]

_RANK = {"high": 0, "medium": 1, "low": 2}


class VerifierGuardrail(AgentHooks[Any]):
    """Record a run's tool outputs (as the agent's hooks) and verify its final output
    against them (:attr:`guardrail`); see the module docstring."""

    def __init__(self, *, fail_on: Literal["medium", "low"] = "low", locale: str = "en_US",
                 policy: Policy | dict[str, Any] | None = None,
                 judge: Judge | Literal[False] | None = None) -> None:
        if fail_on not in ("medium", "low"):
            raise InputError(f"must be 'medium' or 'low', got {fail_on!r}", "fail_on")
        self.fail_on, self.locale, self.policy, self.judge = fail_on, locale, policy, judge
        self._runs: dict[int, list[dict[str, Any]]] = {}
        self.guardrail: OutputGuardrail[Any] = OutputGuardrail(self.check, name="finverify")
        self.run_hooks: RunHooks[Any] = _RunHooks(self)

    def apply(self, agent: Agent[Any]) -> Agent[Any]:
        """A copy of ``agent`` with this guard as its hooks and its output guardrail."""
        if agent.hooks is not None and agent.hooks is not self:
            raise InputError(f"agent {agent.name!r} has hooks already: give Runner.run "
                             "hooks=guard.run_hooks and add guard.guardrail to its output_guardrails",
                             "agent")
        return agent.clone(hooks=self, output_guardrails=[*agent.output_guardrails, self.guardrail])

    async def on_tool_end(self, context: RunContextWrapper[Any], agent: Agent[Any], tool: Tool,
                          result: object) -> None:
        self.record(context, tool, result)

    def record(self, context: RunContextWrapper[Any], tool: Tool, result: object) -> None:
        """Keep one tool call's output for the run ``context`` belongs to."""
        results = self._results(context)
        arguments = getattr(context, "tool_arguments", None)
        try:
            arguments = json.loads(arguments) if isinstance(arguments, str) and arguments else {}
        except ValueError:
            pass  # kept as the text the model wrote
        results.append({"name": getattr(tool, "name", type(tool).__name__),
                        "id": getattr(context, "tool_call_id", None) or f"call_{len(results) + 1}",
                        "output": _as_data(result), "arguments": arguments})

    def _results(self, context: RunContextWrapper[Any]) -> list[dict[str, Any]]:
        usage = context.usage
        key = id(usage)
        if key not in self._runs:
            self._runs[key] = []
            weakref.finalize(usage, self._runs.pop, key, None)  # the run is over: forget it
        return self._runs[key]

    async def check(self, context: RunContextWrapper[Any], agent: Agent[Any],
                    output: Any) -> GuardrailFunctionOutput:
        """The guardrail function: the Report as ``output_info``; the tripwire set at
        ``fail_on`` or worse."""
        report = await averify(_as_text(output), list(self._runs.get(id(context.usage), [])),
                               question=_question(getattr(context, "turn_input", None)),
                               locale=self.locale, policy=self.policy, judge=self.judge)
        return GuardrailFunctionOutput(output_info=report,
                                       tripwire_triggered=_RANK[report.confidence] >= _RANK[self.fail_on])


class _RunHooks(RunHooks[Any]):
    """The guard's recording as run hooks: every agent of the run, handoffs included."""

    def __init__(self, guard: VerifierGuardrail) -> None:
        self.guard = guard

    async def on_tool_end(self, context: RunContextWrapper[Any], agent: Agent[Any], tool: Tool,
                          result: object) -> None:
        self.guard.record(context, tool, result)


def _as_data(result: object) -> Any:
    """A tool's return value as the JSON-like data the haystack reads."""
    if isinstance(result, str):
        return parse_text(result)
    if isinstance(result, BaseModel):
        return result.model_dump(mode="json")
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        return dataclasses.asdict(result)
    if result is None or isinstance(result, (dict, list, tuple, int, float, bool)):
        return result
    return parse_text(str(result))


def _as_text(output: Any) -> str:
    """The final output as text: a structured output as its JSON."""
    if isinstance(output, str):
        return output
    if isinstance(output, BaseModel):
        return output.model_dump_json(indent=1)
    return json.dumps(output, indent=1, default=str, ensure_ascii=False)


def _question(items: Any) -> str | None:
    """The text of the last user message of the run's input, if there is one."""
    for item in reversed(items if isinstance(items, list) else []):
        if isinstance(item, dict) and item.get("role") == "user":
            content = item.get("content")
            if isinstance(content, str):
                return content
            if isinstance(content, list):
                return "".join(p.get("text", "") for p in content
                               if isinstance(p, dict) and p.get("type") == "input_text") or None
    return None
