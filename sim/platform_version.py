"""PlatformVersion: the Android release a device simulates, and what differs between them.

One setting (``droidsim device start --sdk 36|37``) rather than a flag per behaviour: each
field below is a behaviour that Android 16 and Android 17 disagree on, named after what it
does, with the source that shows it (docs/differences.md, "Platform versions").
"""

from __future__ import annotations

from dataclasses import dataclass

# Build.VERSION_CODES
BAKLAVA = 36  # Android 16
CINNAMON_BUN = 37  # Android 17


@dataclass(frozen=True)
class PlatformVersion:
    sdk_int: int
    release: str
    # Android 17.2 (SDK_INT_FULL 3700002) enforces access levels itself; before it only Jetpack
    # does, in the app, and only for functions with isCompatEnforcementEnabled
    # (androidx CallerAccessVerifier.kt).
    platform_enforces_access_levels: bool
    # Permission v2 (enable_app_function_permission_v2): EXECUTE_APP_FUNCTIONS_SYSTEM calls
    # without an access grant (S/CallerValidator.java @a058b330); on Android 16 a caller needs
    # EXECUTE_APP_FUNCTIONS and a grant.
    system_permission_skips_grant: bool
    # enable_dynamic_app_functions: the application-level function XML is indexed beside every
    # service's (AppSearch AppFunctionResolveInfo.java); Android 16 reads service-level XML only.
    indexes_app_level_functions: bool
    # Which AppFunctionService a call binds in a package with several: on Android 16 the one
    # PackageManager.resolveService picks for the package (ServiceHelperImpl
    # .resolveAppFunctionService(packageName, user): the first in the manifest), whichever
    # declared the function; on Android 17 the one that declared it (the indexer records each
    # function's serviceName there; androidx: "more than one service per app works only on API 37+").
    binds_declaring_service: bool

    @property
    def name(self) -> str:
        return f"Android {self.release} (SDK {self.sdk_int})"


ANDROID_16 = PlatformVersion(BAKLAVA, "16", False, False, False, False)
ANDROID_17 = PlatformVersion(CINNAMON_BUN, "17", True, True, True, True)
VERSIONS = {v.sdk_int: v for v in (ANDROID_16, ANDROID_17)}
NEWEST = ANDROID_17


def platform_version(sdk_int: int) -> PlatformVersion:
    """The version for ``sdk_int``; ValueError naming the ones there are."""
    try:
        return VERSIONS[sdk_int]
    except KeyError:
        known = ", ".join(str(sdk) for sdk in sorted(VERSIONS))
        raise ValueError(f"no platform version with SDK {sdk_int}: this simulator has {known}") from None
