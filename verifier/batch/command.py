"""What ``verifier batch`` does once its options are read: run, then print the summary.

Kept out of ``verifier/cli.py`` so the command there is only its options; errors come back
as :class:`~verifier.InputError` for the CLI to print (exit 2).
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

from rich.console import Console

from .._errors import InputError
from .run import run_batch


def command(source: str, out: str, *, engine: str, workers: int | None, address: str | None,
            group_by: str | None, top: int, deadline_ms: int | None, json_out: Path | None,
            console: Console) -> None:
    """Run the batch and print its flag rates and top missing fields to ``console``."""
    if engine == "ray":
        try:  # Ray Data logs each stage at INFO: the summary below says what matters
            import ray.data  # noqa: F401

            logging.getLogger("ray.data").setLevel(logging.WARNING)
        except ModuleNotFoundError:
            pass  # run_batch says which extra to install
    started = time.perf_counter()
    summary = run_batch(source, out, engine=engine, workers=workers, address=address, group_by=group_by or None,
                        deadline_ms=deadline_ms)
    seconds = time.perf_counter() - started
    total = summary.total
    lines = total.verifications + total.errors
    for table in summary.tables(top):
        console.print(table)
    console.print(f"{lines:,} lines: {total.verifications:,} verified, {total.errors:,} error records, "
                  f"in {seconds:.1f} s ({lines / seconds if seconds else 0:,.0f} lines/s); written to {out}")
    if json_out is not None:
        try:
            json_out.write_text(json.dumps(summary.as_dict(top), indent=2), encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write file ({exc.strerror})", str(json_out)) from None
