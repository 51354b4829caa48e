"""Errors are not answers: a real HTTP server that fails is infrastructure, not a wrong model.

The chat-completions test server (tests/unit/agent/chat_server.py) runs in its own
process; ``[fail 500]`` in a prompt makes it answer HTTP 500, ``[stall]`` makes it
stop sending. ``droidsim eval`` runs in its own process too.
"""

from __future__ import annotations

import json

import pytest

from tests.helpers import droidsim
from tests.unit.agent.chat_server import received, running

from .conftest import write_suite

pytestmark = pytest.mark.slow

SUITE = """
suite: t
cases:
  - {id: a-fine, category: simple, user: "Where is order ORD-8492?",
     calls: [{function: fetch_order_details, args: {orderId: ORD-8492}}]}
  - {id: b-server-fails, category: simple, user: "Where is order ORD-6025? [fail 500]",
     calls: [{function: fetch_order_details, args: {orderId: ORD-6025}}]}
"""

def _eval(server: str, suite, out, *extra: str):
    return droidsim("eval", str(suite), "--model", "openai:vllm", "--base-url", f"{server}/v1",
                    "--out", str(out), "--date", "2026-03-14", *extra, timeout=240)


def test_a_server_answering_500_is_an_infra_error_left_out_of_the_accuracy_and_the_exit_says_so(tmp_path):
    suite = write_suite(tmp_path, SUITE)
    with running() as server:
        result = _eval(server, suite, tmp_path / "o")
        allowed = _eval(server, suite, tmp_path / "p", "--allow-errors")
    assert result.returncode == 3, result.stderr
    assert "1 trial(s) met an infrastructure error" in result.stderr and "--allow-errors" in result.stderr
    # The table: 100 % of what was scored, and the error in its own column.
    assert "100.0% (1/1)" in result.stdout and "infra errors" in result.stdout
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    overall = summary["configs"]["base"]["scores"]["overall"]
    assert (overall["trials_run"], overall["pass@1"], overall["infra_errors"]) == (1, 1.0, 1)
    (error,) = summary["configs"]["base"]["scores"]["infra_errors"]
    assert error["case_id"] == "b-server-fails" and error["kind"] == "server_error" and "HTTP 500" in error["detail"]
    record = [json.loads(line) for line in (tmp_path / "o" / "results.jsonl").read_text().splitlines()][1]
    assert record["attempts"] == 3 and record["passed"] is False and record["recovered"] is False
    assert [r["kind"] for r in record["retried"]] == ["server_error", "server_error"]  # the runs before the last
    assert allowed.returncode == 0, allowed.stderr


def test_a_stalled_server_is_a_timeout_and_eval_takes_the_agents_server_options(tmp_path):
    suite = write_suite(tmp_path, SUITE.replace("[fail 500]", "[stall]"))
    with running() as server:
        result = _eval(server, suite, tmp_path / "o", "--allow-errors", "--read-timeout", "1", "--temperature", "0",
                       "--tool-choice", "required", "--no-parallel-tool-calls", "--case", "b-server-fails")
        result_fine = _eval(server, suite, tmp_path / "q", "--no-stream", "--case", "a-fine")
        bodies = [r["body"] for r in received(server)]
    assert result.returncode == 0, result.stderr
    record = json.loads((tmp_path / "o" / "results.jsonl").read_text())
    assert record["infra_error"]["kind"] == "timeout" and "read_timeout (1s)" in record["infra_error"]["detail"]
    run = json.loads((tmp_path / "o" / "run.json").read_text())
    assert run["model_options"] == {"read_timeout": 1.0, "temperature": 0.0}
    assert run["agent_options"] == {"tool_choice": "required", "parallel_tool_calls": False}
    stalled = bodies[0]
    assert stalled["temperature"] == 0 and stalled["tool_choice"] == "required"
    assert stalled["parallel_tool_calls"] is False and stalled["stream"] is True
    assert result_fine.returncode == 0 and bodies[-1].get("stream") in (None, False)
    assert json.loads((tmp_path / "q" / "run.json").read_text())["model_options"] == {"stream": False}


def test_server_options_are_refused_for_a_model_without_a_server(tmp_path):
    result = droidsim("eval", str(write_suite(tmp_path, SUITE)), "--no-stream", "--out", str(tmp_path / "o"))
    assert result.returncode == 1 and "stream apply to openai:NAME models, not to offline" in result.stderr


RUNAWAY = """
suite: t
cases:
  - {id: runs-on, category: simple, user: "[runaway] Where is order ORD-8492?",
     calls: [{function: fetch_order_details, args: {orderId: ORD-8492}}]}
  - {id: fine, category: simple, user: "Where is order ORD-6025?",
     calls: [{function: fetch_order_details, args: {orderId: ORD-6025}}]}
"""


def test_an_overflow_of_the_models_own_output_is_its_failure_counted_and_not_retried(tmp_path):
    # llama-cpp-python's chatml-function-calling lets a call's arguments run until the context is
    # full, whatever max_tokens says; the next request overflows: the model's doing, not the run's.
    suite = write_suite(tmp_path, RUNAWAY)
    with running() as server:
        result = droidsim("eval", str(suite), "--model", "openai:llama_cpp_python-ctx4096", "--base-url",
                          f"{server}/v1", "--no-stream", "--max-tokens", "64", "--out", str(tmp_path / "o"),
                          "--date", "2026-03-14", timeout=240)
        asked = [r["body"]["messages"][-1]["content"] for r in received(server)]
    assert result.returncode == 0, result.stderr  # no infrastructure error to answer for
    records = {r["case_id"]: r for r in map(json.loads, (tmp_path / "o" / "results.jsonl").read_text().splitlines())}
    runaway = records["runs-on"]
    assert runaway["infra_error"] is None and runaway["attempts"] == 1 and runaway["passed"] is False
    assert asked.count("[runaway] Where is order ORD-8492?") == 1, "not asked again"
    (failure,) = runaway["turns"][0]["failures"]
    assert failure["kind"] == "context_overflow"
    assert failure["detail"].startswith("openai:llama_cpp_python-ctx4096: the model's own messages (")
    assert failure["detail"].endswith("characters) filled its context; the conversation could not go on")
    (made,) = runaway["turns"][0]["calls"]  # the call it made before the overflow ran: the record keeps it
    assert made["name"] == "fetch_order_details" and made["args"]["orderId"].startswith("ORD-8492 and so on")
    # Every warning the server earned is printed, each in its own words (issue 47).
    assert "warning: base: 1 case(s) (runs-on): openai:llama_cpp_python-ctx4096" not in result.stdout
    assert "(runs-on): llama_cpp_python-ctx4096 at " in result.stdout and "where max_tokens was 64" in result.stdout
    assert "(fine): the tool results sent to llama_cpp_python-ctx4096 at " in result.stdout
    overall = json.loads((tmp_path / "o" / "summary.json").read_text())["configs"]["base"]["scores"]["overall"]
    assert (overall["trials_run"], overall["passed"], overall["infra_errors"]) == (2, 0, 0)
    # The other case fails too: chatml-function-calling never showed the model the order it looked up.
    (missed,) = records["fine"]["turns"][0]["failures"]
    assert missed["kind"] == "wrong_answer" and "fetch_order_details answered, but the reply says none of" in \
        missed["detail"]
    assert json.loads((tmp_path / "o" / "run.json").read_text())["model_options"]["max_tokens"] == 64


def test_a_conversation_too_long_before_the_model_said_anything_stays_an_infra_error(tmp_path):
    suite = write_suite(tmp_path, RUNAWAY.replace("[runaway] Where is order ORD-8492?", "Where is ORD-8492? " * 40))
    with running() as server:
        result = droidsim("eval", str(suite), "--model", "openai:vllm-ctx150", "--base-url", f"{server}/v1",
                          "--out", str(tmp_path / "o"), "--date", "2026-03-14", "--case", "runs-on", timeout=240)
    assert result.returncode == 3, result.stderr
    (record,) = map(json.loads, (tmp_path / "o" / "results.jsonl").read_text().splitlines())
    assert record["infra_error"]["kind"] == "server_error" and "maximum context length" in record["infra_error"]["detail"]
    assert record["attempts"] == 3


def test_max_tokens_bounds_arguments_that_run_on_and_the_cut_call_is_one_failure_that_says_so(tmp_path):
    suite = write_suite(tmp_path, RUNAWAY)
    with running() as server:
        result = droidsim("eval", str(suite), "--model", "openai:vllm", "--base-url", f"{server}/v1", "--no-stream",
                          "--max-tokens", "40", "--case", "runs-on", "--out", str(tmp_path / "o"), "--date",
                          "2026-03-14", timeout=240)
        first = received(server)[0]["body"]
    assert result.returncode == 0, result.stderr
    assert first["max_tokens"] == 40
    (record,) = map(json.loads, (tmp_path / "o" / "results.jsonl").read_text().splitlines())
    (failure,) = record["turns"][0]["failures"]
    assert failure["kind"] == "wrong_type" and failure["detail"].startswith(
        "fetch_order_details: the arguments are not JSON: arguments are not valid JSON")
    assert failure["detail"].endswith("(the answer was cut at the token limit of max_tokens 40)")
