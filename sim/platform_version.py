"""PlatformVersion: the Android release a device simulates, and what differs between them.

One setting (``droidsim device start --sdk 36|37``) rather than a flag per behaviour: each
field below is a behaviour that Android 16 and Android 17 disagree on, named after what it
does, with the source that shows it (docs/differences.md, "Platform versions"). What the
AppFunction indexer does is the AppSearch module that ships with the release: branch
``16-qpr2`` for Android 16, branch ``17`` for Android 17 (GrapheneOS's mirror of
``packages/modules/AppSearch``).
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
    # Permission v2 also defines DISCOVER_APP_FUNCTIONS, and it or EXECUTE_APP_FUNCTIONS_SYSTEM
    # lets a caller see the functions and states of every package visible to it, as
    # EXECUTE_APP_FUNCTIONS does (VisibilityHelperImpl.hasPermissionsToQueryRuntimeMetadata
    # @f6328b66, used by filterVisiblePackages and filterVisibleAppFunctions). Android 16 has no
    # DISCOVER_APP_FUNCTIONS: its runtime metadata is visible to EXECUTE_APP_FUNCTIONS holders only
    # (AppSearch 16-qpr2 VisibilityCheckerImpl; 17's returns false for DISCOVER with v2 off).
    discovers_with_v2_permissions: bool
    # enable_dynamic_app_functions: the application-level function XML is indexed beside every
    # service's (AppSearch AppFunctionResolveInfo.java); Android 16 reads service-level XML only.
    # With it on, AppSearch 17 also takes a document's <functionId> as its id, as <id>
    # (AppFunctionDocumentParserImpl.java:364-374 @4a8ffaab, isAppLevelAppFunctionsEnabled).
    indexes_app_level_functions: bool
    # Which AppFunctionService a call binds in a package with several: on Android 16 the one
    # PackageManager.resolveService picks for the package (ServiceHelperImpl
    # .resolveAppFunctionService(packageName, user): the first queryIntentServices lists),
    # whichever declared the function; on Android 17 the one that declared it (the indexer records
    # each function's serviceName there; androidx: "more than one service per app works only on API 37+").
    binds_declaring_service: bool
    # Which AppFunctionServices the indexer reads: on Android 16 one per package, the last that
    # queryIntentServices lists (AppsUtil.getPackagesToIndex puts each into a map by package);
    # on Android 17 every one (AppsUtil.getAppFunctionServiceInfos, "[1/2] Multi-Service Indexing").
    indexes_every_service: bool
    # Android 17's indexer leaves out a service without
    # android:permission="android.permission.BIND_APP_FUNCTION_SERVICE" (AppSearch 966c992a);
    # Android 16's reads it like any other (the platform then refuses to bind it).
    indexer_requires_bind_permission: bool
    # Android 16 reads android.app.appfunctions.v2 only when the package has an app schema
    # (android.app.appfunctions.schema), else android.app.appfunctions (v1) alone
    # (AppsUtil.buildAppFunctionDocumentsIntoMap); Android 17 reads v2, else v1, and parses a file
    # without an app schema against the platform's bare AppFunctionStaticMetadata schema
    # (AppFunctionsIndexerUtil.buildAppFunctionDocumentsIntoMap).
    reads_v2_only_with_app_schema: bool
    # An <appfunction> without <enabledByDefault> read against an app schema: disabled on
    # Android 16 (a generic document builder, no default); enabled on Android 17
    # (AppFunctionStaticMetadata.Builder; AppSearch cfd54a97 "Default enabledByDefault to true").
    # Read without an app schema (v1) it is enabled on both.
    enables_omitted_enabled_by_default: bool
    # An element a document's schema does not declare: Android 17 skips it and its subtree
    # (AppSearch 5e82a257); Android 16 QPR1 and QPR2 throw (fcfe73c6), so the whole file indexes nothing.
    skips_undeclared_elements: bool

    @property
    def name(self) -> str:
        return f"Android {self.release} (SDK {self.sdk_int})"


ANDROID_16 = PlatformVersion(
    BAKLAVA, "16", platform_enforces_access_levels=False, system_permission_skips_grant=False,
    discovers_with_v2_permissions=False,
    indexes_app_level_functions=False, binds_declaring_service=False, indexes_every_service=False,
    indexer_requires_bind_permission=False, reads_v2_only_with_app_schema=True,
    enables_omitted_enabled_by_default=False, skips_undeclared_elements=False,
)
ANDROID_17 = PlatformVersion(
    CINNAMON_BUN, "17", platform_enforces_access_levels=True, system_permission_skips_grant=True,
    discovers_with_v2_permissions=True,
    indexes_app_level_functions=True, binds_declaring_service=True, indexes_every_service=True,
    indexer_requires_bind_permission=True, reads_v2_only_with_app_schema=False,
    enables_omitted_enabled_by_default=True, skips_undeclared_elements=True,
)
VERSIONS = {v.sdk_int: v for v in (ANDROID_16, ANDROID_17)}
NEWEST = ANDROID_17


def platform_version(sdk_int: int) -> PlatformVersion:
    """The version for ``sdk_int``; ValueError naming the ones there are."""
    try:
        return VERSIONS[sdk_int]
    except KeyError:
        known = ", ".join(str(sdk) for sdk in sorted(VERSIONS))
        raise ValueError(f"no platform version with SDK {sdk_int}: this simulator has {known}") from None
