from __future__ import annotations

import pytest

from droid.appfunctions.manager import ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_OTHER_GRANTED
from droid.content import connect
from tests.helpers import HELPER_APP, SAMPLE_APPS, DeviceProcess

pytestmark = pytest.mark.e2e

SAMPLE_AGENT = "com.example.assistant"


def trust_agent(data, agent: str) -> None:
    """What a developer does for an agent app under test, as on a userdebug device, here through
    the shell's binder calls: make it a privileged app, allowlist it as an agent, and grant it
    every target (docs/access-control.md; the CLI commands are tested in test_access_cli.py)."""
    with connect(f"unix:{data / 'device.sock'}", (data / "shell.credential").read_text()) as shell:
        shell.get_system_service("package").set_privileged_allowlist([agent])
        shell.get_system_service("settings").put_setting("secure", "app_function_additional_agent_allowlist", agent)
        manager = shell.app_function_manager
        for target in manager.get_valid_targets():
            assert manager.update_access_flags(agent, target, ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_OTHER_GRANTED)


@pytest.fixture(scope="module")
def device_process(tmp_path_factory):
    """A real device process with the sample apps and the CTS helper installed; the sample
    assistant is a trusted agent of every target."""
    data = tmp_path_factory.mktemp("device") / "data"
    device = DeviceProcess(data, SAMPLE_APPS, HELPER_APP.parent)
    trust_agent(data, SAMPLE_AGENT)
    yield device
    device.stop()
