"""The model judge: high-stakes sentences (:mod:`.stakes`), the OpenAI-compatible client
and its evidence checks (:mod:`.client`), its circuit breaker (:mod:`.breaker`).

The client's public names are importable from here (``from verifier.judge import OpenAIJudge``)."""

from .client import (
    CircuitBreaker,
    Judge,
    JudgeError,
    JudgeEvidence,
    JudgeReply,
    JudgeUnavailable,
    JudgeUnparseable,
    OpenAIJudge,
    ajudge_sentence,
    build_messages,
    evidence_for,
    judge_from_env,
    judge_sentence,
    parse_reply,
    quote_in_data,
)

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
