"""CallerValidator: may this caller execute functions of that package?

Mirrors AOSP's CallerValidatorImpl: the decision uses only the identity the
binder verified, never a package name the caller claims.
"""

from __future__ import annotations

from droid.os.binder import ROOT_UID, SHELL_UID, SYSTEM_UID, CallingIdentity
from sim.pm.registry import PackageRegistry

EXECUTE_APP_FUNCTIONS = "android.permission.EXECUTE_APP_FUNCTIONS"


class CallerValidator:
    def __init__(self, packages: PackageRegistry) -> None:
        self._packages = packages

    def can_execute(self, caller: CallingIdentity, target_package: str) -> bool:
        if caller.uid in (ROOT_UID, SYSTEM_UID, SHELL_UID):
            return True
        caller_package = self._packages.by_uid(caller.uid)
        if caller_package is None:
            return False
        if caller_package.package_name == target_package:
            return True
        return caller_package.requests_permission(EXECUTE_APP_FUNCTIONS)
