"""Every droidsim command starts the CLI: it must not pay for another command's modules (the MCP
SDK, lint's rules, the conformance suite, the device, the eval) unless it is the command that needs
them (sim/cli/lazy.py); and what reads one part of the agent runtime does not load its model
clients (platform/droid/lazy_exports.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from sim.cli.main import cli
from tests.helpers import COMMAND_BOUND


@pytest.mark.parametrize("prefixes", [("mcp", "mcp_types"), ("sim.lint", "sim.conformance"), ("sim.cli.",),
                                      ("sim.device", "sim.eval", "sim.pm", "grpc", "rich")])
def test_the_cli_does_not_import_what_only_one_command_needs(prefixes):
    probe = f"import sys, sim.cli.main; print(sorted(m for m in sys.modules if m.startswith({prefixes!r})))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=COMMAND_BOUND, check=True)
    assert result.stdout.strip() == ("['sim.cli.lazy', 'sim.cli.main']" if prefixes == ("sim.cli.",) else "[]")


def test_a_shell_command_imports_neither_the_device_nor_the_eval():
    probe = ("import sys\nfrom sim.cli.main import cli\n"
             "try:\n    cli(['shell', '--help'], prog_name='droidsim')\nexcept SystemExit:\n    pass\n"
             "print(sorted({m.split('.')[1] for m in sys.modules if m.startswith(('sim.eval', 'sim.device', 'sim.lint'))}))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=COMMAND_BOUND, check=True)
    assert "Usage: droidsim shell" in result.stdout and result.stdout.splitlines()[-1] == "[]"


# The device lints every app it boots with; a pytest session and an agent app's tool server run
# scripted models: none of them talks to a model server or parses dates.
@pytest.mark.parametrize("module", ["sim.lint.checks.actions", "sim.testing.agent", "sim.agent_app.tool_server"])
def test_a_part_of_the_agent_runtime_loads_without_the_model_clients(module):
    backends = ("httpx2", "droid.agent.models.offline", "droid.agent.models.openai_compat")
    probe = f"import sys, {module}; print(sorted(m for m in {backends!r} if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=COMMAND_BOUND, check=True)
    assert result.stdout.strip() == "[]"


def test_the_lazy_commands_are_listed_and_run_when_named():
    listed = CliRunner().invoke(cli, ["--help"])
    assert {"access", "agent", "apk", "appfunctions", "conformance", "device", "eval", "install", "lint", "logcat", "mcp",
            "responses", "shell", "uninstall"} == {line.split()[0] for line in listed.output.split("Commands:")[1].splitlines()
                                                   if line.startswith("  ")}
    assert "Usage: cli lint [OPTIONS]" in CliRunner().invoke(cli, ["lint", "--help"]).output
    assert "Usage: cli conformance [OPTIONS]" in CliRunner().invoke(cli, ["conformance", "--help"]).output
