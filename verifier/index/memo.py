"""Caches: the one place that says what is kept, for how long, and how threads share it.

There are two kinds, and only two:

- **Per haystack** (:class:`PerHaystack`): what a stage derives from one haystack (the
  prose sentences polarity reads, the tables the cells check walks, the derive stage's
  operand groups, the records a citation names) is kept on that haystack, in its
  :class:`Memo`, by a name, for exactly the haystack's lifetime: a haystack reused for
  many answers (``verify(..., haystack=h)``, the service's cache, ``verifier batch``)
  pays for each structure once, and nothing outlives it. Every build is a pure function
  of the haystack, so the memo needs no invalidation.
- **Per process**: ``functools.lru_cache`` on pure functions of strings and small values
  (a label's words, a locale's patterns, a word list), bounded by ``maxsize``.

Both are safe to share across threads. ``lru_cache`` is thread-safe by its own
documentation. A :class:`Memo` stores and reads each value in one dictionary operation
under a lock; two threads that ask for a structure not yet built may both build it (it is
the same, being a pure function of the haystack); the first one stored is kept and
``setdefault`` hands it to both, so every reader holds one object. A structure that fills in as it is asked (a dict of
results per leaf) is filled by single dictionary assignments, which are atomic.
"""

from __future__ import annotations

import threading
from typing import Any, Generic, Protocol, TypeVar

T = TypeVar("T")
_MISSING = object()  # (a cache may store None: "looked, found nothing")


class Haystack(Protocol):
    """What a per-haystack cache needs of one: its memo."""

    @property
    def memo(self) -> Memo: ...

__all__ = ["Memo", "PerHaystack"]


class Memo:
    """One haystack's derived structures, by name."""

    __slots__ = ("_lock", "_values")

    def __init__(self) -> None:
        self._values: dict[str, Any] = {}
        self._lock = threading.Lock()

    def get(self, name: str, default: Any = None) -> Any:
        """The structure stored under ``name``, or ``default``."""
        return self._values.get(name, default)

    def keep(self, name: str, value: Any) -> Any:
        """Store ``value`` under ``name`` unless one is there already; the one kept."""
        with self._lock:
            return self._values.setdefault(name, value)

    def names(self) -> frozenset[str]:
        """The names stored so far."""
        return frozenset(self._values)


class PerHaystack(Generic[T]):
    """A cache keyed by haystack, kept on each haystack's :class:`Memo` under ``name``:
    read like the dictionary it replaces (``cache.get(hay)``, ``cache[hay]``, ``hay in
    cache``) and written only through ``setdefault``, which returns the one value kept:
    a caller uses that, never its own build, so two threads that both built hold one
    object (some caches are indexed by the ids of what they hold)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def get(self, hay: Haystack) -> T | None:
        return hay.memo.get(self.name)  # type: ignore[no-any-return]

    def __getitem__(self, hay: Haystack) -> T:
        found = hay.memo.get(self.name, _MISSING)
        if found is _MISSING:
            raise KeyError(self.name)
        return found  # type: ignore[no-any-return]

    def __contains__(self, hay: Haystack) -> bool:
        return hay.memo.get(self.name, _MISSING) is not _MISSING

    def setdefault(self, hay: Haystack, default: T) -> T:
        return hay.memo.keep(self.name, default)  # type: ignore[no-any-return]
