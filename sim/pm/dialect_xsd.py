"""Reads an app's ``app_functions_schema.xsd``: AppSearch's XSD dialect, not W3C XSD.

The file (manifest property ``android.app.appfunctions.schema``) declares the AppSearch document
types a v2 function XML may contain: ``<xs:documentType name>`` blocks of ``<xs:element name type
cardinality indexingType tokenizerType joinableValueType shouldIndexNestedProperties>``, another
type being referenced as ``appfn:<Type>``. The rules are AOSP's ``AppFunctionSchemaParser``
(spec/platform-android.md section 3); the set is rejected as a whole on the first violation.
Every dialect file seen (CTS, and all three AndroidX generations) declares
``AppFunctionStaticMetadata``, the parent of every function document, so it is always required.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path

from lxml import etree

from sim.pm.function_xml import CustomDocument, FunctionDocument, parse_boolean
from sim.xmlsafe import XmlError, parse_xml

XS_NS = "http://www.w3.org/2001/XMLSchema"
DOCUMENT_TYPE_PREFIX = "appfn:"
STATIC_METADATA = "AppFunctionStaticMetadata"

# AppsIndexerConfig.DEFAULT_MAX_ALLOWED_APP_FUNCTION_SCHEMAS_PER_PACKAGE: one more and the
# schema parser throws, so the app's whole schema is dropped.
MAX_DOCUMENT_TYPES = 20
_SCALAR_TYPES = {"xs:string": "string", "xs:long": "long", "xs:int": "long", "xs:boolean": "boolean"}
_PROPERTY_NAME = re.compile(r"[A-Za-z0-9]+")
_LONG = re.compile(r"[+-]?[0-9]+")


class Cardinality(IntEnum):
    """AppSearch PropertyConfig cardinality."""

    REPEATED = 1
    OPTIONAL = 2
    REQUIRED = 3


@dataclass(frozen=True)
class PropertyConfig:
    """One ``<xs:element>``: an AppSearch PropertyConfig, with AppSearch's defaults."""

    name: str
    kind: str  # "string", "long", "boolean" or "document"
    document_type: str | None  # the referenced type, for kind "document"
    cardinality: Cardinality = Cardinality.OPTIONAL
    indexing_type: int = 0
    tokenizer_type: int = 0
    joinable_value_type: int = 0
    should_index_nested_properties: bool = False


@dataclass(frozen=True)
class DocumentType:
    """One ``<xs:documentType>``: an AppSearch schema type (``<name>-<package>`` on the device)."""

    name: str
    properties: tuple[PropertyConfig, ...]

    def property(self, name: str) -> PropertyConfig | None:
        return next((p for p in self.properties if p.name == name), None)


def parse_dialect_xsd(path: Path) -> dict[str, DocumentType]:
    """The document types of the dialect XSD at ``path``, by name in file order."""
    root = parse_xml(path, what="schema XSD")
    if root.tag != f"{{{XS_NS}}}schema":
        raise XmlError.at(root, f"root element is <{root.tag}>, expected <xs:schema>")
    types: dict[str, DocumentType] = {}
    references: list[tuple[etree._Element, str]] = []
    for element in root:
        _expect(element, "documentType", "<xs:schema>")
        if len(types) >= MAX_DOCUMENT_TYPES:
            raise XmlError.at(element, f"more than {MAX_DOCUMENT_TYPES} document types: Android's indexer "
                                       f"(\"Exceeded max allowed document types\") would drop the whole schema")
        name = _required(element, "name")
        if name in types:
            raise XmlError.at(element, f"document type {name} is declared twice")
        properties: dict[str, PropertyConfig] = {}
        for child in element:
            _expect(child, "element", f"document type {name}")
            config = _property(child)
            if config.name in properties:
                raise XmlError.at(child, f"property {config.name} is declared twice in document type {name}")
            if config.document_type is not None:
                references.append((child, config.document_type))
            properties[config.name] = config
        types[name] = DocumentType(name, tuple(properties.values()))
    for element, referenced in references:
        if referenced not in types:
            raise XmlError.at(element, f"type appfn:{referenced} is not declared by any xs:documentType")
    if STATIC_METADATA not in types:
        raise XmlError.at(root, f"the schema declares no {STATIC_METADATA} document type")
    return types


def _expect(element: etree._Element, local_name: str, where: str) -> None:
    if element.tag != f"{{{XS_NS}}}{local_name}":
        raise XmlError.at(element, f"unexpected <{element.tag}> in {where}; expected <xs:{local_name}>")


def _required(element: etree._Element, attribute: str) -> str:
    value = (element.get(attribute) or "").strip()
    if not value:
        raise XmlError.at(element, f"<xs:{etree.QName(element).localname}> has no {attribute} attribute")
    return value


def _property(element: etree._Element) -> PropertyConfig:
    name = _required(element, "name")
    if not _PROPERTY_NAME.fullmatch(name):
        raise XmlError.at(element, f"property name {name!r} must be ASCII letters and digits only")
    type_name = _required(element, "type")
    if type_name.startswith(DOCUMENT_TYPE_PREFIX) and len(type_name) > len(DOCUMENT_TYPE_PREFIX):
        kind, document_type = "document", type_name.removeprefix(DOCUMENT_TYPE_PREFIX)
    elif type_name in _SCALAR_TYPES:
        kind, document_type = _SCALAR_TYPES[type_name], None
    else:
        raise XmlError.at(element, f"property {name} has unsupported type {type_name!r}")
    cardinality = _int(element, "cardinality", Cardinality.OPTIONAL)
    if cardinality not in tuple(Cardinality):
        raise XmlError.at(element, f"property {name} has cardinality {cardinality}; expected 1, 2 or 3")
    return PropertyConfig(
        name=name,
        kind=kind,
        document_type=document_type,
        cardinality=Cardinality(cardinality),
        indexing_type=_int(element, "indexingType", 0),
        tokenizer_type=_int(element, "tokenizerType", 0),
        joinable_value_type=_int(element, "joinableValueType", 0),
        # Boolean.parseBoolean of the attribute as it is (AppFunctionSchemaParser): " true" is false.
        should_index_nested_properties=parse_boolean(element.get("shouldIndexNestedProperties") or "false"),
    )


def _int(element: etree._Element, attribute: str, default: int) -> int:
    value = element.get(attribute)
    if value is None:
        return default
    if not _LONG.fullmatch(value.strip()):
        raise XmlError.at(element, f"{attribute} must be an integer, not {value!r}")
    return int(value)


# AppFunctionSchemaParser (branch 17) gives the app's AppFunctionStaticMetadata these too, where
# dynamic app functions are on (Android 17).
DYNAMIC_STATIC_METADATA_PROPERTIES = ("serviceName", "scope", "packageNameHash")


def property_types(types: Mapping[str, DocumentType], *, dynamic_app_functions: bool) -> dict[str, dict[str, str | None]]:
    """What the indexer reads of each type: property name -> the document type it nests, or
    None for a value (function_xml.Reading)."""
    read = {name: {p.name: p.document_type for p in doc_type.properties} for name, doc_type in types.items()}
    if dynamic_app_functions:
        for name in DYNAMIC_STATIC_METADATA_PROPERTIES:
            read[STATIC_METADATA].setdefault(name, None)
    return read


def check_custom_documents(document: FunctionDocument, types: Mapping[str, DocumentType]) -> None:
    """Check the values of a v2 file's custom top-level documents against the app's document
    types (cardinality, value types, nested types). What the types do not declare is gone already:
    the indexer's Reading skipped it, or refused the file (sim/pm/function_xml.py)."""
    for custom in document.custom_documents:
        _check_document(document.file, custom, types[custom.tag], types)


def _check_document(
    file: str, document: CustomDocument, doc_type: DocumentType, types: Mapping[str, DocumentType]
) -> None:
    def refuse(reason: str) -> XmlError:
        return XmlError(file, document.line, f"<{document.tag}> ({doc_type.name}): {reason}")

    for name, values in document.properties.items():
        config = doc_type.property(name)
        if config.cardinality != Cardinality.REPEATED and len(values) > 1:
            raise refuse(f"property <{name}> is not repeated but appears {len(values)} times")
        for value in values:
            if config.kind == "document":
                if not isinstance(value, CustomDocument):
                    raise refuse(f"property <{name}> must be a nested {config.document_type} document")
                _check_document(file, value, types[config.document_type], types)
            elif isinstance(value, CustomDocument):
                raise refuse(f"property <{name}> must be a {config.kind} value, not a document")
            elif not _valid_scalar(config.kind, value.strip()):
                raise refuse(f"property <{name}> must be a {config.kind}, not {value!r}")
    for config in doc_type.properties:
        if config.cardinality == Cardinality.REQUIRED and config.name not in document.properties:
            raise refuse(f"required property <{config.name}> is missing")


def _valid_scalar(kind: str, text: str) -> bool:
    if kind == "long":
        return bool(_LONG.fullmatch(text)) and -(2**63) <= int(text) < 2**63
    return True  # a string, or a boolean: Boolean.parseBoolean reads any text
