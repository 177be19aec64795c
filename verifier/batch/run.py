"""One batch run: check the arguments, run the chosen engine, return the Summary.

The local engine writes one file (``OUT``: JSONL, ``.jsonl.gz`` or ``.parquet``); the Ray
engine writes a folder of files under ``OUT`` (one per write task, in order), as Ray's
writers do, so a cluster's workers write in parallel, to local disk or object storage.
"""

from __future__ import annotations

import os
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from .._errors import InputError, VerifierError
from .local import run_local
from .output import Writer, need_pyarrow
from .records import all_lines, input_files, is_remote
from .summary import Summary

ENGINES = ("local", "ray")


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run_batch(source: str, out: str, *, engine: str = "local", workers: int | None = None,
              address: str | None = None, group_by: str | None = None, chunk_size: int = 64,
              deadline_ms: int | None = None, cache_size: int = 64) -> Summary:
    """Verify every line of ``source`` (a JSONL file or folder, gzipped or not) and write one
    row per line to ``out``; the Summary. InputError for unusable arguments or files (a
    line that is no valid request is an error row, never an exception)."""
    if engine not in ENGINES:
        raise InputError(f"must be one of {', '.join(ENGINES)}, not {engine!r}", "--engine")
    for name, value in (("--workers", workers), ("--chunk-size", chunk_size), ("--deadline-ms", deadline_ms)):
        if value is not None and value < 1:
            raise InputError(f"must be at least 1, not {value}", name)
    if address is not None and engine != "ray":
        raise InputError("joins a Ray cluster: only with --engine ray", "--address")
    if out.endswith(".parquet"):
        need_pyarrow()
    if engine == "ray":
        return _ray(source, out, workers=workers, address=address, group_by=group_by, chunk_size=chunk_size,
                    deadline_ms=deadline_ms, cache_size=cache_size)
    if is_remote(source) or is_remote(out):
        raise InputError("the local engine reads and writes local files; use --engine ray for URIs",
                         source if is_remote(source) else out)
    files = input_files(source)
    if os.path.abspath(out) in files:
        raise InputError("is also an input file: writing it would destroy the input", out)
    summary = Summary(group_by)
    with Writer(out) as writer:
        try:
            for rows in run_local(all_lines(files), workers=workers or cores(), chunk_size=chunk_size,
                                  deadline_ms=deadline_ms, cache_size=cache_size):
                writer.write(rows)
                summary.add(rows)
        except BrokenProcessPool:  # killed (out of memory?): no line's fault, and the run cannot go on
            raise VerifierError(f"a worker process died; {out} holds the records before it") from None
    return summary


def _ray(source: str, out: str, *, workers: int | None, address: str | None, group_by: str | None,
         chunk_size: int, deadline_ms: int | None, cache_size: int) -> Summary:
    try:
        from .ray_engine import run_ray
    except ModuleNotFoundError as exc:
        raise InputError(f"needs the [ray] extra ({exc.name} is not installed): pip install 'finverify[ray]'",
                         "--engine") from None
    paths: str | list[str] = source if is_remote(source) else input_files(source)
    if not is_remote(out):
        folder = Path(out.removeprefix("file://"))
        if folder.is_file() or (folder.is_dir() and any(folder.iterdir())):
            raise InputError("exists: the Ray engine writes a new folder of files here; remove it or "
                             "name another", out)
        out = os.path.abspath(folder)
    return run_ray(paths, out, workers=workers, address=address, group_by=group_by, chunk_size=chunk_size,
                   deadline_ms=deadline_ms, cache_size=cache_size)
