"""The console front-end of ``droidsim agent``: streaming, confirmation on stdin, --json, chat."""

from __future__ import annotations

import json

from .conftest import console
from .fakes import CANCEL, FETCH


def events(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def test_json_stream_for_a_question(context, service):
    code, out, _ = console(context, "Where is my order ORD-8492?", json_output=True)
    assert code == 0
    stream = events(out)
    kinds = [e["type"] for e in stream]
    assert kinds[:2] == ["function_call", "function_response"]
    assert stream[0]["name"] == "fetch_order_details" and stream[0]["args"] == {"orderId": "ORD-8492"}
    assert stream[0]["function_id"] == FETCH
    assert stream[-1]["type"] == "text" and not stream[-1]["partial"] and "SHIPPED" in stream[-1]["text"]
    assert service.executed == [FETCH]


def test_declining_a_destructive_call_runs_nothing(context, service):
    code, out, err = console(context, "Cancel order ORD-8492", stdin="n\n", json_output=True)
    assert code == 0
    stream = events(out)
    confirmation = next(e for e in stream if e["type"] == "confirmation")
    assert confirmation == {"type": "confirmation", "name": "cancel_order", "args": {"orderId": "ORD-8492"}, "approved": False}
    response = next(e for e in stream if e["type"] == "function_response")
    assert response["response"]["status"] == "CANCELLED_BY_USER"
    assert service.calls == [] and service.orders["ORD-8492"]["status"] == "SHIPPED"
    assert "cancel_order" in err and "[y/N]" in err, "the question goes to stderr when stdout is JSON"


def test_no_answer_means_no(context, service):
    code, out, _ = console(context, "Cancel order ORD-8492", stdin="", json_output=True)
    assert code == 0 and service.calls == []


def test_approving_runs_the_call_and_text_mode_shows_each_step(context, service):
    code, out, _ = console(context, "Cancel order ORD-8492", stdin="y\n")
    assert code == 0
    assert service.executed == [CANCEL]
    assert '-> cancel_order {"orderId": "ORD-8492"}' in out
    assert "Allow cancel_order" in out and "[y/N]" in out
    assert '<- cancel_order {"orderId": "ORD-8492", "cancelled": true' in out
    assert "\x1b[" not in out, "no colour codes when stdout is not a terminal"


def test_errors_are_shown(context):
    code, out, _ = console(context, "Where is my order ORD-0000?")
    assert code == 0
    assert "<- fetch_order_details failed: ERROR_RESOURCE_NOT_FOUND (AppFunctionElementNotFoundException)" in out


def test_interactive_chat_asks_and_continues(context, service):
    code, out, _ = console(context, None, stdin="Where is my order?\nORD-8492\n/exit\nnever read\n")
    assert code == 0
    assert "order id" in out
    assert '-> fetch_order_details {"orderId": "ORD-8492"}' in out
    assert "SHIPPED" in out
    assert service.executed == [FETCH]


def test_conversation_is_kept_in_the_session_folder(context, service, tmp_path):
    console(context, "Where is my order?", session_dir=tmp_path, session_id="chat")
    code, out, _ = console(context, "ORD-8492", session_dir=tmp_path, session_id="chat")
    assert code == 0 and "SHIPPED" in out
    assert (tmp_path / "chat.json").exists()


def test_bad_model_spec_is_an_error_exit(context):
    code, out, err = console(context, "hi", model="llama")
    assert code == 1 and "unknown model" in err


def test_function_ids_limit_what_the_agent_sees(context, service):
    code, out, _ = console(context, "Cancel order ORD-8492", stdin="y\n", app_function_ids=["fetch_order_details"])
    assert code == 0 and service.calls == []
    assert "could not match" in out and "fetch order details" in out
    code, out, _ = console(context, "Where is my order ORD-8492?", app_function_ids=[FETCH])
    assert service.executed == [FETCH]


def test_sessions_default_to_the_app_data_folder(context, tmp_path):
    context.data_dir = tmp_path
    console(context, "Where is my order?", session_id="s1")
    assert (tmp_path / "agent_sessions" / "s1.json").exists()


def test_a_device_that_refuses_discovery_is_an_error_exit(context, service):
    from droid.appfunctions.exceptions import AppFunctionDeniedException

    def refuse(spec):
        raise AppFunctionDeniedException("caller lacks EXECUTE_APP_FUNCTIONS")

    service.search_app_functions = refuse
    code, out, err = console(context, "hi")
    assert code == 1 and "EXECUTE_APP_FUNCTIONS" in err


def test_text_mode_shows_dates_as_people_write_them_and_json_keeps_the_wire_form(context, service):
    from droid.appfunctions import AppFunctionData

    service.orders["ORD-8492"]["estimatedDelivery"] = AppFunctionData({"year": 2025, "month": 6, "dayOfMonth": 3})
    code, out, _ = console(context, "Where is my order ORD-8492?")
    assert code == 0
    assert '"estimatedDelivery": "2025-06-03"' in out and "dayOfMonth" not in out
    assert "estimated delivery: 2025-06-03" in out  # the offline model's words too
    _, out, _ = console(context, "Where is my order ORD-8492?", json_output=True)
    response = next(e for e in events(out) if e["type"] == "function_response")
    assert response["response"]["estimatedDelivery"] == {"year": 2025, "month": 6, "dayOfMonth": 3}
