from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AppFunctionData(_message.Message):
    __slots__ = ("qualified_name", "id", "properties")
    QUALIFIED_NAME_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    PROPERTIES_FIELD_NUMBER: _ClassVar[int]
    qualified_name: str
    id: str
    properties: _containers.RepeatedCompositeFieldContainer[Property]
    def __init__(self, qualified_name: _Optional[str] = ..., id: _Optional[str] = ..., properties: _Optional[_Iterable[_Union[Property, _Mapping]]] = ...) -> None: ...

class Property(_message.Message):
    __slots__ = ("name", "repeated", "longs", "doubles", "booleans", "strings", "bytes_values", "documents", "null_value")
    NAME_FIELD_NUMBER: _ClassVar[int]
    REPEATED_FIELD_NUMBER: _ClassVar[int]
    LONGS_FIELD_NUMBER: _ClassVar[int]
    DOUBLES_FIELD_NUMBER: _ClassVar[int]
    BOOLEANS_FIELD_NUMBER: _ClassVar[int]
    STRINGS_FIELD_NUMBER: _ClassVar[int]
    BYTES_VALUES_FIELD_NUMBER: _ClassVar[int]
    DOCUMENTS_FIELD_NUMBER: _ClassVar[int]
    NULL_VALUE_FIELD_NUMBER: _ClassVar[int]
    name: str
    repeated: bool
    longs: LongValues
    doubles: DoubleValues
    booleans: BooleanValues
    strings: StringValues
    bytes_values: BytesValues
    documents: DocumentValues
    null_value: bool
    def __init__(self, name: _Optional[str] = ..., repeated: _Optional[bool] = ..., longs: _Optional[_Union[LongValues, _Mapping]] = ..., doubles: _Optional[_Union[DoubleValues, _Mapping]] = ..., booleans: _Optional[_Union[BooleanValues, _Mapping]] = ..., strings: _Optional[_Union[StringValues, _Mapping]] = ..., bytes_values: _Optional[_Union[BytesValues, _Mapping]] = ..., documents: _Optional[_Union[DocumentValues, _Mapping]] = ..., null_value: _Optional[bool] = ...) -> None: ...

class LongValues(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, values: _Optional[_Iterable[int]] = ...) -> None: ...

class DoubleValues(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, values: _Optional[_Iterable[float]] = ...) -> None: ...

class BooleanValues(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[bool]
    def __init__(self, values: _Optional[_Iterable[bool]] = ...) -> None: ...

class StringValues(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, values: _Optional[_Iterable[str]] = ...) -> None: ...

class BytesValues(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, values: _Optional[_Iterable[bytes]] = ...) -> None: ...

class DocumentValues(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedCompositeFieldContainer[AppFunctionData]
    def __init__(self, values: _Optional[_Iterable[_Union[AppFunctionData, _Mapping]]] = ...) -> None: ...

class AppFunctionError(_message.Message):
    __slots__ = ("error_code", "error_category", "error_message", "exception_type", "extras")
    ERROR_CODE_FIELD_NUMBER: _ClassVar[int]
    ERROR_CATEGORY_FIELD_NUMBER: _ClassVar[int]
    ERROR_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    EXCEPTION_TYPE_FIELD_NUMBER: _ClassVar[int]
    EXTRAS_FIELD_NUMBER: _ClassVar[int]
    error_code: int
    error_category: int
    error_message: str
    exception_type: str
    extras: AppFunctionData
    def __init__(self, error_code: _Optional[int] = ..., error_category: _Optional[int] = ..., error_message: _Optional[str] = ..., exception_type: _Optional[str] = ..., extras: _Optional[_Union[AppFunctionData, _Mapping]] = ...) -> None: ...

class BinderException(_message.Message):
    __slots__ = ("type", "message", "app_function_error")
    TYPE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    APP_FUNCTION_ERROR_FIELD_NUMBER: _ClassVar[int]
    type: str
    message: str
    app_function_error: AppFunctionError
    def __init__(self, type: _Optional[str] = ..., message: _Optional[str] = ..., app_function_error: _Optional[_Union[AppFunctionError, _Mapping]] = ...) -> None: ...

class Empty(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
