from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AppFunctionDataTypeMetadata(_message.Message):
    __slots__ = ("type", "is_nullable", "item_type", "properties", "required", "all_of", "one_of", "data_type_reference", "object_qualified_name", "description", "enum_values", "patterns", "format")
    TYPE_FIELD_NUMBER: _ClassVar[int]
    IS_NULLABLE_FIELD_NUMBER: _ClassVar[int]
    ITEM_TYPE_FIELD_NUMBER: _ClassVar[int]
    PROPERTIES_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_FIELD_NUMBER: _ClassVar[int]
    ALL_OF_FIELD_NUMBER: _ClassVar[int]
    ONE_OF_FIELD_NUMBER: _ClassVar[int]
    DATA_TYPE_REFERENCE_FIELD_NUMBER: _ClassVar[int]
    OBJECT_QUALIFIED_NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    ENUM_VALUES_FIELD_NUMBER: _ClassVar[int]
    PATTERNS_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    type: int
    is_nullable: bool
    item_type: AppFunctionDataTypeMetadata
    properties: _containers.RepeatedCompositeFieldContainer[AppFunctionNamedDataTypeMetadata]
    required: _containers.RepeatedScalarFieldContainer[str]
    all_of: _containers.RepeatedCompositeFieldContainer[AppFunctionDataTypeMetadata]
    one_of: _containers.RepeatedCompositeFieldContainer[AppFunctionDataTypeMetadata]
    data_type_reference: str
    object_qualified_name: str
    description: str
    enum_values: _containers.RepeatedScalarFieldContainer[str]
    patterns: _containers.RepeatedCompositeFieldContainer[AppFunctionStringPattern]
    format: str
    def __init__(self, type: _Optional[int] = ..., is_nullable: _Optional[bool] = ..., item_type: _Optional[_Union[AppFunctionDataTypeMetadata, _Mapping]] = ..., properties: _Optional[_Iterable[_Union[AppFunctionNamedDataTypeMetadata, _Mapping]]] = ..., required: _Optional[_Iterable[str]] = ..., all_of: _Optional[_Iterable[_Union[AppFunctionDataTypeMetadata, _Mapping]]] = ..., one_of: _Optional[_Iterable[_Union[AppFunctionDataTypeMetadata, _Mapping]]] = ..., data_type_reference: _Optional[str] = ..., object_qualified_name: _Optional[str] = ..., description: _Optional[str] = ..., enum_values: _Optional[_Iterable[str]] = ..., patterns: _Optional[_Iterable[_Union[AppFunctionStringPattern, _Mapping]]] = ..., format: _Optional[str] = ...) -> None: ...

class AppFunctionNamedDataTypeMetadata(_message.Message):
    __slots__ = ("name", "data_type")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DATA_TYPE_FIELD_NUMBER: _ClassVar[int]
    name: str
    data_type: AppFunctionDataTypeMetadata
    def __init__(self, name: _Optional[str] = ..., data_type: _Optional[_Union[AppFunctionDataTypeMetadata, _Mapping]] = ...) -> None: ...

class AppFunctionStringPattern(_message.Message):
    __slots__ = ("value", "type")
    VALUE_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    value: str
    type: int
    def __init__(self, value: _Optional[str] = ..., type: _Optional[int] = ...) -> None: ...

class AppFunctionParameterMetadata(_message.Message):
    __slots__ = ("name", "is_required", "data_type", "description")
    NAME_FIELD_NUMBER: _ClassVar[int]
    IS_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    DATA_TYPE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    name: str
    is_required: bool
    data_type: AppFunctionDataTypeMetadata
    description: str
    def __init__(self, name: _Optional[str] = ..., is_required: _Optional[bool] = ..., data_type: _Optional[_Union[AppFunctionDataTypeMetadata, _Mapping]] = ..., description: _Optional[str] = ...) -> None: ...

class AppFunctionResponseMetadata(_message.Message):
    __slots__ = ("value_type", "description")
    VALUE_TYPE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    value_type: AppFunctionDataTypeMetadata
    description: str
    def __init__(self, value_type: _Optional[_Union[AppFunctionDataTypeMetadata, _Mapping]] = ..., description: _Optional[str] = ...) -> None: ...

class AppFunctionSchemaMetadata(_message.Message):
    __slots__ = ("category", "name", "version")
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    category: str
    name: str
    version: int
    def __init__(self, category: _Optional[str] = ..., name: _Optional[str] = ..., version: _Optional[int] = ...) -> None: ...

class AppFunctionDeprecationMetadata(_message.Message):
    __slots__ = ("message",)
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class AppFunctionComponentsMetadata(_message.Message):
    __slots__ = ("data_types",)
    DATA_TYPES_FIELD_NUMBER: _ClassVar[int]
    data_types: _containers.RepeatedCompositeFieldContainer[AppFunctionNamedDataTypeMetadata]
    def __init__(self, data_types: _Optional[_Iterable[_Union[AppFunctionNamedDataTypeMetadata, _Mapping]]] = ...) -> None: ...

class AppFunctionMetadata(_message.Message):
    __slots__ = ("id", "package_name", "enabled_by_default", "scope", "description", "parameters", "response", "schema", "deprecation", "access_level", "is_compat_enforcement_enabled", "restrict_callers_with_execute_app_functions", "display_name_string_res", "is_enabled", "service_name", "is_destructive", "package_metadata")
    ID_FIELD_NUMBER: _ClassVar[int]
    PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    ENABLED_BY_DEFAULT_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    PARAMETERS_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_FIELD_NUMBER: _ClassVar[int]
    DEPRECATION_FIELD_NUMBER: _ClassVar[int]
    ACCESS_LEVEL_FIELD_NUMBER: _ClassVar[int]
    IS_COMPAT_ENFORCEMENT_ENABLED_FIELD_NUMBER: _ClassVar[int]
    RESTRICT_CALLERS_WITH_EXECUTE_APP_FUNCTIONS_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_STRING_RES_FIELD_NUMBER: _ClassVar[int]
    IS_ENABLED_FIELD_NUMBER: _ClassVar[int]
    SERVICE_NAME_FIELD_NUMBER: _ClassVar[int]
    IS_DESTRUCTIVE_FIELD_NUMBER: _ClassVar[int]
    PACKAGE_METADATA_FIELD_NUMBER: _ClassVar[int]
    id: str
    package_name: str
    enabled_by_default: bool
    scope: int
    description: str
    parameters: _containers.RepeatedCompositeFieldContainer[AppFunctionParameterMetadata]
    response: AppFunctionResponseMetadata
    schema: AppFunctionSchemaMetadata
    deprecation: AppFunctionDeprecationMetadata
    access_level: int
    is_compat_enforcement_enabled: bool
    restrict_callers_with_execute_app_functions: bool
    display_name_string_res: int
    is_enabled: bool
    service_name: str
    is_destructive: bool
    package_metadata: AppFunctionPackageMetadata
    def __init__(self, id: _Optional[str] = ..., package_name: _Optional[str] = ..., enabled_by_default: _Optional[bool] = ..., scope: _Optional[int] = ..., description: _Optional[str] = ..., parameters: _Optional[_Iterable[_Union[AppFunctionParameterMetadata, _Mapping]]] = ..., response: _Optional[_Union[AppFunctionResponseMetadata, _Mapping]] = ..., schema: _Optional[_Union[AppFunctionSchemaMetadata, _Mapping]] = ..., deprecation: _Optional[_Union[AppFunctionDeprecationMetadata, _Mapping]] = ..., access_level: _Optional[int] = ..., is_compat_enforcement_enabled: _Optional[bool] = ..., restrict_callers_with_execute_app_functions: _Optional[bool] = ..., display_name_string_res: _Optional[int] = ..., is_enabled: _Optional[bool] = ..., service_name: _Optional[str] = ..., is_destructive: _Optional[bool] = ..., package_metadata: _Optional[_Union[AppFunctionPackageMetadata, _Mapping]] = ...) -> None: ...

class AppFunctionName(_message.Message):
    __slots__ = ("package_name", "function_identifier")
    PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    FUNCTION_IDENTIFIER_FIELD_NUMBER: _ClassVar[int]
    package_name: str
    function_identifier: str
    def __init__(self, package_name: _Optional[str] = ..., function_identifier: _Optional[str] = ...) -> None: ...

class AppFunctionAppMetadata(_message.Message):
    __slots__ = ("description", "display_description")
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    description: str
    display_description: str
    def __init__(self, description: _Optional[str] = ..., display_description: _Optional[str] = ...) -> None: ...

class AppFunctionPackageMetadata(_message.Message):
    __slots__ = ("package_name", "app_functions", "components", "app_metadata", "answers", "installed_from", "unindexed")
    PACKAGE_NAME_FIELD_NUMBER: _ClassVar[int]
    APP_FUNCTIONS_FIELD_NUMBER: _ClassVar[int]
    COMPONENTS_FIELD_NUMBER: _ClassVar[int]
    APP_METADATA_FIELD_NUMBER: _ClassVar[int]
    ANSWERS_FIELD_NUMBER: _ClassVar[int]
    INSTALLED_FROM_FIELD_NUMBER: _ClassVar[int]
    UNINDEXED_FIELD_NUMBER: _ClassVar[int]
    package_name: str
    app_functions: _containers.RepeatedCompositeFieldContainer[AppFunctionMetadata]
    components: AppFunctionComponentsMetadata
    app_metadata: AppFunctionAppMetadata
    answers: AnswerSource
    installed_from: InstalledFrom
    unindexed: _containers.RepeatedCompositeFieldContainer[UnindexedFunction]
    def __init__(self, package_name: _Optional[str] = ..., app_functions: _Optional[_Iterable[_Union[AppFunctionMetadata, _Mapping]]] = ..., components: _Optional[_Union[AppFunctionComponentsMetadata, _Mapping]] = ..., app_metadata: _Optional[_Union[AppFunctionAppMetadata, _Mapping]] = ..., answers: _Optional[_Union[AnswerSource, _Mapping]] = ..., installed_from: _Optional[_Union[InstalledFrom, _Mapping]] = ..., unindexed: _Optional[_Iterable[_Union[UnindexedFunction, _Mapping]]] = ...) -> None: ...

class UnindexedFunction(_message.Message):
    __slots__ = ("function_id", "reason")
    FUNCTION_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    function_id: str
    reason: str
    def __init__(self, function_id: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class InstalledFrom(_message.Message):
    __slots__ = ("kind", "file_name", "sha256", "signing_schemes", "certificate_sha256", "folder")
    KIND_FIELD_NUMBER: _ClassVar[int]
    FILE_NAME_FIELD_NUMBER: _ClassVar[int]
    SHA256_FIELD_NUMBER: _ClassVar[int]
    SIGNING_SCHEMES_FIELD_NUMBER: _ClassVar[int]
    CERTIFICATE_SHA256_FIELD_NUMBER: _ClassVar[int]
    FOLDER_FIELD_NUMBER: _ClassVar[int]
    kind: str
    file_name: str
    sha256: str
    signing_schemes: _containers.RepeatedScalarFieldContainer[str]
    certificate_sha256: _containers.RepeatedScalarFieldContainer[str]
    folder: str
    def __init__(self, kind: _Optional[str] = ..., file_name: _Optional[str] = ..., sha256: _Optional[str] = ..., signing_schemes: _Optional[_Iterable[str]] = ..., certificate_sha256: _Optional[_Iterable[str]] = ..., folder: _Optional[str] = ...) -> None: ...

class AnswerSource(_message.Message):
    __slots__ = ("kind", "cassette", "double_dir", "on_miss", "recorded")
    class RecordedEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    KIND_FIELD_NUMBER: _ClassVar[int]
    CASSETTE_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_DIR_FIELD_NUMBER: _ClassVar[int]
    ON_MISS_FIELD_NUMBER: _ClassVar[int]
    RECORDED_FIELD_NUMBER: _ClassVar[int]
    kind: str
    cassette: str
    double_dir: str
    on_miss: str
    recorded: _containers.ScalarMap[str, int]
    def __init__(self, kind: _Optional[str] = ..., cassette: _Optional[str] = ..., double_dir: _Optional[str] = ..., on_miss: _Optional[str] = ..., recorded: _Optional[_Mapping[str, int]] = ...) -> None: ...
