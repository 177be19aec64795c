"""The stage contract: each stage of ``verifier.pipeline.STAGES`` reads only the call's
inputs and what an earlier stage assigned (its ``REQUIRES``), and writes only what it
declares (its ``ASSIGNS``), checked statically and by recording every State field each
stage touches while the golden fixtures are verified."""

from __future__ import annotations

import dataclasses
import importlib
from collections import defaultdict
from pathlib import Path

import pytest

from verifier import Policy, verify
from verifier.evaluation.evaluate import load_dataset
from verifier.index.haystack import Haystack
from verifier.pipeline import STAGES, State, run, switched_off
from verifier.state import INPUTS

LABELLED = Path(__file__).resolve().parents[2] / "fixtures" / "labelled.jsonl"
FIELDS = frozenset(f.name for f in dataclasses.fields(State))


def _module(name: str):
    return importlib.import_module(f"verifier.stages.{name}")


def test_every_stage_declares_fields_of_the_state_and_requires_only_what_came_before():
    available = set(INPUTS)
    assert available <= FIELDS
    for name, stage in STAGES:
        module = _module(name)
        assert stage is module.run, name
        assert module.REQUIRES <= FIELDS and module.ASSIGNS <= FIELDS, name
        missing = module.REQUIRES - available
        assert not missing, f"stage {name} requires {sorted(missing)}, which no earlier stage assigns"
        available |= module.ASSIGNS
    assert "report" in available


class _Recording(State):
    """A State that logs, per stage, the fields read and written."""

    def __getattribute__(self, name: str):
        if name in FIELDS:
            object.__getattribute__(self, "log")[object.__getattribute__(self, "stage")].add(("read", name))
        return object.__getattribute__(self, name)

    def __setattr__(self, name: str, value) -> None:
        if name in FIELDS and "log" in self.__dict__:
            self.__dict__["log"][self.__dict__["stage"]].add(("write", name))
        object.__setattr__(self, name, value)


def _recorded(record: dict) -> dict[str, set[tuple[str, str]]]:
    state = _Recording(record["answer"], Haystack(record["tool_results"], locale=record.get("locale") or "en_US"),
                       record.get("locale") or "en_US", Policy(), record.get("question"))
    if record.get("history"):
        object.__setattr__(state, "history", Haystack(record["history"]))
    object.__setattr__(state, "log", defaultdict(set))
    for name, stage in STAGES:
        object.__setattr__(state, "stage", name)
        stage(state)
    return state.__dict__["log"]


@pytest.mark.parametrize("record", load_dataset(LABELLED)[::4], ids=lambda r: r["id"])
def test_each_stage_touches_only_the_fields_it_declares(record):
    for name, touched in _recorded(record).items():
        module = _module(name)
        read = {f for how, f in touched if how == "read"}
        written = {f for how, f in touched if how == "write"}
        assert read <= module.REQUIRES | module.ASSIGNS, (name, sorted(read - module.REQUIRES - module.ASSIGNS))
        assert written <= module.ASSIGNS, (name, sorted(written - module.ASSIGNS))


def test_the_recording_sees_an_undeclared_read():
    state = _Recording("AAPL at $142.30.", Haystack({"symbol": "AAPL"}), "en_US", Policy())
    object.__setattr__(state, "log", defaultdict(set))
    object.__setattr__(state, "stage", "probe")
    _ = state.notes
    state.report = None
    assert state.__dict__["log"]["probe"] == {("read", "notes"), ("write", "report")}


def test_a_policy_switches_stages_off_by_name():
    assert switched_off(Policy()) == frozenset()
    assert switched_off(Policy(derive=False, check_polarity=False)) == {"derive", "polarity"}
    tools = [{"name": "q", "output": {"symbol": "AAPL", "revenue": [
        {"year": 2024, "value": 1210.4}, {"year": 2025, "value": 1342.7}]}}]
    answer = "AAPL revenue grew by 132.3 to 1342.7."
    on = verify(answer, tools, judge=False)
    off = verify(answer, tools, judge=False, policy=Policy(derive=False))
    assert [i.status for i in on.items if i.text == "132.3"] == ["derived"]
    assert [i.status for i in off.items if i.text == "132.3"] == ["unsupported"]


def test_run_with_only_some_stages_runs_just_those():
    state = run(State("AAPL at $142.30.", Haystack({"symbol": "AAPL", "price": 142.3}), "en_US", Policy()),
                only=("extract", "match"))
    assert [m.text for m, _ in state.matched] == ["AAPL", "$142.30"] and state.report is None
