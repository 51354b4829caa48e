from __future__ import annotations

import pytest

from droid.appfunctions import ExecuteAppFunctionRequest
from droid.appfunctions.data import AppFunctionData
from droid.os.binder import SHELL, Binder
from sim.appfunctions.agent_allowlist import ADDITIONAL_AGENT_ALLOWLIST
from sim.device import Device
from tests.unit.access.apps import LEVELED, make_app


def execute(context, target: str, function_id: str):
    """Run ``function_id`` of ``target`` with a=1, b=2 as the Context's package."""
    request = ExecuteAppFunctionRequest(target, function_id, AppFunctionData(a=1, b=2))
    return context.app_function_manager.execute_app_function(request)


def allowlist_agents(device: Device, *agents: str) -> None:
    """`cmd app_function set-additional-allowlisted-agents`, as the shell."""
    with Binder.calling_as(SHELL):
        device.settings.put_setting(*ADDITIONAL_AGENT_ALLOWLIST, ";".join(agents))


@pytest.fixture
def access_device(tmp_path):
    """An empty in-process device (apps run on threads)."""
    with Device(tmp_path / "data", isolated_apps=False) as device:
        yield device


@pytest.fixture
def make(tmp_path):
    """make(package, uses=..., levels=...) -> app folder, with the leveled functions by default."""
    def build(package: str, uses: tuple[str, ...] = (), levels=LEVELED, declares=()):
        return make_app(tmp_path / "src", package, uses, levels, declares)

    return build
