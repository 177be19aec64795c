"""What `pip install .` gives: one top-level package, typed, with the service's
dependencies in the [server] extra, and a library that works without them."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.test_layout import PACKAGES

ROOT = Path(__file__).resolve().parent.parent
SERVER_ONLY = ("fastapi", "uvicorn", "sqlalchemy", "prometheus_client", "pydantic_settings", "starlette")

#: Run in a fresh interpreter with the service's packages made unimportable.
_WITHOUT_SERVER = f"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {SERVER_ONLY!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Block())
from verifier import verify
r = verify("AAPL trades at $142.30.", [{{"name": "q", "output": {{"symbol": "AAPL", "price": 142.3}}}}], judge=False)
assert r.confidence == "high", r.confidence
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {SERVER_ONLY!r})
assert not loaded, loaded
print("ok")
"""


def test_verify_works_without_the_server_extra():
    done = subprocess.run([sys.executable, "-c", _WITHOUT_SERVER], check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_serve_without_the_server_extra_says_which_extra_to_install():
    code = _WITHOUT_SERVER.split("from verifier import verify")[0] + (
        "from verifier.cli import main\nsys.argv = ['verifier', 'serve']\nmain()\n")
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "[server] extra" in done.stderr, done.stderr


def test_the_service_dependencies_are_only_in_the_server_extra():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {d.split(">")[0].split("[")[0].split("=")[0].strip().replace("-", "_") for d in project["dependencies"]}
    assert not names & set(SERVER_ONLY), names & set(SERVER_ONLY)
    server = {d.split(">")[0].split("[")[0].strip().replace("-", "_") for d in project["optional-dependencies"]["server"]}
    assert {"fastapi", "uvicorn", "sqlalchemy", "prometheus_client"} <= server


def test_the_version_command_prints_the_installed_version():
    from verifier import __version__

    done = subprocess.run([sys.executable, "-m", "verifier.cli", "--version"], check=False, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == f"finverify {__version__}"
    assert __version__[0].isdigit()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                          check=False, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.skip(f"could not build the wheel (no build backend reachable?): {done.stderr[-500:]}")
    return zipfile.ZipFile(next(out.glob("finverify-*.whl")))


def test_the_wheel_installs_one_top_level_package_with_its_data(wheel):
    names = wheel.namelist()
    top = {n.split("/")[0] for n in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"verifier"}
    for path in ("verifier/py.typed", "verifier/normalizers/scale_words.txt", "verifier/stoplists/hedges.txt",
                 "verifier/api/static/index.html", "verifier/api/routes/verify.py", "verifier/examples/screen_tools.json",
                 "verifier/normalizers/currency_symbols.json"):
        assert path in names, path
    meta = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: MIT" in meta or "License: MIT" in meta
    assert any(n.endswith((".dist-info/licenses/LICENSE", ".dist-info/LICENSE")) for n in names)
    fastapi = [line for line in meta.splitlines() if line.startswith("Requires-Dist: fastapi")]
    assert fastapi and all("extra == \"server\"" in line for line in fastapi), fastapi


def _source_packages() -> set[str]:
    """Every package of the source tree, named as installed (``api/routes`` -> ``verifier.api.routes``)."""
    return {".".join((package, *init.parent.relative_to(ROOT / folder).parts))
            for folder, package in PACKAGES.items() for init in (ROOT / folder).rglob("__init__.py")}


def test_the_wheel_holds_every_package_of_the_source_tree(wheel):
    held = {n.removesuffix("/__init__.py").replace("/", ".") for n in wheel.namelist() if n.endswith("/__init__.py")}
    assert len(_source_packages()) > 5
    assert _source_packages() <= held, sorted(_source_packages() - held)


def test_verify_works_from_the_installed_wheel(wheel, tmp_path):
    """The wheel unpacked alone on the path (not the source tree) verifies an answer."""
    wheel.extractall(tmp_path)
    code = ("import verifier, sys; assert verifier.__file__.startswith(sys.argv[1]), verifier.__file__\n"
            "r = verifier.verify('AAPL trades at $142.30.', [{'name': 'q', 'output': {'symbol': 'AAPL', "
            "'price': 142.3}}], judge=False)\nassert r.confidence == 'high', r.confidence\nprint('ok')")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=False, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(tmp_path)}, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def test_the_service_answers_from_the_installed_wheel(wheel, tmp_path):
    """The wheel alone holds the service too: its app is made and answers a verify request
    (the API's packages, static files and OpenAPI schema all come from the wheel)."""
    pytest.importorskip("fastapi")
    wheel.extractall(tmp_path)
    code = ("import sys, verifier.api.app as a; assert a.__file__.startswith(sys.argv[1]), a.__file__\n"
            "from fastapi.testclient import TestClient\n"
            "from verifier.api.settings import Settings\n"
            "with TestClient(a.create_app(Settings(audit_url=''))) as c:\n"
            "    assert c.get('/healthz').status_code == 200\n"
            "    r = c.post('/v1/verify', json={'answer': 'AAPL trades at $142.30.', 'tool_results': [{'name': 'q', "
            "'output': {'symbol': 'AAPL', 'price': 142.3}}]})\n"
            "    assert r.status_code == 200 and r.json()['confidence'] == 'high', r.text\n"
            "    assert c.get('/openapi.json').status_code == 200\nprint('ok')")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=False, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(tmp_path)}, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
