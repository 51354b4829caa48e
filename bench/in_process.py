"""Figures inside one process: ``Device(isolated_apps=False)`` and the agent loop on top of it.

The baselines are the floors of such a call: one protobuf encode-decode of
the same request and response (what any binder transaction would cost), and
one hop to an event-loop thread and back (the app's main thread is such a
thread, and a call must run its code there, as on Android).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import statistics
import threading
from pathlib import Path

from bench import appgen
from bench.report import Baseline, Report, Row, Target
from bench.stats import Summary
from bench.timing import interleaved
from bench.transport import protobuf_round_trip
from droid.binder import wire

EXECUTE_P50_TARGET = 10.0


class LoopThread:
    """A bare event loop on its own thread, to time a hop to it and back."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="bench-loop", daemon=True)
        self._thread.start()

    def round_trip(self) -> object:
        future: concurrent.futures.Future = concurrent.futures.Future()
        self.loop.call_soon_threadsafe(future.set_result, None)
        return future.result()

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join()
        self.loop.close()


def run(report: Report, data_dir: Path, app_dir: Path, *, rounds: int, per_round: int, agent_runs: int) -> None:
    from sim.device import Device

    package = appgen.package_name(0)
    request, expected = appgen.sum_request(package)
    with Device(data_dir, isolated_apps=False) as device:
        device.install(app_dir)
        manager = device.shell_context().app_function_manager
        execute = lambda: manager.execute_app_function(request)  # noqa: E731
        response = execute()
        appgen.check_sum(response, expected)
        protobuf = protobuf_round_trip(wire.request_to_proto(request), wire.result_to_proto(response))
        loop_thread = LoopThread()
        try:
            samples = interleaved({"protobuf": protobuf, "hop": loop_thread.round_trip, "execute": execute},
                                  warmup=per_round, rounds=rounds, per_round=per_round)
        finally:
            loop_thread.close()
        floor = report.baseline("protobuf round trip p50", Summary.of(samples["protobuf"]).p50, "ns")
        hop = report.baseline("thread hop p50", Summary.of(samples["hop"]).p50, "ns")
        inproc = Summary.of(samples["execute"])
        report.add(Row("execute, in-process p50", inproc.p50, "ns", floor,
                       Target("ratio_at_most", EXECUTE_P50_TARGET), detail={"samples": inproc.count}))
        report.add(Row("execute, in-process p50 (vs hop)", inproc.p50, "ns", hop, detail={"samples": inproc.count}))
        execute_p50 = report.baseline("execute, in-process p50", inproc.p50, "ns")
        _agent_loop(report, device, request, expected, execute_p50, agent_runs)


def _agent_loop(report: Report, device, request, expected: int, execute_p50: Baseline, runs: int) -> None:
    """What the loop adds per tool turn: (an 11-turn run - a 1-turn run) / 10, minus the call itself.

    The difference cancels what every run pays once (runner, session, prompt,
    final answer), leaving the cost of one turn: model request, tool call
    through the manager, response event, history.
    """
    from droid.agent import Agent, AgentRunner, AppFunctionAgentTools, FunctionResponse, ScriptedModel, tool_call

    tools = AppFunctionAgentTools.discover(device.shell_context(), [request.function_identifier])
    if len(tools) != 1:
        raise RuntimeError(f"discovery found {len(tools)} tools for {request.function_identifier}, expected 1")
    call = tool_call(tools[0].name, a=request.parameters["a"], b=request.parameters["b"])
    loop = asyncio.new_event_loop()

    def run_agent(turns: int) -> None:
        runner = AgentRunner(Agent(name="bench", tools=tools, max_turns=turns + 1), ScriptedModel([call] * turns + ["done"]))

        async def consume() -> list:
            return [event async for event in runner.create_session().run("add the numbers")]

        events = loop.run_until_complete(consume())
        runner.close()
        outputs = [e.response for e in events if isinstance(e, FunctionResponse)]
        if outputs != [{"result": expected}] * turns:
            raise RuntimeError(f"the agent's tool turns answered {outputs[:2]!r}, expected {expected} each")

    short, long = 1, 11
    samples = interleaved({"short": lambda: run_agent(short), "long": lambda: run_agent(long)},
                          warmup=3, rounds=4, per_round=max(runs // 4, 1))
    loop.close()
    per_turn = (statistics.median(samples["long"]) - statistics.median(samples["short"])) / (long - short)
    report.add(Row("agent loop overhead per turn", per_turn - execute_p50.value, "ns", execute_p50,
                   detail={"per_turn_ns": per_turn, "runs": len(samples["long"])}))
