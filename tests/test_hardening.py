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
from verifier import jsonio, verify

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
