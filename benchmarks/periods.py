"""Period attribution on real filing tables (TAT-QA dev): a right number stated for the
wrong year.

    python -m benchmarks.periods [--corpora DIR] [--json out.json]

From every TAT-QA span question whose answer is one figure printed in exactly one table
cell under a year column (most filing tables print a column per fiscal year), two
answers are built over the same table and paragraphs:

- correct: "In 2019, the answer is 12.6 million." (the cell's own year);
- swapped: "In 2018, the answer is 12.6 million." (another year column of the table).

The swapped answer's number is in the data, so only a check that ties the value to the
year it is stated for can flag it. Reported for the verifier and the naive baseline in
the same process: correct answers passed, swapped answers flagged, and how many of those
flags are ``misattributed`` on the number (the attribution stage's own verdict).
"""

from __future__ import annotations

import argparse
import json
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from benchmarks.tatqa import DEFAULT_CORPORA, tatqa_cases
from verifier import Haystack, verify
from verifier.evaluation import baseline


def _value(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", "").replace("$", "").strip())
    except InvalidOperation:
        return None


def period_cases(path: Path) -> list[dict[str, Any]]:
    """(correct, swapped) answer pairs for span answers held by one year-column cell."""
    out = []
    for case in tatqa_cases(path):
        if case["kind"] != "span" or " and " in case["number"]:
            continue
        value = _value(case["number"])
        if value is None:
            continue
        hay = Haystack(case["tools"])
        cells = [ref.leaf for ref in hay.numbers.get(value, []) if ref.how == "value" or ref.how == "in text"]
        cells = [leaf for leaf in dict.fromkeys(cells) if "$.table.rows" in hay.path(leaf)]
        if len(cells) != 1:
            continue
        period = hay.period_of(cells[0])
        columns = case["tools"][0]["output"]["table"]["columns"]
        years = sorted({p[0] for c in columns if isinstance(c, str) and (p := _year(c)) is not None})
        if period is None or period[1] is not None or period[0] not in years or len(years) < 2:
            continue
        other = next(y for y in sorted(years, key=lambda y: abs(y - period[0])) if y != period[0])
        sentence = case["answer"]  # "The answer is 12.6 million."
        body = sentence[0].lower() + sentence[1:]
        out.append({"id": case["id"], "tools": case["tools"], "question": case["question"],
                    "number": case["number"], "year": period[0], "other": other,
                    "correct": f"In {period[0]}, {body}", "swapped": f"In {other}, {body}"})
    return out


def _year(column: str) -> tuple[int, int | None] | None:
    text = column.strip()
    if len(text) == 4 and text.isdigit() and 1900 < int(text) < 2100:
        return int(text), None
    return None


def run(cases: list[dict[str, Any]]) -> dict[str, Any]:
    counts = {"cases": len(cases), "correct_passed": 0, "swapped_flagged": 0, "swapped_misattributed": 0,
              "naive_correct_passed": 0, "naive_swapped_flagged": 0}
    misses = []
    for case in cases:
        hay = Haystack(case["tools"])
        good = verify(case["correct"], haystack=hay, question=case["question"])
        bad = verify(case["swapped"], haystack=hay, question=case["question"])
        counts["correct_passed"] += good.flagged == 0
        counts["swapped_flagged"] += bad.flagged > 0
        number = [i for i in bad.items if case["number"] in i.text]
        counts["swapped_misattributed"] += any(i.status == "misattributed" for i in number)
        if bad.flagged == 0:
            misses.append(case["id"])
        counts["naive_correct_passed"] += not baseline.unsupported(case["correct"], case["tools"])
        counts["naive_swapped_flagged"] += bool(baseline.unsupported(case["swapped"], case["tools"]))
    return {"counts": counts, "misses": misses}


def markdown(result: dict[str, Any]) -> str:
    c = result["counts"]
    n = c["cases"]

    def rate(k: str) -> str:
        return f"{c[k] / n:.3f} ({c[k]}/{n})" if n else "–"

    return "\n".join([
        "| verifier | cases | correct year passed | wrong year flagged | flagged as misattributed |",
        "|---|---:|---:|---:|---:|",
        f"| finverify | {n} | {rate('correct_passed')} | {rate('swapped_flagged')} | {rate('swapped_misattributed')} |",
        f"| naive baseline | {n} | {rate('naive_correct_passed')} | {rate('naive_swapped_flagged')} | – |",
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA, help="folder holding tatqa/")
    parser.add_argument("--json", type=Path, help="also write counts and missed ids here")
    args = parser.parse_args()
    path = args.corpora / "tatqa" / "tatqa_dataset_dev.json.gz"
    if not path.exists():
        raise SystemExit(f"TAT-QA not found at {path}: pass --corpora DIR")
    result = run(period_cases(path))
    print(markdown(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
