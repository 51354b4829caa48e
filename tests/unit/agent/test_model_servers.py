"""Real model servers' behaviour, against chat_server.py in its own process imitating each one.

One test (or parametrized family) per behaviour of issue 13: Ollama's parallel calls at
index 0, rollback of a failed run, context overflow, reasoning-only replies, tool calls
written as text, streams that drop tool calls, a stalled stream, tool_choice per turn,
truncation, arguments as an object, and the CLI's exit codes.
"""

from __future__ import annotations

import io
import json
import socket
import time

import pytest

from droid.agent import (
    Agent,
    AgentRunner,
    AppFunctionAgentTools,
    ContextLengthExceededError,
    FunctionCall,
    FunctionResponse,
    FunctionTool,
    MaxTurnsReached,
    ModelError,
    OpenAICompatibleModel,
    ReasoningMessage,
    TextMessage,
    model_from_spec,
)
from droid.agent.console import run_agent_console
from droid.agent.messages import TOOL, USER

from .chat_server import STALL_SECONDS
from .conftest import received, run
from .fakes import FETCH

ORDER = {"name": "fetch_order_details", "arguments": {"orderId": "ORD-8492"}}
WEATHER = {"name": "get_current_weather", "arguments": {"location": "Paris"}}


def calls(*specs: dict) -> str:
    return "[calls] " + json.dumps(list(specs))


def model(server: str, flavor: str = "openai", **options) -> OpenAICompatibleModel:
    return OpenAICompatibleModel(flavor, base_url=f"{server}/v1", max_retries=0, **options)


def session_for(manager, llm, weather_calls: list | None = None, **agent_options):
    def get_current_weather(location: str) -> dict:
        """Gets the current weather for a city."""
        if weather_calls is not None:
            weather_calls.append(location)
        return {"location": location, "temperature": 18}

    tools = AppFunctionAgentTools.discover(manager) + [FunctionTool(get_current_weather)]
    return AgentRunner(Agent(instructions="Be brief.", tools=tools, **agent_options), llm).create_session()


# 1 ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("flavor", ["ollama", "ollama-noindex"])
def test_parallel_calls_that_share_index_0_or_have_none_are_two_calls(chat_server, manager, service, flavor):
    weather: list[str] = []
    events = run(session_for(manager, model(chat_server, flavor), weather), calls(ORDER, WEATHER))
    made = [(e.name, e.args) for e in events if isinstance(e, FunctionCall)]
    assert made == [("fetch_order_details", {"orderId": "ORD-8492"}), ("get_current_weather", {"location": "Paris"})]
    assert service.executed == [FETCH] and weather == ["Paris"], "both calls ran"
    answered = received(chat_server)[1]["body"]["messages"]
    assert [m["tool_call_id"] for m in answered if m["role"] == "tool"] == ["call_srv_1", "call_srv_2"]


# 2 ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("failure", ["[fail 500]", "[fail 400]", "[stall]"])
def test_a_failed_run_leaves_the_session_as_it_was(chat_server, manager, failure):
    # vLLM with a Mistral template: two user messages in a row are refused with HTTP 400.
    session = session_for(manager, model(chat_server, "vllm-strict", read_timeout=1))
    run(session, "hi")
    before = [m.to_dict() for m in session.history]
    with pytest.raises(ModelError):
        run(session, f"{failure} please")
    assert [m.to_dict() for m in session.history] == before
    assert session.status == "completed"
    events = run(session, "hi again")
    assert events[-1].text == "Hello from the test server.", "the next prompt is not refused"
    roles = [m["role"] for m in received(chat_server)[-1]["body"]["messages"]]
    assert roles == ["system", "user", "assistant", "user"]


def test_a_run_that_fails_after_a_tool_round_keeps_no_part_of_it(chat_server, manager, service, tmp_path):
    from droid.agent import ScriptedModel, tool_call

    runner = AgentRunner(Agent(tools=AppFunctionAgentTools.discover(manager)),
                         ScriptedModel([tool_call("fetch_order_details", orderId="ORD-8492")]), session_dir=tmp_path)
    session = runner.create_session("s1")
    with pytest.raises(ModelError, match="no step for turn 2"):
        run(session, "Where is ORD-8492?")
    assert service.executed == [FETCH], "the call ran (it is not undone)"
    assert session.history == [] and runner.store.load("s1")["history"] == []


# 3 ------------------------------------------------------------------------------------------------

LONG = "hi " + "x" * 400


@pytest.mark.parametrize("flavor", ["vllm", "llamacpp", "openai"])
def test_context_length_exceeded_is_a_clear_error(chat_server, manager, flavor):
    session = session_for(manager, model(chat_server, f"{flavor}-ctx200"))
    run(session, LONG)
    before = session.history
    with pytest.raises(ContextLengthExceededError, match="no longer fits the context") as error:
        run(session, LONG)
    assert "drop_oldest" in str(error.value), "the error says how to carry on"
    assert session.history == before


def test_drop_oldest_keeps_instructions_and_tools_and_drops_whole_turns(chat_server, manager):
    session = session_for(manager, model(chat_server, "llamacpp-ctx200"), context_overflow="drop_oldest")
    run(session, LONG)
    events = run(session, LONG.replace("hi", "hello"))
    assert events[-1].text == "Hello from the test server."
    sent = received(chat_server)[-1]["body"]
    assert sent["messages"][0] == {"role": "system", "content": "Be brief."}
    assert [m["role"] for m in sent["messages"]] == ["system", "user"]
    assert sent["messages"][1]["content"].startswith("hello"), "the oldest turn went, the current one stayed"
    assert {t["function"]["name"] for t in sent["tools"]} == {"fetch_order_details", "cancel_order", "get_current_weather"}
    assert len(session.history) == 4, "the stored history keeps everything"
    # The current turn alone is too long: nothing left to drop, so the error stands.
    with pytest.raises(ContextLengthExceededError):
        run(session, "x" * 2000)


# 4 ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("flavor", ["vllm", "llamacpp"])
@pytest.mark.parametrize("stream", [True, False])
def test_a_reasoning_only_reply_is_its_own_event_and_never_sends_null_back(chat_server, manager, flavor, stream):
    session = session_for(manager, model(chat_server, flavor, stream=stream))
    events = run(session, "[reasoning-only] write a haiku")
    (whole,) = [e for e in events if isinstance(e, ReasoningMessage) and not e.partial]
    assert whole.text.startswith("The user wants a haiku")
    assert not any(isinstance(e, TextMessage) for e in events), "no empty answer is made up"
    if stream:
        assert len([e for e in events if isinstance(e, ReasoningMessage) and e.partial]) > 1
    # The server answers HTTP 400 to any content: null, as OpenAI does; the next prompt goes through.
    assert run(session, "hi")[-1].text == "Hello from the test server."
    assistant = received(chat_server)[-1]["body"]["messages"][2]
    assert assistant == {"role": "assistant", "content": ""}, "no null content, no reasoning sent back"


# 5 ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("style", ["tagged", "bare", "python_tag", "mistral", "mistral11"])
@pytest.mark.parametrize("stream", [True, False])
def test_tool_calls_written_as_text_are_run(chat_server, manager, service, style, stream, caplog):
    session = session_for(manager, model(chat_server, "vllm", stream=stream))
    events = run(session, f"[text-call {style}] " + calls(ORDER))
    call = next(e for e in events if isinstance(e, FunctionCall))
    assert (call.name, call.args) == ("fetch_order_details", {"orderId": "ORD-8492"})
    assert service.executed == [FETCH]
    shown = "".join(e.text for e in events if isinstance(e, TextMessage))
    for raw in ("tool_call", "parameters", "python_tag", "TOOL_CALLS", "{"):
        assert raw not in shown, f"the raw call ({raw}) is not shown as the answer"
    assert events[-1].text == "Order status: SHIPPED."
    assert "looks like a tool call" not in caplog.text


@pytest.mark.parametrize("style", ["tagged", "python_tag", "mistral", "mistral11"])
def test_several_calls_written_as_text_are_all_run(chat_server, manager, service, style):
    weather: list[str] = []
    events = run(session_for(manager, model(chat_server, "vllm"), weather), f"[text-call {style}] " + calls(ORDER, WEATHER))
    made = [(e.name, e.args) for e in events if isinstance(e, FunctionCall)]
    assert made == [("fetch_order_details", {"orderId": "ORD-8492"}), ("get_current_weather", {"location": "Paris"})]
    assert service.executed == [FETCH] and weather == ["Paris"]


@pytest.mark.parametrize("stream", [True, False])
def test_a_call_in_a_format_no_parser_reads_is_answer_text_with_a_warning(chat_server, manager, service, stream, caplog):
    session = session_for(manager, model(chat_server, "vllm", stream=stream))
    events = run(session, "[text-call function-tag] " + calls(ORDER))
    assert service.calls == [] and not any(isinstance(e, FunctionCall) for e in events)
    assert events[-1].text.startswith("<function=fetch_order_details>")
    assert "looks like a tool call that was not run (it contains '<function=fetch_order_details')" in caplog.text


def test_a_tagged_call_is_warned_about_when_text_tool_calls_are_off(chat_server, manager, service, caplog):
    session = session_for(manager, model(chat_server, "vllm", text_tool_calls=False))
    run(session, "[text-call tagged] " + calls(ORDER))
    assert service.calls == []
    assert "looks like a tool call that was not run (it contains <tool_call>)" in caplog.text


@pytest.mark.parametrize("stream", [True, False])
def test_think_blocks_in_the_content_are_reasoning_not_the_answer(chat_server, manager, stream):
    events = run(session_for(manager, model(chat_server, "vllm", stream=stream)), "[think] hi")
    (thought,) = [e for e in events if isinstance(e, ReasoningMessage) and not e.partial]
    assert thought.text == "The user wants an order; I will look it up."
    answers = [e for e in events if isinstance(e, TextMessage)]
    assert "".join(e.text for e in answers if e.partial) in ("", "Hello from the test server.")
    assert answers[-1].text == "Hello from the test server." and "think" not in "".join(e.text for e in answers)


def test_a_think_block_before_a_text_tool_call_is_reasoning_and_the_call_runs(chat_server, manager, service):
    events = run(session_for(manager, model(chat_server, "vllm")), "[think] [text-call tagged] " + calls(ORDER))
    assert [e.name for e in events if isinstance(e, FunctionCall)] == ["fetch_order_details"]
    assert any(isinstance(e, ReasoningMessage) and "look it up" in e.text for e in events)
    assert events[-1].text == "Order status: SHIPPED."


def test_text_tool_calls_can_be_turned_off(chat_server, manager, service):
    session = session_for(manager, model(chat_server, "vllm", text_tool_calls=False))
    events = run(session, "[text-call tagged] " + calls(ORDER))
    assert not any(isinstance(e, FunctionCall) for e in events) and service.calls == []
    assert events[-1].text.startswith("<tool_call>")


def test_text_that_names_no_declared_tool_stays_text(chat_server, manager, service):
    session = session_for(manager, model(chat_server, "vllm"))
    events = run(session, "[text-call bare] " + calls({"name": "launch_rockets", "arguments": {}}))
    assert not any(isinstance(e, FunctionCall) for e in events)
    assert json.loads(events[-1].text) == {"name": "launch_rockets", "parameters": {}}


# 6 ------------------------------------------------------------------------------------------------

def test_a_stream_that_drops_its_tool_calls_is_asked_again_without_streaming(chat_server, manager, service):
    session = session_for(manager, model(chat_server, "ollama"))
    events = run(session, "[drop-stream-calls] " + calls(ORDER))
    assert [e.name for e in events if isinstance(e, FunctionCall)] == ["fetch_order_details"]
    assert service.executed == [FETCH]
    streamed = [r["body"].get("stream", False) for r in received(chat_server)]
    assert streamed[:2] == [True, False], "the same request, asked again whole"


def test_no_stream_asks_for_whole_responses(chat_server, manager, service):
    session = session_for(manager, model(chat_server, "ollama", stream=False))
    run(session, "[drop-stream-calls] " + calls(ORDER))
    assert service.executed == [FETCH]
    assert all(not r["body"].get("stream", False) for r in received(chat_server))


# 7 ------------------------------------------------------------------------------------------------

def test_a_stalled_stream_ends_with_a_clear_error_after_the_read_timeout(chat_server, manager):
    session = session_for(manager, model(chat_server, "vllm", read_timeout=1))
    started = time.monotonic()
    with pytest.raises(ModelError, match=r"sent nothing for read_timeout \(1s\)"):
        run(session, "[stall] hi")
    assert time.monotonic() - started < STALL_SECONDS / 2, "it did not wait for the server to wake up"


def test_a_server_that_accepts_no_connection_fails_after_the_connect_timeout():
    # A listening socket whose backlog is full: the kernel leaves new connections unanswered,
    # as an overloaded server does.
    with socket.socket() as server, socket.socket() as first:
        server.bind(("127.0.0.1", 0))
        server.listen(0)
        first.connect(server.getsockname())
        llm = OpenAICompatibleModel("m", base_url=f"http://127.0.0.1:{server.getsockname()[1]}/v1",
                                    max_retries=0, connect_timeout=1, read_timeout=60)
        with pytest.raises(ModelError, match=r"no connection within connect_timeout \(1s\)"):
            run(AgentRunner(Agent(), llm).create_session(), "hi")


def test_timeouts_are_settable_through_the_api_and_the_model_spec(chat_server):
    llm = model_from_spec("openai:vllm", base_url=f"{chat_server}/v1", connect_timeout=2.5, read_timeout=7, stream=None)
    assert (llm.connect_timeout, llm.read_timeout, llm.stream) == (2.5, 7, True)
    with pytest.raises(Exception, match="read_timeout must be a positive number"):
        OpenAICompatibleModel("m", base_url="http://127.0.0.1:1/v1", read_timeout=0)
    with pytest.raises(Exception, match="apply to openai:NAME models"):
        model_from_spec("offline", read_timeout=3)


# 8 ------------------------------------------------------------------------------------------------

def test_tool_choice_required_applies_to_the_first_call_only(chat_server, manager, service):
    session = session_for(manager, model(chat_server, "vllm"), tool_choice="required", max_turns=3)
    events = run(session, "hi")
    assert not any(isinstance(e, MaxTurnsReached) for e in events)
    assert events[-1].text == "Order status: SHIPPED."
    sent = [r["body"].get("tool_choice") for r in received(chat_server)]
    assert sent == ["required", "auto"]


def test_tool_choice_and_parallel_tool_calls_per_run(chat_server, manager, service):
    session = session_for(manager, model(chat_server, "vllm"))
    events = run(session, calls(ORDER, WEATHER), parallel_tool_calls=False, tool_choice="fetch_order_details")
    assert [e.name for e in events if isinstance(e, FunctionCall)] == ["fetch_order_details"]
    first = received(chat_server)[0]["body"]
    assert first["parallel_tool_calls"] is False
    assert first["tool_choice"] == {"type": "function", "function": {"name": "fetch_order_details"}}
    run(session, "hi")
    assert received(chat_server)[-1]["body"]["tool_choice"] == "auto", "per-run settings do not stick"


# 9 ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("stream", [True, False])
def test_finish_reason_length_marks_the_answer_truncated(chat_server, manager, stream):
    events = run(session_for(manager, model(chat_server, "llamacpp", stream=stream)), "[truncate] explain")
    final = events[-1]
    assert isinstance(final, TextMessage) and not final.partial and final.truncated
    assert final.text == "The answer is long and it gets"
    assert final.to_dict()["truncated"] is True


# 10 -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("flavor", ["ollama", "vllm"])
@pytest.mark.parametrize("stream", [True, False])
def test_arguments_sent_as_an_object_are_accepted(chat_server, manager, service, flavor, stream):
    session = session_for(manager, model(chat_server, flavor, stream=stream))
    events = run(session, "[object-args] " + calls(ORDER))
    response = next(e for e in events if isinstance(e, FunctionResponse))
    assert not response.is_error and response.response["status"] == "SHIPPED"


# exit codes ---------------------------------------------------------------------------------------

def console(context, prompt, server, flavor="vllm", **kwargs):
    out, err = io.StringIO(), io.StringIO()
    code = run_agent_console(context, prompt, model=f"openai:{flavor}", base_url=f"{server}/v1",
                             stdin=io.StringIO(""), stdout=out, stderr=err, **kwargs)
    return code, out.getvalue(), err.getvalue()


def test_cli_exit_codes_say_whether_the_run_ended_in_an_error(chat_server, context):
    assert console(context, "Where is my order ORD-8492?", chat_server)[0] == 0
    code, _, err = console(context, "[truncate] explain", chat_server)
    assert code == 1 and "cut off" in err
    code, _, err = console(context, "[fail 400] hi", chat_server, model_options={"max_retries": 0})
    assert code == 1 and "HTTP 400" in err
    code, _, err = console(context, "[stall] hi", chat_server, model_options={"read_timeout": 1})
    assert code == 1 and "read_timeout" in err
    code, out, _ = console(context, "hi", chat_server, agent_options={"tool_choice": "required"}, max_turns=1,
                           flavor="vllm")
    assert code == 0, "required applies once: the model answers after one round"
    code, out, err = console(context, "Where is ORD-8492?", chat_server, flavor="ollama-ctx10")
    assert code == 1 and "no longer fits" in err


def test_cli_no_stream_and_reasoning(chat_server, context, service):
    code, out, _ = console(context, "[drop-stream-calls] " + calls(ORDER), chat_server, flavor="ollama",
                           model_options={"stream": False})
    assert code == 0 and service.executed == [FETCH]
    assert not any(r["body"].get("stream", False) for r in received(chat_server))
    code, out, _ = console(context, "[reasoning-only] haiku", chat_server)
    assert code == 0 and "thinking: The user wants a haiku" in out


def test_max_turns_reached_exits_non_zero(chat_server, context):
    code, out, _ = console(context, "[always-call] Where is my order ORD-8492?", chat_server, max_turns=1)
    assert code == 1 and "max_turns (1)" in out


def test_history_keeps_user_and_tool_messages(chat_server, manager):
    session = session_for(manager, model(chat_server, "ollama"))
    run(session, calls(ORDER, WEATHER))
    assert [m.role for m in session.history][:1] == [USER]
    assert sum(1 for m in session.history if m.role == TOOL) == 2


# llama-cpp-python's server, --chat_format chatml-function-calling (issue 35) -------------------------

LCPP = "llama_cpp_python"


def test_tool_choice_auto_goes_with_the_tools_so_chatml_function_calling_shows_them(chat_server, manager, service):
    import urllib.request

    events = run(session_for(manager, model(chat_server, LCPP, stream=False)), "Where is my order ORD-8492?")
    assert [e.name for e in events if isinstance(e, FunctionCall)] == ["fetch_order_details"]
    assert service.executed == [FETCH]
    assert all(r["body"]["tool_choice"] == "auto" for r in received(chat_server))
    # The double is that server: the same request without tool_choice reaches a model that has no tools.
    body = dict(received(chat_server)[0]["body"])
    del body["tool_choice"]
    request = urllib.request.Request(f"{chat_server}/v1/chat/completions", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        message = json.load(answer)["choices"][0]["message"]
    assert not message.get("tool_calls") and message["content"] == "Hello from the test server."


def test_an_empty_stream_when_the_model_calls_is_asked_again_whole_and_said_so(chat_server, manager, service, caplog):
    events = run(session_for(manager, model(chat_server, LCPP)), "Where is my order ORD-8492?")
    assert [e.name for e in events if isinstance(e, FunctionCall)] == ["fetch_order_details"]
    assert [r["body"].get("stream", False) for r in received(chat_server)][:2] == [True, False]
    assert "answered HTTP 200 with an empty stream (not one chunk) while tools were offered; asking again " \
           "without streaming" in caplog.text
    assert "announced" not in caplog.text


def test_a_stream_that_announces_calls_it_never_sends_is_said_to_have_announced_them(chat_server, manager, caplog):
    run(session_for(manager, model(chat_server, "ollama")), "[drop-stream-calls] " + calls(ORDER))
    assert "announced tool calls (finish_reason: tool_calls) but its stream held none" in caplog.text


def test_arguments_copied_from_an_html_escaped_prompt_are_warned_about(chat_server, manager, service, caplog):
    session = session_for(manager, model(chat_server, LCPP, stream=False))
    run(session, calls(ORDER))
    events = run(session, "[copy-call] once more please")
    (copied,) = [e for e in events if isinstance(e, FunctionCall)]
    assert copied.args == {"orderId": "&#34;ORD-8492&#34;"}
    response = next(e for e in events if isinstance(e, FunctionResponse))
    assert response.is_error, "the device knows no order &#34;ORD-8492&#34;"
    assert "the arguments of fetch_order_details from llama_cpp_python at " in caplog.text
    assert "carry the HTML entity &#34;: the server's chat template escapes the conversation" in caplog.text


def test_tool_results_the_prompt_never_holds_are_warned_about(chat_server, manager, caplog):
    from droid.agent import FunctionTool

    def list_stations(city: str) -> dict:
        """Lists the weather stations of a city."""
        return {"stations": [{"id": f"ST-{n:03d}", "name": f"{city} station number {n}"} for n in range(12)]}

    llm = model(chat_server, LCPP, stream=False)
    session = AgentRunner(Agent(tools=[FunctionTool(list_stations)]), llm).create_session()
    events = run(session, calls({"name": "list_stations", "arguments": {"city": "Paris"}}))
    assert events[-1].text == "I have looked that up for you."  # it never saw the stations
    warnings = [r.message for r in caplog.records if "did not reach the model" in r.message]
    assert len(warnings) == 1 and "the server's chat template drops the tool role" in warnings[0]
    # A server whose template holds them (the same conversation, vLLM's double) is not warned about.
    caplog.clear()
    session = AgentRunner(Agent(tools=[FunctionTool(list_stations)]), model(chat_server, "vllm", stream=False)
                          ).create_session()
    run(session, calls({"name": "list_stations", "arguments": {"city": "Paris"}}))
    assert "did not reach the model" not in caplog.text


def test_max_tokens_cuts_arguments_that_run_on_and_the_model_is_told(chat_server, manager, service):
    events = run(session_for(manager, model(chat_server, "vllm", stream=False, max_tokens=40)), "[runaway] go")
    assert received(chat_server)[0]["body"]["max_tokens"] == 40
    (call,) = [e for e in events if isinstance(e, FunctionCall)]
    response = next(e for e in events if isinstance(e, FunctionResponse))
    assert response.is_error and service.executed == [], "a call cut mid-arguments does not run"
    message = response.response["error"]["message"]
    assert message.startswith("arguments are not valid JSON") and "(the answer was cut at the token limit of " \
                                                                  "max_tokens 40)" in message


def test_arguments_that_fill_the_context_make_the_next_request_overflow_saying_by_how_much(chat_server, manager):
    from droid.agent.models.openai_compat import ContextOverflow

    llm = model(chat_server, f"{LCPP}-ctx2048", stream=False, max_tokens=64)
    with pytest.raises(ContextOverflow) as raised:  # max_tokens is not honoured for automatic calls
        run(session_for(manager, llm), "[runaway] go")
    first, second = (r["body"] for r in received(chat_server))
    assert first["max_tokens"] == 64
    assert len(second["messages"][2]["tool_calls"][0]["function"]["arguments"]) > 4000, "the arguments ran on"
    assert raised.value.context == 2048 and raised.value.requested > 2048
    assert "This model's maximum context length is 2048 tokens" in str(raised.value)


def test_an_overflow_counted_far_beyond_what_was_sent_is_put_down_to_the_models_own_output():
    from types import SimpleNamespace

    from droid.agent.models.openai_compat import ContextOverflow

    llm = OpenAICompatibleModel("m", base_url="http://127.0.0.1:9/v1")
    body = {"model": "m", "messages": [{"role": "user", "content": "Where is my order ORD-8492?"}]}
    said = ("This model's maximum context length is 8192 tokens. However, you requested {} tokens ({} in the "
            "messages, None in the completion). Please reduce the length of the messages or completion.")
    generated = ContextOverflow.of(llm, SimpleNamespace(message=said.format(8193, 8193), body=None), body)
    assert (generated.requested, generated.context, generated.by_own_output) == (8193, 8192, True)
    assert "the model's own output filled its context of 8192. Bound each answer with --max-tokens" in str(generated)
    sent = ContextOverflow.of(llm, SimpleNamespace(message=said.format(30, 30), body=None), body)
    assert not sent.by_own_output and "--trim-history" in str(sent)


def many_tools(count: int = 12) -> list:
    """``count`` local tools with descriptions as long as real apps' (12 take ~2,000 tokens)."""
    def make(n: int):
        def tool(order_id: str, note: str = "") -> dict:
            return {"n": n}
        tool.__name__ = f"tool_{n}"
        tool.__doc__ = f"Tool number {n}. " + "It looks up an order and says everything about it. " * 12
        return FunctionTool(tool)

    return [make(n) for n in range(count)]


def test_an_answer_the_server_counts_past_max_tokens_is_warned_about(chat_server, manager, caplog):
    llm = model(chat_server, f"{LCPP}-ctx4096", stream=False, max_tokens=64)
    with pytest.raises(ContextLengthExceededError):  # the runaway arguments overflow the next request
        run(session_for(manager, llm), "[runaway] go")
    (warning,) = [r.getMessage() for r in caplog.records if "where max_tokens was 64" in r.getMessage()]
    assert warning.startswith(f"{LCPP}-ctx4096 at {chat_server}/v1 wrote ")
    assert ("the server does not bound this answer (llama-cpp-python's chatml-function-calling ignores max_tokens "
            "for automatic tool calls)") in warning
    caplog.clear()
    run(session_for(manager, model(chat_server, "vllm", stream=False, max_tokens=64)), "[runaway] go")
    assert "where max_tokens was" not in caplog.text, "a server that honours the bound is not warned about"


def test_short_tool_results_the_prompt_never_holds_are_warned_about_too(chat_server, caplog):
    def status() -> dict:
        """Says whether the helper is ready."""
        return {"result": "ready"}

    for flavor, dropped in ((LCPP, True), ("vllm", False), ("openai", False)):
        caplog.clear()
        session = AgentRunner(Agent(tools=[FunctionTool(status)]), model(chat_server, flavor, stream=False)
                              ).create_session()
        run(session, calls({"name": "status", "arguments": {}}))
        warned = [r.getMessage() for r in caplog.records if "did not reach the model" in r.getMessage()]
        assert bool(warned) == dropped, flavor
    # One more round of the conversation, on the server that drops them: warned again.
    caplog.clear()
    session = AgentRunner(Agent(tools=[FunctionTool(status)]), model(chat_server, LCPP, stream=False)).create_session()
    run(session, calls({"name": "status", "arguments": {}}))
    run(session, calls({"name": "status", "arguments": {}}))
    assert len([r for r in caplog.records if "did not reach the model" in r.getMessage()]) == 2


def test_an_overflow_the_server_generates_into_its_own_prompt_is_the_models_at_a_small_context(chat_server):
    tools = many_tools()
    llm = model(chat_server, f"{LCPP}-ctx4096", stream=False)
    sent = len(json.dumps(llm.request_body(__import__("droid.agent.models.base", fromlist=["x"]).ModelRequest(
        "", (), tuple(t.declaration() for t in tools))))) // 4
    assert sent > 2000, "12 declarations take half of this context"
    with pytest.raises(ContextLengthExceededError) as raised:
        run(AgentRunner(Agent(tools=tools), llm).create_session(), "[calls-run-on] go")
    assert raised.value.by_own_output and raised.value.context == 4096
    assert "the model's own output filled its context of 4096" in str(raised.value)
    # A conversation that does not fit by itself is no doing of the model's.
    with pytest.raises(ContextLengthExceededError) as too_long:
        run(AgentRunner(Agent(tools=tools), model(chat_server, f"{LCPP}-ctx2048", stream=False)).create_session(), "hi")
    assert not too_long.value.by_own_output and "--trim-history" in str(too_long.value)


def test_a_base_url_without_v1_says_to_add_it(chat_server, manager):
    llm = OpenAICompatibleModel("openai", base_url=chat_server, max_retries=0)
    with pytest.raises(ModelError) as raised:
        run(session_for(manager, llm), "hello")
    assert str(raised.value).endswith(f"no route /chat/completions. No chat-completions endpoint at "
                                      f"{chat_server}/chat/completions: OpenAI-compatible servers serve it under /v1, "
                                      f"so try --base-url {chat_server}/v1 (base_url=, OPENAI_BASE_URL)")


@pytest.mark.parametrize("flavor, words", [
    ("ollama-notools", "does not support tools"),
    ("vllm-notools", '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'),
    ("llamacpp-notools", "tools param requires --jinja flag"),
])
def test_a_model_served_without_tool_support_is_told_what_to_change(chat_server, manager, flavor, words):
    with pytest.raises(ModelError) as raised:
        run(session_for(manager, model(chat_server, flavor)), "Where is ORD-8492?")
    message = str(raised.value)
    assert words in message, "the server's own words"
    assert (f"The server cannot give model {flavor} tools as it serves it: on Ollama pick a model with tool support"
            in message) and "--enable-auto-tool-choice --tool-call-parser NAME" in message and "--jinja" in message
