"""Request and response bodies of the HTTP API (the Report itself is verifier.Report)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from verifier import InputError, Policy, Report
from verifier.inputs.transcripts import read_transcript

_EXAMPLE_TOOLS = [{"name": "get_quote", "id": "call_1",
                   "output": {"symbol": "AAPL", "price": 187.2, "change_pct": 1.2}}]


_EXAMPLE_MESSAGES = [
    {"role": "user", "content": "Where is AAPL?"},
    {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {
        "name": "get_quote", "arguments": "{\"symbol\": \"AAPL\"}"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "{\"symbol\": \"AAPL\", \"price\": 187.2}"},
    {"role": "assistant", "content": "AAPL trades at $187.20."}]
#: Whole request bodies, one per shape (Swagger UI's "Try it out" starts from the first).
_EXAMPLE_BODIES = [
    {"answer": "AAPL trades at $187.20, up 1.2%.", "tool_results": _EXAMPLE_TOOLS,
     "metadata": {"assistant": "trading-desk", "model": "gpt-4.1", "prompt_version": "v42"}},
    {"model": "gpt-4.1", "messages": _EXAMPLE_MESSAGES},
]


class Metadata(BaseModel):
    """Who produced the answer; recorded in the audit log and used by /v1/stats."""

    model_config = ConfigDict(extra="allow")

    assistant: str | None = Field(None, description="Name of the assistant.", examples=["trading-desk"])
    model: str | None = Field(None, description="Model that wrote the answer.", examples=["gpt-4.1"])
    prompt_version: str | None = Field(None, description="Prompt version.", examples=["v42"])
    conversation_id: str | None = Field(None, description="Conversation the answer belongs to.",
                                        examples=["conv-8f2c"])


#: The transcript formats ``messages`` may be read as (verifier.inputs.transcripts.FORMATS and "auto").
Format = Literal["auto", "openai", "openai_responses", "anthropic", "langchain"]

#: What a body must hold one of: the explicit pair, or a transcript.
_INPUTS = ("answer", "tool_results", "messages")


#: Fields only the explicit shape has (a transcript holds them).
_EXPLICIT_ONLY = ("answer", "tool_results", "question", "history")


def _shapes(schema: dict[str, Any]) -> None:
    """State the two shapes of a request in the JSON Schema, so a client (or schemathesis)
    reading it knows what the service accepts: ``answer`` (with something in it) and
    non-null ``tool_results`` without ``messages``, and no unknown keys; or ``messages``
    without the explicit fields, beside which unknown keys are ignored."""
    schema.pop("additionalProperties", None)  # allowed beside messages: stated per shape
    schema["examples"] = _EXAMPLE_BODIES
    known: dict[str, Any] = {name: {} for name in schema["properties"]}
    schema["anyOf"] = [
        {"title": "answer and tool_results", "required": ["answer", "tool_results"],
         "not": {"required": ["messages"]}, "additionalProperties": False,
         "properties": {**known, "answer": {"type": "string", "pattern": r"\S"},
                        "tool_results": {"not": {"type": "null"}}, "format": {"const": "auto"}}},
        {"title": "messages (a chat request body or a transcript file)", "required": ["messages"],
         "not": {"anyOf": [{"required": [name]} for name in _EXPLICIT_ONLY]},
         "properties": {"messages": {"type": "array", "minItems": 1}}},
    ]


class VerifyRequest(BaseModel):
    """One answer and the tool results it consulted: either ``answer`` and
    ``tool_results`` (with ``question`` and ``history`` if known), or the assistant's
    transcript as ``messages``, from which all four are read.

    With ``messages``, the body may be a whole chat request (``{"model", "messages",
    "tools", ...}``) or one of the project's transcript files as it is: keys this model
    does not know are ignored. Without it, an unknown key is refused (a typo such as
    ``tool_result`` would otherwise be lost)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_shapes)

    @model_validator(mode="before")
    @classmethod
    def _read_wrapper(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        if not any(key in data for key in _INPUTS):
            raise PydanticCustomError(
                "missing_input", "nothing to verify: give answer and tool_results, or messages (a "
                "chat request body or a transcript file is read as it is)")
        if "messages" in data:
            return {key: value for key, value in data.items() if key in cls.model_fields}
        return data

    answer: str | None = Field(None, description="The assistant's answer, as it will be shown. "
                               "Required unless `messages` is given.",
                               examples=["AAPL trades at $187.20, up 1.2%."])
    tool_results: Any = Field(
        None, description="A list of {name, output[, id]} (one per tool call) or any JSON value. "
        "Numbers are read exactly (142.30 keeps its trailing zero). Required unless `messages` "
        "is given.", examples=[_EXAMPLE_TOOLS])
    messages: list[dict[str, Any]] | None = Field(
        None, description="The transcript as the assistant's SDK holds it (OpenAI Chat Completions "
        "or Responses items, Anthropic Messages, LangChain message dicts): the question, the current "
        "turn's tool results, the final answer and earlier turns' results (history) are read from it.",
        examples=[_EXAMPLE_MESSAGES])
    format: Format = Field("auto", description="How to read `messages` (auto tells the formats apart). "
                           "Only with `messages`.", examples=["openai"])
    question: str | None = Field(None, description="The user's question, if known.",
                                 examples=["Where is Apple trading?"])
    locale: str = Field("en_US", description="Locale the answer is written in.", examples=["de_DE"])
    policy: Policy | None = Field(
        None, description="Policy fields to override; the rest keep their defaults. The service's "
        "own limits (VERIFIER_MAX_ANSWER_CHARS, _MAX_LEAVES, _DERIVE_MAX_WORK, _MAX_DERIVE_ITEMS, "
        "_JUDGE_MAX_SENTENCES, the time budget) cap what a request may ask for: a higher value is "
        "lowered to them.", examples=[{"medium_min_score": 0.6}])
    history: Any = Field(None, description="Earlier turns' tool results: a value found only "
                         "there is reported as stale.",
                         examples=[[{"name": "get_quote", "output": {"symbol": "AAPL", "price": 185.1}}]])
    metadata: Metadata = Field(default_factory=Metadata, description="Recorded in the audit log.",
                               examples=[{"assistant": "trading-desk", "model": "gpt-4.1", "prompt_version": "v42"}])

    def parts(self) -> tuple[str, Any, str | None, Any]:
        """(answer, tool_results, question, history): as given, or read from the transcript
        (``messages``); InputError naming the field when the request holds no whole case.
        The service and ``verifier batch`` both read a request through this."""
        if self.messages is not None:
            given = [f for f in ("answer", "tool_results", "question", "history") if getattr(self, f) is not None]
            if given:
                raise InputError(f"give either messages or {', '.join(given)}, not both: the transcript "
                                 "holds them", "messages")
            t = read_transcript(self.messages, format=self.format)
            return t.answer, t.tool_results, t.question, t.history or None
        if self.format != "auto":
            raise InputError("only applies to messages", "format")
        if self.answer is None:
            raise InputError("missing: give the answer and tool_results, or messages", "answer")
        if self.tool_results is None:
            raise InputError("missing (null): give the tool results, or messages", "tool_results")
        return self.answer, self.tool_results, self.question, self.history


class BatchRequest(BaseModel):
    """Many answers; those with the same tool results share one haystack."""

    model_config = ConfigDict(extra="forbid")

    requests: list[VerifyRequest] = Field(
        description="The verifications, answered in order.",
        examples=[[{"answer": "AAPL trades at $187.20.", "tool_results": _EXAMPLE_TOOLS}]])


class BatchResponse(BaseModel):
    """Reports in the order of the requests."""

    reports: list[Report] = Field(description="One Report per request, in order.")


def example_report() -> dict[str, Any]:
    """A real Report (the verifier run on the example request), shown in the OpenAPI
    document so every response field has an example."""
    from verifier import verify

    return verify("AAPL trades at $187.20, up 1.4%; volume was 48 million.",
                  [{"name": "get_quote", "id": "call_1", "output": {
                      "symbol": "AAPL", "price": 187.2, "change_pct": 1.43, "volume": 48113200}}]
                  ).model_copy(update={"audit_id": "0f1e9d0c-6a3b-4a51-9a52-3c4a0d2b7e11"}).model_dump(mode="json")


class ErrorBody(BaseModel):
    """Every 4xx/5xx answer has this shape."""

    error: str = Field(description=(
        "A short code: invalid_request (the body's shape: a missing field, a wrong type), invalid_input "
        "(what it holds: malformed tool JSON, an unknown locale), too_large, unauthorized, not_found, "
        "timeout, ..."),
                       examples=["invalid_request"])
    message: str = Field(description="A human message naming the field at fault.",
                         examples=["policy.medium_min_score: Input should be less than or equal to 1"])
    field: str | None = Field(None, description="The request field at fault, when there is one.",
                              examples=["policy.medium_min_score"])
    errors: list[dict[str, Any]] = Field(
        default_factory=list, description="Each validation problem.",
        examples=[[{"field": "answer", "message": "Input should be a valid string", "type": "string_type"}]])


class Health(BaseModel):
    """The answer of GET /healthz."""

    status: Literal["ok"] = Field(description="Always ok: the process answers.")
    version: str = Field(description="The verifier's version.", examples=["0.1.0"])


class Readiness(BaseModel):
    """The answer of GET /readyz (200 ready, 503 not ready)."""

    status: Literal["ready", "not_ready"]
    checks: dict[str, Any] = Field(description=(
        "audit: ok, off or error: <reason> (the database's answer to a ping); audit_writer: the "
        "writer's status, queue length and counts of written, failed and dropped records."),
        examples=[{"audit": "ok", "audit_writer": {"status": "ok", "queued": 0, "written": 12,
                                                   "failed": 0, "dropped": 0}}])
