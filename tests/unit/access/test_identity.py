"""Nobody is anyone else: spoofed callers over the real gRPC transport are refused."""

from __future__ import annotations

import stat

import grpc
import pytest

from droid.appfunctions import AppFunctionDeniedException, ExecuteAppFunctionRequest
from droid.binder.remote import CREDENTIAL_KEY
from droid.content import connect
from droid.os import SecurityException
from droidsim.v1 import app_function_manager_pb2 as afm_pb2
from droidsim.v1 import app_function_manager_pb2_grpc as afm_grpc
from droidsim.v1 import data_pb2
from droidsim.v1 import service_manager_pb2_grpc as sm_grpc
from sim.server.servicers import UNAUTHENTICATED

AGENT = "com.test.agent"
VICTIM = "com.test.victim"


@pytest.fixture
def served(access_device, make):
    access_device.install(make(AGENT))
    access_device.install(make(VICTIM))
    access_device.serve()
    return access_device


def credential(device, package):
    return (device.data_dir / "data" / package / "credential").read_text()


def stubs(device):
    channel = grpc.insecure_channel(device.address)
    return channel, afm_grpc.AppFunctionManagerStub(channel), sm_grpc.ServiceManagerStub(channel)


def test_credentials_are_private_files(served):
    for package in (AGENT, VICTIM):
        path = served.data_dir / "data" / package / "credential"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert credential(served, AGENT) != credential(served, VICTIM)


def test_a_call_without_a_credential_is_unauthenticated(served):
    channel, _, service_manager = stubs(served)
    with pytest.raises(grpc.RpcError) as raised:
        service_manager.WhoAmI(data_pb2.Empty())
    assert raised.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert raised.value.details() == UNAUTHENTICATED
    channel.close()


@pytest.mark.parametrize("secret", ["", "not-a-credential"])
def test_a_missing_or_wrong_credential_is_a_security_exception(served, secret):
    with pytest.raises(SecurityException, match="missing or unknown credential"):
        connect(served.address, secret)


def test_another_packages_credential_while_claiming_a_third_is_denied(served):
    """The agent presents its own credential and claims to be the victim: the claim is
    checked against the credential's uid, refused, and the call never reaches the target."""
    channel, manager, _ = stubs(served)
    request = afm_pb2.ExecuteAppFunctionRequest(target_package_name=VICTIM, function_identifier="noOp",
                                                calling_package=VICTIM)
    result = manager.ExecuteAppFunction(request, metadata=((CREDENTIAL_KEY, credential(served, AGENT)),))
    channel.close()
    agent_uid = served.registry.get(AGENT).uid
    assert result.error.error_code == AppFunctionDeniedException.CODE
    assert result.error.error_message == f"Specified calling package [{VICTIM}] does not match the calling uid {agent_uid}"
    [entry] = served.access_history.entries()
    assert (entry.agent_package_name, entry.agent_uid, entry.result_code) == (AGENT, agent_uid, 1000)


def test_a_claimed_package_in_metadata_changes_nothing(served):
    channel, _, service_manager = stubs(served)
    metadata = ((CREDENTIAL_KEY, credential(served, AGENT)), ("droidsim-package", VICTIM), ("x-calling-uid", "0"))
    info = service_manager.WhoAmI(data_pb2.Empty(), metadata=metadata)
    channel.close()
    assert (info.uid, info.package_name) == (served.registry.get(AGENT).uid, AGENT)


def test_the_claim_of_ones_own_package_passes_and_the_target_sees_the_real_caller(served):
    with connect(served.address, credential(served, AGENT)) as context:
        response = context.app_function_manager.execute_app_function(ExecuteAppFunctionRequest(AGENT, "noOp"))
    assert response.return_value == AGENT


@pytest.mark.parametrize("how", ["uninstall then install", "update"])
def test_a_reinstalled_package_gets_a_new_credential_and_the_old_one_is_stale(served, make, how):
    old = credential(served, AGENT)
    if how == "uninstall then install":
        served.package_manager.uninstall(AGENT)
    served.install(make(AGENT))
    new = credential(served, AGENT)
    assert new != old
    with pytest.raises(SecurityException, match="missing or unknown credential"):
        connect(served.address, old)
    with connect(served.address, new) as context:
        assert context.package_name == AGENT


def test_a_remembered_secret_stops_working_once_its_package_is_forgotten_or_replaced():
    from droid.os.binder import CallingIdentity
    from sim.identity import Authenticator, hash_secret

    auth, app = Authenticator(), CallingIdentity(10001, "com.test.app")
    auth.register(hash_secret("first"), app)
    assert auth.identify("first") == app and auth.identify("first") == app  # the second from memory
    auth.register(hash_secret("second"), app)  # a reinstall: a new secret
    assert auth.identify("first") is None and auth.identify("second") == app
    auth.forget(app)
    assert auth.identify("second") is None
    assert auth.identify("garbage") is None
