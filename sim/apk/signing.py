"""Who signed an APK, verified: APK Signature Scheme v2 and v3 as Android's ApkSignatureVerifier checks them.

An update is accepted only from the installed package's signers, so "signed by" must mean the
signature holds over these bytes, not that a signing block naming the signer is present: a
victim's signing block grafted onto other content names the victim but verifies over nothing.
For each scheme present, every signer's signature over its signed data is checked with its
public key (the key of its first certificate), and the digests it signed are recomputed over
the APK's contents (1 MiB chunks of the entries, the central directory and the end record,
ApkSigningBlockUtils.computeContentDigests). A v1 (JAR) signature is verified down to each
entry's digest (sim/apk/jar_signing.py). Every scheme present is verified, as ``apksigner
verify`` does (the platform verifies only the newest: docs/differences.md). Any failure refuses
the APK with INSTALL_PARSE_FAILED_NO_CERTIFICATES naming the scheme and what failed. Not
verified: v3.1 and v4 signatures (ignored), source stamps, v3's key-rotation lineage.

Everything read here comes from the APK's raw bytes (the signing block is never compressed)
or, for v1, from :class:`sim.apk.archive.ApkArchive`'s bounded reads: no library opens the
zip itself. Verified with ``cryptography``, which androguard already brings.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass

from sim.apk.archive import ApkArchive
from sim.apk.errors import ApkError
from sim.apk.jar_signing import jar_signers

NO_CERTIFICATES = "INSTALL_PARSE_FAILED_NO_CERTIFICATES"
_MAGIC = b"APK Sig Block 42"
_EOCD = b"PK\x05\x06"
_EOCD_SIZE = 22
V2_BLOCK_ID = 0x7109871A
V3_BLOCK_ID = 0xF05368C0
_CHUNK = 1 << 20
# The v2 signed-data attribute that says a v3 signature was also made (ApkSignatureSchemeV2Verifier).
_STRIPPING_PROTECTION = 0xBEEFF00D
# A signing block of a real APK is some kilobytes; one that declares more is refused unread.
MAX_SIGNING_BLOCK_BYTES = 16 << 20


@dataclass(frozen=True)
class Signing:
    """The APK signature schemes present and verified, and the SHA-256 of each signer's
    certificate (DER), as ``apksigner verify --print-certs`` prints it; both empty for an
    unsigned APK."""

    schemes: tuple[str, ...]
    certificate_digests: tuple[str, ...]


@dataclass(frozen=True)
class _Algorithm:
    digest: str  # hashlib's name of the content digest
    kind: str  # "rsa-pkcs1", "rsa-pss", "ecdsa" or "dsa"


# SignatureAlgorithm ids (ApkSigningBlockUtils). The verity ones (0x0421...) sign a Merkle root,
# which only v4 streaming installs need; every signer apksigner makes also carries one of these.
_ALGORITHMS = {
    0x0101: _Algorithm("sha256", "rsa-pss"),
    0x0102: _Algorithm("sha512", "rsa-pss"),
    0x0103: _Algorithm("sha256", "rsa-pkcs1"),
    0x0104: _Algorithm("sha512", "rsa-pkcs1"),
    0x0201: _Algorithm("sha256", "ecdsa"),
    0x0202: _Algorithm("sha512", "ecdsa"),
    0x0301: _Algorithm("sha256", "dsa"),
}


class _Refused(Exception):
    """A signature that does not verify; the message says what."""


def signing(data: bytes, archive: ApkArchive) -> Signing:
    """Every scheme that signed the APK ``data``, verified; v3 beats v2 beats v1 for whose
    certificates count, as the platform takes the newest scheme it finds. ApkError if a
    signature present does not verify."""
    blocks = _signing_blocks(data)
    schemes: list[str] = []
    certificates: list[bytes] = []
    v1 = jar_signers(archive, apk_signed_with={2 if V2_BLOCK_ID in blocks else 0, 3 if V3_BLOCK_ID in blocks else 0})
    if v1:
        schemes.append("v1")
        certificates = v1
    for scheme, block_id in (("v2", V2_BLOCK_ID), ("v3", V3_BLOCK_ID)):
        if block_id in blocks:
            try:
                certificates = _verified_signers(blocks[block_id], data, blocks["offsets"], v3=scheme == "v3",
                                                 v3_present=V3_BLOCK_ID in blocks)
            except (_Refused, struct.error, IndexError, ValueError) as error:
                raise ApkError(NO_CERTIFICATES, f"{archive.name}'s APK Signature Scheme {scheme} signature does not "
                                                f"verify: {error}") from None
            schemes.append(scheme)
    return Signing(tuple(schemes), tuple(hashlib.sha256(c).hexdigest() for c in certificates))


def _signing_blocks(data: bytes) -> dict:
    """The v2 and v3 blocks by id, and ``offsets``: where the signing block, the central
    directory and the end record start. Empty of blocks when the APK has no signing block."""
    eocd = data.rfind(_EOCD, max(0, len(data) - _EOCD_SIZE - 0xFFFF))
    while eocd >= 0 and eocd + _EOCD_SIZE + struct.unpack_from("<H", data, eocd + 20)[0] != len(data):
        eocd = data.rfind(_EOCD, max(0, len(data) - _EOCD_SIZE - 0xFFFF), eocd)
    if eocd < 0:  # ApkArchive has read the zip: a zip64 end only, which no signed APK has
        return {}
    cd_size, cd_offset = struct.unpack_from("<II", data, eocd + 12)
    if cd_offset < 32 or data[cd_offset - 16:cd_offset] != _MAGIC or cd_offset + cd_size != eocd:
        return {}
    size = struct.unpack_from("<Q", data, cd_offset - 24)[0]
    start = cd_offset - size - 8
    if size > MAX_SIGNING_BLOCK_BYTES or start < 0 or struct.unpack_from("<Q", data, start)[0] != size:
        raise ApkError(NO_CERTIFICATES, "its APK signing block's sizes do not agree (or it is larger than "
                                        f"{MAX_SIGNING_BLOCK_BYTES} bytes)")
    blocks: dict = {"offsets": (start, cd_offset, eocd)}
    position = start + 8
    while position < cd_offset - 24:
        length, block_id = struct.unpack_from("<QI", data, position)
        if length < 4 or position + 8 + length > cd_offset - 24:
            raise ApkError(NO_CERTIFICATES, "its APK signing block has a pair that overruns it")
        if block_id in (V2_BLOCK_ID, V3_BLOCK_ID):
            blocks[block_id] = memoryview(data)[position + 12:position + 8 + length]
        position += 8 + length
    return blocks


def _verified_signers(block: memoryview, data: bytes, offsets: tuple[int, int, int], *, v3: bool,
                      v3_present: bool) -> list[bytes]:
    """The certificates of the block's signers, each signer's signatures and digests verified."""
    signers = _sequence(_prefixed(block, 0)[0])
    if not signers:
        raise _Refused("it has no signers")
    digests: dict[str, bytes] = {}
    certificates: list[bytes] = []
    for signer in signers:
        signed_data, at = _prefixed(signer, 0)
        if v3:
            at += 8  # the signer's minSdk and maxSdk, repeated in its signed data
        signatures, at = _prefixed(signer, at)
        public_key = bytes(_prefixed(signer, at)[0])
        signer_digests, at = _prefixed(signed_data, 0)
        encoded_certificates, at = _prefixed(signed_data, at)
        attributes = _prefixed(signed_data, at + (8 if v3 else 0))[0]
        checked = _check_signatures(_sequence(signatures), bytes(signed_data), public_key)
        listed = {struct.unpack_from("<I", d)[0]: bytes(_prefixed(d, 4)[0]) for d in _sequence(signer_digests)}
        if set(listed) != {algorithm for algorithm, _ in _signature_list(_sequence(signatures))}:
            raise _Refused("the algorithms of its digests and of its signatures differ")
        certificate_list = [bytes(c) for c in _sequence(encoded_certificates)]
        if not certificate_list:
            raise _Refused("a signer has no certificate")
        _same_key(certificate_list[0], public_key)
        if not v3 and not v3_present and _stripped_v3(attributes):
            raise _Refused("its signer says the APK was signed with v3 too, and it has no v3 signature (stripped?)")
        for algorithm in checked:
            name = _ALGORITHMS[algorithm].digest
            if name not in digests:
                digests[name] = _content_digest(data, offsets, name)
            if listed[algorithm] != digests[name]:
                raise _Refused(f"the APK's contents are not what its signer signed ({name} digest differs)")
        certificates.append(certificate_list[0])
    return certificates


def _check_signatures(signatures: list[memoryview], signed_data: bytes, public_key: bytes) -> list[int]:
    """The algorithms whose signatures over ``signed_data`` verified; refused unless at least
    one could be checked and every one checked verified."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.serialization import load_der_public_key

    key = load_der_public_key(public_key)
    checked = []
    for algorithm, signature in _signature_list(signatures):
        if algorithm not in _ALGORITHMS:
            continue
        try:
            _verify(key, _ALGORITHMS[algorithm], signature, signed_data)
        except (InvalidSignature, TypeError, ValueError):
            raise _Refused(f"its signature (algorithm 0x{algorithm:04x}) does not verify with its public key") from None
        checked.append(algorithm)
    if not checked:
        raise _Refused("it uses no signature algorithm droidsim verifies")
    return checked


def _signature_list(signatures: list[memoryview]) -> list[tuple[int, bytes]]:
    return [(struct.unpack_from("<I", s)[0], bytes(_prefixed(s, 4)[0])) for s in signatures]


def _verify(key: object, algorithm: _Algorithm, signature: bytes, message: bytes) -> None:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import dsa, ec, padding, rsa

    digest = hashes.SHA256() if algorithm.digest == "sha256" else hashes.SHA512()
    if algorithm.kind.startswith("rsa") and isinstance(key, rsa.RSAPublicKey):
        scheme = (padding.PKCS1v15() if algorithm.kind == "rsa-pkcs1"
                  else padding.PSS(padding.MGF1(digest), digest.digest_size))
        key.verify(signature, message, scheme, digest)
    elif algorithm.kind == "ecdsa" and isinstance(key, ec.EllipticCurvePublicKey):
        key.verify(signature, message, ec.ECDSA(digest))
    elif algorithm.kind == "dsa" and isinstance(key, dsa.DSAPublicKey):
        key.verify(signature, message, digest)
    else:
        raise TypeError("the key is not of the algorithm's kind")


def _same_key(certificate: bytes, public_key: bytes) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    certified = x509.load_der_x509_certificate(certificate).public_key()
    if certified.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo) != public_key:
        raise _Refused("its public key is not its certificate's")


def _stripped_v3(attributes: memoryview) -> bool:
    for attribute in _sequence(attributes):
        attribute_id = struct.unpack_from("<I", attribute)[0]
        if attribute_id == _STRIPPING_PROTECTION and struct.unpack_from("<I", attribute, 4)[0] == 3:
            return True
    return False


def _content_digest(data: bytes, offsets: tuple[int, int, int], name: str) -> bytes:
    """The chunked digest of the entries, the central directory and the end record, whose
    central directory offset is read as the signing block's start (where the signer saw it)."""
    block_start, cd_offset, eocd = offsets
    end_record = bytearray(data[eocd:])
    struct.pack_into("<I", end_record, 16, block_start)
    view = memoryview(data)
    sections = (view[:block_start], view[cd_offset:eocd], memoryview(end_record))
    chunks = [section[i:i + _CHUNK] for section in sections for i in range(0, len(section), _CHUNK)]
    top = hashlib.new(name, b"\x5a" + struct.pack("<I", len(chunks)))
    for chunk in chunks:
        top.update(hashlib.new(name, b"\xa5" + struct.pack("<I", len(chunk)) + chunk).digest())
    return top.digest()


def _prefixed(view: memoryview, at: int) -> tuple[memoryview, int]:
    """The length-prefixed (u32) field at ``at``, and where the next one starts."""
    (length,) = struct.unpack_from("<I", view, at)
    end = at + 4 + length
    if end > len(view):
        raise _Refused("a field overruns the block that holds it")
    return view[at + 4:end], end


def _sequence(view: memoryview) -> list[memoryview]:
    items, at = [], 0
    while at < len(view):
        item, at = _prefixed(view, at)
        items.append(item)
    return items
