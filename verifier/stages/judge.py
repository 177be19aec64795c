"""judge: the model judge's verdicts on the sentences the Policy picks (high-stakes ones
by default); its quotes are checked against the data, every fault is ``not_judged``.
Under a deadline the judge gets what is left of it (less a little, kept for the
report): a sentence it has not answered by then is ``not_judged``."""

from __future__ import annotations

import contextvars
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait

from ..deadline import Deadline, current
from ..judge.evidence import evidence_for, sentence_leaves
from ..judge.protocol import Trigger
from ..judge.sentence import judge_sentence
from ..judge.stakes import high_stakes
from ..models import Judgement
from ..state import State
from ..text.splitter import sentence_spans, sentence_starts

REQUIRES = frozenset({"judge", "answer", "matched", "haystack", "policy"})
ASSIGNS = frozenset({"judgements", "matched"})

#: One sentence to judge: (start, end, trigger, high-stakes reasons).
Job = tuple[int, int, Trigger, tuple[str, ...]]


def _judge_plan(state: State) -> list[tuple[int, int, Trigger, tuple[str, ...]]]:
    """The sentences to judge, highest priority first: high-stakes sentences whose values
    all passed, then (if asked) sentences with a flagged value, then the monitoring sample."""
    policy, answer = state.policy, state.answer
    sampled = policy.judge_sample_rate > 0 and (
        zlib.crc32(answer.encode("utf-8", "surrogatepass")) / 2**32 < policy.judge_sample_rate)
    if not (policy.judge_high_stakes or policy.judge_flagged or sampled):
        return []
    stakes = {(s.start, s.end): s.reasons for s in high_stakes(answer, policy.judge_extra_phrases)}
    if not (stakes or sampled) and not (policy.judge_flagged and any(i.flagged for _, i in state.matched)):
        return []  # the common case: nothing to ask, no further work
    plan: dict[Trigger, list[tuple[int, int, Trigger, tuple[str, ...]]]] = {
        "high_stakes": [], "flagged": [], "sampled": []}
    for start, end in sentence_spans(answer):
        reasons = stakes.get((start, end), ())
        flagged = any(i.flagged for m, i in state.matched if start <= m.start < end)
        trigger: Trigger | None = (
            "high_stakes" if reasons and not flagged and policy.judge_high_stakes else
            "flagged" if flagged and policy.judge_flagged else "sampled" if sampled else None)
        if trigger is not None:
            plan[trigger].append((start, end, trigger, reasons))
    return plan["high_stakes"] + plan["flagged"] + plan["sampled"]


def run(state: State) -> None:
    """Ask the model judge about the sentences the Policy picks (high-stakes ones by
    default). Each verdict's quote is checked against the tool data; every fault is a
    ``not_judged`` verdict with a note. A verified ``supported`` on a flagged sentence
    (``Policy.judge_flagged``) clears its flags; lowering confidence is left to ``score``."""
    judge = state.judge
    if judge is None:
        return
    plan = _judge_plan(state)
    if not plan:
        return
    cap = state.policy.judge_max_sentences
    asked, skipped = plan[:cap], plan[cap:]

    def ask(job: Job) -> Judgement:
        start, end, trigger, reasons = job
        mentions = [m for m, _ in state.matched if start <= m.start < end]
        if not mentions:  # "It is a buy.": the values of the sentence before say what "it" is
            before = [m for m, _ in state.matched if m.start < start]
            if before:
                left = max(s for s in sentence_starts(state.answer) if s <= before[-1].start)
                mentions = [m for m in before if m.start >= left]
        evidence = evidence_for(state.haystack, sentence_leaves(mentions, state.haystack))
        return judge_sentence(judge, sentence=state.answer[start:end], start=start, end=end,
                              evidence=evidence, hay=state.haystack, trigger=trigger, stakes=reasons)

    workers = min(len(asked), max(1, int(getattr(judge, "max_concurrency", 4))))
    model = str(getattr(judge, "model", ""))
    deadline = current()
    if deadline is not None:
        judgements = _in_time(ask, asked, deadline, workers, model, state.answer)
    elif workers <= 1:
        judgements = [ask(job) for job in asked]
    else:
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="judge") as pool:
            judgements = list(pool.map(ask, asked))
    judgements += [
        Judgement(sentence=state.answer[start:end], start=start, end=end, verdict="not_judged",
                  reason=f"not judged: over the limit of {cap} judged sentences per answer "
                  "(Policy.judge_max_sentences)", model=model, trigger=trigger, stakes=list(reasons))
        for start, end, trigger, reasons in skipped
    ]
    state.judgements = sorted(judgements, key=lambda j: j.start)
    for j in state.judgements:
        if j.trigger == "flagged" and j.verdict == "supported" and j.quote_verified:
            state.matched = [
                (m, item.model_copy(update={
                    "flagged": False,
                    "reason": f"{item.reason}; cleared by the model judge ({j.model}), which found the "
                              f"sentence supported and quoted {j.quote[:80]!r} from the tool data"}))
                if item.flagged and j.start <= m.start < j.end else (m, item)
                for m, item in state.matched
            ]


#: What the judge leaves of a deadline for the stages after it (the report): a tenth of
#: the deadline, at most this many seconds.
RESERVE_S = 0.25


def _in_time(ask: Callable[[Job], Judgement], asked: list[Job], deadline: Deadline, workers: int,
             model: str, answer: str) -> list[Judgement]:
    """``ask`` each job on its own thread under what is left of ``deadline`` (less the
    reserve); one the judge has not answered by then is ``not_judged``, its thread left
    to finish on its own (a judge of ours gives up at the same deadline)."""
    left_ms = (deadline.remaining() - min(RESERVE_S, deadline.ms / 10_000)) * 1000
    if left_ms <= 0:
        return [_late(job, model, "no time was left of the deadline", answer) for job in asked]
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="judge")
    with Deadline(left_ms).active() as until:  # the judge's own calls see it (OpenAIJudge)
        futures = [pool.submit(contextvars.copy_context().run, ask, job) for job in asked]
        wait(futures, timeout=max(0.0, until.remaining()))
    pool.shutdown(wait=False, cancel_futures=True)
    return [f.result() if f.done() and not f.cancelled() else
            _late(job, model, "the judge had not answered by the deadline", answer)
            for f, job in zip(futures, asked, strict=True)]


def _late(job: Job, model: str, why: str, answer: str) -> Judgement:
    start, end, trigger, reasons = job
    return Judgement(sentence=answer[start:end], start=start, end=end, verdict="not_judged", reason=f"not judged: {why}",
                     model=model, trigger=trigger, stakes=list(reasons))
