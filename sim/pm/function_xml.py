"""Reads an app's function XML (v1 or v2) into the platform's AppFunction metadata.

This is the device's AppSearch indexer: the file is validated against ``schemas/`` first, so the
mapping below can trust the shape and types of every element it reads; what XSD 1.0 cannot say
(co-occurrence rules, repeated single-valued properties under a lax wildcard) is checked here.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Literal

from lxml import etree

from droid.appfunctions.metadata import (
    ACCESS_LEVEL_ANDROID_TRUSTED,
    ACCESS_LEVEL_XML,
    DROIDSIM_XML_NAMESPACE,
    IS_DESTRUCTIVE_TAG,
    SCOPE_ACTIVITY,
    SCOPE_GLOBAL,
    AppFunctionComponentsMetadata,
    AppFunctionDataTypeMetadata,
    AppFunctionDeprecationMetadata,
    AppFunctionMetadata,
    AppFunctionNamedDataTypeMetadata,
    AppFunctionParameterMetadata,
    AppFunctionResponseMetadata,
    AppFunctionSchemaMetadata,
    AppFunctionStringPattern,
    DataType,
)
from sim.pm.index_notes import SKIPPED, IndexNote
from sim.pm.schemas import validate
from sim.xmlsafe import XmlError, parse_xml

log = logging.getLogger("droidsim.pm")

Format = Literal["v1", "v2"]

# AppsIndexerConfig.DEFAULT_MAX_APP_FUNCTIONS_PER_PACKAGE (250 since AppSearch ddc2a0f0, 500
# before): the parser stops reading a file once it holds that many documents.
MAX_DOCUMENTS_PER_FILE = 250

# Older compilers wrote one flat <pattern> holding a regular expression (androidx golden
# valid_uri_service.xml); PatternMatcher has no type for that, so it gets its own value.
PATTERN_TYPE_LEGACY_REGEX = -1

_ACCESS_LEVELS = {xml: level for level, xml in ACCESS_LEVEL_XML.items()}
_SCOPES = {"global": SCOPE_GLOBAL, "0": SCOPE_GLOBAL, "activity": SCOPE_ACTIVITY, "1": SCOPE_ACTIVITY}

# The (v2 tag, v1 tag) of each field both formats share. v2 files also accept the v1 spelling,
# as the CTS v2 assets use it (enabled_by_default, function_id).
_ENABLED_BY_DEFAULT = ("enabledByDefault", "enabled_by_default")
_RESTRICT_CALLERS = ("restrictCallersWithExecuteAppFunctions", "restrict_callers_with_execute_app_functions")
_DISPLAY_NAME_RES = ("displayNameStringRes", "display_name_string_res")
_SCHEMA_CATEGORY = ("schemaCategory", "schema_category")
_SCHEMA_NAME = ("schemaName", "schema_name")
_SCHEMA_VERSION = ("schemaVersion", "schema_version")
_STATIC_FIELDS = (
    _ENABLED_BY_DEFAULT, _RESTRICT_CALLERS, _DISPLAY_NAME_RES, _SCHEMA_CATEGORY, _SCHEMA_NAME, _SCHEMA_VERSION,
)
# Everything a v1 file may say; the CTS v1 assets also carry an <id>.
_V1_VOCABULARY = frozenset({"function_id", "id"} | {v1 for _, v1 in _STATIC_FIELDS})

STATIC_METADATA = "AppFunctionStaticMetadata"
# The platform's own AppFunctionStaticMetadata (AppSearch AppFunctionStaticMetadata
# .createAppFunctionSchemaForPackage, branch 17, with the serviceName, scope and packageNameHash
# of dynamic app functions): all a v2 file read without an app schema keeps.
PLATFORM_DOCUMENT_TYPES: Mapping[str, Mapping[str, str | None]] = MappingProxyType({STATIC_METADATA: MappingProxyType(dict.fromkeys((
    "functionId", "packageName", "schemaName", "schemaVersion", "schemaCategory", "enabledByDefault",
    "restrictCallersWithExecuteAppFunctions", "displayNameStringRes", "mobileApplicationQualifiedId",
    "serviceName", "scope", "packageNameHash",
)))})

# An element the app schema does not declare: the fix for a Python app (droidsim writes both files), and
# for a Kotlin one, whose schema comes from the AppFunctions library's AAR and whose XML from its KSP
# compiler: an element the schema lacks means the two are of different versions.
UNDECLARED_FIX = "Declare it in the app schema, or remove it."
UNDECLARED_FIX_KOTLIN = ("Give the AppFunctions artifacts one version: the app schema (assets/app_functions_schema.xsd) "
                         "comes from the library's AAR (androidx.appfunctions:appfunctions, and appfunctions-service "
                         "before 1.0.0-alpha10), the function XML from its KSP compiler "
                         "(androidx.appfunctions:appfunctions-compiler); a schema older than the compiler lacks what it writes.")


@dataclass(frozen=True)
class Reading:
    """How one SDK's AppSearch indexer reads a v2 file.

    ``document_types``: the app schema's document types (name -> property -> the document type a
    nested property holds, None for a value), or None without an app schema: then the platform's
    bare AppFunctionStaticMetadata. An element those do not declare is skipped with its subtree
    (``skips_undeclared``, Android 17) or makes the parser throw, so the file indexes nothing
    (Android 16 QPR1/QPR2); a top-level document of an undeclared type is skipped on both.
    ``enabled_when_omitted``: the enabled state of an <appfunction> without <enabledByDefault>.
    ``function_id_is_id``: <functionId> (v1's <function_id>) sets the document id, as <id> does
    (AppSearch 17, AppFunctionDocumentParserImpl.java:364-374 @4a8ffaab, with app-level functions
    on); on Android 16 only <id> does, and a document without one throws "No id found"."""

    document_types: Mapping[str, Mapping[str, str | None]] | None
    skips_undeclared: bool = True
    enabled_when_omitted: bool = True
    function_id_is_id: bool = True


@dataclass(frozen=True)
class CustomDocument:
    """A v2 document the platform schema does not know: a custom top-level component or a
    document nested in one. Property values are text, or nested documents."""

    tag: str
    id: str
    properties: Mapping[str, tuple[str | CustomDocument, ...]]
    line: int


@dataclass(frozen=True)
class FunctionDocument:
    """One function XML file, as indexed for one service of one package."""

    file: str
    format: Format
    functions: list[AppFunctionMetadata]
    components: AppFunctionComponentsMetadata
    custom_documents: tuple[CustomDocument, ...]
    # Functions the file declares past MAX_DOCUMENTS_PER_FILE: Android does not index them.
    unindexed_ids: frozenset[str] = frozenset()
    # What the indexer left out of the file as written (a Reading's skipped elements).
    notes: tuple[IndexNote, ...] = ()


def detect_format(root: etree._Element) -> Format:
    """v1 when the file uses only v1 vocabulary (every <appfunction> has a <function_id>, and
    nothing but <appfunction> at the top); otherwise v2. An empty file counts as v2."""
    functions = root.findall("appfunction")
    legacy = bool(functions) and len(functions) == len(root) and all(
        f.find("function_id") is not None and all(child.tag in _V1_VOCABULARY for child in f)
        for f in functions
    )
    return "v1" if legacy else "v2"


def parse_function_xml(
    path: Path, package_name: str, service_name: str, *, format: Format | None = None, reading: Reading | None = None,
) -> FunctionDocument:
    """Validate and read the function XML at ``path``; raise :class:`XmlError` if it is refused.

    ``format`` comes from the manifest property that named the file (android.app.appfunctions.v2
    or android.app.appfunctions); without it the format is detected from the content. ``reading``:
    a v2 file read as a device's indexer reads it; without it, every element droidsim's schema
    knows is read.
    """
    root = parse_xml(path, what="function XML")
    fmt = format or detect_format(root)
    notes: list[IndexNote] = []
    enabled_when_omitted = True
    if fmt == "v2":
        _camel_case_property_tags(root)
        _ids_from_function_id(root, reading is None or reading.function_id_is_id)
        if reading is not None:
            notes = _drop_undeclared(root, reading, path)
            enabled_when_omitted = reading.enabled_when_omitted
    validate(root, "app_functions" if fmt == "v2" else "app_functions_v1", path)
    components = AppFunctionComponentsMetadata()
    functions: list[AppFunctionMetadata] = []
    custom: list[CustomDocument] = []
    documents = [c for c in root if c.tag == "appfunction" or fmt == "v2"]
    if len(documents) > MAX_DOCUMENTS_PER_FILE:
        skipped = documents[MAX_DOCUMENTS_PER_FILE]
        log.warning("%s: only the first %d documents are indexed, as on Android; the rest, from line %d, are not",
                    path, MAX_DOCUMENTS_PER_FILE, skipped.sourceline or 1)
    for child in documents[:MAX_DOCUMENTS_PER_FILE]:
        if child.tag == "appfunction":
            function = _function_v2(child, enabled_when_omitted) if fmt == "v2" else _function_v1(child)
            if not function.enabled_by_default and not enabled_when_omitted and _omits_enabled_by_default(child):
                notes.append(IndexNote(str(path), child.sourceline or 1, f"{function.id} has no <enabledByDefault>: "
                                       "Android 16 indexes it disabled (ERROR_DISABLED until set-enabled).",
                                       "Write <enabledByDefault>true</enabledByDefault>."))
            function.package_name = package_name
            function.service_name = service_name
            functions.append(function)
        elif child.tag == "AppFunctionComponentMetadataDocument":
            components.data_types.extend(_named_data_type(named) for named in child.findall("dataTypes"))
        else:
            custom.append(_custom_document(child))
    unindexed = frozenset(_token(i) for c in documents[MAX_DOCUMENTS_PER_FILE:] if c.tag == "appfunction"
                          for i in c.findall("id" if fmt == "v2" else "function_id"))
    return FunctionDocument(str(path), fmt, functions, components, tuple(custom), unindexed, tuple(notes))


def _drop_undeclared(root: etree._Element, reading: Reading, path: Path) -> list[IndexNote]:
    """Remove what ``reading``'s indexer does not read (AppFunctionDocumentParserImpl
    .buildGenericDocumentFromXmlElement); notes for what the app schema leaves out. droidsim's own
    namespaced properties stay (docs/differences.md, destructive functions)."""
    types = reading.document_types or PLATFORM_DOCUMENT_TYPES
    notes: list[IndexNote] = []

    def note(element: etree._Element, message: str) -> None:
        if reading.document_types is not None:  # without an app schema one note says it all
            notes.append(IndexNote(str(path), element.sourceline or 1, message,
                                   UNDECLARED_FIX, SKIPPED))

    def properties(document: etree._Element, type_name: str) -> None:
        declared = types[type_name]
        for child in document.iterchildren(etree.Element):
            if child.tag == "id" or etree.QName(child).namespace == DROIDSIM_XML_NAMESPACE:
                continue
            if child.tag not in declared:
                if not reading.skips_undeclared:
                    raise XmlError.at(child, f"<{child.tag}> is not a property of {type_name} in the app schema: "
                                             "Android 16's indexer throws on it, so none of this file's functions are "
                                             "indexed (Android 17 skips it)")
                note(child, f"<{child.tag}> is not a property of {type_name} in the app schema: Android 17 skips it.")
                document.remove(child)
            elif declared[child.tag] is not None:
                properties(child, declared[child.tag])

    for document in list(root.iterchildren(etree.Element)):
        type_name = STATIC_METADATA if document.tag == "appfunction" else document.tag
        if type_name in types:
            properties(document, type_name)
        else:
            note(document, f"<{document.tag}> is no document type of the app schema: it is not indexed.")
            root.remove(document)
    return notes


def _ids_from_function_id(root: etree._Element, function_id_is_id: bool) -> None:
    """An <appfunction> whose id is in <functionId> only: Android 17 takes it as the document id
    (an <id> is added, so the rest reads one id); Android 16's parser throws, so the file indexes
    nothing, and the install says so."""
    for function in root.iterchildren("appfunction"):
        if function.find("id") is not None or (named := function.find("functionId")) is None:
            continue
        if not function_id_is_id:
            raise XmlError.at(function, f"<appfunction> has <functionId>{_token(named)}</functionId> but no <id>: "
                                        "Android 16's indexer takes only <id> as the id and throws (\"No id found for "
                                        "document of type: AppFunctionStaticMetadata\"), so none of this file's "
                                        "functions are indexed (Android 17 takes <functionId> as the id). Write "
                                        f"<id>{_token(named)}</id> (the AppFunctions compiler, KSP or droidsim "
                                        "appfunctions generate, writes it)")
        document_id = etree.Element("id")
        document_id.text = named.text
        function.insert(0, document_id)


def _omits_enabled_by_default(element: etree._Element) -> bool:
    return all(element.find(tag) is None for tag in _ENABLED_BY_DEFAULT)


def _camel_case_property_tags(root: etree._Element) -> None:
    """AppSearch reads every property tag of a v2 document through toLowerCamelCase
    (AppFunctionDocumentParserImpl), so <access_level> is accessLevel and <is_required>
    isRequired; the documents' own tags are read as written."""
    for document in root:
        for element in document.iterdescendants():
            if "_" in element.tag and not element.tag.startswith("{"):
                element.tag = to_lower_camel_case(element.tag)


def to_lower_camel_case(tag: str) -> str:
    """AppFunctionDocumentParserImpl.toLowerCamelCase with "_": each run of separators drops
    and upper-cases the next character; every other character is lower-cased."""
    words = [w for w in tag.split("_") if w]
    if not words:
        return ""
    head = words[0].lower() if tag[0] != "_" else words[0][0].upper() + words[0][1:].lower()
    return head + "".join(w[0].upper() + w[1:].lower() for w in words[1:])


def _function_v1(element: etree._Element) -> AppFunctionMetadata:
    function = AppFunctionMetadata(id=_token(_single(element, "function_id")))
    _static_fields(function, element, spellings=slice(1, 2))
    return function


def _function_v2(element: etree._Element, enabled_when_omitted: bool = True) -> AppFunctionMetadata:
    function = AppFunctionMetadata(id=_token(_single(element, "id")))
    for alias in ("functionId", "function_id"):
        other = _single(element, alias)
        if other is not None and _token(other) != function.id:
            raise XmlError.at(other, f"<{alias}> {_token(other)!r} differs from the function's <id> {function.id!r}")
    _static_fields(function, element, spellings=slice(0, 2), enabled_when_omitted=enabled_when_omitted)
    if (scope := _single(element, "scope")) is not None:
        function.scope = _SCOPES[_token(scope)]
    if (description := _single(element, "description")) is not None:
        function.description = _text(description)
    function.parameters.extend(_parameter(p) for p in element.findall("parameters"))
    if (response := _single(element, "response")) is not None:
        # A response-level <isNullable> (an old dialect property) is not modelled: nullability
        # is carried by <valueType>, where the compiler writes it.
        function.response.CopyFrom(
            AppFunctionResponseMetadata(
                value_type=_data_type(_single(response, "valueType")),
                description=_optional_text(response, "description"),
            )
        )
    if (deprecation := _single(element, "deprecation")) is not None:
        function.deprecation.CopyFrom(
            AppFunctionDeprecationMetadata(message=_text(_single(deprecation, "message")))
        )
    if (access_level := _single(element, "accessLevel")) is not None:
        function.access_level = _ACCESS_LEVELS[_token(access_level)]
    if (compat := _single(element, "isCompatEnforcementEnabled")) is not None:
        function.is_compat_enforcement_enabled = _bool(compat)
    # droidsim's own property, namespaced (schemas/droidsim_appfunctions.xsd); a plain
    # <isDestructive> is no property of the platform's and is skipped, as AppSearch does.
    if (destructive := _single(element, IS_DESTRUCTIVE_TAG)) is not None:
        function.is_destructive = _token(destructive) in ("true", "1")  # an xs:boolean (droidsim's XSD)
    return function


def _static_fields(
    function: AppFunctionMetadata, element: etree._Element, spellings: slice, enabled_when_omitted: bool = True,
) -> None:
    """The fields and defaults both formats share; ``spellings`` picks which of the (v2, v1) tags
    to read."""

    def first(tags: tuple[str, str]) -> etree._Element | None:
        for tag in tags[spellings]:
            if (found := _single(element, tag)) is not None:
                return found
        return None

    enabled = first(_ENABLED_BY_DEFAULT)
    function.enabled_by_default = enabled_when_omitted if enabled is None else _bool(enabled)
    function.access_level = ACCESS_LEVEL_ANDROID_TRUSTED
    if (restrict := first(_RESTRICT_CALLERS)) is not None:
        function.restrict_callers_with_execute_app_functions = _bool(restrict)
    if (res := first(_DISPLAY_NAME_RES)) is not None:
        function.display_name_string_res = int(_token(res))
    category, name, version = first(_SCHEMA_CATEGORY), first(_SCHEMA_NAME), first(_SCHEMA_VERSION)
    if category is not None or name is not None or version is not None:
        function.schema.CopyFrom(
            AppFunctionSchemaMetadata(
                category="" if category is None else _text(category),
                name="" if name is None else _text(name),
                version=0 if version is None else int(_token(version)),
            )
        )


def _parameter(element: etree._Element) -> AppFunctionParameterMetadata:
    required = _single(element, "isRequired")
    return AppFunctionParameterMetadata(
        name=_token(_single(element, "name")),
        is_required=required is not None and _bool(required),
        data_type=_data_type(_single(element, "dataTypeMetadata")),
        description=_optional_text(element, "description"),
    )


def _named_data_type(element: etree._Element) -> AppFunctionNamedDataTypeMetadata:
    return AppFunctionNamedDataTypeMetadata(
        name=_token(_single(element, "name")),
        data_type=_data_type(_single(element, "dataTypeMetadata")),
    )


def _data_type(element: etree._Element) -> AppFunctionDataTypeMetadata:
    """The recursive data-type element; the schema has fixed its children and their order."""
    data_type = AppFunctionDataTypeMetadata()
    for child in element:
        match child.tag:
            case "allOf":
                data_type.all_of.append(_data_type(child))
            case "oneOf":
                data_type.one_of.append(_data_type(child))
            case "dataTypeReference":
                data_type.data_type_reference = _token(child)
            case "isNullable":
                data_type.is_nullable = _bool(child)
            case "itemType":
                data_type.item_type.CopyFrom(_data_type(child))
            case "objectQualifiedName":
                data_type.object_qualified_name = _token(child)
            case "description":
                data_type.description = _text(child)
            case "properties":
                data_type.properties.append(_named_data_type(child))
            case "required":
                data_type.required.append(_token(child))
            case "enumValues":
                data_type.enum_values.append(_text(child))
            case "pattern":
                data_type.patterns.append(AppFunctionStringPattern(value=_text(child), type=PATTERN_TYPE_LEGACY_REGEX))
            case "patterns":
                data_type.patterns.append(
                    AppFunctionStringPattern(
                        value=_text(_single(child, "value")), type=int(_token(_single(child, "type")))
                    )
                )
            case "format":
                data_type.format = _text(child)
            case "type":
                data_type.type = int(_token(child))
    _check_data_type(data_type, element)
    return data_type


def _check_data_type(data_type: AppFunctionDataTypeMetadata, element: etree._Element) -> None:
    if data_type.type == DataType.REFERENCE and not data_type.data_type_reference:
        raise XmlError.at(element, f"<{element.tag}> of type REFERENCE (11) has no <dataTypeReference>")
    if data_type.type == DataType.ARRAY and not data_type.HasField("item_type"):
        raise XmlError.at(element, f"<{element.tag}> of type ARRAY (10) has no <itemType>")
    if data_type.type == DataType.OBJECT:
        declared = {p.name for p in data_type.properties}
        if undeclared := [name for name in data_type.required if name not in declared]:
            raise XmlError.at(element, f"<required> names {undeclared[0]!r}, which is not one of its <properties>")


def _custom_document(element: etree._Element) -> CustomDocument:
    properties: dict[str, list[str | CustomDocument]] = {}
    for child in element:
        if child.tag != "id":
            value = _custom_document(child) if len(child) else _text(child)
            properties.setdefault(child.tag, []).append(value)
    doc_id = _single(element, "id")
    return CustomDocument(
        tag=element.tag,
        id="" if doc_id is None else _token(doc_id),
        properties=MappingProxyType({tag: tuple(values) for tag, values in properties.items()}),
        line=element.sourceline or 1,
    )


def _single(parent: etree._Element, tag: str) -> etree._Element | None:
    """The one child ``tag`` of ``parent``, or None; a second one is an error."""
    found = parent.findall(tag)
    if len(found) > 1:
        raise XmlError.at(found[1], f"<{parent.tag}> has more than one <{tag}>")
    return found[0] if found else None


def _text(element: etree._Element) -> str:
    return element.text or ""


def _optional_text(parent: etree._Element, tag: str) -> str:
    element = _single(parent, tag)
    return "" if element is None else _text(element)


def _token(element: etree._Element) -> str:
    """Text with the whitespace XSD's token types collapse (ids, names, numbers, booleans)."""
    return " ".join(_text(element).split())


def _bool(element: etree._Element) -> bool:
    """The trimmed text, as AppSearch reads it (AppFunctionDocumentParserImpl.addPrimitiveProperty)."""
    return parse_boolean(_java_trim(_text(element)))


def parse_boolean(text: str) -> bool:
    """Boolean.parseBoolean: "true" in any case is true, anything else ("1", "yes") false."""
    return text.lower() == "true"


def _java_trim(text: str) -> str:
    """String.trim(): every character up to U+0020 goes from both ends, nothing else."""
    return text.strip("".join(map(chr, range(0x21))))
