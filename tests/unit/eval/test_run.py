"""A run: refusals before any model call, crashes and a server that goes down, resume, workers, variants."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from droid.appfunctions.compiler import generate
from sim.eval.run import EvalOptions, run_eval
from sim.eval.runner import ModelUnavailable
from sim.eval.suite import PROJECT_APPS, SuiteError, load_suite

from .conftest import RUN_DATE, write_suite

CHAT_SERVER = Path(__file__).resolve().parents[1] / "agent" / "chat_server.py"
ORDERS = """\
suite: orders
cases:
  - id: a-first
    category: simple
    user: Where is order ORD-8492?
    calls: [{function: fetch_order_details, args: {orderId: ORD-8492}}]
  - id: b-fail
    category: simple
    user: order ORD-6025, fail please
    calls: [{function: fetch_order_details, args: {orderId: ORD-6025}}]
  - id: c-last
    category: simple
    user: Where is order ORD-5117?
    calls: [{function: fetch_order_details, args: {orderId: ORD-5117}}]
"""


class ChatServer:
    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, str(CHAT_SERVER)], stdout=subprocess.PIPE, text=True)
        self.url = f"http://127.0.0.1:{self.process.stdout.readline().strip()}/v1"

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


def test_a_function_no_app_has_is_refused_before_any_model_call(tmp_path):
    suite = load_suite(write_suite(tmp_path, ORDERS.replace("function: fetch_order_details, args: {orderId: ORD-6025}",
                                                             "function: track_order, args: {orderId: ORD-6025}")))
    with pytest.raises(SuiteError) as caught:
        # No server listens there: reaching the model would raise ModelUnavailable instead.
        run_eval(suite, EvalOptions(model="openai:nobody", base_url="http://127.0.0.1:9/v1", out=tmp_path / "o"))
    assert caught.value.line == 10 and caught.value.field == "cases[1].calls[0].function"
    assert "no installed app has a function 'track_order'" in caught.value.message
    assert not (tmp_path / "o" / "results.jsonl").exists()


def test_a_server_error_is_no_verdict_and_a_dead_server_stops_the_run_keeping_what_is_done(tmp_path):
    suite = load_suite(write_suite(tmp_path, ORDERS))
    server = ChatServer()
    options = EvalOptions(model="openai:test", base_url=server.url, api_key="sk-test", out=tmp_path / "o",
                          run_date=RUN_DATE)

    def kill_after_two(record, done, total):
        if done == 2:
            server.stop()

    try:
        with pytest.raises(ModelUnavailable, match="cannot reach"):
            run_eval(suite, options, kill_after_two)
    finally:
        server.stop()
    records = [json.loads(line) for line in (tmp_path / "o" / "results.jsonl").read_text().splitlines()]
    assert [(r["case_id"], r["passed"]) for r in records] == [("a-first", True), ("b-fail", False)]
    assert records[1]["infra_error"]["kind"] == "server_error" and "HTTP 500" in records[1]["infra_error"]["detail"]
    assert records[1]["attempts"] == 3  # retried twice on a fresh device before it was given up
    overall = json.loads((tmp_path / "o" / "summary.json").read_text())["configs"]["base"]["scores"]["overall"]
    assert (overall["cases"], overall["infra_errors"], overall["pass@1"]) == (1, 1, 1.0)

    server = ChatServer()
    try:
        options.base_url, options.resume = server.url, True
        summary = run_eval(suite, options)
    finally:
        server.stop()
    records = [json.loads(line) for line in (tmp_path / "o" / "results.jsonl").read_text().splitlines()]
    # --resume runs the case that met the server error again (here it fails the same way).
    assert [r["case_id"] for r in records] == ["a-first", "b-fail", "c-last"]
    overall = summary["configs"]["base"]["scores"]["overall"]
    assert (overall["passed"], overall["trials_run"], overall["infra_errors"]) == (2, 2, 1)


def test_workers_give_the_same_scores_as_one_process(shipped, tmp_path):
    ids = [c.id for c in shipped.cases[::9]]
    local = run_eval(shipped, EvalOptions(model="offline", out=tmp_path / "l", run_date=RUN_DATE, cases=ids))
    workers = run_eval(shipped, EvalOptions(model="offline", out=tmp_path / "w", run_date=RUN_DATE, cases=ids,
                                            workers=2))
    assert workers["configs"]["base"]["scores"] == local["configs"]["base"]["scores"]


def test_a_variant_is_scored_beside_the_base_and_the_difference_reported(shipped, tmp_path):
    variant = shutil.copytree(PROJECT_APPS / "orders", tmp_path / "orders-variant",
                              ignore=shutil.ignore_patterns("__pycache__"))
    source = variant / "orders.py"
    source.write_text(source.read_text().replace("def fetch_order_details(self, order_id: str)",
                                                 "def fetch_order_details(self, order_ref: str)")
                      .replace("order_id: The alphanumeric", "order_ref: The alphanumeric")
                      .replace("return _details(self._order(order_id))", "return _details(self._order(order_ref))"))
    generate(variant)
    ids = ["orders-where-is-my-order", "weather-paris"]
    summary = run_eval(shipped, EvalOptions(model="scripted", out=tmp_path / "o", run_date=RUN_DATE, cases=ids,
                                            variant=variant))
    assert summary["variant"]["newly_failing"] == ["orders-where-is-my-order"]
    assert summary["variant"]["pass@1_delta"]["overall"] == -0.5


def test_trials_and_a_distractor_sweep(shipped, tmp_path):
    summary = run_eval(shipped, EvalOptions(model="scripted", out=tmp_path, run_date=RUN_DATE, trials=2,
                                            distractors=[0, 3], cases=["orders-where-is-my-order", "notes-two-notes"]))
    assert list(summary["configs"]) == ["base+0", "base+3"]
    for config in summary["configs"].values():
        assert config["scores"]["overall"] == {"cases": 2, "trials_run": 4, "passed": 4, "pass@1": 1.0, "pass^2": 1.0,
                                               "wilson_95": [0.5101, 1.0], "pass^k": {"1": 1.0, "2": 1.0},
                                               "recovered": 4, "recovered_rate": 1.0, "infra_errors": 0,
                                               "doubtful": 0, "pass@1_if_doubtful_pass": 1.0,
                                               "task": {"passed": 4, "pass@1": 1.0},
                                               "words": {"passed": 4, "doubtful": 0, "pass@1": 1.0}}
    assert "Accuracy against catalog size" in (tmp_path / "report.html").read_text()


def test_the_simulated_user_declines_what_the_turn_does_not_expect(shipped):
    from types import SimpleNamespace

    from sim.eval.catalog import Catalog
    from sim.eval.runner import SimulatedUser

    ids = {name: f"com.example.orders.OrderFunctionService#{name}" for name in ("cancel_order", "fetch_order_details")}
    catalog = Catalog(SimpleNamespace(function_id=f, short_id=n, package_name="com.example.orders", parameters={})
                      for n, f in ids.items())
    user = SimulatedUser(catalog, ids, RUN_DATE)
    declined = next(c for c in shipped.cases if c.id == "destructive-cancel-order-no")
    approved = next(c for c in shipped.cases if c.id == "destructive-cancel-order-yes")
    looked_up = next(c for c in shipped.cases if c.id == "orders-where-is-my-order")
    wanted = {"orderId": "ORD-5117", "reason": "wrong stove"}
    for case, args, answer in ((approved, wanted, True), (declined, {"orderId": "ORD-7310"}, False),
                               (looked_up, wanted, False),
                               # the function the case expects, on an order it never named
                               (approved, {**wanted, "orderId": "ORD-6025"}, False)):
        user.turn = case.turns[0]
        assert user.confirm("cancel_order", args) is answer


INSTEAD = "run without --device: eval's own in-process devices install the suite's apps with their responses:/double:"


@pytest.mark.parametrize("options, message", [
    ({"workers": 2}, "one running device cannot hold several cases at once (each resets its apps), so --workers "
                     "and --ray have nothing to share out; " + INSTEAD),
    ({"ray": True}, "one running device cannot hold several cases at once"),
    ({"distractors": [10]}, "--distractors and --sweep install generated apps, and eval installs nothing on a "
                            "running device (its apps and their data are yours); " + INSTEAD),
    ({"distractors": [0, 10]}, "--distractors and --sweep install generated apps"),
    ({"variant": PROJECT_APPS / "orders"}, "--variant installs another build in place of the suite's app, and eval "
                                           "installs nothing on a running device (its apps and their data are "
                                           "yours); " + INSTEAD),
    ({"variant": PROJECT_APPS / "orders"}, "or run the suite on the device once per build and compare the two runs "
                                           "with `droidsim eval compare`"),
])
def test_a_running_device_is_refused_what_it_cannot_do_saying_what_to_do_instead(shipped, tmp_path, options, message):
    from sim.eval.devices import DeviceSetupError

    with pytest.raises(DeviceSetupError, match=re.escape(message)):
        run_eval(shipped, EvalOptions(device=str(tmp_path), out=tmp_path / "o", **options))
    assert not (tmp_path / "o").exists()


TEXT_CALLS = """\
suite: text-calls
cases:
  - id: mistral-parsed
    category: simple
    user: '[text-call mistral11] [calls] [{"name": "fetch_order_details", "arguments": {"orderId": "ORD-8492"}}]'
    calls: [{function: fetch_order_details, args: {orderId: ORD-8492}}]
  - id: unparsed
    category: simple
    user: '[text-call function-tag] [calls] [{"name": "fetch_order_details", "arguments": {"orderId": "ORD-8492"}}]'
    calls: [{function: fetch_order_details, args: {orderId: ORD-8492}}]
"""


def test_text_tool_calls_are_scored_as_calls_and_an_unparsed_one_is_warned_about(tmp_path):
    suite = load_suite(write_suite(tmp_path, TEXT_CALLS))
    server = ChatServer()
    try:
        summary = run_eval(suite, EvalOptions(model="openai:vllm", base_url=server.url, out=tmp_path / "o",
                                              run_date=RUN_DATE))
    finally:
        server.stop()
    records = {r["case_id"]: r for r in map(json.loads, (tmp_path / "o" / "results.jsonl").read_text().splitlines())}
    assert records["mistral-parsed"]["passed"] and records["mistral-parsed"]["warnings"] == []
    assert not records["unparsed"]["passed"]
    (warning,) = records["unparsed"]["warnings"]
    assert "looks like a tool call that was not run (it contains '<function=fetch_order_details')" in warning
    assert summary["configs"]["base"]["warnings"] == [{"case_id": "unparsed", "trial": 0, "warning": warning}]
    from rich.console import Console

    from sim.eval.report import terminal_table

    console = Console(record=True, width=400, color_system=None)
    terminal_table(summary, console)
    assert f"warning: base: 1 case(s) (unparsed): {warning}" in console.export_text()
