"""``verifier eval --html``: the eval run as one self-contained HTML page people can look
at (charts, latency, every false alarm and miss highlighted as the demo page does it),
and with ``--compare BEFORE.json`` what changed since an earlier run.

The charts need matplotlib (the ``[report]`` extra): ``write_html`` imports it when
called and says which extra to install when it is missing; comparing two runs does not
need it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..evaluation.evaluate import EvalResult
from .cases import Collector, shown_case
from .compare import Comparison, Flip, before_outcomes, compare, load_before

__all__ = ["Collector", "Comparison", "Flip", "before_outcomes", "compare", "load_before", "shown_case",
           "write_html"]


def write_html(path: str | Path, result: EvalResult, cases: list[dict[str, Any]],
               before: EvalResult | None = None) -> None:
    """Write the report to ``path``: ``cases`` from a ``Collector`` passed to
    ``evaluate.run``, ``before`` the earlier run to compare with (``load_before``)."""
    from .page import write_html as write

    write(path, result, cases, before)
