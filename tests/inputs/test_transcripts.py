"""Transcripts: OpenAI chat, OpenAI Responses, Anthropic and LangChain messages verify
like the explicit ``verify`` call they stand for; malformed ones name the message."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import FIXTURES
from verifier import InputError, TranscriptError, verify, verify_messages
from verifier.inputs.jsonio import load_path
from verifier.inputs.transcripts import (
    FORMATS,
    csv_table,
    markdown_tables,
    parse_text,
    read_transcript,
)
from verifier.models import SUPPORTED_STATUSES

TRANSCRIPTS = sorted((FIXTURES / "transcripts").glob("*.json"))
FIXTURE_CASES = [pytest.param(load_path(path), id=path.stem) for path in TRANSCRIPTS]


# -- fixtures: the done-when ------------------------------------------------------------


@pytest.mark.parametrize("fixture", FIXTURE_CASES)
def test_fixture_verifies_to_the_same_report_as_the_explicit_call(fixture):
    got = verify_messages(fixture["messages"], locale=fixture["locale"])
    expected = verify(**fixture["expected_call"], locale=fixture["locale"])
    assert got.model_dump() == expected.model_dump()


@pytest.mark.parametrize("fixture", FIXTURE_CASES)
def test_fixture_reads_into_the_explicit_call_arguments(fixture):
    call = fixture["expected_call"]
    for fmt in ("auto", fixture["format"]):
        t = read_transcript(fixture["messages"], format=fmt)
        assert t.format == fixture["format"]
        assert (t.answer, t.question) == (call["answer"], call["question"])
        assert t.tool_results == call["tool_results"]  # name, id, output (Decimal numbers), arguments
        assert t.history == (call["history"] or [])


@pytest.mark.parametrize("fixture", FIXTURE_CASES)
def test_fixture_evidence_points_back_to_the_tool_call(fixture):
    report = verify_messages(fixture["messages"], locale=fixture["locale"])
    items = {item.text: item for item in report.items}
    for exp in fixture["expect"]["items"]:
        item = items[exp["text"]]
        if exp["status"] == "supported":
            assert item.status in SUPPORTED_STATUSES, (exp, item.reason)
        else:
            assert item.status == exp["status"], (exp, item.reason)
        assert item.evidence[0].tool_id == exp["tool_id"]
        assert item.evidence[0].history is (exp["status"] == "stale")
        if "path" in exp:
            assert item.evidence[0].path == exp["path"]
    assert report.confidence == fixture["expect"]["confidence"]


def test_fixtures_cover_every_format_multi_turn_errors_and_tables():
    fixtures = [load_path(path) for path in TRANSCRIPTS]
    assert {f["format"] for f in fixtures} == set(FORMATS)
    read = {f["id"]: read_transcript(f["messages"]) for f in fixtures}
    for fmt in FORMATS:
        ours = [f for f in fixtures if f["format"] == fmt]
        assert any(f["expected_call"]["history"] for f in ours), f"{fmt}: no multi-turn fixture"
        assert any(len(f["expected_call"]["tool_results"]) >= 2 for f in ours), f"{fmt}: no parallel calls"
    assert read["anthropic_multi_turn"].errors == {"toolu_02Cmcsa"}
    assert read["langchain_dict_multi_turn"].errors == {"call_fx_xyz"}
    tables = [r["output"] for t in read.values() for r in t.tool_results
              if isinstance(r["output"], dict) and ("columns" in r["output"] or "tables" in r["output"])]
    assert len(tables) >= 4


# -- reading the turn -------------------------------------------------------------------

QUOTE = '{"symbol": "AAPL", "price": 190.10, "change_pct": 1.2}'


def _anthropic_turn(question: str, call_id: str, output: str, answer: str) -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": question},
        {"role": "assistant", "content": [{"type": "text", "text": "Checking the quote."},
                                          {"type": "tool_use", "id": call_id, "name": "get_quote",
                                           "input": {"symbol": "AAPL"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": output}]},
        {"role": "assistant", "content": [{"type": "text", "text": answer}]},
    ]


def test_text_before_the_tool_calls_is_not_the_answer_and_tool_results_do_not_start_a_turn():
    t = read_transcript(_anthropic_turn("Quote AAPL", "toolu_1", QUOTE, "AAPL is at $190.10."))
    assert t.question == "Quote AAPL" and t.turn_start == 0
    assert t.answer == "AAPL is at $190.10."
    assert t.tool_results[0]["output"] == {"symbol": "AAPL", "price": Decimal("190.10"), "change_pct": Decimal("1.2")}
    assert str(t.tool_results[0]["output"]["price"]) == "190.10"  # JSON read as Decimal, trailing zero kept


def test_earlier_turns_become_history_and_their_values_are_stale():
    messages = (_anthropic_turn("Quote AAPL", "toolu_1", '{"symbol": "AAPL", "price": 187.2}', "AAPL is at $187.20.")
                + _anthropic_turn("And now?", "toolu_2", QUOTE, "AAPL is at $190.10, it was $187.20."))
    t = read_transcript(messages)
    assert t.turn_start == 4 and t.question == "And now?"
    assert [r["id"] for r in t.tool_results] == ["toolu_2"] and [r["id"] for r in t.history] == ["toolu_1"]
    items = {i.text: i for i in verify_messages(messages).items}
    assert items["$190.10"].status == "exact" and items["$190.10"].evidence[0].tool_id == "toolu_2"
    assert items["$187.20"].status == "stale" and items["$187.20"].evidence[0].tool_id == "toolu_1"


def test_final_text_blocks_join_as_written_and_final_messages_by_a_blank_line():
    messages = [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Quote AAPL"}]},
        {"type": "function_call", "call_id": "c1", "name": "get_quote", "arguments": '{"symbol": "AAPL"}'},
        {"type": "function_call_output", "call_id": "c1", "output": QUOTE},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "AAPL is at "},
                                                             {"type": "output_text", "text": "$190.10."}]},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Up 1.2%."}]},
    ]
    t = read_transcript(messages)
    assert t.format == "openai_responses"
    assert t.answer == "AAPL is at $190.10.\n\nUp 1.2%."


def test_tool_error_results_stay_text_even_when_they_look_like_json():
    error = '{"error": "rate limited", "retry_after": 30}'
    messages = _anthropic_turn("Quote AAPL", "toolu_1", error, "The quote service is rate limited.")
    messages[2]["content"][0]["is_error"] = True
    t = read_transcript(messages)
    assert t.tool_results[0]["output"] == error and t.errors == {"toolu_1"}
    messages[2]["content"][0]["is_error"] = False
    assert read_transcript(messages).tool_results[0]["output"] == {"error": "rate limited", "retry_after": 30}


def test_invalid_json_arguments_and_bracketed_non_json_content_are_kept_as_text():
    messages = [
        {"role": "user", "content": "Quote AAPL"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "get_quote", "arguments": '{"symbol": "AA'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "[truncated] AAPL last 190.10"},
        {"role": "assistant", "content": "AAPL last traded at $190.10."},
    ]
    t = read_transcript(messages)
    assert t.tool_results[0]["arguments"] == '{"symbol": "AA'
    assert t.tool_results[0]["output"] == "[truncated] AAPL last 190.10"
    assert verify_messages(messages).items[1].evidence[0].tool_id == "c1"


def test_a_transcript_without_tool_calls_verifies_against_no_data():
    report = verify_messages([{"role": "user", "content": "Price of AAPL?"},
                              {"role": "assistant", "content": "AAPL is at $190.10."}])
    assert report.model_dump() == verify("AAPL is at $190.10.", [], question="Price of AAPL?").model_dump()
    assert [i.text for i in report.items] == ["AAPL", "$190.10"]
    assert not any(i.evidence for i in report.items) and all(i.status not in SUPPORTED_STATUSES for i in report.items)


def test_responses_custom_tool_calls_are_read_and_hosted_tool_items_skipped():
    messages = [
        {"role": "user", "content": "Quote AAPL"},
        {"type": "web_search_call", "id": "ws_1", "status": "completed"},
        {"type": "custom_tool_call", "call_id": "ct1", "name": "sql", "input": "SELECT price FROM quotes"},
        {"type": "custom_tool_call_output", "call_id": "ct1", "output": "price\n190.10"},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "AAPL: $190.10."}]},
    ]
    t = read_transcript(messages)
    assert t.tool_results == [{"name": "sql", "id": "ct1", "output": "price\n190.10",
                               "arguments": "SELECT price FROM quotes"}]


def test_tool_content_parts_with_several_texts_become_a_list():
    messages = [
        {"role": "user", "content": "Quote AAPL"},
        {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
                                              "function": {"name": "q", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": QUOTE},
                                                           {"type": "image_url", "image_url": {"url": "x"}},
                                                           {"type": "text", "text": "Delayed 15 minutes."}]},
        {"role": "assistant", "content": "AAPL is at $190.10."},
    ]
    output = read_transcript(messages).tool_results[0]["output"]
    assert output[0]["price"] == Decimal("190.10") and output[1] == "Delayed 15 minutes."
    assert verify_messages(messages).items[1].evidence[0].path == "$[0].price"


# -- LangChain --------------------------------------------------------------------------


class HumanMessage:
    type = "human"

    def __init__(self, content):
        self.content = content


class AIMessage:
    type = "ai"

    def __init__(self, content, tool_calls=()):
        self.content, self.tool_calls = content, list(tool_calls)


class ToolMessage:
    type = "tool"

    def __init__(self, content, tool_call_id, status="success"):
        self.content, self.tool_call_id, self.status = content, tool_call_id, status


class SdkMessage:
    """Like an SDK's pydantic message: dumps to the dict form."""

    def __init__(self, data):
        self.data = data

    def model_dump(self):
        return dict(self.data)


def test_langchain_like_objects_verify_like_the_explicit_call():
    messages = [
        HumanMessage("How did MSFT close?"),
        AIMessage("", [{"name": "get_quote", "args": {"symbol": "MSFT"}, "id": "call_lc1", "type": "tool_call"}]),
        ToolMessage('{"symbol": "MSFT", "close": 418.07, "change_pct": -0.25}', "call_lc1"),
        AIMessage([{"type": "text", "text": "MSFT closed at $418.07, down 0.25%."}]),
    ]
    t = read_transcript(messages)
    assert t.format == "langchain" and t.question == "How did MSFT close?"
    report = verify_messages(messages)
    expected = verify("MSFT closed at $418.07, down 0.25%.",
                      [{"name": "get_quote", "id": "call_lc1",
                        "output": {"symbol": "MSFT", "close": Decimal("418.07"), "change_pct": Decimal("-0.25")}}],
                      question="How did MSFT close?")
    assert report.model_dump() == expected.model_dump()
    assert {e.tool_id for i in report.items for e in i.evidence} == {"call_lc1"}


def test_sdk_objects_with_model_dump_are_read_as_their_dicts():
    messages = [SdkMessage({"role": "user", "content": "Quote AAPL"}),
                SdkMessage({"role": "assistant", "content": None, "refusal": None, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "get_quote", "arguments": "{}"}}]}),
                SdkMessage({"role": "tool", "tool_call_id": "c1", "content": QUOTE}),
                SdkMessage({"role": "assistant", "content": "AAPL is at $190.10.", "tool_calls": None})]
    t = read_transcript(messages)
    assert t.format == "openai" and t.tool_results[0]["id"] == "c1"


def test_langchain_messages_to_dict_form_and_openai_shaped_additional_kwargs():
    messages = [
        {"type": "human", "data": {"content": "Quote AAPL", "type": "human"}},
        {"type": "ai", "data": {"content": "", "type": "ai", "additional_kwargs": {"tool_calls": [
            {"id": "call_old", "type": "function", "function": {"name": "get_quote", "arguments": '{"symbol": "AAPL"}'}}]}}},
        {"type": "tool", "data": {"content": QUOTE, "type": "tool", "tool_call_id": "call_old"}},
        {"type": "ai", "data": {"content": "AAPL is at $190.10.", "type": "ai"}},
    ]
    t = read_transcript(messages)
    assert t.format == "langchain"
    assert t.tool_results[0]["name"] == "get_quote" and t.tool_results[0]["arguments"] == {"symbol": "AAPL"}


# -- formats ----------------------------------------------------------------------------


def _render(fmt: str, question: str, calls: list[tuple[str, str, str]], answer: str) -> list[Any]:
    """One turn with parallel calls ``(id, name, output text)`` in each format."""
    if fmt == "openai":
        return ([{"role": "user", "content": question},
                 {"role": "assistant", "content": None, "tool_calls": [
                     {"id": i, "type": "function", "function": {"name": n, "arguments": "{}"}} for i, n, _ in calls]}]
                + [{"role": "tool", "tool_call_id": i, "content": o} for i, _, o in calls]
                + [{"role": "assistant", "content": answer}])
    if fmt == "openai_responses":
        return ([{"type": "message", "role": "user", "content": [{"type": "input_text", "text": question}]}]
                + [{"type": "function_call", "call_id": i, "name": n, "arguments": "{}"} for i, n, _ in calls]
                + [{"type": "function_call_output", "call_id": i, "output": o} for i, _, o in calls]
                + [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": answer}]}])
    if fmt == "anthropic":
        return [{"role": "user", "content": [{"type": "text", "text": question}]},
                {"role": "assistant", "content": [{"type": "tool_use", "id": i, "name": n, "input": {}}
                                                  for i, n, _ in calls]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": i, "content": o}
                                             for i, _, o in calls]},
                {"role": "assistant", "content": [{"type": "text", "text": answer}]}]
    return ([{"type": "human", "content": question},
             {"type": "ai", "content": "", "tool_calls": [{"name": n, "args": {}, "id": i} for i, n, _ in calls]}]
            + [{"type": "tool", "content": o, "tool_call_id": i} for i, _, o in calls]
            + [{"type": "ai", "content": answer}])


prices = st.decimals(min_value=Decimal("0.01"), max_value=Decimal(99999), places=2)
symbols = st.from_regex(r"[A-Z]{2,5}", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(quotes=st.lists(st.tuples(symbols, prices), min_size=1, max_size=5))
def test_every_format_reads_the_same_turn_to_the_same_tool_results(quotes):
    calls = [(f"call_{n}", "get_quote", json.dumps({"symbol": s, "price": str(p)}).replace(f'"{p}"', str(p)))
             for n, (s, p) in enumerate(quotes)]
    answer = f"{quotes[0][0]} trades at ${quotes[0][1]}."
    read = {fmt: read_transcript(_render(fmt, "Quotes?", calls, answer)) for fmt in FORMATS}
    assert {fmt: t.format for fmt, t in read.items()} == {fmt: fmt for fmt in FORMATS}
    for t in read.values():
        assert (t.question, t.answer, t.history) == ("Quotes?", answer, [])
        assert [(r["id"], r["output"]) for r in t.tool_results] == [
            (f"call_{n}", {"symbol": s, "price": p}) for n, (s, p) in enumerate(quotes)]
    reports = [verify_messages(_render(fmt, "Quotes?", calls, answer)).model_dump() for fmt in FORMATS]
    assert all(r == reports[0] for r in reports)


def test_explicit_format_wins_and_an_unknown_format_is_an_input_error():
    messages = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "AAPL is at $190.10."}]
    assert read_transcript(messages).format == "openai"
    assert read_transcript(messages, format="anthropic").format == "anthropic"
    with pytest.raises(InputError, match="unknown format 'gemini'"):
        verify_messages(messages, format="gemini")


# -- malformed transcripts --------------------------------------------------------------

OK_CALL = {"role": "assistant", "content": None, "tool_calls": [
    {"id": "c1", "type": "function", "function": {"name": "get_quote", "arguments": "{}"}}]}
OK_RESULT = {"role": "tool", "tool_call_id": "c1", "content": QUOTE}
USER = {"role": "user", "content": "Quote AAPL"}
ANSWER = {"role": "assistant", "content": "AAPL is at $190.10."}

MALFORMED = {
    "result_without_call": ([USER, {"role": "tool", "tool_call_id": "c9", "content": "{}"}, ANSWER], 1,
                            "no matching tool call"),
    "result_before_its_call": ([USER, OK_RESULT, OK_CALL, ANSWER], 1, "no matching tool call"),
    "anthropic_result_without_call": (
        [USER, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_x", "content": "1"}]},
         {"role": "assistant", "content": [{"type": "text", "text": "AAPL is at $190.10."}]}], 1, "'toolu_x'"),
    "ends_with_a_tool_result": ([USER, OK_CALL, OK_RESULT], 2, "no final assistant answer"),
    "ends_with_an_unanswered_call": ([USER, OK_CALL], 1, "with no result"),
    "a_new_question_without_answer": ([USER, OK_CALL, OK_RESULT, ANSWER, {"role": "user", "content": "And MSFT?"}],
                                      4, "no final assistant answer"),
    "blank_final_answer": ([USER, {"role": "assistant", "content": "  "}], 1, "no final assistant answer"),
    "unknown_role": ([USER, {"role": "critic", "content": "hmm"}, ANSWER], 1, "unknown role 'critic'"),
    "legacy_function_role": ([USER, {"role": "function", "name": "q", "content": "{}"}, ANSWER], 1,
                             "unknown role 'function'"),
    "content_of_the_wrong_type": ([{"role": "user", "content": 42}, ANSWER], 0, "got int"),
    "tool_content_a_dict": ([USER, OK_CALL, {"role": "tool", "tool_call_id": "c1", "content": {"price": 1}},
                             ANSWER], 2, "got dict"),
    "tool_content_missing": ([USER, OK_CALL, {"role": "tool", "tool_call_id": "c1"}, ANSWER], 2, "no 'content'"),
    "unknown_content_part": ([{"role": "user", "content": [{"type": "hologram"}]}, ANSWER], 0, "hologram"),
    "message_not_a_dict": ([USER, "AAPL is at $190.10."], 1, "got str"),
    "tool_calls_not_a_list": ([USER, {"role": "assistant", "tool_calls": {"id": "c1"}}, ANSWER], 1, "must be a list"),
    "tool_call_without_id": ([USER, {"role": "assistant", "tool_calls": [
        {"type": "function", "function": {"name": "q", "arguments": "{}"}}]}, ANSWER], 1, "'id'"),
    "tool_call_without_function": ([USER, {"role": "assistant", "tool_calls": [{"id": "c1"}]}, ANSWER], 1,
                                   "tool_calls[0]"),
    "anthropic_unknown_block": ([USER, {"role": "assistant", "content": [
        {"type": "tool_use", "id": "t1", "name": "q", "input": {}}, {"type": "telepathy"}]}], 1, "telepathy"),
    "anthropic_tool_use_from_user": ([{"role": "user", "content": [
        {"type": "tool_use", "id": "t1", "name": "q", "input": {}}]},
        {"role": "assistant", "content": [{"type": "text", "text": "ok"}]}], 0, "'tool_use' block in a 'user'"),
    "anthropic_content_a_number": ([{"role": "user", "content": [{"type": "thinking", "thinking": ""}]},
                                    {"role": "assistant", "content": 7}], 1, "got int"),
    "responses_unknown_item": ([USER, {"type": "function_call", "call_id": "c1", "name": "q", "arguments": "{}"},
                                {"type": "telemetry"}, ANSWER], 2, "unknown item type 'telemetry'"),
    "responses_output_missing": ([USER, {"type": "function_call", "call_id": "c1", "name": "q", "arguments": "{}"},
                                  {"type": "function_call_output", "call_id": "c1"}, ANSWER], 2, "no 'output'"),
    "langchain_unknown_type": ([{"type": "human", "content": "Hi"}, {"type": "robot", "content": "beep"},
                                {"type": "ai", "content": "AAPL is at $190.10."}], 1, "unknown message type 'robot'"),
    "langchain_unknown_class": ([{"lc": 1, "type": "constructor", "id": ["langchain", "Banana"], "kwargs": {}},
                                 {"type": "ai", "content": "x"}], 0, "not a serialised LangChain message"),
    "langchain_tool_call_without_id": ([{"type": "human", "content": "Hi"},
                                        {"type": "ai", "content": "", "tool_calls": [{"name": "q", "args": {}}]},
                                        {"type": "ai", "content": "AAPL."}], 1, "'id'"),
    "mixed_formats": ([USER, OK_CALL, OK_RESULT, {"role": "assistant", "content": [
        {"type": "tool_use", "id": "t1", "name": "q", "input": {}}]}, ANSWER], 3, "mixes formats"),
}


@pytest.mark.parametrize(("messages", "index", "words"), MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_transcript_is_a_transcript_error_naming_the_message(messages, index, words):
    with pytest.raises(TranscriptError) as caught:
        verify_messages(messages)
    error = caught.value
    assert isinstance(error, ValueError) and isinstance(error, InputError)
    assert error.index == index
    assert str(error).startswith(f"messages[{index}]: ") and words in str(error), str(error)


@pytest.mark.parametrize(("messages", "words"), [
    ({"model": "gpt-4o", "input": []}, "got a dict without a 'messages' list"),
    ({"messages": []}, "is empty"),
    ("hello", "got str"),
    (None, "got NoneType"),
    ([], "is empty"),
])
def test_a_transcript_that_is_not_a_list_of_messages_is_named_as_a_whole(messages, words):
    with pytest.raises(TranscriptError) as caught:
        verify_messages(messages)
    assert caught.value.index is None
    assert str(caught.value).startswith("messages: ") and words in str(caught.value)


junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["role", "type", "content", "tool_calls", "tool_call_id", "id", "name", "text",
                         "call_id", "output", "arguments", "function", "lc", "kwargs", "data"]), inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(messages=st.lists(junk, max_size=6))
def test_junk_transcripts_raise_only_input_errors(messages):
    try:
        verify_messages(messages)
    except InputError:
        pass


# -- text tables --------------------------------------------------------------------------

cells = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9 .%$-]{0,12}", fullmatch=True).map(str.strip)


@st.composite
def tables(draw, cell=cells):
    width = draw(st.integers(2, 6))
    row = st.lists(cell, min_size=width, max_size=width)
    return draw(row), draw(st.lists(row, min_size=1, max_size=8))


@settings(max_examples=200, deadline=None)
@given(table=tables(), delimiter=st.sampled_from([",", ";", "\t", "|"]))
def test_csv_tables_round_trip_through_the_parser(table, delimiter):
    columns, rows = table
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\n").writerows([columns, *rows])
    assert csv_table(out.getvalue()) == {"columns": columns, "rows": rows}
    if delimiter != "|":  # a pipe CSV without a --- line is not a markdown table either
        assert parse_text(out.getvalue()) == {"columns": columns, "rows": rows}


@settings(max_examples=200, deadline=None)
@given(table=tables(cell=st.from_regex(r"[A-Za-z0-9][A-Za-z0-9 .%$|-]{0,12}", fullmatch=True).map(str.strip)))
def test_markdown_tables_round_trip_through_the_parser_with_escaped_pipes(table):
    columns, rows = table

    def line(cells):
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    text = "\n".join([line(columns), "|" + "|".join(":--" for _ in columns) + "|", *map(line, rows)])
    assert markdown_tables(text) == {"columns": columns, "rows": rows}
    assert parse_text(f"Screen results:\n\n{text}\n\nSource: exchange data") == {
        "text": "Screen results:\n\n\nSource: exchange data", "tables": [{"columns": columns, "rows": rows}]}


def test_text_that_is_not_a_table_stays_a_string():
    for text in ("Error: upstream timeout after 30 s", "AAPL rose 1.2%, closing at 190.10.",
                 "price\n190.10", "a,b\nc", "The quote service said: [rate limited]"):
        assert parse_text(text) == text


def test_short_markdown_rows_are_padded_and_long_ones_cut_to_the_header():
    text = "| a | b | c |\n|---|---|---|\n| 1 | 2 |\n| 4 | 5 | 6 | 7 |"
    assert markdown_tables(text) == {"columns": ["a", "b", "c"], "rows": [["1", "2", ""], ["4", "5", "6"]]}


def test_a_wrong_explicit_format_says_what_the_messages_look_like():
    fixture = json.loads((FIXTURES / "transcripts" / "openai_chat_multi_turn.json").read_text())
    with pytest.raises(TranscriptError) as raised:
        verify_messages(fixture["messages"], format="anthropic")
    assert "look like 'openai'" in str(raised.value) and raised.value.index is not None


def test_a_chat_request_body_or_saved_file_holding_messages_reads_as_its_list():
    from verifier.inputs.jsonio import load_path
    saved = load_path(Path(__file__).resolve().parents[2] / "fixtures" / "transcripts" / "openai_chat_multi_turn.json")
    assert verify_messages(saved).model_dump() == verify_messages(saved["messages"]).model_dump()
