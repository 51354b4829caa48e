"""parse_dialect_xsd (AppSearch's XSD dialect) and the check of v2 custom documents against it."""

from __future__ import annotations

import pytest

from sim.pm.dialect_xsd import (
    property_types,
    STATIC_METADATA,
    Cardinality,
    PropertyConfig,
    check_custom_documents,
    parse_dialect_xsd,
)
from sim.pm.function_xml import Reading, parse_function_xml
from sim.xmlsafe import XmlError

CTS_XSD = "aosp-cts/helper-app-dynamic-schema/assets/app_functions_schema.xsd"
STATIC = '<xs:documentType name="AppFunctionStaticMetadata"><xs:element name="functionId" type="xs:string"/></xs:documentType>'


def write_xsd(tmp_path, body: str, static: str = STATIC):
    path = tmp_path / "app_functions_schema.xsd"
    path.write_text(f'<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">\n{static}\n{body}\n</xs:schema>\n')
    return path


def test_every_reference_dialect_xsd_parses(dialect_xsd_file):
    types = parse_dialect_xsd(dialect_xsd_file)
    assert STATIC_METADATA in types
    static = types[STATIC_METADATA]
    assert {"functionId", "packageName", "schemaName", "schemaVersion", "schemaCategory", "enabledByDefault"} <= {
        p.name for p in static.properties
    }
    for doc_type in types.values():
        for prop in doc_type.properties:
            assert prop.kind in ("string", "long", "boolean", "document")
            assert (prop.kind == "document") == (prop.document_type in types)


def test_cts_document_types(reference_dir):
    types = parse_dialect_xsd(reference_dir / "aosp-cts/assets/app_functions_schema.xsd")
    assert list(types) == ["SchemaMetadata", "AppFunctionStaticMetadata", "CustomTopLevelComponent1", "CustomTopLevelComponent2", "NestedDocument"]
    assert types["SchemaMetadata"].property("schemaVersion") == PropertyConfig("schemaVersion", "long", None)
    static = types[STATIC_METADATA]
    assert static.property("functionId") == PropertyConfig(
        "functionId", "string", None, Cardinality.OPTIONAL, indexing_type=1, tokenizer_type=2
    )
    assert static.property("customIntProperty").kind == "long"  # xs:int is stored as a long
    assert static.property("schemaMetadata") == PropertyConfig(
        "schemaMetadata", "document", "SchemaMetadata", should_index_nested_properties=True
    )
    assert static.property("mobileApplicationQualifiedId").joinable_value_type == 1
    nested = types["NestedDocument"]
    assert nested.property("nestedRepeatedString").cardinality == Cardinality.REPEATED
    assert types["CustomTopLevelComponent2"].property("nestedDocumentProperty").document_type == "NestedDocument"
    assert static.property("absent") is None


def test_androidx_document_types(reference_dir):
    types = parse_dialect_xsd(reference_dir / "androidx-assets/app_functions_schema.xsd")
    data_type = types["AppFunctionDataTypeMetadataDocument"]
    assert data_type.property("type").cardinality == Cardinality.REQUIRED
    assert data_type.property("patterns").document_type == "AppFunctionStringPatternDocument"
    assert data_type.property("itemType").document_type == "AppFunctionDataTypeMetadataDocument"  # recursive
    assert types[STATIC_METADATA].property("accessLevel").kind == "string"
    older = parse_dialect_xsd(reference_dir / "androidx-assets/appfunctions-service/app_functions_schema.xsd")
    assert older["AppFunctionDataTypeMetadataDocument"].property("oneOf") is None


BROKEN = {
    "undefined reference": ('<xs:documentType name="A"><xs:element name="b" type="appfn:Missing"/></xs:documentType>', "appfn:Missing is not declared"),
    "name with a symbol": ('<xs:documentType name="A"><xs:element name="bad_name" type="xs:string"/></xs:documentType>', "'bad_name'"),
    "element without name": ('<xs:documentType name="A"><xs:element type="xs:string"/></xs:documentType>', "no name attribute"),
    "unsupported type": ('<xs:documentType name="A"><xs:element name="b" type="xs:double"/></xs:documentType>', "'xs:double'"),
    "cardinality out of range": ('<xs:documentType name="A"><xs:element name="b" type="xs:string" cardinality="4"/></xs:documentType>', "cardinality 4"),
    "non-integer indexingType": ('<xs:documentType name="A"><xs:element name="b" type="xs:string" indexingType="exact"/></xs:documentType>', "'exact'"),
    "a 21st document type": ("\n".join(f'<xs:documentType name="T{i}"/>' for i in range(20)), "more than 20 document types"),
    "property declared twice": ('<xs:documentType name="A"><xs:element name="b" type="xs:string"/>\n<xs:element name="b" type="xs:long"/></xs:documentType>', "declared twice"),
    "document type declared twice": ('<xs:documentType name="A"/>\n<xs:documentType name="A"/>', "declared twice"),
    "foreign element": ("<xs:element name='x' type='xs:string'/>", "expected <xs:documentType>"),
}


@pytest.mark.parametrize("name", BROKEN)
def test_broken_dialect_is_refused_with_file_line_and_reason(tmp_path, name):
    body, words = BROKEN[name]
    path = write_xsd(tmp_path, body)
    with pytest.raises(XmlError) as caught:
        parse_dialect_xsd(path)
    assert caught.value.file == str(path)
    assert caught.value.line == 3 + body.count("\n"), str(caught.value)
    assert words in caught.value.reason, str(caught.value)


def test_static_metadata_is_required(tmp_path):
    with pytest.raises(XmlError, match="no AppFunctionStaticMetadata"):
        parse_dialect_xsd(write_xsd(tmp_path, "", static='<xs:documentType name="Other"/>'))


def test_root_must_be_xs_schema(tmp_path):
    path = tmp_path / "schema.xsd"
    path.write_text("<schema/>")
    with pytest.raises(XmlError, match="expected <xs:schema>"):
        parse_dialect_xsd(path)


def test_cts_custom_documents_match_their_schema(reference_dir):
    types = parse_dialect_xsd(reference_dir / CTS_XSD)
    for name in ("app_functions_v2.xml", "app_functions_v2_lessOneFunction.xml", "app_functions_v2_noTopLevelDocs.xml"):
        check_custom_documents(parse_function_xml(reference_dir / "aosp-cts/helper-app-dynamic-schema/assets" / name, "p", "s"), types)


def reading(types, android_17: bool) -> Reading:
    """How that release's indexer reads a file against ``types``."""
    return Reading(property_types(types, dynamic_app_functions=android_17), skips_undeclared=android_17)


def test_custom_documents_need_the_schema_that_declares_them(reference_dir):
    """AppFunctionDocumentParserImpl reads only the top-level documents whose type the app schema
    declares, on every release; an undeclared property of a declared one is skipped on Android 17
    (5e82a257) and throws on Android 16 QPR2 (fcfe73c6)."""
    path = reference_dir / "aosp-cts/helper-app-dynamic-schema/assets/app_functions_v2.xml"
    androidx = parse_dialect_xsd(reference_dir / "androidx-assets/app_functions_schema.xsd")
    document = parse_function_xml(path, "p", "s", reading=reading(androidx, android_17=True))
    assert document.custom_documents == ()
    skipped = [(n.line, n.message) for n in document.notes]
    assert (44, "<CustomTopLevelComponent1> is no document type of the app schema: it is not indexed.") in skipped
    assert (24, "<customIntProperty> is not a property of AppFunctionStaticMetadata in the app schema: "
                "Android 17 skips it.") in skipped
    with pytest.raises(XmlError) as caught:
        parse_function_xml(path, "p", "s", reading=reading(androidx, android_17=False))
    assert (caught.value.line, caught.value.reason.split(":")[0]) == (
        24, "<customIntProperty> is not a property of AppFunctionStaticMetadata in the app schema")


def test_an_undeclared_property_of_a_custom_document_is_skipped_on_17_and_refused_on_16(reference_dir, tmp_path):
    path = tmp_path / "functions.xml"
    path.write_text(V2.format(tag="CustomTopLevelComponent1", body="<colour>red</colour>"))
    types = parse_dialect_xsd(reference_dir / CTS_XSD)
    (custom,) = parse_function_xml(path, "p", "s", reading=reading(types, android_17=True)).custom_documents
    assert "colour" not in custom.properties
    with pytest.raises(XmlError, match="<colour> is not a property of CustomTopLevelComponent1 in the app schema"):
        parse_function_xml(path, "p", "s", reading=reading(types, android_17=False))


V2 = """<appfunctions>
  <appfunction><id>f</id></appfunction>
  <{tag}>
    <id>c</id>
    {body}
  </{tag}>
</appfunctions>
"""

MISMATCHES = {
    "two values of a single property": (
        "CustomTopLevelComponent1", "<customStringProperty>a</customStringProperty><customStringProperty>b</customStringProperty>",
        "appears 2 times",
    ),
    "text where a document is declared": ("CustomTopLevelComponent2", "<nestedDocumentProperty>x</nestedDocumentProperty>", "nested NestedDocument"),
    "document where a scalar is declared": (
        "CustomTopLevelComponent1", "<customStringProperty><id>d</id><x>1</x></customStringProperty>", "not a document",
    ),
    "non-integer long in a nested document": (
        "CustomTopLevelComponent2", "<nestedDocumentProperty><id>n</id><nestedIntProperty>many</nestedIntProperty></nestedDocumentProperty>",
        "must be a long, not 'many'",
    ),
    "long out of range": (
        "CustomTopLevelComponent2", "<nestedDocumentProperty><id>n</id><nestedIntProperty>9223372036854775808</nestedIntProperty></nestedDocumentProperty>",
        "must be a long",
    ),
}


@pytest.mark.parametrize("name", MISMATCHES)
def test_custom_document_mismatches_are_refused(reference_dir, tmp_path, name):
    tag, body, words = MISMATCHES[name]
    path = tmp_path / "functions.xml"
    path.write_text(V2.format(tag=tag, body=body))
    document = parse_function_xml(path, "p", "s", format="v2")
    with pytest.raises(XmlError) as caught:
        check_custom_documents(document, parse_dialect_xsd(reference_dir / CTS_XSD))
    assert caught.value.file == str(path) and caught.value.line in (3, 5), str(caught.value)
    assert words in caught.value.reason, str(caught.value)


def test_should_index_nested_properties_is_read_with_parse_boolean(tmp_path):
    """AppFunctionSchemaParser.getAttributeBoolOrDefault: "TRUE" is true, "yes" and " true" false."""
    elements = "".join(f'<xs:element name="p{i}" type="appfn:A" shouldIndexNestedProperties="{v}"/>'
                       for i, v in enumerate(("TRUE", "yes", " true", "false")))
    types = parse_dialect_xsd(write_xsd(tmp_path, f'<xs:documentType name="A">{elements}</xs:documentType>'))
    assert [p.should_index_nested_properties for p in types["A"].properties] == [True, False, False, False]


def test_required_and_boolean_properties(tmp_path):
    xsd = write_xsd(
        tmp_path,
        '<xs:documentType name="Light"><xs:element name="on" type="xs:boolean" cardinality="3"/></xs:documentType>',
    )
    types = parse_dialect_xsd(xsd)
    path = tmp_path / "functions.xml"
    # Boolean.parseBoolean reads any text (AppFunctionDocumentParserImpl): "yes" is false, not refused.
    for body, error in (("<on>true</on>", None), ("<on>yes</on>", None), ("", "required property <on>")):
        path.write_text(V2.format(tag="Light", body=body))
        document = parse_function_xml(path, "p", "s")
        if error is None:
            check_custom_documents(document, types)
        else:
            with pytest.raises(XmlError, match=error):
                check_custom_documents(document, types)


def test_every_app_in_the_repository_ships_the_schema_droid_ships():
    """An app's app_functions_schema.xsd is the library's own asset, as androidx's AAR merges it
    into every APK: each checked-in copy (sample apps, test apps, test APK sources, examples) is
    droid's, byte for byte, so none drifts from what `droidsim appfunctions generate` writes."""
    from droid.appfunctions.assets import APP_FUNCTIONS_SCHEMA
    from tests.helpers import REPO

    library = APP_FUNCTIONS_SCHEMA.read_bytes()
    copies = [p for top in ("apps", "docs", "tests") for p in (REPO / top).rglob("app_functions_schema.xsd")]
    assert len(copies) > 10
    assert [str(p.relative_to(REPO)) for p in copies if p.read_bytes() != library] == []
