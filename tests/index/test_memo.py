"""Caches live on the haystack they are derived from (verifier/index/memo.py): for its
lifetime only, and shared safely by threads verifying over one haystack at once."""

from __future__ import annotations

import gc
import json
import threading
import weakref

from tests.conftest import FIXTURES
from verifier import Haystack, verify
from verifier.index.memo import Memo, PerHaystack


def _cases(n: int) -> list[dict]:
    with open(FIXTURES / "labelled.jsonl") as fh:
        return [json.loads(line) for line, _ in zip(fh, range(n), strict=False)]


def _report(case: dict, hay: Haystack) -> str:
    return verify(case["answer"], haystack=hay, question=case.get("question"), locale=case["locale"],
                  judge=False).model_dump_json()


def test_a_memo_keeps_the_first_value_stored_under_a_name():
    memo = Memo()
    assert memo.get("x") is None
    first, second = [1], [2]
    assert memo.keep("x", first) is first and memo.keep("x", second) is first
    assert memo.get("x") is first and memo.names() == {"x"}


def test_a_per_haystack_cache_hands_every_writer_the_one_value_kept():
    cache: PerHaystack[list[int]] = PerHaystack("test.cache")
    one, two = Haystack({"a": 1}), Haystack({"b": 2})
    assert cache.get(one) is None and one not in cache
    mine, theirs = [1], [1]  # two threads' builds of the same structure
    assert cache.setdefault(one, mine) is mine
    assert cache.setdefault(one, theirs) is mine, "the second builder must get the kept object"
    assert cache[one] is mine and one in cache and cache.get(two) is None
    assert not hasattr(cache, "__setitem__"), "a plain assignment would let a caller keep its own build"
    try:
        cache[Haystack({"c": 3})]
    except KeyError:
        pass
    else:
        raise AssertionError("a haystack with nothing stored has no entry")


def test_what_a_verification_derives_is_kept_on_its_haystack_and_goes_with_it():
    case = _cases(1)[0]
    hay = Haystack(case["tool_results"], locale=case["locale"])
    assert hay.memo.names() == frozenset()
    _report(case, hay)
    assert hay.memo.names(), "nothing was kept on the haystack"
    gone = weakref.ref(hay)
    del hay
    gc.collect()
    assert gone() is None, "a module-level cache still holds the haystack"


def test_threads_verifying_over_shared_haystacks_at_once_get_the_sequential_reports():
    cases = _cases(40)
    expected = [_report(c, Haystack(c["tool_results"], locale=c["locale"])) for c in cases]
    shared = [Haystack(c["tool_results"], locale=c["locale"]) for c in cases]  # nothing built yet
    start = threading.Barrier(4)
    got: dict[int, list[str]] = {}
    failed: list[BaseException] = []

    def run(worker: int) -> None:
        order = list(range(len(cases)))
        if worker % 2:
            order.reverse()  # half the threads start at the other end
        try:
            start.wait()
            got[worker] = [""] * len(cases)
            for k in order:
                got[worker][k] = _report(cases[k], shared[k])
        except BaseException as exc:  # noqa: BLE001 - reported below
            failed.append(exc)

    threads = [threading.Thread(target=run, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not failed, failed
    for worker, reports in got.items():
        assert reports == expected, f"worker {worker} saw other reports"
