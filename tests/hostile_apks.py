"""Hostile APKs made from bytes: binary XML written here from element trees, and zips around it.

aapt2 refuses what an attacker writes (a package name that is a path, a manifest nested 200,000
deep), so these are built by hand, chunk by chunk, as the AOSP ``ResourceTypes.h`` lays binary
XML out: a string pool of UTF-16 strings, a namespace, then one start and one end chunk per
element. Only what droidsim's reader needs is written (no resource map: attribute names are
read from the pool).
"""

from __future__ import annotations

import io
import struct
import zipfile
from dataclasses import dataclass, field

ANDROID_NS = "http://schemas.android.com/apk/res/android"
_NO_INDEX = 0xFFFFFFFF
_TYPE_STRING = 0x03


@dataclass
class Element:
    """``tag`` with attributes (a name ``android:x`` is in Android's namespace) and children."""

    tag: str
    attributes: dict[str, str] = field(default_factory=dict)
    children: list[Element] = field(default_factory=list)


class _Pool:
    def __init__(self) -> None:
        self.strings: list[str] = []

    def index(self, text: str) -> int:
        if text not in self.strings:
            self.strings.append(text)
        return self.strings.index(text)

    def chunk(self) -> bytes:
        data = b""
        offsets = []
        for text in self.strings:
            offsets.append(len(data))
            encoded = text.encode("utf-16-le")
            data += struct.pack("<H", len(encoded) // 2) + encoded + b"\0\0"
        data += b"\0" * (-len(data) % 4)
        header = 28
        strings_start = header + 4 * len(self.strings)
        body = struct.pack(f"<{len(offsets)}I", *offsets) + data
        return struct.pack("<HHIIIIII", 0x0001, header, header + len(body), len(self.strings), 0, 0,
                           strings_start, 0) + body


def binary_xml(root: Element) -> bytes:
    """``root`` as binary XML, the android prefix declared on it."""
    pool = _Pool()
    prefix, uri = pool.index("android"), pool.index(ANDROID_NS)
    chunks = [struct.pack("<HHIIIII", 0x0100, 16, 24, 1, _NO_INDEX, prefix, uri)]
    # Depth first without recursion: a tree 200,000 deep is the point of some of these.
    stack: list[tuple[Element, bool]] = [(root, False)]
    while stack:
        element, closing = stack.pop()
        name = pool.index(element.tag)
        if closing:
            chunks.append(struct.pack("<HHIIIII", 0x0103, 16, 24, 1, _NO_INDEX, _NO_INDEX, name))
            continue
        attributes = b""
        for key, value in element.attributes.items():
            ns, _, local = key.rpartition(":")
            ns_index = uri if ns == "android" else _NO_INDEX
            text = pool.index(value)
            attributes += struct.pack("<IIIHBBI", ns_index, pool.index(local), text, 8, 0, _TYPE_STRING, text)
        count = len(element.attributes)
        chunks.append(struct.pack("<HHIIIIIHHHHHH", 0x0102, 16, 36 + len(attributes), 1, _NO_INDEX,
                                  _NO_INDEX, name, 20, 20, count, 0, 0, 0) + attributes)
        stack.append((element, True))
        stack.extend((child, False) for child in reversed(element.children))
    chunks.append(struct.pack("<HHIIIII", 0x0101, 16, 24, 1, _NO_INDEX, prefix, uri))
    body = pool.chunk() + b"".join(chunks)
    return struct.pack("<HHI", 0x0003, 8, 8 + len(body)) + body


def manifest(package: str, asset: str = "functions.xml") -> Element:
    """A manifest whose application names ``assets/<asset>`` as its function XML."""
    return Element("manifest", {"package": package}, [Element("application", {}, [
        Element("property", {"android:name": "android.app.appfunctions", "android:value": asset})])])


def nested(depth: int) -> Element:
    """A manifest whose elements nest ``depth`` deep."""
    root = Element("manifest", {"package": "com.example.deep"})
    element = root
    for _ in range(depth - 1):
        child = Element("x")
        element.children.append(child)
        element = child
    return root


def zip_of(entries: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression, compresslevel=9) as archive:
        for name, content in entries.items():
            archive.writestr(zipfile.ZipInfo(name), content, compress_type=compression)
    return out.getvalue()


def apk_of(root: Element, **entries: bytes) -> bytes:
    """An unsigned APK of the manifest ``root`` and ``entries`` (``assets__x_xml`` style names
    are awkward: pass a dict through ``zip_of`` for those)."""
    return zip_of({"AndroidManifest.xml": binary_xml(root), **entries})


FUNCTIONS_XML = b"""<?xml version="1.0" encoding="utf-8"?>
<appfunctions><appfunction><id>f</id><enabledByDefault>true</enabledByDefault></appfunction></appfunctions>
"""


def signing_block(apk: bytes) -> tuple[bytes, int, int]:
    """The APK's signing block (v2/v3), and where its central directory and end record start."""
    eocd = apk.rindex(b"PK\x05\x06")
    cd_offset = struct.unpack_from("<I", apk, eocd + 16)[0]
    size = struct.unpack_from("<Q", apk, cd_offset - 24)[0]
    return apk[cd_offset - size - 8:cd_offset], cd_offset, eocd


def grafted(block: bytes, content: bytes) -> bytes:
    """The zip ``content`` with the signing block ``block`` (a victim's) set before its central
    directory, as a signer places it, the end record pointing past it."""
    eocd = content.rindex(b"PK\x05\x06")
    cd_offset = struct.unpack_from("<I", content, eocd + 16)[0]
    end = bytearray(content[eocd:])
    struct.pack_into("<I", end, 16, cd_offset + len(block))
    return content[:cd_offset] + block + content[cd_offset:eocd] + bytes(end)


def without_pair(block: bytes, block_id: int) -> bytes:
    """The signing block without its ``block_id`` pair (a scheme's signature stripped)."""
    pairs, at = b"", 8
    while at < len(block) - 24:
        length, pair_id = struct.unpack_from("<QI", block, at)
        if pair_id != block_id:
            pairs += block[at:at + 8 + length]
        at += 8 + length
    size = struct.pack("<Q", len(pairs) + 24)
    return size + pairs + size + block[-16:]


def unsigned_part(apk: bytes) -> bytes:
    """The APK without its signing block, the end record pointing at its central directory."""
    block, cd_offset, eocd = signing_block(apk)
    end = bytearray(apk[eocd:])
    struct.pack_into("<I", end, 16, cd_offset - len(block))
    return apk[:cd_offset - len(block)] + apk[cd_offset:eocd] + bytes(end)


def deflated_zeros(mebibytes: int) -> bytes:
    """A deflate stream of ``mebibytes`` MiB of zeros, made in milliseconds: one MiB's blocks,
    flushed to stand alone, repeated (each inflates the same whatever came before)."""
    import zlib

    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    piece = compressor.compress(bytes(1 << 20)) + compressor.flush(zlib.Z_FULL_FLUSH)
    return piece * mebibytes + compressor.flush(zlib.Z_FINISH)


def raw_zip(entries: list[tuple[str, bytes, int, int]]) -> bytes:
    """A zip written field by field: each entry ``(name, deflated bytes, declared size, crc)``,
    so that a declared size may lie about what its bytes inflate to."""
    local, central = b"", b""
    for name, data, size, crc in entries:
        encoded = name.encode()
        fields = struct.pack("<HHHHHIII", 20, 0, 8, 0, 0x21, crc, len(data), size)
        central += b"PK\x01\x02" + struct.pack("<H", 20) + fields + struct.pack("<HHHHHII", len(encoded), 0, 0, 0, 0,
                                                                               0, len(local)) + encoded
        local += b"PK\x03\x04" + fields + struct.pack("<HH", len(encoded), 0) + encoded + data
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central), len(local), 0)
    return local + central + end


def deflated(data: bytes) -> tuple[bytes, int, int]:
    """``data`` deflated, its size and CRC: the rest of a ``raw_zip`` entry."""
    import zlib

    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush(), len(data), zlib.crc32(data)
