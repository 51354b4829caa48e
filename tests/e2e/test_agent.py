"""The sample assistant in its own process, against a device process (issue 5); the device
preinstalls and pregrants it as `make sim` does (conftest.py)."""

from __future__ import annotations

import json

from tests.helpers import droidsim

AGENT = "com.example.assistant"


def agent_events(device_process, prompt: str, answer: str = "") -> list[dict]:
    result = droidsim("agent", "--as", AGENT, "--json", prompt, data=device_process.data, input=answer)
    assert result.returncode == 0, result.stderr
    assert "bm25s" not in result.stderr, result.stderr  # the offline model's index is built quietly
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def order_status(device_process) -> str:
    result = droidsim("shell", "cmd", "app_function", "execute-app-function", "--package", "com.example.orders",
                      "--function", "com.example.orders.OrderFunctionService#fetch_order_details",
                      "--parameters", '{"orderId": "ORD-8492"}',
                      data=device_process.data)
    return json.loads(result.stdout)["status"]


def test_where_is_my_order_calls_fetch_then_answers_with_the_status(device_process):
    events = agent_events(device_process, "Where is my order ORD-8492?")
    kinds = [e["type"] for e in events]
    call = events[kinds.index("function_call")]
    assert call["name"] == "fetch_order_details" and call["args"] == {"orderId": "ORD-8492"}
    assert kinds.index("function_call") < kinds.index("function_response") < kinds.index("text")
    final = [e for e in events if e["type"] == "text" and not e["partial"]][-1]
    assert order_status(device_process) in final["text"]


def test_cancel_asks_first_and_declining_cancels_nothing(device_process):
    before = order_status(device_process)
    events = agent_events(device_process, "Cancel order ORD-8492", answer="n\n")
    response = next(e for e in events if e["type"] == "function_response")
    assert response["name"] == "cancel_order"
    assert response["response"]["status"] == "CANCELLED_BY_USER"
    assert order_status(device_process) == before


def test_cli_flags_reach_a_real_model_server_and_errors_exit_non_zero(device_process):
    from tests.unit.agent.chat_server import received, running

    with running() as server:
        base = ["agent", "--as", AGENT, "--model", "openai:ollama", "--base-url", f"{server}/v1", "--json"]
        result = droidsim(*base, "--no-stream", "--read-timeout", "30", "--tool-choice", "auto", "--max-tokens", "64",
                          "--no-parallel-tool-calls", "Where is my order ORD-8492?", data=device_process.data)
        assert result.returncode == 0, result.stderr
        first = received(server)[0]["body"]
        assert not first.get("stream", False) and first["tool_choice"] == "auto" and first["max_tokens"] == 64
        assert first["parallel_tool_calls"] is False
        assert any(json.loads(line).get("name") == "fetch_order_details" for line in result.stdout.splitlines())
        failed = droidsim(*base, "[fail 400] hi", data=device_process.data)
        assert failed.returncode == 1 and "HTTP 400" in failed.stderr
        bad = droidsim("agent", "--as", AGENT, "--read-timeout", "5", "hi", data=device_process.data)
        assert bad.returncode == 1 and "apply to openai:NAME models" in bad.stderr
