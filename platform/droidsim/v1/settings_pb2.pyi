from droidsim.v1 import data_pb2 as _data_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SettingKey(_message.Message):
    __slots__ = ("table", "name")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    table: str
    name: str
    def __init__(self, table: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class SettingValue(_message.Message):
    __slots__ = ("key", "present", "value")
    KEY_FIELD_NUMBER: _ClassVar[int]
    PRESENT_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    key: SettingKey
    present: bool
    value: str
    def __init__(self, key: _Optional[_Union[SettingKey, _Mapping]] = ..., present: _Optional[bool] = ..., value: _Optional[str] = ...) -> None: ...

class SettingDescription(_message.Message):
    __slots__ = ("key", "description")
    KEY_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    key: SettingKey
    description: str
    def __init__(self, key: _Optional[_Union[SettingKey, _Mapping]] = ..., description: _Optional[str] = ...) -> None: ...

class ListSettingsResponse(_message.Message):
    __slots__ = ("settings",)
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    settings: _containers.RepeatedCompositeFieldContainer[SettingDescription]
    def __init__(self, settings: _Optional[_Iterable[_Union[SettingDescription, _Mapping]]] = ...) -> None: ...
