from droidsim.v1 import app_function_manager_pb2 as _app_function_manager_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ExecuteFunctionCall(_message.Message):
    __slots__ = ("request", "calling_package", "service_name")
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    CALLING_PACKAGE_FIELD_NUMBER: _ClassVar[int]
    SERVICE_NAME_FIELD_NUMBER: _ClassVar[int]
    request: _app_function_manager_pb2.ExecuteAppFunctionRequest
    calling_package: str
    service_name: str
    def __init__(self, request: _Optional[_Union[_app_function_manager_pb2.ExecuteAppFunctionRequest, _Mapping]] = ..., calling_package: _Optional[str] = ..., service_name: _Optional[str] = ...) -> None: ...

class CancelCall(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AppCall(_message.Message):
    __slots__ = ("call_id", "execute", "cancel")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    EXECUTE_FIELD_NUMBER: _ClassVar[int]
    CANCEL_FIELD_NUMBER: _ClassVar[int]
    call_id: int
    execute: ExecuteFunctionCall
    cancel: CancelCall
    def __init__(self, call_id: _Optional[int] = ..., execute: _Optional[_Union[ExecuteFunctionCall, _Mapping]] = ..., cancel: _Optional[_Union[CancelCall, _Mapping]] = ...) -> None: ...

class AppReply(_message.Message):
    __slots__ = ("call_id", "result", "log")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    LOG_FIELD_NUMBER: _ClassVar[int]
    call_id: int
    result: _app_function_manager_pb2.ExecuteAppFunctionResult
    log: str
    def __init__(self, call_id: _Optional[int] = ..., result: _Optional[_Union[_app_function_manager_pb2.ExecuteAppFunctionResult, _Mapping]] = ..., log: _Optional[str] = ...) -> None: ...
