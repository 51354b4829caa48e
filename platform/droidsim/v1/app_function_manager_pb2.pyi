from droidsim.v1 import allowlist_pb2 as _allowlist_pb2
from droidsim.v1 import data_pb2 as _data_pb2
from droidsim.v1 import metadata_pb2 as _metadata_pb2
from droidsim.v1 import app_function_observer_pb2 as _app_function_observer_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ExecuteAppFunctionRequest(_message.Message):
    __slots__ = ("target_package_name", "function_identifier", "parameters", "extras", "calling_package")
    TARGET_PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    FUNCTION_IDENTIFIER_FIELD_NUMBER: _ClassVar[int]
    PARAMETERS_FIELD_NUMBER: _ClassVar[int]
    EXTRAS_FIELD_NUMBER: _ClassVar[int]
    CALLING_PACKAGE_FIELD_NUMBER: _ClassVar[int]
    target_package_name: str
    function_identifier: str
    parameters: _data_pb2.AppFunctionData
    extras: _data_pb2.AppFunctionData
    calling_package: str
    def __init__(self, target_package_name: _Optional[str] = ..., function_identifier: _Optional[str] = ..., parameters: _Optional[_Union[_data_pb2.AppFunctionData, _Mapping]] = ..., extras: _Optional[_Union[_data_pb2.AppFunctionData, _Mapping]] = ..., calling_package: _Optional[str] = ...) -> None: ...

class ExecuteAppFunctionResponse(_message.Message):
    __slots__ = ("result_document", "extras")
    RESULT_DOCUMENT_FIELD_NUMBER: _ClassVar[int]
    EXTRAS_FIELD_NUMBER: _ClassVar[int]
    result_document: _data_pb2.AppFunctionData
    extras: _data_pb2.AppFunctionData
    def __init__(self, result_document: _Optional[_Union[_data_pb2.AppFunctionData, _Mapping]] = ..., extras: _Optional[_Union[_data_pb2.AppFunctionData, _Mapping]] = ...) -> None: ...

class ExecuteAppFunctionResult(_message.Message):
    __slots__ = ("response", "error")
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    response: ExecuteAppFunctionResponse
    error: _data_pb2.AppFunctionError
    def __init__(self, response: _Optional[_Union[ExecuteAppFunctionResponse, _Mapping]] = ..., error: _Optional[_Union[_data_pb2.AppFunctionError, _Mapping]] = ...) -> None: ...

class IsAppFunctionEnabledRequest(_message.Message):
    __slots__ = ("function_identifier", "target_package_name")
    FUNCTION_IDENTIFIER_FIELD_NUMBER: _ClassVar[int]
    TARGET_PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    function_identifier: str
    target_package_name: str
    def __init__(self, function_identifier: _Optional[str] = ..., target_package_name: _Optional[str] = ...) -> None: ...

class IsAppFunctionEnabledResponse(_message.Message):
    __slots__ = ("enabled",)
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    enabled: bool
    def __init__(self, enabled: _Optional[bool] = ...) -> None: ...

class SetAppFunctionEnabledRequest(_message.Message):
    __slots__ = ("function_identifier", "state", "target_package_name")
    FUNCTION_IDENTIFIER_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    TARGET_PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    function_identifier: str
    state: int
    target_package_name: str
    def __init__(self, function_identifier: _Optional[str] = ..., state: _Optional[int] = ..., target_package_name: _Optional[str] = ...) -> None: ...

class AppFunctionSearchSpec(_message.Message):
    __slots__ = ("package_names", "schema_category", "schema_name", "min_schema_version", "function_names", "scopes")
    PACKAGE_NAMES_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_CATEGORY_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_NAME_FIELD_NUMBER: _ClassVar[int]
    MIN_SCHEMA_VERSION_FIELD_NUMBER: _ClassVar[int]
    FUNCTION_NAMES_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    package_names: _containers.RepeatedScalarFieldContainer[str]
    schema_category: str
    schema_name: str
    min_schema_version: int
    function_names: _containers.RepeatedCompositeFieldContainer[_metadata_pb2.AppFunctionName]
    scopes: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, package_names: _Optional[_Iterable[str]] = ..., schema_category: _Optional[str] = ..., schema_name: _Optional[str] = ..., min_schema_version: _Optional[int] = ..., function_names: _Optional[_Iterable[_Union[_metadata_pb2.AppFunctionName, _Mapping]]] = ..., scopes: _Optional[_Iterable[int]] = ...) -> None: ...

class SearchAppFunctionsResponse(_message.Message):
    __slots__ = ("app_functions",)
    APP_FUNCTIONS_FIELD_NUMBER: _ClassVar[int]
    app_functions: _containers.RepeatedCompositeFieldContainer[_metadata_pb2.AppFunctionMetadata]
    def __init__(self, app_functions: _Optional[_Iterable[_Union[_metadata_pb2.AppFunctionMetadata, _Mapping]]] = ...) -> None: ...

class AppFunctionNameList(_message.Message):
    __slots__ = ("names",)
    NAMES_FIELD_NUMBER: _ClassVar[int]
    names: _containers.RepeatedCompositeFieldContainer[_metadata_pb2.AppFunctionName]
    def __init__(self, names: _Optional[_Iterable[_Union[_metadata_pb2.AppFunctionName, _Mapping]]] = ...) -> None: ...

class AppFunctionState(_message.Message):
    __slots__ = ("function_name", "is_enabled")
    FUNCTION_NAME_FIELD_NUMBER: _ClassVar[int]
    IS_ENABLED_FIELD_NUMBER: _ClassVar[int]
    function_name: _metadata_pb2.AppFunctionName
    is_enabled: bool
    def __init__(self, function_name: _Optional[_Union[_metadata_pb2.AppFunctionName, _Mapping]] = ..., is_enabled: _Optional[bool] = ...) -> None: ...

class AppFunctionStateList(_message.Message):
    __slots__ = ("states",)
    STATES_FIELD_NUMBER: _ClassVar[int]
    states: _containers.RepeatedCompositeFieldContainer[AppFunctionState]
    def __init__(self, states: _Optional[_Iterable[_Union[AppFunctionState, _Mapping]]] = ...) -> None: ...

class AccessChangeEvent(_message.Message):
    __slots__ = ("registered", "agent_uid")
    REGISTERED_FIELD_NUMBER: _ClassVar[int]
    AGENT_UID_FIELD_NUMBER: _ClassVar[int]
    registered: _data_pb2.Empty
    agent_uid: int
    def __init__(self, registered: _Optional[_Union[_data_pb2.Empty, _Mapping]] = ..., agent_uid: _Optional[int] = ...) -> None: ...

class AccessPair(_message.Message):
    __slots__ = ("agent_package_name", "target_package_name")
    AGENT_PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    TARGET_PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    agent_package_name: str
    target_package_name: str
    def __init__(self, agent_package_name: _Optional[str] = ..., target_package_name: _Optional[str] = ...) -> None: ...

class AccessRequestState(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: int
    def __init__(self, state: _Optional[int] = ...) -> None: ...

class AccessFlags(_message.Message):
    __slots__ = ("flags",)
    FLAGS_FIELD_NUMBER: _ClassVar[int]
    flags: int
    def __init__(self, flags: _Optional[int] = ...) -> None: ...

class UpdateAccessFlagsRequest(_message.Message):
    __slots__ = ("agent_package_name", "target_package_name", "flag_mask", "flags")
    AGENT_PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    TARGET_PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    FLAG_MASK_FIELD_NUMBER: _ClassVar[int]
    FLAGS_FIELD_NUMBER: _ClassVar[int]
    agent_package_name: str
    target_package_name: str
    flag_mask: int
    flags: int
    def __init__(self, agent_package_name: _Optional[str] = ..., target_package_name: _Optional[str] = ..., flag_mask: _Optional[int] = ..., flags: _Optional[int] = ...) -> None: ...

class UpdateAccessFlagsResponse(_message.Message):
    __slots__ = ("changed",)
    CHANGED_FIELD_NUMBER: _ClassVar[int]
    changed: bool
    def __init__(self, changed: _Optional[bool] = ...) -> None: ...

class RevokeSelfAccessRequest(_message.Message):
    __slots__ = ("target_package_name",)
    TARGET_PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    target_package_name: str
    def __init__(self, target_package_name: _Optional[str] = ...) -> None: ...

class PackageNameList(_message.Message):
    __slots__ = ("package_names",)
    PACKAGE_NAMES_FIELD_NUMBER: _ClassVar[int]
    package_names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, package_names: _Optional[_Iterable[str]] = ...) -> None: ...

class AccessHistoryEntry(_message.Message):
    __slots__ = ("id", "agent_package_name", "agent_uid", "target_package_name", "function_identifier", "access_time_millis", "duration_millis", "result_code", "result_message")
    ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    AGENT_UID_FIELD_NUMBER: _ClassVar[int]
    TARGET_PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    FUNCTION_IDENTIFIER_FIELD_NUMBER: _ClassVar[int]
    ACCESS_TIME_MILLIS_FIELD_NUMBER: _ClassVar[int]
    DURATION_MILLIS_FIELD_NUMBER: _ClassVar[int]
    RESULT_CODE_FIELD_NUMBER: _ClassVar[int]
    RESULT_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    id: int
    agent_package_name: str
    agent_uid: int
    target_package_name: str
    function_identifier: str
    access_time_millis: int
    duration_millis: int
    result_code: int
    result_message: str
    def __init__(self, id: _Optional[int] = ..., agent_package_name: _Optional[str] = ..., agent_uid: _Optional[int] = ..., target_package_name: _Optional[str] = ..., function_identifier: _Optional[str] = ..., access_time_millis: _Optional[int] = ..., duration_millis: _Optional[int] = ..., result_code: _Optional[int] = ..., result_message: _Optional[str] = ...) -> None: ...

class AccessHistory(_message.Message):
    __slots__ = ("entries",)
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedCompositeFieldContainer[AccessHistoryEntry]
    def __init__(self, entries: _Optional[_Iterable[_Union[AccessHistoryEntry, _Mapping]]] = ...) -> None: ...

class DumpResponse(_message.Message):
    __slots__ = ("text",)
    TEXT_FIELD_NUMBER: _ClassVar[int]
    text: str
    def __init__(self, text: _Optional[str] = ...) -> None: ...
