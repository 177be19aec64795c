"""LangChain (``langchain-core``): a Runnable that verifies a run's messages.

::

    from verifier.integrations.langchain import verifier_runnable

    verify_run = verifier_runnable()               # Runnable[messages, Report]
    report = verify_run.invoke([HumanMessage(...), AIMessage(tool_calls=[...]), ToolMessage(...),
                                AIMessage("AAPL trades at $142.30.")])
    chain = agent | verify_run                     # a state dict with "messages" works too

The input is the run's message list (``HumanMessage``, ``AIMessage`` with
``tool_calls``, ``ToolMessage``, as objects or their dict forms) or a mapping with a
``messages`` list (a LangGraph state); the output is the :class:`~verifier.Report` of
the final answer against the current turn's tool results, read by
:mod:`verifier.inputs.transcripts`. ``ainvoke`` runs :func:`verifier.averify`, so the event
loop is not blocked. A transcript that cannot be read raises ``TranscriptError``.
Importing this module needs the ``[langchain]`` extra; ``import verifier`` does not.
"""

from __future__ import annotations

from typing import Any, Literal

try:
    from langchain_core.runnables import RunnableLambda
except ModuleNotFoundError as exc:  # say which extra brings it
    raise ModuleNotFoundError(f"verifier.integrations.langchain needs the [langchain] extra "
                              f"(pip install 'finverify[langchain]'): {exc}", name=exc.name) from exc

from .._errors import InputError
from ..aio import averify_messages
from ..inputs.transcripts import FORMATS, read_transcript
from ..judge.protocol import Judge
from ..models import Report
from ..pipeline import verify
from ..policy import Policy

__all__ = ["verifier_runnable"]


def verifier_runnable(*, format: str = "auto", locale: str = "en_US",
                      policy: Policy | dict[str, Any] | None = None,
                      judge: Judge | Literal[False] | None = None) -> RunnableLambda[Any, Report]:
    """A Runnable from a run's messages to their Report (see the module docstring);
    ``format`` as in :func:`verifier.verify_messages` (``auto`` tells LangChain messages
    from OpenAI or Anthropic ones)."""
    if format != "auto" and format not in FORMATS:  # said now, not at the first invoke
        raise InputError(f"unknown format {format!r}; use 'auto' or one of {', '.join(FORMATS)}", "format")

    def run(messages: Any) -> Report:
        t = read_transcript(messages, format=format)
        return verify(t.answer, t.tool_results, question=t.question, locale=locale, policy=policy,
                      history=t.history or None, judge=judge)

    async def arun(messages: Any) -> Report:
        return await averify_messages(messages, format=format, locale=locale, policy=policy, judge=judge)

    return RunnableLambda(run, afunc=arun, name="finverify")
