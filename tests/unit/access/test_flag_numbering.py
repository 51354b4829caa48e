"""Access flags on the wire in the device's numbering: QPR2's on --sdk 36, Android 17's on
--sdk 37 (AppFunctionManager.java at each), so a gRPC client of another language that sends the
numbers its SDK compiled in sets the flag it means; Python callers keep droidsim's names."""

from __future__ import annotations

import grpc
import pytest

from droid.appfunctions.access_flag_numbering import from_wire, to_wire, valid_flags
from droid.appfunctions import manager as m
from droid.binder.remote import CREDENTIAL_KEY
from droid.os import IllegalArgumentException
from droidsim.v1 import app_function_manager_pb2 as afm_pb2
from droidsim.v1 import app_function_manager_pb2_grpc as afm_grpc
from sim.device import Device
from tests.unit.access.apps import EXECUTE_APP_FUNCTIONS, make_app
from tests.unit.access.conftest import allowlist_agents

AGENT, TARGET = "com.test.agent", "com.test.target"
NUMBERS = {  # name -> (QPR2, Android 17)
    m.ACCESS_FLAG_PREGRANTED: (1, 1), m.ACCESS_FLAG_UPGRADE_GRANTED: (None, 2), m.ACCESS_FLAG_USER_GRANTED: (8, 4),
    m.ACCESS_FLAG_USER_DENIED: (16, 8), m.ACCESS_FLAG_OTHER_GRANTED: (2, 16), m.ACCESS_FLAG_OTHER_DENIED: (4, 32),
}


@pytest.mark.parametrize("flag", NUMBERS)
def test_each_flag_has_its_versions_number(flag):
    qpr2, android_17 = NUMBERS[flag]
    assert (to_wire(flag, 37), from_wire(android_17, 37, strict=True)) == (android_17, flag)
    if qpr2 is None:  # QPR2 has no UPGRADE_GRANTED
        assert not valid_flags(36) & flag
    else:
        assert (to_wire(flag, 36), from_wire(qpr2, 36, strict=True)) == (qpr2, flag)


def test_the_masks_follow_the_numbering():
    assert (to_wire(m.ACCESS_FLAG_MASK_USER, 36), to_wire(m.ACCESS_FLAG_MASK_OTHER, 36)) == (24, 6)
    assert (to_wire(m.ACCESS_FLAG_MASK_USER, 37), to_wire(m.ACCESS_FLAG_MASK_OTHER, 37), to_wire(m.ACCESS_FLAG_MASK_ALL, 37)) == (12, 48, 63)
    with pytest.raises(IllegalArgumentException, match=r"Invalid flag\(s\) 32 specified"):
        from_wire(32, 36, strict=True)


@pytest.fixture(scope="module", params=[36, 37], ids=["sdk36", "sdk37"])
def device(request, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"numbering{request.param}")
    with Device(root / "data", isolated_apps=False, sdk=request.param) as device:
        device.install(make_app(root / "src", AGENT, (EXECUTE_APP_FUNCTIONS,)), system=True)
        device.install(make_app(root / "src", TARGET))
        allowlist_agents(device, AGENT)
        device.serve()
        yield device


@pytest.fixture
def raw(device):
    """A gRPC stub as a client of another language has it, calling as the shell."""
    channel = grpc.insecure_channel(f"unix:{device.address.removeprefix('unix:')}")
    stub = afm_grpc.AppFunctionManagerStub(channel)
    metadata = ((CREDENTIAL_KEY, (device.data_dir / "shell.credential").read_text()),)

    def update(mask: int, flags: int) -> bool:
        request = afm_pb2.UpdateAccessFlagsRequest(agent_package_name=AGENT, target_package_name=TARGET,
                                                   flag_mask=mask, flags=flags)
        return stub.UpdateAccessFlags(request, metadata=metadata).changed

    def get() -> int:
        pair = afm_pb2.AccessPair(agent_package_name=AGENT, target_package_name=TARGET)
        return stub.GetAccessFlags(pair, metadata=metadata).flags

    yield update, get
    channel.close()


def test_a_raw_client_sends_its_versions_numbers(device, raw):
    update, get = raw
    shell = device.shell_context().app_function_manager
    user_mask, user_granted = (24, 8) if device.version.sdk_int == 36 else (12, 4)
    update(63 if device.version.sdk_int == 37 else 31, 0)
    assert update(user_mask, user_granted)
    assert shell.get_access_flags(AGENT, TARGET) == m.ACCESS_FLAG_USER_GRANTED
    assert get() == user_granted
    assert shell.get_access_request_state(AGENT, TARGET) == m.ACCESS_REQUEST_STATE_GRANTED


def test_android_17s_other_denied_is_refused_on_qpr2(device, raw):
    """32 is OTHER_DENIED on Android 17, and no flag at all on QPR2."""
    update, get = raw
    update(63 if device.version.sdk_int == 37 else 31, 0)
    if device.version.sdk_int == 37:
        assert update(48, 32) and device.shell_context().app_function_manager.get_access_flags(AGENT, TARGET) == m.ACCESS_FLAG_OTHER_DENIED
    else:
        with pytest.raises(grpc.RpcError) as caught:
            update(48, 32)
        assert "Invalid flag(s) 32 specified in call to updateAppFunctionAccessFlags" in caught.value.details()
        assert get() == 0


def test_upgrade_granted_grants_on_android_17_only(device):
    """AppIdAppFunctionAccessUpgrade grants existing pairs UPGRADE_GRANTED; like PREGRANTED it
    decides when no USER or OTHER flag is set. QPR2 has no such flag."""
    shell = device.shell_context().app_function_manager
    shell.update_access_flags(AGENT, TARGET, valid_flags(device.version.sdk_int), 0)
    if device.version.sdk_int == 36:
        with pytest.raises(IllegalArgumentException, match=r"Invalid flag\(s\) 32"):
            shell.update_access_flags(AGENT, TARGET, m.ACCESS_FLAG_UPGRADE_GRANTED, m.ACCESS_FLAG_UPGRADE_GRANTED)
        return
    shell.update_access_flags(AGENT, TARGET, m.ACCESS_FLAG_UPGRADE_GRANTED, m.ACCESS_FLAG_UPGRADE_GRANTED)
    assert shell.get_access_request_state(AGENT, TARGET) == m.ACCESS_REQUEST_STATE_GRANTED
    shell.update_access_flags(AGENT, TARGET, m.ACCESS_FLAG_MASK_USER, m.ACCESS_FLAG_USER_DENIED)
    assert shell.get_access_request_state(AGENT, TARGET) == m.ACCESS_REQUEST_STATE_DENIED


def test_a_python_client_over_grpc_keeps_the_names(device, tmp_path):
    """The remote manager translates both ways: the same constants mean the same flags."""
    from sim.cli.connection import open_context, resolve

    context = open_context(resolve(device.address, str(device.data_dir)))
    manager = context.app_function_manager
    manager.update_access_flags(AGENT, TARGET, valid_flags(device.version.sdk_int), 0)
    assert manager.update_access_flags(AGENT, TARGET, m.ACCESS_FLAG_MASK_OTHER, m.ACCESS_FLAG_OTHER_GRANTED)
    assert manager.get_access_flags(AGENT, TARGET) == m.ACCESS_FLAG_OTHER_GRANTED
    assert device.shell_context().app_function_manager.get_access_flags(AGENT, TARGET) == m.ACCESS_FLAG_OTHER_GRANTED


def test_there_is_no_request_access_intent():
    """createRequestAccessIntent starts a system dialog droidsim does not have
    (docs/differences.md); a test plays the user by setting USER_GRANTED itself."""
    from droid.appfunctions.manager import AppFunctionManager

    assert not any("request_access_intent" in name for name in dir(AppFunctionManager))
