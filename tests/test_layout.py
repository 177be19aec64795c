"""The shape of the code: no import circle inside the package, and modules kept small
(the few still over the line may only shrink until they are split)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Folders installed inside ``verifier`` and the package name each gets.
PACKAGES = {"verifier": "verifier", "normalizers": "verifier.normalizers", "stoplists": "verifier.stoplists",
            "api": "verifier.api"}
MAX_LINES = 500
#: Modules over MAX_LINES today, with the size they may not exceed (to be split).
OVERSIZED = {"verifier/derive/core.py": 1209, "verifier/judge/client.py": 668,
             "verifier/question/cells.py": 585, "verifier/inputs/transcripts.py": 565}


def _modules() -> dict[str, Path]:
    out = {}
    for folder, package in PACKAGES.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            name = ".".join((package, *parts))
            out[name.removesuffix(".__init__")] = path
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules ``name`` imports at module level, type-only imports (under
    ``if TYPE_CHECKING:``) included; imports inside functions left out."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    # a module's own packages are initialised before it: importing from them is no circle
    parents = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
    found: set[str] = set()
    body = ast.parse(path.read_text()).body
    body += [n for top in body if isinstance(top, ast.If) and "TYPE_CHECKING" in ast.unparse(top.test)
             for n in top.body]
    for node in body:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for candidate in (module, *(f"{module}.{a.name}" for a in node.names)):
                if candidate in known and candidate != name and candidate not in parents:
                    found.add(candidate)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in known and a.name not in parents}
    return found


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_import_circle_inside_the_package():
    modules = _modules()
    graph = {name: _imports(name, path, set(modules)) for name, path in modules.items()}
    assert graph["verifier.pipeline"], "the import reader found nothing: it is broken"
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_circle_finder_finds_one():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_modules_stay_under_the_line_or_shrink():
    over = {}
    for path in _modules().values():
        rel = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text().splitlines())
        if lines > OVERSIZED.get(rel, MAX_LINES):
            over[rel] = lines
    assert not over, f"over {MAX_LINES} lines (or grown past their recorded size): {over}"
