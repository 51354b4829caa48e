from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest

from tests.helpers import HELPER_APP, REPO, DeviceProcess

pytestmark = pytest.mark.e2e
# A user's project with tests of its own: tests/e2e/test_user_project.py runs them, as its user would.
collect_ignore = ["user_project"]


def make_sim_options(data: Path) -> tuple[str, ...]:
    """The options `make sim` gives `droidsim device start`, read from the Makefile itself
    (`make -n`), so these devices boot as a newcomer's does. The data directory is the test's;
    paths are made absolute, as make runs in the repository and the tests may not."""
    stamp = "/nonexistent/.installed"  # never build the venv: the tests already run in one
    recipe = subprocess.run(
        ["make", "--no-print-directory", "-n", "-s", "-o", stamp, "sim", f"VENV={Path(stamp).parent}", f"DATA={data}"],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout
    words = shlex.split(recipe.replace("\\\n", " "))  # the recipe's line continuations, as sh reads them
    assert words[:3] == [f"{Path(stamp).parent}/bin/droidsim", "device", "start"], recipe
    options = words[3:]
    at = options.index("--data")
    assert options[at + 1] == str(data), recipe
    del options[at:at + 2]  # DeviceProcess passes --data itself
    return tuple(str(REPO / word) if (REPO / word).exists() else word for word in options)


@pytest.fixture(scope="module")
def make_sim_device(tmp_path_factory):
    """A device process booted exactly as `make sim` boots one, in a fresh data directory."""
    data = tmp_path_factory.mktemp("make-sim") / "data"
    device = DeviceProcess(data, extra=make_sim_options(data))
    yield device
    device.stop()


@pytest.fixture(scope="module")
def device_process(tmp_path_factory):
    """`make sim`'s device plus the CTS helper app: the sample assistant is the preinstalled
    agent, pregranted every target, by the same options as `make sim`."""
    data = tmp_path_factory.mktemp("device") / "data"
    device = DeviceProcess(data, HELPER_APP.parent, extra=make_sim_options(data))
    yield device
    device.stop()
