"""``verifier batch``: re-verify many logged answers at once, on this machine's cores or on
a Ray cluster, and summarise their flag rates.

Teams keep their assistants' answers (the API's request bodies, with ``metadata``) and
need to re-verify all of them after a verifier or prompt change. The input is JSONL
(gzipped or not, a file or a folder of files), one request a line; the output is one
record a line in input order (a report, or an error record in the API's error shape for
a line that is no valid request: a bad line never stops the run), or Parquet. Both
engines run the same per-record function (:mod:`verifier.batch.worker`):

- ``local``: worker processes on this machine's cores (:mod:`verifier.batch.local`);
- ``ray``: Ray Data (:mod:`verifier.batch.ray_engine`, the ``[ray]`` extra), from a
  laptop to a cluster.
"""

from __future__ import annotations

from .output import read_output
from .run import ENGINES, run_batch
from .summary import Summary

__all__ = ["ENGINES", "Summary", "read_output", "run_batch"]
