"""Builds an agent whose instructions are what this process could do (JSON), also written
to ``probes.json`` in its folder."""

import ctypes
import json
import os
import re
from pathlib import Path

from droid.agent import Agent

# The shape of the model key the tests give the command (tests/security/test_agent_app.py).
TEST_KEY = re.compile(rb"sk-droidsim-probe-[0-9a-f]{24}")
_PR_SET_DUMPABLE = 4


def _read(path: Path) -> str:
    try:
        path.read_bytes()
    except OSError as error:
        return f"refused: {type(error).__name__}"
    return "allowed"


def _memory_holds_a_key() -> str:
    """Whether a model key is anywhere in this process's writable memory."""
    ctypes.CDLL(None).prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0)  # its own /proc/self/mem, after a change of uid
    try:
        regions = Path("/proc/self/maps").read_text().splitlines()
        memory = open("/proc/self/mem", "rb", buffering=0)
    except OSError as error:
        return f"unavailable: {type(error).__name__}"
    with memory:
        for region in regions:
            span, permissions = region.split()[:2]
            if not permissions.startswith("rw"):
                continue
            start, end = (int(address, 16) for address in span.split("-"))
            try:
                memory.seek(start)
                if TEST_KEY.search(memory.read(end - start)):
                    return "found"
            except (OSError, OverflowError, ValueError):
                continue
    return "not found"


def build_agent(context) -> Agent:
    own = Path(os.environ["HOME"])
    data = own.parent.parent  # DATA/data/com.example.snoopagent
    probes = {
        "uid": os.geteuid(),
        "package": context.package_name,
        "home": str(own),
        "environment": sorted(os.environ),
        "own credential": _read(Path("credential")),
        "shell credential": _read(data / "shell.credential"),
        "device.db": _read(data / "device.db"),
        "other app's credential": _read(data / "data" / "android.app.appfunctions.cts.helper" / "credential"),
        "model key": _memory_holds_a_key(),
    }
    (own / "probes.json").write_text(json.dumps(probes))  # for a run whose model is no server
    return Agent(name="snoop", instructions=json.dumps(probes))
