"""The model judge: a second opinion on high-stakes sentences from any OpenAI-compatible
chat-completions endpoint (vLLM, llama.cpp server, Ollama, hosted APIs), with its own
evidence checked before it is believed.

The judge is shown one claim (a sentence of the answer) and only the relevant evidence:
the records of the tool data that the sentence's values and tickers were found in, not
the whole haystack. It answers with one JSON object::

    {"verdict": "supported" | "unsupported" | "partial", "quote": "<verbatim span>", "reason": "<short>"}

(JSON mode is requested; the object may also come inside a fenced ```json block;
anything else is unparseable). A ``supported`` verdict whose quote is not in the tool
data (case, quote marks, JSON punctuation and whitespace aside) becomes ``unverified``.
Every fault becomes a ``not_judged`` :class:`~verifier.models.Judgement` with a note,
never an exception out of :func:`judge_sentence`.

Configuration (the pinned interface): ``VERIFIER_JUDGE_URL`` (base URL; requests go to
``{URL}/chat/completions``), ``VERIFIER_JUDGE_MODEL``, ``VERIFIER_JUDGE_API_KEY``
(optional bearer token); ``VERIFIER_JUDGE_TIMEOUT`` (seconds per attempt, default 10; the
whole call, retries included, gets twice that) is optional. A deadline in force
(``verifier.deadline``: ``Policy.deadline_ms``, the service's time budget) bounds the
whole call too, as one overall deadline, not per read.

Errors the client raises (caught by :func:`judge_sentence`)::

    JudgeError (Exception)
    ├── JudgeUnavailable   timeout, connection error, HTTP error (after bounded retries on
    │                      429/5xx/timeouts/connection errors), per-request budget spent,
    │                      circuit breaker open
    └── JudgeUnparseable   the reply is not the verdict object
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from verifier.normalizers import fold, quotes

from ..checks.match import candidate_leaves
from ..deadline import current
from ..extract import NUMERIC_KINDS, Mention
from ..index.haystack import Haystack, LeafId
from ..models import Judgement
from .breaker import CircuitBreaker

if TYPE_CHECKING:  # httpx is imported on first use: ``import verifier`` stays light
    import httpx

__all__ = [
    "CircuitBreaker",
    "Judge",
    "JudgeError",
    "JudgeEvidence",
    "JudgeReply",
    "JudgeUnavailable",
    "JudgeUnparseable",
    "OpenAIJudge",
    "ajudge_sentence",
    "build_messages",
    "evidence_for",
    "judge_from_env",
    "judge_sentence",
    "parse_reply",
    "quote_in_data",
]

Trigger = Literal["high_stakes", "flagged", "sampled"]


class JudgeError(Exception):
    """Base of the judge's faults; each becomes a ``not_judged`` verdict with this note."""


class JudgeUnavailable(JudgeError):
    """The judge could not be reached or did not answer in time."""


class JudgeUnparseable(JudgeError):
    """The judge answered, but not with the verdict object."""


class JudgeReply(BaseModel):
    """The verdict object the judge is asked for (extra keys are ignored)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    verdict: Literal["supported", "unsupported", "partial"]
    quote: str = ""
    reason: str = ""

    @field_validator("verdict", mode="before")
    @classmethod
    def _fold_case(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("quote", "reason", mode="before")
    @classmethod
    def _none_is_empty(cls, value: Any) -> Any:
        return "" if value is None else value


@runtime_checkable
class Judge(Protocol):
    """Anything that can judge one claim against evidence text.

    ``judge`` returns the parsed reply or raises :class:`JudgeError`; ``model`` names
    the model in the report. :class:`OpenAIJudge` is the built-in implementation."""

    model: str

    def judge(self, claim: str, evidence: str) -> JudgeReply:
        """The verdict on ``claim`` given ``evidence`` (the rendered tool records)."""
        ...


# -- evidence -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EvidenceRecord:
    """One record of the tool data shown to the judge: where it is and its fields."""

    tool: str
    path: str
    fields: tuple[tuple[str, str], ...]  # (key, raw value)

    def render(self) -> str:
        """The record as the prompt shows it: a header, then one ``key: value`` a line."""
        lines = [f"[{self.tool} {self.path}]"]
        lines += [f"{key}: {raw}" for key, raw in self.fields]
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class JudgeEvidence:
    """The records tied to one sentence, rendered for the prompt and for quote checks."""

    records: tuple[EvidenceRecord, ...]

    @property
    def text(self) -> str:
        """The evidence block of the prompt."""
        if not self.records:
            return "(no tool data is tied to this sentence)"
        return "\n\n".join(r.render() for r in self.records)

    @property
    def searchable(self) -> str:
        """Every record's fields as normalized ``key: value`` text, records apart."""
        return "\x00".join(
            _norm(", ".join(f"{k}: {v}" for k, v in r.fields)) for r in self.records
        )


def _keyed_leaves(mention: Mention, hay: Haystack) -> list[LeafId]:
    index = {"ticker": hay.tickers, "date": hay.dates, "period": hay.periods, "code": hay.codes}.get(mention.kind)
    if index is not None:
        for key in mention.keys:
            if index.get(key):
                return index[key]
        if mention.kind == "ticker" and mention.value:
            return hay.tickers.get("base:" + mention.value, [])
        return []
    if mention.kind == "quote" and mention.keys:
        leaf = hay.find_text(mention.keys[0])
        return [leaf] if leaf is not None else []
    return []


def sentence_leaves(mentions: Iterable[Mention], hay: Haystack, per_value: int = 3) -> list[LeafId]:
    """The leaves the sentence's values and names were found at (a few per value)."""
    leaves: list[LeafId] = []
    for mention in mentions:
        if mention.kind in NUMERIC_KINDS:
            found = candidate_leaves(mention, hay) if not mention.invalid else []
        else:
            found = _keyed_leaves(mention, hay)
        leaves += found[:per_value]
    return list(dict.fromkeys(leaves))


def evidence_for(hay: Haystack, leaves: Iterable[LeafId], *, max_records: int = 8,
                 max_fields: int = 40, max_value_chars: int = 400) -> JudgeEvidence:
    """The records (enclosing objects or table rows) holding ``leaves``, first seen first.

    An object's scalar fields are shown, and those of the objects directly inside it
    (``consensus.rating``); arrays of records are left out (their rows are records of
    their own). A leaf that is an object key (``{"AAPL": {...}}``) stands for the
    object under it."""
    records: list[EvidenceRecord] = []
    seen: set[int] = set()
    for leaf in leaves:
        entry = hay.leaves[leaf]
        node = entry.node if leaf in hay.key_leaves else hay.parent(entry.node)
        if node in seen:
            continue
        seen.add(node)
        value = _resolve(hay, entry.tool, node)
        if isinstance(value, dict):
            fields = list(_object_fields(value, "", 1, max_value_chars))
        else:  # a table row or an array: its cells, labelled by column header or index
            fields = [(hay.leaves[c].key or hay.path(c).rsplit("[", 1)[-1].rstrip("]"),
                       hay.leaves[c].raw[:max_value_chars])
                      for c in dict.fromkeys(hay.children_leaves(node)) if c not in hay.key_leaves]
        if leaf in hay.key_leaves:
            fields.insert(0, ("(key)", entry.raw))
        records.append(EvidenceRecord(hay.tools[entry.tool].name, hay.path_of_node(node),
                                      tuple(fields[:max_fields])))
        if len(records) >= max_records:
            break
    return JudgeEvidence(tuple(records))


def _resolve(hay: Haystack, tool: int, node: int) -> Any:
    """The JSON value at ``node`` of a tool's output (None if it cannot be reached)."""
    segments = []
    while node >= 0 and hay.segment(node) is not None:
        segments.append(hay.segment(node))
        node = hay.parent(node)
    value = hay.tools[tool].output
    try:
        for segment in reversed(segments):
            value = value[segment]
    except (KeyError, IndexError, TypeError):
        return None
    return value


def _scalar_text(value: Any, limit: int) -> str:
    if isinstance(value, str):
        return value[:limit]
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return str(value)


def _object_fields(obj: dict[Any, Any], prefix: str, depth: int, limit: int) -> Iterator[tuple[str, str]]:
    for key, value in obj.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            if depth > 0:
                yield from _object_fields(value, name + ".", depth - 1, limit)
        elif isinstance(value, (list, tuple)):
            if value and len(value) <= 12 and not any(isinstance(v, (dict, list, tuple)) for v in value):
                yield name, ", ".join(_scalar_text(v, limit) for v in value)
        else:
            yield name, _scalar_text(value, limit)


_DROP = str.maketrans("", "", '"{}[]`')
_SEPARATORS = re.compile(r"[,;]\s+|\s+")


def _norm(text: str) -> str:
    """Text folded for quote checks: case, quote marks, dashes, JSON punctuation, separators."""
    text = quotes.normalize(fold(text)).translate(_DROP)
    return _SEPARATORS.sub(" ", text).strip(" .,;:'")


def quote_in_data(quote: str, evidence: JudgeEvidence, hay: Haystack) -> bool:
    """Whether the judge's ``quote`` appears in the tool data: in the records it was
    shown (as ``key: value`` text) or in any string of the data, after normalization."""
    wanted = _norm(quote)
    if len(wanted) < 2:
        return False
    if wanted in evidence.searchable:
        return True
    phrase = quotes.normalize(fold(quote)).strip(" \"'.,;:")
    return bool(phrase) and hay.find_text(phrase) is not None


# -- prompt and parsing ---------------------------------------------------------------

SYSTEM_PROMPT = (
    "You check one claim from a finance assistant's answer against the tool data the assistant "
    "was given. Judge only from the evidence shown, never from your own knowledge. Answer with "
    "one JSON object and nothing else: "
    '{"verdict": "supported" | "unsupported" | "partial", "quote": "<verbatim span copied from '
    'the evidence>", "reason": "<one short sentence>"}. '
    "supported: the evidence states everything the claim says; partial: it supports some of the "
    "claim but not all; unsupported: it does not support the claim or contradicts it. A "
    "recommendation, price target, guarantee or forecast the evidence does not state is "
    "unsupported. The quote must be copied character for character from the evidence (the "
    "shortest span that supports the claim; empty when there is none)."
)


def build_messages(claim: str, evidence: str) -> list[dict[str, str]]:
    """The chat messages for one claim: the instructions, then the claim and its evidence."""
    user = f"Claim:\n{claim.strip()}\n\nEvidence (tool data):\n{evidence}"
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)


def parse_reply(content: str) -> JudgeReply:
    """The verdict object in a reply's message content: the whole content, or the
    inside of its first fenced block. Anything else raises :class:`JudgeUnparseable`.

    >>> parse_reply('```json\\n{"verdict": "supported", "quote": "price: 142.3"}\\n```').verdict
    'supported'
    """
    text = content.strip() if isinstance(content, str) else ""
    if not text.startswith("{"):
        fenced = _FENCE.search(text)
        if fenced is None:
            raise JudgeUnparseable(f"unparseable judge output (not a JSON object): {text[:120]!r}")
        text = fenced.group(1).strip()
    try:
        return JudgeReply.model_validate_json(text)
    except ValidationError as exc:
        problem = exc.errors()[0]["msg"] if exc.errors() else str(exc)
        raise JudgeUnparseable(f"unparseable judge output ({problem}): {text[:120]!r}") from None


def _content_of(response: httpx.Response) -> str:
    try:
        body = response.json()
        content = body["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise JudgeUnparseable(
            f"unparseable judge output (not a chat completion): {response.text[:120]!r}") from None
    if not isinstance(content, str):
        raise JudgeUnparseable("unparseable judge output (no message content)")
    return content


# -- the client -----------------------------------------------------------------------


_RETRY_STATUS = frozenset({408, 429, 500, 502, 503, 504})


class OpenAIJudge:
    """A :class:`Judge` over an OpenAI-compatible ``/chat/completions`` endpoint.

    ``timeout`` bounds each attempt and ``budget`` the whole call, retries and backoff
    included (seconds), and so does the deadline in force when it is sooner; the reply is
    read in time or not at all (a server dripping bytes does not outlast it). 429, 5xx,
    timeouts and connection errors are retried up to ``retries`` times with exponential
    backoff (a ``Retry-After`` within the budget is honoured; a later one gives up); at most ``max_concurrency`` calls are in flight; the circuit
    breaker opens after ``breaker_threshold`` failed calls in a row. ``judge`` is the
    sync entry point (thread-safe), ``ajudge`` the async one (``httpx.AsyncClient``).
    """

    def __init__(
        self, base_url: str, model: str = "", *, api_key: str | None = None, timeout: float = 10.0,
        max_concurrency: int = 4, budget: float = 20.0, retries: int = 2, backoff: float = 0.25,
        breaker_threshold: int = 5, breaker_cooldown: float = 30.0, max_tokens: int = 300,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if not base_url or not base_url.startswith(("http://", "https://")):
            raise ValueError(f"judge URL must start with http:// or https://, got {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.url = self.base_url + "/chat/completions"
        self.model = model
        self.api_key = api_key
        self.timeout, self.budget, self.retries, self.backoff = timeout, budget, retries, backoff
        self.max_concurrency = max(1, max_concurrency)
        self.max_tokens = max_tokens
        self.breaker = CircuitBreaker(breaker_threshold, breaker_cooldown)
        self.json_mode = True  # dropped after a 400 that names response_format
        self._transport = transport
        self._client: httpx.Client | None = None
        self._aclient: httpx.AsyncClient | None = None
        self._slots = threading.BoundedSemaphore(self.max_concurrency)
        self._aslots: asyncio.Semaphore | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"OpenAIJudge({self.base_url!r}, model={self.model!r})"

    # -- request pieces shared by the sync and async paths

    def _body(self, claim: str, evidence: str) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model, "messages": build_messages(claim, evidence),
            "temperature": 0, "max_tokens": self.max_tokens,
        }
        if self.json_mode:
            body["response_format"] = {"type": "json_object"}
        return body

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def _outcome(self, response: httpx.Response, body: dict[str, Any]) -> JudgeReply | str:
        """The reply, or why to try again; raises for faults a retry will not fix."""
        status = response.status_code
        if status == 400 and "response_format" in body and "response_format" in response.text:
            self.json_mode = False  # the server has no JSON mode: ask again without it
            body.pop("response_format")
            return "the server refused JSON mode"
        if status in _RETRY_STATUS or status >= 500:
            return f"HTTP {status}"
        if status >= 400:
            raise JudgeUnavailable(f"judge answered HTTP {status}: {response.text[:160]!r}")
        return parse_reply(_content_of(response))

    def _pause(self, attempt: int, response: httpx.Response | None, deadline: float, last: str) -> float:
        delay = self.backoff * (2 ** attempt)
        if response is not None and response.headers.get("retry-after", "").strip().isdigit():
            delay = max(delay, float(response.headers["retry-after"]))
            if delay >= deadline - time.monotonic():  # no use waiting: give up now
                raise JudgeUnavailable(f"judge asked to retry after {delay:g}s, past the deadline ({last})")
        return max(0.0, min(delay, deadline - time.monotonic()))

    def _gate(self) -> float:
        if not self.breaker.allow():
            raise JudgeUnavailable(
                f"circuit breaker open after {self.breaker.failures} failed calls in a row; "
                f"retrying after {self.breaker.cooldown:g}s")
        outer = current()  # the request's deadline, when sooner than the judge's own budget
        return min(time.monotonic() + self.budget, outer.expires if outer else float("inf"))

    def _settle(self, failed: bool) -> None:
        if failed:
            self.breaker.failure()
        else:
            self.breaker.success()

    # -- sync

    def _sync_client(self) -> httpx.Client:
        import httpx

        with self._lock:
            if self._client is None:
                self._client = httpx.Client(transport=self._transport, follow_redirects=False)
            return self._client

    def judge(self, claim: str, evidence: str) -> JudgeReply:
        """The verdict on ``claim`` (blocking); raises :class:`JudgeError`."""
        deadline = self._gate()
        if not self._slots.acquire(timeout=max(0.0, deadline - time.monotonic())):
            raise JudgeUnavailable(f"all {self.max_concurrency} judge slots busy until the deadline")
        try:
            reply = self._attempts(claim, evidence, deadline)
        except JudgeError:
            self._settle(True)
            raise
        finally:
            self._slots.release()
        self._settle(False)
        return reply

    def _attempts(self, claim: str, evidence: str, deadline: float) -> JudgeReply:
        import httpx

        client, body, last = self._sync_client(), self._body(claim, evidence), "no attempt made"
        for attempt in range(self.retries + 1):
            wait = self._time_left(deadline, last)
            response = None
            try:
                with client.stream("POST", self.url, json=body, headers=self._headers(), timeout=wait) as r:
                    raw = b"".join(_in_time(chunk, deadline) for chunk in r.iter_raw())
                response = httpx.Response(r.status_code, headers=r.headers, content=raw, request=r.request)
                outcome = self._outcome(response, body)
            except httpx.TransportError as exc:
                outcome = _failure(exc, wait)
            if isinstance(outcome, JudgeReply):
                return outcome
            last = outcome
            if attempt < self.retries:
                time.sleep(self._pause(attempt, response, deadline, last))
        raise self._gave_up(last)

    def _time_left(self, deadline: float, last: str) -> float:
        """The timeout of the next attempt; the per-request budget or deadline spent is an error."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise JudgeUnavailable(f"per-request budget of {self.budget:g}s or deadline spent ({last})")
        return min(self.timeout, remaining)

    def _gave_up(self, last: str) -> JudgeUnavailable:
        return JudgeUnavailable(f"judge unavailable: {last} after {self.retries + 1} attempts")

    def close(self) -> None:
        """Close the sync HTTP client (the async one: :meth:`aclose`)."""
        if self._client is not None:
            self._client.close()
            self._client = None

    # -- async

    async def ajudge(self, claim: str, evidence: str) -> JudgeReply:
        """The verdict on ``claim`` without blocking the event loop; raises :class:`JudgeError`.
        Use one instance within one event loop (the service's)."""
        import httpx

        deadline = self._gate()
        if self._aslots is None:
            self._aslots = asyncio.Semaphore(self.max_concurrency)
        if self._aclient is None:
            transport = self._transport if isinstance(self._transport, httpx.AsyncBaseTransport) else None
            self._aclient = httpx.AsyncClient(transport=transport, follow_redirects=False)
        async with self._aslots:
            try:
                reply = await self._aattempts(self._aclient, claim, evidence, deadline)
            except JudgeError:
                self._settle(True)
                raise
        self._settle(False)
        return reply

    async def _aattempts(self, client: httpx.AsyncClient, claim: str, evidence: str,
                         deadline: float) -> JudgeReply:
        import httpx

        body, last = self._body(claim, evidence), "no attempt made"
        for attempt in range(self.retries + 1):
            wait = self._time_left(deadline, last)
            response = None
            try:
                async with client.stream("POST", self.url, json=body, headers=self._headers(),
                                         timeout=wait) as r:
                    raw = b"".join([_in_time(chunk, deadline) async for chunk in r.aiter_raw()])
                response = httpx.Response(r.status_code, headers=r.headers, content=raw, request=r.request)
                outcome = self._outcome(response, body)
            except httpx.TransportError as exc:
                outcome = _failure(exc, wait)
            if isinstance(outcome, JudgeReply):
                return outcome
            last = outcome
            if attempt < self.retries:
                await asyncio.sleep(self._pause(attempt, response, deadline, last))
        raise self._gave_up(last)

    async def aclose(self) -> None:
        """Close the async HTTP client."""
        if self._aclient is not None:
            await self._aclient.aclose()
            self._aclient = None


def _in_time(chunk: bytes, deadline: float) -> bytes:
    """A chunk of the reply, read before the deadline (each read has its own timeout: a
    server that drips a byte at a time would outlast it)."""
    import httpx

    if time.monotonic() > deadline:
        raise httpx.ReadTimeout("the reply was still arriving at the deadline")
    return chunk


def _failure(exc: Exception, wait: float) -> str:
    """What went wrong with one attempt that got no HTTP response."""
    import httpx

    if isinstance(exc, httpx.TimeoutException):
        return f"timed out after {wait:.2g}s"
    return f"connection error ({type(exc).__name__})"


_FROM_ENV: dict[tuple[str, str, str, str], Judge] = {}
_FROM_ENV_LOCK = threading.Lock()


class _Misconfigured:
    """The judge when its environment variables are unusable: every call is a fault, so
    high-stakes sentences say why they were not judged and the answer is still checked."""

    def __init__(self, problem: str) -> None:
        self.model = ""
        self.problem = problem

    def judge(self, claim: str, evidence: str) -> JudgeReply:
        """Always raises :class:`JudgeUnavailable` naming the configuration problem."""
        raise JudgeUnavailable(f"judge misconfigured: {self.problem}")


def judge_from_env(environ: Mapping[str, str] | None = None) -> Judge | None:
    """The judge the ``VERIFIER_JUDGE_*`` variables configure, or None when
    ``VERIFIER_JUDGE_URL`` is unset or empty (the judge is off). One client per
    configuration is kept, so its connections and circuit breaker last across calls.
    Unusable values give a judge whose every verdict is ``not_judged`` with the reason."""
    env = os.environ if environ is None else environ
    url = env.get("VERIFIER_JUDGE_URL", "").strip()
    if not url:
        return None
    key = (url, env.get("VERIFIER_JUDGE_MODEL", "").strip(), env.get("VERIFIER_JUDGE_API_KEY", ""),
           env.get("VERIFIER_JUDGE_TIMEOUT", "").strip())
    with _FROM_ENV_LOCK:
        if key not in _FROM_ENV:
            try:
                timeout = float(key[3]) if key[3] else 10.0
                if not timeout > 0:
                    raise ValueError
            except ValueError:
                _FROM_ENV[key] = _Misconfigured(
                    f"VERIFIER_JUDGE_TIMEOUT must be a positive number of seconds, got {key[3]!r}")
                return _FROM_ENV[key]
            try:
                _FROM_ENV[key] = OpenAIJudge(url, key[1], api_key=key[2] or None, timeout=timeout,
                                             budget=max(2 * timeout, timeout + 1))
            except ValueError as exc:
                _FROM_ENV[key] = _Misconfigured(f"VERIFIER_JUDGE_URL: {exc}")
        return _FROM_ENV[key]


# -- one sentence, every fault caught -------------------------------------------------


def _judgement(reply: JudgeReply | None, note: str, *, sentence: str, start: int, end: int,
               evidence: JudgeEvidence, hay: Haystack, model: str, started: float,
               trigger: Trigger, stakes: tuple[str, ...]) -> Judgement:
    latency = round((time.perf_counter() - started) * 1000, 2)
    common: dict[str, Any] = {"sentence": sentence, "start": start, "end": end, "model": model,
                                  "latency_ms": latency, "trigger": trigger, "stakes": list(stakes)}
    if reply is None:
        return Judgement(verdict="not_judged", reason=f"not judged: {note}", **common)
    verified = bool(reply.quote.strip()) and quote_in_data(reply.quote, evidence, hay)
    verdict: str = reply.verdict
    reason = reply.reason
    if verdict == "supported" and not verified:
        verdict = "unverified"
        reason = (f"the judge said supported, but its quote {reply.quote[:80]!r} is not in the tool data"
                  if reply.quote.strip() else "the judge said supported but gave no quote")
        reason += f" (judge's reason: {reply.reason})" if reply.reason else ""
    return Judgement(verdict=verdict, quote=reply.quote, quote_verified=verified, reason=reason,
                     **common)  # type: ignore[arg-type]


def judge_sentence(judge: Judge, *, sentence: str, start: int, end: int, evidence: JudgeEvidence,
                   hay: Haystack, trigger: Trigger = "high_stakes",
                   stakes: tuple[str, ...] = ()) -> Judgement:
    """Ask ``judge`` about one sentence and check its quote. Never raises: a fault is a
    ``not_judged`` Judgement whose reason says what went wrong."""
    started = time.perf_counter()
    model = str(getattr(judge, "model", "") or type(judge).__name__)
    reply, note = None, ""
    try:
        reply = judge.judge(sentence, evidence.text)
        if not isinstance(reply, JudgeReply):
            reply, note = None, f"the judge returned {type(reply).__name__}, not a JudgeReply"
    except JudgeError as exc:
        note = str(exc)
    except Exception as exc:  # noqa: BLE001  a user's judge may fail in any way; the answer must not
        note = f"the judge failed: {type(exc).__name__}: {exc}"
    return _judgement(reply, note, sentence=sentence, start=start, end=end, evidence=evidence, hay=hay,
                      model=model, started=started, trigger=trigger, stakes=stakes)


async def ajudge_sentence(judge: OpenAIJudge, *, sentence: str, start: int, end: int,
                          evidence: JudgeEvidence, hay: Haystack, trigger: Trigger = "high_stakes",
                          stakes: tuple[str, ...] = ()) -> Judgement:
    """:func:`judge_sentence` for the async client: never raises."""
    started = time.perf_counter()
    reply, note = None, ""
    try:
        reply = await judge.ajudge(sentence, evidence.text)
    except JudgeError as exc:
        note = str(exc)
    except Exception as exc:  # noqa: BLE001  the answer must not fail because the judge did
        note = f"the judge failed: {type(exc).__name__}: {exc}"
    return _judgement(reply, note, sentence=sentence, start=start, end=end, evidence=evidence, hay=hay,
                      model=judge.model, started=started, trigger=trigger, stakes=stakes)
