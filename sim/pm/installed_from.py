"""What a package was installed from (an app folder or an APK), as listings and dumpsys say it."""

from __future__ import annotations

from droidsim.v1.metadata_pb2 import InstalledFrom

FOLDER, APK = "folder", "apk"


def signers(source: InstalledFrom) -> tuple[str, ...]:
    """The SHA-256 of each signer's certificate; none for a folder or an unsigned APK."""
    return tuple(source.certificate_sha256)


def installed_from_json(source: InstalledFrom) -> dict:
    if source.kind != APK:  # a package installed before droidsim recorded it came from a folder too
        return {"kind": FOLDER}
    return {"kind": APK, "file": source.file_name, "sha256": source.sha256,
            "signing_schemes": list(source.signing_schemes), "certificate_sha256": list(source.certificate_sha256)}


def installed_from_line(source: InstalledFrom) -> str:
    if source.kind != APK:
        return f"from={FOLDER}"
    signed = f"signed={','.join(source.signing_schemes)}" if source.certificate_sha256 else "unsigned"
    parts = [f"from={APK}:{source.file_name}", f"sha256={source.sha256}", signed]
    return " ".join(parts + [f"signer={digest}" for digest in source.certificate_sha256])


def public(source: InstalledFrom) -> InstalledFrom:
    """What anyone who sees the package may know of its source: not the developer's folder."""
    shown = InstalledFrom()
    shown.CopyFrom(source)
    shown.ClearField("folder")
    return shown
