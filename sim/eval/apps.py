"""The apps an eval device installs, each with where a code-less app's answers come from.

A suite's ``apps:`` names app folders (or folders of them) and APKs, each with the response
source ``droidsim install`` would take for it (``responses:`` a cassette, ``double:`` a
Python double, ``on_miss:``), so that an in-process device answers as a device holding the
same APK and cassette does. ``AppSource`` is one such entry as plain data (paths as text):
a DeviceSpec made of them travels to a worker process or a Ray task, its files with it
(sim/eval/bundle.py finds every absolute path in it).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, replace
from pathlib import Path

from sim.pm.app_folders import NotAnAppFolder, app_folders_in


class DeviceSetupError(RuntimeError):
    """The device for the run cannot be made (an app does not install, the agent is missing)."""


@dataclass(frozen=True)
class AppSource:
    """An app folder, a folder of app folders or an APK, and its response source (None: none)."""

    path: str
    responses: str | None = None  # a cassette
    double: str | None = None  # a double's folder
    on_miss: str | None = None  # refuse or schema
    where: str = ""  # what named it (the suite's FILE:LINE, --variant), for errors

    def apps(self) -> list[AppSource]:
        """One source per app: a folder of app folders stands for each of them."""
        path = Path(self.path)
        if path.is_file():
            return [self]
        try:
            return [replace(self, path=str(folder)) for folder in app_folders_in(path)]
        except NotAnAppFolder as error:
            raise DeviceSetupError(self.named(str(error))) from None

    def package(self) -> str:
        return package_of(Path(self.path), self.where)

    def named(self, message: str) -> str:
        return f"{self.where}: {message}" if self.where else message

    def install_options(self):
        """What ``droidsim install --responses/--double/--on-miss`` would give the device."""
        from sim.responses.staging import ResponseOptions

        return ResponseOptions(cassette=Path(self.responses) if self.responses else None,
                               double_dir=Path(self.double) if self.double else None, on_miss=self.on_miss)

    def install_command(self, device: str | None) -> str:
        """The command that installs this app on the running ``device`` as the suite gives it."""
        words = [f"droidsim --device {device} install" if device else "droidsim install", self.path]
        words += [f"--responses {self.responses}"] if self.responses else []
        words += [f"--double {self.double}"] if self.double else []
        words += [f"--on-miss {self.on_miss}"] if self.on_miss else []
        return " ".join(words)


def package_of(path: Path, where: str = "") -> str:
    """The package an app folder's manifest or an APK's binary manifest names (the APK is the
    user's own file, read here as lint and ``apk inspect`` read it, without decoding the rest)."""
    prefix = f"{where}: " if where else ""
    if path.is_file():
        return _apk_package(path, prefix)
    try:
        return ET.parse(path / "AndroidManifest.xml").getroot().attrib["package"]
    except (OSError, ET.ParseError, KeyError) as error:
        raise DeviceSetupError(f"{prefix}{path}: no readable AndroidManifest.xml with a package ({error})") from None


def _apk_package(apk: Path, prefix: str) -> str:
    from sim.apk.archive import MANIFEST, ApkArchive
    from sim.apk.errors import ApkError
    from sim.apk.folder import read_apk
    from sim.apk.reader import binary_xml

    try:
        manifest = ApkArchive(read_apk(apk), apk.name).read(MANIFEST)
        package = binary_xml(manifest, f"{apk.name}!/{MANIFEST}").get("package")
    except ApkError as error:
        raise DeviceSetupError(f"{prefix}{apk}: {error}") from None
    if not package:
        raise DeviceSetupError(f"{prefix}{apk}: its AndroidManifest.xml names no package")
    return package
