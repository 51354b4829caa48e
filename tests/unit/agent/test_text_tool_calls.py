"""The text tool-call formats of vLLM's parsers, and <think> blocks, read as pure functions.

The end-to-end behaviour against a server is in test_model_servers.py; these pin the
edges a server would take long to reach: text around the calls, objects that are not
calls, Mistral's two tokenizer generations, think tags cut across stream chunks.
"""

from __future__ import annotations

import pytest

from droid.agent.models.text_tool_calls import could_be_tool_call, parse_text_tool_calls, unparsed_call
from droid.agent.models.think_tags import ThinkSplitter, split_thinking

NAMES = ["fetch_order_details", "get_weather"]


def calls(text: str) -> tuple[str, list[tuple[str, dict]]]:
    rest, requests = parse_text_tool_calls(text, NAMES)
    return rest, [(r.name, r.args) for r in requests]


def test_hermes_keeps_the_text_outside_the_tags():
    text = 'Let me look.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>'
    assert calls(text) == ("Let me look.", [("get_weather", {"city": "Oslo"})])


def test_llama_python_tag_with_calls_joined_by_semicolons():
    text = '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Oslo"}}; {"name": "fetch_order_details", "parameters": {"orderId": "ORD-1"}}'
    assert calls(text) == ("", [("get_weather", {"city": "Oslo"}), ("fetch_order_details", {"orderId": "ORD-1"})])


def test_llama_json_inside_a_code_fence_and_with_arguments_as_a_string():
    text = '```json\n{"name": "get_weather", "arguments": "{\\"city\\": \\"Oslo\\"}"}\n```'
    assert calls(text) == ("", [("get_weather", {"city": "Oslo"})])


@pytest.mark.parametrize("text", [
    'Your order: {"orderId": "ORD-1", "status": "SHIPPED"}',  # JSON that is no call
    '{"name": "launch_rockets", "parameters": {}}',  # a tool nobody declared
    '{"name": "get_weather", "parameters": {"city": "Oslo"}}; {"name": "launch_rockets", "parameters": {}}',
    '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Oslo"}}, {"name": "nope", "arguments": {}}]',
    "{not json at all",
])
def test_text_that_is_not_all_calls_to_declared_tools_stays_the_answer(text):
    assert calls(text) == (text, [])


def test_mistral_before_v11_a_list_after_the_marker_and_the_content_before_it():
    text = 'Checking. [TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Oslo"}}, {"name": "fetch_order_details", "arguments": {"orderId": "ORD-1"}}]</s>'
    assert calls(text) == ("Checking.", [("get_weather", {"city": "Oslo"}), ("fetch_order_details", {"orderId": "ORD-1"})])


def test_mistral_v11_name_then_arguments_per_marker_with_or_without_args_token():
    text = '[TOOL_CALLS]get_weather{"city": "Oslo"}[TOOL_CALLS]fetch_order_details[ARGS]{"orderId": "ORD-1"}'
    assert calls(text) == ("", [("get_weather", {"city": "Oslo"}), ("fetch_order_details", {"orderId": "ORD-1"})])


@pytest.mark.parametrize("text, why", [
    ('<function=get_weather>{"city": "Oslo"}</function>', "<function=get_weather"),
    ('I would call {"name": "launch_rockets", "arguments": {}}', '"name": "launch_rockets", "arguments":'),
    ("[TOOL_CALLS]broken", "[TOOL_CALLS]"),
])
def test_an_answer_that_still_looks_like_a_call_says_why(text, why):
    assert why in unparsed_call(text)


def test_an_ordinary_answer_does_not_look_like_a_call():
    assert unparsed_call('Order ORD-1 is {"status": "SHIPPED"}; the name on it is "Sam".') is None


@pytest.mark.parametrize("text, hold", [("Let me check. [TOOL_C", True), ("Sure, the order has shipped.", False),
                                        ("<|python", True), ("[TOOL_CALLS]", True)])
def test_streamed_text_is_held_while_it_may_become_a_call(text, hold):
    assert could_be_tool_call(text) is hold


@pytest.mark.parametrize("text, reasoning, answer", [
    ("<think>Look it up.</think>\n\nIt shipped.", "Look it up.", "It shipped."),
    ("Look it up.</think>It shipped.", "Look it up.", "It shipped."),  # the opening tag was in the prompt
    ("<think>Still thinking when the tokens ran out", "Still thinking when the tokens ran out", ""),
    ("No tags here.", "", "No tags here."),
])
def test_split_thinking(text, reasoning, answer):
    assert split_thinking(text) == (reasoning, answer)


def test_a_think_tag_cut_across_stream_chunks_is_still_a_tag():
    splitter = ThinkSplitter()
    pieces = []
    for chunk in ["<thi", "nk>plan", " it</th", "ink>", "\n\nDone", "."]:
        pieces += splitter.feed(chunk)
    pieces += splitter.flush()
    assert "".join(p for k, p in pieces if k == "reasoning") == "plan it"
    assert "".join(p for k, p in pieces if k == "text") == "Done."
