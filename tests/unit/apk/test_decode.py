"""How references resolve: the default locale's value at the highest -vNN not above the SDK;
framework references and @array/ lists the device would have to read are refused."""

from __future__ import annotations

import pytest
from lxml import etree

from sim.apk import decode
from sim.apk.decode import Resolver, decode_apk
from sim.apk.errors import ApkError
from sim.apk.reader import Resource, ResourceTable
from sim.apk.signing import Signing
from tests.unit.apk.conftest import APKS, apk_bytes

ANDROID = "http://schemas.android.com/apk/res/android"


class OneResource:
    """A resources.arsc of one resource, 0x7F010000."""

    def __init__(self, resource: Resource) -> None:
        self._resource = resource

    def get(self, resource_id: int) -> Resource | None:
        return self._resource if resource_id == 0x7F010000 else None


def xml_resources_become(type_: str, name: str) -> type[ResourceTable]:
    """The shop's resources.arsc, each @xml/ resource in it retyped and renamed."""

    class Retyped(ResourceTable):
        def get(self, resource_id):
            found = super().get(resource_id)
            return Resource(type_, name, found.values) if found and found.type == "xml" else found

    return Retyped


def resolved(values, sdk: int) -> str:
    element = etree.fromstring(f'<service xmlns:android="{ANDROID}" android:enabled="@7F010000"/>')
    Resolver(OneResource(Resource("bool", "on", values)), sdk, "app.apk").resolve_tree(element, "AndroidManifest.xml")
    return element.get(f"{{{ANDROID}}}enabled")


VALUES = (("", "default"), ("v30", "thirty"), ("v37", "thirty-seven"), ("fr", "french"), ("fr-v37", "french-37"))


@pytest.mark.parametrize("sdk, value", [(29, "default"), (30, "thirty"), (36, "thirty"), (37, "thirty-seven")])
def test_the_highest_sdk_qualifier_not_above_the_device_wins_in_the_default_locale(sdk, value):
    assert resolved(VALUES, sdk) == value


def test_a_resource_with_no_value_for_this_sdk_in_the_default_locale_is_refused():
    with pytest.raises(ApkError) as refused:
        resolved((("v37", "true"), ("fr", "false")), 36)
    assert str(refused.value) == (
        "INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: app.apk!/AndroidManifest.xml:1: <service> android:enabled: "
        "@bool/on has no value for SDK 36 in the default locale (it has: v37, fr)")


def test_a_framework_reference_is_refused_where_the_device_reads_it_and_kept_elsewhere():
    element = etree.fromstring(f'<service xmlns:android="{ANDROID}" android:label="@android:01040000" '
                               f'android:permission="@android:01040001"/>')
    with pytest.raises(ApkError, match=r"<service> android:permission refers to the framework resource "
                                       r"@android:01040001, which droidsim does not resolve"):
        Resolver(None, 37, "app.apk").resolve_tree(element, "AndroidManifest.xml")
    label_only = etree.fromstring(f'<service xmlns:android="{ANDROID}" android:label="@android:01040000"/>')
    Resolver(None, 37, "app.apk").resolve_tree(label_only, "AndroidManifest.xml")
    assert label_only.get(f"{{{ANDROID}}}label") == "@android:01040000"


def test_an_array_of_function_files_is_refused_naming_what_to_write_instead(monkeypatch):
    """The shop's app metadata property, as if it named an @array/ resource."""

    monkeypatch.setattr(decode, "ResourceTable", xml_resources_become("array", "functions"))
    with pytest.raises(ApkError) as refused:
        decode_apk(apk_bytes(), "shop.apk", 37)
    assert str(refused.value) == (
        "INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: shop.apk!/AndroidManifest.xml:6: property "
        "android.app.appfunctions.app_metadata names @array/functions: droidsim does not read an APK's @array/ "
        "resources; name the files in android:value (comma-separated asset paths)")


def test_an_xml_resource_name_from_resources_arsc_is_checked(monkeypatch):
    monkeypatch.setattr(decode, "ResourceTable", xml_resources_become("xml", "../../escape"))
    with pytest.raises(ApkError, match=r"property android.app.appfunctions.app_metadata names '@xml/../../escape', "
                                       r"which is no resource name"):
        decode_apk(apk_bytes(), "shop.apk", 37)


def test_signed_and_unsigned_apks_are_read_as_such():
    """Each scheme verified (tests/unit/apk/test_signatures.py); unsigned has neither."""
    from tests.unit.apk.test_install_apk import certificate_digest

    signed = (APKS / "shop-signed.apk").read_bytes()
    assert decode_apk(signed, "shop-signed.apk", 37).signing == Signing(("v1", "v2", "v3"), (certificate_digest("test"),))
    assert decode_apk((APKS / "shop.apk").read_bytes(), "shop.apk", 37).signing == Signing((), ())
