"""CallerValidator: may this caller execute, or see, this function of that package?

One rule set per platform version (docs/access-control.md), from the verified caller identity
only, never from a package name the caller claims. A caller's reach is the lowest access level
it may call:

- root, or the target's own uid: every level (ACCESS_LEVEL_SELF and up);
- EXECUTE_APP_FUNCTIONS_SYSTEM: ACCESS_LEVEL_SYSTEM and up, without a grant on Android 17
  (permission v2); on Android 16 only with EXECUTE_APP_FUNCTIONS and a grant, as below;
- EXECUTE_APP_FUNCTIONS plus an access grant for the pair: ACCESS_LEVEL_ANDROID_TRUSTED;
- anyone else: nothing.

Android 17.2 enforces a function's access level itself. Before it, Jetpack's CallerAccessVerifier
does, in the app, and only when the function opts in (isCompatEnforcementEnabled); a function
that opts out is open to every caller that reaches the package.

Seeing a function (search, isAppFunctionEnabled, getAppFunctionStates, observers) needs the
same, minus the grant: an agent discovers targets before it asks for access, as AppSearch shows
the runtime metadata to every holder of EXECUTE_APP_FUNCTIONS. On Android 17 DISCOVER_APP_FUNCTIONS
sees them too, at ACCESS_LEVEL_ANDROID_TRUSTED, and executes nothing
(VisibilityHelperImpl.hasPermissionsToQueryRuntimeMetadata @f6328b66, lines 181-198).
"""

from __future__ import annotations

from typing import Sequence

from droid.appfunctions.manager import ACCESS_REQUEST_STATE_GRANTED
from droid.appfunctions.metadata import (
    ACCESS_LEVEL_ANDROID_TRUSTED,
    ACCESS_LEVEL_SELF,
    ACCESS_LEVEL_SYSTEM,
    AppFunctionMetadata,
)
from droid.os.binder import CallingIdentity
from sim.appfunctions.access_service import AppFunctionAccessService
from sim.permissions.definitions import DISCOVER_APP_FUNCTIONS, EXECUTE_APP_FUNCTIONS, EXECUTE_APP_FUNCTIONS_SYSTEM
from sim.permissions.service import PermissionManagerService
from sim.platform_version import NEWEST, PlatformVersion
from sim.pm.registry import InstalledPackage, PackageRegistry

# A reach: the lowest access level a caller may call, or None for none.
Reach = int | None


class CallerValidator:
    def __init__(
        self,
        packages: PackageRegistry,
        permissions: PermissionManagerService,
        access: AppFunctionAccessService,
        version: PlatformVersion = NEWEST,
    ) -> None:
        self._packages = packages
        self._permissions = permissions
        self._access = access
        self._version = version

    def execution_reach(self, caller: CallingIdentity, target_package: str) -> Reach:
        return self._reach(caller, target_package, need_grant=True)

    def discovery_reach(self, caller: CallingIdentity, target_package: str) -> Reach:
        return self._reach(caller, target_package, need_grant=False)

    def visible_function_ids(self, caller: CallingIdentity, package: InstalledPackage) -> list[str]:
        """The ids of ``package``'s functions ``caller`` may discover: what search shows it."""
        reach = self.discovery_reach(caller, package.package_name)
        return [f.id for f in package.metadata.app_functions if self.permits(reach, f)]

    def permits(self, reach: Reach, function: AppFunctionMetadata) -> bool:
        if reach is None:
            return False
        if not self._version.platform_enforces_access_levels and not function.is_compat_enforcement_enabled:
            return True
        # Metadata without a level (0) predates access levels: ANDROID_TRUSTED, the default.
        return (function.access_level or ACCESS_LEVEL_ANDROID_TRUSTED) >= reach

    def permits_all(self, reach: Reach, functions: Sequence[AppFunctionMetadata], most_restricted: AppFunctionMetadata) -> bool:
        """Whether ``reach`` permits every one of ``functions``, ``most_restricted`` being the one
        with the lowest level: one check where levels alone decide, as on Android 17.2."""
        if self._version.platform_enforces_access_levels:
            return self.permits(reach, most_restricted)
        return all(self.permits(reach, f) for f in functions)

    def _reach(self, caller: CallingIdentity, target_package: str, need_grant: bool) -> Reach:
        if caller.is_root:
            return ACCESS_LEVEL_SELF
        target = self._packages.get(target_package)
        if target is not None and target.uid == caller.uid:
            return ACCESS_LEVEL_SELF
        system = self._permissions.check_permission(EXECUTE_APP_FUNCTIONS_SYSTEM, caller.uid)
        # On Android 16 the shell grants itself access first (grant-app-function-access
        # --agent-package com.android.shell); droidsim's shell is no package to grant.
        if system and (self._version.system_permission_skips_grant or caller.is_shell):
            return ACCESS_LEVEL_SYSTEM
        if self._permissions.check_permission(EXECUTE_APP_FUNCTIONS, caller.uid) and (
            not need_grant
            or self._access.access_request_state(caller.package_name, target_package) == ACCESS_REQUEST_STATE_GRANTED
        ):
            return ACCESS_LEVEL_SYSTEM if system else ACCESS_LEVEL_ANDROID_TRUSTED
        if (not need_grant and self._version.discovers_with_v2_permissions
                and self._permissions.check_permission(DISCOVER_APP_FUNCTIONS, caller.uid)):
            return ACCESS_LEVEL_ANDROID_TRUSTED
        return None
