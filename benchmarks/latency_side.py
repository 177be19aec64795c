"""The side-by-side latency run of issue 21: on the same cases, in one process, finverify
cold and warm against the naive substring check and figured, in CPU time.

Per case, one sample of each, back to back, so machine noise hits them alike:

- ``cold``: ``verify(answer, tool_results, ...)``, the haystack built inside the call;
- ``build``: ``Haystack(tool_results)`` alone (the part of cold that indexes);
- ``warm``: ``verify(answer, haystack=h, ...)`` on that prebuilt haystack, after one untimed
  call on it (so first-use caches are filled, as when one haystack serves many answers);
- ``naive``: ``verifier.evaluation.baseline.unsupported(answer, tool_results)``;
- ``figured``: ``benchmarks.peers.check_figured`` (the ``bench`` extra), its conversion of
  the tool results to result sets included, as a user of figured would pay it.

Cold always runs first in its case, before anything else has seen the case's tool results,
so a cache keyed on their content cannot turn it into a warm call; the others take turns
in a rotating order. Time is ``time.process_time_ns`` (CPU time of the process, which a
busy neighbour on a shared machine disturbs far less than wall time). Reported per set:
cases, median and p95 of each, and the ratios of medians cold÷figured, warm÷figured and
cold÷naive. figured's errors (it never raises: ``peers.ERRORS``) are counted per set.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any

from benchmarks import peers
from benchmarks.latency_sets import Case, Loader, seed_case, subsample
from verifier import Haystack, verify
from verifier.evaluation import baseline

Figured = Callable[[str, list[dict], "str | None"], peers.PeerResult]
#: The ratios of medians reported, as (name, numerator, denominator).
RATIOS = (("cold/figured", "cold", "figured"), ("warm/figured", "warm", "figured"), ("cold/naive", "cold", "naive"))


def figured_check() -> Figured | None:
    """figured's adapter when the ``bench`` extra is installed, else None."""
    return peers.check_figured if peers.FIGURED else None


def _cpu_us(fn: Callable[[], object]) -> float:
    t0 = time.process_time_ns()
    fn()
    return (time.process_time_ns() - t0) / 1000


def p95(values: list[float]) -> float:
    """The 95th percentile, linear between the closest ranks (numpy's default)."""
    ordered = sorted(values)
    at = (len(ordered) - 1) * 0.95
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def measure_case(case: Case, turn: int, figured: Figured | None) -> dict[str, float]:
    """One CPU-time sample (µs) of each contender on ``case``; ``turn`` rotates the order
    of all but cold."""
    samples = {"cold": _cpu_us(lambda: verify(case.answer, case.tools, question=case.question,
                                              locale=case.locale, history=case.history, judge=False))}
    built: list[Haystack] = []
    samples["build"] = _cpu_us(lambda: built.append(Haystack(case.tools, locale=case.locale)))
    hay = built[0]
    history = Haystack(case.history, locale=case.locale) if case.history is not None else None

    def warm() -> object:
        return verify(case.answer, haystack=hay, question=case.question, locale=case.locale,
                      history=history, judge=False)

    warm()  # fills the haystack's first-use caches: warm is the call a reused haystack gets
    others: list[tuple[str, Callable[[], object]]] = [
        ("warm", warm), ("naive", lambda: baseline.unsupported(case.answer, case.tools))]
    if figured is not None:
        others.append(("figured", lambda: figured(case.answer, case.tools, case.question)))
    k = turn % len(others)
    for name, fn in others[k:] + others[:k]:
        samples[name] = _cpu_us(fn)
    return samples


def side_by_side(cases: list[Case], figured: Figured | None = None) -> dict[str, Any]:
    """Median and p95 (µs) of each contender over ``cases``, and the ratios of medians.
    Without figured, its column and the ratios over it are left out."""
    if not cases:
        raise ValueError("side_by_side needs at least one case")
    errors_before = peers.ERRORS.copy()
    samples: dict[str, list[float]] = {}
    measure_case(seed_case(), 0, figured)  # imports, compiled patterns, Babel data: no case's cost
    for turn, case in enumerate(cases):
        for name, us in measure_case(case, turn, figured).items():
            samples.setdefault(name, []).append(us)
    median = {name: statistics.median(v) for name, v in samples.items()}
    ratios = {name: median[a] / median[b] for name, a, b in RATIOS if a in median and b in median}
    errors = sum((peers.ERRORS - errors_before).values())
    return {"cases": len(cases), "median_us": median,
            "p95_us": {name: p95(v) for name, v in samples.items()},
            "ratios": ratios, "figured_errors": errors if figured is not None else None}


def run_sets(sources: Mapping[str, Loader | str], limit: int, figured: Figured | None) -> dict[str, Any]:
    """Every set that is present, subsampled to ``limit`` cases (0: all); absent sets,
    sets that loaded no case and a missing figured are listed in ``skipped``."""
    out: dict[str, Any] = {"sets": {}, "skipped": {}, "limit": limit,
                           "figured": peers.FIGURED if figured is not None else None}
    for name, source in sources.items():
        if isinstance(source, str):
            out["skipped"][name] = source
            continue
        cases = subsample(source(), limit)
        if not cases:
            out["skipped"][name] = "no cases in the set"
            continue
        out["sets"][name] = side_by_side(cases, figured)
    if figured is None:
        out["skipped"]["figured"] = "figured not installed (pip install -e '.[bench]'): its column left out"
    return out


def ratio_text(value: float) -> str:
    """A ratio as the tables print it: one decimal, two significant digits below 1 (0.0079×)."""
    return f"{value:.1f}×" if value >= 1 else f"{value:.2g}×"


def _us(value: float | None) -> str:
    return "–" if value is None else f"{value:,.0f}"


def markdown(result: dict[str, Any]) -> str:
    lines = [("| set (cases) | verify cold median µs | of which Haystack build | warm (haystack reused) | "
              "naive substring | figured | cold p95 | warm p95 | naive p95 | figured p95 | "
              "cold ÷ figured | warm ÷ figured | cold ÷ naive |"),
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, s in result["sets"].items():
        m, p, r = s["median_us"], s["p95_us"], s["ratios"]
        ratio = [ratio_text(r[k]) if k in r else "–" for k, _, _ in RATIOS]
        lines.append(f"| {name} ({s['cases']}) | {_us(m['cold'])} | {_us(m['build'])} | {_us(m['warm'])} | "
                     f"{_us(m['naive'])} | {_us(m.get('figured'))} | {_us(p['cold'])} | {_us(p['warm'])} | "
                     f"{_us(p['naive'])} | {_us(p.get('figured'))} | {' | '.join(ratio)} |")
    errors = {n: s["figured_errors"] for n, s in result["sets"].items() if s.get("figured_errors")}
    if errors:
        lines.append("")
        lines.append("figured raised (counted as its answer, timed as it ran): "
                     + ", ".join(f"{n} {e}" for n, e in errors.items()))
    for name, why in result["skipped"].items():
        lines.append(f"- {name}: left out ({why})")
    return "\n".join(lines)
