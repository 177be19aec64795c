"""``verifier eval --compare BEFORE.json``: what changed between two runs of the same
labelled set, case by case (a clean case newly flagged or newly passing, a faulty case
newly caught or newly missed). This is how a prompt or verifier change is reviewed.

BEFORE.json is the output of ``verifier eval --json``. One with the per-case outcomes
(``cases``) is compared exactly; an older one without them is read from its
``false_alarms`` and ``misses`` lists, taking the cases of this run as the set both ran.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from .._errors import InputError
from ..evaluation.evaluate import EvalResult
from ..inputs.jsonio import loads, read_text

Outcome = Literal["passed", "false alarm", "caught", "missed", "error"]
Change = Literal["newly passing", "newly failing", "newly caught", "newly missed", "relabelled"]

#: (before, after) outcome -> the change, for a case whose label is the same in both runs.
CHANGES: dict[tuple[str, str], Change] = {
    ("false alarm", "passed"): "newly passing", ("passed", "false alarm"): "newly failing",
    ("missed", "caught"): "newly caught", ("caught", "missed"): "newly missed",
}


class Flip(BaseModel):
    """One case whose outcome changed."""

    id: str
    label: str
    before: Outcome
    after: Outcome
    change: Change


class Comparison(BaseModel):
    """The cases that flipped between the earlier run and this one."""

    before_dataset: str
    exact: bool = Field(description="The earlier run had per-case outcomes (else read from its lists).")
    flips: list[Flip]
    only_before: list[str] = Field(description="Cases the earlier run had and this one did not verify.")
    only_after: list[str] = Field(description="Cases this run verified that the earlier one did not have.")

    def by_id(self) -> dict[str, Flip]:
        return {f.id: f for f in self.flips}


def load_before(path: str | Path) -> EvalResult:
    """The earlier run: a ``verifier eval --json`` file; a clear error when it is not one."""
    data = loads(read_text(path), str(path))
    try:
        return EvalResult.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top)"
        raise InputError(f"not a 'verifier eval --json' output ({where}: {first['msg']})", str(path)) from None


def outcome(label: str, flagged: bool) -> Outcome:
    if label == "clean":
        return "false alarm" if flagged else "passed"
    return "caught" if flagged else "missed"


def _error_ids(result: EvalResult, known: set[str]) -> set[str]:
    """Ids of the cases that raised ("id: message"; an id may itself hold ': ')."""
    out = set()
    for line in result.errors:
        out |= {k for k in known if line.startswith(k + ": ")}
    return out


def outcomes(result: EvalResult, labels: dict[str, str]) -> dict[str, tuple[str, Outcome]]:
    """id -> (label, outcome) of each case ``result`` verified. Without per-case outcomes,
    ``labels`` (this run's cases) says which cases it ran and how they are labelled."""
    if result.cases:
        return {c.id: (c.label, outcome(c.label, c.flagged)) for c in result.cases}
    flagged = set(result.verifier.false_alarms)
    missed = set(result.verifier.misses)
    failed = _error_ids(result, set(labels))
    out: dict[str, tuple[str, Outcome]] = {}
    for case, label in labels.items():
        if case in failed:
            out[case] = (label, "error")
        elif label == "clean":
            out[case] = (label, "false alarm" if case in flagged else "passed")
        else:
            out[case] = (label, "missed" if case in missed else "caught")
    for case in (flagged | missed) - set(labels):  # listed there, not in this run
        out[case] = ("clean" if case in flagged else "faulty", "false alarm" if case in flagged else "missed")
    return out


def compare(before: EvalResult, after: EvalResult) -> Comparison:
    """The flips from ``before`` to ``after``, in ``after``'s case order."""
    now = {c.id: (c.label, outcome(c.label, c.flagged)) for c in after.cases}
    then = outcomes(before, {case: label for case, (label, _) in now.items()})
    flips = []
    for case, (label, result) in now.items():
        if case not in then or then[case][1] == "error":
            continue
        old_label, old = then[case]
        change = CHANGES.get((old, result)) if old_label == label else "relabelled"
        if change:
            flips.append(Flip(id=case, label=label, before=old, after=result, change=change))
    return Comparison(
        before_dataset=before.dataset, exact=bool(before.cases), flips=flips,
        only_before=[c for c in then if c not in now and then[c][1] != "error"],
        only_after=[c for c in now if c not in then],
    )


def before_outcomes(before: EvalResult, records: list[dict[str, Any]]) -> dict[str, Outcome]:
    """id -> the earlier run's outcome, for the cases of this run's set (``records``)."""
    labels = {str(r["id"]): str(r["label"]) for r in records}
    return {case: result for case, (_, result) in outcomes(before, labels).items() if case in labels}
