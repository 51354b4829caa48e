"""What an agent app may call among the functions it sees, and what keeps it from the rest.

Search shows an agent every ANDROID_TRUSTED function once it holds EXECUTE_APP_FUNCTIONS, as
AppSearch does, so that it can find a target before it asks for access; calling one needs
more. ``AgentAccess`` tells the two apart as the device decides a call
(docs/access-control.md, "Who may execute"): the agent's own functions; every package's when
it holds EXECUTE_APP_FUNCTIONS_SYSTEM (Android 17; the shell holds it); else the targets whose
access request state is GRANTED. What it sees is the device's search: on Android 17 an app
holding DISCOVER_APP_FUNCTIONS sees other apps' functions too, and calls none of them
(VisibilityHelperImpl.hasPermissionsToQueryRuntimeMetadata). Discovery (``AppFunctionAgentTools.discover``) and the MCP
bridge both offer only what passes, so a model is never offered a function it cannot call,
and both say what keeps the agent from the rest, with the command that fixes it
(droid.appfunctions.access_fixes). The device still checks every call.
"""

from __future__ import annotations

import difflib

from typing import Any, Iterable

from droid.appfunctions import access_fixes
from droid.appfunctions.manager import ACCESS_REQUEST_STATE_GRANTED, ACCESS_REQUEST_STATE_UNREQUESTABLE
from droid.os.binder import SHELL_PACKAGE

PERMISSION_GRANTED = 0  # PackageManager.PERMISSION_GRANTED
# From Android 17 (permission v2) EXECUTE_APP_FUNCTIONS_SYSTEM calls without an access grant,
# and DISCOVER_APP_FUNCTIONS exists.
PERMISSION_V2_FROM_SDK = 37


class AgentAccess:
    """The calling app's access to other apps' functions, asked of the device once per target."""

    def __init__(self, context: Any) -> None:
        self.agent = context.package_name
        self._manager = context.app_function_manager
        self._states: dict[str, int] = {}
        if self.agent == SHELL_PACKAGE:  # platform-signed: it holds both, and is no installed package
            self.holds_permission = self.reaches_every_target = self.sees_other_apps = True
            return
        packages = context.get_system_service("package")

        def holds(permission: str) -> bool:
            return packages.check_permission(permission, self.agent) == PERMISSION_GRANTED

        system = holds(access_fixes.EXECUTE_APP_FUNCTIONS_SYSTEM)
        self.holds_permission = system or holds(access_fixes.EXECUTE_APP_FUNCTIONS)
        v2 = context.sdk_int >= PERMISSION_V2_FROM_SDK
        self.reaches_every_target = system and v2
        # Search shows it other apps' functions (it may call them or not).
        self.sees_other_apps = self.holds_permission or (v2 and holds(access_fixes.DISCOVER_APP_FUNCTIONS))
        self._packages = packages

    def requests_permission(self) -> bool:
        """Whether its manifest requests EXECUTE_APP_FUNCTIONS (holding it, it does)."""
        return self.holds_permission or access_fixes.EXECUTE_APP_FUNCTIONS in self._requested()

    def misspelt_permission(self) -> str | None:
        """A permission its manifest requests whose name is close to EXECUTE_APP_FUNCTIONS' and is
        none the platform defines (DISCOVER_APP_FUNCTIONS is as close, and means what it says)."""
        requested = [p for p in self._requested() if p not in access_fixes.APP_FUNCTION_PERMISSIONS]
        close = difflib.get_close_matches(access_fixes.EXECUTE_APP_FUNCTIONS, requested, n=1, cutoff=0.85)
        return close[0] if close else None

    def _requested(self) -> list[str]:
        own = next((p for p in self._packages.list_packages() if p.package_name == self.agent), None)
        return list(own.requested_permissions) if own is not None else []

    def permission_problem(self) -> str | None:
        """Why the agent sees no other app's functions at all, or None: it holds the permission."""
        if self.holds_permission:
            return None
        return access_fixes.missing_permission(self.agent, self.requests_permission(), self.misspelt_permission())

    def may_execute(self, package: str) -> bool:
        if package == self.agent or self.reaches_every_target:
            return True
        return self._state(package) == ACCESS_REQUEST_STATE_GRANTED

    def problem(self, package: str) -> str | None:
        """What keeps the agent from ``package``'s functions, with the fixing command; None
        when it may call them."""
        if self.may_execute(package):
            return None
        if not self.holds_permission:  # it sees the package (DISCOVER_APP_FUNCTIONS) and calls nothing
            return access_fixes.sees_but_may_not_call(self.agent, package, self.permission_problem())
        if self._state(package) == ACCESS_REQUEST_STATE_UNREQUESTABLE:
            return access_fixes.not_allowlisted(self.agent, package)
        return access_fixes.not_granted(self.agent, package)

    def problems(self, packages: Iterable[str]) -> dict[str, str]:
        """What keeps the agent from each of ``packages`` it may not call, by package."""
        return {package: problem for package in sorted(set(packages)) if (problem := self.problem(package))}

    def _state(self, package: str) -> int:
        if package not in self._states:
            self._states[package] = self._manager.get_access_request_state(package)
        return self._states[package]

