"""What an install takes but its developer should hear about: said in the install's output and
in logcat, never a reason to refuse. ``apk inspect`` prints the same (docs/kotlin.md)."""

from __future__ import annotations

from droidsim.v1.metadata_pb2 import InstalledFrom
from sim.pm.app_parser import ParsedApp
from sim.pm.installed_from import APK
from sim.pm.manifest import SERVICE_INTERFACE
from sim.platform_version import PlatformVersion

# What a Gradle build needs for AppFunctions: the library merges PlatformAppFunctionService into the
# manifest (appfunctions-service until 1.0.0-alpha09, appfunctions from alpha10), KSP writes the XML.
KOTLIN_SETUP = (
    'add the AppFunctions library and its KSP compiler to the app module: implementation("androidx.appfunctions:'
    'appfunctions:VERSION") (it merges androidx.appfunctions.service.PlatformAppFunctionService into the manifest; '
    'before 1.0.0-alpha10 also "androidx.appfunctions:appfunctions-service"), ksp("androidx.appfunctions:'
    'appfunctions-compiler:VERSION") with ksp { arg("appfunctions:aggregateAppFunctions", "true") }, and annotate '
    "the functions with @AppFunction; a release build must keep the service (R8 keep rules)")
# An app that calls other apps' functions needs none of its own.
AGENT_PERMISSIONS = ("android.permission.EXECUTE_APP_FUNCTIONS", "android.permission.EXECUTE_APP_FUNCTIONS_SYSTEM",
                     "android.permission.DISCOVER_APP_FUNCTIONS")


def install_warnings(parsed: ParsedApp, source: InstalledFrom, version: PlatformVersion) -> list[str]:
    warnings = []
    if source.kind == APK and not source.signing_schemes:
        warnings.append(
            f"{source.file_name} is not signed: Android refuses an unsigned APK (INSTALL_PARSE_FAILED_NO_CERTIFICATES); "
            "droidsim installs it, but no signed build can update it until it is uninstalled (./gradlew assembleDebug "
            "signs with the debug key; sign a release build with apksigner)")
    if (none := no_functions(parsed, version)) is not None:
        warnings.append(none)
    return warnings


def no_functions(parsed: ParsedApp, version: PlatformVersion) -> str | None:
    """That ``version`` indexes no function of a code-less app, why, and the set-up that brings them
    (None when it indexes some): for install's warning, and a skeleton that has nothing to write."""
    if not parsed.code_less or parsed.metadata.app_functions:
        return None
    unindexed = sorted({f.service_name for f in parsed.unindexed.app_functions})
    has_service = any(SERVICE_INTERFACE in s.actions for s in parsed.manifest.services)
    reason, setup = why_no_functions(unindexed, has_service, version.name)
    return f"{parsed.manifest.package} has no AppFunctions that {version.name} indexes: {reason}" + (f": {setup}" if setup else "")


def why_no_functions(unindexed_services: list[str], has_service: bool, indexer: str) -> tuple[str, str | None]:
    """Why ``indexer`` (an SDK's name) indexes no function of a Kotlin app, and the Gradle set-up that
    brings them where the build lacks it (else None): ``unindexed_services`` declare functions it
    does not index; ``has_service``: the manifest has a service with the AppFunctionService intent
    filter at all."""
    if unindexed_services:
        where = ", ".join(f"service {s}" if s else "the application's function XML" for s in unindexed_services)
        return (f"its functions are declared by {where}, which {indexer} does not index (android:enabled false on "
                "this SDK; app-level XML before Android 17)"), None
    if not has_service:
        return (f"no enabled service has the {SERVICE_INTERFACE} intent filter, so the AppFunctions library is not "
                "in the build (an agent app needs none)"), KOTLIN_SETUP
    return "the function XML of its AppFunctionServices declares no function, so KSP wrote none", KOTLIN_SETUP
