"""Manifest attributes that binary XML holds as integers, written back in the manifest's own words.

aapt2 compiles a flag or enum attribute to the integer of its named values
(``android:protectionLevel="signature"`` becomes ``0x00000002``), and a decoded manifest is read
by the same pipeline as a text one, which takes the words. So every such attribute the device
reads is turned back into words, as apktool does with the framework's attribute table; the
table here is the platform's own constants, because droidsim has no framework-res to read.
"""

from __future__ import annotations

from lxml import etree

from sim.apk.errors import ApkError
from sim.permissions.definitions import ProtectionLevel

ANDROID_NS = "http://schemas.android.com/apk/res/android"
_PROTECTION_LEVEL = f"{{{ANDROID_NS}}}protectionLevel"


def name_integers(manifest: etree._Element, where: str) -> None:
    """Every ``<permission android:protectionLevel>`` that is an integer, in words; ApkError
    (naming ``where`` and the line) for a value that is neither words nor Android's bits."""
    for permission in manifest.iterfind("permission"):
        value = permission.get(_PROTECTION_LEVEL)
        if value is None or not value[:1].isdigit():  # words already (a text manifest's, or none)
            continue
        try:
            level = ProtectionLevel.from_bits(int(value, 0))
        except ValueError as error:
            raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED",
                           f"{where}:{permission.sourceline}: <permission> android:protectionLevel: {error}") from None
        permission.set(_PROTECTION_LEVEL, str(level))
