"""The entry point at run time: routing, argument checks, threads, errors, cancellation."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Annotated, Literal

import pytest

from droid.appfunctions import (
    AppFunctionAppUnknownException,
    AppFunctionCancelledException,
    AppFunctionData,
    AppFunctionDeniedException,
    AppFunctionDisabledException,
    AppFunctionElementAlreadyExistsException,
    AppFunctionElementNotFoundException,
    AppFunctionException,
    AppFunctionFunctionNotFoundException,
    AppFunctionInvalidArgumentException,
    AppFunctionLimitExceededException,
    AppFunctionNotSupportedException,
    AppFunctionPermissionRequiredException,
    AppFunctionServiceEntryPoint,
    AppFunctionSystemUnknownException,
    Int32,
    IntValueConstraint,
    PatternMatcher,
    StringValueConstraint,
    UriValueConstraint,
    app_function,
    app_function_serializable,
)
from droid.appfunctions.declarations import PATTERN_PREFIX, PATTERN_SIMPLE_GLOB
from droid.net import Uri
from droid.os import CancellationSignal

from .calls import execute, fails, returns

S = "com.example.runtime.RuntimeService"


@app_function_serializable
@dataclass
class Item:
    name: str
    quantity: Int32 = 0

    def __post_init__(self) -> None:
        if self.quantity < 0:
            raise ValueError("quantity cannot be negative")


@app_function_serializable
@dataclass
class Basket:
    owner: str
    items: list[Item] = field(default_factory=list)


class RuntimeService(AppFunctionServiceEntryPoint):
    service_name = S
    xml_file_name = "runtime"

    def __init__(self) -> None:
        self.threads: dict[str, int] = {}
        self.started = threading.Event()
        self.release = threading.Event()

    @app_function
    async def echo_async(self, text: str) -> str:
        self.threads["async"] = threading.get_ident()
        return text

    @app_function
    def echo_sync(self, text: str) -> str:
        self.threads["sync"] = threading.get_ident()
        return text

    @app_function
    def typed(
        self,
        count: int,
        small: Int32,
        ratio: float,
        flag: bool,
        blob: bytes,
        tags: list[str],
        note: str | None,
    ) -> str:
        return repr((count, small, ratio, flag, blob, tags, note))

    @app_function
    def optional(
        self,
        count: int = 5,
        flag: bool = True,
        ratio: float = 1.5,
        tags: list[str] = ["declared"],  # noqa: B006
        blob: bytes = b"declared",
        note: str | None = "declared",
    ) -> str:
        return repr((count, flag, ratio, tags, blob, note))

    @app_function
    def constrained(
        self,
        mode: Literal["ON", "OFF"] | None = None,
        code: Annotated[str, StringValueConstraint(pattern=r"[0-9]{4}")] | None = None,
        tag: Annotated[
            str,
            StringValueConstraint(
                pattern_matchers=[PatternMatcher("ab*c", PATTERN_SIMPLE_GLOB), PatternMatcher("x-", PATTERN_PREFIX)]
            ),
        ]
        | None = None,
        level: Annotated[Int32, IntValueConstraint([1, 2, 3])] | None = None,
        link: Annotated[Uri, UriValueConstraint(["content", "https"])] | None = None,
    ) -> str:
        return "ok"

    @app_function
    def basket(self, basket: Basket) -> Basket:
        return basket

    @app_function
    def raises(self, code: int, message: str) -> None:
        raise AppFunctionException(code, message)

    @app_function
    async def raises_async(self, message: str) -> None:
        raise AppFunctionElementNotFoundException(message)

    @app_function
    def crashes(self) -> None:
        raise KeyError("nope")

    @app_function
    def exits(self) -> None:
        raise SystemExit(3)

    @app_function
    def wrong_return(self) -> int:
        return "not an int"  # type: ignore[return-value]

    @app_function
    def none_for_non_null(self) -> str:
        return None  # type: ignore[return-value]

    @app_function
    def nothing(self) -> None:
        return None

    @app_function
    async def slow_async(self) -> str:
        self.started.set()
        await asyncio.sleep(30)
        return "finished"

    @app_function
    def slow_sync(self) -> str:
        self.started.set()
        self.release.wait(10)
        return "finished"

    @app_function
    async def cancels_itself(self) -> str:
        raise asyncio.CancelledError()

    @app_function
    async def blocks_loop(self) -> str:
        time.sleep(0.15)  # the mistake StrictMode reports
        return "done"

    @app_function
    async def awaits_politely(self) -> str:
        await asyncio.sleep(0.15)
        return "done"


def run(coro):
    return asyncio.run(coro)


def test_function_ids_are_service_name_hash_method():
    ids = RuntimeService.implemented_function_ids()
    assert f"{S}#echo_async" in ids and f"{S}#echo_sync" in ids
    assert all(i.startswith(S + "#") for i in ids)
    assert f"{S}#__init__" not in ids


def test_async_runs_on_the_event_loop_thread_and_sync_in_a_worker():
    service = RuntimeService()

    async def scenario():
        loop_thread = threading.get_ident()
        assert await returns(service, f"{S}#echo_async", {"text": "a"}) == "a"
        assert await returns(service, f"{S}#echo_sync", {"text": "s"}) == "s"
        return loop_thread

    loop_thread = run(scenario())
    assert service.threads["async"] == loop_thread
    assert service.threads["sync"] != loop_thread


def test_arguments_are_decoded_by_declared_type():
    params = {
        "count": 2**40,
        "small": 7,
        "ratio": 2,  # an integer is accepted for a double
        "flag": True,
        "blob": b"\x00\xff",
        "tags": ["a", "b"],
        "note": None,
    }
    result = run(returns(RuntimeService(), f"{S}#typed", params))
    assert result == repr((2**40, 7, 2.0, True, b"\x00\xff", ["a", "b"], None))


def test_omitted_optional_arguments_get_the_type_default_not_the_declared_one():
    result = run(returns(RuntimeService(), f"{S}#optional", {}))
    assert result == repr((0, False, 0.0, [], b"", None))


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({}, "Parameter text should be the type of AppFunctionStringTypeMetadata(isNullable=false, description=, "
             "patternMatchers=null, format=null, enumValues=null)\nParameter text is required"),
        ({"text": None}, "Parameter text must not be null"),
        ({"text": 3}, "Parameter text must be a string, not an integer"),
    ],
)
def test_bad_arguments_are_invalid_argument_naming_the_parameter(params, message):
    error = run(fails(RuntimeService(), f"{S}#echo_sync", params))
    assert isinstance(error, AppFunctionInvalidArgumentException)
    assert error.error_code == AppFunctionException.ERROR_INVALID_ARGUMENT
    assert message in error.error_message


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"count": True}, "Parameter count must be an integer (long), not a boolean"),
        ({"small": 2**31}, "Parameter small is out of range for a 32-bit int"),
        ({"ratio": "1.0"}, "Parameter ratio must be a number (double), not a string"),
        ({"flag": 1}, "Parameter flag must be a boolean, not an integer"),
        ({"blob": "AAE="}, "Parameter blob must be bytes, not a string"),
        ({"tags": "a"}, "Parameter tags must be a list, not a string"),
        ({"tags": [1, 2]}, "Parameter tags[0] must be a string, not an integer"),
    ],
)
def test_wrong_types_name_the_parameter(params, message):
    base = {"count": 1, "small": 1, "ratio": 1.0, "flag": False, "blob": b"", "tags": [], "note": None}
    error = run(fails(RuntimeService(), f"{S}#typed", {**base, **params}))
    assert isinstance(error, AppFunctionInvalidArgumentException)
    assert message in error.error_message


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"mode": "DIM"}, "Parameter mode must be one of ON, OFF; got 'DIM'"),
        ({"code": "12a4"}, "Parameter code must match the pattern [0-9]{4}"),
        ({"tag": "abd"}, "Parameter tag must match one of the patterns ab*c, x-"),
        ({"level": 4}, "Parameter level must be one of 1, 2, 3; got 4"),
        ({"link": AppFunctionData(uri="file:///etc/passwd")}, "Parameter link must use the scheme content or https"),
    ],
)
def test_broken_constraints_are_invalid_argument(params, message):
    error = run(fails(RuntimeService(), f"{S}#constrained", params))
    assert isinstance(error, AppFunctionInvalidArgumentException)
    assert message in error.error_message


def test_values_that_meet_the_constraints_pass():
    params = {
        "mode": "ON",
        "code": "0420",
        "tag": "abbbc",
        "level": 2,
        "link": AppFunctionData(uri="HTTPS://example.com/x"),
    }
    assert run(returns(RuntimeService(), f"{S}#constrained", params)) == "ok"
    assert run(returns(RuntimeService(), f"{S}#constrained", {"tag": "x-ray"})) == "ok"


def test_nested_documents_decode_and_encode_with_qualified_names():
    basket = AppFunctionData(owner="ana", items=[AppFunctionData(name="pear", quantity=2), AppFunctionData(name="fig")])
    result = run(returns(RuntimeService(), f"{S}#basket", {"basket": basket}))
    assert result.qualified_name == "com.example.runtime.Basket"
    assert result.to_python() == {
        "owner": "ana",
        "items": [{"name": "pear", "quantity": 2}, {"name": "fig", "quantity": 0}],
    }
    assert result["items"][0].qualified_name == "com.example.runtime.Item"


@pytest.mark.parametrize(
    ("basket", "message"),
    [
        (AppFunctionData(items=[]), "Parameter basket.owner is required"),
        (AppFunctionData(owner="a", items=[AppFunctionData(quantity=1)]), "Parameter basket.items[0].name is required"),
        (AppFunctionData(owner="a", colour="red"), "Parameter basket.colour is not a property of com.example.runtime.Basket"),
        (
            AppFunctionData(owner="a", items=[AppFunctionData(name="x", quantity=-1)]),
            "Parameter basket.items[0] is not a valid Item: quantity cannot be negative",
        ),
        ("ana", "Parameter basket must be a document, not a string"),
    ],
)
def test_errors_inside_documents_give_their_path(basket, message):
    error = run(fails(RuntimeService(), f"{S}#basket", {"basket": basket}))
    assert isinstance(error, AppFunctionInvalidArgumentException)
    assert message in error.error_message


def test_unknown_function_id_is_function_not_found():
    error = run(fails(RuntimeService(), f"{S}#missing"))
    assert isinstance(error, AppFunctionFunctionNotFoundException)


EXCEPTIONS = [
    AppFunctionDeniedException,
    AppFunctionInvalidArgumentException,
    AppFunctionDisabledException,
    AppFunctionFunctionNotFoundException,
    AppFunctionElementNotFoundException,
    AppFunctionLimitExceededException,
    AppFunctionElementAlreadyExistsException,
    AppFunctionSystemUnknownException,
    AppFunctionCancelledException,
    AppFunctionAppUnknownException,
    AppFunctionPermissionRequiredException,
    AppFunctionNotSupportedException,
]
EXPECTED_CODES = [1000, 1001, 1002, 1003, 1500, 1501, 1502, 2000, 2001, 3000, 3500, 3501]


@pytest.mark.parametrize(("cls", "code"), list(zip(EXCEPTIONS, EXPECTED_CODES)), ids=[c.__name__ for c in EXCEPTIONS])
def test_app_exceptions_reach_the_caller_with_code_category_type_and_message(cls, code):
    error = run(fails(RuntimeService(), f"{S}#raises", {"code": code, "message": f"boom {code}"}))
    assert type(error) is cls
    assert error.error_code == code
    assert error.error_category == code // 1000
    assert error.error_message == f"boom {code}"


def test_async_app_exception_passes_through():
    error = run(fails(RuntimeService(), f"{S}#raises_async", {"message": "no such thing"}))
    assert type(error) is AppFunctionElementNotFoundException
    assert error.error_message == "no such thing"


def test_system_exit_in_a_function_is_app_unknown_not_a_hang():
    error = run(fails(RuntimeService(), f"{S}#exits"))
    assert type(error) is AppFunctionAppUnknownException
    assert error.error_message == "SystemExit: 3"


def test_any_other_exception_is_app_unknown_with_its_type_and_message():
    """Row 12: Jetpack's AppFunctionAppUnknownException, its message "<Type>: <message>"
    (Jetpack's is e.message alone: docs/differences.md)."""
    error = run(fails(RuntimeService(), f"{S}#crashes"))
    assert type(error) is AppFunctionAppUnknownException
    assert error.error_code == 3000
    assert error.error_category == AppFunctionException.ERROR_CATEGORY_APP
    assert error.error_message == "KeyError: 'nope'"


def test_an_undeclared_parameter_is_ignored():
    """Row 11: Jetpack's dispatcher reads the declared parameters only."""
    assert run(returns(RuntimeService(), f"{S}#echo_sync", {"text": "x", "txet": "y"})) == "x"


@pytest.mark.parametrize("function", ["wrong_return", "none_for_non_null"])
def test_a_return_value_that_does_not_match_its_declaration_is_app_unknown(function):
    error = run(fails(RuntimeService(), f"{S}#{function}"))
    assert type(error) is AppFunctionAppUnknownException
    assert function in error.error_message


def test_unit_function_returns_an_empty_response():
    outcome = run(execute(RuntimeService(), f"{S}#nothing"))
    assert outcome.return_value is None
    assert len(outcome.result_document) == 0


def test_cancelling_an_async_call_reports_cancelled():
    service = RuntimeService()

    async def scenario():
        signal = CancellationSignal()
        call = asyncio.create_task(execute(service, f"{S}#slow_async", signal=signal))
        while not service.started.is_set():
            await asyncio.sleep(0.005)
        threading.Thread(target=signal.cancel).start()  # from another thread, as the binder would
        return await call

    error = run(scenario())
    assert type(error) is AppFunctionCancelledException
    assert error.error_code == 2001


def test_cancelling_a_sync_call_reports_cancelled_without_waiting_for_it():
    service = RuntimeService()

    async def scenario():
        signal = CancellationSignal()
        call = asyncio.create_task(execute(service, f"{S}#slow_sync", signal=signal))
        while not service.started.is_set():
            await asyncio.sleep(0.005)
        signal.cancel()
        try:
            return await call
        finally:
            service.release.set()

    assert type(run(scenario())) is AppFunctionCancelledException


def test_an_already_cancelled_signal_cancels_at_once():
    async def scenario():
        signal = CancellationSignal()
        signal.cancel()
        return await execute(RuntimeService(), f"{S}#slow_async", signal=signal)

    assert type(run(scenario())) is AppFunctionCancelledException


def test_a_coroutine_that_is_cancelled_reports_cancelled():
    assert type(run(fails(RuntimeService(), f"{S}#cancels_itself"))) is AppFunctionCancelledException


def test_strict_mode_warns_when_an_async_function_blocks_the_loop(caplog):
    with caplog.at_level(logging.WARNING, logger="StrictMode"):
        assert run(returns(RuntimeService(), f"{S}#blocks_loop")) == "done"
    warnings = [r for r in caplog.records if r.name == "StrictMode"]
    assert len(warnings) == 1
    assert f"{S}#blocks_loop" in warnings[0].getMessage()
    assert "ms" in warnings[0].getMessage()


def test_strict_mode_is_quiet_for_awaiting_and_for_sync_functions(caplog):
    with caplog.at_level(logging.WARNING, logger="StrictMode"):
        assert run(returns(RuntimeService(), f"{S}#awaits_politely")) == "done"
        service = RuntimeService()
        service.release.set()
        assert run(returns(service, f"{S}#slow_sync")) == "finished"
    assert [r for r in caplog.records if r.name == "StrictMode"] == []


def test_without_a_running_loop_the_call_completes_before_returning():
    # A script or a plain unit test may call on_execute_function with no loop running.
    outcomes = []

    class Callback:
        def on_result(self, result):
            outcomes.append(result.return_value)

        def on_error(self, error):
            outcomes.append(error)

    from droid.appfunctions.requests import ExecuteAppFunctionRequest

    request = ExecuteAppFunctionRequest("p", f"{S}#echo_async", AppFunctionData(text="hi"))
    RuntimeService().on_execute_function(request, "caller", CancellationSignal(), Callback())
    assert outcomes == ["hi"]


class BrokenService(AppFunctionServiceEntryPoint):
    service_name = "com.example.runtime.BrokenService"
    xml_file_name = "broken"

    @app_function
    def takes_a_dict(self, options: dict) -> None: ...


def test_invalid_declarations_fail_the_call_as_app_unknown():
    error = run(fails(BrokenService(), "com.example.runtime.BrokenService#takes_a_dict"))
    assert type(error) is AppFunctionAppUnknownException
    assert "invalid AppFunction declarations" in error.error_message
    assert "parameter 'options'" in error.error_message
