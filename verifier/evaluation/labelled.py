"""The labelled set: fixture scenarios flattened to one JSON object a line.

``python -m verifier.evaluation.labelled fixtures/scenarios fixtures/labelled.jsonl`` rebuilds it;
a test checks the committed file matches the scenarios.

Line format: ``{id, locale, question, tool_results, answer, label, faults[, history]}``
where ``label`` is ``clean`` or ``faulty``, ``faults`` is ``[{text, kind}]`` and
``history`` holds earlier turns' tool results.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..inputs.jsonio import dumps, load_path


def scenarios(folder: str | Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    """(path, scenario) for every ``*.json`` in ``folder``, in name order."""
    for path in sorted(Path(folder).glob("*.json")):
        yield path, load_path(path)


def records(folder: str | Path) -> Iterator[dict[str, Any]]:
    """One labelled record per answer of every scenario in ``folder``."""
    for _, scenario in scenarios(folder):
        for answer in scenario["answers"]:
            record = {
                "id": f"{scenario['id']}/{answer['id']}",
                "locale": scenario.get("locale", "en_US"),
                "question": scenario.get("question"),
                "tool_results": scenario["tool_results"],
                "answer": answer["text"],
                "label": answer["label"],
                "faults": answer.get("faults", []),
            }
            if "history" in scenario:
                record["history"] = scenario["history"]
            yield record


def render(folder: str | Path) -> str:
    """The JSONL text of the labelled set built from ``folder``."""
    return "".join(dumps(record) + "\n" for record in records(folder))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m verifier.evaluation.labelled SCENARIOS_DIR OUT.jsonl", file=sys.stderr)
        return 2
    Path(args[1]).write_text(render(args[0]), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
