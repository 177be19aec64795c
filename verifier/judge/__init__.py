"""The model judge: a second opinion on high-stakes sentences from any OpenAI-compatible
chat-completions endpoint, with its own evidence checked before it is believed.

- :mod:`.stakes`: which sentences are high-stakes;
- :mod:`.protocol`: the :class:`Judge` protocol, the verdict object, the errors;
- :mod:`.evidence`: the tool records the judge is shown, and the check of its quote;
- :mod:`.prompt`: the messages it is sent and the parsing of its reply;
- :mod:`.client`: the OpenAI-compatible HTTP client, its circuit breaker in :mod:`.breaker`;
- :mod:`.env`: the client the ``VERIFIER_JUDGE_*`` variables configure;
- :mod:`.sentence`: one sentence judged, every fault a ``not_judged`` verdict.

The public names are importable from here (``from verifier.judge import OpenAIJudge``).
:class:`OpenAIJudge` is loaded on first access (module ``__getattr__``): its module imports
asyncio, which ``import verifier`` and the plain verify path never need (issue 21)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .breaker import CircuitBreaker
from .env import judge_from_env
from .evidence import JudgeEvidence, evidence_for, quote_in_data
from .prompt import build_messages, parse_reply
from .protocol import Judge, JudgeError, JudgeReply, JudgeUnavailable, JudgeUnparseable
from .sentence import ajudge_sentence, judge_sentence

if TYPE_CHECKING:
    from .client import OpenAIJudge

__all__ = [
    "CircuitBreaker",
    "Judge",
    "JudgeError",
    "JudgeEvidence",
    "JudgeReply",
    "JudgeUnavailable",
    "JudgeUnparseable",
    "OpenAIJudge",
    "ajudge_sentence",
    "build_messages",
    "evidence_for",
    "judge_from_env",
    "judge_sentence",
    "parse_reply",
    "quote_in_data",
]


def __getattr__(name: str) -> Any:
    if name == "OpenAIJudge":
        from .client import OpenAIJudge

        globals()["OpenAIJudge"] = OpenAIJudge  # later lookups skip this hook
        return OpenAIJudge
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
