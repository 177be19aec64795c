"""``verifier batch --engine ray``: Ray Data in local mode (two CPUs) gives the records the
local engine gives, which are verify()'s reports, in input order, with error records in
place, from gzipped and plain files of a folder; Parquet too; and the same summary."""

from __future__ import annotations

import pytest

from tests.batch.test_batch import requests, write_jsonl
from verifier.batch import read_output, run_batch
from verifier.inputs.jsonio import dumps

ray = pytest.importorskip("ray", reason="the Ray engine needs the [ray] extra: pip install 'finverify[ray]'")


@pytest.fixture(scope="module")
def local_ray():
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    if started:
        ray.shutdown()


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """A folder of two files, one gzipped, with bad lines among the requests."""
    lines = [dumps(r) for r in requests()]
    folder = tmp_path_factory.mktemp("ray") / "logs"
    folder.mkdir()
    write_jsonl(folder / "a.jsonl.gz", lines[:20] + ["not json", '{"answer": "x"}'])
    write_jsonl(folder / "b.jsonl", lines[20:] + ['{"tool_results": []}'])
    return folder


@pytest.fixture(scope="module")
def local_run(logs):
    out = logs.parent / "local.jsonl"
    summary = run_batch(str(logs), str(out), workers=2, group_by="model")
    return list(read_output(out)), summary


def test_ray_engine_gives_the_local_engines_records_in_order(local_ray, logs, local_run):
    out = logs.parent / "ray_out"
    summary = run_batch(str(logs), str(out), engine="ray", workers=2, group_by="model", chunk_size=4)
    records, local_summary = local_run
    got = list(read_output(out))  # the folder's files in name order
    assert [(r["source"], r["line"]) for r in got] == [(r["source"], r["line"]) for r in records]
    assert got == records  # the reports are verify()'s: tests/batch/test_batch.py checks the local engine's
    assert [(r["error"], r["field"]) for r in got if "error" in r] == [
        ("invalid_input", "body"), ("invalid_input", "tool_results"), ("invalid_input", "answer")]
    assert summary.as_dict() == local_summary.as_dict()
    assert summary.total.verifications == len(records) - 3 and summary.total.errors == 3


def test_ray_engine_writes_parquet(local_ray, logs, local_run):
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet output needs pyarrow")
    out = logs.parent / "ray.parquet"
    run_batch(str(logs / "b.jsonl"), str(out), engine="ray", workers=2, chunk_size=8)
    records = [r for r in local_run[0] if r["source"].endswith("b.jsonl")]
    assert list(read_output(out)) == records
    assert pq.read_table(out).column("line").to_pylist() == [r["line"] for r in records]


def test_ray_engine_refuses_an_output_folder_that_holds_files(local_ray, logs):
    from verifier import InputError

    with pytest.raises(InputError, match="exists"):
        run_batch(str(logs), str(logs), engine="ray")
