"""The bench's scratch space: generated apps, device data directories and sockets.

Everything lives in one temporary folder that is removed afterwards. Child
processes (devices, app processes, echo servers) compile their bytecode once
into a cache inside it, as a developer's machine would have it cached, even
where the environment turns bytecode caching off (PYTHONDONTWRITEBYTECODE);
otherwise every boot would be timed compiling the whole code base.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from bench import appgen

# The apps the issue asks for: boot with 0, 50 and 200 installed apps of 10 functions each.
BOOT_APP_COUNTS = (0, 50, 200)
# Search figures: 10-function apps, as many as the largest search needs; a search for N
# functions names the first N / 10 of them. (One app of 5,000 functions would be another test:
# installing it takes minutes, see docs/performance.md.)
SEARCH_SIZES = (50, 500, 5000)
SEARCH_PREFIX = "com.bench.search"


class Workspace:
    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="droidsim-bench-"))
        self.apps = self.root / "apps"
        self.search_apps = self.root / "search-apps"
        # The device the cross-process figures call: one generated app and the search apps.
        self.device_data = self.root / "device"
        # The device the MCP figure calls through the bridge: the sample agent and one app.
        self.mcp_data = self.root / "mcp"
        # The in-process device of the in-process figures.
        self.local_data = self.root / "local"
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["PYTHONPYCACHEPREFIX"] = str(self.root / "pycache")

    def boot_data(self, apps: int) -> Path:
        """The data directory holding exactly ``apps`` installed apps, for the boot figures."""
        return self.root / f"boot-{apps}"

    def generate_apps(self, count: int) -> list[Path]:
        return appgen.write_apps(self.apps, count)

    def generate_search_apps(self) -> list[Path]:
        """Enough apps for the largest search; ``search_packages(n)`` names the first ones."""
        return appgen.write_apps(self.search_apps, max(SEARCH_SIZES) // appgen.FUNCTIONS_PER_APP, prefix=SEARCH_PREFIX)

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def search_packages(functions: int) -> frozenset[str]:
    """The search apps whose functions add up to ``functions``."""
    if functions % appgen.FUNCTIONS_PER_APP:
        raise ValueError(f"{functions} is not a whole number of {appgen.FUNCTIONS_PER_APP}-function apps")
    return frozenset(appgen.package_name(i, SEARCH_PREFIX) for i in range(functions // appgen.FUNCTIONS_PER_APP))
