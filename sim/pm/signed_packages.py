"""Allowlist entries bound to the package the user named: Android's SignedPackage, ``pkg`` or
``pkg:SHA256``.

On Android privileged status comes from the system image, whose updates must carry its
signature, and an agent allowlist entry with a certificate digest matches only a package
signed with it (AppIdAppFunctionAccessPolicy.isAllowlistedAgent). droidsim's allowlists are
edited on a running device, where an uninstall frees a name for anyone's package, so every
entry is bound to the package it was given for: a signed package's to its signer's
certificate (kept across uninstalls: the same signer's reinstall matches again), an unsigned
one's (an app folder, an unsigned APK: no signer to name) to its install, dropped when that
is uninstalled, and a name not installed yet to its first install. Another signer's package
of the name gets nothing from the entry (docs/security.md, "Allowlists").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable

from droid.os.exceptions import IllegalArgumentException
from droidsim.v1.allowlist_pb2 import AllowlistEdit, AllowlistEntry
from sim.pm.installed_from import signers
from sim.pm.registry import PACKAGE_NAME, InstalledPackage

_DIGEST = re.compile(r"[0-9A-Fa-f]{64}")

Installed = Callable[[str], "InstalledPackage | None"]


@dataclass(frozen=True, order=True)
class SignedPackage:
    package_name: str
    certificate: str = ""  # the SHA-256 of the signer's certificate, lower-case hex; "" for none

    def __str__(self) -> str:
        return f"{self.package_name}:{self.certificate}" if self.certificate else self.package_name

    def matches(self, package: InstalledPackage) -> bool:
        return package.package_name == self.package_name and (
            not self.certificate or self.certificate in signers(package.metadata.installed_from))

    def to_proto(self) -> AllowlistEntry:
        return AllowlistEntry(package_name=self.package_name, certificate_sha256=self.certificate)


def parse_entry(text: str) -> SignedPackage:
    name, colon, digest = text.partition(":")
    if not PACKAGE_NAME.fullmatch(name):
        several = "," in name or ";" in name
        raise IllegalArgumentException(f"not a package name: {name!r}" + (
            ": separate packages with spaces on a command line (with ';' in a setting's value)" if several else ""))
    if colon and not _DIGEST.fullmatch(digest):
        raise IllegalArgumentException(
            f"{text!r}: a signer is named by the SHA-256 of its certificate, 64 hex digits "
            "(`apksigner verify --print-certs` prints it)")
    return SignedPackage(name, digest.lower())


def bound(entry: SignedPackage, installed: Installed) -> SignedPackage:
    """``entry`` bound to the signer of the package installed under its name, if it has one."""
    package = installed(entry.package_name)
    if entry.certificate or package is None or not signers(package.metadata.installed_from):
        return entry
    return SignedPackage(entry.package_name, signers(package.metadata.installed_from)[0])


def bound_to(entries: Iterable[SignedPackage], package: InstalledPackage) -> tuple[SignedPackage, ...]:
    """After ``package`` is installed: an entry for its name that awaited an install is bound to it."""
    return tuple(bound(e, {package.package_name: package}.get) for e in entries)


def without_install_of(entries: Iterable[SignedPackage], package_name: str) -> tuple[SignedPackage, ...]:
    """After ``package_name`` is uninstalled: the entry bound to that install (it had no signer) goes."""
    return tuple(e for e in entries if e.package_name != package_name or e.certificate)


def other_signer(entry: SignedPackage, installed: Installed) -> InstalledPackage | None:
    """The installed package of ``entry``'s name when the entry is bound to another signer."""
    package = installed(entry.package_name)
    return package if package is not None and not entry.matches(package) else None


def install_notes(entries: Iterable[SignedPackage], package: InstalledPackage, listed: str, status: str) -> list[str]:
    """What an install of ``package`` should say of each entry of its name bound to another signer."""
    return [other_signer_note(e, package, listed, status) for e in entries
            if other_signer(e, {package.package_name: package}.get) is not None]


def other_signer_note(entry: SignedPackage, package: InstalledPackage, listed: str, status: str) -> str:
    digests = signers(package.metadata.installed_from)
    signed_by = f"certificate SHA-256 {digests[0]}" if digests else "no one (an app folder or an unsigned APK)"
    return (f"{entry.package_name} is on the {listed} for the signer with certificate SHA-256 {entry.certificate}, "
            f"and the installed {entry.package_name} is signed by {signed_by}: another signer's package gets "
            f"nothing from that entry, so it is not {status}. To trust this install instead, remove "
            f"{entry.package_name} from the {listed}, then add it again")


@dataclass(frozen=True)
class Edited:
    entries: tuple[SignedPackage, ...]
    removed: tuple[str, ...]
    not_listed: tuple[str, ...]


def edited(entries: Iterable[SignedPackage], operation: int, named: Iterable[str], installed: Installed,
           listed: str, status: str) -> Edited:
    """The list after ``operation`` with the ``named`` packages. A name new to the list is
    bound to the package installed under it; one already on it keeps its binding, and naming
    it while another signer's package of that name is installed is refused, saying so (remove
    it, then add it, to bind it anew). ``listed`` and ``status`` word the refusal."""
    if operation not in AllowlistEdit.Operation.values():
        raise IllegalArgumentException(f"unknown allowlist operation {operation}")
    current = {e.package_name: e for e in entries}
    given = {e.package_name: e for e in map(parse_entry, named)}
    if operation == AllowlistEdit.REMOVE:
        kept = {name: e for name, e in current.items() if name not in given}
        return Edited(_sorted(kept), tuple(sorted(current.keys() - kept.keys())),
                      tuple(sorted(given.keys() - current.keys())))
    wanted = {}
    for name, entry in given.items():
        old = current.get(name)
        if old is not None and (not entry.certificate or entry == old):
            if (package := other_signer(old, installed)) is not None:
                raise IllegalArgumentException(other_signer_note(old, package, listed, status))
            wanted[name] = old
        else:
            wanted[name] = bound(entry, installed)
    if operation == AllowlistEdit.ADD:
        wanted = {**current, **wanted}
    return Edited(_sorted(wanted), tuple(sorted(current.keys() - wanted.keys())), ())


def _sorted(entries: dict[str, SignedPackage]) -> tuple[SignedPackage, ...]:
    return tuple(sorted(entries.values()))
