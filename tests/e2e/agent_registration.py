"""Registering an agent app on a running device by the steps of docs/access-control.md
("Making an agent app work"), read from the page itself, for any package and folder."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.docs.blocks import commands, read_blocks
from tests.helpers import REPO, droidsim

EXAMPLE = "com.example.myagent"
EXAMPLE_APP = REPO / "docs" / "examples" / "myagent"


def documented_steps(agent: str, folder: Path) -> list[list[str]]:
    """The sh block that registers docs/examples/myagent, for ``agent`` in ``folder``."""
    block = next(b for b in read_blocks(REPO / "docs" / "access-control.md") if "docs/examples/myagent" in b.source)
    return [[str(folder) if word == "docs/examples/myagent" else word.replace(EXAMPLE, agent) for word in argv]
            for _, argv in commands(block)]


def register(data: Path, agent: str = EXAMPLE, folder: Path = EXAMPLE_APP) -> None:
    for step in documented_steps(agent, folder):
        assert step[0] == "droidsim", step
        result = droidsim(*step[1:], data=data)
        assert result.returncode == 0, f"{step}\n{result.stdout}{result.stderr}"


def renamed_copy(root: Path, package: str, *, own_agent: bool = True) -> Path:
    """docs/examples/myagent as ``package``; without its own agent when ``own_agent`` is False."""
    folder = root / package.rsplit(".", 1)[-1]
    shutil.copytree(EXAMPLE_APP, folder, ignore=shutil.ignore_patterns("__pycache__"))
    manifest = folder / "AndroidManifest.xml"
    text = manifest.read_text().replace(f'package="{EXAMPLE}"', f'package="{package}"')
    if not own_agent:
        text = "\n".join(line for line in text.splitlines() if "droidsim.agent" not in line) + "\n"
    manifest.write_text(text)
    return folder
