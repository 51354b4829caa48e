"""An APK whose manifest holds what AndroidX and Gradle merge into every real app installs.

tests/apks/bank is that app in the default Jetpack layout: AndroidX core's signature
permission (an integer in binary XML), <queries>, a launcher activity, the startup provider, a
receiver, meta-data, tools: attributes, and the library's PlatformAppFunctionService serving
every @AppFunction class.
"""

from __future__ import annotations

import pytest
from lxml import etree

from sim.apk.decode import decode_apk
from sim.apk.errors import ApkError
from sim.apk.manifest_words import name_integers
from sim.permissions.definitions import ProtectionLevel
from tests.unit.apk.conftest import APKS, apk_bytes

BANK = "com.example.bank"
LIBRARY_SERVICE = "androidx.appfunctions.service.PlatformAppFunctionService"
DYNAMIC_RECEIVER_PERMISSION = f"{BANK}.DYNAMIC_RECEIVER_NOT_EXPORTED_PERMISSION"
BANK_FUNCTIONS = [
    "com.example.bank.accounts.AccountFunctions#getBalance",
    "com.example.bank.accounts.AccountFunctions#listTransactions",
    "com.example.bank.cards.CardFunctions#freezeCard",
    "com.example.bank.payments.PaymentFunctions#sendPayment",
]


@pytest.fixture(params=[36, 37], ids=["sdk36", "sdk37"])
def any_device(request, device, device36):
    return device36 if request.param == 36 else device


@pytest.mark.parametrize("apk", ["bank.apk", "bank-signed.apk"])
def test_the_merged_manifest_installs_and_the_library_service_serves_every_class(any_device, apk):
    package = any_device.install(APKS / apk)
    assert sorted(f.id for f in package.metadata.app_functions) == BANK_FUNCTIONS
    assert {f.service_name for f in package.metadata.app_functions} == {LIBRARY_SERVICE}


def test_androidx_cores_permission_is_defined_as_the_signature_permission_it_is(any_device):
    any_device.install(APKS / "bank.apk")
    definition = any_device.permissions.definition(DYNAMIC_RECEIVER_PERMISSION)
    assert (definition.package_name, definition.protection_level) == (BANK, ProtectionLevel.parse("signature"))


def test_the_decoded_manifest_says_the_protection_level_in_words():
    manifest = decode_apk(apk_bytes("bank.apk"), "bank.apk", 37).files[0].text
    assert f'<permission android:name="{DYNAMIC_RECEIVER_PERMISSION}" android:protectionLevel="signature"/>' in manifest


def _manifest(level: str) -> etree._Element:
    return etree.fromstring(
        '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app">\n'
        f'  <permission android:name="com.example.app.P" android:protectionLevel="{level}"/>\n</manifest>')


@pytest.mark.parametrize(("bits", "words"), [("0x00000012", "privileged|signature"), ("0x00000000", "normal"),
                                             ("signature|privileged", "signature|privileged")])
def test_an_integer_protection_level_becomes_words_and_words_stay(bits, words):
    manifest = _manifest(bits)
    name_integers(manifest, "app.apk!/AndroidManifest.xml")
    assert ProtectionLevel.parse(manifest[0].get("{http://schemas.android.com/apk/res/android}protectionLevel")) \
        == ProtectionLevel.parse(words)


def test_bits_android_does_not_define_refuse_the_apk_naming_the_line():
    with pytest.raises(ApkError) as refused:
        name_integers(_manifest("0x00000007"), "app.apk!/AndroidManifest.xml")
    assert refused.value.reason == "INSTALL_PARSE_FAILED_MANIFEST_MALFORMED"
    assert str(refused.value).endswith("app.apk!/AndroidManifest.xml:2: <permission> android:protectionLevel: "
                                       "protection level 0x00000007: unknown base 0x7 "
                                       "(normal=0x0, dangerous=0x1, signature=0x2, internal=0x4)")
