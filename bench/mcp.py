"""MCP figure: a tools/call over HTTP through ``droidsim mcp`` to the device and an app, against
a bare SDK server answering a trivial tool (bench.mcp_echo_server), the same client calling both.

``python -m bench.mcp`` runs this row alone.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from bench import appgen
from bench.child import REPO, ChildProcess
from bench.report import Report, Row, Target
from bench.stats import Summary
from bench.timing import interleaved

if TYPE_CHECKING:
    from sim.mcp.process import HttpBridgeProcess

# A guard, not a goal (bench/report.py Target): the rest is the Python of the bridge, the device and the app.
TOOL_CALL_P50_GUARD = Target("ratio_at_most", 2.2, guard=True)
AGENT = "com.example.assistant"


def prepare(data: Path, app_dir: Path) -> None:
    """A device with the sample agent, pregranted, and one generated app to call."""
    from sim.device import Device

    with Device(data) as device:
        device.install_all(REPO / "apps" / "system", system=True)
        device.install(app_dir)
        device.pregrant_agent(AGENT)


def run(report: Report, data: Path, *, rounds: int, per_round: int) -> None:
    from sim.mcp.process import HttpBridgeProcess

    with ChildProcess("bench.device_process", "--data", str(data)), \
            HttpBridgeProcess(data, AGENT, cwd=REPO) as bridge, ChildProcess("bench.mcp_echo_server") as echo:
        samples = asyncio.run(_sample(bridge, echo.ready["url"], rounds, per_round))
    baseline = report.baseline("bare MCP SDK tools/call over HTTP p50", Summary.of(samples["bare"]).p50, "ns")
    bridged = Summary.of(samples["bridge"])
    report.add(Row("MCP tools/call over HTTP via the bridge p50", bridged.p50, "ns", baseline,
                   TOOL_CALL_P50_GUARD, detail={"samples": bridged.count}))


async def _sample(bridge: "HttpBridgeProcess", echo_url: str, rounds: int, per_round: int) -> dict[str, list[int]]:
    """Both clients stay open in this task (anyio wants that); a worker thread times the calls,
    each one run on this loop and waited for."""
    from mcp import Client

    package = appgen.package_name(0)
    tool, arguments = appgen.function_id(package, 0).rsplit("#", 1)[1], {"a": 1, "b": 2}
    # The 2025-11-25 handshake, as Claude Desktop and most clients speak it today; the SDK's
    # 2026-07-28 per-request mode costs ~40 ms a call on both sides (docs/performance.md).
    async with Client(bridge.client_transport(), mode="legacy") as bridged, Client(echo_url, mode="legacy") as bare:
        result = await bridged.call_tool(tool, arguments)
        if result.is_error or result.structured_content != {"result": 3}:
            raise RuntimeError(f"the bridged call returned {result}")
        loop = asyncio.get_running_loop()

        def blocking(call):
            return lambda: asyncio.run_coroutine_threadsafe(call(), loop).result(timeout=60)

        calls = {
            "bare": blocking(lambda: bare.call_tool("echo", {"text": "3"})),
            "bridge": blocking(lambda: bridged.call_tool(tool, arguments)),
        }
        return await asyncio.to_thread(interleaved, calls, warmup=20, rounds=rounds, per_round=per_round)


def main() -> None:
    from bench.__main__ import MCP_BATCH, ROUNDS, table_console

    root = Path(tempfile.mkdtemp(prefix="droidsim-bench-mcp-"))
    try:
        app_dir = appgen.write_app(root / "apps", appgen.package_name(0))
        prepare(root / "device", app_dir)
        report = Report()
        run(report, root / "device", rounds=ROUNDS, per_round=MCP_BATCH)
        report.render(table_console())
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
