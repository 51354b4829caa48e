"""Every message and doc that tells a developer what to call names an API that exists (issue 47:
a pending-interrupt error said "call resume()" where the docs said ``session.send``; a
confirmation's answer was a key no doc named)."""

from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path

import pytest

from droid.agent import Agent, AgentRunner, AgentSession, AgentTool, FunctionTool, InterruptRequest

ROOT = Path(__file__).resolve().parents[3]
SOURCES = sorted([*(ROOT / "platform/droid/agent").rglob("*.py"), ROOT / "README.md",
                  *(ROOT / "docs").glob("*.md")])
# ``name.method(`` as the runtime's words and the docs write them, and the class that must have it.
CALLS = {
    "session": AgentSession,
    "interrupt": InterruptRequest,
    "runner": AgentRunner,
}
KEYWORDS = {"Agent": {f.name for f in dataclasses.fields(Agent)}}


def _fields(kind: type) -> set[str]:
    """A class's dataclass fields and the attributes its methods set on ``self``."""
    fields = {f.name for f in dataclasses.fields(kind)} if dataclasses.is_dataclass(kind) else set()
    return fields | set(re.findall(r"\bself\.([a-z_]+)\s*(?::[^=\n]*)?=", inspect.getsource(kind)))


def _named(text: str) -> list[tuple[str, str]]:
    found = [(owner, name) for owner in CALLS for name in re.findall(rf"\b{owner}\.([a-z_]+)\b", text)]
    found += [("Agent", name) for name in re.findall(r"\bAgent\((?:[^()]*?, )?([a-z_]+)=", text)]
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_named_method_and_keyword_exists(path: Path):
    text = path.read_text()
    missing = []
    for owner, name in _named(text):
        if owner in KEYWORDS:
            if name not in KEYWORDS[owner]:
                missing.append(f"Agent({name}=...)")
        elif not hasattr(CALLS[owner], name) and name not in _fields(CALLS[owner]):
            missing.append(f"{owner}.{name}")
    assert not missing, f"{path.name} names what does not exist: {sorted(set(missing))}"


def test_the_check_finds_a_name_that_does_not_exist():
    assert _named("call session.resume_all(), interrupt.approve() or Agent(name='x', turns=3)") == [
        ("session", "resume_all"), ("interrupt", "approve"), ("Agent", "turns")]
    assert not hasattr(AgentSession, "resume_all") and "turns" not in KEYWORDS["Agent"]
    assert hasattr(FunctionTool, "__call__") and hasattr(AgentTool, "resume_problem")
