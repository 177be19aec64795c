"""The model judge's HTTP client: any OpenAI-compatible chat-completions endpoint (vLLM,
llama.cpp server, Ollama, hosted APIs), sync and async, with bounded retries, a time
budget, a concurrency limit and a circuit breaker.

Every fault is raised as a :class:`~verifier.judge.protocol.JudgeError`
(:class:`~verifier.judge.protocol.JudgeUnavailable` when the judge cannot be reached or
does not answer in time, :class:`~verifier.judge.protocol.JudgeUnparseable` when the
reply is not the verdict object); :mod:`.sentence` turns it into a ``not_judged``
verdict. The environment's configuration of it: :mod:`.env`.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import TYPE_CHECKING, Any

from ..deadline import current
from .breaker import CircuitBreaker
from .prompt import build_messages, parse_reply
from .protocol import JudgeError, JudgeReply, JudgeUnavailable, JudgeUnparseable

if TYPE_CHECKING:  # httpx is imported on first use: ``import verifier`` stays light
    import httpx


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
