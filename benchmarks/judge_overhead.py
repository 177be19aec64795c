"""What the model judge costs answers that do not need it: verify over the golden
fixtures (``fixtures/scenarios``) with the judge off, against the judge configured
(explicitly, and through ``VERIFIER_JUDGE_URL``) and pointed at a scripted
OpenAI-compatible server on loopback. Same process, interleaved rounds, so machine
noise hits every mode alike.

    python -m benchmarks.judge_overhead            # full run (about half a minute)
    python -m benchmarks.judge_overhead --quick

Reports, for the answers with no high-stakes sentence (they must never call the judge:
the server counts requests) and for those with one, the median time of a pass over
the group per mode, the ratio to the judge-off pass, and the requests the server got.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import threading
import time
from collections.abc import Callable
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from benchmarks import quick_main
from verifier import Haystack, OpenAIJudge, verify
from verifier.judge.stakes import high_stakes

SCENARIOS = Path(__file__).resolve().parent.parent / "fixtures" / "scenarios"

Case = tuple[str, Haystack, str]  # answer, haystack, locale


class _Scripted(BaseHTTPRequestHandler):
    """Answers every chat completion at once with a supported verdict; counts requests."""

    calls = 0
    reply = json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": json.dumps(
        {"verdict": "supported", "quote": "", "reason": "scripted"})}}]}).encode()

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        type(self).calls += 1
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.reply)))
        self.end_headers()
        self.wfile.write(self.reply)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


def _cases() -> tuple[list[Case], list[Case]]:
    """(answers without a high-stakes sentence, answers with one), each with its haystack."""
    quiet: list[Case] = []
    stakes: list[Case] = []
    for path in sorted(SCENARIOS.glob("*.json")):
        scenario = json.loads(path.read_text(encoding="utf-8"))
        hay = Haystack(scenario["tool_results"], locale=scenario["locale"])
        for answer in scenario["answers"]:
            case = (answer["text"], hay, scenario["locale"])
            (stakes if high_stakes(answer["text"]) else quiet).append(case)
    return quiet, stakes


def _pass(cases: list[Case], judge: Any) -> Callable[[], None]:
    def run() -> None:
        for text, hay, locale in cases:
            verify(text, haystack=hay, locale=locale, judge=judge)
    return run


def _timed(fns: dict[str, Callable[[], None]], rounds: int) -> dict[str, float]:
    """Median ms of one call per mode, the modes taking turns each round."""
    samples: dict[str, list[float]] = {name: [] for name in fns}
    for fn in fns.values():
        fn()  # warm caches
    for _ in range(rounds):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            samples[name].append((time.perf_counter() - t0) * 1000)
    return {name: statistics.median(v) for name, v in samples.items()}


def run(quick: bool = False) -> dict[str, Any]:
    """Time the judge off, explicit and from the environment over both groups."""
    rounds = 7 if quick else 25
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Scripted)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    judge = OpenAIJudge(url, "scripted", timeout=2.0)
    quiet, stakes = _cases()
    saved = os.environ.get("VERIFIER_JUDGE_URL")

    class FromEnv:
        """verify(judge=None) with VERIFIER_JUDGE_URL set for the call, unset otherwise."""

        def __call__(self, cases: list[Case]) -> Callable[[], None]:
            inner = _pass(cases, None)

            def run() -> None:
                os.environ["VERIFIER_JUDGE_URL"] = url
                try:
                    inner()
                finally:
                    os.environ.pop("VERIFIER_JUDGE_URL", None)
            return run

    env = FromEnv()
    os.environ.pop("VERIFIER_JUDGE_URL", None)
    result: dict[str, Any] = {"python": platform.python_version(), "date": date.today().isoformat()}
    try:
        for name, cases in (("no_high_stakes", quiet), ("high_stakes", stakes)):
            before = _Scripted.calls
            timing = _timed({"off": _pass(cases, False), "explicit": _pass(cases, judge),
                             "env": env(cases)}, rounds)
            result[name] = {
                "answers": len(cases), "requests": _Scripted.calls - before,
                **{f"{k}_ms": round(v, 2) for k, v in timing.items()},
                "ratio_explicit": round(timing["explicit"] / timing["off"], 3),
                "ratio_env": round(timing["env"] / timing["off"], 3),
            }
    finally:
        server.shutdown()
        server.server_close()
        if saved is not None:
            os.environ["VERIFIER_JUDGE_URL"] = saved
    return result


def markdown(result: dict[str, Any]) -> str:
    """The BENCHMARKS.md table."""
    lines = [
        f"Golden fixtures, one pass over each group, median of interleaved rounds, Python {result['python']}:",
        "",
        "| answers | count | judge off ms | judge configured ms (ratio) | from VERIFIER_JUDGE_URL ms (ratio) | judge requests |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, label in (("no_high_stakes", "no high-stakes sentence"), ("high_stakes", "with a high-stakes sentence")):
        r = result[name]
        lines.append(f"| {label} | {r['answers']} | {r['off_ms']:.1f} | {r['explicit_ms']:.1f} ({r['ratio_explicit']:.2f}×) "
                     f"| {r['env_ms']:.1f} ({r['ratio_env']:.2f}×) | {r['requests']} |")
    return "\n".join(lines)


def main() -> None:
    quick_main(__doc__, run, markdown)


if __name__ == "__main__":
    main()
