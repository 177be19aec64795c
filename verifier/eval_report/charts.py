"""The eval report's charts, drawn with matplotlib as inline SVG: the headline rates
(clean pass, faulty catch, localisation), the catch rate per fault kind and the latency
distribution, each beside the naive baseline and, with ``--compare``, the earlier run.

SVG keeps the report one offline file (no JavaScript charting library, no CDN) and
small; text stays text (``svg.fonttype: none``), so the labels can be searched and
read by a screen reader. Matplotlib is used through ``Figure`` directly (no pyplot: no
global state, no GUI backend).
"""

from __future__ import annotations

import io
import re
from typing import Any

from ..evaluation.evaluate import EvalResult

try:
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.ticker import ScalarFormatter
except ModuleNotFoundError as exc:  # pragma: no cover - the [report] extra is in dev
    raise ModuleNotFoundError(
        "the HTML eval report draws its charts with matplotlib: pip install 'finverify[report]'",
        name=exc.name) from None

#: Series colours: this run, the naive baseline, the earlier run (--compare).
COLOURS = {"verifier": "#1d4ed8", "baseline": "#9ca3af", "before": "#f59e0b"}
_RC: Any = {"svg.fonttype": "none", "svg.hashsalt": "finverify", "font.size": 9,
       "axes.spines.top": False, "axes.spines.right": False}
_HEADLINE = (("clean pass", "clean_pass_rate"), ("faulty catch", "faulty_catch_rate"),
             ("localisation", "localisation"))


def _label(text: str) -> str:
    """``text`` for a matplotlib label: a ``$`` would start mathtext."""
    return text.replace("$", r"\$")


def to_svg(fig: Figure, name: str) -> str:
    """The figure as an ``<svg>`` element to put in HTML: no XML prolog, its ids prefixed
    with ``name`` so several charts can share a page."""
    buf = io.StringIO()
    with matplotlib.rc_context(_RC):
        fig.savefig(buf, format="svg", bbox_inches="tight",
                    metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    text = re.sub(r'\bid="([^"]+)"', rf'id="{name}-\1"', text)
    text = text.replace('href="#', f'href="#{name}-').replace("url(#", f"url(#{name}-")
    return text.replace("<svg ", f'<svg role="img" aria-label="{name} chart" class="chart-svg" ', 1)


def _figure(width: float, height: float) -> Figure:
    with matplotlib.rc_context(_RC):
        return Figure(figsize=(width, height), layout="constrained")


def _bars(fig: Figure, labels: list[str], series: dict[str, list[float]], notes: dict[str, list[str]],
          xlabel: str) -> None:
    """Grouped horizontal bars, one group per label, one bar per series (0..1 scale)."""
    with matplotlib.rc_context(_RC):
        ax = fig.add_subplot()
        height = 0.8 / max(1, len(series))
        for n, (name, values) in enumerate(series.items()):
            ys = [i + (n - (len(series) - 1) / 2) * height for i in range(len(labels))]
            bars = ax.barh(ys, values, height=height * 0.92, color=COLOURS[name], label=name)
            for i, bar in enumerate(bars):
                bar.set_gid(f"series-{name}-{i}")
            for y, value, note in zip(ys, values, notes.get(name, []), strict=False):
                ax.text(min(value, 1.0) + 0.01, y, _label(note), va="center", fontsize=7, color="#374151")
        ax.set_yticks(range(len(labels)), [_label(x) for x in labels])
        ax.invert_yaxis()
        ax.set_xlim(0, 1.15)
        ax.set_xticks([0, 0.25, 0.5, 0.75, 1.0], ["0", "25%", "50%", "75%", "100%"])
        ax.set_xlabel(xlabel)
        ax.grid(axis="x", color="#e5e7eb", linewidth=0.6)
        ax.set_axisbelow(True)
        fig.legend(loc="outside upper right", ncols=len(series), fontsize=7, frameon=False)


def rates_chart(result: EvalResult, before: EvalResult | None = None) -> str:
    """Clean pass, faulty catch and localisation rates as bars."""
    runs = {"verifier": result.verifier, "baseline": result.baseline}
    if before is not None:
        runs["before"] = before.verifier
    series = {name: [float(getattr(s, field)) for _, field in _HEADLINE] for name, s in runs.items()}
    notes = {name: [f"{v:.1%}" for v in values] for name, values in series.items()}
    fig = _figure(6.4, 0.6 + 0.45 * len(_HEADLINE) * len(series) / 2)
    _bars(fig, [label for label, _ in _HEADLINE], series, notes, "share of cases (faults for localisation)")
    return to_svg(fig, "rates")


def kind_rows(result: EvalResult, before: EvalResult | None = None) -> list[dict[str, object]]:
    """Per fault kind: total, caught by this run, the baseline and the earlier run."""
    rows = []
    for kind, tally in sorted(result.verifier.per_kind.items()):
        base = result.baseline.per_kind.get(kind, {"total": tally["total"], "caught": 0})
        row: dict[str, object] = {"kind": kind, "total": tally["total"], "caught": tally["caught"],
                                  "baseline": base["caught"]}
        if before is not None:
            row["before"] = before.verifier.per_kind.get(kind, {}).get("caught")
            row["before_total"] = before.verifier.per_kind.get(kind, {}).get("total")
        rows.append(row)
    return rows


def kinds_chart(result: EvalResult, before: EvalResult | None = None) -> str:
    """The share of each fault kind's labelled faults a flagged span overlaps."""
    rows = kind_rows(result, before)
    series: dict[str, list[float]] = {"verifier": [], "baseline": []}
    notes: dict[str, list[str]] = {"verifier": [], "baseline": []}
    if before is not None:
        series["before"], notes["before"] = [], []
    for row in rows:
        total = int(str(row["total"])) or 1
        for name, key, of in (("verifier", "caught", "total"), ("baseline", "baseline", "total"),
                              ("before", "before", "before_total")):
            if name not in series:
                continue
            caught, out_of = row.get(key), row.get(of)
            if caught is None or not out_of:
                series[name].append(0.0)
                notes[name].append("-")
            else:
                series[name].append(int(str(caught)) / int(str(out_of or total)))
                notes[name].append(f"{caught}/{out_of}")
    labels = [str(row["kind"]) for row in rows]
    if not labels:
        labels, series, notes = ["(no labelled faults)"], {"verifier": [0.0]}, {"verifier": ["-"]}
    fig = _figure(6.4, 0.7 + 0.22 * len(labels) * len(series))
    _bars(fig, labels, series, notes, "labelled faults overlapped by a flagged span")
    return to_svg(fig, "kinds")


def _bins(samples: list[float], count: int = 30) -> tuple[list[float], bool]:
    """Histogram bin edges, and whether they are log-spaced (samples over a 4x range)."""
    lo, hi = min(samples), max(samples)
    if lo <= 0 or hi < lo * 4:
        lo, hi = max(0.0, lo - 0.05 * (hi - lo) - 0.01), hi + 0.05 * (hi - lo) + 0.01
        return [lo + (hi - lo) * i / count for i in range(count + 1)], False
    return [lo * (hi / lo) ** (i / count) for i in range(count + 1)], True


def latency_chart(result: EvalResult, before: EvalResult | None = None) -> str:
    """A histogram of the per-case verify latency (log scale when it spans a range), with
    the p50/p90/p99 marks, and the earlier run's outline."""
    samples = [c.latency_ms for c in result.cases]
    earlier = [c.latency_ms for c in before.cases] if before is not None else []
    fig = _figure(6.4, 2.6)
    with matplotlib.rc_context(_RC):
        ax = fig.add_subplot()
        if not samples:
            ax.text(0.5, 0.5, "no verified cases", ha="center", va="center", transform=ax.transAxes)
            ax.set_axis_off()
            return to_svg(fig, "latency")
        bins, log = _bins(samples + earlier)
        ax.hist(samples, bins=bins, color=COLOURS["verifier"], label="verifier")
        for i, patch in enumerate(ax.patches):
            patch.set_gid(f"series-verifier-{i}")
        if earlier:
            ax.hist(earlier, bins=bins, histtype="step", color=COLOURS["before"], linewidth=1.4, label="before")
        if log:
            ax.set_xscale("log")
            ax.xaxis.set_major_formatter(ScalarFormatter())
        for mark, style in (("p50", "-"), ("p90", "--"), ("p99", ":")):
            value = result.latency_ms[mark]
            ax.axvline(value, color="#111827", linestyle=style, linewidth=0.9, label=f"{mark} {value:.1f} ms")
        ax.set_xlabel("verify latency per case (ms)")
        ax.set_ylabel("cases")
        fig.legend(loc="outside right upper", fontsize=7, frameon=False)
    return to_svg(fig, "latency")
