from droidsim.v1 import allowlist_pb2 as _allowlist_pb2
from droidsim.v1 import data_pb2 as _data_pb2
from droidsim.v1 import metadata_pb2 as _metadata_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class InstallPackageRequest(_message.Message):
    __slots__ = ("app_dir", "system", "responses")
    APP_DIR_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_FIELD_NUMBER: _ClassVar[int]
    RESPONSES_FIELD_NUMBER: _ClassVar[int]
    app_dir: str
    system: bool
    responses: ResponseOptions
    def __init__(self, app_dir: _Optional[str] = ..., system: _Optional[bool] = ..., responses: _Optional[_Union[ResponseOptions, _Mapping]] = ...) -> None: ...

class ResponseOptions(_message.Message):
    __slots__ = ("cassette", "double_dir", "on_miss")
    CASSETTE_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_DIR_FIELD_NUMBER: _ClassVar[int]
    ON_MISS_FIELD_NUMBER: _ClassVar[int]
    cassette: str
    double_dir: str
    on_miss: str
    def __init__(self, cassette: _Optional[str] = ..., double_dir: _Optional[str] = ..., on_miss: _Optional[str] = ...) -> None: ...

class PackageInfo(_message.Message):
    __slots__ = ("package_name", "uid", "system", "requested_permissions", "function_ids", "warnings", "privileged", "granted_permissions", "installed_from", "code_path", "declared_function_count", "unindexed_functions")
    PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    UID_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_FIELD_NUMBER: _ClassVar[int]
    REQUESTED_PERMISSIONS_FIELD_NUMBER: _ClassVar[int]
    FUNCTION_IDS_FIELD_NUMBER: _ClassVar[int]
    WARNINGS_FIELD_NUMBER: _ClassVar[int]
    PRIVILEGED_FIELD_NUMBER: _ClassVar[int]
    GRANTED_PERMISSIONS_FIELD_NUMBER: _ClassVar[int]
    INSTALLED_FROM_FIELD_NUMBER: _ClassVar[int]
    CODE_PATH_FIELD_NUMBER: _ClassVar[int]
    DECLARED_FUNCTION_COUNT_FIELD_NUMBER: _ClassVar[int]
    UNINDEXED_FUNCTIONS_FIELD_NUMBER: _ClassVar[int]
    package_name: str
    uid: int
    system: bool
    requested_permissions: _containers.RepeatedScalarFieldContainer[str]
    function_ids: _containers.RepeatedScalarFieldContainer[str]
    warnings: _containers.RepeatedScalarFieldContainer[str]
    privileged: bool
    granted_permissions: _containers.RepeatedScalarFieldContainer[str]
    installed_from: _metadata_pb2.InstalledFrom
    code_path: str
    declared_function_count: int
    unindexed_functions: _containers.RepeatedCompositeFieldContainer[_metadata_pb2.UnindexedFunction]
    def __init__(self, package_name: _Optional[str] = ..., uid: _Optional[int] = ..., system: _Optional[bool] = ..., requested_permissions: _Optional[_Iterable[str]] = ..., function_ids: _Optional[_Iterable[str]] = ..., warnings: _Optional[_Iterable[str]] = ..., privileged: _Optional[bool] = ..., granted_permissions: _Optional[_Iterable[str]] = ..., installed_from: _Optional[_Union[_metadata_pb2.InstalledFrom, _Mapping]] = ..., code_path: _Optional[str] = ..., declared_function_count: _Optional[int] = ..., unindexed_functions: _Optional[_Iterable[_Union[_metadata_pb2.UnindexedFunction, _Mapping]]] = ...) -> None: ...

class PermissionInfo(_message.Message):
    __slots__ = ("name", "protection_level", "package_name")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PROTECTION_LEVEL_FIELD_NUMBER: _ClassVar[int]
    PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    protection_level: str
    package_name: str
    def __init__(self, name: _Optional[str] = ..., protection_level: _Optional[str] = ..., package_name: _Optional[str] = ...) -> None: ...

class ListPermissionsResponse(_message.Message):
    __slots__ = ("permissions",)
    PERMISSIONS_FIELD_NUMBER: _ClassVar[int]
    permissions: _containers.RepeatedCompositeFieldContainer[PermissionInfo]
    def __init__(self, permissions: _Optional[_Iterable[_Union[PermissionInfo, _Mapping]]] = ...) -> None: ...

class PermissionRequest(_message.Message):
    __slots__ = ("package_name", "permission")
    PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    PERMISSION_FIELD_NUMBER: _ClassVar[int]
    package_name: str
    permission: str
    def __init__(self, package_name: _Optional[str] = ..., permission: _Optional[str] = ...) -> None: ...

class CheckPermissionResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: int
    def __init__(self, result: _Optional[int] = ...) -> None: ...

class PrivilegedAllowlist(_message.Message):
    __slots__ = ("package_names",)
    PACKAGE_NAMES_FIELD_NUMBER: _ClassVar[int]
    package_names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, package_names: _Optional[_Iterable[str]] = ...) -> None: ...

class UninstallPackageRequest(_message.Message):
    __slots__ = ("package_name",)
    PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    package_name: str
    def __init__(self, package_name: _Optional[str] = ...) -> None: ...

class ListPackagesResponse(_message.Message):
    __slots__ = ("packages",)
    PACKAGES_FIELD_NUMBER: _ClassVar[int]
    packages: _containers.RepeatedCompositeFieldContainer[PackageInfo]
    def __init__(self, packages: _Optional[_Iterable[_Union[PackageInfo, _Mapping]]] = ...) -> None: ...

class ClearPackageDataRequest(_message.Message):
    __slots__ = ("package_name",)
    PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    package_name: str
    def __init__(self, package_name: _Optional[str] = ...) -> None: ...
