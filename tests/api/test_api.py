"""The HTTP API over real HTTP: every endpoint, every 4xx path, auth on and off, and the
audit log read back after a burst of concurrent requests and a shutdown."""

from __future__ import annotations

import json
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import jsonpath_ng
import pytest
from sqlalchemy import create_engine, func, select
from verifier.api.audit import verifications
from verifier.api.settings import Settings

from tests._audit_db import audit_rows, empty_postgres_url
from tests._server import SERVE, running, serving

QUOTE = [{"name": "get_quote", "id": "call_7", "output": {
    "symbol": "NVDA", "price": 131.24, "change_pct": 1.87, "volume": 52318400}}]
SCREEN = [{"name": "screen", "output": {"results": [
    {"symbol": "NVDA", "price": 131.24, "change_pct": 1.87},
    {"symbol": "AMD", "price": 158.32, "change_pct": 2.43}]}}]


def body(answer: str = "NVDA closed at $131.24, up 1.87%.", tools=QUOTE, **extra) -> dict:
    return {"answer": answer, "tool_results": tools, **extra}


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'audit.db'}"


@pytest.fixture
def base(sqlite_url: str):
    with running(Settings(audit_url=sqlite_url, audit_flush_ms=20)) as url:
        yield url


def test_verify_returns_the_report_with_evidence_paths_that_resolve(base):
    r = httpx.post(f"{base}/v1/verify", json=body())
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    report = r.json()
    assert report["confidence"] == "high" and report["action"] == "show"
    price = next(i for i in report["items"] if i["text"] == "$131.24")
    ev = price["evidence"][0]
    assert ev["tool"] == "get_quote" and ev["tool_id"] == "call_7"
    found = jsonpath_ng.parse(ev["path"]).find(QUOTE[0]["output"])
    assert [m.value for m in found] == [131.24]


def test_numbers_in_the_body_are_read_exactly_not_as_floats(base):
    # written by hand: json.dumps would send 131.2 and 1.2345678901234567e+19
    raw = ('{"answer": "NVDA at $131.20; the big figure is 12,345,678,901,234,567,890.12.", '
           '"tool_results": [{"name": "q", "output": {"symbol": "NVDA", "price": 131.20, '
           '"big": 12345678901234567890.12}}]}')
    r = httpx.post(f"{base}/v1/verify", content=raw, headers={"content-type": "application/json"})
    items = {i["text"]: i for i in r.json()["items"]}
    assert items["$131.20"]["status"] == "exact" and items["$131.20"]["evidence"][0]["raw"] == "131.20"
    big = items["12,345,678,901,234,567,890.12"]
    assert big["status"] == "normalized" and big["evidence"][0]["raw"] == "12345678901234567890.12"


def test_a_flagged_answer_carries_highlights_and_a_retry_hint(base):
    report = httpx.post(f"{base}/v1/verify", json=body("NVDA rose 2.43% to $131.24.", SCREEN)).json()
    assert report["confidence"] == "medium" and report["action"] == "show_with_warning"
    (hl,) = report["warnings"]["highlights"]
    assert (hl["text"], hl["status"]) == ("2.43%", "misattributed")
    assert "answer"[0:0] == "" and "'2.43%'" in report["warnings"]["retry_hint"]


def test_history_makes_a_value_stale(base):
    report = httpx.post(f"{base}/v1/verify", json=body(
        "NVDA trades at $128.10.", history=[{"name": "get_quote", "output": {"price": 128.10}}])).json()
    assert [i["status"] for i in report["items"]] == ["exact", "stale"]


def test_batch_answers_in_order_and_names_the_bad_request(base):
    r = httpx.post(f"{base}/v1/verify/batch", json={"requests": [
        body(), body("NVDA closed at $140.00."), body("AMD rose 2.43%.", SCREEN)]})
    assert r.status_code == 200
    assert [rep["confidence"] for rep in r.json()["reports"]] == ["high", "medium", "high"]
    r = httpx.post(f"{base}/v1/verify/batch", json={"requests": [body(), body("   ")]})
    assert r.status_code == 422 and r.json()["field"] == "requests[1].answer"


def test_schema_and_openapi_document_every_field(base):
    schema = httpx.get(f"{base}/v1/schema").json()
    assert "stale" in schema["$defs"]["Item"]["properties"]["status"]["enum"]
    openapi = httpx.get(f"{base}/openapi.json").json()
    request = openapi["components"]["schemas"]["VerifyRequest"]["properties"]
    assert all(field.get("description") for field in request.values())
    assert request["answer"]["examples"]
    verify_op = openapi["paths"]["/v1/verify"]["post"]
    assert {"200", "401", "413", "422", "503"} <= set(verify_op["responses"])
    content = verify_op["responses"]["200"]["content"]["application/json"]
    assert content["schema"]["$ref"].endswith("/Report")
    example = content["example"]  # a real report: every top-level Report field has an example
    assert set(openapi["components"]["schemas"]["Report"]["properties"]) <= set(example)
    assert all(field.get("examples") for field in request.values())


def test_health_readiness_and_metrics(base):
    assert httpx.get(f"{base}/healthz").json()["status"] == "ok"
    ready = httpx.get(f"{base}/readyz")
    assert ready.status_code == 200 and ready.json()["checks"]["audit"] == "ok"
    httpx.post(f"{base}/v1/verify", json=body("NVDA closed at $140.00."))
    metrics = httpx.get(f"{base}/metrics").text
    assert 'verifier_verifications_total{confidence="medium"} 1.0' in metrics
    assert 'verifier_flagged_items_total{kind="amount",status="unsupported"} 1.0' in metrics
    assert 'verifier_request_duration_seconds_count{method="POST",route="/v1/verify",status="200"} 1.0' in metrics


def test_metrics_label_docs_and_static_files_by_their_route_and_unknown_paths_alike(base):
    for path in ("/docs", "/openapi.json", "/static/badge.js", "/no/such/page", "/also/missing"):
        httpx.get(f"{base}{path}")
    lines = [line for line in httpx.get(f"{base}/metrics").text.splitlines()
             if line.startswith("verifier_request_duration_seconds_count")]
    for route in ("/docs", "/openapi.json", "/static"):
        assert any(f'route="{route}",status="200"' in line for line in lines), (route, lines)
    # two unknown paths share one label: a scanner cannot grow the metric
    assert any('route="unmatched",status="404"} 2.0' in line for line in lines), lines


# -- every 4xx path ------------------------------------------------------------------------

def post_raw(base: str, content: bytes | str, path: str = "/v1/verify") -> httpx.Response:
    return httpx.post(f"{base}{path}", content=content, headers={"content-type": "application/json"})


@pytest.mark.parametrize(("payload", "field", "words"), [
    ('{"answer": "x",', "body", "line 1, column 16"),
    ('{"answer": "AAPL at 1", "tool_results": [{"name": "q", "output": {"price": NaN}}]}', "body",
     "NaN is not a JSON number (send it as a string or null) at line 1, column 76"),
    ('[1, 2]', "body", "valid dictionary"),
    ('{"tool_results": []}', "answer", "give the answer and tool_results, or messages"),
    ('{"answer": 3, "tool_results": []}', "answer", "valid string"),
    ('{"answer": "a", "tool_results": [], "surprise": 1}', "surprise", "Extra inputs"),
    ('{"answer": "   ", "tool_results": []}', "answer", "nothing to verify"),
    ('{"answer": "NVDA 1", "tool_results": [{"name": 3, "output": 1}]}', "tool_results[0].name", ""),
    ('{"answer": "NVDA 1", "tool_results": null}', "tool_results", "missing"),
    ('{"answer": "NVDA 1", "tool_results": [], "locale": "xx_QQ"}', "locale", ""),
    ('{"answer": "NVDA 1", "tool_results": [], "policy": {"bogus": 1}}', "policy.bogus", "Extra inputs"),
    ('{"answer": "NVDA 1", "tool_results": [], "policy": {"medium_min_score": 7}}',
     "policy.medium_min_score", "less than or equal"),
])
def test_unusable_requests_are_422_naming_the_field(base, payload, field, words):
    r = post_raw(base, payload)
    assert r.status_code == 422, r.text
    err = r.json()
    assert err["field"] == field and words in err["message"]
    assert err["error"] in ("invalid_request", "invalid_input")


def test_limits_are_413_with_what_was_over(sqlite_url):
    settings = Settings(audit_url=sqlite_url, max_body_bytes=4_000, max_answer_chars=50, max_leaves=20,
                        max_batch=2)
    with running(settings) as base:
        r = post_raw(base, json.dumps(body(tools=[{"name": "t", "output": "x" * 5_000}])))
        assert r.status_code == 413 and r.json()["field"] == "body"
        r = httpx.post(f"{base}/v1/verify", json=body("NVDA closed at $131.24 " * 5))
        assert r.status_code == 413 and "answer length" in r.json()["message"]
        r = httpx.post(f"{base}/v1/verify", json=body(tools=[{"name": "t", "output": list(range(30))}]))
        assert r.status_code == 413 and "leaves" in r.json()["message"]
        r = httpx.post(f"{base}/v1/verify", json=body(policy={"max_answer_chars": 10_000}))
        assert r.status_code == 200  # a policy cannot raise the service's limits ...
        r = httpx.post(f"{base}/v1/verify", json=body("NVDA closed at $131.24 " * 5, policy={"max_answer_chars": 10_000}))
        assert r.status_code == 413  # ... as this shows
        r = httpx.post(f"{base}/v1/verify/batch", json={"requests": [body()] * 3})
        assert r.status_code == 413 and "batch" in r.json()["message"]


def test_a_request_over_its_time_budget_is_503(sqlite_url):
    big = [{"name": "t", "output": {"rows": [{"id": i, "v": i * 1.5, "w": f"{i} units"} for i in range(20_000)]}}]
    with running(Settings(audit_url=sqlite_url, time_budget_ms=1)) as base:
        r = httpx.post(f"{base}/v1/verify", json=body("The total is 123,456.", big), timeout=30)
        assert r.status_code == 503 and r.json()["error"] == "timeout" and r.headers["retry-after"] == "1"


def test_unknown_route_and_wrong_method_are_json_errors(base):
    r = httpx.get(f"{base}/v1/nothing")
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    r = httpx.get(f"{base}/v1/verify")
    assert r.status_code == 405 and r.json()["error"] == "method_not_allowed"


def test_stats_rejects_an_unknown_grouping(base):
    r = httpx.get(f"{base}/v1/stats", params={"group_by": "colour"})
    assert r.status_code == 422 and r.json()["field"] == "query.group_by"


# -- auth and CORS -------------------------------------------------------------------------

def test_with_an_api_key_v1_needs_the_bearer_token_and_health_does_not(sqlite_url):
    with running(Settings(audit_url=sqlite_url, api_key="s3cret")) as base:
        assert httpx.post(f"{base}/v1/verify", json=body()).status_code == 401
        wrong = httpx.post(f"{base}/v1/verify", json=body(), headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401 and wrong.json()["error"] == "unauthorized"
        assert wrong.headers["www-authenticate"] == "Bearer"
        ok = httpx.post(f"{base}/v1/verify", json=body(), headers={"Authorization": "Bearer s3cret"})
        assert ok.status_code == 200
        assert httpx.get(f"{base}/v1/stats").status_code == 401
        assert httpx.get(f"{base}/healthz").status_code == 200


def test_without_an_api_key_no_token_is_needed(base):
    assert httpx.post(f"{base}/v1/verify", json=body()).status_code == 200


def test_cors_allows_only_the_configured_origins(sqlite_url):
    with running(Settings(audit_url=sqlite_url, cors_origins=["https://app.example"])) as base:
        pre = {"Origin": "https://app.example", "Access-Control-Request-Method": "POST"}
        r = httpx.options(f"{base}/v1/verify", headers=pre)
        assert r.headers.get("access-control-allow-origin") == "https://app.example"
        r = httpx.options(f"{base}/v1/verify", headers={**pre, "Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in r.headers


# -- audit log and stats -------------------------------------------------------------------

def burst(base: str, n: int) -> None:
    """n concurrent verifications from two prompt versions; v2 answers are wrong."""
    def one(k: int) -> int:
        good = k % 2 == 0
        meta = {"model": "m-1", "prompt_version": "v1" if good else "v2", "assistant": "desk",
                "conversation_id": f"c{k}"}
        answer = "NVDA closed at $131.24, up 1.87%." if good else "NVDA closed at $139.99, up 1.87%."
        return httpx.post(f"{base}/v1/verify", json=body(answer, metadata=meta), timeout=30).status_code
    with ThreadPoolExecutor(16) as pool:
        assert set(pool.map(one, range(n))) == {200}




def check_audit_after_burst_and_shutdown(url: str) -> None:
    n = 120
    with running(Settings(audit_url=url, audit_flush_ms=500, audit_batch=50)) as base:
        burst(base, n)
        stats = httpx.get(f"{base}/v1/stats", params={"group_by": "prompt_version"}).json()
        assert stats["total"]["verifications"] == n
        by_version = {g["key"]: g for g in stats["groups"]}
        assert by_version["v1"]["flag_rate"] == 0.0 and by_version["v2"]["flag_rate"] == 1.0
        assert by_version["v2"]["top_flagged"][0] == {"kind": "amount", "status": "unsupported", "count": n // 2}
        burst(base, n)  # these are still queued when the server stops: shutdown must write them
    rows = audit_rows(url)
    assert len(rows) == 2 * n
    assert {r["conversation_id"] for r in rows} == {f"c{k}" for k in range(n)}
    bad = [r for r in rows if r["prompt_version"] == "v2"]
    assert all(r["flagged"] == 1 and r["confidence"] == "medium" for r in bad)
    assert bad[0]["items"][0]["text"] == "$139.99" and bad[0]["answer"].startswith("NVDA closed")
    assert bad[0]["tools"] == ["get_quote"] and bad[0]["metadata"]["assistant"] == "desk"


def test_audit_log_on_sqlite_keeps_every_record_through_a_burst_and_a_shutdown(sqlite_url):
    check_audit_after_burst_and_shutdown(sqlite_url)


@pytest.fixture
def postgres_url() -> str:
    return empty_postgres_url()


def test_audit_log_on_postgres_keeps_every_record_through_a_burst_and_a_shutdown(postgres_url):
    check_audit_after_burst_and_shutdown(postgres_url)


def test_redacted_audit_keeps_hashes_and_spans_only(sqlite_url):
    with running(Settings(audit_url=sqlite_url, audit_redact=True, redaction_key="k" * 32)) as base:
        httpx.post(f"{base}/v1/verify", json=body("NVDA closed at $139.99.", question="Where did NVDA close?"))
    (row,) = audit_rows(sqlite_url)
    assert row["answer"] is None and row["question"] is None and len(row["answer_sha256"]) == 64
    (item,) = row["items"]
    assert set(item) == {"kind", "status", "start", "end", "text_hmac"}
    assert (item["start"], item["end"]) == (15, 22)
    assert "139.99" not in json.dumps(row, default=str)


def test_stats_by_day_and_tool_and_time_window(base, sqlite_url):
    httpx.post(f"{base}/v1/verify", json=body())
    httpx.post(f"{base}/v1/verify", json=body("AMD is up 2.43%.", SCREEN))
    by_tool = httpx.get(f"{base}/v1/stats", params={"group_by": "tool"}).json()
    assert {g["key"]: g["verifications"] for g in by_tool["groups"]} == {"get_quote": 1, "screen": 1}
    (day,) = httpx.get(f"{base}/v1/stats", params={"group_by": "day"}).json()["groups"]
    assert day["verifications"] == 2
    future = httpx.get(f"{base}/v1/stats", params={"since": "2999-01-01T00:00:00Z"}).json()
    assert future["total"]["verifications"] == 0 and future["total"]["flag_rate"] == 0.0


def test_stats_without_an_audit_log_is_409():
    with running(Settings(audit_url="")) as base:
        assert httpx.post(f"{base}/v1/verify", json=body()).status_code == 200
        r = httpx.get(f"{base}/v1/stats")
        assert r.status_code == 409 and r.json()["error"] == "audit_off"
        assert httpx.get(f"{base}/readyz").json()["checks"]["audit"] == "off"


def test_an_audit_count_matches_the_requests(sqlite_url):
    with running(Settings(audit_url=sqlite_url)) as base:
        for _ in range(3):
            httpx.post(f"{base}/v1/verify", json=body())
    engine = create_engine(sqlite_url)
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(verifications)).scalar() == 3
    engine.dispose()


# -- transcripts over HTTP -------------------------------------------------------------------

TRANSCRIPTS = Path(__file__).resolve().parents[2] / "fixtures" / "transcripts"


@pytest.mark.parametrize("name", sorted(p.name for p in TRANSCRIPTS.glob("*.json")))
def test_messages_verify_to_the_same_report_as_the_explicit_call(base, name):
    from verifier import verify
    from verifier.inputs.jsonio import load_path

    fixture = load_path(TRANSCRIPTS / name)
    raw = (TRANSCRIPTS / name).read_text(encoding="utf-8")
    messages = json.loads(raw)["messages"]  # the same JSON; the service reads numbers exactly
    got = httpx.post(f"{base}/v1/verify", json={"messages": messages}).json()
    call = fixture["expected_call"]
    expected = verify(call["answer"], call["tool_results"], question=call.get("question"),
                      history=call.get("history") or None)
    assert str(uuid.UUID(got.pop("audit_id"))) != ""  # the service's one addition: its record's id
    assert got == json.loads(expected.model_dump_json())


def test_messages_with_answer_too_or_a_bad_transcript_is_422_naming_the_message(base):
    msgs = [{"role": "user", "content": "Where is AAPL?"}, {"role": "assistant", "content": "AAPL is $1."}]
    r = httpx.post(f"{base}/v1/verify", json={"messages": msgs, "answer": "x"})
    assert r.status_code == 422 and r.json()["field"] == "messages" and "not both" in r.json()["message"]
    r = httpx.post(f"{base}/v1/verify", json={"messages": [msgs[0], {"role": "wizard", "content": "?"}]})
    assert r.status_code == 422 and "messages[1]" in r.json()["message"]
    r = httpx.post(f"{base}/v1/verify", json={"answer": "AAPL is $1.", "tool_results": [], "format": "anthropic"})
    assert r.status_code == 422 and r.json()["field"] == "format"
    r = httpx.post(f"{base}/v1/verify", json={"tool_results": []})
    assert r.status_code == 422 and r.json()["field"] == "answer"


def test_audit_logs_opened_together_on_one_file_all_start(sqlite_url):
    from verifier.api.audit import AuditLog

    with ThreadPoolExecutor(4) as pool:
        logs = list(pool.map(lambda _: AuditLog(sqlite_url), range(4)))
    for log in logs:
        log.close()
    assert audit_rows(sqlite_url) == []


# -- found by a fresh-eyes run of the README -------------------------------------------

def test_with_an_api_key_a_malformed_body_without_the_key_is_401_not_422(sqlite_url):
    with running(Settings(audit_url=sqlite_url, api_key="s3cret")) as base:
        assert post_raw(base, '{"answer": ').status_code == 401


def test_a_413_names_the_request_field(sqlite_url):
    with running(Settings(audit_url=sqlite_url, max_answer_chars=10, max_leaves=5, max_batch=1)) as base:
        r = httpx.post(f"{base}/v1/verify", json=body())
        assert r.status_code == 413 and r.json()["field"] == "answer" and r.json()["errors"]
        r = httpx.post(f"{base}/v1/verify", json=body("NVDA", tools=[{"name": "t", "output": list(range(9))}]))
        assert r.status_code == 413 and r.json()["field"] == "tool_results"
        r = httpx.post(f"{base}/v1/verify/batch", json={"requests": [body("NVDA")] * 2})
        assert r.status_code == 413 and r.json()["field"] == "requests"


def test_every_422_lists_its_errors(base):
    r = httpx.post(f"{base}/v1/verify", json={"answer": " ", "tool_results": []})
    assert r.status_code == 422 and r.json()["errors"] == [
        {"field": "answer", "message": "is empty: there is nothing to verify", "type": "invalid_input"}]


def test_a_request_answered_503_is_not_recorded(sqlite_url):
    big = [{"name": "t", "output": {"rows": [{"id": i, "v": i * 1.5, "w": f"{i} units"} for i in range(20_000)]}}]
    with running(Settings(audit_url=sqlite_url, time_budget_ms=1)) as base:
        assert httpx.post(f"{base}/v1/verify", json=body("The total is 123,456.", big), timeout=30).status_code == 503
        time.sleep(3)  # let the abandoned verification finish in its thread
        metrics = httpx.get(f"{base}/metrics").text
    assert audit_rows(sqlite_url) == [] and "verifier_verifications_total{" not in metrics


def test_stats_refuses_a_window_that_ends_before_it_starts_and_an_empty_window_has_no_mean(base):
    r = httpx.get(f"{base}/v1/stats", params={"since": "2026-02-01T00:00:00Z", "until": "2026-01-01T00:00:00Z"})
    assert r.status_code == 422 and r.json()["field"] == "query.since"
    empty = httpx.get(f"{base}/v1/stats", params={"since": "2999-01-01T00:00:00Z"}).json()
    assert empty["total"]["mean_score"] is None


# -- several worker processes ---------------------------------------------------------------

def _verifications(metrics_text: str) -> float:
    return sum(float(line.rsplit(" ", 1)[1]) for line in metrics_text.splitlines()
               if line.startswith("verifier_verifications_total{"))


def test_metrics_sum_every_worker_when_serving_with_several(tmp_path: Path):
    """`verifier serve --workers 2`: whichever worker answers a scrape, the counters are
    the sum over both (each worker alone would report about half)."""
    env = {"VERIFIER_AUDIT_URL": f"sqlite:///{tmp_path / 'audit.db'}"}
    with serving(env, tmp_path, (*SERVE, "--workers", "2")) as served:
        base = served.base
        n = 40
        with ThreadPoolExecutor(8) as pool:  # new connections, so both workers take requests
            codes = list(pool.map(lambda _: httpx.post(f"{base}/v1/verify", json=body()).status_code, range(n)))
        assert codes == [200] * n
        totals = {_verifications(httpx.get(f"{base}/metrics").text) for _ in range(6)}
        assert totals == {float(n)}
        exposition = httpx.get(f"{base}/metrics").text
        # one build_info series however many workers, and no _created series in this mode either
        assert len([line for line in exposition.splitlines() if line.startswith("verifier_build_info{")]) == 1
        assert "_created" not in exposition


def test_lone_surrogates_and_enormous_numbers_get_a_report_not_a_500_or_a_hang(base, sqlite_url):
    # a JSON body may escape a lone surrogate; the audit log hashes it, the cache keys it
    raw = ('{"answer": "AAPL at $\\ud800 142.30", "question": "What is \\udfff AAPL\\u0000?", '
           '"tool_results": {"symbol": "AAPL", "note": "\\ud800", "price": 142.30}}')
    r = httpx.post(f"{base}/v1/verify", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text
    # and the audit log keeps the record, the surrogate visible as its escape
    engine = create_engine(sqlite_url)
    for _ in range(100):
        with engine.connect() as conn:
            stored = conn.execute(select(verifications.c.question)).scalars().all()
        if stored:
            break
        time.sleep(0.05)
    assert stored == ["What is \\udfff AAPL\\x00?"]
    # a number whose integer would take minutes to build stays text: answered at once
    start = time.monotonic()
    r = httpx.post(f"{base}/v1/verify", content='{"answer": "Value 10.", "tool_results": {"v": 1e999999999}}',
                   headers={"content-type": "application/json"}, timeout=30)
    assert r.status_code == 200 and time.monotonic() - start < 5
    assert r.json()["items"][0]["status"] == "unsupported"
    assert httpx.get(f"{base}/healthz").status_code == 200


def test_a_json_body_sent_as_text_is_415_saying_so(base):
    r = httpx.post(f"{base}/v1/verify", content=json.dumps(body()), headers={"content-type": "text/plain"})
    assert r.status_code == 415 and r.json()["error"] == "unsupported_media_type"
    assert "application/json" in r.json()["message"] and r.json()["field"] == "body"
    bare = httpx.post(f"{base}/v1/verify", content=json.dumps(body()))  # no content type at all
    assert bare.status_code == 415 and "none was sent" in bare.json()["message"]
    for kind in ("application/json; charset=utf-8", "application/vnd.api+json"):
        assert httpx.post(f"{base}/v1/verify", content=json.dumps(body()),
                          headers={"content-type": kind}).status_code == 200, kind
    assert httpx.post(f"{base}/v1/verify/batch", json={"requests": [body()]}).status_code == 200
