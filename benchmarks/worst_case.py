"""The worst cases within the limits (docs/limits.md): the slowest input per class, the
time to the first byte of a 413 and a 503 over real HTTP, and the durable audit mode's
cost. A benchmark, not a test: it reports, it asserts nothing.

    python -m benchmarks.worst_case                 # about 3 minutes on 2 cores
    python -m benchmarks.worst_case --quick         # under a minute: no default-Policy calls, 2 s loads
    python -m benchmarks.worst_case --json out.json

1. In process, each input at (or just under) the service's limits (100,000 answer
   characters, 200,000 leaves, a 5 MB body; the JSON reader's deepest nesting), one
   ``verify()`` call with the default Policy (no deadline: the call is stopped at a
   ceiling, reported as ">="; a figure under the ceiling is the whole call) and one with
   ``Policy(deadline_ms=500)``: how long past its deadline the call stops.
2. Over HTTP (``verifier serve`` on a free loopback port, SQLite audit log in a temp
   directory, ``VERIFIER_TIME_BUDGET_MS=500``): the time from sending a request to the
   first byte of its 413 (body over ``VERIFIER_MAX_BODY_BYTES``, too many leaves, too long
   an answer) or 503 (work past the budget), and the latency of a small request sent
   right after each 503 (it must not queue behind the abandoned work).
3. The durable audit mode: wrk (as benchmarks/load.py; Debian package ``wrk``) sending
   one small verification over 4 connections, ``VERIFIER_AUDIT_SYNC=false`` then
   ``true``: verifications/s and p50/p99. The naive baseline (substring search) is timed
   on the same small answer for the ratio.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import signal
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from benchmarks import quick_main
from benchmarks.load import _wrk
from tests._server import serving
from verifier import DeadlineExceeded, InputError, Policy, VerifierError, verify
from verifier.deadline import Deadline
from verifier.evaluation import baseline
from verifier.inputs.jsonio import loads

Case = tuple[str, Any]  # (answer, tool_results)

DEADLINE_MS = 500
BUDGET_MS = 500
MAX_ANSWER = 100_000  # VERIFIER_MAX_ANSWER_CHARS
MAX_LEAVES = 200_000  # VERIFIER_MAX_LEAVES
MAX_BODY = 5_000_000  # VERIFIER_MAX_BODY_BYTES
LEAVES = MAX_LEAVES - 1  # the tool's name is a leaf too

SMALL_TOOLS = [{"name": "get_quote", "output": {"symbol": "AAPL", "price": 142.30, "change_pct": 3.2,
                                                "isin": "US0378331005", "date": "2025-01-02"}}]
SMALL_ANSWER = "AAPL trades at $142.30, up 3.2%."
PLAIN = "AAPL rose 3.2% to $142.30."
SENTENCE = "Revenue rose 3.2% to $142.30 million in 2024. "


def _tools(output: Any) -> Any:
    return [{"name": "t", "output": output}]


def _prose(chars: int) -> str:
    sentences = (f"Revenue rose {i % 97}.{i % 10}% to ${(i * 7717) % 99991 / 10:.2f} million in "
                 f"Q{i % 4 + 1} {2000 + i % 25}." for i in range(chars // 20))
    return " ".join(sentences)[:chars]


def _nested(depth: int) -> Any:
    out: Any = 1
    for _ in range(depth):
        out = {"a": out}
    return out


def deepest(opening: str, closing: str) -> int:
    """The deepest nesting :func:`verifier.inputs.jsonio.loads` reads here (Python's recursion
    limit, less the frames already on the stack: about 990)."""
    low, high = 1, 100_000
    while low < high:
        mid = (low + high + 1) // 2
        try:
            loads(opening * mid + "1" + closing * mid)
            low = mid
        except InputError:
            high = mid - 1
    return low


def _huge(raw: str, where: str) -> Case:
    """The number ``raw`` in the data as a JSON number (read as the service reads a
    body) or a string, or in the answer."""
    if where == "answer":
        return f"AAPL is worth {raw} dollars.", SMALL_TOOLS
    value = loads(raw) if where == "number" else raw
    return PLAIN, _tools({"v": value, "symbol": "AAPL"})


HUGE = {"1e400": "1e400", "-1e400": "-1e400", "1e-400": "1e-400", "1e10000000": "1e10000000",
        "5,000 nines": "9" * 5000, "10^5000": "1" + "0" * 5000}


def classes() -> dict[str, dict[str, Callable[[], Case]]]:
    """Input class -> case name -> a builder of (answer, tool_results), each at its limit."""
    n = MAX_ANSWER
    depth = min(deepest('{"a":', "}"), deepest("[", "]"))
    huge: dict[str, Callable[[], Case]] = {}
    for name, raw in HUGE.items():
        huge[f"{name} as a JSON number in the data"] = partial(_huge, raw, "number")
        huge[f"{name} as a string in the data"] = partial(_huge, raw, "string")
        huge[f"{name} in the answer"] = partial(_huge, raw, "answer")
    huge["100,000 chars of '1e400 '"] = lambda: (("1e400 " * n)[:n], SMALL_TOOLS)
    huge["19 numbers of 5,000 digits in the answer"] = lambda: ((("9" * 5000 + " ") * 19)[:n], SMALL_TOOLS)
    return {
        "answer (100,000 chars)": {
            "repeated ISINs": lambda: (("US0378331005 " * n)[:n], SMALL_TOOLS),
            "repeated amounts ($142.30)": lambda: (("$142.30 " * n)[:n], SMALL_TOOLS),
            "repeated percentages (3.2%)": lambda: (("3.2% " * n)[:n], SMALL_TOOLS),
            "repeated tickers (AAPL)": lambda: (("AAPL " * n)[:n], SMALL_TOOLS),
            "prose, ~5,900 figures": lambda: (_prose(n), SMALL_TOOLS),
            "one 100,000-digit word": lambda: ("9" * n, SMALL_TOOLS),
        },
        "leaves (200,000 with the tool name)": {
            "flat list of integers": lambda: (PLAIN, _tools(list(range(LEAVES)))),
            "wide object, 199,999 keys": lambda: (PLAIN, _tools({f"key_{i}": i * 1.5 for i in range(LEAVES)})),
            "49,999 rows of 4 keys": lambda: (PLAIN, _tools({"rows": [
                {"symbol": f"X{i}", "price": i * 1.5, "chg": f"{i % 100}.5%", "date": "2025-01-02"}
                for i in range(LEAVES // 4)]})),
            "99,999 records nested 4 deep": lambda: (PLAIN, _tools([
                {"a": {"b": {"c": {"d": [i, f"{i}.5 in 2019"]}}}} for i in range(LEAVES // 2)])),
            "199,999 strings with figures": lambda: (PLAIN, _tools([
                f"{i}.25 million in {2000 + i % 25}" for i in range(LEAVES)])),
        },
        "nesting": {
            f"{depth} objects (the JSON reader's limit)": lambda: (
                "AAPL 1", _tools(loads('{"a":' * depth + "1" + "}" * depth))),
            f"{depth} lists (the JSON reader's limit)": lambda: (
                "AAPL 1", _tools(loads("[" * depth + "1" + "]" * depth))),
            "100,000 objects built in Python (the library has no depth limit)": lambda: (
                "AAPL 1", _tools(_nested(100_000))),
        },
        "huge numbers": huge,
        "long strings (a 5 MB body)": {
            "one 4.9 MB string of letters": lambda: ("AAPL 1", _tools({"s": "x" * 4_900_000})),
            "one 4.9 MB string of words and figures": lambda: ("AAPL 1", _tools({"s": "word 12.5 " * 490_000})),
            "one 4.6 MB string of one sentence repeated": lambda: (
                SENTENCE, _tools({"s": SENTENCE * 100_000})),
        },
    }


def _call(answer: str, tools: Any, policy: Policy, ceiling_ms: float) -> tuple[float, str]:
    """Seconds one verify() call took and how it ended (report, stopped, an error)."""
    gc.collect()
    start = time.perf_counter()
    try:
        with Deadline(ceiling_ms).active():
            verify(answer, tools, judge=False, policy=policy)
        outcome = "report"
    except DeadlineExceeded:
        outcome = "stopped"
    except VerifierError as exc:  # a documented error (a LimitError, an InputError) is a figure too
        outcome = type(exc).__name__
    return time.perf_counter() - start, outcome


def _timed(answer: str, tools: Any, policy: Policy, ceiling_ms: float) -> tuple[float, str]:
    took, outcome = _call(answer, tools, policy, ceiling_ms)
    if took < 0.05:  # fast: the median of five calls
        took = statistics.median([took] + [_call(answer, tools, policy, ceiling_ms)[0] for _ in range(4)])
    return took, outcome


def in_process(quick: bool) -> list[dict[str, Any]]:
    """Every case of every class, with the default Policy and with a deadline."""
    ceiling_ms = 10_000
    verify(SMALL_ANSWER, SMALL_TOOLS, judge=False)  # the extractor and the lexicons, built once
    rows = []
    for cls, cases in classes().items():
        for name, build in cases.items():
            answer, tools = build()
            # --quick skips the default Policy's calls (they take the ceiling or more)
            plain, plain_end = (None, "skipped") if quick else _timed(answer, tools, Policy(), ceiling_ms)
            bounded, bounded_end = _timed(answer, tools, Policy(deadline_ms=DEADLINE_MS), ceiling_ms)
            rows.append({"class": cls, "case": name, "answer_chars": len(answer),
                         "default_s": None if plain is None else round(plain, 4), "default_end": plain_end,
                         "ceiling_s": ceiling_ms / 1000,
                         "deadline_s": round(bounded, 4), "deadline_end": bounded_end,
                         "past_deadline_ms": round(bounded * 1000 - DEADLINE_MS, 1) if bounded_end == "stopped" else None})
            print(f"{cls} / {name}: {plain_end} {plain}, {bounded_end} {bounded:.3f} s", file=sys.stderr, flush=True)
            del answer, tools
    return rows


# -- over HTTP ---------------------------------------------------------------------------

@contextmanager
def service(env: dict[str, str]) -> Iterator[int]:
    """``verifier serve`` on a free port with a SQLite audit log in a temp directory;
    yields the port, stops it gracefully (SIGINT: the audit writer flushes)."""
    tmp = Path(tempfile.mkdtemp(prefix="verifier-worst-"))
    try:
        with serving({"VERIFIER_AUDIT_URL": f"sqlite:///{tmp / 'audit.db'}", **env}, tmp,
                     stop=signal.SIGINT) as served:
            yield served.port
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def first_byte(port: int, body: bytes) -> dict[str, Any]:
    """POST ``body`` to /v1/verify on a fresh connection: the status, the seconds from the
    first byte sent to the first byte of the response, and to its end. The body is sent
    from a thread, so a response that comes before the body is all sent is timed too."""
    sock = socket.create_connection(("127.0.0.1", port))
    head = (f"POST /v1/verify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()

    def send() -> None:
        try:
            sock.sendall(head + body)
        except OSError:  # the server answered and closed before the body was all read
            pass

    sender = threading.Thread(target=send, daemon=True)
    start = time.perf_counter()
    sender.start()
    data = sock.recv(1)
    ttfb = time.perf_counter() - start
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except OSError:
        pass
    total = time.perf_counter() - start
    sock.close()
    sender.join(10)
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
    return {"status": status, "ttfb_ms": round(ttfb * 1000, 1), "total_ms": round(total * 1000, 1)}


def _body(answer: str, tools: Any) -> bytes:
    return json.dumps({"answer": answer, "tool_results": tools}).encode()


def over_http() -> dict[str, Any]:
    """413s and 503s on a service with a 500 ms budget, and the small request after each 503."""
    n = MAX_ANSWER
    small = _body(SMALL_ANSWER, SMALL_TOOLS)
    refused = {
        f"body of {MAX_BODY + 1:,} bytes": b'{"answer": "' + b"x" * (MAX_BODY - 13) + b'"}',
        f"{MAX_LEAVES + 1:,} leaves": _body("AAPL 1", _tools(list(range(MAX_LEAVES)))),
        f"answer of {n + 1:,} chars": _body("AAPL " * (n // 5) + "1", SMALL_TOOLS),
    }
    slow = {
        "repeated ISINs, 100,000 chars": _body(("US0378331005 " * n)[:n], SMALL_TOOLS),
        "wide object, 199,999 keys": _body(PLAIN, _tools({f"key_{i}": i * 1.5 for i in range(LEAVES)})),
        "150,000 strings with figures": _body(PLAIN, _tools([f"{i}.25 million in {2000 + i % 25}"
                                                               for i in range(150_000)])),
        "repeated tickers (AAPL), 100,000 chars": _body(("AAPL " * n)[:n], SMALL_TOOLS),
        "repeated percentages (3.2%), 100,000 chars": _body(("3.2% " * n)[:n], SMALL_TOOLS),
        "a 4.6 MB string of one sentence repeated": _body(SENTENCE, _tools({"s": SENTENCE * 100_000})),
    }
    out: dict[str, Any] = {"budget_ms": BUDGET_MS, "refused": [], "over_budget": []}
    with service({"VERIFIER_TIME_BUDGET_MS": str(BUDGET_MS)}) as port:
        for _ in range(5):
            first_byte(port, small)  # warm
        out["small_ms"] = statistics.median(first_byte(port, small)["total_ms"] for _ in range(20))
        for name, body in refused.items():
            out["refused"].append({"case": name, "bytes": len(body), **first_byte(port, body)})
        for name, body in slow.items():
            r = first_byte(port, body)
            after = first_byte(port, small)
            out["over_budget"].append({"case": name, "bytes": len(body), **r,
                                       "past_budget_ms": round(r["ttfb_ms"] - BUDGET_MS, 1),
                                       "small_after": after})
    return out


_POST_LUA = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [[%s]]
"""


def audit_cost(quick: bool) -> dict[str, Any]:
    """Small verifications under wrk, the durable audit mode off then on."""
    if shutil.which("wrk") is None:
        return {"skipped": "wrk is not installed: apt-get install wrk"}
    duration, connections = (2, 4) if quick else (5, 4)
    tmp = Path(tempfile.mkdtemp(prefix="verifier-worst-wrk-"))
    script = tmp / "post.lua"
    script.write_text(_POST_LUA % _body(SMALL_ANSWER, SMALL_TOOLS).decode(), encoding="utf-8")
    out: dict[str, Any] = {"duration_s": duration, "connections": connections}
    for sync in ("false", "true"):
        with service({"VERIFIER_AUDIT_SYNC": sync}) as port:
            url = f"http://127.0.0.1:{port}/v1/verify"
            _wrk(url, 1, connections, script)  # warm up
            out[f"sync_{sync}"] = _wrk(url, duration, connections, script)
    shutil.rmtree(tmp, ignore_errors=True)
    rounds = 2000
    start = time.perf_counter()
    for _ in range(rounds):
        baseline.unsupported(SMALL_ANSWER, SMALL_TOOLS)
    out["naive_ms"] = round((time.perf_counter() - start) / rounds * 1000, 4)
    start = time.perf_counter()
    for _ in range(rounds // 10):
        verify(SMALL_ANSWER, SMALL_TOOLS, judge=False)
    out["verify_ms"] = round((time.perf_counter() - start) / (rounds // 10) * 1000, 3)
    return out


def run(quick: bool = False) -> dict[str, Any]:
    start = time.monotonic()
    result: dict[str, Any] = {"quick": quick, "cpus": os.cpu_count(), "deadline_ms": DEADLINE_MS, "phases_s": {}}
    for phase, fn in (("in_process", lambda: in_process(quick)), ("http", over_http),
                      ("audit", lambda: audit_cost(quick))):
        began = time.monotonic()
        result[phase] = fn()
        result["phases_s"][phase] = round(time.monotonic() - began, 1)
    result["took_s"] = round(time.monotonic() - start, 1)
    return result


# -- report ------------------------------------------------------------------------------

def _seconds(took: float | None, end: str, ceiling: float | None = None) -> str:
    if took is None:
        return end
    if end == "stopped" and ceiling is not None and took >= ceiling:
        return f">= {ceiling:.0f} s (stopped at the ceiling)"
    text = f"{took * 1000:,.0f} ms" if took >= 0.01 else f"{took * 1000:.2f} ms"
    return text if end == "report" else f"{text} ({end})"


def markdown(result: dict[str, Any]) -> str:
    rows = result["in_process"]
    lines = [(f"In process, one `verify()` call per input (default Policy: no deadline, stopped at a "
              f"{rows[0]['ceiling_s']:.0f} s ceiling; then `Policy(deadline_ms={result['deadline_ms']})`); "
              "the slowest input per class:"), "",
             "| class | slowest input | default Policy | with the deadline | past the deadline |",
             "|---|---|---:|---:|---:|"]
    for cls in dict.fromkeys(r["class"] for r in rows):
        worst = max((r for r in rows if r["class"] == cls), key=lambda r: r["default_s"] or r["deadline_s"])
        past = worst["past_deadline_ms"]
        lines.append(f"| {cls} | {worst['case']} | {_seconds(worst['default_s'], worst['default_end'], worst['ceiling_s'])} | "
                     f"{_seconds(worst['deadline_s'], worst['deadline_end'])} | "
                     f"{'' if past is None else f'{past:+.0f} ms'} |")
    lines += ["", "Every input:", "", "| class | input | default Policy | with the deadline |", "|---|---|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['class']} | {r['case']} | {_seconds(r['default_s'], r['default_end'], r['ceiling_s'])} | "
                     f"{_seconds(r['deadline_s'], r['deadline_end'])} |")
    http = result["http"]
    lines += ["", (f"Over HTTP (`verifier serve`, 1 worker, `VERIFIER_TIME_BUDGET_MS={http['budget_ms']}`, "
                   f"SQLite audit log); a small verification alone takes {http['small_ms']:.1f} ms:"), "",
              "| request | body bytes | status | first byte | whole response | small request right after |",
              "|---|---:|---:|---:|---:|---:|"]
    for r in http["refused"]:
        lines.append(f"| {r['case']} | {r['bytes']:,} | {r['status']} | {r['ttfb_ms']:.1f} ms | {r['total_ms']:.1f} ms | |")
    for r in http["over_budget"]:
        after = r["small_after"]
        lines.append(f"| {r['case']} | {r['bytes']:,} | {r['status']} | {r['ttfb_ms']:.0f} ms "
                     f"({r['past_budget_ms']:+.0f} ms past the budget) | {r['total_ms']:.0f} ms | "
                     f"{after['total_ms']:.1f} ms ({after['status']}) |")
    audit = result["audit"]
    if "skipped" in audit:
        lines += ["", f"Durable audit mode: skipped ({audit['skipped']})."]
    else:
        off, on = audit["sync_false"], audit["sync_true"]
        lines += ["", (f"The durable audit mode (wrk, one small verification, {audit['connections']} connections, "
                       f"{audit['duration_s']} s each, 1 worker, SQLite):"), "",
                  "| `VERIFIER_AUDIT_SYNC` | verifications/s | p50 | p99 | errors |", "|---|---:|---:|---:|---:|"]
        for name, r in (("false (batched, the default)", off), ("true (durable)", on)):
            lines.append(f"| {name} | {r['rps']:,.0f} | {r['p50_ms']:.2f} ms | {r['p99_ms']:.2f} ms | {r['errors']} |")
        lines += ["", (f"Durable costs {1 - on['rps'] / off['rps']:.0%} of the throughput. In process, the same "
                       f"answer: verify {audit['verify_ms']:.3f} ms, naive baseline {audit['naive_ms']:.4f} ms "
                       f"({audit['verify_ms'] / audit['naive_ms']:.0f}x).")]
    phases = ", ".join(f"{k} {v:.0f} s" for k, v in result["phases_s"].items())
    lines += ["", f"Whole run: {result['took_s']:.0f} s on {result['cpus']} CPUs ({phases})."]
    return "\n".join(lines)


def main() -> None:
    quick_main(__doc__, run, markdown)


if __name__ == "__main__":
    main()
