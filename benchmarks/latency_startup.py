"""What a fresh process pays before its first answer is checked (issue 21): ``import
verifier``, and the first ``verify()`` against the second, each in a new interpreter (the
same one and environment as this process), the median of several.

The child times itself, so the interpreter's own start is not counted: ``import verifier``
in CPU and wall ms; then, on the example shipped with the package, the first
``verify(answer, tool_results, judge=False)`` and a second, identical one (CPU ms). The
first call's extra cost is first minus second: lazy imports, compiled patterns, Babel data.

Bytecode is present, as in a real install: the children run with ``PYTHONDONTWRITEBYTECODE``
unset and ``PYTHONPYCACHEPREFIX`` pointing at a private temporary folder (so nothing is
written next to the sources or into the environment), and one untimed warm-up child imports
the package and runs a verify first, so every module the timed children load, lazily
imported ones included, is read from a ``.pyc`` rather than compiled from source.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from typing import Any

_IMPORT = """
import json, time
c0, w0 = time.process_time_ns(), time.perf_counter_ns()
import verifier
print(json.dumps({"import_cpu_ms": (time.process_time_ns() - c0) / 1e6,
                  "import_wall_ms": (time.perf_counter_ns() - w0) / 1e6}))
"""

_FIRST_CALL = """
import json, time
from importlib import resources
from verifier import verify
ex = resources.files("verifier").joinpath("examples")
tools = json.loads(ex.joinpath("screen_tools.json").read_text())
answer = ex.joinpath("screen_answer.txt").read_text()
out = {}
for name in ("first_ms", "second_ms"):
    c0 = time.process_time_ns()
    verify(answer, tools, judge=False)
    out[name] = (time.process_time_ns() - c0) / 1e6
print(json.dumps(out))
"""


def _child(code: str, env: dict[str, str]) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          check=False, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"the timing child failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _medians(code: str, runs: int, env: dict[str, str]) -> dict[str, float]:
    samples = [_child(code, env) for _ in range(runs)]
    return {key: statistics.median(s[key] for s in samples) for key in samples[0]}


def run(runs: int) -> dict[str, Any]:
    """Medians over ``runs`` fresh interpreters of each measurement."""
    if runs < 1:
        raise ValueError("runs must be at least 1")
    with tempfile.TemporaryDirectory(prefix="finverify-pyc-") as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        _child(_FIRST_CALL, env)  # warm-up: writes the bytecode the timed children read
        first = _medians(_FIRST_CALL, runs, env)
        imported = _medians(_IMPORT, runs, env)
    return {"runs": runs, "bytecode": True, **imported, **first,
            "first_call_extra_ms": first["first_ms"] - first["second_ms"]}


def markdown(result: dict[str, Any]) -> str:
    return "\n".join([
        (f"Start-up, fresh interpreters with bytecode present (one warm-up child first), "
         f"median of {result['runs']}:"), "",
        "| import verifier CPU ms | import wall ms | first verify() CPU ms | second | first call adds |",
        "|---:|---:|---:|---:|---:|",
        (f"| {result['import_cpu_ms']:.0f} | {result['import_wall_ms']:.0f} | {result['first_ms']:.0f} | "
         f"{result['second_ms']:.1f} | {result['first_call_extra_ms']:.0f} |")])
