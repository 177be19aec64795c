"""The case sets of the side-by-side latency run (issue 21), each read by the reader its
own benchmark uses: the golden fixtures and both dev evalsets with ``verifier eval``'s
``load_dataset``, TAT-QA dev with ``benchmarks.tatqa.tatqa_cases`` (the correct-answer
sentence of every numeric question) and FinanceBench's graded oracle answers over their
evidence pages with ``benchmarks.financebench.load_cases``. A set whose data is absent is
given as the one-line reason instead of a loader, so the run can say why it left it out.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

from benchmarks import financebench, tatqa
from verifier.evaluation.evaluate import load_dataset

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
FIXTURES = ROOT / "fixtures" / "labelled.jsonl"
EVALSETS = ("assistant_equities", "assistant_markets")


@dataclass(frozen=True)
class Case:
    """One verify call: what the pipeline is given, the same for every contender."""

    id: str
    answer: str
    tools: list[dict[str, Any]]
    question: str | None = None
    locale: str = "en_US"
    history: Any = None


def seed_case() -> Case:
    """The example shipped with the package (a 25-row screen and three paragraphs): the
    warm-up call, on data no set holds."""
    ex = resources.files("verifier").joinpath("examples")
    return Case("seed", ex.joinpath("screen_answer.txt").read_text(),
                json.loads(ex.joinpath("screen_tools.json").read_text()))


def labelled(path: Path) -> list[Case]:
    """The records of a labelled set (``verifier eval``'s line format), clean and faulty."""
    return [Case(r["id"], r["answer"], r["tool_results"], r.get("question"), r.get("locale") or "en_US",
                 r.get("history") or None) for r in load_dataset(path)]


def tatqa_dev(path: Path) -> list[Case]:
    return [Case(c["id"], c["answer"], c["tools"], c["question"]) for c in tatqa.tatqa_cases(path)]


def financebench_pages(corpora: Path) -> list[Case]:
    cases, _ = financebench.load_cases(corpora)
    return [Case(f"{c['file']}/{c['id']}", c["answer"], c["tools"], c["question"]) for c in cases]


Loader = Callable[[], list[Case]]


def sets(shared: Path = SHARED, fixtures: Path = FIXTURES) -> dict[str, Loader | str]:
    """Set name -> a loader of its cases, or why the set is absent (one line)."""
    out: dict[str, Loader | str] = {
        "fixtures": partial(labelled, fixtures) if fixtures.is_file() else f"{fixtures} not found"}
    for name in EVALSETS:
        path = shared / "evalsets" / f"{name}.jsonl"
        out[name] = partial(labelled, path) if path.is_file() else f"{path} not found"
    tatqa_path = shared / "corpora" / "tatqa" / "tatqa_dataset_dev.json.gz"
    out["tatqa_dev"] = partial(tatqa_dev, tatqa_path) if tatqa_path.is_file() else f"{tatqa_path} not found"
    fb = shared / "corpora" / "financebench"
    found = (fb / "financebench_open_source.jsonl.gz").is_file() and financebench.result_files(fb)
    out["financebench_pages"] = partial(financebench_pages, fb) if found else f"{fb} (questions and results) not found"
    return out


def subsample(cases: list[Case], limit: int) -> list[Case]:
    """``limit`` cases spread evenly over the set (its order kept), all when ``limit`` is 0 or
    the set is no larger: a fixed slice, so two runs time the same cases."""
    if limit <= 0 or len(cases) <= limit:
        return list(cases)
    return [cases[i * len(cases) // limit] for i in range(limit)]
