"""/metrics follows Prometheus' naming conventions (issue 22): counters end in _total and
are typed counter, the latency histogram is ``_duration_seconds``, no ``_created`` series,
and ``verifier_build_info`` carries the version. Read with prometheus_client's own parser."""

from __future__ import annotations

import platform

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from verifier.api.metrics import Metrics
from verifier.api.settings import Settings

from tests._server import running
from verifier import __version__

BODY = {"answer": "NVDA closed at $131.24.", "tool_results": [{"name": "q", "output": {"price": 131.24}}]}


@pytest.fixture(scope="module")
def exposition(tmp_path_factory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('metrics') / 'audit.db'}"
    with running(Settings(audit_url=url, audit_flush_ms=20)) as base:
        assert httpx.post(f"{base}/v1/verify", json=BODY).status_code == 200
        httpx.get(f"{base}/v1/stats")  # flushes the audit log: one record written
        return httpx.get(f"{base}/metrics").text


def _families(text: str) -> dict[str, object]:
    return {family.name: family for family in text_string_to_metric_families(text)}


def test_counters_end_in_total_and_are_typed_counter(exposition):
    families = _families(exposition)
    for name in ("verifier_audit_dropped", "verifier_audit_written", "verifier_audit_failed",
                 "verifier_verifications"):
        assert families[name].type == "counter", name
        assert f"# TYPE {name}_total counter" in exposition
    written = {s.name: s.value for s in families["verifier_audit_written"].samples}
    assert written == {"verifier_audit_written_total": 1.0}


def test_latency_is_a_duration_histogram_and_the_old_name_is_gone(exposition):
    families = _families(exposition)
    assert families["verifier_request_duration_seconds"].type == "histogram"
    assert "verifier_request_seconds" not in exposition
    counts = [s for s in families["verifier_request_duration_seconds"].samples
              if s.name.endswith("_count") and s.labels["route"] == "/v1/verify"]
    assert [(s.labels["status"], s.value) for s in counts] == [("200", 1.0)]


def test_no_created_series(exposition):
    assert "_created" not in exposition
    assert "_created" not in Metrics().render().decode()


def test_build_info_names_the_version(exposition):
    info = _families(exposition)["verifier_build_info"]
    assert info.type == "gauge"  # (an Info metric would not sum across worker processes)
    assert [(s.name, s.labels, s.value) for s in info.samples] == [
        ("verifier_build_info", {"version": __version__, "python": platform.python_version()}, 1.0)]
