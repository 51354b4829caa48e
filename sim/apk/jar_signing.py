"""An APK's v1 (JAR) signature, verified as apksigner's V1SchemeVerifier checks it.

Each signature block file (``META-INF/NAME.RSA``, ``.DSA`` or ``.EC``) is a PKCS #7 SignedData
whose signer signs ``META-INF/NAME.SF`` (directly, or through signed attributes holding its
digest); the .SF holds the digest of ``META-INF/MANIFEST.MF`` (whole, or its main attributes
and section by section) and names each entry it signs in a section of its own; MANIFEST.MF holds
the digest of every entry of the APK. As on Android, an entry is signed by a signer only if that
signer's .SF names it: every entry outside ``META-INF/`` must be in MANIFEST.MF with its digest
and named by the .SF of the same signers as every other entry, so an entry added after signing,
with a MANIFEST.MF section written for it or not, is refused ("entry not signed", apksigner's
words). The .SF's ``X-Android-APK-Signed`` names the newer schemes the signer also used: one of
them missing means it was stripped, and is refused. Stricter than apksigner in what no signing
tool writes: a signature block without its .SF, or a malformed .SF section, is refused rather
than ignored.

Every entry is read through :class:`sim.apk.archive.ApkArchive` (bounded by the sizes it
declares), the signature block parsed by asn1crypto and checked by cryptography, which
androguard brings; nothing here opens the zip itself.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass

from sim.apk.archive import ApkArchive
from sim.apk.errors import ApkError

_BLOCK = re.compile(r"META-INF/([^/]+)\.(RSA|DSA|EC)")
_MANIFEST = "META-INF/MANIFEST.MF"
# JAR digest attribute names, strongest first, and hashlib's names for them.
_DIGESTS = (("SHA-512", "sha512"), ("SHA-384", "sha384"), ("SHA-256", "sha256"), ("SHA1", "sha1"))


class _Refused(Exception):
    pass


def jar_signers(archive: ApkArchive, apk_signed_with: set[int]) -> list[bytes]:
    """The certificates (DER) of the APK's v1 signers, each verified; [] if it has no v1
    signature. ``apk_signed_with``: the newer schemes whose signatures the APK has."""
    blocks = [(entry, match[1]) for entry in archive.entries() if (match := _BLOCK.fullmatch(entry))]
    if not blocks:
        return []
    try:
        if not archive.has(_MANIFEST):
            raise _Refused(f"it has no {_MANIFEST}")
        manifest = archive.read(_MANIFEST)
        sections = _manifest_sections(archive, manifest)
        signers = [_verified_block(archive, entry, name, manifest, sections, apk_signed_with) for entry, name in blocks]
        _check_entries(archive, sections, signers)
    except (_Refused, ValueError, KeyError, TypeError) as error:
        raise ApkError("INSTALL_PARSE_FAILED_NO_CERTIFICATES",
                       f"{archive.name}'s v1 (JAR) signature does not verify: {error}") from None
    return [signer.certificate for signer in signers]


@dataclass(frozen=True)
class _Signer:
    name: str  # the signature block's file name, as apksigner names a signer (CERT.RSA)
    certificate: bytes
    signs: frozenset[str]  # the entries its .SF names


def _manifest_sections(archive: ApkArchive, manifest: bytes) -> dict[str, tuple[bytes, dict[str, str]]]:
    """MANIFEST.MF's individual sections by the entry each names (V1SchemeVerifier.parseManifest)."""
    by_name: dict[str, tuple[bytes, dict[str, str]]] = {}
    for number, (raw, attributes) in enumerate(_sections(manifest)[1:], start=1):
        name = attributes.get("Name")
        if name is None:
            raise _Refused(f"Malformed {_MANIFEST}: individual section #{number} does not have a name")
        if name in by_name:
            raise _Refused(f"Duplicate section in {_MANIFEST}: {name}")
        if not archive.has(name):
            raise _Refused(f"{name} entry referenced by {_MANIFEST} not found in the APK")
        by_name[name] = (raw, attributes)
    return by_name


def _verified_block(archive: ApkArchive, entry: str, name: str, manifest: bytes,
                    manifest_sections: dict[str, tuple[bytes, dict[str, str]]], apk_signed_with: set[int]) -> _Signer:
    signature_file = f"META-INF/{name}.SF"
    if not archive.has(signature_file):
        raise _Refused(f"{entry} has no {signature_file}")
    sf = archive.read(signature_file)
    certificate = _signer_of(archive.read(entry), sf, entry)
    sections = _sections(sf)
    main = sections[0][1] if sections else {}
    for scheme in re.findall(r"\d+", main.get("X-Android-APK-Signed", "")):
        if int(scheme) in (2, 3) and int(scheme) not in apk_signed_with:
            raise _Refused(f"{signature_file} says the APK was signed with v{scheme} too, and it has no v{scheme} "
                           "signature (stripped?)")
    main_attributes = _sections(manifest)[0][0] if manifest else b""
    if _digest_matches(main, "-Manifest-Main-Attributes", main_attributes) is False:
        raise _Refused(f"the digest of {_MANIFEST}'s main section does not match the one {signature_file} gives")
    whole = _digest_matches(main, "-Manifest", manifest)
    signs = set()
    for _raw, attributes in sections[1:]:
        section_name = attributes.get("Name")
        if section_name is None or section_name in signs:
            raise _Refused(f"{signature_file} has a section without a name, or two for {section_name}")
        signs.add(section_name)
        if whole:  # the manifest verifies whole: its sections need no digest of their own
            continue
        section = manifest_sections.get(section_name)
        if section is None or not _digest_matches(attributes, "", section[0]):
            raise _Refused(f"{signature_file} does not match {_MANIFEST} (for {section_name!r})")
    return _Signer(entry.removeprefix("META-INF/"), certificate, frozenset(signs))


def _signer_of(block: bytes, signed: bytes, entry: str) -> bytes:
    """The certificate of the PKCS #7 signer whose signature over ``signed`` verifies."""
    from asn1crypto import cms
    from cryptography import x509

    content = cms.ContentInfo.load(block)
    if content["content_type"].native != "signed_data":
        raise _Refused(f"{entry} is not PKCS #7 SignedData")
    signed_data = content["content"]
    signers = list(signed_data["signer_infos"])
    if len(signers) != 1:
        raise _Refused(f"{entry} has {len(signers)} signers; an APK's has one")
    signer = signers[0]
    identifier = signer["sid"].chosen
    certificates = [c.chosen for c in signed_data["certificates"] or [] if c.name == "certificate"]
    certificate = next((c for c in certificates if c.issuer == identifier["issuer"]
                        and c.serial_number == identifier["serial_number"].native), None)
    if certificate is None:
        raise _Refused(f"{entry} does not hold its signer's certificate")
    digest_name = signer["digest_algorithm"]["algorithm"].native
    message = signed
    if signer["signed_attrs"].native is not None:
        attributes = {a["type"].native: a["values"][0] for a in signer["signed_attrs"]}
        if attributes.get("message_digest") is None or \
                attributes["message_digest"].native != hashlib.new(digest_name, signed).digest():
            raise _Refused(f"{entry}'s signed attributes do not hold the digest of its .SF")
        message = b"\x31" + signer["signed_attrs"].dump()[1:]  # signed as a SET, not as [0]
    key = x509.load_der_x509_certificate(certificate.dump()).public_key()
    _verify(key, signer["signature"].native, message, digest_name, entry)
    return certificate.dump()


def _verify(key: object, signature: bytes, message: bytes, digest_name: str, entry: str) -> None:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import dsa, ec, padding, rsa

    digest = {"sha1": hashes.SHA1(), "sha224": hashes.SHA224(), "sha256": hashes.SHA256(),
              "sha384": hashes.SHA384(), "sha512": hashes.SHA512()}[digest_name]
    try:
        if isinstance(key, rsa.RSAPublicKey):
            key.verify(signature, message, padding.PKCS1v15(), digest)
        elif isinstance(key, ec.EllipticCurvePublicKey):
            key.verify(signature, message, ec.ECDSA(digest))
        elif isinstance(key, dsa.DSAPublicKey):
            key.verify(signature, message, digest)
        else:
            raise _Refused(f"{entry}'s key is of a kind an APK is not signed with")
    except InvalidSignature:
        raise _Refused(f"{entry}'s signature over its .SF does not verify") from None


def _check_entries(archive: ApkArchive, manifest_sections: dict[str, tuple[bytes, dict[str, str]]],
                   signers: list[_Signer]) -> None:
    """Every entry outside META-INF/ is in MANIFEST.MF with its digest, and signed by the same
    signers as every other: named by each of their .SF files (verifyJarEntriesAgainstManifestAndSigners)."""
    first: tuple[str, list[str]] | None = None
    for entry in archive.entries():
        if entry.startswith("META-INF/") or entry.endswith("/"):
            continue
        section = manifest_sections.get(entry)
        if section is None:
            raise _Refused(f"{entry} is not in {_MANIFEST}: it was added after signing")
        names = [signer.name for signer in signers if entry in signer.signs]
        if not names:
            raise _Refused(f"{entry} entry not signed: no signature file names it (it was added after signing)")
        if first is None:
            first = (entry, names)
        elif names != first[1]:
            raise _Refused(f"Entries {first[0]} and {entry} are signed with different sets of signers: "
                           f"<{', '.join(first[1])}> vs <{', '.join(names)}>")
        attributes = section[1]
        for label, name in _DIGESTS:
            if f"{label}-Digest" in attributes:
                if base64.b64decode(attributes[f"{label}-Digest"]) != archive.digest(entry, name):
                    raise _Refused(f"{entry} is not what was signed ({label} digest differs)")
                break
        else:
            raise _Refused(f"{_MANIFEST} gives {entry} no digest droidsim verifies")
    if first is None:
        raise _Refused("No JAR entries covered by JAR signatures")


def _digest_matches(attributes: dict[str, str], suffix: str, data: bytes) -> bool | None:
    """Whether the strongest ``*-Digest{suffix}`` attribute is ``data``'s digest; None if there is none."""
    for label, name in _DIGESTS:
        if (value := attributes.get(f"{label}-Digest{suffix}")) is not None:
            return base64.b64decode(value) == hashlib.new(name, data).digest()
    return None


def _sections(data: bytes) -> list[tuple[bytes, dict[str, str]]]:
    """A manifest's sections: each one's bytes (with the blank line that ends it, as digested)
    and its attributes, continuation lines joined."""
    sections = []
    for raw in re.findall(rb"(?:[^\r\n]+(?:\r\n|\n|\r))+(?:\r\n|\n|\r)?|[^\r\n]+$", data):
        attributes: dict[str, str] = {}
        last = None
        for line in re.split(r"\r\n|\n|\r", raw.decode("utf-8")):
            if line.startswith(" ") and last is not None:
                attributes[last] += line[1:]
            elif ":" in line:
                last, _, value = line.partition(":")
                attributes[last] = value.strip()
        sections.append((raw, attributes))
    return sections
