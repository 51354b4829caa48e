"""The official MCP conformance suite against `droidsim mcp` over HTTP.

Its server scenarios call fixture tools by fixed names; the app under
tests/e2e/apps/mcp_conformance declares them as app functions. Every scenario is either
expected to pass, every check of it, or listed as not applicable to a bridge
of app functions; docs/mcp.md ("Conformance") gives the reasons. A scenario the suite adds
later fails this test until it is sorted into one list or the other.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import make_sim_options
from tests.e2e.mcp_support import AuthorizingProxy, http_bridge
from tests.helpers import REPO, DeviceProcess, copy_app

pytestmark = pytest.mark.e2e

# 0.1.13 is the newest release that runs on Node 20 (0.1.14 and later need Node 22's fs.globSync).
CONFORMANCE = "@modelcontextprotocol/conformance@0.1.13"
AGENT = "com.example.assistant"
FIXTURE_APP = REPO / "tests" / "e2e" / "apps" / "mcp_conformance"

PASSING = {
    "server-initialize", "ping", "tools-list", "tools-call-simple-text", "tools-call-error",
    "tools-call-elicitation", "json-schema-2020-12", "dns-rebinding-protection", "server-sse-multiple-streams",
}
NOT_APPLICABLE = {
    "logging-set-level", "completion-complete", "tools-call-image", "tools-call-audio",
    "tools-call-embedded-resource", "tools-call-mixed-content", "tools-call-with-logging",
    "tools-call-with-progress", "tools-call-sampling", "elicitation-sep1034-defaults",
    "elicitation-sep1330-enums", "server-sse-polling", "resources-list", "resources-read-text",
    "resources-read-binary", "resources-templates-read", "resources-subscribe", "resources-unsubscribe",
    "prompts-list", "prompts-get-simple", "prompts-get-with-args", "prompts-get-embedded-resource",
    "prompts-get-with-image",
}


@pytest.fixture(scope="module")
def conformance_bin() -> Path:
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"the MCP conformance suite runs on Node.js: {', '.join(missing)} not found on PATH")
    prefix = Path(sys.prefix) / "npm" / CONFORMANCE.replace("/", "+")
    binary = prefix / "node_modules" / ".bin" / "conformance"
    if not binary.exists():
        subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(prefix), CONFORMANCE],
                       check=True, timeout=300, capture_output=True)
    return binary


@pytest.fixture(scope="module")
def bridge(tmp_path_factory, conformance_bin):
    root = tmp_path_factory.mktemp("mcp-conformance")
    apps = root / "apps"
    copy_app(FIXTURE_APP, apps)
    device = DeviceProcess(root / "data", apps, extra=make_sim_options(root / "data"))
    bridge = http_bridge(root / "data", AGENT)
    proxy = AuthorizingProxy(bridge)  # the suite cannot send the bridge's bearer token itself
    yield proxy
    proxy.stop()
    bridge.stop()
    device.stop()


def test_every_applicable_scenario_passes(bridge, conformance_bin, tmp_path):
    run = subprocess.run([str(conformance_bin), "server", "--url", bridge.url, "--suite", "all", "-o", str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    results = {}
    for checks in tmp_path.glob("server-*/checks.json"):
        scenario = checks.parent.name.removeprefix("server-").rsplit("-", 6)[0]
        results[scenario] = {c["id"]: (c["status"], c.get("errorMessage")) for c in json.loads(checks.read_text())}
    assert set(results) == PASSING | NOT_APPLICABLE, run.stdout[-2000:]
    for scenario in sorted(PASSING):
        failed = {c: outcome for c, outcome in results[scenario].items() if outcome[0] not in ("SUCCESS", "INFO")}
        assert not failed, (scenario, failed)
