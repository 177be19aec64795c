"""The eval report in a real browser: Debian's Chromium, driven by Playwright (as
tests/api/test_browser.py does; skipped the same way when /usr/bin/chromium is missing),
opens the written file from disk and finds the charts drawn and each false alarm and
miss highlighted by the inlined badge.js, with no request leaving the file. A
screenshot is written to ``out/eval_report.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.test_browser import CHROMIUM, CHROMIUM_ARGS
from tests.conftest import ROOT
from tests.eval_report.test_eval_report import HOSTILE, after_set, build
from verifier import verify

SCREENSHOT = ROOT / "out" / "eval_report.png"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found: the browser test needs Debian's chromium "
                    "(apt-get install -y chromium)")
    pytest.importorskip("matplotlib", reason="the HTML report's charts need matplotlib (the [report] extra)")
    _, after, _, path = build(tmp_path_factory.mktemp("report"))
    return after, path


@pytest.fixture(scope="module")
def page(report: tuple[Any, Path]) -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is in the dev extra")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        tab = context.new_page()
        requests: list[str] = []
        errors: list[str] = []
        tab.on("request", lambda r: requests.append(r.url))
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        tab.goto(report[1].as_uri())
        tab.wait_for_selector("body[data-state=done]", timeout=10_000)
        SCREENSHOT.parent.mkdir(exist_ok=True)
        tab.screenshot(path=str(SCREENSHOT), full_page=True)
        yield tab
        assert errors == [], f"JavaScript errors on the page: {errors}"
        assert requests == [report[1].as_uri()], f"the report fetched something: {requests}"
        browser.close()


def _article(page: Any, case_id: str) -> Any:
    """The case's card (ids hold quotes and markup: found by value, not in a selector)."""
    ids = page.locator("article.case").evaluate_all("as => as.map(a => a.dataset.id)")
    assert ids.count(case_id) == 1, (case_id, ids)
    return page.locator("article.case").nth(ids.index(case_id))


def _marks(page: Any, case_id: str) -> list[dict[str, str]]:
    return list(_article(page, case_id).evaluate(
        "a => [...a.querySelectorAll('.fv-answer mark.fv-flag')].map(m => ({text: m.textContent, "
        "status: m.dataset.status, reason: m.dataset.reason, bg: getComputedStyle(m).backgroundColor}))"))


def test_the_charts_are_drawn(page: Any) -> None:
    for chart in ("rates", "kinds", "latency"):
        svg = page.locator(f'figure[data-chart="{chart}"] svg')
        box = svg.bounding_box()
        assert svg.is_visible() and box["width"] > 300 and box["height"] > 100, chart
        bars = page.locator(f'figure[data-chart="{chart}"] [id^="{chart}-series-verifier-"]')
        widths = bars.evaluate_all("bs => bs.map(b => b.getBoundingClientRect().width)")
        assert widths and max(widths) > 10, chart


def test_each_false_alarm_is_highlighted_by_badge_js(page: Any, report: tuple[Any, Path]) -> None:
    after = report[0]
    assert after.verifier.false_alarms
    for case_id in after.verifier.false_alarms:
        record = next(r for r in after_set() if r["id"] == case_id)
        expected = verify(record["answer"], record["tool_results"], question=record["question"]).warnings
        drawn, end = [], 0  # badge.js leaves out a highlight inside an earlier one
        for h in sorted(expected.highlights, key=lambda h: (h.start, -h.end)):
            if h.start >= end:
                drawn.append((h.text, h.status))
                end = h.end
        marks = _marks(page, case_id)
        assert [(m["text"], m["status"]) for m in marks] == drawn and "$143.30" in [m["text"] for m in marks]
        assert all(m["reason"].startswith(m["status"]) and m["bg"] != "rgba(0, 0, 0, 0)" for m in marks)
        article = _article(page, case_id)
        assert article.locator(".fv-badge").inner_text().strip() == expected.badge.label
        # the markup in the answer is shown as text, never run; the emoji does not shift a highlight
        assert article.locator(".fv-answer").inner_text() == HOSTILE
        assert article.locator(".fv-answer img").count() == 0
    assert page.evaluate("window.pwned") is None


def test_each_miss_shows_its_labelled_fault(page: Any, report: tuple[Any, Path]) -> None:
    after = report[0]
    assert after.verifier.misses
    for case_id in after.verifier.misses:
        record = next(r for r in after_set() if r["id"] == case_id)
        marks = _marks(page, case_id)
        assert [(m["text"], m["status"]) for m in marks] == [(f["text"], "missed") for f in record["faults"]]
        assert "did not flag" in marks[0]["reason"]


def test_the_flipped_cases_are_marked(page: Any) -> None:
    tag = page.locator('article.case[data-id="missed"] .flip')
    assert tag.is_visible() and tag.inner_text() == "newly missed"
    assert page.locator('#changes article.case[data-id="ok"] .flip').inner_text() == "newly passing"
    rows = page.locator("#changes tr.flip-row")
    assert sorted(rows.evaluate_all("rs => rs.map(r => r.dataset.change)")) == ["newly missed", "newly passing"]
