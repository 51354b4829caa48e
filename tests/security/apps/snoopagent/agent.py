"""Builds an agent whose instructions are what this process could do (JSON)."""

import json
import os
from pathlib import Path

from droid.agent import Agent


def _read(path: Path) -> str:
    try:
        path.read_bytes()
    except OSError as error:
        return f"refused: {type(error).__name__}"
    return "allowed"


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
    }
    return Agent(name="snoop", instructions=json.dumps(probes))
