"""`droidsim --version`, and boot hints that name a droidsim the user can run."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from click.testing import CliRunner

from sim.cli.device import droidsim_command
from sim.cli.main import cli
from tests.helpers import COMMAND_BOUND


def test_version() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"droidsim {version('droidsim')}"


def test_the_hint_is_the_script_beside_this_python_when_droidsim_is_not_on_path(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    hint = droidsim_command()
    assert hint != "droidsim"
    assert subprocess.run([*hint.split(" "), "--version"], capture_output=True, timeout=COMMAND_BOUND).returncode == 0


def test_the_hint_is_plain_droidsim_when_path_has_this_one(monkeypatch) -> None:
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    assert droidsim_command() == "droidsim"
