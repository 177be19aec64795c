"""The demo page and badge.js in a real browser: Debian's Chromium, driven by Playwright,
against a real uvicorn serving the app on loopback.

Skips when /usr/bin/chromium is missing (``apt-get install -y chromium``; CI has it).
Playwright's own browser downloads are never used. A screenshot of a highlighted answer
is written to ``out/demo.png``.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT
from verifier import verify
from verifier.inputs.jsonio import dumps, loads

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
EXAMPLES = json.loads((ROOT / "api" / "static" / "examples.json").read_text(encoding="utf-8"))["examples"]
LABELS = {"high": "Verified", "medium": "Partly verified", "low": "Unverified"}
SCREENSHOT = ROOT / "out" / "demo.png"

QUOTE_TOOLS = '[{"name": "quote", "output": {"symbol": "NVDA", "price": 131.240, "change_pct": 1.87}}]'


# ---- the example file (no browser needed) ---------------------------------------------------

@pytest.mark.parametrize("example", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_example_is_a_faithful_copy_of_its_fixture(example: dict[str, Any]) -> None:
    path, answer_id = example["source"].split("#")
    scenario = loads((ROOT / path).read_text(encoding="utf-8"))
    answer = next(a for a in scenario["answers"] if a["id"] == answer_id)
    tools = loads(example["tool_results_json"])
    assert example["answer"] == answer["text"]
    assert example["locale"] == scenario.get("locale", "en_US")
    assert example["question"] == scenario.get("question")
    assert dumps(tools) == dumps(scenario["tool_results"])  # numbers written exactly as the fixture's
    report = verify(example["answer"], tools, question=example["question"], locale=example["locale"])
    assert report.confidence == example["expect"]["confidence"]
    assert [h.text for h in report.warnings.highlights] == example["expect"]["highlights"]


def test_examples_cover_clean_drift_unsupported_misattributed_and_de_DE() -> None:
    statuses = set()
    for example in EXAMPLES:
        report = verify(example["answer"], loads(example["tool_results_json"]), locale=example["locale"])
        statuses |= {h.status for h in report.warnings.highlights}
    assert {"drift", "unsupported", "misattributed"} <= statuses
    assert any(e["expect"]["confidence"] == "high" for e in EXAMPLES)
    assert any(e["locale"] == "de_DE" for e in EXAMPLES)


# ---- a real server and a real browser -------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found: the browser test needs Debian's chromium "
                    "(apt-get install -y chromium)")
    tmp = tmp_path_factory.mktemp("browser")
    port = _free_port()
    env = {**os.environ, "VERIFIER_AUDIT_URL": f"sqlite:///{tmp / 'audit.db'}"}
    env.pop("VERIFIER_API_KEY", None)
    log = (tmp / "uvicorn.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "verifier.api.app:create_app",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(base + "healthz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"uvicorn did not start: {(tmp / 'uvicorn.log').read_text()}")
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is in the dev extra")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server)
    page.wait_for_selector("#example[data-loaded]")
    yield page
    context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


def _submit(page: Any, answer: str, tools: str, locale: str = "en_US", key: str = "") -> None:
    page.fill("#answer", answer)
    page.fill("#tools", tools)
    page.fill("#locale", locale)
    page.fill("#api-key", key)
    page.evaluate("document.body.dataset.state = ''")
    page.click("#verify")
    page.wait_for_selector("body[data-state=done], body[data-state=error]")


def _marks(page: Any) -> list[dict[str, str]]:
    return list(page.eval_on_selector_all(
        "#report .fv-answer mark.fv-flag",
        "ms => ms.map(m => ({text: m.textContent, status: m.dataset.status, reason: m.dataset.reason,"
        " cls: m.className}))"))


def _badge(page: Any) -> tuple[str, str, str]:
    badge = page.locator("#report .fv-badge")
    return badge.inner_text().strip(), badge.get_attribute("data-level"), badge.get_attribute("class")


def test_picking_each_example_shows_its_badge_and_highlights(page: Any) -> None:
    for example in EXAMPLES:
        page.evaluate("document.body.dataset.state = ''")
        page.select_option("#example", example["id"])
        page.wait_for_selector("body[data-state=done]")
        level = example["expect"]["confidence"]
        assert page.input_value("#answer") == example["answer"]
        assert _badge(page) == (LABELS[level], level, f"fv-badge fv-badge--{level}"), example["id"]
        marks = _marks(page)
        assert [m["text"] for m in marks] == example["expect"]["highlights"], example["id"]
        for m in marks:
            assert m["cls"] == f"fv-flag fv-flag--{m['status']}"
            assert m["reason"].startswith(m["status"]) and len(m["reason"]) > len(m["status"]) + 5
        # the whole answer is drawn, flagged spans included, nothing else
        assert page.inner_text("#report .fv-answer") == example["answer"].strip()


def test_misattributed_example_names_the_other_record_on_hover(page: Any) -> None:
    page.select_option("#example", "misattributed_values.swapped_change")
    page.wait_for_selector("body[data-state=done]")
    mark = page.locator("mark.fv-flag--misattributed")
    assert mark.inner_text() == "2.43%"
    mark.hover()
    tooltip = page.evaluate("getComputedStyle(document.querySelector('mark.fv-flag'), '::after').content")
    assert "belongs to AMD, not NVDA" in tooltip
    assert "misattributed" in page.inner_text("#items tr.flagged")
    assert "$.quotes[1].change_pct" in page.inner_text("#items tr.flagged")


def test_pasted_case_sends_exact_json_and_key_and_shows_evidence(page: Any) -> None:
    answer = "NVDA closed at $131.24, up 9%. <img src=x onerror=window.pwned=true><b>bold?</b>"
    with page.expect_request("**/v1/verify") as request_info:
        _submit(page, answer, QUOTE_TOOLS, key="k-123")
    request = request_info.value
    assert request.headers["authorization"] == "Bearer k-123"
    assert '"price": 131.240' in (request.post_data or "")  # not re-serialised through a float

    assert _badge(page) == ("Partly verified", "medium", "fv-badge fv-badge--medium")
    marks = _marks(page)
    assert [(m["text"], m["status"]) for m in marks] == [("9%", "unsupported")]
    assert "not found in the tool data" in marks[0]["reason"]
    assert "1 value is not in the tool data" in page.inner_text("#report .fv-message")

    # the answer's HTML is shown as text, never run
    assert page.evaluate("window.pwned") is None
    assert page.locator("#report .fv-answer img, #report .fv-answer b").count() == 0
    assert "<img src=x onerror=window.pwned=true>" in page.inner_text("#report .fv-answer")

    price = page.locator("#items tbody tr", has_text="$131.24")
    assert price.locator(".pill").inner_text() == "normalized"
    assert price.locator(".ev-tool").inner_text() == "quote"
    assert price.locator(".ev-path").inner_text() == "$.price"
    assert price.locator(".ev-raw").inner_text() == "131.240"
    assert "'9%' (percent) does not appear" in page.inner_text("#retry-hint")
    assert page.locator("#items tbody tr").count() == 3


def test_the_tooltip_says_what_the_data_has_instead(page: Any) -> None:
    _submit(page, "NVDA closed at $131.84, up 1.9%.", QUOTE_TOOLS)
    marks = _marks(page)
    assert [(m["text"], m["status"]) for m in marks] == [("$131.84", "unsupported"), ("1.9%", "drift")]
    assert marks[0]["reason"].endswith("; the data has 131.240 at $.price in quote")  # its first candidate
    assert "the data has" not in marks[1]["reason"]  # a drift's reason already names the figure it rounds
    page.locator("mark.fv-flag--unsupported").hover()
    tooltip = page.evaluate("getComputedStyle(document.querySelector('mark.fv-flag'), '::after').content")
    assert "the data has 131.240 at $.price" in tooltip


def test_malformed_tool_json_shows_an_error_box_not_a_result(page: Any) -> None:
    _submit(page, "NVDA closed at $131.24.", '[{"name": "quote", "output": {"price": 131.24,}}]')
    assert page.is_visible("#error")
    assert page.is_hidden("#result")
    assert "not valid JSON" in page.inner_text("#error")
    assert page.get_attribute("#error", "data-field") == "tool_results"


def test_an_api_error_is_shown_with_its_status_and_message(page: Any) -> None:
    _submit(page, "NVDA closed at $131.24.", QUOTE_TOOLS, locale="xx_QQ")
    assert page.is_visible("#error")
    assert "Error 422 (invalid_input)" in page.inner_text("#error-title")
    assert "cannot read 'xx_QQ' as locale" in page.inner_text("#error-message")
    assert page.get_attribute("#error", "data-field") == "locale"
    # a good request afterwards replaces the error with a result
    _submit(page, "NVDA closed at $131.24.", QUOTE_TOOLS)
    assert page.is_hidden("#error") and page.is_visible("#result")
    assert _badge(page)[1] == "high"


def test_spans_after_emoji_are_highlighted_at_the_right_place(page: Any) -> None:
    answer = "🚀📈 NVDA closed at $131.24 🎉, up 9% today and 2.4% this week 🙂."
    _submit(page, answer, QUOTE_TOOLS)
    marks = _marks(page)
    assert [m["text"] for m in marks] == ["9%", "2.4%"]
    # the report's offsets are code points; in JavaScript each span starts 3 indices later
    # (three emoji before it, two UTF-16 units each)
    starts = page.eval_on_selector_all(
        "mark.fv-flag", "ms => ms.map(m => [Number(m.dataset.start), document.getElementById('answer')"
        ".value.indexOf(m.textContent)])")
    assert [js - py for py, js in starts] == [3, 3]
    assert page.inner_text("#report .fv-answer") == answer



def test_screenshot_of_an_answer_with_three_kinds_of_flag(page: Any) -> None:
    """Edit a picked example's answer: one misattributed, one drifted, one unsupported value."""
    page.select_option("#example", "misattributed_values.swapped_change")
    page.wait_for_selector("body[data-state=done]")
    page.fill("#answer", "NVDA rose 2.43% to $131.24 on volume of 312.4 million shares, while AMD "
              "gained 2.43% to $158.32 after touching $161.48.")
    page.evaluate("document.body.dataset.state = ''")
    page.click("#verify")
    page.wait_for_selector("body[data-state=done]")
    assert [(m["text"], m["cls"]) for m in _marks(page)] == [
        ("2.43%", "fv-flag fv-flag--misattributed"), ("312.4 million", "fv-flag fv-flag--drift"),
        ("$161.48", "fv-flag fv-flag--unsupported")]
    colours = page.eval_on_selector_all("mark.fv-flag", "ms => ms.map(m => getComputedStyle(m).backgroundColor)")
    assert colours[0] == colours[2] != colours[1]  # red-ish for the failures, yellow for drift
    assert _badge(page)[:2] == ("Partly verified", "medium")

    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.locator("mark.fv-flag--drift").hover()
    page.screenshot(path=str(SCREENSHOT), full_page=True)
    assert SCREENSHOT.stat().st_size > 10_000


def test_badge_js_draws_a_report_on_its_own(page: Any) -> None:
    """The module a frontend copies: code-point offsets, spans that do not fit are left out."""
    result = page.evaluate("""async () => {
        const fv = await import('./static/badge.js');
        const answer = 'A 𝔘 B 😀😀 C <i>x</i> D';
        const report = {confidence: 'low', score: 0.2, warnings: {
            badge: {level: 'low', label: 'Unverified'}, message: 'm',
            highlights: [
                {start: 9, end: 10, text: 'C', kind: 'ticker', status: 'unsupported', reason: 'r1'},
                {start: 2, end: 3, text: '𝔘', kind: 'quote', status: 'drift', reason: 'r2'},
                {start: 4, end: 7, text: 'B 😀', kind: 'quote', status: 'stale', reason: 'r3'},
                {start: 0, end: 1, text: 'Z', kind: 'ticker', status: 'invalid', reason: 'wrong text'},
                {start: 6, end: 8, text: '😀😀', kind: 'quote', status: 'invalid', reason: 'overlap'}]}};
        const box = document.createElement('div');
        fv.renderReport(box, answer, report);
        return {
            marks: [...box.querySelectorAll('mark')].map(m => [m.textContent, m.className]),
            text: box.querySelector('.fv-answer').textContent,
            italics: box.querySelectorAll('i').length,
            badge: box.querySelector('.fv-badge').outerHTML,
        };
    }""")
    assert result["marks"] == [["𝔘", "fv-flag fv-flag--drift"], ["B 😀", "fv-flag fv-flag--stale"],
                               ["C", "fv-flag fv-flag--unsupported"]]
    assert result["text"] == "A 𝔘 B 😀😀 C <i>x</i> D"
    assert result["italics"] == 0
    assert 'class="fv-badge fv-badge--low"' in result["badge"] and ">Unverified<" in result["badge"]


# ---- the API docs, offline ---------------------------------------------------------------------

#: The operations Swagger UI must draw, as its element ids (operations-<tag>-<operationId>).
DOC_OPERATIONS = {"operations-verify-verify", "operations-verify-verifyBatch", "operations-stats-getStats",
                  "operations-ops-getMetrics", "operations-ops-getHealth"}


@pytest.fixture
def offline(browser: Any, server: str) -> Iterator[tuple[Any, list[str]]]:
    """A page whose network ends at the test server: any other request is aborted and listed
    (FastAPI's own /docs loads Swagger UI from a CDN, and would draw a blank page here)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    elsewhere: list[str] = []

    def route(r: Any) -> None:
        if r.request.url.startswith(server) or r.request.url.startswith("data:"):
            r.continue_()
        else:
            elsewhere.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page, elsewhere
    context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


def test_swagger_ui_renders_the_operations_offline(offline: tuple[Any, list[str]], server: str,
                                                   tmp_path: Path) -> None:
    page, elsewhere = offline
    page.goto(server + "docs")
    page.wait_for_selector(".opblock", timeout=15_000)
    drawn = set(page.eval_on_selector_all(".opblock", "els => els.map(e => e.id)"))
    assert DOC_OPERATIONS <= drawn, drawn
    assert "Verify one answer" in page.inner_text("#operations-verify-verify")
    page.click("#operations-verify-verify .opblock-summary")  # opens: the request body's schema
    page.wait_for_selector("#operations-verify-verify .opblock-body")
    assert elsewhere == []
    shot = tmp_path / "docs.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


def test_redoc_renders_offline(offline: tuple[Any, list[str]], server: str) -> None:
    page, elsewhere = offline
    page.goto(server + "redoc")
    page.wait_for_selector("h2:has-text('Verify one answer against the tool results it consulted')",
                           timeout=15_000)
    titles = page.eval_on_selector_all("h2", "hs => hs.map(h => h.textContent)")
    assert any(t.startswith("Verification counts, flag rate") for t in titles), titles
    assert elsewhere == []


def test_the_demo_pages_docs_link_opens_swagger_ui(offline: tuple[Any, list[str]], server: str) -> None:
    page, elsewhere = offline
    page.goto(server)
    page.click("nav.links a[href=docs]")
    page.wait_for_selector(".opblock", timeout=15_000)
    assert page.url == server + "docs" and elsewhere == []
