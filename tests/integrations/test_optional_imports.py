"""``import verifier`` needs no integration's package: with openai-agents, langchain-core
and pytest made unimportable, the library verifies, and an integration's module says
which extra it needs."""

from __future__ import annotations

import subprocess
import sys

OPTIONAL = ("agents", "langchain_core", "pytest", "openai")

_BLOCKED = f"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {OPTIONAL!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Block())
import asyncio
from verifier import averify, verify
tools = [{{"name": "q", "output": {{"symbol": "AAPL", "price": 142.3}}}}]
assert verify("AAPL trades at $142.30.", tools, judge=False).confidence == "high"
assert asyncio.run(averify("AAPL trades at $142.30.", tools, judge=False)).confidence == "high"
import verifier.integrations
for name in ("agents", "langchain"):
    try:
        __import__("verifier.integrations." + name)
    except ModuleNotFoundError as exc:
        print(name, exc.name, "[" + name + "] extra" in str(exc))
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {OPTIONAL!r})
assert not loaded, loaded
"""


def test_the_library_imports_and_verifies_without_the_integrations_packages() -> None:
    done = subprocess.run([sys.executable, "-c", _BLOCKED], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["agents agents True", "langchain langchain_core True"]
