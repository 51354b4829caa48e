from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AllowlistEdit(_message.Message):
    __slots__ = ("operation", "packages")
    class Operation(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        SET: _ClassVar[AllowlistEdit.Operation]
        ADD: _ClassVar[AllowlistEdit.Operation]
        REMOVE: _ClassVar[AllowlistEdit.Operation]
    SET: AllowlistEdit.Operation
    ADD: AllowlistEdit.Operation
    REMOVE: AllowlistEdit.Operation
    OPERATION_FIELD_NUMBER: _ClassVar[int]
    PACKAGES_FIELD_NUMBER: _ClassVar[int]
    operation: AllowlistEdit.Operation
    packages: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, operation: _Optional[_Union[AllowlistEdit.Operation, str]] = ..., packages: _Optional[_Iterable[str]] = ...) -> None: ...

class AllowlistEntry(_message.Message):
    __slots__ = ("package_name", "certificate_sha256")
    PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    CERTIFICATE_SHA256_FIELD_NUMBER: _ClassVar[int]
    package_name: str
    certificate_sha256: str
    def __init__(self, package_name: _Optional[str] = ..., certificate_sha256: _Optional[str] = ...) -> None: ...

class PackageLoss(_message.Message):
    __slots__ = ("package_name", "lost")
    PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    LOST_FIELD_NUMBER: _ClassVar[int]
    package_name: str
    lost: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, package_name: _Optional[str] = ..., lost: _Optional[_Iterable[str]] = ...) -> None: ...

class AllowlistChange(_message.Message):
    __slots__ = ("entries", "removed", "not_listed", "losses", "allowlist")
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    REMOVED_FIELD_NUMBER: _ClassVar[int]
    NOT_LISTED_FIELD_NUMBER: _ClassVar[int]
    LOSSES_FIELD_NUMBER: _ClassVar[int]
    ALLOWLIST_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedCompositeFieldContainer[AllowlistEntry]
    removed: _containers.RepeatedScalarFieldContainer[str]
    not_listed: _containers.RepeatedScalarFieldContainer[str]
    losses: _containers.RepeatedCompositeFieldContainer[PackageLoss]
    allowlist: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, entries: _Optional[_Iterable[_Union[AllowlistEntry, _Mapping]]] = ..., removed: _Optional[_Iterable[str]] = ..., not_listed: _Optional[_Iterable[str]] = ..., losses: _Optional[_Iterable[_Union[PackageLoss, _Mapping]]] = ..., allowlist: _Optional[_Iterable[str]] = ...) -> None: ...
