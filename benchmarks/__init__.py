"""Accuracy and speed benchmarks; each prints the figures BENCHMARKS.md quotes."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any


def quick_main(doc: str | None, run: Callable[[bool], dict[str, Any]],
               markdown: Callable[[dict[str, Any]], str]) -> None:
    """The command line of a benchmark that takes ``--quick`` (fewer repeats) and
    ``--json OUT``: print its table, and write the raw figures when asked."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--json", help="also write the raw figures here")
    args = parser.parse_args()
    result = run(args.quick)
    print(markdown(result))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(result, fh, indent=2)
