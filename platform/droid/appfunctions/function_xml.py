"""The v2 function XML: a document model, its byte-stable writer and its proto form.

The element order is the androidx compiler's (CMP core/XmlUtils.kt, the goldens
under androidx-compiler-output/): for each ``<appfunction>`` ``id``,
``enabledByDefault``, ``description?``, ``parameters*``, ``response``,
``accessLevel?``/``isCompatEnforcementEnabled?``, ``schemaCategory?``,
``schemaName?``, ``schemaVersion?``, ``deprecation?``, ``droidsim:isDestructive?``
(droidsim's only addition, in its own namespace and written only when true) and
``functionId``; then one
``<AppFunctionComponentMetadataDocument>`` with the shared types sorted by name.
A sealed class is a ONE_OF definition referring to its cases; an unnamed
union ``A | B`` is a ONE_OF at its use site. A data type's children are ``allOf*``, ``oneOf*``, ``dataTypeReference?``, ``id``,
``isNullable``, ``itemType?``, ``objectQualifiedName?``, ``description?``,
``properties*``, ``required*``, ``enumValues*``, ``patterns*``, ``pattern?``,
``format?``, ``type``. Every nested document carries ``<id>unused</id>``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from droid.appfunctions import metadata as md
from droid.appfunctions.analysis import EntryPointSpec, FunctionSpec
from droid.appfunctions.metadata import ACCESS_LEVEL_XML, DROIDSIM_XML_NAMESPACE, FORMAT_URI, DataType
from droid.appfunctions.proxies import ProxySpec
from droid.appfunctions.typeref import Kind, ObjectSpec, OneOfSpec, PropertySpec, TypeSpec

UNUSED = "unused"
# A flat <pattern> is a regular expression, which PatternMatcher has no type for;
# the same value as the device's reader (sim.pm.function_xml) gives it.
PATTERN_TYPE_LEGACY_REGEX = -1
XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
INDENT = "    "


# --------------------------------------------------------------------------- model
@dataclass
class DataTypeMeta:
    type: int
    is_nullable: bool = False
    all_of: list["DataTypeMeta"] = field(default_factory=list)
    one_of: list["DataTypeMeta"] = field(default_factory=list)
    data_type_reference: str | None = None
    item_type: "DataTypeMeta | None" = None
    object_qualified_name: str | None = None
    description: str = ""
    properties: list["NamedDataTypeMeta"] = field(default_factory=list)
    required: list[str] = field(default_factory=list)
    enum_values: list[str] = field(default_factory=list)
    patterns: list[tuple[str, int]] = field(default_factory=list)
    pattern: str | None = None
    format: str | None = None


@dataclass
class NamedDataTypeMeta:
    name: str
    data_type: DataTypeMeta


@dataclass
class ParameterMeta:
    name: str
    is_required: bool
    data_type: DataTypeMeta
    description: str = ""


@dataclass
class FunctionMeta:
    id: str
    enabled_by_default: bool
    description: str
    parameters: list[ParameterMeta]
    value_type: DataTypeMeta
    response_description: str = ""
    access_level: int | None = None
    is_compat_enforcement_enabled: bool = False
    schema_category: str | None = None
    schema_name: str | None = None
    schema_version: int | None = None
    deprecation: str | None = None
    is_destructive: bool = False
    service_name: str = ""


@dataclass
class FunctionsDocument:
    functions: list[FunctionMeta]
    components: list[NamedDataTypeMeta]
    component_id: str = UNUSED


# --------------------------------------------------------------------------- specs → model
def build_document(
    entry_points: Sequence[EntryPointSpec], component_id: str | None = None
) -> FunctionsDocument:
    """The document for one or more entry points. ``component_id`` defaults to the
    service name for a single entry point (entry-point files) and ``unused``
    otherwise (aggregate files), as the androidx generators do."""
    functions = [function_meta(fn, ep.service_name) for ep in entry_points for fn in ep.functions]
    components: dict[str, NamedDataTypeMeta] = {}
    for ep in entry_points:
        for component in ep.components:
            named = component_meta(component)
            components.setdefault(named.name, named)
    if component_id is None:
        component_id = entry_points[0].service_name if len(entry_points) == 1 else UNUSED
    return FunctionsDocument(functions, [components[k] for k in sorted(components)], component_id)


def function_meta(fn: FunctionSpec, service_name: str = "") -> FunctionMeta:
    return FunctionMeta(
        id=fn.id,
        enabled_by_default=fn.enabled,
        description=fn.description,
        parameters=[
            ParameterMeta(p.wire_name, p.required, data_type_meta(p.type), p.description)
            for p in fn.parameters
        ],
        value_type=data_type_meta(fn.returns),
        response_description=fn.return_description,
        access_level=fn.access_level,
        is_compat_enforcement_enabled=fn.compat_enforcement,
        schema_category=fn.schema.category if fn.schema else None,
        schema_name=fn.schema.name if fn.schema else None,
        schema_version=fn.schema.version if fn.schema else None,
        deprecation=fn.deprecation,
        is_destructive=fn.destructive,
        service_name=service_name,
    )


def data_type_meta(spec: TypeSpec, description: str = "") -> DataTypeMeta:
    """The metadata of one use of a type (parameter, response, property, item)."""
    meta = DataTypeMeta(int(spec.type_code), spec.nullable, description=description)
    if spec.kind is Kind.LIST:
        assert spec.item is not None
        meta.item_type = data_type_meta(spec.item)
    elif spec.one_of is not None and not spec.one_of.qualified_name:
        meta.one_of = [_case_reference(case) for case in spec.one_of.cases]
    elif spec.kind in (Kind.OBJECT, Kind.ONE_OF, Kind.PROXY):
        meta.data_type_reference = spec.reference_name
    elif spec.kind is Kind.PARCELABLE:
        assert spec.parcelable is not None
        meta.object_qualified_name = spec.parcelable.QUALIFIED_NAME
    elif spec.kind is Kind.URI:
        meta.format = FORMAT_URI
        meta.pattern = scheme_pattern(spec.uri_schemes)
    constraint = spec.string_constraint
    if constraint is not None:
        meta.enum_values = list(constraint.enum_values)
        meta.patterns = [(m.pattern, m.type) for m in constraint.pattern_matchers]
        meta.pattern = constraint.pattern
        meta.format = constraint.format
    if spec.int_enum:
        meta.enum_values = [str(v) for v in spec.int_enum]
    return meta


def scheme_pattern(schemes: Sequence[str]) -> str | None:
    """The regular expression androidx writes for allowed Uri schemes (golden
    valid_uri_service.xml): Java-quoted, ``^\\Qcontent\\E:.*`` or
    ``^(\\Qcontent\\E|\\Qfile\\E):.*``; none when any scheme is allowed."""
    quoted = [f"\\Q{scheme}\\E" for scheme in schemes]
    if not quoted:
        return None
    return f"^{quoted[0]}:.*" if len(quoted) == 1 else f"^({'|'.join(quoted)}):.*"


def _object(name: str, properties: Iterable[PropertySpec], description: str = "") -> DataTypeMeta:
    props = list(properties)
    return DataTypeMeta(
        int(DataType.OBJECT),
        True,
        object_qualified_name=name,
        description=description,
        properties=[NamedDataTypeMeta(p.wire_name, data_type_meta(p.type, p.description)) for p in props],
        required=[p.wire_name for p in props if p.required],
    )


def _case_reference(case: ObjectSpec) -> DataTypeMeta:
    # Nullable: whether a value may be null is the use site's to say (androidx).
    return DataTypeMeta(int(DataType.REFERENCE), True, data_type_reference=case.qualified_name)


def component_meta(component: ObjectSpec | OneOfSpec | ProxySpec) -> NamedDataTypeMeta:
    """A shared type's definition: OBJECT, ALL_OF for a subclass or a class
    implementing capabilities, ONE_OF for a sealed class. Definitions are nullable;
    use sites say otherwise."""
    if isinstance(component, OneOfSpec):
        meta = DataTypeMeta(
            int(DataType.ONE_OF),
            True,
            one_of=[_case_reference(case) for case in component.cases],
            object_qualified_name=component.qualified_name,
            description=component.description,
        )
        return NamedDataTypeMeta(component.qualified_name, meta)
    if isinstance(component, ProxySpec):
        meta = DataTypeMeta(
            int(DataType.OBJECT),
            True,
            object_qualified_name=component.qualified_name,
            properties=[
                NamedDataTypeMeta(name, DataTypeMeta(int(code), False)) for name, code in component.fields
            ],
            required=[name for name, _ in component.fields],
        )
        return NamedDataTypeMeta(component.qualified_name, meta)
    obj = component
    if not obj.is_all_of:
        return NamedDataTypeMeta(obj.qualified_name, _object(obj.qualified_name, obj.properties, obj.description))
    all_of: list[DataTypeMeta] = []
    for parent in obj.parents:
        all_of.append(DataTypeMeta(int(DataType.REFERENCE), True, data_type_reference=parent.qualified_name))
    for capability in obj.capabilities:
        # The class's own description, as androidx writes it (golden oneOfFunctions…).
        all_of.append(_object(capability.qualified_name, capability.properties, obj.description))
    if obj.own_properties:
        all_of.append(_object(obj.qualified_name, obj.own_properties, obj.description))
    meta = DataTypeMeta(
        int(DataType.ALL_OF),
        True,
        all_of=all_of,
        object_qualified_name=obj.qualified_name,
        description=obj.description,
    )
    return NamedDataTypeMeta(obj.qualified_name, meta)


# --------------------------------------------------------------------------- model → XML
def render(document: FunctionsDocument) -> bytes:
    """The XML bytes: UTF-8, 4-space indent, ``\\n`` line ends, a final newline.
    Equal documents give equal bytes."""
    out = _Writer()
    out.line(XML_DECLARATION, 0)
    if not document.functions and not document.components:
        out.line("<appfunctions/>", 0)
        return out.bytes()
    out.open("appfunctions", 0)
    for fn in document.functions:
        _function(out, fn, 1)
    if document.components:
        out.open("AppFunctionComponentMetadataDocument", 1)
        for named in document.components:
            _named(out, "dataTypes", named, 2)
        out.leaf("id", document.component_id, 2)
        out.close("AppFunctionComponentMetadataDocument", 1)
    out.close("appfunctions", 0)
    return out.bytes()


def _function(out: "_Writer", fn: FunctionMeta, depth: int) -> None:
    out.open("appfunction", depth)
    d = depth + 1
    out.leaf("id", fn.id, d)
    out.leaf("enabledByDefault", fn.enabled_by_default, d)
    if fn.description:
        out.leaf("description", fn.description, d)
    for p in fn.parameters:
        out.open("parameters", d)
        _data_type(out, "dataTypeMetadata", p.data_type, d + 1)
        out.leaf("id", UNUSED, d + 1)
        out.leaf("isRequired", p.is_required, d + 1)
        out.leaf("name", p.name, d + 1)
        if p.description:
            out.leaf("description", p.description, d + 1)
        out.close("parameters", d)
    out.open("response", d)
    out.leaf("id", UNUSED, d + 1)
    _data_type(out, "valueType", fn.value_type, d + 1)
    if fn.response_description:
        out.leaf("description", fn.response_description, d + 1)
    out.close("response", d)
    if fn.access_level is not None:
        out.leaf("accessLevel", ACCESS_LEVEL_XML[fn.access_level], d)
        out.leaf("isCompatEnforcementEnabled", fn.is_compat_enforcement_enabled, d)
    if fn.schema_category is not None:
        out.leaf("schemaCategory", fn.schema_category, d)
        out.leaf("schemaName", fn.schema_name, d)
        out.leaf("schemaVersion", fn.schema_version, d)
    if fn.deprecation:
        out.open("deprecation", d)
        out.leaf("id", UNUSED, d + 1)
        out.leaf("message", fn.deprecation, d + 1)
        out.close("deprecation", d)
    if fn.is_destructive:
        out.line(
            f'<droidsim:isDestructive xmlns:droidsim="{DROIDSIM_XML_NAMESPACE}">true</droidsim:isDestructive>', d
        )
    out.leaf("functionId", fn.id, d)
    out.close("appfunction", depth)


def _named(out: "_Writer", tag: str, named: NamedDataTypeMeta, depth: int) -> None:
    out.open(tag, depth)
    _data_type(out, "dataTypeMetadata", named.data_type, depth + 1)
    out.leaf("id", UNUSED, depth + 1)
    out.leaf("name", named.name, depth + 1)
    out.close(tag, depth)


def _data_type(out: "_Writer", tag: str, meta: DataTypeMeta, depth: int) -> None:
    out.open(tag, depth)
    d = depth + 1
    for sub in meta.all_of:
        _data_type(out, "allOf", sub, d)
    for sub in meta.one_of:
        _data_type(out, "oneOf", sub, d)
    if meta.data_type_reference:
        out.leaf("dataTypeReference", meta.data_type_reference, d)
    out.leaf("id", UNUSED, d)
    out.leaf("isNullable", meta.is_nullable, d)
    if meta.item_type is not None:
        _data_type(out, "itemType", meta.item_type, d)
    if meta.object_qualified_name:
        out.leaf("objectQualifiedName", meta.object_qualified_name, d)
    if meta.description:
        out.leaf("description", meta.description, d)
    for prop in meta.properties:
        _named(out, "properties", prop, d)
    for name in meta.required:
        out.leaf("required", name, d)
    for value in meta.enum_values:
        out.leaf("enumValues", value, d)
    for value, kind in meta.patterns:
        out.open("patterns", d)
        out.leaf("id", UNUSED, d + 1)
        out.leaf("value", value, d + 1)
        out.leaf("type", kind, d + 1)
        out.close("patterns", d)
    if meta.pattern is not None:
        out.leaf("pattern", meta.pattern, d)
    if meta.format is not None:
        out.leaf("format", meta.format, d)
    out.leaf("type", meta.type, d)
    out.close(tag, depth)


class _Writer:
    def __init__(self) -> None:
        self._lines: list[str] = []

    def line(self, text: str, depth: int) -> None:
        self._lines.append(INDENT * depth + text)

    def open(self, tag: str, depth: int) -> None:
        self.line(f"<{tag}>", depth)

    def close(self, tag: str, depth: int) -> None:
        self.line(f"</{tag}>", depth)

    def leaf(self, tag: str, value: object, depth: int) -> None:
        if isinstance(value, bool):
            text = "true" if value else "false"
        else:
            text = _escape(str(value))
        self.line(f"<{tag}>{text}</{tag}>", depth)

    def bytes(self) -> bytes:
        return ("\n".join(self._lines) + "\n").encode("utf-8")


def _escape(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    # Keep line ends stable and visible: \r would be normalised away by parsers.
    return text.replace("\r\n", "\n").replace("\r", "&#13;")


# --------------------------------------------------------------------------- model → proto
def to_proto(
    document: FunctionsDocument, package_name: str = ""
) -> tuple[list[md.AppFunctionMetadata], md.AppFunctionComponentsMetadata]:
    """The platform's metadata messages for ``document``, as the device indexes
    them. A flat ``pattern`` (a regular expression) becomes one pattern of type
    ``PATTERN_TYPE_LEGACY_REGEX``, as the device's XML reader does."""
    functions = []
    for fn in document.functions:
        message = md.AppFunctionMetadata(
            id=fn.id,
            package_name=package_name,
            enabled_by_default=fn.enabled_by_default,
            is_enabled=fn.enabled_by_default,
            description=fn.description,
            parameters=[
                md.AppFunctionParameterMetadata(
                    name=p.name,
                    is_required=p.is_required,
                    data_type=data_type_proto(p.data_type),
                    description=p.description,
                )
                for p in fn.parameters
            ],
            response=md.AppFunctionResponseMetadata(
                value_type=data_type_proto(fn.value_type), description=fn.response_description
            ),
            access_level=fn.access_level or md.ACCESS_LEVEL_ANDROID_TRUSTED,
            is_compat_enforcement_enabled=fn.is_compat_enforcement_enabled,
            service_name=fn.service_name,
        )
        if fn.schema_name is not None:
            message.schema.CopyFrom(
                md.AppFunctionSchemaMetadata(
                    category=fn.schema_category or "", name=fn.schema_name, version=fn.schema_version or 0
                )
            )
        if fn.deprecation:
            message.deprecation.CopyFrom(md.AppFunctionDeprecationMetadata(message=fn.deprecation))
        message.is_destructive = fn.is_destructive
        functions.append(message)
    components = md.AppFunctionComponentsMetadata(
        data_types=[
            md.AppFunctionNamedDataTypeMetadata(name=c.name, data_type=data_type_proto(c.data_type))
            for c in document.components
        ]
    )
    return functions, components


def data_type_proto(meta: DataTypeMeta) -> md.AppFunctionDataTypeMetadata:
    message = md.AppFunctionDataTypeMetadata(
        type=meta.type,
        is_nullable=meta.is_nullable,
        properties=[
            md.AppFunctionNamedDataTypeMetadata(name=p.name, data_type=data_type_proto(p.data_type))
            for p in meta.properties
        ],
        required=meta.required,
        all_of=[data_type_proto(m) for m in meta.all_of],
        one_of=[data_type_proto(m) for m in meta.one_of],
        data_type_reference=meta.data_type_reference or "",
        object_qualified_name=meta.object_qualified_name or "",
        description=meta.description,
        enum_values=meta.enum_values,
        patterns=[md.AppFunctionStringPattern(value=v, type=t) for v, t in meta.patterns]
        + (
            [md.AppFunctionStringPattern(value=meta.pattern, type=PATTERN_TYPE_LEGACY_REGEX)]
            if meta.pattern is not None
            else []
        ),
        format=meta.format or "",
    )
    if meta.item_type is not None:
        message.item_type.CopyFrom(data_type_proto(meta.item_type))
    return message
