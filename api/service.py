"""The service object behind the routes: runs verify() under the request limits, shares
haystacks, and hands each decision to the metrics and the audit log.

Verification is CPU work; it runs on a small thread pool so the event loop stays free
and a request over its time budget can be answered (503) without waiting for it. The
budget is also the verification's deadline (``verifier.deadline``), counted from the
request's arrival: past it the work stops at its next check (milliseconds), so an
abandoned request does not hold the verify thread and delay the ones behind it, and
the judge gets only what is left of it.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
import time
import uuid
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from verifier import DeadlineExceeded, Haystack, InputError, LimitError, Policy, Report, verify
from verifier.deadline import Deadline
from verifier.inputs.jsonio import count_leaves, dumps

from .audit import AuditLog, build_record
from .metrics import Metrics
from .redact import Redactor
from .request_id import current as current_request_id
from .schemas import VerifyRequest
from .settings import Settings

#: How long past its deadline a verification may run before its 503 is sent regardless
#: (work checks the deadline every few milliseconds; this covers a stretch that does not).
_GRACE_S = 0.5


class OverBudget(Exception):
    """A request took longer than the time budget."""

    def __init__(self, budget_ms: int):
        self.budget_ms = budget_ms
        super().__init__(f"verification took longer than the time budget of {budget_ms} ms")


class HaystackCache:
    """The last few haystacks, by a hash of (tool results, locale): an LRU."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[str, Haystack] = OrderedDict()
        self._lock = threading.Lock()  # the verify pool's threads share the cache

    def get(self, tool_results: Any, locale: str, max_leaves: int) -> Haystack:
        if self.size == 0:
            return Haystack(tool_results, locale=locale, max_leaves=max_leaves)
        if count_leaves(tool_results, max_leaves) > max_leaves:  # before writing the key of a huge body
            raise LimitError("number of leaves in the tool results", max_leaves + 1, max_leaves)
        key = hashlib.blake2b(f"{locale}\0{max_leaves}\0{dumps(tool_results)}".encode("utf-8", "surrogatepass"),
                              digest_size=16).hexdigest()
        with self._lock:
            hay = self._items.get(key)
            if hay is not None:
                self._items.move_to_end(key)
                return hay
        hay = Haystack(tool_results, locale=locale, max_leaves=max_leaves)  # outside the lock
        with self._lock:
            self._items[key] = hay
            if len(self._items) > self.size:
                self._items.popitem(last=False)
        return hay


def _tool_names(tool_results: Any) -> list[str]:
    if isinstance(tool_results, list):
        return sorted({t["name"] for t in tool_results if isinstance(t, dict) and isinstance(t.get("name"), str)})
    return []


class VerifyService:
    """verify() with the service's limits, cache, metrics and audit log."""

    def __init__(self, settings: Settings, metrics: Metrics, audit: AuditLog | None):
        self.settings, self.metrics, self.audit = settings, metrics, audit
        self.cache = HaystackCache(settings.haystack_cache)
        key = settings.redaction_key
        self.redactor = (Redactor(key.get_secret_value().encode(), settings.audit_metadata_fields)
                         if settings.audit_redact and key is not None else None)
        # verification holds the GIL: more threads than this only take turns, and with
        # many connections their switching costs throughput (see BENCHMARKS.md)
        self.pool = ThreadPoolExecutor(max_workers=settings.verify_threads, thread_name_prefix="verify")

    def _policy(self, request: VerifyRequest) -> Policy:
        policy = request.policy or Policy()  # (validated with the request: 422 naming policy.<field>)
        # the service's limits cap what a caller may ask for: a value above one is lowered
        # to it, silently (a request's deadline_ms may only shorten the time budget, which
        # is in force as the deadline already)
        s = self.settings
        return policy.model_copy(update={
            "max_answer_chars": min(policy.max_answer_chars, s.max_answer_chars),
            "max_leaves": min(policy.max_leaves, s.max_leaves),
            "derive_max_work": min(policy.derive_max_work, s.derive_max_work),
            "max_derive_items": min(policy.max_derive_items, s.max_derive_items),
            "judge_max_sentences": min(policy.judge_max_sentences, s.judge_max_sentences),
        })

    def _run_one(self, request: VerifyRequest, rid: str | None,
                 abandoned: threading.Event | None = None) -> Report:
        started = time.perf_counter()
        policy = self._policy(request)
        answer, tool_results, question, history = request.parts()
        if len(answer) > policy.max_answer_chars:  # before indexing anything
            raise LimitError("answer length in characters", len(answer), policy.max_answer_chars)
        hay = self.cache.get(tool_results, request.locale, policy.max_leaves)
        report = verify(answer, question=question, locale=request.locale,
                        policy=policy, haystack=hay, history=history)
        if self.audit is not None:  # the id of the record it will be, so a client can quote it
            report = report.model_copy(update={"audit_id": str(uuid.uuid4())})
        if abandoned is None or not abandoned.is_set():  # a 503 went out: the caller never saw it
            self._record(request, (answer, question, tool_results), report, (time.perf_counter() - started) * 1000, rid)
        return report

    def _record(self, request: VerifyRequest, case: tuple[str, str | None, Any], report: Report,
                latency_ms: float, rid: str | None) -> None:
        if self.audit is not None:
            answer, question, tool_results = case
            row = build_record(
                report, answer, question, _tool_names(tool_results),
                request.metadata.model_dump(exclude_none=True), request.locale, latency_ms,
                self.redactor, request_id=rid)
            if self.settings.audit_sync:
                self.audit.write([row])  # committed before the response goes out (or AuditFailed)
            else:
                self.audit.record(row)
        self.metrics.observe(report)

    async def _budgeted(self, fn: Any, *args: Any) -> Any:
        """``fn(*args, abandoned)`` on the pool under a deadline of the time budget from
        now (the request's arrival: time queued behind another counts); past it, 503. The
        work stops itself at the deadline (DeadlineExceeded); should it not within
        ``_GRACE_S`` after, the 503 goes out anyway and ``abandoned`` is set, so the late
        result is not counted or recorded."""
        budget = self.settings.time_budget_ms
        deadline, abandoned = Deadline(budget), threading.Event()

        def work() -> Any:
            with deadline.active():
                return fn(*args, abandoned)

        future = asyncio.get_running_loop().run_in_executor(self.pool, work)
        try:
            return await asyncio.wait_for(future, budget / 1000 + _GRACE_S)
        except DeadlineExceeded:
            raise OverBudget(budget) from None
        except TimeoutError:
            abandoned.set()
            raise OverBudget(budget) from None

    async def verify(self, request: VerifyRequest) -> Report:
        """One verification."""
        return await self._budgeted(self._run_one, request, current_request_id())  # type: ignore[no-any-return]

    async def batch(self, requests: list[VerifyRequest]) -> list[Report]:
        """Many verifications in order; the same tool results share one haystack (the cache)."""
        if len(requests) > self.settings.max_batch:
            raise LimitError("number of requests in the batch", len(requests), self.settings.max_batch)

        rid = current_request_id()  # (read here: the pool's threads do not see the request's context)

        def run_all(abandoned: threading.Event) -> list[Report]:
            reports = []
            for n, request in enumerate(requests):
                try:
                    reports.append(self._run_one(request, rid, abandoned))
                except InputError as exc:
                    message = str(exc).removeprefix(f"{exc.where}: ") if exc.where else str(exc)
                    raise InputError(message, f"requests[{n}].{exc.where or 'body'}") from None
                except DeadlineExceeded:
                    raise
                except LimitError as exc:
                    raise LimitError(f"requests[{n}]: {exc.what}", exc.size, exc.limit) from None
            return reports

        return await self._budgeted(run_all)  # type: ignore[no-any-return]

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
