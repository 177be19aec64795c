"""The ``local`` engine: the lines in chunks over worker processes, results in input order.

Each worker process holds one :class:`~verifier.batch.worker.LineVerifier` (and so one
haystack cache), made by the pool's initializer; consecutive lines go to the same worker
in a chunk, so answers logged one after another over the same tool results share an
index. At most a few chunks per worker are in flight: a file of millions of lines is
streamed, not read into memory. Workers start from a forkserver (the parent may hold
threads, which ``fork`` would copy half-locked), which imports the verifier once.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice

from .output import Row
from .records import Line
from .worker import LineVerifier

_verifier: LineVerifier | None = None

#: Chunks in flight per worker: enough to keep each busy while results are written.
_AHEAD = 4


def _start(deadline_ms: int | None, cache_size: int) -> None:
    global _verifier
    _verifier = LineVerifier(deadline_ms, cache_size)


def _rows(chunk: list[Line]) -> list[Row]:
    assert _verifier is not None, "the worker was not initialised"
    return _verifier.rows(chunk)


def _chunks(lines: Iterable[Line], size: int) -> Iterator[list[Line]]:
    it = iter(lines)
    while chunk := list(islice(it, size)):
        yield chunk


def run_local(lines: Iterable[Line], *, workers: int, chunk_size: int = 64, deadline_ms: int | None = None,
              cache_size: int = 64) -> Iterator[list[Row]]:
    """The rows of ``lines``, a chunk at a time, in input order."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["verifier.batch.worker"])
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_start,
                             initargs=(deadline_ms, cache_size)) as pool:
        pending: deque[Future[list[Row]]] = deque()
        for chunk in _chunks(lines, chunk_size):
            pending.append(pool.submit(_rows, chunk))
            if len(pending) >= workers * _AHEAD:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
