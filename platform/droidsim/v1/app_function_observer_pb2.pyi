from droidsim.v1 import metadata_pb2 as _metadata_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AppFunctionChangeEvent(_message.Message):
    __slots__ = ("packages_changed", "states_changed")
    PACKAGES_CHANGED_FIELD_NUMBER: _ClassVar[int]
    STATES_CHANGED_FIELD_NUMBER: _ClassVar[int]
    packages_changed: ObservedPackageNames
    states_changed: ObservedAppFunctionNames
    def __init__(self, packages_changed: _Optional[_Union[ObservedPackageNames, _Mapping]] = ..., states_changed: _Optional[_Union[ObservedAppFunctionNames, _Mapping]] = ...) -> None: ...

class ObservedPackageNames(_message.Message):
    __slots__ = ("package_names",)
    PACKAGE_NAMES_FIELD_NUMBER: _ClassVar[int]
    package_names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, package_names: _Optional[_Iterable[str]] = ...) -> None: ...

class ObservedAppFunctionNames(_message.Message):
    __slots__ = ("function_names",)
    FUNCTION_NAMES_FIELD_NUMBER: _ClassVar[int]
    function_names: _containers.RepeatedCompositeFieldContainer[_metadata_pb2.AppFunctionName]
    def __init__(self, function_names: _Optional[_Iterable[_Union[_metadata_pb2.AppFunctionName, _Mapping]]] = ...) -> None: ...
