"""finverify: a verify pass for finance and analytics LLM assistants.

>>> from verifier import verify
>>> report = verify("AAPL trades at $142.30.", [{"name": "quote", "output": {"symbol": "AAPL", "price": 142.3}}])
>>> report.confidence, [(i.text, i.status) for i in report.items]
('high', [('AAPL', 'exact'), ('$142.30', 'normalized')])
"""

from __future__ import annotations

from ._errors import (
    DeadlineExceeded,
    InputError,
    JSONInputError,
    LimitError,
    TranscriptError,
    VerifierError,
)
from .aio import averify, averify_messages
from .index.haystack import Haystack
from .inputs.transcripts import verify_messages
from .judge import Judge, JudgeError, JudgeReply, OpenAIJudge
from .models import (
    Badge,
    Evidence,
    Highlight,
    Item,
    Judgement,
    Note,
    Report,
    SentenceCheck,
    Suggestion,
    Warnings,
)
from .pipeline import VERSION, verify
from .policy import Policy

__version__ = VERSION

__all__ = [
    "Badge",
    "DeadlineExceeded",
    "Evidence",
    "Haystack",
    "Highlight",
    "InputError",
    "Item",
    "JSONInputError",
    "Judge",
    "JudgeError",
    "JudgeReply",
    "Judgement",
    "LimitError",
    "Note",
    "OpenAIJudge",
    "Policy",
    "Report",
    "SentenceCheck",
    "Suggestion",
    "TranscriptError",
    "VerifierError",
    "Warnings",
    "__version__",
    "averify",
    "averify_messages",
    "verify",
    "verify_messages",
]
