"""The model judge against a real HTTP server on loopback that speaks the
OpenAI-compatible chat-completions protocol, scripted per test: correct verdicts,
fabricated quotes, garbage, slow responses, 500s, 429s. No internet, no model."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES, SCENARIOS
from verifier import Haystack, Policy, verify
from verifier.judge import (
    JudgeEvidence,
    JudgeUnavailable,
    JudgeUnparseable,
    OpenAIJudge,
    ajudge_sentence,
    evidence_for,
    judge_from_env,
    parse_reply,
    quote_in_data,
)
from verifier.judge.evidence import sentence_leaves
from verifier.judge.stakes import high_stakes

Reply = dict[str, Any]  # {"verdict", "quote", "reason"} | {"content"} | {"status"}; "delay", "headers", "drip"


class ScriptedJudge:
    """A loopback server answering ``POST /v1/chat/completions`` from a script."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.script: Callable[[dict[str, Any]], Reply] = lambda body: {"verdict": "supported", "quote": ""}
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                owner.calls.append({"path": self.path, "body": body,
                                    "auth": self.headers.get("Authorization")})
                reply = owner.script(body)
                time.sleep(reply.get("delay", 0))
                status = reply.get("status", 200)
                if status != 200:
                    payload = json.dumps({"error": {"message": reply.get("error", "scripted failure")}})
                elif "raw" in reply:
                    payload = reply["raw"]
                else:
                    content = reply["content"] if "content" in reply else json.dumps(
                        {k: reply[k] for k in ("verdict", "quote", "reason") if k in reply})
                    payload = json.dumps({"id": "x", "object": "chat.completion", "model": body.get("model"),
                                          "choices": [{"index": 0, "finish_reason": "stop",
                                                       "message": {"role": "assistant", "content": content}}]})
                data = payload.encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for key, value in reply.get("headers", {}).items():
                        self.send_header(key, value)
                    self.end_headers()
                    if reply.get("drip"):  # a byte at a time, each after this many seconds
                        for i in range(len(data)):
                            time.sleep(reply["drip"])
                            self.wfile.write(data[i:i + 1])
                    else:
                        self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
                    pass

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.block_on_close = False  # type: ignore[attr-defined]
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def replies(self, *replies: Reply) -> None:
        """Answer with these in order; the last one repeats."""
        queue = list(replies)
        self.script = lambda body: queue.pop(0) if len(queue) > 1 else queue[0]

    def client(self, **options: Any) -> OpenAIJudge:
        """A client with short timeouts and backoff, as tests need."""
        settings: dict[str, Any] = {"timeout": 1.0, "budget": 3.0, "backoff": 0.01, "retries": 2}
        settings.update(options)
        return OpenAIJudge(self.url, "scripted-7b", **settings)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def server() -> Iterator[ScriptedJudge]:
    s = ScriptedJudge()
    yield s
    s.close()


def claim_of(body: dict[str, Any]) -> str:
    user = body["messages"][-1]["content"]
    return user.split("Claim:\n", 1)[1].split("\n\nEvidence", 1)[0]


SCENARIO_FILE = json.loads((FIXTURES / "judge" / "scenarios.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", SCENARIO_FILE["scenarios"], ids=lambda c: c["id"])
def test_judge_scenarios(server: ScriptedJudge, case: dict[str, Any]) -> None:
    server.replies(*case["replies"])
    judge = server.client()
    report = verify(case["answer"], case["tool_results"], policy=case.get("policy"), judge=judge)
    expect = case["expect"]
    assert len(server.calls) == expect["calls"]
    assert report.confidence == expect["confidence"]
    if "action" in expect:
        assert report.action == expect["action"]
    assert len(report.judgements) == len(expect["judgements"])
    for got, want in zip(report.judgements, expect["judgements"], strict=True):
        assert got.verdict == want["verdict"]
        assert got.model == "scripted-7b"
        assert case["answer"][got.start:got.end] == got.sentence
        for key in ("quote_verified", "stakes", "sentence", "trigger"):
            if key in want:
                assert getattr(got, key) == want[key], key
        if "reason_contains" in want:
            assert want["reason_contains"] in got.reason
            assert got.reason.startswith("not judged")
    if expect.get("same_as_without_judge"):
        off = verify(case["answer"], case["tool_results"], policy=case.get("policy"), judge=False)
        assert report.model_dump(exclude={"judgements"}) == off.model_dump(exclude={"judgements"})
    assert report.model_validate(report.model_dump()) == report  # the new field round-trips


def test_requests_follow_the_pinned_protocol(server: ScriptedJudge) -> None:
    server.replies({"verdict": "supported", "quote": "rating: Buy"})
    judge = OpenAIJudge(server.url + "/", "m-1", api_key="sk-test", timeout=1.0)
    tools = SCENARIO_FILE["scenarios"][0]["tool_results"]
    verify("The consensus rating on CRWD is a Buy.", tools, judge=judge)
    (call,) = server.calls
    assert call["path"] == "/v1/chat/completions"
    assert call["auth"] == "Bearer sk-test"
    body = call["body"]
    assert body["model"] == "m-1"
    assert body["response_format"] == {"type": "json_object"}
    assert claim_of(body) == "The consensus rating on CRWD is a Buy."
    user = body["messages"][-1]["content"]
    # only the records tied to the sentence: the CRWD record and its consensus block,
    # not the analysts' notes in the ratings array
    assert "rating: Buy" in user and "symbol: CRWD" in user
    assert "Platform consolidation" not in user


def test_evidence_is_the_records_tied_to_the_sentence_not_the_haystack() -> None:
    tools = json.loads((SCENARIOS / "02_screener_25.json").read_text())["tool_results"]
    hay = Haystack(tools)
    answer = "NVDA led the day, up 4.2% to $912.40."
    report = verify(answer, haystack=hay, judge=False)
    assert all(i.status == "exact" or i.status == "normalized" for i in report.items)
    from verifier.pipeline import State, run

    state = run(State(answer, hay, "en_US", Policy()), only=("extract", "match", "attribute"))
    evidence = evidence_for(hay, sentence_leaves([m for m, _ in state.matched], hay))
    assert len(evidence.records) == 1
    text = evidence.text
    assert "symbol: NVDA" in text and "912.4" in text
    assert "AVGO" not in text  # the next row of the 25 is not shown
    assert len(text) < 600


def test_no_url_means_no_judge_and_no_call(server: ScriptedJudge, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VERIFIER_JUDGE_URL", raising=False)
    assert judge_from_env() is None
    report = verify("You should buy AAPL at $142.30.", [{"name": "q", "output": {"symbol": "AAPL", "price": 142.3}}])
    assert report.judgements == [] and server.calls == []


def test_environment_configures_the_judge(server: ScriptedJudge, monkeypatch: pytest.MonkeyPatch) -> None:
    server.replies({"verdict": "partial", "quote": "price: 142.3", "reason": "no advice in the data"})
    monkeypatch.setenv("VERIFIER_JUDGE_URL", server.url)
    monkeypatch.setenv("VERIFIER_JUDGE_MODEL", "env-model")
    monkeypatch.setenv("VERIFIER_JUDGE_API_KEY", "k-env")
    monkeypatch.setenv("VERIFIER_JUDGE_TIMEOUT", "1")
    report = verify("You should buy AAPL at $142.30.", [{"name": "q", "output": {"symbol": "AAPL", "price": 142.3}}])
    assert [(j.verdict, j.model, j.quote_verified) for j in report.judgements] == [("partial", "env-model", True)]
    assert report.confidence == "medium"  # partial lowers confidence
    assert server.calls[0]["auth"] == "Bearer k-env"
    assert judge_from_env() is judge_from_env()  # one client (and breaker) per configuration
    # judge=False overrides the environment
    assert verify("You should buy AAPL.", [{"symbol": "AAPL"}], judge=False).judgements == []
    assert len(server.calls) == 1


def test_bad_environment_degrades_to_not_judged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIER_JUDGE_URL", "localhost:8000")  # no scheme
    report = verify("You should buy AAPL.", [{"symbol": "AAPL"}])
    (j,) = report.judgements
    assert j.verdict == "not_judged" and "misconfigured" in j.reason
    assert report.confidence == "high"


def test_retries_429_then_succeeds(server: ScriptedJudge) -> None:
    server.replies({"status": 429, "headers": {"Retry-After": "0"}}, {"status": 503},
                   {"verdict": "supported", "quote": "price: 142.3"})
    reply = server.client().judge("AAPL trades at $142.30.", "[q $]\nprice: 142.3")
    assert reply.verdict == "supported" and len(server.calls) == 3


def test_retries_are_bounded(server: ScriptedJudge) -> None:
    server.replies({"status": 429})
    judge = server.client(retries=1)
    with pytest.raises(JudgeUnavailable, match="HTTP 429 after 2 attempts"):
        judge.judge("claim", "evidence")
    assert len(server.calls) == 2


def test_client_errors_are_not_retried(server: ScriptedJudge) -> None:
    server.replies({"status": 401, "error": "bad key"})
    with pytest.raises(JudgeUnavailable, match="HTTP 401"):
        server.client().judge("claim", "evidence")
    assert len(server.calls) == 1


def test_server_without_json_mode_is_asked_again_without_it(server: ScriptedJudge) -> None:
    def script(body: dict[str, Any]) -> Reply:
        if "response_format" in body:
            return {"status": 400, "error": "unknown field response_format"}
        return {"verdict": "unsupported", "quote": ""}

    server.script = script
    judge = server.client()
    assert judge.judge("claim", "evidence").verdict == "unsupported"
    assert judge.judge("claim", "evidence").verdict == "unsupported"
    assert ["response_format" in c["body"] for c in server.calls] == [True, False, False]


def test_slow_judge_times_out_within_the_budget(server: ScriptedJudge) -> None:
    server.replies({"verdict": "supported", "quote": "x", "delay": 0.6})
    judge = server.client(timeout=0.15, budget=0.4, retries=5)
    t0 = time.perf_counter()
    report = verify("You should buy AAPL.", [{"symbol": "AAPL"}], judge=judge)
    elapsed = time.perf_counter() - t0
    (j,) = report.judgements
    assert j.verdict == "not_judged"
    assert "timed out" in j.reason or "budget" in j.reason
    assert elapsed < 0.9  # the per-request budget bounds the call, retries included
    assert report.confidence == "high"


def test_circuit_breaker_opens_after_repeated_failures(server: ScriptedJudge) -> None:
    server.replies({"status": 500})
    judge = server.client(retries=0, breaker_threshold=2, breaker_cooldown=60)
    for _ in range(2):
        with pytest.raises(JudgeUnavailable, match="HTTP 500"):
            judge.judge("claim", "evidence")
    with pytest.raises(JudgeUnavailable, match="circuit breaker open"):
        judge.judge("claim", "evidence")
    assert len(server.calls) == 2  # the third call never left
    report = verify("You should buy AAPL.", [{"symbol": "AAPL"}], judge=judge)
    assert "circuit breaker open" in report.judgements[0].reason


def test_breaker_lets_a_trial_through_after_the_cooldown(server: ScriptedJudge) -> None:
    server.replies({"status": 500}, {"verdict": "supported", "quote": "symbol: AAPL"})
    judge = server.client(retries=0, breaker_threshold=1, breaker_cooldown=0.05)
    with pytest.raises(JudgeUnavailable):
        judge.judge("claim", "evidence")
    assert judge.breaker.is_open
    time.sleep(0.06)
    assert judge.judge("claim", "evidence").verdict == "supported"
    assert not judge.breaker.is_open


def test_connection_refused_is_not_judged() -> None:
    judge = OpenAIJudge("http://127.0.0.1:9/v1", "m", timeout=0.2, budget=0.5, retries=1, backoff=0.01)
    report = verify("You should buy AAPL.", [{"symbol": "AAPL"}], judge=judge)
    (j,) = report.judgements
    assert j.verdict == "not_judged" and "connection error" in j.reason


@pytest.mark.parametrize("content", [
    "Sure! It's supported.",
    '{"verdict": "true", "quote": "x"}',
    '{"quote": "x"}',
    "[1, 2]",
    '{"verdict": "supported", "quote": ',
])
def test_garbage_is_unparseable(content: str) -> None:
    with pytest.raises(JudgeUnparseable):
        parse_reply(content)


def test_parse_reply_accepts_fenced_blocks_and_case() -> None:
    assert parse_reply('Here you go:\n```json\n{"verdict": "Partial", "quote": "a b"}\n```').verdict == "partial"
    assert parse_reply('```\n{"verdict": "unsupported"}\n```').quote == ""
    assert parse_reply(' {"verdict": "supported", "quote": null, "extra": 1} ').quote == ""


def test_not_a_chat_completion_is_unparseable(server: ScriptedJudge) -> None:
    server.replies({"raw": '{"result": "supported"}'})
    with pytest.raises(JudgeUnparseable, match="not a chat completion"):
        server.client().judge("claim", "evidence")


def test_quote_check_normalizes_but_never_invents() -> None:
    tools = [{"name": "news", "output": {"symbol": "NKE", "price": 71.2,
                                         "headline": "Nike CEO says company is “making real progress”"}}]
    hay = Haystack(tools)
    evidence = evidence_for(hay, [0, 1])
    assert quote_in_data('"price": 71.2', evidence, hay)          # JSON punctuation aside
    assert quote_in_data("symbol: nke,  price: 71.2", evidence, hay)
    assert quote_in_data('making real "progress"', evidence, hay)  # curly vs straight quotes
    assert not quote_in_data("making great progress", evidence, hay)
    assert not quote_in_data("price: 71.25", evidence, hay)
    assert not quote_in_data("", evidence, hay)
    assert not quote_in_data("x", JudgeEvidence(()), hay)


def test_sampled_traffic_is_recorded_not_applied(server: ScriptedJudge) -> None:
    server.replies({"verdict": "unsupported", "quote": "", "reason": "monitoring"})
    answer = "AAPL rose 1.43% to $142.30. Volume was 2,236,000 shares."
    tools = [{"name": "q", "output": {"symbol": "AAPL", "price": 142.3, "change_pct": 1.43, "volume": 2236000}}]
    report = verify(answer, tools, judge=server.client(), policy={"judge_sample_rate": 1.0})
    assert [j.trigger for j in report.judgements] == ["sampled", "sampled"]
    assert report.confidence == "high"
    assert verify(answer, tools, judge=server.client(), policy={"judge_sample_rate": 0.0}).judgements == []
    assert len(server.calls) == 2


def test_judged_sentences_are_capped_per_answer(server: ScriptedJudge) -> None:
    server.replies({"verdict": "supported", "quote": "symbol: AAPL"})
    answer = "You should buy AAPL. You should hold AAPL. You should sell AAPL."
    report = verify(answer, [{"symbol": "AAPL"}], judge=server.client(), policy={"judge_max_sentences": 2})
    assert [j.verdict for j in report.judgements] == ["supported", "supported", "not_judged"]
    assert "judge_max_sentences" in report.judgements[2].reason
    assert len(server.calls) == 2


def test_concurrent_sentences_respect_max_concurrency(server: ScriptedJudge) -> None:
    in_flight, peak, lock = [0], [0], threading.Lock()

    def script(body: dict[str, Any]) -> Reply:
        with lock:
            in_flight[0] += 1
            peak[0] = max(peak[0], in_flight[0])
        time.sleep(0.05)
        with lock:
            in_flight[0] -= 1
        return {"verdict": "supported", "quote": "symbol: AAPL"}

    server.script = script
    answer = " ".join(f"You should buy AAPL, reason {w}." for w in ("one", "two", "three", "four", "five", "six"))
    report = verify(answer, [{"symbol": "AAPL"}], judge=server.client(max_concurrency=2))
    assert len(report.judgements) == 6 and {j.verdict for j in report.judgements} == {"supported"}
    assert peak[0] == 2


def test_a_user_judge_that_raises_anything_is_not_judged() -> None:
    class Broken:
        model = "broken"

        def judge(self, claim: str, evidence: str) -> Any:
            raise RuntimeError("boom")

    report = verify("You should buy AAPL.", [{"symbol": "AAPL"}], judge=Broken())
    assert report.judgements[0].verdict == "not_judged" and "boom" in report.judgements[0].reason


def test_async_entry_point(server: ScriptedJudge) -> None:
    server.replies({"verdict": "supported", "quote": "symbol: AAPL"})
    hay = Haystack([{"name": "q", "output": {"symbol": "AAPL", "price": 142.3}}])
    evidence = evidence_for(hay, hay.tickers["AAPL"])

    async def main() -> list[Any]:
        judge = server.client()
        try:
            return await asyncio.gather(*(
                ajudge_sentence(judge, sentence="Buy AAPL.", start=0, end=9, evidence=evidence, hay=hay)
                for _ in range(3)))
        finally:
            await judge.aclose()

    results = asyncio.run(main())
    assert [(j.verdict, j.quote_verified) for j in results] == [("supported", True)] * 3
    assert len(server.calls) == 3


def test_golden_answers_without_high_stakes_never_call_the_judge(server: ScriptedJudge) -> None:
    server.replies({"verdict": "unsupported", "quote": ""})
    judge = server.client()
    quiet = judged = 0
    for path in sorted(SCENARIOS.glob("*.json")):
        scenario = json.loads(path.read_text(encoding="utf-8"))
        hay = Haystack(scenario["tool_results"], locale=scenario["locale"])
        for answer in scenario["answers"]:
            before = len(server.calls)
            report = verify(answer["text"], haystack=hay, locale=scenario["locale"], judge=judge)
            if not high_stakes(answer["text"]):
                quiet += 1
                assert len(server.calls) == before and report.judgements == [], answer["id"]
            elif report.judgements:
                judged += 1
    assert quiet > 100 and judged > 0  # most golden answers are plain market data


# -- judge-eval and the command line --------------------------------------------------

EVAL_SCRIPT = json.loads((FIXTURES / "judge" / "eval_script.json").read_text(encoding="utf-8"))["replies"]


def test_judge_eval_measures_the_scripted_judge(server: ScriptedJudge) -> None:
    from verifier.evaluation.judge_eval import load_cases, run

    server.script = lambda body: EVAL_SCRIPT[claim_of(body)]
    cases = load_cases(FIXTURES / "judge" / "eval.jsonl")
    result = run(cases, server.client(retries=0), "eval.jsonl")
    assert (result.cases, result.judged, result.not_judged) == (12, 11, 1)
    assert result.agreement == round(8 / 11, 4)
    assert (result.precision, result.recall) == (0.6, 0.75)
    assert result.quote_verified_rate == round(5 / 6, 4)
    assert sorted(result.disagreements) == ["msft_price", "risk_free_growth", "share_counts"]
    assert result.confusion["unsupported"] == {"unsupported": 2, "unverified": 1, "supported": 1}
    assert result.errors[0].startswith("gs_rating_garbage: not judged: unparseable")


def test_judge_eval_rejects_a_sentence_not_in_its_answer(tmp_path: Any) -> None:
    from verifier import InputError
    from verifier.evaluation.judge_eval import load_cases

    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "x", "tool_results": [], "sentence": "A.", "answer": "B.",
                               "label": "supported"}) + "\n")
    with pytest.raises(InputError, match=r"bad.jsonl:1: the sentence is not in the answer"):
        load_cases(bad)
    bad.write_text(json.dumps({"id": "x", "tool_results": [], "sentence": "A.", "label": "true"}) + "\n")
    with pytest.raises(InputError, match="label"):
        load_cases(bad)


def _cli(*args: str, env: dict[str, str] | None = None) -> Any:
    import os
    import subprocess
    import sys

    environ = {k: v for k, v in os.environ.items() if not k.startswith("VERIFIER_JUDGE_")}
    environ.update(env or {})
    return subprocess.run([sys.executable, "-m", "verifier.cli", *args], capture_output=True, text=True,
                          timeout=60, check=False, env=environ)


def test_cli_check_with_judge_url(server: ScriptedJudge, tmp_path: Any) -> None:
    server.replies({"verdict": "supported", "quote": "not in the data at all"})
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([{"name": "q", "output": {"symbol": "AAPL", "price": 142.30}}]))
    answer = tmp_path / "answer.txt"
    answer.write_text("AAPL trades at $142.30. You should buy AAPL.\n")
    res = _cli("check", "--tools", str(tools), "--answer", str(answer), "--format", "json",
               "--judge-url", server.url, "--judge-model", "cli-model")
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    assert report["confidence"] == "medium"
    (j,) = report["judgements"]
    assert (j["verdict"], j["model"], j["sentence"]) == ("unverified", "cli-model", "You should buy AAPL.")
    assert server.calls[0]["body"]["model"] == "cli-model"
    res = _cli("check", "--tools", str(tools), "--answer", str(answer), "--judge-url", "nowhere")
    assert res.returncode == 2 and "--judge-url" in res.stderr


def test_cli_judge_eval(server: ScriptedJudge, tmp_path: Any) -> None:
    server.script = lambda body: EVAL_SCRIPT[claim_of(body)]
    out = tmp_path / "out.json"
    res = _cli("judge-eval", str(FIXTURES / "judge" / "eval.jsonl"), "--no-progress", "--json", str(out),
               env={"VERIFIER_JUDGE_URL": server.url, "VERIFIER_JUDGE_MODEL": "env-model"})
    assert res.returncode == 0, res.stderr
    assert "agreement" in res.stdout and "0.727" in res.stdout
    assert json.loads(out.read_text())["model"] == "env-model"
    res = _cli("judge-eval", str(FIXTURES / "judge" / "eval.jsonl"))
    assert res.returncode == 2 and "no judge configured" in res.stderr


def test_judge_eval_fails_when_the_judge_answered_nothing() -> None:
    # nothing listens on port 9: every sentence is not judged, so no figure means anything
    dataset = str(Path(__file__).resolve().parents[2] / "fixtures" / "judge" / "eval.jsonl")
    res = _cli("judge-eval", dataset, "--judge-url", "http://127.0.0.1:9/v1",
               "--judge-model", "m", "--no-progress")
    assert res.returncode == 1 and "answered none" in res.stderr
