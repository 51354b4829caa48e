"""APKs a developer did not write, opened by the tools (apk inspect, apk extract, lint,
responses skeleton), by the pytest plugin's device and by install: nothing is written outside
the folder the tool was given or its own temporary folder, memory and time stay bounded, and
each refusal names the bound (issue 32; sim/pm/apk_tools.py, sim/pm/spare_decoder.py).

Each tool runs as a user runs it, in a process of its own, under a 1 GiB address-space limit:
a tool that inflated a zip bomb or decoded in its own process beyond that fails here instead
of passing slowly. The APKs are made from bytes (tests/hostile_apks.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from droid.os import IllegalArgumentException
from sim.device import Device
from sim.testing.device import TestDevice
from tests.helpers import REPO, bounded_droidsim
from tests.hostile_apks import (
    FUNCTIONS_XML,
    Element,
    binary_xml,
    deflated,
    deflated_zeros,
    manifest,
    nested,
    raw_zip,
    zip_of,
)

pytestmark = pytest.mark.slow

pytest.importorskip("androguard", reason="reading APKs needs the apk extra: pip install 'droidsim[apk]'")


def droidsim(*args: object, cwd: Path) -> subprocess.CompletedProcess:
    """The CLI in a process of its own, as a user runs it, held to 1 GiB of address space."""
    return bounded_droidsim(*args, cwd=cwd)


def install_refusal(apk: Path, data_dir: Path) -> str:
    with Device(data_dir, isolated_apps=False) as device:
        with pytest.raises(IllegalArgumentException) as refused:
            device.install(apk)
        assert device.registry.all() == []
    return str(refused.value)


def every_tool_refuses(apk: Path, work: Path, refusal: str) -> None:
    """apk inspect, apk extract, lint and responses skeleton each end with ``refusal``, and
    extract and skeleton write nothing."""
    inspected = droidsim("apk", "inspect", apk, "--json", cwd=work)
    assert inspected.returncode == 1, inspected.stderr
    assert json.loads(inspected.stdout)["refusal"] == refusal
    extracted = droidsim("apk", "extract", apk, work / "extracted", cwd=work)
    assert (extracted.returncode, extracted.stderr) == (1, f"Error: {refusal}\n")
    linted = droidsim("lint", apk, "--json", cwd=work)
    assert linted.returncode == 2, linted.stderr
    assert json.loads(linted.stdout)["apps"][0]["error"] == refusal
    skeleton = droidsim("responses", "skeleton", apk, work / "double", cwd=work)
    assert (skeleton.returncode, skeleton.stderr) == (
        1, f"Error: {apk} is neither an app folder nor an APK droidsim can read: {refusal}\n")
    assert not (work / "extracted").exists() and not (work / "double").exists()


@pytest.mark.parametrize("form", ["relative", "absolute"])
def test_a_package_that_is_a_path_is_refused_by_every_tool_as_install_refuses_it(tmp_path, form):
    """The tools decoded into <temp>/<package>: this package led there, out of the temporary
    folder, and the APK's manifest and assets were written into it."""
    target = tmp_path / "escaped"
    package = "../" * 16 + str(target).lstrip("/") if form == "relative" else str(target)
    apk = tmp_path / "hostile.apk"
    apk.write_bytes(zip_of({"AndroidManifest.xml": binary_xml(manifest(package)), "assets/functions.xml": FUNCTIONS_XML}))
    refusal = install_refusal(apk, tmp_path / "data")
    assert refusal == (f"INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: hostile.apk!/AndroidManifest.xml:2: Element "
                       f"'manifest', attribute 'package': [facet 'pattern'] The value '{package}' is not accepted by "
                       f"the pattern '[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)+'.")
    every_tool_refuses(apk, tmp_path, refusal)
    assert not target.exists()


def test_binary_xml_nested_200000_deep_is_refused_at_once_naming_the_bound(tmp_path):
    """Building the tree took time that grows with the square of its depth: minutes, at 200,000."""
    apk = tmp_path / "deep.apk"
    apk.write_bytes(zip_of({"AndroidManifest.xml": binary_xml(nested(200_000))}))
    refusal = install_refusal(apk, tmp_path / "data")
    assert refusal == ("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: deep.apk!/AndroidManifest.xml nests elements deeper "
                       "than 64 levels, the device's bound")
    every_tool_refuses(apk, tmp_path, refusal)


def test_an_asset_name_of_5000_bytes_is_an_install_error_naming_the_bound(tmp_path):
    """I04: the decoded asset's file could not be created (ENAMETOOLONG), an internal error. The
    tools write the decoded folder the same way (sim/pm/apk_tools.py), and refuse it alike."""
    name = "a" * 5000 + ".xml"
    apk = tmp_path / "long.apk"
    apk.write_bytes(zip_of({"AndroidManifest.xml": binary_xml(manifest("com.example.longname", name)),
                            f"assets/{name}": FUNCTIONS_XML}))
    refusal = install_refusal(apk, tmp_path / "data")
    bounds = os.pathconf(tmp_path, "PC_NAME_MAX"), os.pathconf(tmp_path, "PC_PATH_MAX")  # 255 and 4096 on Linux
    assert refusal == (f"INSTALL_FAILED_INVALID_APK: the APK's entry assets/{'a' * 33}…{'a' * 12}.xml has a name of "
                       "5011 bytes: droidsim keeps an APK's assets and resources as files, and this file system takes "
                       f"names of at most {bounds[0]} bytes (paths of at most {bounds[1]})")
    extracted = droidsim("apk", "extract", apk, tmp_path / "extracted", cwd=tmp_path)
    assert (extracted.returncode, extracted.stderr) == (1, f"Error: {refusal}\n")


def signature_bomb(declared: int) -> bytes:
    """A 1 MB APK whose META-INF/CERT.RSA inflates to 1000 MiB, declaring ``declared`` bytes;
    the rest of a v1 signature is there, so that a reader gets as far as the block file."""
    entries = [("AndroidManifest.xml", *deflated(binary_xml(manifest("com.example.bomb")))),
               ("assets/functions.xml", *deflated(FUNCTIONS_XML)),
               ("META-INF/MANIFEST.MF", *deflated(b"Manifest-Version: 1.0\r\n\r\n")),
               ("META-INF/CERT.SF", *deflated(b"Signature-Version: 1.0\r\n\r\n")),
               ("META-INF/CERT.RSA", deflated_zeros(1000), declared, 0)]
    return raw_zip(entries)


def test_a_signature_file_that_declares_1000_mib_is_refused_unread(tmp_path):
    """androguard's signature reader opened the zip itself and inflated it whole (2 GB)."""
    apk = tmp_path / "bomb.apk"
    apk.write_bytes(signature_bomb(1000 << 20))
    refusal = install_refusal(apk, tmp_path / "data")
    assert refusal == ("INSTALL_FAILED_INVALID_APK: bomb.apk!/META-INF/CERT.RSA declares 1048576000 bytes; the "
                       "device reads at most 33554432")
    every_tool_refuses(apk, tmp_path, refusal)


def test_a_signature_file_that_inflates_past_what_it_declares_is_cut_there(tmp_path):
    """It declares 1000 bytes: read up to them and then refused by its CRC, never inflated
    whole (ZipFile.read inflates every compressed byte before it cuts the result)."""
    apk = tmp_path / "liar.apk"
    apk.write_bytes(signature_bomb(1000))
    refusal = install_refusal(apk, tmp_path / "data")
    assert refusal == ("INSTALL_FAILED_INVALID_APK: liar.apk!/META-INF/CERT.RSA cannot be inflated: Bad CRC-32 for "
                       "file 'META-INF/CERT.RSA'")
    every_tool_refuses(apk, tmp_path, refusal)


def never_loaded_here(code: str, *args: object) -> None:
    """``code`` run in a fresh interpreter loads none of the libraries that read an APK
    (androguard; asn1crypto, which reads v1 signatures): the APK was read in the verifier's spare."""
    probe = (f"import sys\nfrom pathlib import Path\n{code}\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('androguard', 'asn1crypto')))")
    result = subprocess.run([sys.executable, "-c", probe, *map(str, args)], capture_output=True, text=True,
                            timeout=120, cwd=REPO)
    assert (result.returncode, result.stdout) == (0, "[]\n"), result.stderr


def test_the_tools_never_read_an_apk_in_the_users_own_process():
    never_loaded_here("from sim.pm.apk_tools import extracted\n"
                      "with extracted(Path(sys.argv[1]), 37) as (folder, decoded):\n"
                      "    assert folder.name == 'app' and decoded.package == 'com.example.shop'",
                      REPO / "tests" / "apks" / "shop-signed.apk")


def test_the_plugins_device_reads_an_apk_in_the_verifiers_spare(tmp_path):
    """TestDevice runs apps in the test's process, but decodes an APK as the device does."""
    never_loaded_here("from sim.testing.device import TestDevice\n"
                      "with TestDevice(Path(sys.argv[2])) as device:\n"
                      "    assert device.install(sys.argv[1]).package_name == 'com.example.shop'",
                      REPO / "tests" / "apks" / "shop-signed.apk", tmp_path / "data")
    apk = tmp_path / "deep.apk"
    apk.write_bytes(zip_of({"AndroidManifest.xml": binary_xml(nested(200_000))}))
    with TestDevice(tmp_path / "data2") as device, pytest.raises(IllegalArgumentException) as refused:
        device.install(apk)
    assert str(refused.value) == ("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: deep.apk!/AndroidManifest.xml nests "
                                  "elements deeper than 64 levels, the device's bound")


def test_binary_xml_of_500000_elements_is_refused_at_the_element_bound(tmp_path):
    apk = tmp_path / "wide.apk"
    wide = Element("manifest", {"package": "com.example.wide"}, [Element("x") for _ in range(500_000)])
    apk.write_bytes(zip_of({"AndroidManifest.xml": binary_xml(wide)}))
    refusal = install_refusal(apk, tmp_path / "data")
    assert refusal == ("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: wide.apk!/AndroidManifest.xml holds more than 100000 "
                       "elements, the device's bound")
    inspected = droidsim("apk", "inspect", apk, "--json", cwd=tmp_path)
    assert json.loads(inspected.stdout)["refusal"] == refusal


def test_decoded_text_past_what_install_reads_is_refused_before_a_tool_holds_it(tmp_path):
    """Four function assets of 31 MiB each (127 KB of APK): the answer would be 124 MiB of text,
    which the tool would hold, with its JSON, in its own memory."""
    big = b"<appfunctions>" + b"x" * (31 << 20) + b"</appfunctions>"
    names = ["a.xml", "b.xml", "c.xml", "d.xml"]
    root = Element("manifest", {"package": "com.example.fat"}, [Element("application", {}, [
        Element("property", {"android:name": "android.app.appfunctions", "android:value": ",".join(names)})])])
    apk = tmp_path / "fat.apk"
    apk.write_bytes(zip_of({"AndroidManifest.xml": binary_xml(root), **{f"assets/{n}": big for n in names}}))
    refusal = install_refusal(apk, tmp_path / "data")
    assert refusal == ("INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION: decoding fat.apk answered more than 32 MiB of text, "
                       "the decoder's bound")
    every_tool_refuses(apk, tmp_path, refusal)
