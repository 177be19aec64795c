"""What the judge is asked and how its answer is read: the chat messages for one claim
(:func:`build_messages`) and the verdict object in a reply's content (:func:`parse_reply`).

The judge answers with one JSON object::

    {"verdict": "supported" | "unsupported" | "partial", "quote": "<verbatim span>", "reason": "<short>"}

(JSON mode is requested; the object may also come inside a fenced ```json block;
anything else is unparseable).
"""

from __future__ import annotations

import re

from pydantic import ValidationError

from .protocol import JudgeReply, JudgeUnparseable

SYSTEM_PROMPT = (
    "You check one claim from a finance assistant's answer against the tool data the assistant "
    "was given. Judge only from the evidence shown, never from your own knowledge. Answer with "
    "one JSON object and nothing else: "
    '{"verdict": "supported" | "unsupported" | "partial", "quote": "<verbatim span copied from '
    'the evidence>", "reason": "<one short sentence>"}. '
    "supported: the evidence states everything the claim says; partial: it supports some of the "
    "claim but not all; unsupported: it does not support the claim or contradicts it. A "
    "recommendation, price target, guarantee or forecast the evidence does not state is "
    "unsupported. The quote must be copied character for character from the evidence (the "
    "shortest span that supports the claim; empty when there is none)."
)


def build_messages(claim: str, evidence: str) -> list[dict[str, str]]:
    """The chat messages for one claim: the instructions, then the claim and its evidence."""
    user = f"Claim:\n{claim.strip()}\n\nEvidence (tool data):\n{evidence}"
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)


def parse_reply(content: str) -> JudgeReply:
    """The verdict object in a reply's message content: the whole content, or the
    inside of its first fenced block. Anything else raises :class:`JudgeUnparseable`.

    >>> parse_reply('```json\\n{"verdict": "supported", "quote": "price: 142.3"}\\n```').verdict
    'supported'
    """
    text = content.strip() if isinstance(content, str) else ""
    if not text.startswith("{"):
        fenced = _FENCE.search(text)
        if fenced is None:
            raise JudgeUnparseable(f"unparseable judge output (not a JSON object): {text[:120]!r}")
        text = fenced.group(1).strip()
    try:
        return JudgeReply.model_validate_json(text)
    except ValidationError as exc:
        problem = exc.errors()[0]["msg"] if exc.errors() else str(exc)
        raise JudgeUnparseable(f"unparseable judge output ({problem}): {text[:120]!r}") from None
