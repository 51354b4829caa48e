"""parse_function_xml: every reference file is read faithfully; malformed files are refused."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from droid.appfunctions.metadata import (
    ACCESS_LEVEL_ANDROID_TRUSTED,
    ACCESS_LEVEL_SELF,
    ACCESS_LEVEL_SYSTEM,
    SCOPE_ACTIVITY,
    SCOPE_GLOBAL,
    DataType,
)
from sim.pm.function_xml import PATTERN_TYPE_LEGACY_REGEX, detect_format, parse_function_xml
from sim.xmlsafe import XmlError, parse_xml

PACKAGE = "com.example.app"
SERVICE = "com.example.app.Functions"


def parse(path, **kwargs):
    return parse_function_xml(path, PACKAGE, SERVICE, **kwargs)


def by_id(document):
    return {f.id: f for f in document.functions}


def component(document, name):
    return next(t.data_type for t in document.components.data_types if t.name == name)


def test_every_reference_function_xml_parses(function_xml_file):
    document = parse(function_xml_file)
    assert document.file == str(function_xml_file)
    assert document.format == detect_format(parse_xml(function_xml_file, what="function XML"))
    for function in document.functions:
        assert function.id
        assert (function.package_name, function.service_name) == (PACKAGE, SERVICE)
        assert 100 <= function.access_level <= 300
    if document.format == "v1":
        assert not any(f.HasField("response") for f in document.functions)
        assert not document.custom_documents and not document.components.data_types


@pytest.mark.parametrize(
    "name, expected",
    [
        ("androidx-compiler-output/entrypoints/my_simple_service-v1.xml", "v1"),
        ("androidx-compiler-output/xml/fakeNoArgImpl_app_function.xml", "v1"),
        ("aosp-cts/assets/appfunctions.xml", "v1"),
        ("androidx-compiler-output/entrypoints/my_simple_service.xml", "v2"),
        ("aosp-cts/helper-app-dynamic-schema/assets/app_functions_v2.xml", "v2"),
        ("aosp-cts/helper-app/assets/dynamic_appfunctions.xml", "v2"),
        ("aosp-cts/helper-app-multi-services/assets/appfunctions.xml", "v2"),
    ],
)
def test_format_is_detected_from_content(reference_dir, name, expected):
    assert parse(reference_dir / name).format == expected


def test_access_levels_and_compat_enforcement(reference_dir):
    functions = by_id(parse(reference_dir / "androidx-compiler-output/entrypoints/my_access_level_service.xml"))
    own = functions["com.testdata.AccessLevelEntryPoint#selfFunction"]
    system = functions["com.testdata.AccessLevelEntryPoint#systemFunction"]
    assert (own.access_level, own.is_compat_enforcement_enabled) == (ACCESS_LEVEL_SELF, False)
    assert (system.access_level, system.is_compat_enforcement_enabled) == (ACCESS_LEVEL_SYSTEM, True)
    assert own.response.value_type.type == DataType.UNIT
    assert own.enabled_by_default


def test_access_level_defaults_to_android_trusted(reference_dir):
    (function,) = parse(reference_dir / "androidx-compiler-output/entrypoints/my_simple_service.xml").functions
    assert function.access_level == ACCESS_LEVEL_ANDROID_TRUSTED


def test_parameters_with_descriptions(reference_dir):
    (function,) = parse(reference_dir / "androidx-compiler-output/entrypoints/my_extension_service.xml").functions
    assert function.description == "simple function."
    assert [(p.name, p.is_required, p.data_type.type, p.description) for p in function.parameters] == [
        ("int", True, DataType.INT, "Int param."),
        ("string", True, DataType.STRING, "String param."),
    ]
    assert (function.response.value_type.type, function.response.description) == (DataType.STRING, "Result.")


def test_generic_set_field_components(reference_dir):
    document = parse(reference_dir / "androidx-compiler-output/xml/functionWithGenericSerializable_app_function_dynamic_schema.xml")
    assert [t.name for t in document.components.data_types] == [
        "com.testdata.Attachment",
        "com.testdata.SetField<kotlin.Int>",
        "com.testdata.SetField<kotlin.String>",
        "com.testdata.SetField<kotlin.String?>",
        "com.testdata.SetField<kotlin.collections.List<com.testdata.Attachment>>",
        "com.testdata.SetField<kotlin.collections.List<com.testdata.Attachment>?>",
        "com.testdata.UpdateNoteParams",
    ]
    (function,) = document.functions
    params, generic = function.parameters
    assert (params.data_type.type, params.data_type.data_type_reference) == (DataType.REFERENCE, "com.testdata.UpdateNoteParams")
    assert generic.data_type.data_type_reference == "com.testdata.SetField<kotlin.Int>"
    set_int = component(document, "com.testdata.SetField<kotlin.Int>")
    assert (set_int.type, set_int.is_nullable, list(set_int.required)) == (DataType.OBJECT, True, ["value"])
    assert set_int.properties[0].name == "value" and set_int.properties[0].data_type.type == DataType.INT
    set_list = component(document, "com.testdata.SetField<kotlin.collections.List<com.testdata.Attachment>>")
    item = set_list.properties[0].data_type.item_type
    assert (item.type, item.data_type_reference) == (DataType.REFERENCE, "com.testdata.Attachment")
    update = component(document, "com.testdata.UpdateNoteParams")
    assert [p.name for p in update.properties] == ["title", "nullableTitle", "attachments", "nullableAttachments"]
    assert not update.required


def test_string_enum_values(reference_dir):
    document = parse(reference_dir / "androidx-compiler-output/xml/stringEnumValueFunctions_app_functions_v2.xml")
    functions = by_id(document)
    param = functions["com.testdata.StringEnumValueFunctions#stringEnumParamFunction"].parameters[0]
    assert list(param.data_type.enum_values) == ["ON", "OFF"]
    result = functions["com.testdata.StringEnumValueFunctions#stringEnumReturnFunction"].response.value_type
    assert list(result.enum_values) == ["ON", "OFF"]
    prop = component(document, "com.testdata.StringEnumPropSerializable").properties[0]
    assert (prop.name, list(prop.data_type.enum_values)) == ("stringProp", ["ON", "OFF"])


def test_uri_component_and_flat_pattern_with_format(reference_dir):
    document = parse(reference_dir / "androidx-compiler-output/entrypoints/valid_uri_service.xml")
    uri = component(document, "android.net.Uri")
    assert (uri.object_qualified_name, uri.properties[0].name, list(uri.required)) == ("android.net.Uri", "uri", ["uri"])
    string_param = by_id(document)[
        "com.testdata.ValidUriConstraintService#functionWithStringConstraintNoEnumValues"
    ].parameters[0].data_type
    assert [(p.value, p.type) for p in string_param.patterns] == [("^[a-z]+$", PATTERN_TYPE_LEGACY_REGEX)]
    assert string_param.format == "custom"
    numeric = component(document, "com.testdata.SerializableWithValueConstraints").properties[1].data_type
    assert (numeric.patterns[0].value, numeric.format) == ("^[0-9]+$", "numeric")


def test_all_of_hierarchy(reference_dir):
    document = parse(reference_dir / "androidx-compiler-output/xml/derivedSerializableInputFunctions_app_function_dynamic_schema.xml")
    derived = component(document, "com.testdata.DerivedSerializable")
    assert derived.type == DataType.ALL_OF
    assert derived.all_of[0].data_type_reference == "com.testdata.LongBaseSerializable"
    base = component(document, "com.testdata.LongBaseSerializable")
    assert [a.object_qualified_name for a in base.all_of] == ["com.testdata.AppFunctionOpenable", "com.testdata.LongBaseSerializable"]


def test_optional_parameters_and_arrays(reference_dir):
    xml = reference_dir / "androidx-compiler-output/xml/fakeAllNullablePrimitiveParamsWithDefault_app_function_dynamic_schema.xml"
    first = parse(xml).functions[0].parameters[0]
    assert (first.name, first.is_required) == ("arg1", False)
    arrays = parse(reference_dir / "androidx-compiler-output/xml/fakeAllPrimitiveParams_app_function_dynamic_schema.xml")
    arg1 = arrays.functions[0].parameters[0].data_type
    assert (arg1.type, arg1.item_type.type) == (DataType.ARRAY, DataType.INT)


def test_scope_enabled_and_deprecation(reference_dir):
    (activity,) = parse(reference_dir / "androidx-compiler-output/xml/activitySignature_app_level_app_functions.xml").functions
    assert (activity.scope, activity.enabled_by_default) == (SCOPE_ACTIVITY, False)
    (global_,) = parse(reference_dir / "androidx-compiler-output/xml/accessLevelSignature_app_level_app_functions.xml").functions
    assert (global_.scope, global_.enabled_by_default, global_.access_level) == (SCOPE_GLOBAL, True, ACCESS_LEVEL_SELF)
    (deprecated,) = parse(reference_dir / "androidx-compiler-output/xml/deprecated_app_function_dynamic_schema.xml").functions
    assert deprecated.deprecation.message == "Deprecated Message"
    assert not global_.HasField("deprecation")


def test_schema_fields(reference_dir):
    (v1,) = parse(reference_dir / "androidx-compiler-output/xml/fakeNoArgImpl_app_function.xml").functions
    assert (v1.schema.category, v1.schema.name, v1.schema.version) == ("fake_schema_category", "noArg", 1)
    assert not v1.HasField("response")
    (v2,) = parse(reference_dir / "androidx-compiler-output/xml/fakeNoArgImpl_app_function_dynamic_schema.xml").functions
    assert (v2.schema.category, v2.schema.name, v2.schema.version) == ("fake_schema_category", "noArg", 1)


def test_cts_v1_legacy_fields(reference_dir):
    functions = by_id(parse(reference_dir / "aosp-cts/assets/appfunctions.xml"))
    assert len(functions) == 12
    add = functions["add"]
    assert (add.schema.name, add.schema.category, add.schema.version) == (
        "AppFunctionStaticMetadata-android.app.appfunctions.cts", "utils", 1,
    )
    assert add.enabled_by_default and add.restrict_callers_with_execute_app_functions  # "true\n   "
    assert add.display_name_string_res == 10
    assert not functions["add_disabledByDefault"].enabled_by_default
    long_running = functions["longRunningFunction"]
    assert long_running.enabled_by_default and long_running.schema.category == "" and long_running.schema.version == 0
    assert not functions["noSchema"].HasField("schema")
    assert all(f.access_level == ACCESS_LEVEL_ANDROID_TRUSTED for f in functions.values())


def test_cts_v2_custom_documents_and_legacy_spellings(reference_dir):
    document = parse(reference_dir / "aosp-cts/helper-app-dynamic-schema/assets/app_functions_v2.xml")
    functions = by_id(document)
    assert list(functions) == [
        "appFunctionEnabledByDefault", "appFunctionDisabledByDefault_noSchema", "appFunctionWithHighSchemaVersion",
    ]
    assert not functions["appFunctionDisabledByDefault_noSchema"].enabled_by_default
    assert functions["appFunctionWithHighSchemaVersion"].schema.version == 7
    first, second = document.custom_documents
    assert (first.tag, first.id, dict(first.properties)) == (
        "CustomTopLevelComponent1", "testTopLevelComponentId", {"customStringProperty": ("testValue",)},
    )
    (nested,) = second.properties["nestedDocumentProperty"]
    assert nested.id == "testTopLevelComponentId2/nestedDocumentProperty"
    assert dict(nested.properties) == {"nestedIntProperty": ("333",), "nestedRepeatedString": ("value 1", "value 2")}


def test_cts_v2_scope_activity(reference_dir):
    (function,) = parse(reference_dir / "aosp-cts/helper-app/assets/dynamic_appfunctions.xml").functions
    assert (function.id, function.scope) == ("contextConcatStrings", SCOPE_ACTIVITY)


def test_format_given_by_the_manifest_wins(reference_dir):
    path = reference_dir / "aosp-cts/helper-app-dynamic-schema/assets/dynamic_appfunctions.xml"
    assert parse(path).format == "v1"
    document = parse(path, format="v2")
    assert document.format == "v2" and by_id(document)["contextStopProcess"].enabled_by_default


# Malformed documents: (document, expected line, words of the reason).
V2 = """<appfunctions>
  <appfunction>
    <id>f</id>
{body}
  </appfunction>
</appfunctions>
"""


def param(data_type: str, name: str = "<name>p</name>") -> str:
    return f"<parameters><dataTypeMetadata>{data_type}</dataTypeMetadata><isRequired>true</isRequired>{name}</parameters>"


MALFORMED_V2 = {
    "parameter without name": (V2.format(body=param("<type>8</type>", name="")), 4, "name"),
    "non-integer type code": (V2.format(body=param("<type>string</type>")), 4, "'string'"),
    "unused type code 9": (V2.format(body=param("<type>9</type>")), 4, "'9'"),
    "unknown child of a data type": (V2.format(body=param("<colour>red</colour><type>8</type>")), 4, "colour"),
    "data type children out of order": (V2.format(body=param("<type>8</type><isNullable>true</isNullable>")), 4, "isNullable"),
    "data type without type": (V2.format(body=param("<isNullable>true</isNullable>")), 4, "type"),
    "non-integer schemaVersion": (V2.format(body="<schemaVersion>one</schemaVersion>"), 4, "'one'"),
    "unknown access level": (V2.format(body="<accessLevel>everyone</accessLevel>"), 4, "'everyone'"),
    "unknown scope": (V2.format(body="<scope>world</scope>"), 4, "'world'"),
    "response without valueType": (V2.format(body="<response><description>d</description></response>"), 4, "valueType"),
    "deprecation without message": (V2.format(body="<deprecation><id>unused</id></deprecation>"), 4, "message"),
    "pattern type out of range": (
        V2.format(body=param("<patterns><value>a*</value><type>7</type></patterns><type>8</type>")), 4, "'7'",
    ),
    "unresolved dataTypeReference": (
        V2.format(body=param("<dataTypeReference>com.example.Missing</dataTypeReference><type>11</type>")),
        4, "com.example.Missing",
    ),
    "REFERENCE without dataTypeReference": (V2.format(body=param("<type>11</type>")), 4, "dataTypeReference"),
    "ARRAY without itemType": (V2.format(body=param("<type>10</type>")), 4, "itemType"),
    "required names no property": (
        V2.format(body="<response><valueType><required>ghost</required><type>3</type></valueType></response>"),
        4, "'ghost'",
    ),
    "two responses": (
        V2.format(body="<response><valueType><type>0</type></valueType></response>\n"
                       "<response><valueType><type>0</type></valueType></response>"),
        5, "more than one <response>",
    ),
    "functionId differs from id": (V2.format(body="<functionId>g</functionId>"), 4, "differs"),
    "function without id": ("<appfunctions>\n<appfunction>\n<enabledByDefault>true</enabledByDefault>\n</appfunction>\n</appfunctions>", 2, "needs exactly one id"),
    "duplicate function id": (
        "<appfunctions>\n<appfunction><id>f</id></appfunction>\n<appfunction><id>f</id></appfunction>\n</appfunctions>",
        3, "'f'",
    ),
    "wrong root": ("<functions>\n<appfunction><id>f</id></appfunction>\n</functions>", 1, "expected <appfunctions>"),
    "known element as root": ("<parameters/>", 1, "expected <appfunctions>"),
    "text under the root": ("<appfunctions>\nhello\n</appfunctions>", 1, "appfunctions"),
}


@pytest.mark.parametrize("name", MALFORMED_V2)
def test_malformed_v2_is_refused_with_file_line_and_reason(tmp_path, name):
    document, line, words = MALFORMED_V2[name]
    path = tmp_path / "functions.xml"
    path.write_text(document)
    with pytest.raises(XmlError) as caught:
        parse(path, format="v2")
    assert caught.value.file == str(path)
    assert caught.value.line == line, str(caught.value)
    assert words in caught.value.reason, str(caught.value)
    assert str(caught.value).startswith(f"{path}:{line}: ")


MALFORMED_V1 = {
    "function without function_id": ("<appfunctions>\n<appfunction><id>f</id></appfunction>\n</appfunctions>", 2, "appfunctionFunctionId"),
    "duplicate function_id": (
        "<appfunctions>\n<appfunction><function_id>f</function_id></appfunction>\n"
        "<appfunction><function_id>f</function_id></appfunction>\n</appfunctions>",
        3, "'f'",
    ),
    "two enabled_by_default": (
        "<appfunctions>\n<appfunction><function_id>f</function_id>\n<enabled_by_default>true</enabled_by_default>\n"
        "<enabled_by_default>false</enabled_by_default></appfunction>\n</appfunctions>",
        4, "more than one <enabled_by_default>",
    ),
    "empty function_id": ("<appfunctions>\n<appfunction><function_id> </function_id></appfunction>\n</appfunctions>", 2, "function_id"),
}


@pytest.mark.parametrize("name", MALFORMED_V1)
def test_malformed_v1_is_refused_with_file_line_and_reason(tmp_path, name):
    document, line, words = MALFORMED_V1[name]
    path = tmp_path / "appfunctions.xml"
    path.write_text(document)
    with pytest.raises(XmlError) as caught:
        parse(path, format="v1")
    assert (caught.value.file, caught.value.line) == (str(path), line), str(caught.value)
    assert words in caught.value.reason, str(caught.value)


def test_v1_ignores_unknown_tags(tmp_path):
    path = tmp_path / "appfunctions.xml"
    path.write_text(
        "<appfunctions><version>1</version><appfunction><function_id>f</function_id>"
        "<colour>red</colour><enabledByDefault>false</enabledByDefault></appfunction></appfunctions>"
    )
    (function,) = parse(path, format="v1").functions
    assert (function.id, function.enabled_by_default) == ("f", True)


FUNCTION_XMLISH = st.lists(
    st.sampled_from(
        ["<appfunctions>", "</appfunctions>", "<appfunction>", "</appfunction>", "<id>f</id>", "<id>g</id>",
         "<function_id>f</function_id>", "<enabledByDefault>", "</enabledByDefault>", "true", "maybe",
         "<parameters>", "</parameters>", "<dataTypeMetadata>", "</dataTypeMetadata>", "<type>", "</type>",
         "11", "3", "<name>n</name>", "<response>", "</response>", "<valueType>", "</valueType>",
         "<required>n</required>", "<dataTypeReference>x</dataTypeReference>", "<scope>global</scope>",
         "<AppFunctionComponentMetadataDocument>", "</AppFunctionComponentMetadataDocument>",
         "<dataTypes>", "</dataTypes>", "<Custom>", "</Custom>", "<accessLevel>self</accessLevel>"]
    )
    | st.text(max_size=6),
    max_size=60,
).map("".join)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=FUNCTION_XMLISH | st.binary(max_size=300).map(lambda b: b.decode("latin-1")),
       fmt=st.sampled_from([None, "v1", "v2"]))
def test_random_documents_give_a_document_or_an_xml_error(tmp_path, document, fmt):
    path = tmp_path / "fuzz.xml"
    path.write_text(document, encoding="utf-8")
    try:
        parse(path, format=fmt)
    except XmlError:
        pass


VALID_V2 = """<appfunctions>
  <appfunction>
    <id>com.example.Notes#update</id>
    <enabledByDefault>true</enabledByDefault>
    <scope>global</scope>
    <description>Updates a note.</description>
    <parameters>
      <dataTypeMetadata><dataTypeReference>com.example.Note</dataTypeReference><id>unused</id>
        <isNullable>false</isNullable><type>11</type></dataTypeMetadata>
      <id>unused</id><isRequired>true</isRequired><name>note</name><description>The note.</description>
    </parameters>
    <parameters>
      <dataTypeMetadata><id>unused</id><isNullable>false</isNullable>
        <itemType><id>unused</id><isNullable>false</isNullable><enumValues>A</enumValues><type>8</type></itemType>
        <type>10</type></dataTypeMetadata>
      <id>unused</id><isRequired>false</isRequired><name>tags</name>
    </parameters>
    <response><id>unused</id><valueType><id>unused</id><isNullable>false</isNullable>
      <patterns><value>a*</value><type>2</type></patterns><format>uri</format><type>8</type></valueType></response>
    <schemaCategory>notes</schemaCategory><schemaName>update</schemaName><schemaVersion>2</schemaVersion>
    <deprecation><id>unused</id><message>Use v2.</message></deprecation>
    <accessLevel>system</accessLevel><isCompatEnforcementEnabled>true</isCompatEnforcementEnabled>
    <functionId>com.example.Notes#update</functionId>
  </appfunction>
  <AppFunctionComponentMetadataDocument>
    <dataTypes>
      <dataTypeMetadata><id>unused</id><isNullable>true</isNullable><objectQualifiedName>com.example.Note</objectQualifiedName>
        <properties><dataTypeMetadata><id>unused</id><isNullable>false</isNullable><type>8</type></dataTypeMetadata>
          <id>unused</id><name>title</name></properties>
        <required>title</required><type>3</type></dataTypeMetadata>
      <id>unused</id><name>com.example.Note</name>
    </dataTypes>
    <id>unused</id>
  </AppFunctionComponentMetadataDocument>
  <Custom><id>c</id><value>1</value><nested><id>n</id><x>y</x></nested></Custom>
</appfunctions>
"""


def test_synthetic_document_maps_every_field(tmp_path):
    path = tmp_path / "notes.xml"
    path.write_text(VALID_V2)
    document = parse(path)
    (function,) = document.functions
    assert (function.scope, function.description, function.access_level) == (SCOPE_GLOBAL, "Updates a note.", ACCESS_LEVEL_SYSTEM)
    assert function.is_compat_enforcement_enabled and function.deprecation.message == "Use v2."
    assert (function.schema.category, function.schema.name, function.schema.version) == ("notes", "update", 2)
    note, tags = function.parameters
    assert (note.description, tags.is_required, list(tags.data_type.item_type.enum_values)) == ("The note.", False, ["A"])
    value_type = function.response.value_type
    assert ([(p.value, p.type) for p in value_type.patterns], value_type.format) == ([("a*", 2)], "uri")
    assert document.custom_documents[0].properties["nested"][0].properties["x"] == ("y",)


MUTATIONS = st.lists(
    st.tuples(st.sampled_from(["remove", "duplicate", "retext", "swap"]), st.integers(0, 200), st.text(max_size=6)),
    min_size=1,
    max_size=3,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutations=MUTATIONS)
def test_mutated_valid_documents_give_a_document_or_an_xml_error(tmp_path, mutations):
    root = etree.fromstring(VALID_V2)
    for operation, index, text in mutations:
        elements = list(root.iter())[1:]
        if not elements:
            break
        element = elements[index % len(elements)]
        parent = element.getparent()
        if operation == "remove":
            parent.remove(element)
        elif operation == "duplicate":
            element.addnext(etree.fromstring(etree.tostring(element)))
        elif operation == "retext":
            element.text = "".join(ch for ch in text if ch.isprintable())
        elif element.getnext() is not None:
            element.getnext().addnext(element)  # swap with the next sibling
    path = tmp_path / "mutated.xml"
    path.write_bytes(etree.tostring(root))
    try:
        parse(path)
    except XmlError:
        pass


@pytest.mark.parametrize("fmt, tag", [("v2", "enabledByDefault"), ("v1", "enabled_by_default")])
@pytest.mark.parametrize("text, enabled", [
    ("true", True), ("TRUE", True), (" True\n", True), ("false", False),
    ("1", False), ("0", False), ("yes", False), ("", False),
])
def test_booleans_are_read_with_java_parse_boolean(tmp_path, fmt, tag, text, enabled):
    """AppSearch reads a boolean with Boolean.parseBoolean of the trimmed text
    (AppFunctionDocumentParserImpl): <enabledByDefault>1</enabledByDefault> ships disabled on a
    phone, and TRUE is true there; so they do here, on both formats."""
    id_tag = "id" if fmt == "v2" else "function_id"
    path = tmp_path / "functions.xml"
    path.write_text(f"<appfunctions><appfunction><{id_tag}>f</{id_tag}><{tag}>{text}</{tag}></appfunction></appfunctions>")
    assert by_id(parse(path, format=fmt))["f"].enabled_by_default is enabled


def test_nested_booleans_are_read_with_java_parse_boolean(tmp_path):
    """isRequired and isNullable are AppSearch booleans too: "1" is false, "TRUE" true."""
    path = tmp_path / "functions.xml"
    path.write_text(
        "<appfunctions><appfunction><id>f</id><parameters><dataTypeMetadata><isNullable>TRUE</isNullable>"
        "<type>8</type></dataTypeMetadata><isRequired>1</isRequired><name>p</name></parameters>"
        "</appfunction></appfunctions>"
    )
    parameter = by_id(parse(path, format="v2"))["f"].parameters[0]
    assert (parameter.is_required, parameter.data_type.is_nullable) == (False, True)


@pytest.mark.parametrize("fmt", ["v1", "v2"])
def test_a_file_indexes_its_first_250_documents(tmp_path, fmt, caplog):
    """AppFunctionDocumentParserImpl stops once a file gave DEFAULT_MAX_APP_FUNCTIONS_PER_PACKAGE
    (250) documents: the 251st function and later ones are not indexed, and the log says so."""
    id_tag = "id" if fmt == "v2" else "function_id"
    path = tmp_path / "functions.xml"
    path.write_text("<appfunctions>\n" + "".join(
        f"<appfunction><{id_tag}>f{i}</{id_tag}></appfunction>\n" for i in range(260)) + "</appfunctions>")
    document = parse(path, format=fmt)
    assert [f.id for f in document.functions] == [f"f{i}" for i in range(250)]
    assert document.unindexed_ids == {f"f{i}" for i in range(250, 260)}
    assert "only the first 250 documents are indexed" in caplog.text and "from line 252" in caplog.text


def test_a_large_function_document_is_indexed_whole(tmp_path):
    """The 4 KiB document limit AppSearch once had was removed (ddc2a0f0, "Remove size limit on
    AppFunctionDocument"): a function with a 64 KiB description is indexed as it is."""
    path = tmp_path / "functions.xml"
    description = "x" * 65536
    path.write_text(f"<appfunctions><appfunction><id>f</id><description>{description}</description></appfunction></appfunctions>")
    assert by_id(parse(path, format="v2"))["f"].description == description


def test_v2_property_tags_are_read_through_to_lower_camel_case(tmp_path):
    """AppFunctionDocumentParserImpl reads each property tag through toLowerCamelCase: on a
    phone <access_level>self</access_level> is accessLevel, so the function is SELF-only there,
    and here too; <is_required> is isRequired."""
    path = tmp_path / "functions.xml"
    path.write_text(
        "<appfunctions><appfunction><id>f</id><access_level>self</access_level>"
        "<parameters><data_type_metadata><type>8</type></data_type_metadata><is_required>true</is_required>"
        "<name>p</name></parameters></appfunction></appfunctions>"
    )
    function = by_id(parse(path, format="v2"))["f"]
    assert function.access_level == ACCESS_LEVEL_SELF
    assert function.parameters[0].is_required and function.parameters[0].data_type.type == DataType.STRING
