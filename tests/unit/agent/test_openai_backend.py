"""The OpenAI-compatible backend against a real chat-completions server in another process."""

from __future__ import annotations

import json
import socket

import pytest

from droid.agent import (
    Agent,
    AgentError,
    AgentRunner,
    AppFunctionAgentTools,
    FunctionCall,
    FunctionResponse,
    ModelError,
    OpenAICompatibleModel,
    TextMessage,
    model_from_spec,
)

from .conftest import received, run
from .fakes import FETCH


def order_session(manager, model):
    return AgentRunner(Agent(instructions="Be brief.", tools=AppFunctionAgentTools.discover(manager)), model).create_session()


@pytest.mark.parametrize("stream", [True, False])
def test_tool_call_round_trip(chat_server, manager, service, stream):
    model = OpenAICompatibleModel("test-model", base_url=f"{chat_server}/v1", api_key="sk-test", stream=stream)
    events = run(order_session(manager, model), "Where is my order ORD-8492?")

    call = next(e for e in events if isinstance(e, FunctionCall))
    assert (call.id, call.name, call.args) == ("call_srv_1", "fetch_order_details", {"orderId": "ORD-8492"})
    assert service.executed == [FETCH]
    assert next(e for e in events if isinstance(e, FunctionResponse)).response["status"] == "SHIPPED"
    assert events[-1] == TextMessage("Order status: SHIPPED.", partial=False)
    partials = [e.text for e in events if isinstance(e, TextMessage) and e.partial]
    if stream:
        assert partials == ["Order ", "status: ", "SHIPPED."], "text arrives token by token"
    else:
        assert partials == ["Order status: SHIPPED."]

    first, second = received(chat_server)
    assert first["authorization"] == "Bearer sk-test"
    assert first["body"]["model"] == "test-model" and first["body"].get("stream", False) is stream
    assert first["body"]["messages"][0] == {"role": "system", "content": "Be brief."}
    declared = {t["function"]["name"]: t["function"] for t in first["body"]["tools"]}
    assert set(declared) == {"fetch_order_details", "cancel_order"}
    assert declared["fetch_order_details"]["parameters"]["required"] == ["orderId"]
    assert declared["fetch_order_details"]["description"].startswith("Fetches details")
    # The second request carries the call and its result, tied by the call id.
    assistant, tool = second["body"]["messages"][-2:]
    assert assistant["tool_calls"][0]["id"] == "call_srv_1"
    assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == {"orderId": "ORD-8492"}
    assert tool["role"] == "tool" and tool["tool_call_id"] == "call_srv_1"
    assert json.loads(tool["content"])["status"] == "SHIPPED"


def test_plain_text_streams_without_tools(chat_server):
    model = OpenAICompatibleModel("test-model", base_url=f"{chat_server}/v1")  # no key: a local server needs none
    events = run(AgentRunner(Agent(), model).create_session(), "hi")
    assert [e.text for e in events if e.partial] == ["Hello ", "from ", "the ", "test ", "server."]
    assert "tools" not in received(chat_server)[0]["body"]


def test_unparseable_tool_arguments_go_back_as_an_error_map(chat_server, manager, service):
    model = OpenAICompatibleModel("test-model", base_url=f"{chat_server}/v1")
    events = run(order_session(manager, model), "bad json please, order")
    error = next(e for e in events if isinstance(e, FunctionResponse)).response["error"]
    assert error["code_name"] == "ERROR_INVALID_ARGUMENT" and "not valid JSON" in error["message"]
    assert service.calls == []
    assert events[-1].text == "Order status: ERROR_INVALID_ARGUMENT."


def test_server_errors_raise_model_error(chat_server):
    model = OpenAICompatibleModel("test-model", base_url=f"{chat_server}/v1", max_retries=0)
    with pytest.raises(ModelError, match="HTTP 500"):
        run(AgentRunner(Agent(), model).create_session(), "fail")


def test_unreachable_server_is_a_clear_error():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    model = OpenAICompatibleModel("m", base_url=f"http://127.0.0.1:{port}/v1", max_retries=0, connect_timeout=5)
    with pytest.raises(ModelError, match="cannot reach"):
        run(AgentRunner(Agent(), model).create_session(), "hi")


@pytest.mark.parametrize(("given", "meant"), [("8080", "http://127.0.0.1:8080/v1"),
                                               ("127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1"),
                                               ("localhost:11434", "http://localhost:11434/v1")])
def test_a_base_url_without_its_scheme_is_refused_with_the_url_it_likely_meant(given, meant):
    # httpx would take it as a relative URL and fail as 'cannot reach ...: is the server running?'
    with pytest.raises(AgentError) as raised:
        OpenAICompatibleModel("m", base_url=given)
    assert str(raised.value) == f"base URL {given!r} is not an http:// or https:// URL: give it whole, for example {meant}"


def test_settings_come_from_the_environment(monkeypatch, chat_server):
    monkeypatch.setenv("DROIDSIM_OPENAI_BASE_URL", f"{chat_server}/v1")
    monkeypatch.setenv("DROIDSIM_OPENAI_MODEL", "env-model")
    monkeypatch.setenv("DROIDSIM_OPENAI_API_KEY", "sk-env")
    model = model_from_spec("openai")
    assert (model.name, model.base_url) == ("env-model", f"{chat_server}/v1")
    run(AgentRunner(Agent(), model).create_session(), "hi")
    assert received(chat_server)[0]["authorization"] == "Bearer sk-env"
    assert model_from_spec("openai:other", base_url="http://x/v1").name == "other"


def test_missing_settings_are_explained(monkeypatch):
    for name in ("DROIDSIM_OPENAI_MODEL", "OPENAI_MODEL", "DROIDSIM_OPENAI_BASE_URL", "OPENAI_BASE_URL",
                 "DROIDSIM_OPENAI_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(AgentError, match="no model name"):
        model_from_spec("openai")
    with pytest.raises(AgentError, match="no API key"):
        model_from_spec("openai:gpt")
    with pytest.raises(AgentError, match="unknown model"):
        model_from_spec("llama")
