"""How much a call may carry: 5 MB works, more than the device's maximum is refused with a
clear error and affects no one else, nesting, lists and strings are bounded with an error
naming the path, and 64 callers at once all get their own right answers."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from droid.appfunctions import AppFunctionException, AppFunctionLimitExceededException, ExecuteAppFunctionRequest
from droid.appfunctions.data import AppFunctionData
from droid.binder import wire
from sim.device import Device
from sim.limits import CallLimits
from tests.faults.conftest import DEADLINE, FAULTY, execute, others_keep_being_served, shell, start_device
from tests.helpers import HELPER_APP, HELPER_PACKAGE

MB = 1024 * 1024


def nested(depth: int) -> AppFunctionData:
    """A parameters document ``depth`` documents deep: parameters.d.d..."""
    data = AppFunctionData(leaf=1)
    for _ in range(depth - 1):
        data = AppFunctionData(d=data)
    return data


@pytest.fixture
def bounded(tmp_path):
    """An in-process device with small shape limits; the caller is the shell."""
    limits = CallLimits(max_depth=3, max_list_length=4, max_string_length=10)
    with Device(tmp_path / "data", isolated_apps=False, limits=limits) as device:
        device.install(HELPER_APP)
        yield device.shell_context().app_function_manager


LIMIT = "more than this device's limit of"


@pytest.mark.parametrize(
    ("parameters", "extras", "message"),
    [
        (nested(4), {}, "parameters.d.d.d nests documents deeper than this device's limit of 3 levels"),
        ({"items": [1, 2, 3, 4, 5]}, {}, f"parameters.items is a list of 5 items, {LIMIT} 4"),
        (dict.fromkeys("abcde", 1), {}, f"parameters has 5 properties, {LIMIT} 4"),
        ({"text": "x" * 11}, {}, f"parameters.text holds 11 characters, {LIMIT} 10"),
        ({"blob": b"x" * 11}, {}, f"parameters.blob holds 11 bytes, {LIMIT} 10"),
        ({"notes": [AppFunctionData(title="ok"), AppFunctionData(title="y" * 12)]}, {},
         f"parameters.notes[1].title holds 12 characters, {LIMIT} 10"),
        ({}, {"tag": "z" * 11}, f"extras.tag holds 11 characters, {LIMIT} 10"),
    ],
    ids=["depth", "list", "properties", "string", "bytes", "path-into-a-list", "extras"],
)
def test_a_shape_beyond_a_limit_is_refused_naming_the_path(bounded, parameters, extras, message):
    request = ExecuteAppFunctionRequest(HELPER_PACKAGE, "noOp", AppFunctionData(parameters), AppFunctionData(extras))
    with pytest.raises(AppFunctionLimitExceededException) as caught:
        bounded.execute_app_function(request)
    assert caught.value.error_code == AppFunctionException.ERROR_LIMIT_EXCEEDED
    assert caught.value.error_message == message
    last = bounded.get_access_history()[-1]
    assert (last.result_code, last.result_message) == (AppFunctionException.ERROR_LIMIT_EXCEEDED, message)


def test_a_shape_at_the_limits_is_accepted(bounded):
    parameters = AppFunctionData(d=nested(2), items=[1, 2, 3, 4], text="x" * 10, blob=b"y" * 10)
    request = ExecuteAppFunctionRequest(HELPER_PACKAGE, "noOp", parameters)
    assert bounded.execute_app_function(request).return_value == "com.android.shell"


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [("max_parameters_bytes", 0, "between 1 and"), ("max_parameters_bytes", 100 * MB, "what the binder carries"),
     ("max_depth", 31, "what the binder decodes"), ("max_list_length", 0, "at least 1"),
     ("max_string_length", -1, "at least 1"), ("execution_timeout", 0, "positive")],
)
def test_a_limit_the_device_cannot_honour_is_refused(field, value, words):
    with pytest.raises(ValueError, match=words):
        CallLimits(**{field: value})


@pytest.fixture(scope="module")
def device(tmp_path_factory):
    device = start_device(tmp_path_factory.mktemp("limits"))
    yield device
    device.stop()


@pytest.mark.e2e
def test_five_megabytes_of_parameters_work(device):
    data = bytes(range(256)) * (5 * MB // 256)
    with shell(device) as context:
        assert execute(context, HELPER_PACKAGE, "echoBytes", data=data) == data
        assert execute(context, HELPER_PACKAGE, "noOp", text="é" * (5 * MB // 2)) == "com.android.shell"


@pytest.mark.e2e
def test_oversized_parameters_are_refused_and_nobody_else_notices(device):
    with others_keep_being_served(device), shell(device) as context:
        for _ in range(3):
            with pytest.raises(AppFunctionLimitExceededException) as caught:
                execute(context, HELPER_PACKAGE, "echoBytes", data=b"\0" * (9 * MB))
        assert execute(context, FAULTY, "echo", text="fine") == "fine"
    size = wire.data_to_proto(AppFunctionData(data=b"\0" * (9 * MB))).ByteSize()
    assert caught.value.error_message == (
        f"The request's parameters are {size} bytes, more than this device's limit of 8388608 bytes "
        "(droidsim device start --max-parameters-bytes)"
    )


@pytest.mark.e2e
def test_the_limits_are_the_devices_configuration(tmp_path):
    device = start_device(tmp_path, "--max-parameters-bytes", "1000", "--max-list-length", "10")
    try:
        with shell(device) as context:
            assert execute(context, HELPER_PACKAGE, "echoBytes", data=b"x" * 900) == b"x" * 900
            with pytest.raises(AppFunctionLimitExceededException, match="more than this device's limit of 1000 bytes"):
                execute(context, HELPER_PACKAGE, "echoBytes", data=b"x" * 1100)
            with pytest.raises(AppFunctionLimitExceededException) as caught:
                execute(context, HELPER_PACKAGE, "noOp", items=list(range(11)))
            assert caught.value.error_message == f"parameters.items is a list of 11 items, {LIMIT} 10"
    finally:
        device.stop()


@pytest.mark.e2e
def test_sixty_four_concurrent_callers_all_get_their_own_answers(device):
    callers, calls_each = 64, 6
    start = threading.Barrier(callers)

    def caller(index: int) -> list[bool]:
        with shell(device) as context:
            start.wait(DEADLINE)
            answers = []
            for call in range(calls_each):
                if call % 2:
                    answers.append(execute(context, FAULTY, "echo", text=f"{index}:{call}") == f"{index}:{call}")
                else:
                    answers.append(execute(context, HELPER_PACKAGE, "addAsync", a=index, b=call) == index + call)
            return answers

    with ThreadPoolExecutor(callers) as pool:
        results = list(pool.map(caller, range(callers), timeout=DEADLINE * 4))
    assert [all(answers) for answers in results] == [True] * callers
    assert sum(len(answers) for answers in results) == callers * calls_each
