"""Every droidsim command starts the CLI: it must not pay for the MCP SDK unless it is `mcp`."""

from __future__ import annotations

import subprocess
import sys
from tests.helpers import COMMAND_BOUND


def test_the_cli_does_not_import_the_mcp_sdk_until_droidsim_mcp_runs():
    probe = "import sys, sim.cli.main; print(sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'mcp_types')))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=COMMAND_BOUND, check=True)
    assert result.stdout.strip() == "[]"
