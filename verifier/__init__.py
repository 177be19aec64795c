"""finverify: a verify pass for finance and analytics LLM assistants.

>>> from verifier import verify
>>> report = verify("AAPL trades at $142.30.", [{"name": "quote", "output": {"symbol": "AAPL", "price": 142.3}}])
>>> report.confidence, [(i.text, i.status) for i in report.items]
('high', [('AAPL', 'exact'), ('$142.30', 'normalized')])

``averify``, ``averify_messages`` and ``OpenAIJudge`` are loaded on first access (module
``__getattr__``, PEP 562): their modules import asyncio, which ``import verifier`` and the
plain verify path never need (issue 21). ``from verifier import averify`` works as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._errors import (
    DeadlineExceeded,
    InputError,
    JSONInputError,
    LimitError,
    TranscriptError,
    VerifierError,
)
from .index.haystack import Haystack
from .inputs.transcripts import verify_messages
from .judge import Judge, JudgeError, JudgeReply
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

if TYPE_CHECKING:
    from .aio import averify, averify_messages
    from .judge.client import OpenAIJudge

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


#: The public names whose modules are imported on first access, and where they live.
_LAZY = {"averify": "verifier.aio", "averify_messages": "verifier.aio",
         "OpenAIJudge": "verifier.judge.client"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value  # later lookups skip this hook
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
