"""One sentence judged, every fault caught: the judge's reply becomes a
:class:`~verifier.models.Judgement`, its quote checked against the tool data.

A ``supported`` verdict whose quote is not in the tool data becomes ``unverified``.
Every fault becomes a ``not_judged`` Judgement with a note, never an exception out of
:func:`judge_sentence` or :func:`ajudge_sentence`: the answer is still checked when the
judge fails.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..index.haystack import Haystack
from ..models import Judgement
from .evidence import JudgeEvidence, quote_in_data
from .protocol import Judge, JudgeError, JudgeReply, Trigger

if TYPE_CHECKING:
    from .client import OpenAIJudge


def _judgement(reply: JudgeReply | None, note: str, *, sentence: str, start: int, end: int,
               evidence: JudgeEvidence, hay: Haystack, model: str, started: float,
               trigger: Trigger, stakes: tuple[str, ...]) -> Judgement:
    latency = round((time.perf_counter() - started) * 1000, 2)
    common: dict[str, Any] = {"sentence": sentence, "start": start, "end": end, "model": model,
                                  "latency_ms": latency, "trigger": trigger, "stakes": list(stakes)}
    if reply is None:
        return Judgement(verdict="not_judged", reason=f"not judged: {note}", **common)
    verified = bool(reply.quote.strip()) and quote_in_data(reply.quote, evidence, hay)
    verdict: str = reply.verdict
    reason = reply.reason
    if verdict == "supported" and not verified:
        verdict = "unverified"
        reason = (f"the judge said supported, but its quote {reply.quote[:80]!r} is not in the tool data"
                  if reply.quote.strip() else "the judge said supported but gave no quote")
        reason += f" (judge's reason: {reply.reason})" if reply.reason else ""
    return Judgement(verdict=verdict, quote=reply.quote, quote_verified=verified, reason=reason,
                     **common)  # type: ignore[arg-type]


def judge_sentence(judge: Judge, *, sentence: str, start: int, end: int, evidence: JudgeEvidence,
                   hay: Haystack, trigger: Trigger = "high_stakes",
                   stakes: tuple[str, ...] = ()) -> Judgement:
    """Ask ``judge`` about one sentence and check its quote. Never raises: a fault is a
    ``not_judged`` Judgement whose reason says what went wrong."""
    started = time.perf_counter()
    model = str(getattr(judge, "model", "") or type(judge).__name__)
    reply, note = None, ""
    try:
        reply = judge.judge(sentence, evidence.text)
        if not isinstance(reply, JudgeReply):
            reply, note = None, f"the judge returned {type(reply).__name__}, not a JudgeReply"
    except JudgeError as exc:
        note = str(exc)
    except Exception as exc:  # noqa: BLE001  a user's judge may fail in any way; the answer must not
        note = f"the judge failed: {type(exc).__name__}: {exc}"
    return _judgement(reply, note, sentence=sentence, start=start, end=end, evidence=evidence, hay=hay,
                      model=model, started=started, trigger=trigger, stakes=stakes)


async def ajudge_sentence(judge: OpenAIJudge, *, sentence: str, start: int, end: int,
                          evidence: JudgeEvidence, hay: Haystack, trigger: Trigger = "high_stakes",
                          stakes: tuple[str, ...] = ()) -> Judgement:
    """:func:`judge_sentence` for the async client: never raises."""
    started = time.perf_counter()
    reply, note = None, ""
    try:
        reply = await judge.ajudge(sentence, evidence.text)
    except JudgeError as exc:
        note = str(exc)
    except Exception as exc:  # noqa: BLE001  the answer must not fail because the judge did
        note = f"the judge failed: {type(exc).__name__}: {exc}"
    return _judgement(reply, note, sentence=sentence, start=start, end=end, evidence=evidence, hay=hay,
                      model=judge.model, started=started, trigger=trigger, stakes=stakes)
