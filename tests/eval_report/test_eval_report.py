"""``verifier eval --html``: the written file is self-contained (nothing fetched from
another host), has its charts, shows every false alarm and miss with the highlights
``badge.js`` will draw, escapes the data set's text, and with ``--compare`` marks the
cases that flipped. The browser half is tests/eval_report/test_eval_report_browser.py."""

from __future__ import annotations

import json
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from verifier import verify
from verifier._errors import InputError
from verifier.eval_report import Collector, before_outcomes, compare, load_before
from verifier.evaluation.evaluate import EvalResult, load_dataset, run

pytest.importorskip("matplotlib", reason="the HTML report's charts need matplotlib (the [report] extra)")

from verifier.eval_report import charts, page

TOOLS = [{"name": "quote", "output": {"symbol": "AAPL", "price": 142.3, "change_pct": 1.2}}]
HOSTILE = 'AAPL <img src=x onerror="window.pwned=1"> trades at $143.30 & "up" 😀 </script><!--'


def _case(case_id: str, answer: str, label: str, faults: list[dict[str, str]] | None = None) -> dict[str, Any]:
    return {"id": case_id, "locale": "en_US", "question": "Where is <b>AAPL</b> & co?", "tool_results": TOOLS,
            "answer": answer, "label": label, "faults": faults or []}


def after_set() -> list[dict[str, Any]]:
    """This run: one case of each outcome, the false alarm's answer full of markup."""
    return [
        _case("ok", "AAPL trades at $142.30.", "clean"),
        _case('alarm <&"\'>', HOSTILE, "clean"),
        _case("caught", "AAPL trades at $149.30.", "faulty", [{"text": "$149.30", "kind": "unsupported"}]),
        _case("missed", "AAPL trades at $142.30, up 1.2%.", "faulty", [{"text": "1.2%", "kind": "direction"}]),
    ]


def before_set() -> list[dict[str, Any]]:
    """The earlier run: "ok" was a false alarm there, "missed" was caught."""
    cases = after_set()
    cases[0]["answer"] = "AAPL trades at $144.30."
    cases[3] = _case("missed", "AAPL trades at $142.30, up 7.2%.", "faulty", [{"text": "7.2%", "kind": "direction"}])
    return cases


def write_sets(tmp: Path) -> tuple[Path, Path]:
    paths = []
    for name, cases in (("before.jsonl", before_set()), ("after.jsonl", after_set())):
        path = tmp / name
        path.write_text("\n".join(json.dumps(c, ensure_ascii=False) for c in cases) + "\n", encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def build(tmp: Path) -> tuple[EvalResult, EvalResult, list[dict[str, Any]], Path]:
    """Run both sets as the CLI does and write the report; (before, after, shown, path)."""
    before_path, after_path = write_sets(tmp)
    before = run(load_dataset(before_path), "before.jsonl")
    records = load_dataset(after_path)
    shown = Collector(before_outcomes(before, records))
    after = run(records, "after.jsonl", on_report=shown)
    out = tmp / "report.html"
    page.write_html(out, after, shown.cases, before)
    return before, after, shown.cases, out


class _Elements(HTMLParser):
    """Every start tag with its attributes, and the text of each <script>."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.scripts: list[tuple[dict[str, str], str]] = []
        self._in: dict[str, str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))
        if tag == "script":
            self._in = self.tags[-1][1]
            self.scripts.append((self._in, ""))

    def handle_data(self, data: str) -> None:
        if self._in is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in = None


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[EvalResult, EvalResult, list[dict[str, Any]], Path]:
    return build(tmp_path_factory.mktemp("report"))


@pytest.fixture(scope="module")
def parsed(built: Any) -> _Elements:
    parser = _Elements()
    parser.feed(built[3].read_text(encoding="utf-8"))
    return parser


def _data(parsed: _Elements) -> dict[str, Any]:
    (text,) = [text for attrs, text in parsed.scripts if attrs.get("type") == "application/json"]
    return dict(json.loads(text))


def test_the_sets_have_one_case_of_each_outcome(built: Any) -> None:
    before, after, _, _ = built  # the premise of the tests below, from real runs
    assert after.verifier.false_alarms == ['alarm <&"\'>'] and after.verifier.misses == ["missed"]
    assert set(before.verifier.false_alarms) == {"ok", 'alarm <&"\'>'} and before.verifier.misses == []


def test_nothing_is_fetched_from_another_host(built: Any, parsed: _Elements) -> None:
    text = built[3].read_text(encoding="utf-8")
    for tag, attrs in parsed.tags:
        for name in ("src", "href", "xlink:href", "action", "srcset", "data", "poster"):
            value = attrs.get(name, "").strip().lower()
            assert not value.startswith(("http:", "https:", "//")), (tag, name, value)
        if tag == "link":
            assert attrs.get("rel") == "icon" and attrs["href"].startswith("data:")
    assert not [attrs for attrs, _ in parsed.scripts if "src" in attrs]
    assert "@import" not in text and "url(http" not in text and "url(//" not in text
    assert sum(1 for _, body in parsed.scripts if "export function renderReport" in body) == 1  # badge.js, inline


def test_the_three_charts_are_inline_svg_with_their_data(built: Any, parsed: _Elements) -> None:
    _, after, _, path = built
    text = path.read_text(encoding="utf-8")
    ids = [attrs.get("id", "") for _, attrs in parsed.tags]
    for chart in ("rates", "kinds", "latency"):
        assert f'data-chart="{chart}"' in text
        assert f'aria-label="{chart} chart"' in text  # the <svg> inside it
        assert any(i.startswith(f"{chart}-series-verifier-") for i in ids), chart
    assert len(ids) - ids.count("") == len(set(ids) - {""}), "duplicate element ids"
    # one bar per headline measure per series; the kinds chart names each fault kind
    for series in ("verifier", "baseline", "before"):
        assert sum(i.startswith(f"rates-series-{series}-") for i in ids) == 3
    kinds = text[text.index('data-chart="kinds"'):text.index('data-chart="latency"')]
    for kind in after.verifier.per_kind:
        assert f">{kind}</text>" in kinds
    latency = text[text.index('data-chart="latency"'):]
    assert f"p50 {after.latency_ms['p50']:.1f} ms" in latency


def test_each_false_alarm_and_miss_is_shown_with_its_highlights(built: Any, parsed: _Elements) -> None:
    _, after, _, _ = built
    cases = {c["id"]: c for c in _data(parsed)["cases"]}
    articles = {a["data-id"]: a for tag, a in parsed.tags if tag == "article"}
    for case_id in after.verifier.false_alarms:
        record = next(r for r in after_set() if r["id"] == case_id)
        report = verify(record["answer"], record["tool_results"], question=record["question"])
        shown = cases[case_id]
        assert articles[case_id]["data-outcome"] == "false alarm"
        assert report.warnings.highlights, "a false alarm has flagged spans"
        assert [(h["text"], h["status"]) for h in shown["report"]["warnings"]["highlights"]] == [
            (h.text, h.status) for h in report.warnings.highlights]
    for case_id in after.verifier.misses:
        record = next(r for r in after_set() if r["id"] == case_id)
        shown = cases[case_id]
        assert articles[case_id]["data-outcome"] == "missed"
        assert [(h["text"], h["status"]) for h in shown["report"]["warnings"]["highlights"]] == [
            (f["text"], "missed") for f in record["faults"]]
    for shown in cases.values():  # offsets are code points, as badge.js expects
        for h in shown["report"]["warnings"]["highlights"]:
            assert shown["answer"][h["start"]:h["end"]] == h["text"]
    assert "caught" not in articles  # a case caught in both runs is not shown


def test_the_data_sets_text_is_escaped(built: Any, parsed: _Elements) -> None:
    text = built[3].read_text(encoding="utf-8")
    assert "<img" not in text and "<b>AAPL" not in text
    assert not [t for t, _ in parsed.tags if t == "img"]
    assert "&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt;" in text  # the plain-text fallback
    assert text.count("</script>") == 2  # the JSON and the module script close, nothing else
    shown = {c["id"]: c for c in _data(parsed)["cases"]}
    assert shown['alarm <&"\'>']["answer"] == HOSTILE  # and the JSON gives it back exactly


def test_script_json_cannot_close_its_element() -> None:
    value = {"a": "</script><!-- & \u2028 \ud800"}
    text = page.script_json(value)
    assert "<" not in text and ">" not in text and "&" not in text and text.isascii()
    assert json.loads(text) == value


def test_compare_marks_the_cases_that_flipped(built: Any, parsed: _Elements) -> None:
    before, after, _, path = built
    flips = {f.id: (f.before, f.after, f.change) for f in compare(before, after).flips}
    assert flips == {"ok": ("false alarm", "passed", "newly passing"),
                     "missed": ("caught", "missed", "newly missed")}
    rows = {a["data-id"]: a["data-change"] for t, a in parsed.tags if t == "tr" and "data-change" in a}
    assert rows == {k: v[2] for k, v in flips.items()}
    articles = {a["data-id"]: a.get("data-change") for t, a in parsed.tags if t == "article"}
    assert articles["missed"] == "newly missed" and articles["ok"] == "newly passing"
    assert articles['alarm <&"\'>'] is None  # a false alarm in both runs did not flip
    text = path.read_text(encoding="utf-8")
    assert text.index('id="changes"') < text.index('data-id="ok"') < text.index('id="false-alarms"')


def test_compare_reads_an_earlier_run_without_per_case_outcomes(built: Any, tmp_path: Path) -> None:
    before, after, _, _ = built
    old = tmp_path / "old.json"
    old.write_text(before.model_dump_json(exclude={"cases"}), encoding="utf-8")
    comparison = compare(load_before(old), after)
    assert not comparison.exact
    assert [(f.id, f.change) for f in comparison.flips] == [(f.id, f.change) for f in compare(before, after).flips]


@pytest.mark.parametrize("text, says", [("{oops", "not valid JSON"), ('{"dataset": "x"}', "not a 'verifier eval --json'")])
def test_a_bad_before_file_is_a_clear_error(tmp_path: Path, text: str, says: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=says) as info:
        load_before(bad)
    assert str(bad) in str(info.value)


def test_a_kind_with_dollar_signs_is_drawn_as_text() -> None:
    result = run([_case("f", "AAPL trades at $149.30.", "faulty", [{"text": "$149.30", "kind": "$x$ & <y>"}])])
    svg = charts.kinds_chart(result)
    assert "$x$ &amp; &lt;y&gt;" in svg  # not mathtext, XML-escaped


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "verifier.cli", "eval", "--no-progress", *args],
                          capture_output=True, text=True, timeout=120, check=False)


def test_the_eval_command_writes_the_report_and_lists_the_flips(tmp_path: Path) -> None:
    before_path, after_path = write_sets(tmp_path)
    assert _cli(str(before_path), "--json", str(tmp_path / "before.json")).returncode == 0
    res = _cli(str(after_path), "--html", str(tmp_path / "r.html"), "--compare", str(tmp_path / "before.json"))
    assert res.returncode == 0, res.stderr
    assert "newly missed: missed (caught -> missed)" in res.stdout
    assert "newly passing: ok (false alarm -> passed)" in res.stdout
    text = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert 'data-change="newly missed"' in text and 'data-chart="latency"' in text


def test_the_eval_command_rejects_a_bad_compare_file(tmp_path: Path) -> None:
    _, after_path = write_sets(tmp_path)
    bad = tmp_path / "before.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    res = _cli(str(after_path), "--html", str(tmp_path / "r.html"), "--compare", str(bad))
    assert res.returncode == 2 and "before.json" in res.stderr and "Traceback" not in res.stderr
    assert not (tmp_path / "r.html").exists()
