"""Where a page shows an example app's file whole, it is that file, byte for byte: the reader
copies what the tests run (docs/agent.md, "Your own agent app": docs/examples/myagent/agent.py)."""

from __future__ import annotations

from tests.docs.blocks import read_blocks
from tests.helpers import REPO


def test_the_agent_app_in_agent_md_is_the_example_apps_agent_py():
    shown = [b.source for b in read_blocks(REPO / "docs" / "agent.md") if "def build_agent(context)" in b.source]
    assert shown == [(REPO / "docs" / "examples" / "myagent" / "agent.py").read_text()]
