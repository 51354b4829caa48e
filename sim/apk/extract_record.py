"""What ``droidsim apk extract`` writes beside the folder's files: the SDK it resolved the
folder for, and the AppFunctionServices each SDK enables.

An APK's ``android:enabled="@bool/…"`` may differ per SDK (a ``values-v37`` override); the
extracted manifest holds the literal of one SDK. The record keeps what that loses: install
refuses the folder on a device of another SDK (it would index what that device does not), and
lint reads from it the services Android 16 indexes, as it reads them from the APK, so lint on
the folder and on the APK agree. Reading a record needs no APK reader.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from sim.platform_version import ANDROID_16, VERSIONS

EXTRACT_RECORD = "droidsim-extract.json"
# The record is a few lines; more is not one (the folder is the user's, its files hostile input).
_MAX_BYTES = 64 * 1024


@dataclass(frozen=True)
class ExtractRecord:
    apk: str  # the APK's file name
    sdk: int  # the SDK the folder's references were resolved for
    enabled_services: dict[int, tuple[str, ...]]  # per SDK, as the manifest names them

    def to_json(self) -> str:
        services = {str(sdk): list(names) for sdk, names in sorted(self.enabled_services.items())}
        return json.dumps({"apk": self.apk, "sdk": self.sdk, "enabled_services": services}, indent=2) + "\n"

    @property
    def android16_services(self) -> list[str] | None:
        services = self.enabled_services.get(ANDROID_16.sdk_int)
        return None if services is None else list(services)


def read_extract_record(folder: Path) -> ExtractRecord | None:
    """The folder's record, None when it has none; ValueError naming the file when it is not one."""
    path = folder / EXTRACT_RECORD
    if not path.is_file():
        return None
    try:
        with path.open("rb") as file:
            text = file.read(_MAX_BYTES + 1)
        if len(text) > _MAX_BYTES:
            raise ValueError(f"larger than {_MAX_BYTES} bytes")
        data = json.loads(text)
        services = data["enabled_services"]
        if not all(isinstance(names, list) for names in services.values()):
            raise TypeError("enabled_services maps each SDK to a list of service names")
        return ExtractRecord(str(data["apk"]), int(data["sdk"]),
                             {int(sdk): tuple(map(str, names)) for sdk, names in services.items()})
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"{path}: not the record `droidsim apk extract` writes ({type(error).__name__}: {error})") from None


def enabled_services(opener, apk: Path, sdks=tuple(sorted(VERSIONS))) -> dict[int, tuple[str, ...]]:
    """The AppFunctionServices a device of each SDK indexes from ``apk``, decoded by ``opener``
    (sim.pm.apk_tools.ApkOpener: bounded, outside this process), their names expanded as the
    manifest parser expands them; an SDK whose manifest does not parse is left out (install
    refuses it, saying why)."""
    from sim.pm.manifest import parse_manifest
    from sim.xmlsafe import XmlError

    services = {}
    for sdk in sdks:
        with opener.extracted(apk, sdk, checked=False) as (folder, _):
            try:
                manifest = parse_manifest(folder / "AndroidManifest.xml")
            except XmlError:
                continue
        services[sdk] = tuple(s.name for s in manifest.services if s.is_app_function_service)
    return services
