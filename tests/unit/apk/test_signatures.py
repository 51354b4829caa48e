"""Signed means verified: every scheme an APK carries (v1, v2, v3) is checked over its bytes,
so content grafted onto a victim's signature, a flipped bit or a stripped scheme is refused,
and an update is accepted only from the installed package's signers (sim/apk/signing.py).

APKs are signed here by Debian's apksigner, which must agree: what it rejects is refused."""

from __future__ import annotations

import base64
import hashlib
import io
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from droid.os import IllegalArgumentException
from sim.apk.decode import decode_apk
from sim.apk.errors import ApkError
from sim.apk.signing import V2_BLOCK_ID, V3_BLOCK_ID, Signing
from tests.apks.build import HERE, build_unsigned, missing_tools, sign
from tests.hostile_apks import grafted, signing_block, unsigned_part, without_pair
from tests.unit.apk.conftest import APKS, SHOP, apk_bytes, rewritten
from tests.unit.apk.test_install_apk import certificate_digest

pytestmark = pytest.mark.skipif(shutil.which("apksigner") is None,
                                reason="signing test APKs needs apksigner (Debian: apksigner)")
TEST_KEY = certificate_digest("test")


@pytest.fixture
def signed(tmp_path: Path):
    """``signed(schemes, data=shop.apk)``: the APK's bytes signed with the test key by apksigner."""
    def signed(schemes: tuple[str, ...] = ("v1", "v2", "v3"), data: bytes | None = None) -> bytes:
        unsigned, out = tmp_path / "unsigned.apk", tmp_path / "signed.apk"
        unsigned.write_bytes(data if data is not None else apk_bytes())
        sign(unsigned, "test", out, schemes)
        return out.read_bytes()

    return signed


def apksigner_verify(data: bytes, tmp_path: Path, min_sdk: int | None = None) -> subprocess.CompletedProcess:
    """``apksigner verify``; ``min_sdk`` 23: as on Android 6, where v1 is what counts (newer
    SDKs want v2 of an APK targeting 30 or later, which install checks: see the tests below)."""
    path = tmp_path / "checked.apk"
    path.write_bytes(data)
    sdk = ["--min-sdk-version", str(min_sdk), "--max-sdk-version", str(min_sdk)] if min_sdk is not None else []
    return subprocess.run(["apksigner", "verify", *sdk, path], capture_output=True, text=True)


def apksigner_accepts(data: bytes, tmp_path: Path, min_sdk: int | None = None) -> bool:
    return apksigner_verify(data, tmp_path, min_sdk).returncode == 0


def refused(data: bytes, message: str) -> None:
    with pytest.raises(ApkError) as raised:
        decode_apk(data, "app.apk", 37)
    assert str(raised.value) == message


def hostile_content() -> bytes:
    """The shop with one function's XML changed: what an attacker would graft."""
    text = zipfile.ZipFile(io.BytesIO(apk_bytes())).read("assets/order_functions.xml")
    return rewritten(apk_bytes(), {"assets/order_functions.xml": text.replace(b"true", b"false", 1)})


@pytest.mark.parametrize("schemes", [("v1",), ("v2",), ("v3",), ("v1", "v2"), ("v1", "v2", "v3")])
def test_each_scheme_verifies_and_names_its_signer(signed, schemes, tmp_path):
    data = signed(schemes)
    assert apksigner_accepts(data, tmp_path, 23 if schemes == ("v1",) else None)
    assert decode_apk(data, "app.apk", 37).signing == Signing(schemes, (TEST_KEY,))


@pytest.mark.parametrize("scheme", ["v2", "v3"])
def test_content_grafted_onto_a_victims_signing_block_is_refused(signed, scheme, tmp_path):
    """The attack of issue 32: the victim's signing block (naming the victim's certificate)
    before the attacker's entries. Only the scheme under test is kept, v1 left out."""
    victim = signed((scheme,))
    attack = grafted(signing_block(victim)[0], hostile_content())
    assert not apksigner_accepts(attack, tmp_path)
    refused(attack, f"INSTALL_PARSE_FAILED_NO_CERTIFICATES: app.apk's APK Signature Scheme {scheme} signature does "
                    f"not verify: the APK's contents are not what its signer signed (sha256 digest differs)")


def test_content_grafted_with_the_victims_jar_signature_is_refused(signed, tmp_path):
    victim = signed(("v1",))
    meta = {info.filename: zipfile.ZipFile(io.BytesIO(victim)).read(info)
            for info in zipfile.ZipFile(io.BytesIO(victim)).infolist() if info.filename.startswith("META-INF/")}
    attack = rewritten(hostile_content(), add=meta)
    assert not apksigner_accepts(attack, tmp_path, 23)
    refused(attack, "INSTALL_PARSE_FAILED_NO_CERTIFICATES: app.apk's v1 (JAR) signature does not verify: "
                    "assets/order_functions.xml is not what was signed (SHA-256 digest differs)")


def test_an_entry_added_after_jar_signing_is_refused(signed, tmp_path):
    attack = rewritten(signed(("v1",)), add={"assets/extra.xml": b"<x/>"})
    assert not apksigner_accepts(attack, tmp_path, 23)
    refused(attack, "INSTALL_PARSE_FAILED_NO_CERTIFICATES: app.apk's v1 (JAR) signature does not verify: "
                    "assets/extra.xml is not in META-INF/MANIFEST.MF: it was added after signing")


def with_manifest_section(data: bytes, entry: str, content: bytes) -> bytes:
    """``data`` with ``entry`` added and a MANIFEST.MF section of its own giving its true digest."""
    manifest = zipfile.ZipFile(io.BytesIO(data)).read("META-INF/MANIFEST.MF")
    digest = base64.b64encode(hashlib.sha256(content).digest()).decode()
    section = f"Name: {entry}\r\nSHA-256-Digest: {digest}\r\n\r\n".encode()
    return rewritten(data, {"META-INF/MANIFEST.MF": manifest + section}, add={entry: content})


def test_an_entry_added_with_a_manifest_section_of_its_own_is_not_signed(signed, tmp_path):
    """H01: MANIFEST.MF lists the added entry with its true digest, so every entry is in the
    manifest and every digest holds; but no signer's .SF names it, and an entry is signed only
    by the signers whose .SF names it: apksigner says "entry not signed", and so does install."""
    attack = with_manifest_section(signed(("v1",)), "assets/extra.xml", b"<x/>")
    verified = apksigner_verify(attack, tmp_path, 23)
    assert verified.returncode != 0 and "assets/extra.xml entry not signed" in verified.stdout + verified.stderr
    refused(attack, "INSTALL_PARSE_FAILED_NO_CERTIFICATES: app.apk's v1 (JAR) signature does not verify: "
                    "assets/extra.xml entry not signed: no signature file names it (it was added after signing)")


def test_an_entry_replaced_with_its_manifest_section_is_refused_by_the_signature_file(signed, tmp_path):
    """The section of a signed entry rewritten for new content: the .SF's digest of that
    section (MANIFEST.MF's own no longer holds) catches it."""
    victim = signed(("v1",))
    text = zipfile.ZipFile(io.BytesIO(victim)).read("assets/order_functions.xml").replace(b"true", b"false", 1)
    manifest = zipfile.ZipFile(io.BytesIO(victim)).read("META-INF/MANIFEST.MF").decode()
    digest = base64.b64encode(hashlib.sha256(text).digest()).decode()
    manifest = re.sub(r"(Name: assets/order_functions.xml\r\nSHA-256-Digest: )\S+", lambda m: m[1] + digest, manifest)
    attack = rewritten(victim, {"META-INF/MANIFEST.MF": manifest.encode(), "assets/order_functions.xml": text})
    assert not apksigner_accepts(attack, tmp_path, 23)
    refused(attack, "INSTALL_PARSE_FAILED_NO_CERTIFICATES: app.apk's v1 (JAR) signature does not verify: "
                    "META-INF/TEST.SF does not match META-INF/MANIFEST.MF (for 'assets/order_functions.xml')")


def test_a_file_of_meta_inf_outside_the_manifest_is_left_unprotected_as_apksigner_leaves_it(signed, tmp_path):
    """apksigner warns of a META-INF/ entry no signature covers, and Android installs it: an
    APK's META-INF/ holds what tools add after signing (version files, a source stamp)."""
    data = rewritten(signed(("v1",)), add={"META-INF/extra.properties": b"x=1"})
    assert apksigner_accepts(data, tmp_path, 23)
    assert decode_apk(data, "app.apk", 37).signing == Signing(("v1",), (TEST_KEY,))


def test_signed_data_changed_by_one_bit_is_refused(signed, tmp_path):
    """The first digest the v2 signer signed, one bit flipped: the signature no longer holds."""
    victim = signed(("v2",))
    block, cd_offset, _ = signing_block(victim)
    first_pair = cd_offset - len(block) + 8
    assert int.from_bytes(victim[first_pair + 8:first_pair + 12], "little") == V2_BLOCK_ID
    flipped = bytearray(victim)
    # The pair's id, then the lengths of: signers, the signer, its signed data, its digests, the
    # first digest; its algorithm; its length: then the digest's first byte.
    flipped[first_pair + 12 + 28] ^= 1
    assert not apksigner_accepts(bytes(flipped), tmp_path)
    refused(bytes(flipped), "INSTALL_PARSE_FAILED_NO_CERTIFICATES: app.apk's APK Signature Scheme v2 signature does "
                            "not verify: its signature (algorithm 0x0103) does not verify with its public key")


def test_a_stripped_v3_signature_is_refused(signed, tmp_path):
    """apksigner's v2 signer records that a v3 signature was made; without it the APK may have
    been rolled back to a key the v3 lineage retired."""
    victim = signed(("v2", "v3"))
    stripped = grafted(without_pair(signing_block(victim)[0], V3_BLOCK_ID), unsigned_part(victim))
    assert not apksigner_accepts(stripped, tmp_path)
    refused(stripped, "INSTALL_PARSE_FAILED_NO_CERTIFICATES: app.apk's APK Signature Scheme v2 signature does not "
                      "verify: its signer says the APK was signed with v3 too, and it has no v3 signature (stripped?)")


def test_a_stripped_signing_block_is_refused_by_the_jar_signature(signed, tmp_path):
    victim = signed(("v1", "v2"))
    stripped = grafted(without_pair(signing_block(victim)[0], V2_BLOCK_ID), unsigned_part(victim))
    assert not apksigner_accepts(stripped, tmp_path)
    refused(stripped, "INSTALL_PARSE_FAILED_NO_CERTIFICATES: app.apk's v1 (JAR) signature does not verify: "
                      "META-INF/TEST.SF says the APK was signed with v2 too, and it has no v2 signature (stripped?)")


def test_an_update_grafted_onto_the_installed_signers_block_is_refused(device, signed, write_apk):
    """Installed signed by the test key; the update carries that key's signing block over other
    content: refused, the installed version untouched."""
    device.install(APKS / "shop-signed.apk")
    before = device.registry.get(SHOP).metadata.SerializeToString()
    attack = grafted(signing_block(apk_bytes("shop-signed.apk"))[0], hostile_content())
    with pytest.raises(IllegalArgumentException, match=r"^INSTALL_PARSE_FAILED_NO_CERTIFICATES: app.apk's APK "
                                                       r"Signature Scheme v2 signature does not verify"):
        device.install(write_apk(attack))
    assert device.registry.get(SHOP).metadata.SerializeToString() == before


@pytest.fixture(scope="module")
def shop_targeting(tmp_path_factory):
    """``shop_targeting(sdk)``: the shop app built by aapt2 to target ``sdk``, signed with v1 only."""
    if missing := missing_tools():
        pytest.skip(f"building an APK needs {', '.join(missing)} (Debian: aapt, zipalign, apksigner, android-framework-res)")
    folder = tmp_path_factory.mktemp("targets")

    def built(sdk: int) -> Path:
        unsigned, out = folder / f"shop-{sdk}.apk", folder / f"shop-{sdk}-v1.apk"
        build_unsigned(HERE / "shop", unsigned, min_sdk="24", target_sdk=str(sdk))
        sign(unsigned, "test", out, ("v1",))
        return out

    return built


def test_an_app_targeting_sdk_30_or_higher_signed_with_v1_only_is_refused_as_android_11_refuses_it(
        device, shop_targeting, tmp_path):
    apk = shop_targeting(30)
    verified = apksigner_verify(apk.read_bytes(), tmp_path)
    assert "Target SDK version 30 requires a minimum of signature scheme v2" in verified.stdout + verified.stderr
    with pytest.raises(IllegalArgumentException) as raised:
        device.install(apk)
    assert str(raised.value) == (
        f"INSTALL_PARSE_FAILED_NO_CERTIFICATES: No signature found in package of version 2 or newer for package "
        f"{SHOP}: it targets SDK 30, and Android 11 and newer require APK Signature Scheme v2 or newer of an app "
        f"that targets SDK 30 or higher; {apk.name} is signed with v1 only (sign it with apksigner, which adds v2 "
        "and v3)")
    assert device.registry.all() == []


def test_an_app_targeting_sdk_29_installs_signed_with_v1_only(device, shop_targeting, tmp_path):
    apk = shop_targeting(29)
    assert apksigner_accepts(apk.read_bytes(), tmp_path)
    source = device.install(apk).metadata.installed_from
    assert (list(source.signing_schemes), list(source.certificate_sha256)) == (["v1"], [TEST_KEY])
