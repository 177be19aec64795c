"""The input of a batch: which files a path names, and the numbered lines of each.

A path is a JSONL file or a folder of them (searched recursively, in name order, as
Ray lists a folder); a file is gzipped when it starts with gzip's magic bytes, whatever
its name. Lines are split at ``\\n`` only (not ``str.splitlines``, which also splits at
U+2028 and other characters a JSON string may hold raw) and kept as bytes, so a line
that is not UTF-8 becomes an error record in the worker instead of stopping the read.
Blank lines are no records (line numbers still count them).
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from .._errors import InputError

#: The names a folder's request files may have (Ray's write_json writes ``.json``).
SUFFIXES = (".jsonl", ".ndjson", ".json", ".jsonl.gz", ".ndjson.gz", ".json.gz")
GZIP_MAGIC = b"\x1f\x8b"

#: One input line: (source file, line number from 1, the line's bytes).
Line = tuple[str, int, bytes]


def is_remote(path: str) -> bool:
    """A URI (``s3://``, ``gs://``, ...) only Ray's file systems can read."""
    return "://" in path and not path.startswith("file://")


def input_files(path: str) -> list[str]:
    """The request files ``path`` names (absolute), in order; InputError when there are none."""
    local = Path(path.removeprefix("file://"))
    if local.is_file():
        return [os.path.abspath(local)]
    if not local.is_dir():
        raise InputError("no such file or folder", path)
    found = sorted(
        os.path.abspath(p) for p in local.rglob("*")
        if p.is_file() and p.name.endswith(SUFFIXES)
        and not any(part.startswith((".", "_")) for part in p.relative_to(local).parts))
    if not found:
        raise InputError(f"the folder holds no request files ({', '.join(SUFFIXES)})", path)
    return found


def split_lines(source: str, chunks: Iterable[bytes]) -> Iterator[Line]:
    """The non-blank lines of a byte stream given in ``chunks``, numbered from 1."""
    number, rest = 0, b""
    for chunk in chunks:
        parts = (rest + chunk).split(b"\n")
        rest = parts.pop()
        for part in parts:
            number += 1
            if part.strip():
                yield source, number, part.removesuffix(b"\r")
    if rest.strip():
        yield source, number + 1, rest.removesuffix(b"\r")


def _chunks(stream: BinaryIO, size: int = 1 << 20) -> Iterator[bytes]:
    while chunk := stream.read(size):
        yield chunk


def read_lines(source: str) -> Iterator[Line]:
    """The lines of one local file, gunzipped when it is gzip."""
    try:
        with open(source, "rb") as raw:
            zipped = raw.read(2) == GZIP_MAGIC
            raw.seek(0)
            stream: BinaryIO = gzip.GzipFile(fileobj=raw) if zipped else raw  # type: ignore[assignment]
            yield from split_lines(source, _chunks(stream))
    except OSError as exc:  # also gzip.BadGzipFile, a truncated .gz (EOFError is below)
        raise InputError(f"cannot read file ({exc.strerror or exc})", source) from None
    except EOFError:
        raise InputError("not a complete gzip file (truncated or corrupt)", source) from None


def all_lines(files: Iterable[str]) -> Iterator[Line]:
    """The lines of every file, in order."""
    for source in files:
        yield from read_lines(source)
