"""Permission definitions: names, protection levels, and the ones the platform defines.

A protection level is a base (normal, dangerous, signature, internal) plus flags, written as
Android writes ``android:protectionLevel`` ("signature|privileged"). The flag this device acts
on is ``privileged``: such a permission is granted at install to privileged packages only.
"""

from __future__ import annotations

from dataclasses import dataclass

from droid.appfunctions.service import BIND_APP_FUNCTION_SERVICE
from sim.platform_version import NEWEST, PlatformVersion

PLATFORM_PACKAGE = "android"

EXECUTE_APP_FUNCTIONS = "android.permission.EXECUTE_APP_FUNCTIONS"
# Android 11+: without it an app sees only itself and what it may interact with (package visibility).
QUERY_ALL_PACKAGES = "android.permission.QUERY_ALL_PACKAGES"
EXECUTE_APP_FUNCTIONS_SYSTEM = "android.permission.EXECUTE_APP_FUNCTIONS_SYSTEM"
# Permission v2 (Android 17): search, states and observers of every visible package, no execution.
DISCOVER_APP_FUNCTIONS = "android.permission.DISCOVER_APP_FUNCTIONS"
MANAGE_APP_FUNCTION_ACCESS = "android.permission.MANAGE_APP_FUNCTION_ACCESS"

NORMAL = "normal"
DANGEROUS = "dangerous"
SIGNATURE = "signature"
INTERNAL = "internal"
PRIVILEGED = "privileged"

# android.R.attr#protectionLevel as aapt2 compiles it into binary XML: the base in the low four
# bits, flags above (PermissionInfo.PROTECTION_* and PROTECTION_FLAG_*, the newest API's names).
BASE_BITS = {NORMAL: 0x0, DANGEROUS: 0x1, SIGNATURE: 0x2, INTERNAL: 0x4}
BASE_MASK = 0xF
FLAG_BITS = {
    PRIVILEGED: 0x10, "development": 0x20, "appop": 0x40, "pre23": 0x80, "installer": 0x100,
    "verifier": 0x200, "preinstalled": 0x400, "setup": 0x800, "instant": 0x1000, "runtime": 0x2000,
    "oem": 0x4000, "vendorPrivileged": 0x8000, "textClassifier": 0x10000, "wellbeing": 0x20000,
    "documenter": 0x40000, "configurator": 0x80000, "incidentReportApprover": 0x100000,
    "appPredictor": 0x200000, "module": 0x400000, "companion": 0x800000, "retailDemo": 0x1000000,
    "recents": 0x2000000, "role": 0x4000000, "knownSigner": 0x8000000,
}
BASES = tuple(BASE_BITS)
# Flags Android defines that this device accepts in a manifest but does not act on.
INERT_FLAGS = frozenset(FLAG_BITS) - {PRIVILEGED}
# Old spellings, as Android reads them: "signatureOrSystem" (3 in binary XML) is
# signature|privileged, "system" privileged and "ephemeral" instant.
ALIASES = {"signatureOrSystem": (SIGNATURE, PRIVILEGED), "system": (PRIVILEGED,), "ephemeral": ("instant",)}
_SIGNATURE_OR_SYSTEM_BITS = 0x3


@dataclass(frozen=True)
class ProtectionLevel:
    base: str
    flags: frozenset[str] = frozenset()

    @classmethod
    def parse(cls, text: str) -> "ProtectionLevel":
        """Android's ``protectionLevel`` syntax; an unknown word is an error naming it."""
        base: str | None = None
        flags: set[str] = set()
        for word in (w.strip() for w in text.split("|")):
            words = ALIASES.get(word, (word,))
            for part in words:
                if part in BASES:
                    if base is not None and base != part:
                        raise ValueError(f"protection level {text!r} names two bases: {base} and {part}")
                    base = part
                elif part == PRIVILEGED or part in INERT_FLAGS:
                    flags.add(part)
                else:
                    raise ValueError(
                        f"protection level {text!r}: unknown value {part!r} "
                        f"(bases: {', '.join(BASES)}; flags include {PRIVILEGED})"
                    )
        return cls(base or NORMAL, frozenset(flags))

    @classmethod
    def from_bits(cls, bits: int) -> "ProtectionLevel":
        """The integer binary XML holds (``0x00000012`` is signature|privileged); a base or a
        flag bit Android does not define is an error naming it."""
        base_bits = bits & BASE_MASK
        if base_bits == _SIGNATURE_OR_SYSTEM_BITS:  # PermissionInfo.fixProtectionLevel
            return cls(SIGNATURE, frozenset({PRIVILEGED}) | cls.from_bits(bits & ~BASE_MASK).flags)
        base = next((name for name, value in BASE_BITS.items() if value == base_bits), None)
        if base is None:
            raise ValueError(f"protection level 0x{bits:08x}: unknown base 0x{base_bits:x} "
                             f"({', '.join(f'{n}=0x{v:x}' for n, v in BASE_BITS.items())})")
        flags = {name for name, value in FLAG_BITS.items() if bits & value}
        unknown = bits & ~BASE_MASK & ~sum(FLAG_BITS.values())
        if unknown:
            raise ValueError(f"protection level 0x{bits:08x}: unknown flag bits 0x{unknown:x}")
        return cls(base, frozenset(flags))

    @property
    def is_runtime(self) -> bool:
        """Dangerous permissions are granted at runtime (``pm grant``), never at install."""
        return self.base == DANGEROUS

    @property
    def is_privileged(self) -> bool:
        return PRIVILEGED in self.flags

    def __str__(self) -> str:
        return "|".join([self.base, *sorted(self.flags)])


@dataclass(frozen=True)
class PermissionInfo:
    """One defined permission and the package that defines it ("android" for the platform)."""

    name: str
    protection_level: ProtectionLevel
    package_name: str = PLATFORM_PACKAGE


def _platform(name: str, level: str) -> PermissionInfo:
    return PermissionInfo(name, ProtectionLevel.parse(level))


# What core/res/AndroidManifest.xml defines, as far as this device needs. The AppFunctions
# levels are the choices of docs/access-control.md (the sources do not show the literal XML).
_COMMON_PERMISSIONS: dict[str, PermissionInfo] = {
    p.name: p
    for p in (
        _platform(EXECUTE_APP_FUNCTIONS, "internal|privileged"),
        _platform(EXECUTE_APP_FUNCTIONS_SYSTEM, "internal|privileged"),
        _platform(MANAGE_APP_FUNCTION_ACCESS, "internal|privileged"),
        _platform(BIND_APP_FUNCTION_SERVICE, "signature"),
        _platform(QUERY_ALL_PACKAGES, "normal"),
        _platform("android.permission.INTERNET", "normal"),
        _platform("android.permission.ACCESS_NETWORK_STATE", "normal"),
        _platform("android.permission.POST_NOTIFICATIONS", "dangerous"),
        _platform("android.permission.READ_CONTACTS", "dangerous"),
        _platform("android.permission.READ_CALENDAR", "dangerous"),
        _platform("android.permission.ACCESS_FINE_LOCATION", "dangerous"),
    )
}
# Android 17's permission v2 adds DISCOVER_APP_FUNCTIONS; on Android 16 the name is defined by
# nobody, so an app that requests it holds nothing (PlatformVersion.discovers_with_v2_permissions).
_V2_PERMISSIONS = {DISCOVER_APP_FUNCTIONS: _platform(DISCOVER_APP_FUNCTIONS, "internal|privileged")}


def platform_permissions(version: PlatformVersion = NEWEST) -> dict[str, PermissionInfo]:
    """The permissions the platform of ``version`` defines."""
    if version.discovers_with_v2_permissions:
        return {**_COMMON_PERMISSIONS, **_V2_PERMISSIONS}
    return dict(_COMMON_PERMISSIONS)

# The shell is platform-signed on Android and its manifest requests what adb needs; here it
# holds the AppFunctions permissions a developer's shell needs to test and manage access.
SHELL_PERMISSIONS = frozenset({EXECUTE_APP_FUNCTIONS, EXECUTE_APP_FUNCTIONS_SYSTEM, MANAGE_APP_FUNCTION_ACCESS})
