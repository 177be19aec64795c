"""The output of a batch: one row per input line, written as JSONL or Parquet, and read back.

A row is flat (strings and numbers), so both engines hand it to Arrow and Parquet with one
fixed schema: where it came from (``source``, ``line``), its ``metadata`` and the report's
headline figures as columns, and the whole report as JSON text (``report``), or an error
in the API's shape (``error``, ``message``, ``field``, ``errors``). A JSONL line nests the
report and metadata as JSON objects, written exactly (142.30 stays 142.30)::

    {"source": "/logs/a.jsonl", "line": 3, "metadata": {...}, "report": {...}}
    {"source": "/logs/a.jsonl", "line": 4, "metadata": {...}, "error": "invalid_request",
     "message": "...", "field": "answer", "errors": [...]}
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Self

from .._errors import InputError
from ..inputs.jsonio import dumps, loads
from ..models import Report, json_text
from .records import input_files, read_lines

if TYPE_CHECKING:
    import pyarrow

Row = dict[str, Any]

#: The columns of a row and their Arrow types (JSON columns are text).
COLUMNS = {"source": "string", "line": "int64", "metadata": "string", "confidence": "string",
           "score": "float64", "action": "string", "checked": "int64", "flagged": "int64",
           "suggestions": "string", "report": "string",
           "error": "string", "message": "string", "field": "string", "errors": "string"}


def report_row(source: str, line: int, metadata: dict[str, Any], report: Report) -> Row:
    """The row of a verified line."""
    suggestions = [{"tool": s.tool, "field": s.field, "op": s.op, "expression": s.expression}
                   for s in report.suggestions]
    return {"source": source, "line": line, "metadata": dumps(metadata), "confidence": report.confidence,
            "score": report.score, "action": report.action, "checked": report.checked,
            "flagged": report.flagged, "suggestions": json.dumps(suggestions, ensure_ascii=False),
            "report": json_text(report), "error": None, "message": None, "field": None, "errors": None}


def error_row(source: str, line: int, metadata: Any, body: dict[str, Any]) -> Row:
    """The row of a line that is no valid request (``body``: the API's error shape)."""
    return {"source": source, "line": line, "metadata": dumps(metadata if isinstance(metadata, dict) else {}),
            "confidence": None, "score": None, "action": None, "checked": None, "flagged": None,
            "suggestions": "[]", "report": None, "error": body["error"], "message": body["message"],
            "field": body["field"], "errors": json.dumps(body["errors"], ensure_ascii=False)}


def jsonl_line(row: Row) -> str:
    """A row as its JSONL line (no newline)."""
    head = f'{{"source": {json.dumps(row["source"], ensure_ascii=False)}, "line": {row["line"]}, ' \
           f'"metadata": {row["metadata"]}, '
    if row["error"] is None:
        return head + f'"report": {row["report"]}}}'
    return head + (f'"error": {json.dumps(row["error"])}, "message": {json.dumps(row["message"], ensure_ascii=False)}, '
                   f'"field": {json.dumps(row["field"], ensure_ascii=False)}, "errors": {row["errors"]}}}')


def arrow_schema() -> pyarrow.Schema:
    import pyarrow as pa

    return pa.schema([(name, getattr(pa, kind)()) for name, kind in COLUMNS.items()])


def arrow_table(rows: list[Row]) -> pyarrow.Table:
    """Rows as an Arrow table of the fixed schema (a block of only errors keeps its types)."""
    import pyarrow as pa

    return pa.Table.from_pylist(rows, schema=arrow_schema())


def need_pyarrow() -> None:
    """InputError naming the extra when pyarrow is missing."""
    try:
        import pyarrow.parquet  # noqa: F401
    except ModuleNotFoundError:
        raise InputError("writing Parquet needs pyarrow: pip install 'finverify[parquet]'", "OUT") from None


class Writer:
    """Writes rows to one local file: JSONL (gzipped when the name ends in ``.gz``) or
    Parquet (the name ends in ``.parquet``), in row groups as they come."""

    def __init__(self, path: str, group_rows: int = 2_000):
        self.path, self.group_rows = path, group_rows
        self.parquet = path.endswith(".parquet")
        self._pending: list[Row] = []
        self._text: IO[str] | None = None
        self._parquet: Any = None
        try:
            if self.parquet:
                need_pyarrow()
                import pyarrow.parquet as pq

                self._parquet = pq.ParquetWriter(path, arrow_schema())
            elif path.endswith(".gz"):
                self._text = gzip.open(path, "wt", encoding="utf-8", newline="\n")  # noqa: SIM115 - closed by close()
            else:
                self._text = open(path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115 - closed by close()
        except OSError as exc:
            raise InputError(f"cannot write file ({exc.strerror or exc})", path) from None

    def write(self, rows: Iterable[Row]) -> None:
        if self._text is not None:
            self._text.writelines(jsonl_line(r) + "\n" for r in rows)
            return
        self._pending.extend(rows)
        if len(self._pending) >= self.group_rows:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            self._parquet.write_table(arrow_table(self._pending))
            self._pending = []

    def close(self) -> None:
        if self._text is not None:
            self._text.close()
        elif self._parquet is not None:
            self._flush()
            self._parquet.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _record(row: Row) -> dict[str, Any]:
    out: dict[str, Any] = {"source": row["source"], "line": row["line"], "metadata": loads(row["metadata"])}
    if row["error"] is None:
        out["report"] = loads(row["report"])
    else:
        out.update(error=row["error"], message=row["message"], field=row["field"], errors=loads(row["errors"]))
    return out


def read_output(path: str | Path) -> Iterator[dict[str, Any]]:
    """The records of a batch's output (a file or a folder, JSONL or Parquet), in order,
    each as its JSONL line reads (numbers as Decimal)."""
    path = str(path)
    parquet = sorted(str(p) for p in Path(path).rglob("*.parquet")) if Path(path).is_dir() else [path]
    if all(p.endswith(".parquet") for p in parquet) and parquet:
        import pyarrow.parquet as pq

        for file in parquet:
            for batch in pq.ParquetFile(file).iter_batches():
                yield from (_record(r) for r in batch.to_pylist())
        return
    for file in input_files(path):
        for where, number, text in read_lines(file):
            yield loads(text, f"{where}:{number}")
