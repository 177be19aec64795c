"""The judge the environment configures (:func:`judge_from_env`).

Configuration (the pinned interface): ``VERIFIER_JUDGE_URL`` (base URL; requests go to
``{URL}/chat/completions``), ``VERIFIER_JUDGE_MODEL``, ``VERIFIER_JUDGE_API_KEY``
(optional bearer token); ``VERIFIER_JUDGE_TIMEOUT`` (seconds per attempt, default 10; the
whole call, retries included, gets twice that) is optional. A deadline in force
(``verifier.deadline``: ``Policy.deadline_ms``, the service's time budget) bounds the
whole call too, as one overall deadline, not per read (see :mod:`.client`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping

from .protocol import Judge, JudgeReply, JudgeUnavailable

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
            # The HTTP client (and asyncio with it) is imported only when a judge is
            # configured: the plain verify path never needs it (issue 21).
            from .client import OpenAIJudge

            try:
                _FROM_ENV[key] = OpenAIJudge(url, key[1], api_key=key[2] or None, timeout=timeout,
                                             budget=max(2 * timeout, timeout + 1))
            except ValueError as exc:
                _FROM_ENV[key] = _Misconfigured(f"VERIFIER_JUDGE_URL: {exc}")
        return _FROM_ENV[key]
