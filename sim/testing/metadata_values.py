"""A test's Python values for an app known by its installed metadata alone: an APK, a
code-less folder, a platform-layer service.

Such an app has no Python classes to build its objects with, so each object type its metadata
declares becomes a dataclass generated from that metadata (``Balance(amount=12.5,
currency="EUR")``): attributes by declared name, equal by value, as a Python app's own
dataclasses are. The library types are Python's, as for a Python app: a ``date`` for a
``java.time.LocalDate``, a ``Uri`` for a uri string, ``bytes`` for bytes. Arguments in those
forms become the JSON the shell sends, and are then typed by the metadata exactly as
``execute-app-function --parameters`` types its JSON (droid.appfunctions.json_codec).
"""

from __future__ import annotations

import base64
import dataclasses
import keyword
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from droid.appfunctions import proxies
from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.json_codec import parameters_from_json, to_json
from droid.appfunctions.metadata import (
    FORMAT_URI,
    AppFunctionComponentsMetadata,
    AppFunctionDataTypeMetadata,
    AppFunctionMetadata,
    SET_FIELD,
    DataType,
    short_type_name,
    type_label,
)
from droid.appfunctions.typeref import wire_name
from droid.net.uri import Uri
from droid.os.parcelable import Parcelable
from sim.responses.types import object_properties, resolved
from sim.testing.values import kind_of, proxy_form_error, unknown_key

_PROXIES = {p.qualified_name: p for p in (proxies.LOCAL_DATE, proxies.LOCAL_TIME, proxies.LOCAL_DATE_TIME,
                                          proxies.INSTANT, proxies.ZONE_ID)}
_OBJECTS = (DataType.OBJECT, DataType.ALL_OF)
# A qualified name a class can be named after: dotted identifiers, no generics (SetField<kotlin.String>).
_CLASS_NAME = re.compile(r"(?:[A-Za-z_$][\w$]*\.)*[A-Za-z_$][\w$]*")


@dataclass(frozen=True)
class _Layout:
    """A generated class: the object type it stands for and each declared name's attribute."""

    qualified_name: str
    attributes: dict[str, str]


class AppTypes:
    """The object types of one installed app's metadata, as generated dataclasses: one class
    per type, so what ``call`` returns equals what a test builds from ``installed.types``."""

    def __init__(self, components: AppFunctionComponentsMetadata) -> None:
        self._shared = {named.name: named.data_type for named in components.data_types}
        self._classes: dict[Any, type] = {}
        self._layouts: dict[type, _Layout] = {}

    def namespace(self) -> SimpleNamespace:
        """The app's object types by simple name (``types.Balance``), by qualified name with
        underscores where two share one (``com_acme_a_Item``); library types are Python's own
        (``date``...) and generic ones (``SetField<…>``) are written as dicts."""
        classes = {}
        for name, data_type in self._shared.items():
            data_type = resolved(data_type, self._shared)
            qualified = data_type.object_qualified_name or name
            if data_type.type in _OBJECTS and qualified not in _PROXIES and _CLASS_NAME.fullmatch(qualified):
                classes[qualified] = self.record_class(data_type)
        simple = Counter(cls.__name__ for cls in classes.values())
        named = {cls.__name__ if simple[cls.__name__] == 1 else qualified.replace(".", "_"): cls
                 for qualified, cls in classes.items()}
        return SimpleNamespace(**dict(sorted(named.items())))

    def record_class(self, data_type: AppFunctionDataTypeMetadata) -> type:
        """The dataclass of an object type: keyword-only fields, the required ones without a
        default, the others None by default (left out of what is sent)."""
        key = data_type.object_qualified_name or data_type.SerializeToString(deterministic=True)
        cls = self._classes.get(key)
        if cls is None:
            properties, required = object_properties(data_type, self._shared)
            attributes = {name: _attribute(name) for name in properties}
            fields = [(attributes[name], type_label(prop), dataclasses.field(kw_only=True))
                      if name in required else
                      (attributes[name], type_label(prop), dataclasses.field(default=None, kw_only=True))
                      for name, prop in properties.items()]
            qualified = data_type.object_qualified_name
            simple = qualified.rsplit(".", 1)[-1] if _CLASS_NAME.fullmatch(qualified) else "Object"
            cls = dataclasses.make_dataclass(simple, fields, namespace={
                "__doc__": f"{qualified or 'An object'}, generated from the app's metadata. {data_type.description}".strip(),
            })
            cls.__module__ = __name__
            self._classes[key] = cls
            self._layouts[cls] = _Layout(qualified, attributes)
        return cls

    # -- a test's values, to the JSON the shell would send -------------------------------------------
    def json_form(self, data_type: AppFunctionDataTypeMetadata, value: Any, path: str) -> Any:
        """``value`` as JSON for ``data_type``; a TypeError naming ``path`` and the forms accepted
        where a Python form is required (a date, bytes, a Uri, an object). Primitives pass as
        they are: parameters_from_json checks them as it checks the shell's."""
        if value is None:
            return None
        data_type = resolved(data_type, self._shared)
        proxy = _PROXIES.get(data_type.object_qualified_name)
        if proxy is not None:
            if not proxy.accepts(value):
                raise TypeError(proxy_form_error(proxy, value, path))
            try:
                return proxy.to_fields(value)
            except ValueError as error:
                raise TypeError(f"{path}: {error}") from None
        kind = data_type.type
        if kind == DataType.ARRAY and isinstance(value, (list, tuple)):
            return [self.json_form(data_type.item_type, item, f"{path}[{i}]") for i, item in enumerate(value)]
        if kind in _OBJECTS:
            return self._object_form(data_type, value, path)
        if kind == DataType.ONE_OF:
            return self._one_of_form(data_type, value, path)
        if kind == DataType.BYTES:
            if not isinstance(value, (bytes, bytearray, memoryview)):
                raise TypeError(f"{path} must be bytes; not {kind_of(value)}")
            return base64.b64encode(bytes(value)).decode("ascii")
        if kind == DataType.STRING and data_type.format == FORMAT_URI:
            if not isinstance(value, Uri):
                raise TypeError(f'{path} must be a Uri, for example Uri.parse("content://…"); not {kind_of(value)}')
            return str(value)
        if kind == DataType.PARCELABLE and isinstance(value, Parcelable):
            return to_json(proxies.parcelable_to_data(value))
        return value

    def _object_form(self, data_type: AppFunctionDataTypeMetadata, value: Any, path: str) -> dict[str, Any]:
        properties, required = object_properties(data_type, self._shared)
        layout = self._layouts.get(type(value))
        if layout is not None:  # a class generated here: its attributes, None for "left out"
            by_attribute = {attribute: name for name, attribute in layout.attributes.items()}
            fields = {by_attribute[f.name]: getattr(value, f.name) for f in dataclasses.fields(value)}
            fields = {name: item for name, item in fields.items() if item is not None or name in required}
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):  # SetField, a class of the test's own
            fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        elif isinstance(value, Mapping):
            fields = dict(value)
        else:
            raise TypeError(f"{path} must be a {self._forms(data_type)}; not {kind_of(value)}")
        form = {}
        for key, item in fields.items():
            name = _declared(key, properties)
            if name is None:
                raise TypeError(unknown_key(f"{path}.{key}", key, list(properties),
                                            f"a property of {data_type.object_qualified_name or 'the object'}"))
            form[name] = self.json_form(properties[name], item, f"{path}.{name}")
        return form

    def _forms(self, data_type: AppFunctionDataTypeMetadata) -> str:
        """An object type as the test writes it: ``Balance: Balance(amount=…, currency=…) or a
        dict with those keys``; ``SetField<String>: SetField(value) or a dict {"value": …}``."""
        qualified = data_type.object_qualified_name
        if qualified.startswith(f"{SET_FIELD}<"):
            return f'{short_type_name(qualified)}: SetField(value) or a dict {{"value": …}}'
        cls = self.record_class(data_type)
        names = ", ".join(f"{attribute}=…" for attribute in self._layouts[cls].attributes.values())
        if not _CLASS_NAME.fullmatch(qualified):  # a generic type of the app's own: no class of its name
            return f"{short_type_name(qualified)}: a dict with the keys {names.replace('=…', '')}"
        return f"{cls.__name__}: {cls.__name__}({names}) or a dict with those keys"

    def _one_of_form(self, data_type: AppFunctionDataTypeMetadata, value: Any, path: str) -> dict[str, Any]:
        """An instance of a case's generated class goes as that case; a dict as the shell's JSON
        goes, the first case it fits."""
        layout = self._layouts.get(type(value))
        for case in data_type.one_of:
            case = resolved(case, self._shared)
            if layout is not None and case.object_qualified_name == layout.qualified_name:
                return self._object_form(case, value, path)
        if isinstance(value, Mapping):
            return dict(value)
        cases = ", ".join(resolved(c, self._shared).object_qualified_name or "object" for c in data_type.one_of)
        raise TypeError(f"{path} must be one of {cases} (an instance of one of them, or a dict); not {kind_of(value)}")

    # -- what the app answered, as Python values ---------------------------------------------------
    def python_value(self, data_type: AppFunctionDataTypeMetadata, value: Any) -> Any:
        """A value of the response document as ``data_type``'s Python type."""
        if value is None:
            return None
        data_type = resolved(data_type, self._shared)
        kind = data_type.type
        if isinstance(value, AppFunctionData):
            qualified = value.qualified_name or data_type.object_qualified_name
            if qualified in _PROXIES:
                return _PROXIES[qualified].from_fields(dict(value))
            if kind == DataType.ONE_OF:
                case = next((c for c in (resolved(c, self._shared) for c in data_type.one_of)
                             if c.object_qualified_name == value.qualified_name), None)
                return to_json(value) if case is None else self._record(case, value)
            if kind in _OBJECTS:
                return self._record(data_type, value)
            if qualified == proxies.PENDING_INTENT_NAME:
                return proxies.pending_intent_from_data(value)
            return to_json(value)
        if kind == DataType.ARRAY and isinstance(value, list):
            return [self.python_value(data_type.item_type, item) for item in value]
        if kind == DataType.STRING and data_type.format == FORMAT_URI and isinstance(value, str):
            return Uri.parse(value)
        return value

    def _record(self, data_type: AppFunctionDataTypeMetadata, document: AppFunctionData) -> Any:
        cls = self.record_class(data_type)
        properties, _ = object_properties(data_type, self._shared)
        attributes = self._layouts[cls].attributes
        return cls(**{attributes[name]: self.python_value(prop, document.get(name)) for name, prop in properties.items()})


@dataclass(frozen=True)
class MetadataTyping:
    """How a function of an app known by its metadata takes a test's values and answers."""

    metadata: AppFunctionMetadata
    components: AppFunctionComponentsMetadata
    types: AppTypes

    @property
    def _signed(self) -> bool:
        """False for v1 XML without a signature: the shell then types values by their JSON."""
        return bool(self.metadata.parameters) or self.metadata.HasField("response")

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.metadata.parameters]

    def parameter_name(self, key: str) -> str | None:
        """The declared name ``key`` means: itself, or a Python spelling of it (``account_id``)."""
        if not self._signed:
            return key
        return _declared(key, {p.name: p for p in self.metadata.parameters})

    def parameters(self, values: dict[str, Any]) -> AppFunctionData:
        named = {name: self.json_value(name, value) for name, value in values.items()}
        return parameters_from_json(self.metadata, named, self.components)

    def json_value(self, name: str, value: Any) -> Any:
        parameter = next((p for p in self.metadata.parameters if p.name == name), None)
        if parameter is None:  # v1 XML: JSON's own types
            return value
        return self.types.json_form(parameter.data_type, value, name)

    def result(self, return_value: Any) -> Any:
        if not self.metadata.HasField("response"):
            return to_json(return_value)
        return self.types.python_value(self.metadata.response.value_type, return_value)


def _declared(key: str, names: Mapping[str, Any]) -> str | None:
    """The declared name among ``names`` that ``key`` spells: itself, its snake_case form, or a
    keyword with the trailing underscore a generated class gives it (``from_``)."""
    if key in names:
        return key
    return wire_name(key) if wire_name(key) in names else None


def _attribute(name: str) -> str:
    """A declared name as a Python attribute: as it is, a keyword with a trailing underscore."""
    if keyword.iskeyword(name):
        return f"{name}_"
    return name if name.isidentifier() else re.sub(r"\W|^(?=\d)", "_", name)
