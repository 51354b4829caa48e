"""An APK's v1 (JAR) signature, verified as apksigner's V1SchemeVerifier checks it.

Each signature block file (``META-INF/NAME.RSA``, ``.DSA`` or ``.EC``) is a PKCS #7 SignedData
whose signer signs ``META-INF/NAME.SF`` (directly, or through signed attributes holding its
digest); the .SF holds the digest of ``META-INF/MANIFEST.MF`` (whole, or section by section);
MANIFEST.MF holds the digest of every entry of the APK. All of that is checked, so content
changed anywhere, or an entry added, is refused. The .SF's ``X-Android-APK-Signed`` names the
newer schemes the signer also used: one of them missing means it was stripped, and is refused.

Every entry is read through :class:`sim.apk.archive.ApkArchive` (bounded by the sizes it
declares), the signature block parsed by asn1crypto and checked by cryptography, which
androguard brings; nothing here opens the zip itself.
"""

from __future__ import annotations

import base64
import hashlib
import re

from sim.apk.archive import ApkArchive
from sim.apk.errors import ApkError

_BLOCK = re.compile(r"META-INF/([^/]+)\.(RSA|DSA|EC)")
_MANIFEST = "META-INF/MANIFEST.MF"
# JAR digest attribute names, strongest first, and hashlib's names for them.
_DIGESTS = (("SHA-512", "sha512"), ("SHA-384", "sha384"), ("SHA-256", "sha256"), ("SHA1", "sha1"))
_SIGNING_FILE = re.compile(r"META-INF/[^/]+\.(SF|RSA|DSA|EC)|META-INF/MANIFEST\.MF")


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
        certificates = [_verified_block(archive, entry, name, manifest, apk_signed_with) for entry, name in blocks]
        _check_entries(archive, manifest)
    except (_Refused, ValueError, KeyError, TypeError) as error:
        raise ApkError("INSTALL_PARSE_FAILED_NO_CERTIFICATES",
                       f"{archive.name}'s v1 (JAR) signature does not verify: {error}") from None
    return certificates


def _verified_block(archive: ApkArchive, entry: str, name: str, manifest: bytes, apk_signed_with: set[int]) -> bytes:
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
    if not _digest_matches(main, "-Manifest", manifest):
        manifest_sections = {attributes.get("Name"): raw for raw, attributes in _sections(manifest)[1:]}
        for _raw, attributes in sections[1:]:
            section = manifest_sections.get(attributes.get("Name"))
            if section is None or not _digest_matches(attributes, "", section):
                raise _Refused(f"{signature_file} does not match {_MANIFEST} (for {attributes.get('Name')!r})")
    return certificate


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


def _check_entries(archive: ApkArchive, manifest: bytes) -> None:
    """Every entry but the signature's own files is listed in MANIFEST.MF with its digest,
    and MANIFEST.MF lists no entry the APK lacks."""
    listed = {attributes.get("Name"): attributes for _raw, attributes in _sections(manifest)[1:]}
    for entry in archive.entries():
        if entry.endswith("/") or _SIGNING_FILE.fullmatch(entry):
            continue
        attributes = listed.pop(entry, None)
        if attributes is None:
            raise _Refused(f"{entry} is not in {_MANIFEST}: it was added after signing")
        for label, name in _DIGESTS:
            if f"{label}-Digest" in attributes:
                if base64.b64decode(attributes[f"{label}-Digest"]) != archive.digest(entry, name):
                    raise _Refused(f"{entry} is not what was signed ({label} digest differs)")
                break
        else:
            raise _Refused(f"{_MANIFEST} gives {entry} no digest droidsim verifies")
    if missing := [name for name in listed if name is not None]:
        raise _Refused(f"{_MANIFEST} lists {missing[0]}, which the APK does not hold")


def _digest_matches(attributes: dict[str, str], suffix: str, data: bytes) -> bool:
    for label, name in _DIGESTS:
        if (value := attributes.get(f"{label}-Digest{suffix}")) is not None:
            return base64.b64decode(value) == hashlib.new(name, data).digest()
    return False


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
