"""Issue 22 ("the contract"), over real HTTP: the OpenAPI document is typed (the Policy
model, enums, named operations, the one error body), a chat request body or a transcript
file is verified as it is, every response carries X-Request-ID, and a Report carries the
id of its audit record."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, select
from verifier.api.app import create_app
from verifier.api.audit import verifications
from verifier.api.settings import Settings

from tests._server import running
from verifier import verify
from verifier.inputs.jsonio import load_path
from verifier.inputs.transcripts import FORMATS

TRANSCRIPTS = Path(__file__).resolve().parents[2] / "fixtures" / "transcripts"
QUOTE = [{"name": "get_quote", "id": "call_1", "output": {"symbol": "NVDA", "price": 131.24}}]
BODY = {"answer": "NVDA closed at $131.24.", "tool_results": QUOTE}
CHAT = [{"role": "user", "content": "Where did NVDA close?"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
            "name": "get_quote", "arguments": "{\"symbol\": \"NVDA\"}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "{\"symbol\": \"NVDA\", \"price\": 131.24}"},
        {"role": "assistant", "content": "NVDA closed at $131.24, up 4%."}]
SHAPE = {"error", "message", "field", "errors"}


@pytest.fixture(scope="module")
def openapi() -> dict:
    return create_app(Settings(audit_url="")).openapi()


@pytest.fixture(scope="module")
def audit_url(tmp_path_factory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('contract22') / 'audit.db'}"


@pytest.fixture(scope="module")
def base(audit_url):
    with running(Settings(audit_url=audit_url, audit_flush_ms=20)) as url:
        yield url


def _operations(openapi: dict):
    for path, item in openapi["paths"].items():
        for method, operation in item.items():
            yield method.upper(), path, operation


def _record(audit_url: str, audit_id: str) -> dict:
    engine = create_engine(audit_url)
    try:
        with engine.connect() as conn:
            row = conn.execute(select(verifications).where(verifications.c.audit_id == audit_id)).one()
            return dict(row._mapping)
    finally:
        engine.dispose()


def _flushed(base: str) -> None:
    httpx.get(f"{base}/v1/stats")  # /v1/stats flushes the audit queue before it reads


# -- the OpenAPI document ----------------------------------------------------------------------

def test_the_request_policy_is_the_policy_model_with_its_limits(openapi):
    policy = openapi["components"]["schemas"]["VerifyRequest"]["properties"]["policy"]
    assert {"$ref": "#/components/schemas/Policy"} in policy["anyOf"]
    fields = openapi["components"]["schemas"]["Policy"]["properties"]
    assert fields["medium_min_score"]["minimum"] == 0 and fields["medium_min_score"]["maximum"] == 1
    assert fields["max_evidence"]["maximum"] == 100
    assert openapi["components"]["schemas"]["Policy"]["additionalProperties"] is False


def test_format_and_group_by_are_enums(openapi):
    fmt = openapi["components"]["schemas"]["VerifyRequest"]["properties"]["format"]
    assert fmt["enum"] == ["auto", *FORMATS]
    group_by = next(p for p in openapi["paths"]["/v1/stats"]["get"]["parameters"] if p["name"] == "group_by")
    assert {"model", "prompt_version", "tool", "day", "assistant"} == set(group_by["schema"]["anyOf"][0]["enum"])


def test_every_operation_has_its_own_camel_case_id(openapi):
    ids = {(method, path): op["operationId"] for method, path, op in _operations(openapi)}
    assert ids[("POST", "/v1/verify")] == "verify" and ids[("POST", "/v1/verify/batch")] == "verifyBatch"
    assert ids[("GET", "/v1/stats")] == "getStats" and ids[("GET", "/metrics")] == "getMetrics"
    assert ids[("GET", "/healthz")] == "getHealth" and ids[("GET", "/readyz")] == "getReadiness"
    assert len(set(ids.values())) == len(ids)
    assert all(re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)*", name) for name in ids.values()), ids


def test_every_error_is_documented_as_the_error_body_and_none_as_fastapis(openapi):
    assert "HTTPValidationError" not in openapi["components"]["schemas"]
    for method, path, op in _operations(openapi):
        assert "500" in op["responses"], (method, path)
        for status, response in op["responses"].items():
            if int(status) < 400 or (path, status) == ("/readyz", "503"):
                continue
            assert response["content"] == {"application/json": {"schema": {
                "$ref": "#/components/schemas/ErrorBody"}}}, (method, path, status)
    assert set(openapi["paths"]["/v1/stats"]["get"]["responses"]) >= {"401", "409", "422"}
    ready = openapi["paths"]["/readyz"]["get"]["responses"]["503"]["content"]["application/json"]
    assert ready["schema"] == {"$ref": "#/components/schemas/Readiness"}


def test_the_documented_request_examples_are_each_verified(openapi, base):
    examples = openapi["components"]["schemas"]["VerifyRequest"]["examples"]
    assert {"answer", "tool_results"} <= set(examples[0]) and "messages" in examples[1]
    for example in examples:
        r = httpx.post(f"{base}/v1/verify", json=example)
        assert r.status_code == 200 and r.json()["confidence"] == "high", (example, r.text)


def test_metrics_are_documented_as_the_text_they_are(openapi, base):
    content = openapi["paths"]["/metrics"]["get"]["responses"]["200"]["content"]
    assert set(content) == {"text/plain"} and "# TYPE" in content["text/plain"]["example"]
    assert httpx.get(f"{base}/metrics").headers["content-type"].startswith("text/plain")


def test_every_response_documents_the_request_id_header(openapi):
    for method, path, op in _operations(openapi):
        for status, response in op["responses"].items():
            assert response["headers"]["X-Request-ID"]["required"] is True, (method, path, status)


# -- a chat request body or a transcript file, as it is ----------------------------------------

def test_a_chat_request_body_is_verified_from_its_messages(base):
    plain = httpx.post(f"{base}/v1/verify", json={"messages": CHAT}).json()
    chat = {"model": "gpt-4.1", "messages": CHAT, "temperature": 0, "tool_choice": "auto", "stream": False,
            "tools": [{"type": "function", "function": {"name": "get_quote", "parameters": {"type": "object"}}}]}
    r = httpx.post(f"{base}/v1/verify", json=chat)
    assert r.status_code == 200, r.text
    got = r.json()
    assert got.pop("audit_id") != plain.pop("audit_id")  # each verification is its own record
    assert got == plain
    assert [(i["text"], i["status"]) for i in got["items"]] == [("NVDA", "exact"), ("$131.24", "exact"),
                                                                 ("4%", "unsupported")]


@pytest.mark.parametrize("name", sorted(p.name for p in TRANSCRIPTS.glob("*.json")))
def test_a_transcript_file_is_verified_as_it_is(base, name):
    raw = (TRANSCRIPTS / name).read_text(encoding="utf-8")
    r = httpx.post(f"{base}/v1/verify", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text
    got = r.json()
    got.pop("audit_id")
    fixture = load_path(TRANSCRIPTS / name)
    call = fixture["expected_call"]
    expected = verify(call["answer"], call["tool_results"], question=call.get("question"),
                      history=call.get("history") or None, locale=fixture["locale"])
    assert got == json.loads(expected.model_dump_json())


def test_batch_items_may_be_chat_bodies_beside_explicit_ones(base):
    r = httpx.post(f"{base}/v1/verify/batch", json={"requests": [
        {"model": "gpt-4.1", "messages": CHAT, "n": 1}, BODY]})
    assert r.status_code == 200, r.text
    assert [rep["confidence"] for rep in r.json()["reports"]] == ["medium", "high"]


@pytest.mark.parametrize(("payload", "field"), [
    ({"model": "gpt-4.1", "temperature": 0}, "body"),  # a chat body without its messages
    ({}, "body"),
    ({"requests": [BODY, {"model": "gpt-4.1"}]}, "requests[1]"),
])
def test_a_body_with_neither_answer_nor_messages_is_a_clear_422(base, payload, field):
    path = "/v1/verify/batch" if "requests" in payload else "/v1/verify"
    r = httpx.post(f"{base}{path}", json=payload)
    assert r.status_code == 422, r.text
    err = r.json()
    assert set(err) == SHAPE and err["error"] == "invalid_request" and err["field"] == field
    assert "give answer and tool_results, or messages" in err["message"]
    assert [e["type"] for e in err["errors"]] == ["missing_input"]


def test_without_messages_an_unknown_key_is_still_refused(base):
    r = httpx.post(f"{base}/v1/verify", json={**BODY, "model": "gpt-4.1"})
    assert r.status_code == 422 and r.json()["field"] == "model" and "Extra inputs" in r.json()["message"]
    r = httpx.post(f"{base}/v1/verify", json={"messages": CHAT, "format": "gemini"})
    assert r.status_code == 422 and r.json()["field"] == "format", r.text


def test_a_policy_is_validated_with_the_request(base):
    r = httpx.post(f"{base}/v1/verify", json={**BODY, "policy": {"max_evidence": 0}})
    assert r.status_code == 422 and r.json()["field"] == "policy.max_evidence", r.text
    r = httpx.post(f"{base}/v1/verify", json={**BODY, "policy": {"max_evidence": 1}})
    assert r.status_code == 200
    assert all(len(i["evidence"]) <= 1 for i in r.json()["items"])


# -- X-Request-ID --------------------------------------------------------------------------------

HEX32 = re.compile(r"[0-9a-f]{32}")


@pytest.mark.parametrize(("method", "path", "payload", "status"), [
    ("GET", "/healthz", None, 200), ("GET", "/metrics", None, 200), ("POST", "/v1/verify", BODY, 200),
    ("POST", "/v1/verify", {"answer": 1}, 422), ("GET", "/no/such/page", None, 404),
    ("GET", "/docs", None, 200), ("GET", "/static/badge.js", None, 200),
])
def test_every_response_carries_a_request_id(base, method, path, payload, status):
    r = httpx.request(method, f"{base}{path}", json=payload)
    assert r.status_code == status
    assert HEX32.fullmatch(r.headers["x-request-id"]), r.headers
    sent = "trace-7f3a:web/42"
    assert httpx.request(method, f"{base}{path}", json=payload,
                         headers={"X-Request-ID": sent}).headers["x-request-id"] == sent


@pytest.mark.parametrize("absurd", ["x" * 129, "two words", "tab\there", ""])
def test_an_absurd_request_id_is_replaced_not_echoed(base, absurd):
    r = httpx.get(f"{base}/healthz", headers={"X-Request-ID": absurd})
    assert r.status_code == 200 and HEX32.fullmatch(r.headers["x-request-id"])
    long_ok = "y" * 128
    assert httpx.get(f"{base}/healthz", headers={"X-Request-ID": long_ok}).headers["x-request-id"] == long_ok


def test_a_non_ascii_request_id_is_replaced(base):
    r = httpx.get(f"{base}/healthz", headers={"X-Request-ID": "caf\xe9".encode("latin-1")})
    assert r.status_code == 200 and HEX32.fullmatch(r.headers["x-request-id"])


def test_a_500_and_a_401_carry_the_request_id_too(monkeypatch):
    from verifier.api import service as service_module

    async def broken(self, request):
        raise RuntimeError("a bug")

    monkeypatch.setattr(service_module.VerifyService, "verify", broken)
    with running(Settings(audit_url="", api_key="key-123")) as url:
        r = httpx.post(f"{url}/v1/verify", json=BODY, headers={"X-Request-ID": "bug-1", "Authorization": "Bearer no"})
        assert r.status_code == 401 and r.headers["x-request-id"] == "bug-1"
        # answered by Starlette's outermost error middleware, outside the request id's
        r = httpx.post(f"{url}/v1/verify", json=BODY,
                       headers={"X-Request-ID": "bug-2", "Authorization": "Bearer key-123"})
        assert r.status_code == 500 and r.json()["error"] == "internal_error"
        assert r.headers["x-request-id"] == "bug-2"


def test_a_browser_app_may_read_the_request_id():
    origin = "https://app.example"
    with running(Settings(audit_url="", cors_origins=[origin])) as url:
        r = httpx.post(f"{url}/v1/verify", json=BODY, headers={"Origin": origin})
        assert "x-request-id" in r.headers["access-control-expose-headers"].lower()
        pre = httpx.options(f"{url}/v1/verify", headers={
            "Origin": origin, "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, x-request-id"})
        assert pre.status_code == 200 and "x-request-id" in pre.headers["access-control-allow-headers"].lower()


# -- the audit record's id -----------------------------------------------------------------------

def test_the_report_names_its_audit_record_which_holds_the_request_id(base, audit_url):
    r = httpx.post(f"{base}/v1/verify", json=BODY, headers={"X-Request-ID": "rid-report-1"})
    audit_id = r.json()["audit_id"]
    assert uuid.UUID(audit_id).version == 4
    _flushed(base)
    row = _record(audit_url, audit_id)
    assert row["request_id"] == "rid-report-1" and row["answer"] == BODY["answer"]
    assert row["confidence"] == r.json()["confidence"]


def test_each_report_of_a_batch_names_its_own_record(base, audit_url):
    r = httpx.post(f"{base}/v1/verify/batch", json={"requests": [BODY, {"messages": CHAT}]},
                   headers={"X-Request-ID": "rid-batch-1"})
    ids = [rep["audit_id"] for rep in r.json()["reports"]]
    assert len(set(ids)) == 2
    _flushed(base)
    rows = [_record(audit_url, audit_id) for audit_id in ids]
    assert [row["answer"] for row in rows] == [BODY["answer"], CHAT[-1]["content"]]
    assert {row["request_id"] for row in rows} == {"rid-batch-1"}


def test_without_an_audit_log_a_report_has_no_audit_id():
    with running(Settings(audit_url="")) as url:
        report = httpx.post(f"{url}/v1/verify", json=BODY).json()
    assert report["confidence"] == "high" and "audit_id" not in report
