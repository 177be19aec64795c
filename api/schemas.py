"""Request and response bodies of the HTTP API (the Report itself is verifier.Report)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from verifier import Report

_EXAMPLE_TOOLS = [{"name": "get_quote", "id": "call_1",
                   "output": {"symbol": "AAPL", "price": 187.2, "change_pct": 1.2}}]


class Metadata(BaseModel):
    """Who produced the answer; recorded in the audit log and used by /v1/stats."""

    model_config = ConfigDict(extra="allow")

    assistant: str | None = Field(None, description="Name of the assistant.", examples=["trading-desk"])
    model: str | None = Field(None, description="Model that wrote the answer.", examples=["gpt-4.1"])
    prompt_version: str | None = Field(None, description="Prompt version.", examples=["v42"])
    conversation_id: str | None = Field(None, description="Conversation the answer belongs to.",
                                        examples=["conv-8f2c"])


class VerifyRequest(BaseModel):
    """One answer and the tool results it consulted: either ``answer`` and
    ``tool_results`` (with ``question`` and ``history`` if known), or the assistant's
    transcript as ``messages``, from which all four are read."""

    model_config = ConfigDict(extra="forbid")

    answer: str | None = Field(None, description="The assistant's answer, as it will be shown. "
                               "Required unless `messages` is given.",
                               examples=["AAPL trades at $187.20, up 1.2%."])
    tool_results: Any = Field(
        None, description="A list of {name, output[, id]} (one per tool call) or any JSON value. "
        "Numbers are read exactly (142.30 keeps its trailing zero). Required unless `messages` "
        "is given.", examples=[_EXAMPLE_TOOLS])
    messages: list[Any] | None = Field(
        None, description="The transcript as the assistant's SDK holds it (OpenAI Chat Completions "
        "or Responses items, Anthropic Messages, LangChain message dicts): the question, the current "
        "turn's tool results, the final answer and earlier turns' results (history) are read from it.",
        examples=[[{"role": "user", "content": "Where is AAPL?"},
                   {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {
                       "name": "get_quote", "arguments": "{\"symbol\": \"AAPL\"}"}}]},
                   {"role": "tool", "tool_call_id": "call_1", "content": "{\"symbol\": \"AAPL\", \"price\": 187.2}"},
                   {"role": "assistant", "content": "AAPL trades at $187.20."}]])
    format: str = Field("auto", description="Transcript format: auto, openai, openai_responses, "
                        "anthropic or langchain. Only with `messages`.", examples=["openai"])
    question: str | None = Field(None, description="The user's question, if known.",
                                 examples=["Where is Apple trading?"])
    locale: str = Field("en_US", description="Locale the answer is written in.", examples=["de_DE"])
    policy: dict[str, Any] | None = Field(
        None, description="Policy fields to override (see the Policy in the README).",
        examples=[{"medium_min_score": 0.6}])
    history: Any = Field(None, description="Earlier turns' tool results: a value found only "
                         "there is reported as stale.",
                         examples=[[{"name": "get_quote", "output": {"symbol": "AAPL", "price": 185.1}}]])
    metadata: Metadata = Field(default_factory=Metadata, description="Recorded in the audit log.",
                               examples=[{"assistant": "trading-desk", "model": "gpt-4.1", "prompt_version": "v42"}])


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
                  ).model_dump(mode="json")


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
