"""parse_app_metadata and the @xml/ resource resolver."""

from __future__ import annotations

import pytest

from sim.pm.app_metadata import parse_app_metadata, resolve_app_metadata, resolve_xml_resource
from sim.pm.manifest import parse_manifest
from sim.xmlsafe import XmlError

APPFN = "http://schemas.android.com/apk/androidx.appfunctions"
RES_AUTO = "http://schemas.android.com/apk/res-auto"


def write(tmp_path, attributes: str, namespace: str = APPFN):
    path = tmp_path / "app_metadata.xml"
    path.write_text(f'<AppFunctionAppMetadata xmlns:appfn="{namespace}"\n    {attributes}/>\n')
    return path


def test_every_reference_app_metadata_parses(app_metadata_file):
    metadata = parse_app_metadata(app_metadata_file)
    assert len(metadata.description) > 40
    assert metadata.display_description.startswith("@string/")


def test_chat_app_metadata(reference_dir):
    metadata = parse_app_metadata(reference_dir / "android-appfunctions-samples/ChatApp/app/src/main/res/xml/app_metadata.xml")
    assert metadata.description.startswith("Provides functions for managing chat conversations, searching contacts,")
    assert metadata.description.endswith("via a list of content URIs.")
    assert metadata.display_description == "@string/app_function_app_display_description"


@pytest.mark.parametrize("namespace", [APPFN, RES_AUTO])
def test_both_namespaces_are_read(tmp_path, namespace):
    metadata = parse_app_metadata(write(tmp_path, 'appfn:description="Notes." appfn:displayDescription="Notes app"', namespace))
    assert (metadata.description, metadata.display_description) == ("Notes.", "Notes app")


def test_beta01_instructions_win_over_description(tmp_path):
    metadata = parse_app_metadata(write(tmp_path, 'appfn:description="old" appfn:instructions="new"'))
    assert metadata.description == "new"
    assert parse_app_metadata(write(tmp_path, 'appfn:instructions="only"')).description == "only"


def test_missing_attributes_are_empty(tmp_path):
    metadata = parse_app_metadata(write(tmp_path, ""))
    assert (metadata.description, metadata.display_description) == ("", "")


def test_unqualified_description_is_refused(tmp_path):
    path = write(tmp_path, 'description="Jetpack would ignore this"')
    with pytest.raises(XmlError, match="description") as caught:
        parse_app_metadata(path)
    assert (caught.value.file, caught.value.line) == (str(path), 2)  # where the attribute is


def test_wrong_root_is_refused(tmp_path):
    path = tmp_path / "app_metadata.xml"
    path.write_text("<resources/>")
    with pytest.raises(XmlError, match="expected <AppFunctionAppMetadata>"):
        parse_app_metadata(path)


def test_resolve_xml_resource(tmp_path):
    assert resolve_xml_resource(tmp_path, "@xml/app_metadata") == tmp_path / "res" / "xml" / "app_metadata.xml"


@pytest.mark.parametrize("reference", ["@string/app_metadata", "@xml/../../etc/passwd", "app_metadata", "@xml/"])
def test_resolve_refuses_anything_but_an_xml_resource(tmp_path, reference):
    with pytest.raises(ValueError, match="not an @xml/<name> resource reference"):
        resolve_xml_resource(tmp_path, reference)


def app_dir_with(tmp_path, application: str):
    (tmp_path / "AndroidManifest.xml").write_text(
        '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.notes">\n'
        f"<application>\n{application}\n</application>\n</manifest>\n"
    )
    return parse_manifest(tmp_path / "AndroidManifest.xml")


def test_resolve_app_metadata_follows_the_manifest(tmp_path):
    manifest = app_dir_with(tmp_path, '<property android:name="android.app.appfunctions.app_metadata" android:resource="@xml/meta"/>')
    assert resolve_app_metadata(manifest, tmp_path) == tmp_path / "res" / "xml" / "meta.xml"


def test_resolve_app_metadata_without_the_property(tmp_path):
    assert resolve_app_metadata(app_dir_with(tmp_path, ""), tmp_path) is None


@pytest.mark.parametrize(
    "attribute, reason",
    [('android:value="meta.xml"', "needs android:resource"), ('android:resource="@string/meta"', "not an @xml/")],
)
def test_resolve_app_metadata_names_the_manifest_line_of_a_bad_reference(tmp_path, attribute, reason):
    manifest = app_dir_with(tmp_path, f'<property android:name="android.app.appfunctions.app_metadata" {attribute}/>')
    with pytest.raises(XmlError, match=reason) as caught:
        resolve_app_metadata(manifest, tmp_path)
    assert (caught.value.file, caught.value.line) == (manifest.file, 3)
