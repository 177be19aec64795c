"""The Report: the contract between the verifier and its callers (assistants that act
on ``action``, frontends that draw ``warnings``, engineers who read ``items``).

``Report.model_json_schema()`` is published as the API schema; every field has a
description. Values are JSON-safe: numbers the verifier computed are decimal strings
(``"2100000000"``), never floats, so nothing is rounded on the way to the UI.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal, TypeVar

from pydantic import VERSION as PYDANTIC_VERSION
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr
from pydantic_core import PydanticSerializationError

from verifier.normalizers.numbers import CONTEXT

Kind = Literal[
    "ticker", "amount", "percent", "basis_points", "percentage_points", "multiplier",
    "number", "date", "period", "time", "code", "quote", "rating",
]
Status = Literal[
    "exact", "normalized", "rounded", "derived", "drift", "unsupported", "invalid", "misattributed", "stale",
    "gap_fill", "wrong_arithmetic", "stated",
]
Confidence = Literal["high", "medium", "low"]
Action = Literal["show", "show_with_warning", "retry", "abstain"]

#: Statuses that count as supported by the tool data.
SUPPORTED_STATUSES: frozenset[str] = frozenset({"exact", "normalized", "rounded", "derived", "stated"})
#: Statuses that flag the item to the user.
FLAGGED_STATUSES: frozenset[str] = frozenset(
    {"drift", "unsupported", "invalid", "misattributed", "stale", "gap_fill", "wrong_arithmetic"})

#: ``defer_build``: pydantic builds a model's validator and serializer on its first
#: validation or dump instead of at class creation, which halved this module's import
#: (issue 21). verify() builds reports with :func:`construct`, which needs neither, so a
#: caller reading attributes never pays it; the first dump of a report pays ~15 ms once.
#: Only from pydantic 2.14, whose deferred build is thread-safe (pydantic#13438); before
#: it, two threads of the service dumping a first report at once could race.
DEFER_BUILD = tuple(int(part) for part in PYDANTIC_VERSION.split(".")[:2]) >= (2, 14)

_FROZEN = ConfigDict(frozen=True, extra="forbid", defer_build=DEFER_BUILD)


class Evidence(BaseModel):
    """Where in the tool data a value was found."""

    model_config = _FROZEN

    tool: str = Field(description="Name of the tool result that holds the value.", examples=["get_quote"])
    tool_index: int = Field(description="Position of that tool result in the input list.", examples=[0])
    tool_id: str | None = Field(None, description="The tool call id, when one was given.")
    path: str = Field(
        description="JSONPath of the leaf inside that tool's output; jsonpath-ng resolves it.",
        examples=["$.results[3].price"],
    )
    raw: str = Field(description="The leaf as it appears in the data (JSON text for numbers).", examples=["142.3"])
    how: str = Field(
        description="How the answer's value relates to this leaf: as written, reformatted, "
        "percent form, scaled by a key or unit field, sign not stated, rounded, count (path is "
        "the array), object key (path is the value stored under the key named `raw`).",
        examples=["reformatted"],
    )
    value: str | None = Field(
        None, description="For an operand of a derived value: the figure of this leaf the "
        "computation used, as a plain decimal in the data's own scale (a paragraph holds several "
        "figures; its path alone does not say which). None otherwise.", examples=["10.0"],
    )
    history: bool = Field(
        False, description="True when the leaf is in an earlier turn's tool results (`history`), "
        "not in the current turn's: the value is stale.",
    )


Scope = Literal["entity", "record", "tool", "data"]


class Candidate(BaseModel):
    """A figure the data has near a flagged value: what the answer may have meant."""

    model_config = _FROZEN

    tool: str = Field(description="Name of the tool result that holds the figure.", examples=["get_quote"])
    tool_index: int = Field(description="Position of that tool result in the input list.", examples=[0])
    path: str = Field(description="JSONPath of the leaf inside that tool's output.", examples=["$.price"])
    raw: str = Field(description="The leaf as it appears in the data (JSON text for numbers).", examples=["142.3"])
    value: str = Field(
        description="The figure as the answer's value would be normalized (Item.value): a decimal "
        "string, scaled by the data's stated unit, a percentage as a fraction.", examples=["142.3"])
    difference: str = Field(
        description="How far off the answer's value is: (|figure| - |value|) / |value|, a decimal "
        "string to four places (\"-0.0035\": the data's figure is 0.35% smaller).", examples=["-0.0035"])
    scope: Scope = Field(
        description="Where it was looked for: the fields of the entity (ticker) the answer's clause "
        "names, the record or table row of the sentence's other values, their tool result, or all "
        "the data (nothing narrower was known or held a figure of the kind).", examples=["entity"])


@dataclass(frozen=True)
class Flag:
    """A doubt a stage leaves on an item for later stages to weigh; not part of the report.

    ``cells``: the question names a table row or period and this value is another's.
    ``periods``: the value's clause names ``period`` and the value is another period's.
    The derive stage reads both: a computation may still explain such a value.
    """

    stage: Literal["cells", "periods"]
    period: tuple[int, int | None] | None = None


class Item(BaseModel):
    """One value extracted from the answer and what the data says about it."""

    model_config = _FROZEN
    _flags: tuple[Flag, ...] = PrivateAttr(default=())

    def flag(self, stage: Literal["cells", "periods"]) -> Flag | None:
        """The flag ``stage`` left on this item, if any (see :class:`Flag`)."""
        return next((f for f in self._flags if f.stage == stage), None)

    def with_flag(self, flag: Flag) -> Item:
        """A copy of this item carrying ``flag`` too."""
        copy = self.model_copy()
        copy._flags = (*self._flags, flag)
        return copy

    kind: Kind = Field(description="What sort of value this is.")
    text: str = Field(description="The value exactly as written in the answer.", examples=["$2.1bn"])
    start: int = Field(description="Start offset of `text` in the answer (characters).")
    end: int = Field(description="End offset (exclusive) of `text` in the answer.")
    value: str | None = Field(
        description="Normalized value: a decimal string for numbers (percents as a fraction), "
        "an ISO-like key for dates and periods, HH:MM for a time of day, the canonical symbol or "
        "code, the folded phrase.",
        examples=["2100000000", "0.014", "2026-03-05", "2026-Q3", "22:30", "BRK.B"],
    )
    unit: str | None = Field(None, description="Currency code, '%', 'bp', 'pp', 'x', a scale word, or "
                             "a time's IANA zone ('America/New_York' for '9:30 ET').")
    hedged: bool = Field(False, description="A hedge word ('about', '~') marks the value as rounded on purpose.")
    status: Status = Field(description="How the data supports the value.")
    flagged: bool = Field(description="Whether the UI should highlight this value.")
    reason: str = Field(description="One sentence a person can read: why this status.")
    evidence: list[Evidence] = Field(default_factory=list, description="Leaves that support it, best first.")
    evidence_total: int = Field(0, description="How many leaves matched in all (evidence is capped).")
    expression: str | None = Field(
        None, description="For a derived value: how it was computed, over the operands' JSONPaths.",
        examples=["($.rows[2][1] - $.rows[2][2]) / $.rows[2][2] * 100"],
    )
    candidates: list[Candidate] = Field(
        default_factory=list, exclude_if=lambda v: not v,  # absent, not [], when there are none
        description="For an unsupported or drift number: the data's nearest figures of the same kind "
        "and unit (at most 3, closest first), from the narrowest scope that has any: what the data has "
        "instead. Absent when there are none.")


class Suggestion(BaseModel):
    """A value the answer computed that the tool could return directly."""

    model_config = _FROZEN

    tool: str = Field(description="The tool whose output held the operands.")
    field: str = Field(description="A name for the missing field.", examples=["percent_change_2019_vs_2018"])
    expression: str = Field(description="How to compute it from the tool's output.")
    op: str = Field(description=("difference, sum, average, percent_change, ratio, product (a count times its "
                                 "price), total, mean, share; over cells a question names: mean_difference, "
                                 "sum_difference, sum_ratio, sum_change."))
    text: str = Field(description="The suggestion as a sentence for the tool's owner.")


NoteKind = Literal[
    "negation", "direction", "low_overlap", "unknown_citation", "incomplete", "conflict", "merged_sources",
]


class Note(BaseModel):
    """A finding about a sentence or the answer as a whole rather than one value: a flipped
    negation, a direction word against the data, a sentence far from its cited source, a
    citation to nothing, an entity the question asked about and the answer left out, two
    sources that disagree."""

    model_config = _FROZEN

    kind: NoteKind = Field(description="What was found.")
    flagged: bool = Field(description="Whether it lowers confidence (conflicts and incomplete answers only warn).")
    message: str = Field(description="One sentence a person can read.")
    start: int | None = Field(None, description="Start of the sentence it is about, when it is about one.")
    end: int | None = Field(None, description="End (exclusive) of that sentence.")
    evidence: list[Evidence] = Field(default_factory=list, description="The data it was checked against.")


class SentenceCheck(BaseModel):
    """One sentence of the answer: its citations and its word overlap with its source."""

    model_config = _FROZEN

    start: int = Field(description="Start offset of the sentence in the answer.")
    end: int = Field(description="End offset (exclusive).")
    citations: list[int] = Field(default_factory=list, description="Citation markers it carries ([2, 3] -> [2, 3]).")
    sources: list[str] = Field(default_factory=list, description="What each citation points at: a tool "
                               "result, or a record inside one ('search_news $.results[1]').")
    overlap: float | None = Field(
        None, description="Share of its content words found in its sources (all tool results when "
        "uncited); null when it has none. Blunt: read it beside the exact checks.")
    flagged: bool = Field(False, description="A cited sentence below Policy.min_overlap, or citing nothing that exists.")


class Badge(BaseModel):
    """The confidence badge a frontend draws."""

    model_config = _FROZEN

    level: Confidence = Field(description="Same as the report's confidence.")
    label: str = Field(description="Short label for the badge.", examples=["Verified", "Partly verified"])


class Highlight(BaseModel):
    """A span of the answer to highlight, with the reason shown on hover."""

    model_config = _FROZEN

    start: int = Field(description="Start offset of the span in the answer (characters).")
    end: int = Field(description="End offset (exclusive) of the span in the answer.")
    text: str = Field(description="The flagged value as written in the answer.")
    kind: Kind = Field(description="What sort of value it is.")
    status: Status = Field(description="Why it is flagged: drift, unsupported or invalid.")
    reason: str = Field(description="One sentence to show on hover.")


class Warnings(BaseModel):
    """The UI payload: badge, message, highlights and the hint for a retry."""

    model_config = _FROZEN

    badge: Badge = Field(description="The confidence badge.")
    message: str = Field(description="One or two sentences for the user.")
    highlights: list[Highlight] = Field(default_factory=list, description="Flagged spans, in answer order.")
    retry_hint: str | None = Field(
        None, description="Text an assistant can feed back to its generator; names each failed value."
    )


Verdict = Literal["supported", "unsupported", "partial", "unverified", "not_judged"]


class Judgement(BaseModel):
    """The model judge's second opinion on one sentence of the answer (see ``verifier.judge``)."""

    model_config = _FROZEN

    sentence: str = Field(description="The judged sentence as written in the answer.")
    start: int = Field(description="Start offset of the sentence in the answer (characters).")
    end: int = Field(description="End offset (exclusive) of the sentence in the answer.")
    verdict: Verdict = Field(
        description="supported, unsupported or partial as the judge said; unverified: the judge said "
        "supported but its quote is not in the tool data; not_judged: the judge failed (timeout, "
        "error, unparseable output) or was not asked, and the deterministic result stands.")
    quote: str = Field("", description="The judge's verbatim supporting quote from the evidence it was shown.")
    quote_verified: bool = Field(
        False, description="Whether the quote appears in the tool data (case, quote marks and whitespace aside).")
    reason: str = Field("", description="The judge's short reason, or the note saying why it was not judged.")
    model: str = Field("", description="The judge model that gave the verdict.", examples=["qwen2.5-7b-instruct"])
    latency_ms: float = Field(0.0, description="Time the judge took, retries included (milliseconds).")
    trigger: Literal["high_stakes", "flagged", "sampled"] = Field(
        "high_stakes", description="Why the sentence was judged: high-stakes wording, a flagged value "
        "(Policy.judge_flagged), or the monitoring sample (Policy.judge_sample_rate; such verdicts are "
        "recorded, not applied).")
    stakes: list[str] = Field(
        default_factory=list, description="High-stakes categories found in the sentence.",
        examples=[["recommendation", "price_target"]])


class Report(BaseModel):
    """The verifier's verdict on one answer."""

    model_config = _FROZEN

    confidence: Confidence = Field(description="high: all supported; medium: some flagged; low: most flagged or an invented entity.")
    score: float = Field(description=(
        "Supported share of checkable items (1.0 when there are none), leaving out dates that only "
        "repeat the question's unless nothing else is checked."), ge=0, le=1)
    action: Action = Field(description="What the caller should do: show, show_with_warning, retry, abstain.")
    checked: int = Field(description="Number of checkable items extracted from the answer.")
    flagged: int = Field(description="Number of flagged items.")
    counts: dict[str, int] = Field(description="Items per status.")
    items: list[Item] = Field(description="Every extracted value, in answer order.")
    warnings: Warnings = Field(description="The UI payload: badge, message, highlights, retry hint.")
    suggestions: list[Suggestion] = Field(
        default_factory=list, description="Missing derived fields: values the answer computed from the data.")
    judgements: list[Judgement] = Field(
        default_factory=list, description="The model judge's verdicts, one per judged sentence; empty "
        "when no judge is configured or no sentence needed one.")
    sentences: list[SentenceCheck] = Field(
        default_factory=list, description="The answer's sentences with citations and overlap.")
    notes: list[Note] = Field(
        default_factory=list, description="Findings about sentences or the whole answer (negation, "
        "direction, overlap, citations, coverage of the question, conflicting sources).")
    locale: str = Field(description="Locale the answer was read in.", examples=["en_US"])
    version: str = Field(description="Verifier version that produced the report.")
    audit_id: str | None = Field(
        None, exclude_if=lambda v: v is None,  # absent, not null, outside the service
        description="The id of this decision's record in the service's audit log (the HTTP API "
        "only, while its audit log is on): quote it to find the record, e.g. in a problem report.",
        examples=["0f1e9d0c-6a3b-4a51-9a52-3c4a0d2b7e11"])


def decimal_text(value: Decimal) -> str:
    """A Decimal as plain positional text without exponent or trailing zeros."""
    text = format(value.normalize(CONTEXT), "f")  # (the default context would round past 28 digits)
    return "0" if text in ("-0", "0") else text


def json_text(model: BaseModel) -> str:
    """The JSON text of a report (or any model). A lone surrogate the caller sent (JSON
    may escape one: "\\ud800") stays escaped, as it came, rather than failing the
    serialisation or being dropped."""
    try:
        return model.model_dump_json()
    except PydanticSerializationError:
        return json.dumps(model.model_dump(mode="json"), ensure_ascii=True, separators=(",", ":"))


_M = TypeVar("_M", bound=BaseModel)
#: Per model class: (name, has a default, default factory or None, default) of each field.
_FIELDS: dict[type[BaseModel], tuple[tuple[str, bool, Any, Any], ...]] = {}
_set = object.__setattr__


def construct(cls: type[_M], **values: Any) -> _M:
    """What ``cls.model_construct(**values)`` makes (no validation), made faster.

    Why by hand: pydantic (2.14) runs ``inspect.signature`` on a field's default factory
    on every ``model_construct`` that leaves the field out (about 220 µs for ``list``),
    which was 40% of a verify call over a prebuilt haystack, and its per-field loop costs
    about 20 µs a model. The fields are read once per class; the instance gets the same
    ``__dict__`` (in field order), fields-set, extra and private state as pydantic's, so
    nothing serialised or compared changes; a post-init hook (private attributes) runs
    as pydantic runs it.
    """
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = _FIELDS.setdefault(cls, tuple(
            (name, not f.is_required(), f.default_factory, f.default) for name, f in cls.model_fields.items()))
    data: dict[str, Any] = {}
    for name, optional, factory, default in fields:
        if name in values:
            data[name] = values[name]
        elif optional:
            data[name] = factory() if factory is not None else copy.deepcopy(default)  # as pydantic copies a default (same object if immutable)
    model = cls.__new__(cls)
    _set(model, "__dict__", data)
    _set(model, "__pydantic_fields_set__", {name for name in values if name in data})
    _set(model, "__pydantic_extra__", None)
    _set(model, "__pydantic_private__", None)
    if cls.__pydantic_post_init__:
        model.model_post_init(None)
        private = model.__pydantic_private__
        if private is not None:
            private.update((k, v) for k, v in values.items() if k in cls.__private_attributes__)
    return model
