"""High-stakes sentence detection: the lexicon (stoplists/high_stakes.txt), the rules for
buy/sell/hold, sentence spans, and the user's extra phrases."""

from __future__ import annotations

import pytest

from verifier import stoplists
from verifier.judge.stakes import find_stakes, high_stakes, lexicon, parse_entry


def reasons(text: str, extra: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    return [s.reasons for s in high_stakes(text, extra)]


@pytest.mark.parametrize("text, category", [
    ("Buy AAPL before the print.", "recommendation"),
    ("- Sell TSLA into strength", "recommendation"),
    ("I'd trim NVDA here.", "recommendation"),
    ("We think you should probably sell MSFT.", "recommendation"),
    ("Morgan Stanley upgraded CRWD to Overweight.", "recommendation"),
    ("Goldman rates NVDA a Buy.", "recommendation"),
    ("Analysts moved the stock to a Hold.", "recommendation"),
    ("The 12-month price target is $210.", "price_target"),
    ("Jefferies has a PT of $500.", "price_target"),
    ("Your portfolio is up 12% this year.", "pnl"),
    ("Unrealized gains total $25,846.60.", "pnl"),
    ("You've made $4,000 on NVDA.", "pnl"),
    ("Today's P&L is -$1,234.", "pnl"),
    ("This trade is risk-free.", "guarantee"),
    ("Returns are guaranteed.", "guarantee"),
    ("You should rebalance.", "advice"),
    ("I recommend adding to the position.", "advice"),
    ("NVDA will double by next year.", "forecast"),
])
def test_high_stakes_wording_is_tagged_with_its_category(text: str, category: str) -> None:
    (found,) = reasons(text)
    assert category in found


@pytest.mark.parametrize("text", [
    "One dollar buys EUR 0.9223.",
    "Funds that hold AAPL rose 2%.",
    "Sell-side analysts expect $2.1bn of revenue.",
    "Short interest is 19.5 million shares.",
    "Best Buy reported revenue of $10bn.",
    "The screen returned 25 names.",
    "Buyback authorisation was $90bn.",
    "The Fed's rate stands at 4.25%.",
    "AAPL closed at $142.30, up 1.4%.",
    "The fund holds 412 positions.",
])
def test_plain_market_data_is_not_high_stakes(text: str) -> None:
    assert reasons(text) == []


def test_sentence_spans_are_trimmed_and_point_into_the_answer() -> None:
    answer = "AAPL closed at $142.30.  You should buy it. MSFT fell 1%.\nHold MSFT."
    found = high_stakes(answer)
    assert [s.text for s in found] == ["You should buy it.", "Hold MSFT."]
    for s in found:
        assert answer[s.start:s.end] == s.text
        assert all(s.start <= stake.start < s.end for stake in s.stakes)


def test_every_stake_keeps_its_span() -> None:
    answer = "It is a sure thing, you must buy."
    for stake in find_stakes(answer):
        assert answer[stake.start:stake.end] == stake.text
    assert {s.category for s in find_stakes(answer)} == {"guarantee", "advice", "recommendation"}


def test_users_extend_the_lexicon() -> None:
    text = "This small cap is a moonshot. It has tenbagger potential."
    assert reasons(text) == []
    assert reasons(text, ("moonshot", "speculation: tenbagger*")) == [("custom",), ("speculation",)]


def test_stem_star_lets_the_word_go_on_and_whole_words_only() -> None:
    assert reasons("They guaranteed it.") == [("guarantee",)]
    assert reasons("Loan guarantors met.") == []  # "guarantee*" does not match "guarantor"
    assert reasons("The repnl field.") == []  # "pnl" only as a word


def test_lexicon_file_parses_and_says_its_source() -> None:
    text = (stoplists.__path__[0] + "/high_stakes.txt")
    with open(text, encoding="utf-8") as fh:
        header = fh.read(2000)
    assert "Source:" in header
    cats = lexicon()
    assert {"recommendation", "price_target", "pnl", "guarantee", "advice"} <= set(cats)
    assert all(p and "|" not in p for phrases in cats.values() for p in phrases)
    assert parse_entry("price_target: price target|PT") == ("price_target", ["price target", "PT"])
    assert parse_entry("note: the 10:30 call")[0] == "note"
    assert parse_entry("at 10:30 sharp")[0] == "custom"  # not a category name before the colon


def test_policy_phrases_reach_the_pipeline() -> None:
    from verifier import Policy, verify
    from verifier.judge import JudgeReply

    class Recorder:
        model = "recorder"

        def __init__(self) -> None:
            self.claims: list[str] = []

        def judge(self, claim: str, evidence: str) -> JudgeReply:
            self.claims.append(claim)
            return JudgeReply(verdict="supported", quote="symbol: SMCI")

    recorder = Recorder()
    tools = [{"name": "q", "output": {"symbol": "SMCI", "price": 41.2}}]
    answer = "SMCI is at $41.20. It is a moonshot."
    assert verify(answer, tools, judge=recorder).judgements == []
    report = verify(answer, tools, judge=recorder, policy=Policy(judge_extra_phrases=("moonshot",)))
    assert recorder.claims == ["It is a moonshot."]
    assert [(j.verdict, j.stakes) for j in report.judgements] == [("supported", ["custom"])]
    assert verify(answer, tools, judge=recorder,
                  policy={"judge_extra_phrases": ["moonshot"], "judge_high_stakes": False}).judgements == []
