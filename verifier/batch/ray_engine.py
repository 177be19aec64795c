"""The ``ray`` engine: the same per-record function on Ray Data, from a laptop to a cluster.

read (one row per line) -> ``map_batches`` (an actor pool, one
:class:`~verifier.batch.worker.LineVerifier` and so one haystack cache per actor) ->
write (one file per write task, in input order: ``preserve_order`` is set).

Why a small datasource and datasink rather than ``read_json`` / ``write_json``: Ray's JSON
reader parses with Arrow, which reads 142.30 as the float 142.3 (the verifier compares
exact decimals), infers one schema for every line (logged tool results differ in shape
from line to line: the labelled set fails to load) and fails the whole read on one
malformed line, where each line must become its own record or error. So lines are read
as bytes with their numbers and parsed by the worker, like the local engine's. Written
files hold the same JSONL lines (or Parquet rows) the local engine writes, and each write
task returns the :class:`~verifier.batch.summary.Summary` of its rows, merged on the
driver: the summary costs no second pass over the output.
"""

from __future__ import annotations

import gzip
import sys
from collections.abc import Iterable, Iterator
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import ray
import ray.data
from ray.data.block import Block, BlockAccessor
from ray.data.datasource import BlockBasedFileDatasink, FileBasedDatasource

from .output import arrow_table, jsonl_line
from .records import GZIP_MAGIC, SUFFIXES, split_lines
from .summary import Summary
from .worker import LineVerifier

_LINES = pa.schema([("source", pa.string()), ("line", pa.int64()), ("text", pa.binary())])


class LinesSource(FileBasedDatasource):
    """Each non-blank line of each file as a row (source, line, text), gunzipped when the
    file is gzip (by its bytes, as the local engine decides)."""

    def __init__(self, paths: str | list[str], rows_per_block: int = 1_000, **kwargs: Any):
        super().__init__(paths, **kwargs)
        self.rows_per_block = rows_per_block

    def resolve_compression(self, path: str, open_args: dict[str, Any]) -> str | None:
        return None  # decided from the bytes in _read_stream

    def _read_stream(self, f: pa.NativeFile, path: str) -> Iterator[Block]:
        data = f.readall()
        if data[:2] == GZIP_MAGIC:
            data = gzip.decompress(data)
        rows: list[dict[str, Any]] = []
        for source, number, text in split_lines(path, [data]):
            rows.append({"source": source, "line": number, "text": text})
            if len(rows) >= self.rows_per_block:
                yield pa.Table.from_pylist(rows, schema=_LINES)
                rows = []
        if rows:
            yield pa.Table.from_pylist(rows, schema=_LINES)


class VerifyBatch:
    """The map_batches callable: one per actor, holding its LineVerifier."""

    def __init__(self, deadline_ms: int | None, cache_size: int):
        self.verifier = LineVerifier(deadline_ms, cache_size)

    def __call__(self, batch: pa.Table) -> pa.Table:
        lines = zip(batch["source"].to_pylist(), batch["line"].to_pylist(), batch["text"].to_pylist(), strict=True)
        return arrow_table(self.verifier.rows(list(lines)))


class RowsSink(BlockBasedFileDatasink):
    """Writes each task's rows to one file (JSONL, or Parquet) and returns their Summary."""

    def __init__(self, path: str, *, parquet: bool, group_by: str | None):
        super().__init__(path, file_format="parquet" if parquet else "jsonl")
        self.parquet, self.group_by = parquet, group_by
        self.summary = Summary(group_by)
        self._part: Summary | None = None

    def write_block_to_file(self, block: BlockAccessor, file: pa.NativeFile) -> None:
        table = block.to_arrow()
        rows = table.to_pylist()
        if self.parquet:
            pq.write_table(table, file)
        else:
            file.write("".join(jsonl_line(r) + "\n" for r in rows).encode("utf-8", "surrogatepass"))
        self._part = Summary(self.group_by).add(rows)

    def write(self, blocks: Iterable[Block], ctx: Any) -> Summary:  # type: ignore[override]
        self._part = None
        super().write(blocks, ctx)
        return self._part or Summary(self.group_by)

    def on_write_complete(self, write_result: Any) -> None:
        super().on_write_complete(write_result)
        for part in write_result.write_returns:
            if isinstance(part, Summary):
                self.summary.merge(part)


def run_ray(paths: str | list[str], out: str, *, workers: int | None, address: str | None,
            group_by: str | None, chunk_size: int = 64, deadline_ms: int | None = None,
            cache_size: int = 64) -> Summary:
    """Verify every line of ``paths`` on Ray and write the rows under the folder ``out``
    (Parquet when it ends in ``.parquet``); the Summary of all rows."""
    if not ray.is_initialized():
        ray.init(address=address, num_cpus=None if address else workers, include_dashboard=False,
                 log_to_driver=False, configure_logging=False)
    context = ray.data.DataContext.get_current()
    context.execution_options.preserve_order = True
    context.enable_progress_bars = sys.stderr.isatty()  # in a log file they are noise
    actors = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    # a folder URI is listed by Ray: only its request files (local paths come listed)
    extensions = [s.lstrip(".") for s in SUFFIXES] if isinstance(paths, str) else None
    # the verifying actors hold a CPU each; reading and writing lines is light work that
    # must not wait for a CPU they hold (with as many actors as CPUs it never gets one)
    ds = ray.data.read_datasource(LinesSource(paths, file_extensions=extensions), num_cpus=0)
    ds = ds.map_batches(VerifyBatch, fn_constructor_kwargs={"deadline_ms": deadline_ms, "cache_size": cache_size},
                        batch_size=chunk_size, batch_format="pyarrow", num_cpus=1,
                        compute=ray.data.ActorPoolStrategy(size=actors))
    sink = RowsSink(out, parquet=out.endswith(".parquet"), group_by=group_by)
    ds.write_datasink(sink, ray_remote_args={"num_cpus": 0})
    return sink.summary
