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
OVERSIZED: dict[str, int] = {}


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


# -- no module reads another module's private names --------------------------------------

#: Underscored names that are public API of a library (namedtuple's methods, and
#: SQLAlchemy's ``Row._mapping``, underscored so as not to shadow a column).
LIBRARY_PUBLIC = frozenset({"_asdict", "_replace", "_fields", "_field_defaults", "_make", "_mapping"})
#: (module, private name) reads that may stay for now, each with its reason. Empty: the
#: callers of the Haystack (question/cells.py and question/entities.py among them) ask
#: ``parent(node)`` and ``segment(node)``, not the tree's arrays.
PRIVATE_READS_ALLOWED: dict[tuple[str, str], str] = {}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _own_private_names(tree: ast.Module) -> set[str]:
    """The private names a module defines: its functions, classes, names it assigns at
    any level, attributes it assigns on ``self`` or ``cls``, its ``__slots__`` and
    class-level fields (a pydantic ``PrivateAttr``)."""
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            own.add(node.attr)
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__"
                                                    for t in node.targets):
            own |= {c.value for c in ast.walk(node.value) if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    return {name for name in own if _private(name)}


def _module_of(name: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    base = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _private_reads(name: str, path: Path, known: set[str]) -> list[str]:
    """Where module ``name`` reads (or writes) a private name of another module or of an
    object that is not its own: ``from M import _x`` and ``M._x`` for a package module
    ``M``, and ``obj._x`` on anything but ``self``/``cls``/``super()`` when the module
    defines no ``_x`` itself (``other._x`` between two objects of a class it defines is
    its own business). Private submodules (``from ._text import fold``) are modules,
    not names: left alone."""
    tree = ast.parse(path.read_text())
    own = _own_private_names(tree)
    modules: dict[str, str] = {}  # a local name bound to a package module -> that module
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _module_of(name, path, node)
            for alias in node.names:
                if f"{source}.{alias.name}" in known:
                    modules[alias.asname or alias.name] = f"{source}.{alias.name}"
                elif source in known and _private(alias.name):
                    found.append(f"{node.lineno}: from {source} import {alias.name}")
        elif isinstance(node, ast.Import):
            modules |= {a.asname: a.name for a in node.names if a.asname and a.name in known}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not _private(node.attr) or node.attr in LIBRARY_PUBLIC:
            continue
        value = node.value
        if isinstance(value, ast.Name) and value.id in modules:
            if f"{modules[value.id]}.{node.attr}" not in known:  # (a private submodule is a module)
                found.append(f"{node.lineno}: {ast.unparse(node)} (a private name of {modules[value.id]})")
            continue
        if isinstance(value, ast.Name) and value.id in ("self", "cls") or \
                isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super":
            continue
        if node.attr not in own and (name, node.attr) not in PRIVATE_READS_ALLOWED:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_reads_another_modules_private_names():
    modules = _modules()
    found = {name: hits for name, path in modules.items() if (hits := _private_reads(name, path, set(modules)))}
    assert not found, f"private names read from outside their module (give them a public name): {found}"


def test_the_private_reader_finds_a_planted_read(tmp_path: Path):
    planted = tmp_path / "planted.py"
    planted.write_text(
        "from verifier.index import haystack\n"
        "from verifier.index.tree import _IDENT\n"
        "class Own:\n"
        "    def __init__(self):\n"
        "        self._mine = 1\n"
        "    def same(self, other):\n"
        "        return other._mine + self._mine + super()._x\n"
        "def peek(hay, node):\n"
        "    return hay._parent[node], hay.tree.parents, haystack._TOTAL_LABEL, haystack.Haystack, hay._asdict()\n"
    )
    modules = set(_modules())
    found = _private_reads("verifier.planted", planted, modules)
    assert sorted(found) == ["2: from verifier.index.tree import _IDENT",
                             "9: hay._parent",
                             "9: haystack._TOTAL_LABEL (a private name of verifier.index.haystack)"], found
