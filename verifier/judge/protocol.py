"""The judge's interface: the :class:`Judge` protocol any judge implements, the verdict
object it answers with (:class:`JudgeReply`), and the errors it raises.

Kept apart from the HTTP client so that a caller's own judge (and the pipeline's state,
which holds one) needs only these names, not the client.

Errors a judge raises (caught by :func:`verifier.judge.sentence.judge_sentence`)::

    JudgeError (Exception)
    ├── JudgeUnavailable   timeout, connection error, HTTP error (after bounded retries on
    │                      429/5xx/timeouts/connection errors), per-request budget spent,
    │                      circuit breaker open
    └── JudgeUnparseable   the reply is not the verdict object
"""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, field_validator

from ..models import DEFER_BUILD

Trigger = Literal["high_stakes", "flagged", "sampled"]


class JudgeError(Exception):
    """Base of the judge's faults; each becomes a ``not_judged`` verdict with this note."""


class JudgeUnavailable(JudgeError):
    """The judge could not be reached or did not answer in time."""


class JudgeUnparseable(JudgeError):
    """The judge answered, but not with the verdict object."""


class JudgeReply(BaseModel):
    """The verdict object the judge is asked for (extra keys are ignored)."""

    # built on the first reply parsed (answers checked without a judge never need it),
    # where pydantic's deferred build is thread-safe (see verifier.models.DEFER_BUILD)
    model_config = ConfigDict(extra="ignore", frozen=True, defer_build=DEFER_BUILD)

    verdict: Literal["supported", "unsupported", "partial"]
    quote: str = ""
    reason: str = ""

    @field_validator("verdict", mode="before")
    @classmethod
    def _fold_case(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("quote", "reason", mode="before")
    @classmethod
    def _none_is_empty(cls, value: Any) -> Any:
        return "" if value is None else value


@runtime_checkable
class Judge(Protocol):
    """Anything that can judge one claim against evidence text.

    ``judge`` returns the parsed reply or raises :class:`JudgeError`; ``model`` names
    the model in the report. :class:`OpenAIJudge` is the built-in implementation."""

    model: str

    def judge(self, claim: str, evidence: str) -> JudgeReply:
        """The verdict on ``claim`` given ``evidence`` (the rendered tool records)."""
        ...
