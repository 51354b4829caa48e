"""An agent app's own agent runs as the app, never in the command that starts it (issue 36):
as root, under the app's uid, on the app socket, with a clean environment; without root,
confined by Landlock to its code and its folder. The probe app's agent says, as it is built,
what its process could do (tests/security/apps/snoopagent)."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

import sim.device
import sim.zygote.specialize
from droid.content.device_address import DeviceAddress
from sim.agent_app.launch import PRESENTATION, ToolServerProcess, plan
from sim.zygote import landlock
from tests.helpers import COMMAND_BOUND, HELPER_APP, copy_app
from tests.security.conftest import needs_root
from tests.unit.agent.chat_server import received, running

SNOOP_APP = Path(__file__).parent / "apps" / "snoopagent"
SNOOP = "com.example.snoopagent"
# What the agent's process may find in its environment: its own, and how the terminal looks;
# nothing else of the command's (API keys).
CLEAN = {"HOME", "LANG", "PATH", "TMPDIR", "DROIDSIM_DEVICE", *PRESENTATION}


def probes(folder: Path) -> dict:
    """Boot a device in ``folder``, install the probe agent, start its agent as
    ``droidsim mcp --as`` does, and read what the agent found."""
    device = sim.device.Device(folder / "data")
    try:
        device.install(copy_app(SNOOP_APP, folder / "apps"))
        device.install(copy_app(HELPER_APP, folder / "apps"))
        device.serve()
        address = DeviceAddress(device.address, device.data_dir)
        os.environ["OPENAI_API_KEY"] = "the command's secret"
        process = ToolServerProcess(plan(address, SNOOP, device.registry.get(SNOOP).app_dir))
        try:
            process.connect()
            return {**json.loads(process.agent["instructions"]), "os uid": device.os_user.os_uid(device.registry.get(SNOOP).uid)}
        finally:
            process.close()
    finally:
        os.environ.pop("OPENAI_API_KEY", None)
        device.shutdown()


@needs_root
def test_as_root_the_agent_runs_under_the_apps_uid_and_reads_only_its_own(open_folder):
    found = probes(open_folder)
    assert found["uid"] == found["os uid"] != 0, "the app's uid, not the command's"
    assert found["package"] == SNOOP, "the device named it as the app"
    assert found["own credential"] == "allowed"
    # Defence: the app's uid; each file's owner and mode (docs/security.md).
    assert found["shell credential"] == found["device.db"] == found["other app's credential"] == "refused: PermissionError"
    assert set(found["environment"]) <= CLEAN, "nothing of the command's environment"


@pytest.mark.skipif(landlock.abi_version() == 0, reason="needs a kernel with Landlock (Linux 5.13+)")
def test_without_root_the_agent_is_confined_to_its_code_and_folder(open_folder, monkeypatch):
    for module in (sim.device, sim.zygote.specialize):  # as a device not run as root: apps' files are its own
        monkeypatch.setattr(module, "os_isolation", lambda: False)
    found = probes(open_folder)
    assert found["uid"] == os.geteuid() and found["package"] == SNOOP
    assert found["own credential"] == "allowed"
    # Defence: Landlock; the files' modes would not stop it (it runs as the device's user).
    assert found["shell credential"] == found["device.db"] == found["other app's credential"] == "refused: PermissionError"
    assert set(found["environment"]) <= CLEAN


def run_snoop_agent(folder: Path, key: str, *model: str, server: str | None = None) -> subprocess.CompletedProcess:
    """``droidsim agent --as`` the probe app (privileged), OPENAI_API_KEY=``key`` in the user's
    environment, on a device booted in ``folder``; the probes are in its folder's probes.json."""
    device = sim.device.Device(folder / "data")
    try:
        device.install(copy_app(SNOOP_APP, folder / "apps"), system=True)
        device.serve()
        base_url = ["--base-url", f"{server}/v1"] if server else []
        return subprocess.run([sys.executable, "-m", "sim.cli", "agent", "--as", SNOOP, *model, *base_url, "hello"],
                              capture_output=True, text=True, timeout=COMMAND_BOUND,
                              env={**os.environ, "DROIDSIM_DEVICE": str(device.data_dir), "OPENAI_API_KEY": key})
    finally:
        device.shutdown()


@needs_root
def test_the_model_key_never_reaches_the_apps_process(open_folder):
    """The command makes the model calls the app's process asks for (sim/agent_app/model_relay.py):
    the server gets the key, and the app's memory holds none (it reads /proc/self/mem whole)."""
    key = f"sk-droidsim-probe-{secrets.token_hex(12)}"
    with running() as server:
        result = run_snoop_agent(open_folder, key, "--model", "openai:openai", server=server)
        first = received(server)[0]
    assert result.returncode == 0, result.stderr
    assert first["authorization"] == f"Bearer {key}", "the server got the user's key"
    found = json.loads(first["body"]["messages"][0]["content"])  # the snoop's instructions: what it found
    assert found["uid"] != 0 and found["model key"] == "not found"


@needs_root
def test_a_key_in_the_users_environment_never_reaches_the_app_whose_model_is_offline(open_folder):
    """F05 by the default model: with ``--model offline`` nothing is relayed, and the key that
    OPENAI_API_KEY held went down the settings pipe into the app's process all the same."""
    key = f"sk-droidsim-probe-{secrets.token_hex(12)}"
    result = run_snoop_agent(open_folder, key)
    assert result.returncode == 0, result.stderr
    found = json.loads((open_folder / "data" / "data" / SNOOP / "probes.json").read_text())
    assert found["uid"] != 0 and found["model key"] == "not found"
