"""Load on the HTTP service over loopback: throughput, p50/p99 latency and errors for a
realistic request mix, with the audit log on.

    python -m benchmarks.load                       # 30 s, 16 connections, 2 workers
    python -m benchmarks.load --duration 10 --workers 1 --audit none

The mix is the 250 labelled answers of fixtures/labelled.jsonl (45 scenarios: quotes,
screeners, filings, FX, de_DE and fr_FR answers), sent in turn. The load comes from wrk
(Debian package ``wrk``; this script says so when it is missing), which costs far less
CPU than a Python client on the same two cores. Beside the service figures it reports,
in this process: the naive baseline's and the verifier's time per answer over the same
mix (the speed ratio BENCHMARKS.md quotes) and /healthz throughput (the ceiling of the
HTTP stack alone on this machine). After a graceful stop it counts the audit records:
every request wrk completed must be there.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, func, select
from verifier.api.audit import verifications

from tests._server import serving
from verifier import Haystack, verify
from verifier.evaluation import baseline
from verifier.inputs.jsonio import dumps, loads

ROOT = Path(__file__).resolve().parent.parent
LABELLED = ROOT / "fixtures" / "labelled.jsonl"

_LUA = """
local bodies, n, k = {}, 0, 0
init = function(args)
  while true do
    local f = io.open("%(dir)s/" .. n .. ".json", "r")
    if f == nil then break end
    bodies[n + 1] = f:read("*a"); f:close(); n = n + 1
  end
end
request = function()
  k = k %% n + 1
  return wrk.format("POST", "/v1/verify", {["Content-Type"] = "application/json"}, bodies[k])
end
"""


def requests_mix() -> list[dict[str, Any]]:
    """One request body per labelled answer."""
    out = []
    for line in LABELLED.read_text(encoding="utf-8").splitlines():
        case = loads(line)
        out.append({"answer": case["answer"], "tool_results": case["tool_results"],
                    "question": case.get("question"), "locale": case.get("locale", "en_US"),
                    "metadata": {"assistant": "bench", "model": "fixture", "prompt_version": case["id"].split("/")[0]}})
    return out


def in_process(mix: list[dict[str, Any]], rounds: int = 5) -> dict[str, float]:
    """Milliseconds per answer over the mix: naive baseline, verify cold and warm."""
    hays: dict[str, Haystack] = {}
    for r in mix:
        key = dumps(r["tool_results"]) + r["locale"]
        hays.setdefault(key, Haystack(r["tool_results"], locale=r["locale"]))

    def best(fn: Any) -> float:
        times = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        return min(times) / len(mix) * 1000

    return {
        "naive_ms": best(lambda: [baseline.unsupported(r["answer"], r["tool_results"]) for r in mix]),
        "verify_cold_ms": best(lambda: [verify(r["answer"], r["tool_results"], question=r["question"],
                                               locale=r["locale"]) for r in mix]),
        "verify_warm_ms": best(lambda: [verify(r["answer"], haystack=hays[dumps(r["tool_results"]) + r["locale"]],
                                               question=r["question"], locale=r["locale"]) for r in mix]),
    }


def _wrk(url: str, duration: int, connections: int, script: Path | None) -> dict[str, Any]:
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--latency", url]
    if script is not None:
        cmd[1:1] = ["-s", str(script)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout

    def ms(label: str) -> float:
        m = re.search(rf"{label}\s+([\d.]+)(us|ms|s)\b", out)
        if not m:
            raise RuntimeError(f"wrk printed no {label} latency:\n{out}")
        return float(m.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[m.group(2)]

    done = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {
        "requests": done,
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),  # type: ignore[union-attr]
        "p50_ms": ms("50%"), "p90_ms": ms("90%"), "p99_ms": ms("99%"),
        "errors": (int(non2xx.group(1)) if non2xx else 0) + (sum(map(int, sock.groups())) if sock else 0),
    }


def run(duration: int, connections: int, workers: int, audit: str) -> dict[str, Any]:
    """Start the service, load it, stop it, count the audit records."""
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: apt-get install wrk")
    mix = requests_mix()
    tmp = Path(tempfile.mkdtemp(prefix="verifier-load-"))
    bodies = tmp / "bodies"
    bodies.mkdir()
    for n, body in enumerate(mix):
        (bodies / f"{n}.json").write_text(dumps(body), encoding="utf-8")
    script = tmp / "mix.lua"
    script.write_text(_LUA % {"dir": bodies}, encoding="utf-8")
    audit_url = {"sqlite": f"sqlite:///{tmp / 'audit.db'}", "none": ""}.get(audit, audit)
    env = {"VERIFIER_AUDIT_URL": audit_url}
    if workers > 1:  # as `verifier serve --workers N` runs them: metrics summed over workers
        metrics_dir = tmp / "metrics"
        metrics_dir.mkdir()
        env["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir)
    command = ("uvicorn", "--factory", "verifier.api.app:create_app", "--host", "127.0.0.1",
               "--workers", str(workers), "--no-access-log", "--log-level", "warning")
    # stopped gracefully on leaving (SIGINT): the audit writers flush
    with serving(env, ROOT, command, stop=signal.SIGINT, stderr=None) as served:
        _wrk(f"{served.base}/", 3, connections, script)  # warm up: every worker's caches
        load = _wrk(f"{served.base}/", duration, connections, script)
        ceiling = _wrk(f"{served.base}/healthz", max(3, duration // 5), connections, None)
    result: dict[str, Any] = {"duration_s": duration, "connections": connections, "workers": workers,
                              "audit": audit, "mix": len(mix), **load, "healthz_rps": ceiling["rps"]}
    if audit == "sqlite":
        engine = create_engine(audit_url)
        with engine.connect() as conn:
            result["audit_records"] = conn.execute(select(func.count()).select_from(verifications)).scalar()
        engine.dispose()
    result.update(in_process(mix))
    shutil.rmtree(tmp, ignore_errors=True)
    return result


def markdown(r: dict[str, Any]) -> str:
    """The BENCHMARKS.md rows."""
    return "\n".join([
        "| measure | value |", "|---|---|",
        (f"| verifications/s (mix of {r['mix']} answers, {r['connections']} connections, "
        f"{r['workers']} workers, audit {r['audit']}) | {r['rps']:,.0f} |"),
        f"| latency p50 / p90 / p99 | {r['p50_ms']:.1f} / {r['p90_ms']:.1f} / {r['p99_ms']:.1f} ms |",
        f"| errors | {r['errors']} of {r['requests']:,} |",
        *([f"| audit records after a graceful stop | {r['audit_records']:,} |"] if "audit_records" in r else []),
        f"| /healthz requests/s (HTTP stack alone) | {r['healthz_rps']:,.0f} |",
        (f"| in process, per answer: naive / verify warm / verify cold | {r['naive_ms']:.3f} / "
        f"{r['verify_warm_ms']:.3f} / {r['verify_cold_ms']:.3f} ms "
        f"({r['verify_warm_ms'] / r['naive_ms']:.0f}x / {r['verify_cold_ms'] / r['naive_ms']:.0f}x) |"),
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=int, default=30)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--audit", default="sqlite", help="sqlite (a temp file), none, or a database URL")
    parser.add_argument("--json", type=Path, help="also write the result as JSON here")
    args = parser.parse_args()
    result = run(args.duration, args.connections, args.workers, args.audit)
    print(markdown(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
