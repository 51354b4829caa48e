from droidsim.v1 import data_pb2 as _data_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ServiceInfo(_message.Message):
    __slots__ = ("name", "grpc_service")
    NAME_FIELD_NUMBER: _ClassVar[int]
    GRPC_SERVICE_FIELD_NUMBER: _ClassVar[int]
    name: str
    grpc_service: str
    def __init__(self, name: _Optional[str] = ..., grpc_service: _Optional[str] = ...) -> None: ...

class ListServicesResponse(_message.Message):
    __slots__ = ("services",)
    SERVICES_FIELD_NUMBER: _ClassVar[int]
    services: _containers.RepeatedCompositeFieldContainer[ServiceInfo]
    def __init__(self, services: _Optional[_Iterable[_Union[ServiceInfo, _Mapping]]] = ...) -> None: ...

class CallerInfo(_message.Message):
    __slots__ = ("uid", "package_name")
    UID_FIELD_NUMBER: _ClassVar[int]
    PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    uid: int
    package_name: str
    def __init__(self, uid: _Optional[int] = ..., package_name: _Optional[str] = ...) -> None: ...

class BuildVersion(_message.Message):
    __slots__ = ("sdk_int", "release")
    SDK_INT_FIELD_NUMBER: _ClassVar[int]
    RELEASE_FIELD_NUMBER: _ClassVar[int]
    sdk_int: int
    release: str
    def __init__(self, sdk_int: _Optional[int] = ..., release: _Optional[str] = ...) -> None: ...
