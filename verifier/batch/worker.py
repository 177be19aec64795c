"""The per-record function both engines run: one input line in, one output row out.

A :class:`LineVerifier` lives once per worker (a process of the local engine, an actor of
Ray's ``map_batches``) and keeps its own haystack cache, so the many answers logged over
the same tool results index them once per worker. Each line is verified as the API
verifies a request (``verify()`` with a prebuilt haystack, the judge off: a batch of
millions makes no model calls); a line that is no valid request, or whose verification
fails, becomes an error row in the API's error shape. Nothing a line holds stops the run.
"""

from __future__ import annotations

import hashlib
import logging
from collections import OrderedDict
from typing import Any

from .._errors import DeadlineExceeded, InputError, LimitError
from ..deadline import Deadline
from ..index.haystack import Haystack
from ..inputs.jsonio import count_leaves, dumps
from ..models import Report
from ..normalizers import NormalizeError, canonical_locale
from ..pipeline import verify
from .output import Row, error_row, report_row
from .request import BadLine, Case, error_body, parse

_log = logging.getLogger("verifier.batch")


class HaystackCache:
    """The last ``size`` haystacks, by a hash of (tool results, locale, leaf limit): an LRU
    (one per worker process: no lock)."""

    def __init__(self, size: int = 64):
        self.size = size
        self._items: OrderedDict[str, Haystack] = OrderedDict()
        self.hits = self.misses = 0

    def get(self, tool_results: Any, locale: str, max_leaves: int) -> Haystack:
        if count_leaves(tool_results, max_leaves) > max_leaves:  # before writing the key of a huge input
            raise LimitError("number of leaves in the tool results", max_leaves + 1, max_leaves)
        key = hashlib.blake2b(f"{locale}\0{max_leaves}\0{dumps(tool_results)}".encode("utf-8", "surrogatepass"),
                              digest_size=16).hexdigest()
        hay = self._items.get(key)
        if hay is not None:
            self.hits += 1
            self._items.move_to_end(key)
            return hay
        self.misses += 1
        hay = Haystack(tool_results, locale=locale, max_leaves=max_leaves)
        self._items[key] = hay
        if len(self._items) > self.size:
            self._items.popitem(last=False)
        return hay


class LineVerifier:
    """Verifies lines; ``deadline_ms`` is the deadline of a line whose policy sets none."""

    def __init__(self, deadline_ms: int | None = None, cache_size: int = 64):
        self.deadline_ms = deadline_ms
        self.cache = HaystackCache(cache_size)

    def report(self, case: Case) -> Report:
        """The report of one case (what ``verify()`` gives for it). The line's deadline
        (its policy's, else the batch's) covers indexing its tool results too."""
        policy = case.policy
        if len(case.answer) > policy.max_answer_chars:  # before indexing anything
            raise LimitError("answer length in characters", len(case.answer), policy.max_answer_chars)
        try:
            locale = canonical_locale(case.locale)
        except NormalizeError as exc:
            raise InputError(str(exc), "locale") from None
        ms = policy.deadline_ms if policy.deadline_ms is not None else self.deadline_ms
        if ms is None:
            hay = self.cache.get(case.tool_results, locale, policy.max_leaves)
            return verify(case.answer, question=case.question, locale=locale, policy=policy, haystack=hay,
                          history=case.history, judge=False)
        # one deadline from here, as the service's: verify() keeps an active one when its
        # policy sets none (its own would start again after the indexing)
        with Deadline(ms).active():
            hay = self.cache.get(case.tool_results, locale, policy.max_leaves)
            return verify(case.answer, question=case.question, locale=locale, haystack=hay, history=case.history,
                          policy=policy.model_copy(update={"deadline_ms": None}), judge=False)

    def __call__(self, source: str, line: int, text: bytes) -> Row:
        """The output row of one input line; never raises for what the line holds."""
        where = f"{source}:{line}"
        metadata: Any = None
        try:
            case = parse(text, where)
            metadata = case.metadata
            report = self.report(case)
            return report_row(source, line, metadata, report)
        except BadLine as exc:
            return error_row(source, line, exc.metadata, exc.body)
        except DeadlineExceeded as exc:
            return error_row(source, line, metadata, error_body("timeout", str(exc), None))
        except LimitError as exc:
            return error_row(source, line, metadata, error_body("too_large", str(exc), _limit_field(exc)))
        except InputError as exc:
            return error_row(source, line, metadata, error_body("invalid_input", str(exc), exc.where))
        except Exception as exc:  # noqa: BLE001 - a bug on one line is logged; the run goes on
            _log.exception("unexpected error on %s", where)
            return error_row(source, line, metadata, error_body(
                "internal_error", f"the verifier failed on this line ({type(exc).__name__}); it was logged",
                None))

    def rows(self, lines: list[tuple[str, int, bytes]]) -> list[Row]:
        """The rows of a chunk of lines, in order."""
        return [self(source, line, text) for source, line, text in lines]


#: The request field each limit is about (LimitError names the quantity in words).
_LIMIT_FIELDS = (("answer length", "answer"), ("leaves", "tool_results"), ("nested", "tool_results"))


def _limit_field(exc: LimitError) -> str:
    return next((f for words, f in _LIMIT_FIELDS if words in exc.what), "body")
