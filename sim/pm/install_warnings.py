"""What an install takes but its developer should hear about: said in the install's output and
in logcat, never a reason to refuse."""

from __future__ import annotations

from droidsim.v1.metadata_pb2 import InstalledFrom
from sim.pm.app_parser import ParsedApp
from sim.pm.installed_from import APK
from sim.pm.manifest import SERVICE_INTERFACE
from sim.platform_version import PlatformVersion


def install_warnings(parsed: ParsedApp, source: InstalledFrom, version: PlatformVersion) -> list[str]:
    warnings = []
    if source.kind == APK and not source.signing_schemes:
        warnings.append(
            f"{source.file_name} is not signed: Android refuses an unsigned APK (INSTALL_PARSE_FAILED_NO_CERTIFICATES); "
            "droidsim installs it, but no signed build can update it until it is uninstalled (./gradlew assembleDebug "
            "signs with the debug key; sign a release build with apksigner)")
    if parsed.code_less and not parsed.metadata.app_functions:
        warnings.append(f"{parsed.manifest.package} has no AppFunctions that {version.name} indexes: "
                        f"{_why_none(parsed, version)}")
    return warnings


def _why_none(parsed: ParsedApp, version: PlatformVersion) -> str:
    services = sorted({f.service_name for f in parsed.unindexed.app_functions})
    if services:
        where = ", ".join(f"service {s}" if s else "the application's function XML" for s in services)
        return (f"its functions are declared by {where}, which {version.name} does not index (android:enabled "
                "false on this SDK; app-level XML before Android 17)")
    if not any(SERVICE_INTERFACE in s.actions for s in parsed.manifest.services):
        return (f"no enabled service has the {SERVICE_INTERFACE} intent filter (an agent app needs none; "
                "@AppFunction classes get androidx.appfunctions.service.PlatformAppFunctionService from "
                "androidx.appfunctions:appfunctions-service)")
    return "the function XML of its AppFunctionServices declares no function"
