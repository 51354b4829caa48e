"""CallerValidator: may this caller execute, or see, this function of that package?

One rule set (docs/access-control.md), from the verified caller identity only, never from a
package name the caller claims. A caller's reach is the lowest access level it may call:

- root, or the target's own uid: every level (ACCESS_LEVEL_SELF and up);
- EXECUTE_APP_FUNCTIONS_SYSTEM: ACCESS_LEVEL_SYSTEM and up, without a grant (permission v2);
- EXECUTE_APP_FUNCTIONS plus an access grant for the pair: ACCESS_LEVEL_ANDROID_TRUSTED;
- anyone else: nothing.

Seeing a function (search, isAppFunctionEnabled) needs the same, minus the grant: an agent
discovers targets before it asks for access, as AppSearch shows the runtime metadata to every
holder of EXECUTE_APP_FUNCTIONS.
"""

from __future__ import annotations

from droid.appfunctions.manager import ACCESS_REQUEST_STATE_GRANTED
from droid.appfunctions.metadata import (
    ACCESS_LEVEL_ANDROID_TRUSTED,
    ACCESS_LEVEL_SELF,
    ACCESS_LEVEL_SYSTEM,
    AppFunctionMetadata,
)
from droid.os.binder import CallingIdentity
from sim.appfunctions.access_service import AppFunctionAccessService
from sim.permissions.definitions import EXECUTE_APP_FUNCTIONS, EXECUTE_APP_FUNCTIONS_SYSTEM
from sim.permissions.service import PermissionManagerService
from sim.pm.registry import PackageRegistry

# A reach: the lowest access level a caller may call, or None for none.
Reach = int | None


class CallerValidator:
    def __init__(
        self, packages: PackageRegistry, permissions: PermissionManagerService, access: AppFunctionAccessService
    ) -> None:
        self._packages = packages
        self._permissions = permissions
        self._access = access

    def execution_reach(self, caller: CallingIdentity, target_package: str) -> Reach:
        return self._reach(caller, target_package, need_grant=True)

    def discovery_reach(self, caller: CallingIdentity, target_package: str) -> Reach:
        return self._reach(caller, target_package, need_grant=False)

    @staticmethod
    def permits(reach: Reach, function: AppFunctionMetadata) -> bool:
        # Metadata without a level (0) predates access levels: ANDROID_TRUSTED, the default.
        level = function.access_level or ACCESS_LEVEL_ANDROID_TRUSTED
        return reach is not None and level >= reach

    def _reach(self, caller: CallingIdentity, target_package: str, need_grant: bool) -> Reach:
        if caller.is_root:
            return ACCESS_LEVEL_SELF
        target = self._packages.get(target_package)
        if target is not None and target.uid == caller.uid:
            return ACCESS_LEVEL_SELF
        if self._permissions.check_permission(EXECUTE_APP_FUNCTIONS_SYSTEM, caller.uid):
            return ACCESS_LEVEL_SYSTEM
        if self._permissions.check_permission(EXECUTE_APP_FUNCTIONS, caller.uid) and (
            not need_grant
            or self._access.access_request_state(caller.package_name, target_package) == ACCESS_REQUEST_STATE_GRANTED
        ):
            return ACCESS_LEVEL_ANDROID_TRUSTED
        return None
