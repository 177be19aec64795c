"""``averify`` and ``averify_messages``: :func:`~verifier.verify` for asyncio callers.

The verify pass is CPU work and runs in a worker thread (``asyncio.to_thread``), so the
event loop keeps serving while it runs; it is the same pipeline, so the report is the
one ``verify`` gives. The model judge, when there is one, is the only I/O: a judge with
an async ``ajudge`` method (:class:`~verifier.OpenAIJudge`) is asked on the caller's
event loop (its ``httpx.AsyncClient``), the worker thread waiting for each verdict; the
deadline in force in the thread bounds each call as it does the sync path. A judge of
ours is bound to the first event loop that uses it asynchronously (its client and
semaphore live there): on another loop (a second ``asyncio.run``) it is asked with its
sync client instead. A judge without ``ajudge`` is called in the worker thread.
"""

from __future__ import annotations

import asyncio
import inspect
import weakref
from typing import Any, Literal

from .deadline import current
from .index.haystack import Haystack
from .inputs.transcripts import read_transcript
from .judge import Judge, JudgeReply, JudgeUnavailable, judge_from_env
from .models import Report
from .pipeline import verify
from .policy import Policy

__all__ = ["averify", "averify_messages"]

#: The event loop each async-capable judge was first asked on.
_LOOPS: weakref.WeakKeyDictionary[Any, asyncio.AbstractEventLoop] = weakref.WeakKeyDictionary()


class _OnLoop:
    """A sync :class:`Judge` (what the pipeline calls, in the worker thread) that asks an
    async judge on the caller's event loop."""

    def __init__(self, judge: Any, loop: asyncio.AbstractEventLoop) -> None:
        self._judge, self._loop = judge, loop
        self.model = str(getattr(judge, "model", "") or type(judge).__name__)
        self.max_concurrency = getattr(judge, "max_concurrency", 4)

    def judge(self, claim: str, evidence: str) -> JudgeReply:
        deadline = current()  # the worker thread's; the loop's task gets it too

        async def ask() -> JudgeReply:
            if deadline is None:
                return await self._judge.ajudge(claim, evidence)
            with deadline.active():
                return await self._judge.ajudge(claim, evidence)

        future = asyncio.run_coroutine_threadsafe(ask(), self._loop)
        try:
            reply: JudgeReply = future.result(None if deadline is None else max(0.0, deadline.remaining()))
        except TimeoutError:
            future.cancel()  # the verdict comes too late to count: stop waiting for it on the loop
            raise JudgeUnavailable("the judge had not answered by the deadline") from None
        return reply


def _on_loop(judge: Judge | Literal[False] | None) -> Judge | Literal[False] | None:
    """The judge to hand the pipeline: an async-capable one wrapped to run on this loop."""
    if judge is None:
        judge = judge_from_env()
        if judge is None:
            return False
    if judge is False or not inspect.iscoroutinefunction(getattr(judge, "ajudge", None)):
        return judge
    loop = asyncio.get_running_loop()
    try:
        bound = _LOOPS.setdefault(judge, loop)
    except TypeError:  # not weak-referenceable: nothing to remember, use it here
        bound = loop
    if bound is not loop:
        return judge  # its async client belongs to another loop: the sync path
    return _OnLoop(judge, loop)


async def averify(
    answer: str,
    tool_results: Any = None,
    *,
    question: str | None = None,
    locale: str = "en_US",
    policy: Policy | dict[str, Any] | None = None,
    haystack: Haystack | None = None,
    history: Any = None,
    judge: Judge | Literal[False] | None = None,
) -> Report:
    """:func:`~verifier.verify` without blocking the event loop: the same arguments, the
    same :class:`Report`, the same errors (see the module docstring for the judge)."""
    judge = _on_loop(judge)
    # to_thread runs verify in a copy of this context: a deadline the caller set holds there
    return await asyncio.to_thread(verify, answer, tool_results, question=question, locale=locale,
                                   policy=policy, haystack=haystack, history=history, judge=judge)


async def averify_messages(
    messages: Any,
    *,
    format: str = "auto",
    locale: str = "en_US",
    policy: Policy | dict[str, Any] | None = None,
    judge: Judge | Literal[False] | None = None,
) -> Report:
    """:func:`~verifier.verify_messages` for asyncio callers (reading the transcript is
    quick and done here; the verify pass runs as in :func:`averify`)."""
    t = read_transcript(messages, format=format)
    return await averify(t.answer, t.tool_results, question=t.question, locale=locale,
                         policy=policy, history=t.history or None, judge=judge)
