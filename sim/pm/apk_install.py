"""Installing an APK: staged as the text folder the install pipeline reads, decoded outside the device.

The installer hands an APK here before anything else: its bytes are read once (bounded); the
verifier's child decodes them (sim/apk; a crash or hang there costs the child, never the
device) while the device writes them into the staging folder as ``base.apk``, as Android keeps
``/data/app/<pkg>/base.apk``, and then what the child answered, each name checked, beside it. From there on
the APK is a code-less app folder, and its errors name the APK's own entries
(``shop.apk!/assets/order_functions.xml:12``).
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from sim.apk.errors import ApkError
from sim.apk.folder import read_apk, write_folder, write_new
from sim.xmlsafe import parse_xml
from droidsim.v1.metadata_pb2 import InstalledFrom
from sim.pm.install_error import InstallError
from sim.pm.installed_from import APK, signers
from sim.pm.manifest import TARGET_R, target_sdk
from sim.pm.registry import InstalledPackage

if TYPE_CHECKING:
    from sim.apk.decode import DecodedApk
    from sim.pm.code_verifier import CodeVerifier
    from sim.pm.decoded_apks import DecodedApks

APK_FILE = "base.apk"
log = logging.getLogger("droidsim.pm")


def stage_apk(apk: Path, staging: Path, verifier: CodeVerifier, sdk: int,
              decoded_apks: DecodedApks) -> tuple[DecodedApk, InstalledFrom]:
    """The APK at ``apk`` decoded for ``sdk`` into the new folder ``staging``; bytes decoded
    before for ``sdk`` are not decoded again (sim/pm/decoded_apks.py)."""
    def stage_copy() -> None:  # the bytes decoded are the bytes kept: the APK is read once
        staging.mkdir(mode=0o755)
        staging.chmod(0o755)
        write_new(staging / APK_FILE, data)

    try:
        data = read_apk(apk)
        digest = hashlib.sha256(data).hexdigest()
        decoded = decoded_apks.get(digest, sdk)
        if decoded is None:
            decoded = verifier.decode_apk(data, APK_FILE, sdk, while_decoding=stage_copy)
            decoded_apks.keep(digest, sdk, decoded)
        else:
            log.info("%s: these bytes (SHA-256 %s) were decoded for SDK %d before: not decoded again",
                     apk.name, digest[:16], sdk)
            stage_copy()
        write_folder(decoded, staging)
    except ApkError as error:
        raise InstallError(error.reason, error.detail.replace(APK_FILE, apk.name)) from None
    signing = decoded.signing
    return decoded, InstalledFrom(kind=APK, file_name=apk.name, sha256=digest,
                                  signing_schemes=signing.schemes, certificate_sha256=signing.certificate_digests)


def check_signers(package_name: str, previous: InstalledPackage | None, source: InstalledFrom) -> None:
    """An update must be signed by the installed package's signers, as on Android; a folder and
    an unsigned APK have none, so either updates the other but not a signed APK."""
    if previous is None:
        return
    before, now = signers(previous.metadata.installed_from), signers(source)
    if before != now:
        raise InstallError(
            "INSTALL_FAILED_UPDATE_INCOMPATIBLE",
            f"{package_name} is installed signed by {_signers(before)}; this update is signed by {_signers(now)} "
            f"(uninstall it first to replace it)",
        )


def check_minimum_scheme(package_name: str, staged_manifest: Path, source: InstalledFrom) -> None:
    """Android 11 and newer refuse an APK signed with v1 only when it targets SDK 30 or higher
    (ApkSignatureVerifier.getMinimumSignatureSchemeVersionForTargetSdk, checked at install by
    assertMinSignatureSchemeIsValid); an unsigned APK is droidsim's own allowance (install warns)."""
    if tuple(source.signing_schemes) != ("v1",):
        return
    target = target_sdk(parse_xml(staged_manifest, what="manifest"))
    if target >= TARGET_R:
        raise InstallError(
            "INSTALL_PARSE_FAILED_NO_CERTIFICATES",
            f"No signature found in package of version 2 or newer for package {package_name}: it targets SDK "
            f"{target}, and Android 11 and newer require APK Signature Scheme v2 or newer of an app that targets "
            f"SDK {TARGET_R} or higher; {source.file_name} is signed with v1 only (sign it with apksigner, which "
            "adds v2 and v3)")


def _signers(digests: tuple[str, ...]) -> str:
    return ", ".join(f"certificate SHA-256 {d}" for d in digests) if digests else "no one (unsigned or a folder)"
