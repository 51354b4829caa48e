"""The W3C schemas in schemas/: real XSD 1.0, and the validator's behaviour around them."""

from __future__ import annotations

import pytest
import xmlschema

from sim.pm.schemas import SCHEMA_DIR, validate
from sim.xmlsafe import XmlError, parse_xml

KINDS = ["app_functions", "app_functions_v1", "android_manifest", "app_metadata"]


@pytest.mark.parametrize("xsd", sorted(p.name for p in SCHEMA_DIR.glob("*.xsd")))
def test_schema_is_valid_xsd_1_0_for_an_independent_processor(xsd):
    xmlschema.XMLSchema10(SCHEMA_DIR / xsd)  # raises on any XSD 1.0 error, including UPA violations


@pytest.mark.parametrize("kind", KINDS)
def test_wrong_root_is_refused_for_every_kind(kind):
    root = parse_xml(b"<!-- c -->\n<unexpected/>", what="test")
    with pytest.raises(XmlError, match="root element is <unexpected>") as caught:
        validate(root, kind, "some/file.xml")
    assert (caught.value.file, caught.value.line) == ("some/file.xml", 2)


def check(document: str, kind: str = "app_functions") -> None:
    validate(parse_xml(document.encode(), what="test"), kind, "f.xml")


def test_custom_properties_and_documents_pass_the_open_levels():
    check(
        "<appfunctions><appfunction><id>f</id><customIntProperty>1</customIntProperty>"
        "<nested><id>n</id><anything>x</anything></nested></appfunction>"
        "<CustomTopLevel><id>c</id><value>v</value></CustomTopLevel></appfunctions>"
    )


def test_known_properties_are_typed_wherever_they_appear():
    with pytest.raises(XmlError, match="'many' is not a valid value"):
        check("<appfunctions><CustomTopLevel><schemaVersion>many</schemaVersion></CustomTopLevel></appfunctions>")


def test_shared_data_type_names_are_unique():
    named = "<dataTypes><dataTypeMetadata><type>3</type></dataTypeMetadata><name>com.x.T</name></dataTypes>"
    with pytest.raises(XmlError, match=r"Duplicate key-sequence \['com.x.T'\].*unique names"):
        check(f"<appfunctions><AppFunctionComponentMetadataDocument>{named}{named}</AppFunctionComponentMetadataDocument></appfunctions>")


def test_string_pattern_children_come_in_any_order():
    data_type = "<dataTypeMetadata><patterns><type>1</type><value>ab</value></patterns><type>8</type></dataTypeMetadata>"
    check(f"<appfunctions><appfunction><id>f</id><parameters>{data_type}<name>p</name></parameters></appfunction></appfunctions>")


def test_manifest_accepts_unknown_elements_and_attributes():
    check(
        '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="a.b" android:versionCode="3">'
        '<queries><package android:name="c.d"/></queries><application android:label="@string/x">'
        '<activity android:name=".A" android:exported="false"/></application></manifest>',
        "android_manifest",
    )


def test_manifest_checks_known_elements_inside_unknown_ones():
    with pytest.raises(XmlError, match="android:name' is required"):
        check(
            '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="a.b"><application>'
            '<activity android:name=".A"><intent-filter><action/></intent-filter></activity></application></manifest>',
            "android_manifest",
        )
