"""Changing any single access rule of the device makes at least one conformance case fail.

Each mutation breaks one rule of docs/access-control.md in a running in-process device (by
monkeypatching the service that enforces it) and runs the cases that name it: at least one
must fail. With the rule restored, the same cases must pass again, so the failure was the
rule's and not state a previous mutation left behind.

Rules no public caller can reach are not mutated: root's access (root has no credential) and
the claimed calling package (the client API never claims one).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable

import pytest

from droid.appfunctions.exceptions import (
    AppFunctionDeniedException,
    AppFunctionException,
    AppFunctionFunctionNotFoundException,
)
from droid.appfunctions.manager import (
    ACCESS_FLAG_MASK_ALL,
    ACCESS_FLAG_MASK_OTHER,
    ACCESS_FLAG_MASK_USER,
    ACCESS_FLAG_OTHER_DENIED,
    ACCESS_FLAG_OTHER_GRANTED,
    ACCESS_FLAG_PREGRANTED,
    ACCESS_FLAG_USER_GRANTED,
    ACCESS_REQUEST_STATE_DENIED,
    ACCESS_REQUEST_STATE_GRANTED,
    ACCESS_REQUEST_STATE_UNREQUESTABLE,
)
from droid.appfunctions.metadata import ACCESS_LEVEL_ANDROID_TRUSTED, ACCESS_LEVEL_SELF, ACCESS_LEVEL_SYSTEM
from droid.os.binder import SHELL, Binder, CallingIdentity
from sim.appfunctions import access_flags, access_service
from sim.appfunctions.access_service import AppFunctionAccessService
from sim.appfunctions.caller_validator import CallerValidator
from sim.appfunctions.index import FunctionIndex
from sim.appfunctions.service_impl import AppFunctionManagerServiceImpl
from sim.conformance.in_process import device_handle, served_device
from sim.conformance.registry import select
from sim.conformance.runner import run_cases
from sim.conformance.target import open_target
from sim.device import Device
from sim.permissions.definitions import EXECUTE_APP_FUNCTIONS, EXECUTE_APP_FUNCTIONS_SYSTEM
from sim.permissions.service import PermissionManagerService

ROOT = CallingIdentity(0, "root")
Apply = Callable[[pytest.MonkeyPatch, Device], None]


def wrap(owner: Any, name: str, mutate: Callable[[Callable], Callable]) -> Callable[[pytest.MonkeyPatch], None]:
    """Replace ``owner.name`` (a method, static method or module function) by ``mutate(original)``."""

    def apply(patch: pytest.MonkeyPatch) -> None:
        original = getattr(owner, name)
        replacement = mutate(original)
        if isinstance(inspect.getattr_static(owner, name), staticmethod):
            replacement = staticmethod(replacement)
        patch.setattr(owner, name, replacement)

    return apply


def patched(owner: Any, name: str, mutate: Callable[[Callable], Callable]) -> Apply:
    """``owner.name`` (on a class or a module) replaced by ``mutate(original)``."""
    return lambda patch, device: wrap(owner, name, mutate)(patch)


def on_device(build: Callable[[Device], Callable[[pytest.MonkeyPatch], None]]) -> Apply:
    """A mutation that needs the device's own services (its registry, its allowlist)."""
    return lambda patch, device: build(device)(patch)


def replaced(owner: Any, name: str, value: Any) -> Apply:
    """``owner.name`` set to ``value``."""
    return lambda patch, device: patch.setattr(owner, name, value)


def reach_mutation(change: Callable[[Device, Any, CallingIdentity, str, bool], Any]) -> Apply:
    """CallerValidator's reach, changed by ``change(device, reach, caller, target, need_grant)``."""

    def build(device: Device):
        def mutate(original):
            def reach(self, caller, target_package, need_grant):
                return change(device, original(self, caller, target_package, need_grant), caller, target_package,
                              need_grant)

            return reach

        return wrap(CallerValidator, "_reach", mutate)

    return on_device(build)


def _as(identity: CallingIdentity, call: Callable[[], Any]) -> Any:
    with Binder.calling_as(identity):
        return call()


def _granted_without_permission(device, reach, caller, target, need_grant):
    granted = device.access.access_request_state(caller.package_name, target) == ACCESS_REQUEST_STATE_GRANTED
    return ACCESS_LEVEL_ANDROID_TRUSTED if reach is None and granted else reach


def _no_same_package_allowance(device, reach, caller, target, need_grant):
    package = device.registry.get(target)
    return None if package is not None and package.uid == caller.uid else reach


def _leaky_denial(device: Device):
    def mutate(original):
        def execute(self, request, *args, **kwargs):
            try:
                return original(self, request, *args, **kwargs)
            except AppFunctionException as error:
                target = request.target_package_name
                if error.error_code == AppFunctionException.ERROR_DENIED and device.registry.get(target) is None:
                    raise AppFunctionDeniedException(f"{error.error_message} ({target} is not installed)") from None
                raise

        return execute

    return wrap(AppFunctionManagerServiceImpl, "execute_app_function", mutate)


def _lookup_before_reach(device: Device):
    def mutate(original):
        def execute(self, request, *args, **kwargs):
            target = request.target_package_name
            if target and device.index.lookup(target, request.function_identifier) is None:
                raise AppFunctionFunctionNotFoundException("App function not found.")
            return original(self, request, *args, **kwargs)

        return execute

    return wrap(AppFunctionManagerServiceImpl, "execute_app_function", mutate)


def _set_enabled_any_package(original):
    def set_enabled(self, function_identifier, state, target_package_name=""):
        target = target_package_name or Binder.get_calling_identity().package_name
        return _as(SHELL, lambda: original(self, function_identifier, state, target))

    return set_enabled


def _other_flags_first(flags: int) -> bool:
    if flags & ACCESS_FLAG_MASK_OTHER:
        return bool(flags & ACCESS_FLAG_OTHER_GRANTED)
    if flags & ACCESS_FLAG_MASK_USER:
        return bool(flags & ACCESS_FLAG_USER_GRANTED)
    return bool(flags & ACCESS_FLAG_PREGRANTED)


def _allowlist_ignored(original):
    return lambda self, package: package.requests_permission(EXECUTE_APP_FUNCTIONS)


def _agent_need_not_request(device: Device):
    return wrap(AppFunctionAccessService, "is_valid_agent",
                lambda original: lambda self, package: original(self, package)
                or package.package_name in device.agent_allowlist.packages())


def _missing_packages_requestable(device: Device):
    def mutate(original):
        def state(self, agent, target):
            answer = original(self, agent, target)
            missing = device.registry.get(agent) is None or device.registry.get(target) is None
            return ACCESS_REQUEST_STATE_DENIED if answer == ACCESS_REQUEST_STATE_UNREQUESTABLE and missing else answer

        return state

    return wrap(AppFunctionAccessService, "access_request_state", mutate)


def _request_state_unchecked(original):
    def state(self, agent, target):
        agent = agent or Binder.get_calling_identity().package_name
        return _as(SHELL, lambda: original(self, agent, target))

    return state


def _revoke_untouched_pairs(original):
    def revoke(self, target):
        agent = Binder.get_calling_identity().package_name
        _as(SHELL, lambda: self.update_access_flags(
            agent, target, ACCESS_FLAG_MASK_OTHER | ACCESS_FLAG_MASK_USER,
            ACCESS_FLAG_OTHER_DENIED))

    return revoke


def _as_root(original):
    return lambda self, *args: _as(ROOT, lambda: original(self, *args))


def _is_enabled_as_root(original):
    def is_enabled(self, function_identifier, target_package_name):
        target = target_package_name or Binder.get_calling_identity().package_name
        return _as(ROOT, lambda: original(self, function_identifier, target))

    return is_enabled


def _without_system_permission(original):
    def check(self, permission, uid):
        return permission != EXECUTE_APP_FUNCTIONS_SYSTEM and original(self, permission, uid)

    return check


@dataclass(frozen=True)
class Mutation:
    id: str
    rule: str  # the rule it breaks, as docs/access-control.md states it
    apply: Apply
    caught_by: tuple[str, ...]  # the cases that hold the device to the rule


MUTATIONS = (
    # who may execute
    Mutation("execution-needs-no-grant", "ANDROID_TRUSTED needs an access grant besides EXECUTE_APP_FUNCTIONS",
             patched(CallerValidator, "execution_reach", lambda original: CallerValidator.discovery_reach),
             ("access-permission-no-grant", "v2-permission-not-allowlisted")),
    Mutation("execution-needs-no-permission", "a grant without EXECUTE_APP_FUNCTIONS executes nothing",
             reach_mutation(_granted_without_permission),
             ("access-grant-without-permission", "v2-no-permission-allowlisted")),
    Mutation("no-system-permission-bypass", "EXECUTE_APP_FUNCTIONS_SYSTEM reaches SYSTEM without any grant",
             patched(PermissionManagerService, "check_permission", _without_system_permission),
             ("v2-system-permission-not-allowlisted", "v2-system-permission-nonexistent-package")),
    Mutation("no-same-package-allowance", "a package always runs its own functions", reach_mutation(_no_same_package_allowance),
             ("own-function-without-permission", "access-own-package-grant-without-permission")),
    Mutation("access-levels-ignored", "a function runs only for callers at or above its access level",
             patched(CallerValidator, "permits", lambda original: lambda reach, function: reach is not None),
             ("level-self", "level-system")),
    Mutation("system-reaches-self", "ACCESS_LEVEL_SELF is the same uid only",
             reach_mutation(lambda d, reach, *_: ACCESS_LEVEL_SELF if reach == ACCESS_LEVEL_SYSTEM else reach),
             ("level-self",)),
    Mutation("trusted-reaches-system", "ACCESS_LEVEL_SYSTEM needs EXECUTE_APP_FUNCTIONS_SYSTEM",
             reach_mutation(lambda d, reach, *_: ACCESS_LEVEL_SYSTEM if reach == ACCESS_LEVEL_ANDROID_TRUSTED else reach),
             ("level-system",)),
    Mutation("denial-names-missing-package", "one ERROR_DENIED message whether or not the package exists",
             on_device(_leaky_denial), ("other-package-without-permission", "access-nonexistent-package-no-grant")),
    Mutation("lookup-before-reach", "the caller's reach is checked before the function is looked up",
             on_device(_lookup_before_reach),
             ("other-package-without-permission", "access-nonexistent-package-no-grant",
              "v2-nonexistent-package-allowlisted")),
    Mutation("disabled-runs", "a disabled function is ERROR_DISABLED",
             patched(FunctionIndex, "is_enabled", lambda original: lambda self, package, function: True),
             ("disabled-by-default", "disabled-at-runtime")),
    # who may see and change
    Mutation("discovery-needs-no-permission", "another package's functions are visible with EXECUTE_APP_FUNCTIONS only",
             patched(CallerValidator, "discovery_reach",
                      lambda original: lambda self, caller, target: ACCESS_LEVEL_ANDROID_TRUSTED),
             ("is-enabled-other-package-without-permission",)),
    Mutation("discovery-needs-a-grant", "an agent sees a target's functions before it is granted",
             patched(CallerValidator, "discovery_reach", lambda original: CallerValidator.execution_reach),
             ("is-enabled-other-package-with-permission", "level-android-trusted")),
    Mutation("search-shows-everything", "search lists only the functions the caller may execute",
             patched(AppFunctionManagerServiceImpl, "search_app_functions", _as_root), ("level-self", "level-system")),
    Mutation("is-enabled-shows-everything", "isEnabled on an invisible function is IllegalArgumentException",
             patched(AppFunctionManagerServiceImpl, "is_app_function_enabled", _is_enabled_as_root),
             ("is-enabled-other-package-without-permission", "level-self")),
    Mutation("set-enabled-any-package", "an app sets the enabled state of its own functions only",
             patched(AppFunctionManagerServiceImpl, "set_app_function_enabled", _set_enabled_any_package),
             ("set-enabled-other-package",)),
    # access flags and request states
    Mutation("other-outranks-user", "USER flags decide before OTHER flags",
             replaced(access_service, "is_access_granted", _other_flags_first), ("access-user-overrides-other",)),
    Mutation("pregranted-outranks-denial", "PREGRANTED counts only without USER or OTHER flags",
             patched(access_service, "is_access_granted",
                      lambda original: lambda flags: bool(flags & ACCESS_FLAG_PREGRANTED) or original(flags)),
             ("access-flags-decide-request-state",)),
    Mutation("denials-ignored", "a DENIED flag denies",
             replaced(access_service, "is_access_granted", lambda flags: bool(
                 flags & (ACCESS_FLAG_PREGRANTED | ACCESS_FLAG_OTHER_GRANTED | ACCESS_FLAG_USER_GRANTED))),
             ("access-flags-decide-request-state",)),
    Mutation("missing-packages-requestable", "a pair with a missing package is UNREQUESTABLE",
             on_device(_missing_packages_requestable), ("access-unrequestable",)),
    Mutation("unknown-flags-accepted", "updateAccessFlags refuses an unknown flag",
             patched(AppFunctionAccessService, "update_access_flags",
                     lambda original: lambda self, agent, target, mask, flags:
                     original(self, agent, target, mask & ACCESS_FLAG_MASK_ALL, flags & ACCESS_FLAG_MASK_ALL)),
             ("access-invalid-flags",)),
    Mutation("flags-outside-mask-accepted", "updateAccessFlags refuses a flag outside the mask",
             patched(access_service, "validate_update", lambda original: lambda mask, flags: original(mask | flags, flags)),
             ("access-invalid-flags",)),
    Mutation("both-halves-accepted", "updateAccessFlags refuses GRANTED and DENIED together",
             patched(access_flags, "_validate_pair", lambda original: lambda mask, flags, pair, prefix:
                      None if flags & pair == pair else original(mask, flags, pair, prefix)),
             ("access-invalid-flags",)),
    Mutation("half-without-opposing-mask-accepted", "setting one half needs both halves in the mask",
             patched(access_flags, "_validate_pair", lambda original: lambda mask, flags, pair, prefix:
                      original(mask | pair, flags, pair, prefix)),
             ("access-invalid-flags",)),
    Mutation("revoke-clears-flags", "revokeSelfAccess leaves OTHER_DENIED",
             replaced(access_service, "ACCESS_FLAG_OTHER_DENIED", 0), ("access-revoke-self",)),
    Mutation("revoke-drops-pregranted", "revokeSelfAccess replaces the USER and OTHER flags only",
             replaced(access_service, "ACCESS_FLAG_MASK_USER", ACCESS_FLAG_MASK_USER | ACCESS_FLAG_PREGRANTED),
             ("access-revoke-self",)),
    Mutation("revoke-flags-untouched-pairs", "revokeSelfAccess does nothing to a pair without flags",
             patched(AppFunctionAccessService, "revoke_self_access", _revoke_untouched_pairs), ("access-revoke-self",)),
    # who may manage access, and who is an agent or a target
    Mutation("manage-permission-not-enforced", "the access system API needs MANAGE_APP_FUNCTION_ACCESS",
             patched(PermissionManagerService, "enforce_calling_permission",
                      lambda original: lambda self, permission, method: None),
             ("access-system-api-needs-manage-permission",)),
    Mutation("request-state-of-another-agent-unchecked",
             "getAccessRequestState for another agent needs MANAGE_APP_FUNCTION_ACCESS",
             patched(AppFunctionAccessService, "get_access_request_state", _request_state_unchecked),
             ("access-system-api-needs-manage-permission",)),
    Mutation("agent-allowlist-ignored", "an agent must be on the agent allowlist",
             patched(AppFunctionAccessService, "is_valid_agent", _allowlist_ignored),
             ("v2-permission-not-allowlisted", "access-agent-allowlist")),
    Mutation("agent-need-not-request-permission", "an agent must request EXECUTE_APP_FUNCTIONS",
             on_device(_agent_need_not_request), ("access-valid-agents-and-targets",)),
    Mutation("target-need-not-have-service", "a target must have an AppFunctionService",
             patched(AppFunctionAccessService, "is_valid_target", lambda original: lambda package: True),
             ("access-valid-agents-and-targets",)),
    Mutation("flags-survive-leaving-allowlist", "an agent taken off the allowlist loses its flags",
             lambda patch, device: patch.setattr(device.agent_allowlist, "_listeners", []),
             ("access-agent-allowlist",)),
)


@pytest.fixture(scope="module")
def mutable_device(tmp_path_factory):
    """One in-process device for every mutation, its apps in their own processes as in
    test_conformance.py; the mutations patch only the services of this process."""
    with served_device(tmp_path_factory.mktemp("mutations") / "data") as device:
        with open_target(device_handle(device)) as target:
            yield device, target


def test_the_mutations_are_distinct_and_name_registered_cases():
    assert len({m.id for m in MUTATIONS}) == len(MUTATIONS)
    for mutation in MUTATIONS:
        assert len(select(mutation.caught_by)) == len(mutation.caught_by), mutation.id  # select refuses unknown ids


@pytest.mark.parametrize("mutation", MUTATIONS, ids=[m.id for m in MUTATIONS])
def test_breaking_an_access_rule_fails_a_case(mutation, mutable_device):
    device, target = mutable_device
    cases = select(mutation.caught_by)
    with pytest.MonkeyPatch.context() as patch:
        mutation.apply(patch, device)
        broken = run_cases(cases, target)
    assert any(r.status == "fail" for r in broken), f"no case caught the broken rule: {mutation.rule}"
    restored = run_cases(cases, target)
    assert [r.explain() for r in restored if r.status == "fail"] == []
