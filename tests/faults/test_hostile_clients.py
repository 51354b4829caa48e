"""Garbage from a client: bytes that are not HTTP/2, gRPC calls whose body is not the method's
message, and protobuf that parses but is no AppFunctionData. That client gets an error (or its
connection closed); every other client is served throughout."""

from __future__ import annotations

import socket

import grpc
import pytest

from droid.appfunctions import AppFunctionException
from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.requests import ExecuteAppFunctionRequest
from droid.binder import wire
from droid.binder.channel import open_channel
from droid.binder.remote import CREDENTIAL_KEY
from droidsim.v1 import app_function_manager_pb2 as afm_pb2
from droidsim.v1 import app_function_manager_pb2_grpc as afm_grpc
from droidsim.v1 import data_pb2
from tests.faults.conftest import DEADLINE, FAULTY, others_keep_being_served

pytestmark = pytest.mark.e2e

EXECUTE = "/droidsim.v1.AppFunctionManager/ExecuteAppFunction"
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def credential(device) -> tuple[tuple[str, str], ...]:
    return ((CREDENTIAL_KEY, (device.data / "shell.credential").read_text()),)


def send_raw(device, payload: bytes) -> None:
    """Write ``payload`` to the device's socket and read until the device hangs up (a reset
    or a broken pipe is hanging up too); a device that keeps the connection open times out."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(DEADLINE)
        sock.connect(str(device.data / "device.sock"))
        try:
            sock.sendall(payload)
            while sock.recv(65536):
                pass
        except (ConnectionResetError, BrokenPipeError):
            pass


@pytest.mark.parametrize(
    "payload",
    [
        b"\x00\xff garbage \x13\x37" * 1000,
        b"GET / HTTP/1.1\r\nHost: device\r\n\r\n",
        PREFACE + b"\x00\x00\x04\x99\x00\x00\x00\x00\x01garbage frame of an unknown type" * 50,
        PREFACE + b"\xff\xff\xff\x00\x00\x00\x00\x00\x00",  # a frame claiming 16 MB, then nothing
    ],
    ids=["binary", "http1", "unknown-frames", "oversized-frame"],
)
def test_bytes_that_are_not_grpc_get_the_connection_closed(fault_device, payload):
    with others_keep_being_served(fault_device):
        send_raw(fault_device, payload)  # returns only once the device closed the connection
    assert fault_device.process.poll() is None


def nested_request(depth: int) -> bytes:
    data = AppFunctionData(leaf=1)
    for _ in range(depth):
        data = AppFunctionData(d=data)
    return wire.request_to_proto(ExecuteAppFunctionRequest(FAULTY, "echo", data)).SerializeToString()


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b"\xff\xff\xff\xff garbage", "Wire format was corrupt"),
        (b"\x0a\x02\xff\xfe", "ExecuteAppFunctionRequest"),  # target_package_name is not UTF-8
        (nested_request(40), "MaxDepth"),
        (nested_request(3)[:-5], "ExecuteAppFunctionRequest"),  # cut short
    ],
    ids=["garbage", "invalid-utf8", "too-deep-for-protobuf", "truncated"],
)
def test_a_body_that_is_not_the_request_message_is_invalid_argument(fault_device, body, problem):
    with others_keep_being_served(fault_device), open_channel(f"unix:{fault_device.data / 'device.sock'}") as channel:
        call = channel.unary_unary(EXECUTE)  # no serializers: the bytes go as they are
        with pytest.raises(grpc.RpcError) as caught:
            call(body, metadata=credential(fault_device), timeout=DEADLINE)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.details().startswith(f"The request to {EXECUTE} could not be decoded: ")
    assert problem in caught.value.details()


def test_every_unary_method_refuses_an_undecodable_body(fault_device):
    with open_channel(f"unix:{fault_device.data / 'device.sock'}") as channel:
        for method in ("/droidsim.v1.PackageManager/InstallPackage", "/grpc.health.v1.Health/Check"):
            with pytest.raises(grpc.RpcError) as caught:
                channel.unary_unary(method)(b"\x0a\x05\xff\xff\xff\xff\xff", timeout=DEADLINE)
            assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT, method


def prop(name: str, *longs: int, repeated: bool = False) -> data_pb2.Property:
    return data_pb2.Property(name=name, repeated=repeated, longs=data_pb2.LongValues(values=longs))


def document(*properties: data_pb2.Property) -> data_pb2.AppFunctionData:
    return data_pb2.AppFunctionData(properties=properties)


@pytest.mark.parametrize(
    ("parameters", "message"),
    [
        (document(prop("a", 1), prop("a", 2)), "parameters: property 'a' is given more than once"),
        (document(prop("a", 1, 2)), "parameters: property 'a' is a single value but carries 2"),
        (document(prop("a")), "parameters: property 'a' is a single value but carries 0"),
        (document(data_pb2.Property(name="notes", repeated=True, documents=data_pb2.DocumentValues(
            values=[document(prop("x", 1)), document(prop("x", 1), prop("x", 2))]))),
         "parameters.notes[1]: property 'x' is given more than once"),
    ],
    ids=["duplicate", "two-values-for-one", "no-value-for-one", "nested"],
)
def test_malformed_app_function_data_is_invalid_argument(fault_device, parameters, message):
    request = afm_pb2.ExecuteAppFunctionRequest(target_package_name=FAULTY, function_identifier="echo", parameters=parameters)
    with others_keep_being_served(fault_device), open_channel(f"unix:{fault_device.data / 'device.sock'}") as channel:
        result = afm_grpc.AppFunctionManagerStub(channel).ExecuteAppFunction(request, metadata=credential(fault_device))
    assert result.WhichOneof("outcome") == "error"
    assert result.error.error_code == AppFunctionException.ERROR_INVALID_ARGUMENT
    assert result.error.error_message == f"Malformed request: {message}"
