"""Why the device refused a call: who lacks what, and the command that fixes it
(droid.appfunctions.access_fixes), said after the platform's ERROR_DENIED text.

Android says only "Caller does not have permission to execute the appfunction"; a developer
then has to guess among a permission, the allowlist, a grant and an access level. The reason
follows the platform's text, so a check written for Android (the text, or its start) still
holds (docs/differences.md). It is worked out from the verified caller only, and a caller
without reach hears the same reason whether or not the target exists.
"""

from __future__ import annotations

from droid.appfunctions import access_fixes
from droid.appfunctions.manager import ACCESS_FLAG_USER_DENIED
from droid.appfunctions.metadata import ACCESS_LEVEL_SELF, AppFunctionMetadata
from droid.os.binder import CallingIdentity
from sim.appfunctions.access_service import AppFunctionAccessService
from sim.permissions.definitions import EXECUTE_APP_FUNCTIONS, EXECUTE_APP_FUNCTIONS_SYSTEM
from sim.permissions.service import PRIVILEGED_ALLOWLIST, PermissionManagerService
from sim.pm.registry import InstalledPackage, PackageRegistry
from sim.pm.signed_packages import other_signer


class Denials:
    def __init__(self, packages: PackageRegistry, permissions: PermissionManagerService,
                 access: AppFunctionAccessService) -> None:
        self._packages = packages
        self._permissions = permissions
        self._access = access

    def no_reach(self, caller: CallingIdentity, target: str) -> str:
        """The caller may call nothing of ``target``: the first of permission, allowlist and
        grant that it lacks."""
        agent = caller.package_name
        holds = self._permissions.check_permission
        package = self._packages.by_uid(caller.uid)
        if not holds(EXECUTE_APP_FUNCTIONS, caller.uid) and not holds(EXECUTE_APP_FUNCTIONS_SYSTEM, caller.uid):
            requested = package is not None and package.requests_permission(EXECUTE_APP_FUNCTIONS)
            return access_fixes.missing_permission(agent, requested) + _another_signers(
                package, self._permissions.privileged_entries(), PRIVILEGED_ALLOWLIST)
        if package is None or not self._access.is_valid_agent(package):
            return access_fixes.not_allowlisted(agent, target) + _another_signers(
                package, self._access.allowlist_entries(), "agent allowlist")
        if self._access.access_flags(agent, target) & ACCESS_FLAG_USER_DENIED:
            return access_fixes.denied_by_user(agent, target)
        return access_fixes.not_granted(agent, target)

    @staticmethod
    def below_level(caller: CallingIdentity, target: str, function: AppFunctionMetadata) -> str:
        """The caller reaches ``target`` but not this function's access level."""
        if function.access_level == ACCESS_LEVEL_SELF:
            return access_fixes.self_only(function.id, target)
        return access_fixes.system_only(caller.package_name, function.id)


def _another_signers(package: InstalledPackage | None, entries, listed: str) -> str:
    """Why naming the package to the list again would not do: its entry is another signer's
    (which signer is not the caller's to learn: the list is read with MANAGE_APP_FUNCTION_ACCESS)."""
    if package is None or not any(other_signer(entry, {package.package_name: package}.get) for entry in entries):
        return ""
    return (f"; {package.package_name} is on the {listed} for another signer's package of that name, which this "
            "install is not: remove it from the list, then add it again, to trust this install")
