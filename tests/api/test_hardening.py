"""Regression tests for inputs that once froze or crashed the verifier (the hardening
issue): each names the defect it pins and fails on the code before its fix."""

from __future__ import annotations

import threading
import time
from decimal import Decimal

import httpx
import pytest
from verifier.api.settings import Settings

from tests._server import running
from verifier import Policy, verify
from verifier.inputs import jsonio

#: Leaf keys the haystack reads as a record's period ("fiscal_year", "quarter", ...):
#: their values used to go through a bare int().
PERIOD_KEYS = ("fiscal_year", "year", "fy", "quarter", "fiscal_quarter", "qtr")
HOSTILE = ("1e10000000", "-1e10000000", "1e-10000000", "9" * 4000, "1E+999999999")


@pytest.mark.parametrize("key", PERIOD_KEYS)
@pytest.mark.parametrize("number", HOSTILE)
def test_a_period_field_with_an_enormous_number_is_read_at_once(key, number):
    output = jsonio.loads(f'{{"{key}": {number}, "symbol": "AAPL"}}')
    start = time.process_time()
    report = verify("AAPL 1", [{"name": "t", "output": output}], judge=False)
    assert time.process_time() - start < 1.0
    assert report.items[0].text == "AAPL" and report.items[0].status == "exact"


@pytest.mark.parametrize("key", PERIOD_KEYS)
@pytest.mark.parametrize("value", [Decimal("Infinity"), Decimal("-Infinity"), Decimal("NaN"),
                                   Decimal("sNaN"), float("inf"), float("nan"), 10 ** 400])
def test_a_period_field_that_is_no_finite_number_is_no_period_and_raises_nothing(key, value):
    report = verify("AAPL rose in Q3 2025.", [{"name": "t", "output": {key: value, "symbol": "AAPL"}}],
                    judge=False)
    assert report.model_dump_json()  # a report, serialisable
    periods = [i for i in report.items if i.kind == "period"]
    assert all(i.status == "unsupported" for i in periods)


def test_a_quarter_and_year_written_as_numbers_still_name_the_record():
    tools = [{"name": "t", "output": {"symbol": "AAPL", "fiscal_year": Decimal(2025),
                                      "quarter": Decimal("3.0"), "eps": Decimal("1.64")}}]
    report = verify("AAPL earned $1.64 a share in Q3 2025.", tools, judge=False)
    period = next(i for i in report.items if i.kind == "period")
    assert period.status != "unsupported", period


def test_the_90_byte_request_answers_at_once_and_the_service_stays_responsive(tmp_path):
    raw = '{"answer":"AAPL 1","tool_results":[{"name":"t","output":{"fiscal_year":1e10000000}}]}'
    settings = Settings(audit_url=f"sqlite:///{tmp_path / 'audit.db'}", audit_flush_ms=20)
    with running(settings) as base:
        health: list[float] = []
        stop = threading.Event()

        def probe() -> None:
            with httpx.Client() as client:
                while not stop.is_set():
                    start = time.monotonic()
                    assert client.get(f"{base}/healthz").status_code == 200
                    health.append(time.monotonic() - start)
                    time.sleep(0.02)

        watcher = threading.Thread(target=probe)
        watcher.start()
        try:
            start = time.monotonic()
            for _ in range(5):
                r = httpx.post(f"{base}/v1/verify", content=raw,
                               headers={"content-type": "application/json"}, timeout=30)
                assert r.status_code == 200, r.text
            assert time.monotonic() - start < 5  # each well within 1 s
        finally:
            stop.set()
            watcher.join(10)
        assert health and max(health) < 0.5


def test_a_content_length_of_thousands_of_digits_is_413_not_a_crash(tmp_path):
    settings = Settings(audit_url="", audit_flush_ms=20)
    with running(settings) as base, httpx.Client() as client:
        request = client.build_request("POST", f"{base}/v1/verify", content=b"{}",
                                       headers={"content-type": "application/json"})
        request.headers["content-length"] = "9" * 5000
        try:
            r = client.send(request)
        except httpx.HTTPError:  # the server may refuse the header outright; it must not 500
            return
        assert r.status_code in (400, 413), r.text


# -- defect 2: every fault answers in the error shape ---------------------------------

import json
from decimal import Decimal as _D

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from verifier.normalizers import NormalizeError, canonical_locale

from verifier import InputError, LimitError
from verifier.models import json_text

TOOLS = [{"name": "t", "output": {"symbol": "AAPL", "price": 142.3}}]


@pytest.mark.parametrize(("written", "canonical"), [("en-US", "en_US"), ("en_us", "en_US"), ("EN_us", "en_US"),
                                                    ("de-CH", "de_CH"), ("fr", "fr"), ("zh-Hant-TW", "zh_Hant_TW")])
def test_a_locale_written_any_common_way_is_read(written, canonical):
    assert canonical_locale(written) == canonical
    assert verify("AAPL is up.", TOOLS, locale=written, judge=False).confidence == "high"


def test_an_unknown_locale_is_an_input_error_naming_it_with_the_nearest_one():
    with pytest.raises(InputError) as caught:
        verify("AAPL at $142.30.", TOOLS, locale="en_UX", judge=False)
    assert caught.value.where == "locale" and "did you mean" in str(caught.value)
    for junk in ("", "  ", "x" * 300, None, 5):
        with pytest.raises(NormalizeError):
            canonical_locale(junk)


def test_a_lone_surrogate_in_an_item_gives_a_report_that_serialises_with_it_escaped():
    body = jsonio.loads('{"answer":"G=6931\\ud80069310","output":{"text":"G=6931\\ud80069310"}}')
    report = verify(body["answer"], [{"name": "t", "output": body["output"]}], judge=False)
    text = json_text(report)
    assert "\\ud800" in text
    raws = [e["raw"] for i in json.loads(text)["items"] for e in i["evidence"]]
    assert "G=6931\ud80069310" in raws  # the data's text, as it came


def test_the_cache_key_writer_and_the_audit_copy_take_any_depth():
    from verifier.api.audit import _storable

    deep: object = 1
    for _ in range(5000):
        deep = [deep]
    assert jsonio.dumps(deep).count("[") == 5000
    nested: dict = {}
    cursor = nested
    for _ in range(3000):
        cursor["k"] = {"x": "a\x00b"}
        cursor = cursor["k"]
    assert _storable(nested)["k"]["x"] == "a\\x00b"


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    db = tmp_path_factory.mktemp("audit") / "audit.db"
    with running(Settings(audit_url=f"sqlite:///{db}", audit_flush_ms=20)) as base:
        yield base


def _post(base: str, raw: str) -> httpx.Response:
    return httpx.post(f"{base}/v1/verify", content=raw, headers={"content-type": "application/json"}, timeout=30)


def test_requests_that_once_gave_plain_text_500s_answer_in_the_error_shape_or_with_a_report(service):
    base = service
    deep_tools = '{"answer":"AAPL 1","tool_results":' + "[" * 500 + '{"symbol":"AAPL"}' + "]" * 500 + "}"
    deep_meta = '{"answer":"AAPL 1","tool_results":{"symbol":"AAPL"},"metadata":{"extra":' + '{"a":' * 900 + "1" + "}" * 900 + "}}"
    cases = [
        '{"answer":"AAPL at $142.30","tool_results":{"symbol":"AAPL","price":142.3},"locale":"en-US"}',
        '{"requests":[{"answer":"AAPL at $142.30","tool_results":{"symbol":"AAPL"},"locale":"en-US"}]}',
        '{"answer":"G=6931\\ud80069310","tool_results":[{"name":"t","output":{"text":"G=6931\\ud80069310"}}]}',
        deep_tools, deep_meta,
    ]
    for i, raw in enumerate(cases):
        path = "/v1/verify/batch" if raw.startswith('{"requests"') else "/v1/verify"
        r = httpx.post(f"{base}{path}", content=raw, headers={"content-type": "application/json"}, timeout=30)
        assert r.status_code < 500, (i, r.status_code, r.text[:200])
        body = r.json()
        assert ("confidence" in body or "reports" in body) or {"error", "message", "field", "errors"} <= set(body)
    bad = _post(base, '{"answer":"AAPL","tool_results":{"symbol":"AAPL"},"locale":"zz-ZZ"}')
    assert bad.status_code == 422 and bad.json()["field"] == "locale"


def test_stats_windows_at_the_ends_of_the_calendar_answer(service):
    for query in ("since=0001-01-01T00:00:00%2B05:00", "until=9999-12-31T23:59:59-05:00"):
        r = httpx.get(f"{service}/v1/stats?{query}", timeout=10)
        assert r.status_code == 200, (query, r.text)


def test_an_unexpected_exception_is_a_500_in_the_error_shape(service, monkeypatch):
    from verifier.api import service as service_module

    async def broken(self, request):
        raise RuntimeError("a bug")

    monkeypatch.setattr(service_module.VerifyService, "verify", broken)
    r = _post(service, '{"answer":"AAPL","tool_results":{"symbol":"AAPL"}}')
    assert r.status_code == 500 and r.json()["error"] == "internal_error" and r.json()["field"] is None
    assert httpx.get(f"{service}/healthz", timeout=10).status_code == 200


# -- the robustness property: documented errors only, a serialisable report, bounded time

_ODD = "\u0660\u0669\uff10\uff19\u2212\u00a0\u202f\u2009\u0301\u200f\u200e%$€,.-()0123456789"
_TEXT = st.text(alphabet=st.sampled_from(list(_ODD + "AAPL MSFT Q3 FY2025 rose fell about ")), max_size=120)
_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), _TEXT,
                  st.sampled_from([_D("NaN"), _D("Infinity"), _D("-Infinity"), _D("1e400"), _D("1e-400"),
                                   _D(10) ** 5000, float("nan"), float("inf"), 1e308]),
                  st.decimals(allow_nan=False, allow_infinity=False, places=4))
_JSON = st.recursive(_LEAF, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                    st.dictionaries(st.sampled_from(["price", "symbol", "fiscal_year",
                                                                                     "quarter", "unit", "text", "t"]),
                                                                    inner, max_size=4)), max_leaves=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answer=_TEXT, output=_JSON, locale=st.sampled_from(["en_US", "de_DE", "en-GB", "fr_FR", "xx", "ja_JP"]),
       question=st.one_of(st.none(), _TEXT))
def test_verify_raises_only_documented_errors_and_its_report_serialises(answer, output, locale, question):
    start = time.process_time()
    try:
        report = verify(answer, [{"name": "t", "output": output}], question=question, locale=locale, judge=False)
    except (InputError, LimitError):
        return
    assert json.loads(json_text(report))["confidence"] in ("high", "medium", "low")
    assert time.process_time() - start < 2.0


# -- defect 3: the time budget stops the work ------------------------------------------

from verifier.deadline import Deadline, DeadlineExceeded, check, current

#: an object of 150,000 keys (the 2.6 MB body) and 100,000 characters of ISINs: seconds
#: of work each before the deadline was checked
WIDE = [{"name": "t", "output": {f"key_{i}": i * 1.5 for i in range(150_000)}}]
ISINS = ("US0378331005 " * 8000)[:100_000]


#: found by benchmarks/worst_case.py: 20,000 figures in an answer, one string of 60,000 sentences
PERCENTS = "3.2% " * 20_000
SENTENCES = [{"name": "t", "output": {"text": "The company reported that revenue rose in the quarter. " * 60_000}}]


@pytest.mark.parametrize(("answer", "tools"), [("AAPL rose 3.2% to $142.30.", WIDE),
                                               (ISINS, [{"name": "t", "output": {"isin": "US0378331005"}}]),
                                               (PERCENTS, [{"name": "t", "output": {"x": 1}}]),
                                               ("The revenue rose 3.2% in the quarter.", SENTENCES)],
                         ids=["wide-object", "repeated-isins", "repeated-percentages", "one-long-string"])
def test_a_policy_deadline_stops_verify_soon_after_it(answer, tools):
    verify("AAPL 1", TOOLS, judge=False)  # the extractor built once, outside the timing
    start = time.monotonic()
    with pytest.raises(DeadlineExceeded) as caught:
        verify(answer, tools, judge=False, policy={"deadline_ms": 300, "max_answer_chars": 200_000})
    assert time.monotonic() - start < 0.3 + 0.5  # the issue: within 0.5 s of the deadline
    assert isinstance(caught.value, LimitError) and caught.value.limit == 300 and caught.value.size >= 300


def test_the_cited_stage_stops_at_the_deadline_and_caps_its_wide_searches():
    # 4,000 figures, half unsupported: the cited stage searched each one widely (14 s)
    answer, tools = "Revenue was $3.20 and then $4.17. " * 2000, [{"name": "q", "output": {"rev": 3.2}}]
    verify("AAPL 1", TOOLS, judge=False)
    start = time.process_time()  # this process's CPU time: what other processes run does not count
    try:
        verify(answer, tools, judge=False, policy={"deadline_ms": 1500, "max_answer_chars": 200_000})
    except DeadlineExceeded:
        pass
    # CI's shared cores measured 2.8 s of CPU where a quiet machine takes 1.5: the bound is
    # for the regression (14 s), not the machine
    assert time.process_time() - start < 1.5 + 2.0


def test_no_deadline_by_default_and_a_deadline_that_is_not_reached_changes_nothing():
    assert Policy().deadline_ms is None and current() is None
    answer = "AAPL trades at $142.30, up 3.2%."
    assert (verify(answer, TOOLS, judge=False, policy={"deadline_ms": 60_000}).model_dump()
            == verify(answer, TOOLS, judge=False).model_dump())


def test_nested_deadlines_keep_the_sooner_one():
    with Deadline(60_000).active() as outer:
        with Deadline(1).active() as inner:
            assert current() is inner
            time.sleep(0.005)
            with pytest.raises(DeadlineExceeded):
                check()
        assert current() is outer
        with Deadline(120_000).active() as later:
            assert later is outer
    assert current() is None
    with Deadline(1).active(), pytest.raises(DeadlineExceeded):  # verify() honours an outer one
        time.sleep(0.005)
        verify("AAPL 1", TOOLS, judge=False)


def test_leaves_over_the_limit_are_refused_before_indexing():
    verify("AAPL 1", TOOLS, judge=False)
    start = time.process_time()
    with pytest.raises(LimitError) as caught:
        verify("AAPL 1", [{"name": "t", "output": list(range(200_001))}], judge=False,
               policy={"max_leaves": 200_000})
    assert time.process_time() - start < 0.5  # indexing them took 5 s
    assert "leaves" in caught.value.what and caught.value.limit == 200_000


def _timed_post(client: httpx.Client, url: str, raw: str) -> tuple[httpx.Response, float]:
    start = time.monotonic()
    r = client.post(url, content=raw, headers={"content-type": "application/json"})
    return r, time.monotonic() - start


@pytest.mark.parametrize(("answer", "tools"), [("AAPL rose 3.2% to $142.30.", WIDE),
                                               (ISINS, [{"name": "t", "output": {"isin": "US0378331005"}}])],
                         ids=["wide-object", "repeated-isins"])
def test_a_request_over_its_budget_stops_at_the_deadline_and_delays_no_later_request(answer, tools):
    heavy = json.dumps({"answer": answer, "tool_results": tools})
    small = json.dumps({"answer": "AAPL at $142.30.", "tool_results": TOOLS})
    with running(Settings(audit_url="", time_budget_ms=300)) as base, httpx.Client(timeout=30) as client:
        assert _timed_post(client, f"{base}/v1/verify", small)[0].status_code == 200  # warm
        r, took = _timed_post(client, f"{base}/v1/verify", heavy)
        assert r.status_code == 503 and r.json()["error"] == "timeout", r.text[:200]
        assert took < 2.0  # reading the body, then 300 ms (it went on for 6-9 s)
        r, took = _timed_post(client, f"{base}/v1/verify", small)
        assert r.status_code == 200 and took < 0.5  # it queued behind the abandoned work


def test_leaves_over_the_service_limit_are_a_fast_413_in_the_error_shape():
    raw = json.dumps({"answer": "AAPL 1", "tool_results": [{"name": "t", "output": list(range(200_001))}]})
    with running(Settings(audit_url="")) as base, httpx.Client(timeout=30) as client:
        r, took = _timed_post(client, f"{base}/v1/verify", raw)
    assert r.status_code == 413 and r.json()["error"] == "too_large" and r.json()["field"] == "tool_results"
    assert took < 1.5  # it was a 503 after 5.2 s


def test_a_request_policy_cannot_raise_the_servers_work_limits():
    """Values above the server's are lowered to them (documented in docs/service.md)."""
    derived = {"answer": "Revenue grew 20% from 2023 to 2024.",
               "tool_results": [{"name": "fin", "output": {"revenue_2024": 120, "revenue_2023": 100}}]}
    with running(Settings(audit_url="", max_derive_items=0, derive_max_work=0)) as base:
        for policy in ({}, {"max_derive_items": 10**6, "derive_max_work": 10**12}):
            r = httpx.post(f"{base}/v1/verify", json={**derived, "policy": policy}, timeout=30)
            assert r.status_code == 200 and r.json()["items"][0]["status"] == "unsupported", r.text[:300]
    with running(Settings(audit_url="")) as base:  # the same answer is derived under the defaults
        r = httpx.post(f"{base}/v1/verify", json=derived, timeout=30)
        assert r.json()["items"][0]["status"] == "derived"


# -- defect 4: the judge gets what is left of the request's deadline ------------------

from tests.judge.test_judge import ScriptedJudge

#: a judge that never answers in time, one that asks to come back in an hour, one that
#: drips its reply a byte at a time (each read well inside the per-attempt timeout)
SLOW_JUDGES = {"hanging": {"verdict": "supported", "quote": "", "delay": 5},
               "retry-after-an-hour": {"status": 429, "headers": {"Retry-After": "3600"}},
               "dripping": {"verdict": "supported", "quote": "", "drip": 0.05}}
HIGH_STAKES = ("You should buy AAPL.", [{"name": "t", "output": {"symbol": "AAPL"}}])


@pytest.fixture
def judge_server():
    server = ScriptedJudge()
    yield server
    server.close()


@pytest.mark.parametrize("reply", SLOW_JUDGES.values(), ids=SLOW_JUDGES.keys())
def test_a_slow_judge_is_not_judged_at_the_policy_deadline(judge_server, reply):
    judge_server.replies(reply)
    judge = judge_server.client(timeout=1.0, budget=10.0, retries=2)
    start = time.monotonic()
    report = verify(*HIGH_STAKES, judge=judge, policy={"deadline_ms": 400})
    assert time.monotonic() - start < 0.4 + 0.3
    (j,) = report.judgements
    assert j.verdict == "not_judged" and report.confidence == "high"


def test_a_dripping_judge_is_held_to_its_budget_as_one_deadline_not_per_read(judge_server):
    judge_server.replies(SLOW_JUDGES["dripping"])
    judge = judge_server.client(timeout=0.3, budget=0.6, retries=0)  # each byte comes in 50 ms
    start = time.monotonic()
    report = verify(*HIGH_STAKES, judge=judge)
    assert time.monotonic() - start < 0.6 + 0.3
    assert report.judgements[0].verdict == "not_judged"


@pytest.mark.parametrize("reply", SLOW_JUDGES.values(), ids=SLOW_JUDGES.keys())
def test_the_service_answers_not_judged_and_the_report_within_its_budget(judge_server, reply, monkeypatch):
    judge_server.replies(reply)
    monkeypatch.setenv("VERIFIER_JUDGE_URL", judge_server.url)  # the defaults: 10 s an attempt, 20 s a call
    answer, tools = HIGH_STAKES
    with running(Settings(audit_url="", time_budget_ms=600)) as base, httpx.Client(timeout=30) as client:
        start = time.monotonic()
        r = client.post(f"{base}/v1/verify", json={"answer": answer, "tool_results": tools})
        took = time.monotonic() - start
    assert r.status_code == 200, r.text[:300]
    assert took < 0.6 + 0.6  # the hanging judge takes 5 s; the slack is for a loaded machine
    assert [j["verdict"] for j in r.json()["judgements"]] == ["not_judged"]
