"""Score: items -> confidence, action and the UI warning payload.

"Downgrade, don't bounce": no flagged item -> high, no warning; flagged items with at
least ``Policy.medium_min_score`` supported -> medium, a soft warning; fewer, or an
invented ticker or code -> low, a prominent warning and a retry hint naming the
failed values.
"""

from __future__ import annotations

from collections import Counter

from ..models import (
    SUPPORTED_STATUSES,
    Action,
    Badge,
    Confidence,
    Highlight,
    Item,
    Note,
    Warnings,
    construct,
)
from ..policy import Policy

_LABELS = {"high": "Verified", "medium": "Partly verified", "low": "Unverified"}
_ENTITY_KINDS = frozenset({"ticker", "code"})


def confidence_of(items: list[Item], policy: Policy) -> tuple[Confidence, float]:
    """(confidence, score) for a list of items under ``policy``."""
    checked = len(items)
    # an unflagged drift under Policy.unhedged_rounding='warn' counts as supported
    warned = policy.unhedged_rounding == "warn"
    supported = sum(1 for item in items if item.status in SUPPORTED_STATUSES
                    or (warned and item.status == "drift" and not item.flagged))
    score = supported / checked if checked else 1.0
    flagged = [item for item in items if item.flagged]
    if not flagged:
        return "high", score
    invented = policy.invented_entity_is_low and any(_invented(item) for item in flagged)
    if invented or score < policy.medium_min_score:
        return "low", score
    return "medium", score


def _invented(item: Item) -> bool:
    """A ticker or code the current tool data does not hold or cover, or an invalid code.
    One only an earlier turn's data holds counts too: the figures beside it are most
    often the current turn's other entity's ("NVDA at $142.30", AAPL's price), and an
    answer of only an earlier turn's figures verifies nothing of this turn anyway."""
    return item.kind in _ENTITY_KINDS and item.status in ("unsupported", "invalid", "gap_fill", "stale")


def action_of(confidence: Confidence, score: float, policy: Policy) -> Action:
    """What the caller should do with the answer."""
    if confidence == "high":
        return "show"
    if confidence == "medium":
        return "show_with_warning"
    if policy.abstain_below is not None and score < policy.abstain_below:
        return "abstain"
    return "retry" if policy.retry_on_low else "show_with_warning"


def noted_confidence(confidence: Confidence, notes: list[Note]) -> Confidence:
    """A flagged note (a flipped negation, a wrong direction, a sentence far from its
    cited source, a citation to nothing) caps confidence at 'medium'."""
    if confidence == "high" and any(n.flagged for n in notes):
        return "medium"
    return confidence


def warnings_of(items: list[Item], confidence: Confidence, notes: list[Note] | None = None) -> Warnings:
    """Badge, message, highlights and retry hint for the UI."""
    notes = notes or []
    flagged = [item for item in items if item.flagged]
    highlights = [
        construct(Highlight, start=i.start, end=i.end, text=i.text, kind=i.kind,
                                  status=i.status, reason=i.reason)
        for i in flagged
    ]
    badge = construct(Badge, level=confidence, label=_LABELS[confidence])
    raised = [n for n in notes if n.flagged]
    message = _message(items, flagged, confidence, but=bool(raised))
    if raised:
        message += " " + "; ".join(n.message for n in raised).capitalize() + "."
    warned = [n for n in notes if not n.flagged]
    if warned:
        message += " Note: " + "; ".join(n.message for n in warned) + "."
    hint = _retry_hint(flagged, raised) if flagged or raised else None
    return construct(Warnings, badge=badge, message=message, highlights=highlights, retry_hint=hint)


def _message(items: list[Item], flagged: list[Item], confidence: str, but: bool = False) -> str:
    """The message's first sentence; ``but``: flagged notes follow it."""
    if not items:
        return "The answer states no numbers, tickers, dates or codes to check against the tool data."
    if not flagged:
        return f"All {len(items)} checked values match the tool data{', but' if but else '.'}"
    entities = [i for i in flagged if _invented(i)]
    if entities and confidence == "low":
        stale = [i for i in entities if i.status == "stale"]
        names = ", ".join(dict.fromkeys(i.text for i in entities if i.status != "stale"))
        said = [f"The answer names {names}, which the tool data does not contain or which is not a valid code."
                ] if names else []
        if stale:
            said.append(f"{'It also' if names else 'The answer'} names "
                        f"{', '.join(dict.fromkeys(i.text for i in stale))}, which only an earlier turn's tool "
                        "results hold.")
        return (" ".join(said) + f" {len(flagged)} of {len(items)} values could not be verified; "
                "treat this answer with caution or ask again.")
    if confidence == "low":
        what = _what(flagged)
        detail = f" ({what[0].lower()}{what[1:]})" if what else ""
        return (f"{len(flagged)} of {len(items)} values could not be verified against the tool data{detail}. "
                "Treat this answer with caution or ask again.")
    return f"{_what(flagged)}: {len(flagged)} of {len(items)} values, highlighted."


_PLAIN = {
    "drift": ("value is", "values are", "a rounded form of the tool data not marked as approximate"),
    "unsupported": ("value is", "values are", "not in the tool data"),
    "invalid": ("code has", "codes have", "a wrong check digit"),
    "misattributed": ("value is", "values are", "another entity's figure"),
    "stale": ("value is", "values are", "only in an earlier turn's tool results"),
    "gap_fill": ("value is", "values are", "for an entity the tool data does not cover"),
    "wrong_arithmetic": ("result is", "results are", "not what the answer's own computation gives"),
}


def _what(flagged: list[Item]) -> str:
    """"1 value is not in the tool data, 1 value is a rounded form of ...": by status."""
    counts: Counter[str] = Counter(item.status for item in flagged)
    parts = []
    for status, (one, many, what) in _PLAIN.items():
        if counts[status]:
            parts.append(f"{counts[status]} {one if counts[status] == 1 else many} {what}")
    return "; ".join(parts).capitalize()


_HINT = {
    "unsupported": "does not appear in the tool results and is not computed from them",
    "drift": "is a rounded form of a tool value but was not marked as approximate",
    "invalid": "is not a valid code (its check digit is wrong)",
    "misattributed": "is a value of another entity in the tool results",
    "stale": "appears only in an earlier turn's tool results, not in the current ones",
    "gap_fill": "is stated for an entity the tool results do not cover",
    "wrong_arithmetic": "is not what its own computation gives; redo the arithmetic",
}


def _retry_hint(flagged: list[Item], notes: list[Note]) -> str:
    lines = []
    for item in flagged:
        line = f"- {item.text!r} ({item.kind}) {_HINT.get(item.status, item.reason)}"
        said = None
        if item.status == "drift" and item.evidence:
            said = (item.evidence[0].tool_index, item.evidence[0].path)
            line += f"; the tool result says {item.evidence[0].raw} at {item.evidence[0].path}"
        near = item.candidates[0] if item.candidates else None
        if near is not None and (near.tool_index, near.path) != said:  # what the data has instead
            line += f"; the data has {near.raw} at {near.path} in {near.tool}"
        lines.append(line)
    for note in notes:
        lines.append(f"- {note.message}")
    return (
        "Some values in your previous answer are not supported by the tool results:\n"
        + "\n".join(lines)
        + "\nRewrite the answer using only values that appear in the tool results (quoted as "
        "given) or that you compute from them (say how: 'up 12.5% from 2018'); say 'about' when "
        "you round, and leave out anything the tools did not return."
    )


def counts_of(items: list[Item]) -> dict[str, int]:
    """Items per status."""
    return dict(Counter(item.status for item in items))
