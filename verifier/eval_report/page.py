"""Write the eval report: one self-contained HTML file (``verifier eval --html``).

Everything is inline, so the file opens offline and from an e-mail attachment: the
charts as SVG (``charts``), the styles, ``badge.js`` from the API's static folder (the
same code that draws the demo page, copied in at write time, never fetched) and the
shown cases as JSON in a ``<script type="application/json">``. Text from the data set
(ids, answers, questions, kinds) goes into the HTML through ``html.escape`` and into the
JSON with ``<``, ``>`` and ``&`` escaped, so an answer holding markup is shown as text.
The page is filled from ``template.html`` with ``string.Template``.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import re
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

from ..evaluation.evaluate import EvalResult
from ..pipeline import VERSION
from . import charts
from .compare import Comparison, compare

_MEASURES = ("clean_pass_rate", "faulty_catch_rate", "localisation", "precision", "recall", "f1")
_SECTIONS = (("false-alarms", "False alarms", "false alarm",
              "Clean answers the verifier flagged: each highlight is a span it flagged; hover for the reason."),
             ("misses", "Misses", "missed",
              "Faulty answers the verifier let through: each highlight is a labelled fault it did not flag."))


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _asset(package: str, name: str, inline: bool = True) -> str:
    """A packaged file's text; one to go inside a <script> or <style> may not close it."""
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    if inline and re.search(r"</(script|style)", text, re.IGNORECASE):
        raise ValueError(f"{package}/{name} holds a closing script/style tag and cannot be inlined")
    return text


def script_json(value: Any) -> str:
    """JSON safe inside a ``<script>`` element: no ``</script>``, no ``<!--``, no lone
    surrogates in the file (all non-ASCII escaped)."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _pct(value: float) -> str:
    return f"{value:.1%}"


def _summary(result: EvalResult, before: EvalResult | None) -> str:
    head = "<tr><th>measure</th><th>verifier</th><th>naive baseline</th>"
    head += "<th>before</th><th>change</th></tr>" if before else "</tr>"
    rows = [head]
    for field in _MEASURES:
        ours = float(getattr(result.verifier, field))
        cells = [_esc(field.replace("_", " ")), _pct(ours), _pct(float(getattr(result.baseline, field)))]
        if before:
            then = float(getattr(before.verifier, field))
            delta = ours - then
            cls = "up" if delta > 0 else "down" if delta < 0 else "same"
            cells += [_pct(then), f'<span class="delta delta--{cls}">{delta * 100:+.1f} pts</span>']
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    for mark in ("p50", "p90", "p99", "max"):
        cells = [f"latency {mark} (ms)", f"{result.latency_ms[mark]:.2f}", f"{result.baseline_latency_ms[mark]:.2f}"]
        if before:
            cells += [f"{before.latency_ms.get(mark, 0.0):.2f}", ""]
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return "\n".join(rows)


def _kinds_table(result: EvalResult, before: EvalResult | None) -> str:
    head = "<tr><th>kind</th><th>faults</th><th>caught</th><th>naive baseline</th>"
    head += "<th>before</th></tr>" if before else "</tr>"
    rows = [head]
    for row in charts.kind_rows(result, before):
        cells = [_esc(row["kind"]), _esc(row["total"]), _esc(row["caught"]), _esc(row["baseline"])]
        if before:
            cells.append("-" if row.get("before") is None else f"{row['before']}/{row['before_total']}")
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return "\n".join(rows)


def _case_article(index: int, case: dict[str, Any], change: str | None) -> str:
    """A case's card; ``report.js`` draws the highlighted answer into its .fv-slot (the
    plain text stays when scripts are off)."""
    tag = marked = ""
    if change:
        tag = f' <span class="flip flip--{_esc(change.replace(" ", "-"))}">{_esc(change)}</span>'
        marked = f' data-change="{_esc(change)}"'

    faults = ", ".join(f"{f['kind']}: {f['text']}" for f in case["faults"])
    lines = [
        (f'<article class="case" id="case-{index}" data-index="{index}" data-id="{_esc(case["id"])}" '
         f'data-outcome="{_esc(case["outcome"])}"{marked}>'),
        f'<h3><code>{_esc(case["id"])}</code> <span class="outcome">{_esc(case["outcome"])}</span>{tag}</h3>',
    ]
    if case["question"]:
        lines.append(f'<p class="question"><b>Q:</b> {_esc(case["question"])}</p>')
    lines.append(f'<div class="fv-slot"><div class="fv-answer">{_esc(case["answer"])}</div></div>')
    if faults:
        lines.append(f'<p class="faults"><b>labelled faults:</b> {_esc(faults)}</p>')
    if case["notes"]:
        lines.append('<ul class="notes">' + "".join(f"<li>{_esc(n)}</li>" for n in case["notes"]) + "</ul>")
    lines.append("</article>")
    return "\n".join(lines)


def _changes(comparison: Comparison, anchors: dict[str, int]) -> str:
    counts: dict[str, int] = {}
    for flip in comparison.flips:
        counts[flip.change] = counts.get(flip.change, 0) + 1
    summary = ", ".join(f"{n} {change}" for change, n in sorted(counts.items())) or "no case changed outcome"
    lines = [f'<p class="hint">Against <code>{_esc(comparison.before_dataset)}</code>: {_esc(summary)}.'
             + ("" if comparison.exact else " (The earlier run has no per-case outcomes: read from its "
                "false alarm and miss lists.)") + "</p>"]
    if comparison.flips:
        lines.append('<table class="flips"><tr><th>case</th><th>label</th><th>before</th><th>now</th>'
                     "<th>change</th></tr>")
        for flip in comparison.flips:
            ref = (f'<a href="#case-{anchors[flip.id]}"><code>{_esc(flip.id)}</code></a>' if flip.id in anchors
                   else f"<code>{_esc(flip.id)}</code>")
            cls = flip.change.replace(" ", "-")
            lines.append(f'<tr class="flip-row" data-id="{_esc(flip.id)}" data-change="{_esc(flip.change)}">'
                         f"<td>{ref}</td><td>{_esc(flip.label)}</td><td>{_esc(flip.before)}</td>"
                         f'<td>{_esc(flip.after)}</td><td><span class="flip flip--{_esc(cls)}">'
                         f"{_esc(flip.change)}</span></td></tr>")
        lines.append("</table>")
    for title, ids in (("only in the earlier run", comparison.only_before), ("new in this run", comparison.only_after)):
        if ids:
            lines.append(f'<p class="hint">{len(ids)} {title}: ' + ", ".join(f"<code>{_esc(i)}</code>" for i in ids)
                         + "</p>")
    return "\n".join(lines)


def render(result: EvalResult, cases: list[dict[str, Any]], before: EvalResult | None = None) -> str:
    """The report's HTML text. ``cases``: the shown cases (``cases.Collector``)."""
    comparison = compare(before, result) if before is not None else None
    flips = comparison.by_id() if comparison else {}
    anchors = {case["id"]: n for n, case in enumerate(cases)}
    sections = []
    if comparison is not None:
        turned = [(n, c) for n, c in enumerate(cases) if c["outcome"] in ("passed", "caught") and c["id"] in flips]
        body = _changes(comparison, anchors)
        body += "\n".join(_case_article(n, c, flips[c["id"]].change) for n, c in turned)
        sections.append(f'<section id="changes"><h2>What changed ({len(comparison.flips)} cases)</h2>\n'
                        f"{body}</section>")
    for key, title, kind, hint in _SECTIONS:
        shown = [(n, c) for n, c in enumerate(cases) if c["outcome"] == kind]
        items = "\n".join(_case_article(n, c, flips[c["id"]].change if c["id"] in flips else None)
                          for n, c in shown) or '<p class="empty">None.</p>'
        sections.append(f'<section id="{key}"><h2>{title} ({len(shown)})</h2>\n<p class="hint">{hint}</p>\n'
                        f"{items}</section>")
    if result.errors:
        sections.append('<section id="errors"><h2>Errors</h2><ul>'
                        + "".join(f"<li>{_esc(e)}</li>" for e in result.errors) + "</ul></section>")
    page = Template(_asset("verifier.eval_report", "template.html", inline=False))
    return page.substitute(
        title=_esc(f"finverify eval: {result.dataset}"),
        dataset=_esc(result.dataset),
        cases=_esc(result.verifier.cases),
        clean=_esc(result.verifier.clean), faulty=_esc(result.verifier.faulty),
        version=_esc(VERSION),
        written=_esc(dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")),
        compared=(f'<p class="compared">compared with <code>{_esc(before.dataset)}</code></p>'
                  if before is not None else ""),
        css=_asset("verifier.eval_report", "report.css"),
        summary=_summary(result, before),
        rates_svg=charts.rates_chart(result, before),
        kinds_svg=charts.kinds_chart(result, before),
        kinds_table=_kinds_table(result, before),
        latency_svg=charts.latency_chart(result, before),
        sections="\n".join(sections),
        data=script_json({"cases": cases}),
        script=_asset("verifier.api", "static/badge.js") + "\n" + _asset("verifier.eval_report", "report.js"),
    )


def write_html(path: str | Path, result: EvalResult, cases: list[dict[str, Any]],
               before: EvalResult | None = None) -> None:
    """Write the report to ``path`` (UTF-8; a lone surrogate in the data becomes U+FFFD)."""
    Path(path).write_text(render(result, cases, before), encoding="utf-8", errors="replace")
