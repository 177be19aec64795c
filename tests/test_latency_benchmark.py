"""The latency benchmark's side-by-side run, growth and start-up parts (benchmarks/latency*.py)
on a few inputs: the results have the shape BENCHMARKS.md quotes and every ratio is a
positive finite number. Not timed tests: nothing here asserts a speed."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

import pytest

from benchmarks import (
    latency,
    latency_cases,
    latency_growth,
    latency_sets,
    latency_side,
    latency_startup,
)

CONTENDERS = {"cold", "build", "warm", "naive", "figured"}


def _positive_finite(value: float) -> bool:
    return isinstance(value, float) and math.isfinite(value) and value > 0


@pytest.fixture(scope="module")
def three() -> list[latency_sets.Case]:
    return latency_sets.labelled(latency_sets.FIXTURES)[:3]


@pytest.fixture(scope="module")
def figured() -> latency_side.Figured:
    pytest.importorskip("figured", reason="figured not installed (the bench or dev extra)")
    check = latency_side.figured_check()
    assert check is not None
    return check


def test_side_by_side_on_three_fixture_cases(three, figured) -> None:
    result = latency_side.side_by_side(three, figured)
    assert result["cases"] == 3
    assert set(result["median_us"]) == set(result["p95_us"]) == CONTENDERS
    for name in CONTENDERS:
        assert _positive_finite(result["median_us"][name]), name
        assert result["p95_us"][name] >= result["median_us"][name], name
    assert set(result["ratios"]) == {"cold/figured", "warm/figured", "cold/naive"}
    for name, a, b in latency_side.RATIOS:
        ratio = result["ratios"][name]
        assert _positive_finite(ratio), name
        assert ratio == pytest.approx(result["median_us"][a] / result["median_us"][b])
    assert result["figured_errors"] == 0
    table = latency_side.markdown({"sets": {"fixtures": result}, "skipped": {}})
    assert table.count("\n") == 2 and "| fixtures (3) |" in table and table.count("×") == 3


def test_without_figured_its_column_and_ratios_are_left_out(three) -> None:
    result = latency_side.side_by_side(three[:1], None)
    assert set(result["median_us"]) == CONTENDERS - {"figured"}
    assert set(result["ratios"]) == {"cold/naive"} and _positive_finite(result["ratios"]["cold/naive"])
    assert result["figured_errors"] is None
    with pytest.raises(ValueError, match="at least one case"):
        latency_side.side_by_side([], None)


def test_absent_sets_are_skipped_with_their_reason(tmp_path: Path) -> None:
    sources = latency_sets.sets(shared=tmp_path, fixtures=latency_sets.FIXTURES)
    absent = {name: why for name, why in sources.items() if isinstance(why, str)}
    assert set(absent) == {"assistant_equities", "assistant_markets", "tatqa_dev", "financebench_pages"}
    assert all(str(tmp_path) in why and "\n" not in why for why in absent.values())
    result = latency_side.run_sets(sources, 2, None)
    assert list(result["sets"]) == ["fixtures"] and result["sets"]["fixtures"]["cases"] == 2
    assert set(result["skipped"]) == set(absent) | {"figured"}
    assert sum(line.startswith("- ") and ": left out (" in line for line in latency_side.markdown(result).splitlines()) == 5


def test_ratios_below_one_keep_two_significant_digits() -> None:
    assert [latency_side.ratio_text(v) for v in (282.44, 1.0, 0.46, 0.0079)] == ["282.4×", "1.0×", "0.46×", "0.0079×"]


def test_subsample_spreads_evenly_and_keeps_order() -> None:
    cases = [latency_sets.Case(str(i), "a", []) for i in range(10)]
    assert [c.id for c in latency_sets.subsample(cases, 4)] == ["0", "2", "5", "7"]
    assert latency_sets.subsample(cases, 0) == cases == latency_sets.subsample(cases, 50)


@pytest.mark.parametrize("values", [[5.0], [3.0, 1.0], [float(v) for v in range(1, 42)], [7.0, 2.0, 9.0, 4.0, 4.5]])
def test_p95_interpolates_between_ranks(values) -> None:
    expected = values[0] if len(values) == 1 else statistics.quantiles(values, n=20, method="inclusive")[18]
    assert latency_side.p95(values) == pytest.approx(expected)


def test_growth_rows_and_a_size_over_budget_is_not_run() -> None:
    # 10**9 leaves could not be built here: the prediction from the sizes before must skip it
    rows = latency_growth.grow((100, 1_000, 10**9), latency_growth.leaves_inputs, 600.0, 1, None)
    assert [r["size"] for r in rows] == [100, 1_000, 10**9]
    for row in rows[:2]:
        assert row["leaves"] >= row["size"] * 0.9
        assert all(_positive_finite(row[k]) for k in ("build_ms", "cold_ms", "warm_ms", "naive_ms"))
        assert row["cold_ms"] > row["build_ms"] and "figured_ms" not in row
    assert "budget" in rows[2]["skipped"] and "leaves" not in rows[2]
    table = latency_growth.markdown({"leaves": rows, "chars": []})
    assert "| 1,000 | 1,001 |" in table and "not run: cold predicted" in table


def test_prose_page_has_the_length_asked_and_the_answer_quotes_it() -> None:
    tools, answer = latency_cases.prose_page(5_000)
    text = tools[0]["output"]["text"]
    assert len(text) == 5_000
    assert "$1,000.0 million" in text and "$1,000.0 million" in answer


def test_startup_in_a_fresh_interpreter() -> None:
    result = latency_startup.run(1)
    for key in ("import_cpu_ms", "import_wall_ms", "first_ms", "second_ms"):
        assert _positive_finite(result[key]), key
    assert result["first_call_extra_ms"] == pytest.approx(result["first_ms"] - result["second_ms"])
    assert "first call adds" in latency_startup.markdown(result)
    with pytest.raises(ValueError):
        latency_startup.run(0)


def test_command_line_writes_the_side_by_side_json(tmp_path: Path, capsys) -> None:
    out = tmp_path / "latency.json"
    latency.main(["--part", "side", "--limit", "1", "--json", str(out)])
    data = json.loads(out.read_text())
    assert set(data) == {"python", "quick", "side_by_side"}
    assert data["side_by_side"]["sets"]["fixtures"]["cases"] == 1
    assert all(_positive_finite(r) for s in data["side_by_side"]["sets"].values() for r in s["ratios"].values())
    assert "| fixtures (1) |" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        latency.main(["--limit", "-1"])
