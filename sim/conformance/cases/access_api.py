"""AppFunctionAccessTest: the agent access API itself (request states, flags and their update
rules, revokeSelfAccess, valid agents and targets, who may ask), checked through the manager
as CTS does, and, where a state decides a call, through the call too.

The pair under test is (the caller, the helper): the caller is a valid agent (it requests
EXECUTE_APP_FUNCTIONS and the run puts it on the agent allowlist), the helper a valid target.
"""

from __future__ import annotations

import queue

from droid.appfunctions import access_fixes
from droid.appfunctions.exceptions import AppFunctionException
from droid.appfunctions.manager import (
    ACCESS_FLAG_MASK_ALL,
    ACCESS_FLAG_MASK_OTHER,
    ACCESS_FLAG_MASK_USER,
    ACCESS_FLAG_OTHER_DENIED,
    ACCESS_FLAG_OTHER_GRANTED,
    ACCESS_FLAG_PREGRANTED,
    ACCESS_FLAG_USER_DENIED,
    ACCESS_FLAG_USER_GRANTED,
    ACCESS_REQUEST_STATE_DENIED,
    ACCESS_REQUEST_STATE_GRANTED,
    ACCESS_REQUEST_STATE_NAMES,
    ACCESS_REQUEST_STATE_UNREQUESTABLE,
    access_flag_names,
)
from droid.os.exceptions import IllegalArgumentException, SecurityException
from sim.conformance.cases.common import DEADLINE, denied, execute
from sim.conformance.expect import attempt, equal, fails_with, raises, returns
from sim.conformance.registry import Mismatch, case
from sim.conformance.target import (
    CALLER_PACKAGE,
    HELPER_PACKAGE,
    LEVELED_PACKAGE,
    NONEXISTENT_PACKAGE,
    SYSTEM_CALLER_PACKAGE,
)

GRANTED, DENIED, UNREQUESTABLE = (
    ACCESS_REQUEST_STATE_GRANTED, ACCESS_REQUEST_STATE_DENIED, ACCESS_REQUEST_STATE_UNREQUESTABLE
)
ERROR_DENIED = AppFunctionException.ERROR_DENIED
# The lowest bit above every defined flag.
UNKNOWN_FLAG = ACCESS_FLAG_MASK_ALL + 1

# AppFunctionAccessTest's flag combinations and the request state each gives (CTS and the
# QPR2 code agree on all of these).
FLAG_STATES = (
    (0, DENIED),
    (ACCESS_FLAG_USER_DENIED, DENIED),
    (ACCESS_FLAG_OTHER_DENIED, DENIED),
    (ACCESS_FLAG_PREGRANTED, GRANTED),
    (ACCESS_FLAG_USER_GRANTED, GRANTED),
    (ACCESS_FLAG_OTHER_GRANTED, GRANTED),
    (ACCESS_FLAG_PREGRANTED | ACCESS_FLAG_USER_DENIED, DENIED),
    (ACCESS_FLAG_PREGRANTED | ACCESS_FLAG_OTHER_DENIED, DENIED),
    (ACCESS_FLAG_OTHER_GRANTED | ACCESS_FLAG_USER_DENIED, DENIED),
)


def flag_text(flags: int) -> str:
    return "|".join(access_flag_names(flags)) or "no flags"


def _state(what: str, expected: int, actual: int) -> None:
    names = ACCESS_REQUEST_STATE_NAMES
    equal(what, names[expected], names.get(actual, str(actual)))


def _pair_state_decides_the_call(t, flags: int, state: int) -> None:
    """With ``flags`` on (caller, helper): the shell reads them back and the request state
    ``state``, and the caller's call to the helper goes through exactly when GRANTED."""
    shell = t.shell.app_function_manager
    with t.access_flags(CALLER_PACKAGE, HELPER_PACKAGE, flags) as took:
        if not took:
            raise Mismatch(f"the device to take flags {flag_text(flags)}",
                           f"flags {flag_text(shell.get_access_flags(CALLER_PACKAGE, HELPER_PACKAGE))}")
        _state(f"the request state with {flag_text(flags)}", state,
               shell.get_access_request_state(CALLER_PACKAGE, HELPER_PACKAGE))
        outcome = execute(t.caller, HELPER_PACKAGE, "noOp")
    if state == GRANTED:
        returns(outcome, CALLER_PACKAGE)
    elif flags & ACCESS_FLAG_USER_DENIED:
        fails_with(outcome, ERROR_DENIED, message=denied(access_fixes.denied_by_user(CALLER_PACKAGE, HELPER_PACKAGE)))
    else:
        fails_with(outcome, ERROR_DENIED, message=denied(access_fixes.not_granted(CALLER_PACKAGE, HELPER_PACKAGE)))


@case("access-flags-decide-request-state", "access.flags")
def access_flags_decide_request_state(t) -> None:
    """A fresh pair is DENIED; USER_DENIED and OTHER_DENIED deny; PREGRANTED, USER_GRANTED and
    OTHER_GRANTED grant; a DENIED flag beats PREGRANTED, and USER_DENIED beats OTHER_GRANTED.
    The caller's call to the helper follows the state."""
    for flags, state in FLAG_STATES:
        _pair_state_decides_the_call(t, flags, state)


@case("access-user-overrides-other", "access.other-overrides-user")
def access_user_overrides_other(t) -> None:
    """OTHER_DENIED with USER_GRANTED is GRANTED: droidsim follows the QPR2 code, where USER flags
    decide; CTS's otherOverrideUser (at b3f9fee2, gone from the newest AccessTest) expects DENIED."""
    _pair_state_decides_the_call(t, ACCESS_FLAG_OTHER_DENIED | ACCESS_FLAG_USER_GRANTED, GRANTED)


@case("access-unrequestable", "access.unrequestable")
def access_unrequestable(t) -> None:
    """A pair whose agent or target is not installed is UNREQUESTABLE, reads as flags 0 and
    ignores updates."""
    shell = t.shell.app_function_manager
    for agent, target in ((NONEXISTENT_PACKAGE, HELPER_PACKAGE), (CALLER_PACKAGE, NONEXISTENT_PACKAGE)):
        pair = f"({agent}, {target})"
        _state(f"the request state of {pair}", UNREQUESTABLE, shell.get_access_request_state(agent, target))
        returns(attempt(lambda: shell.update_access_flags(agent, target, ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_OTHER_GRANTED)),
                False)
        equal(f"the flags of {pair} after an update", 0, shell.get_access_flags(agent, target))


@case("access-system-api-needs-manage-permission", "access.system-api-permission")
def access_system_api_needs_manage_permission(t) -> None:
    """Without MANAGE_APP_FUNCTION_ACCESS, the caller (an agent holding EXECUTE_APP_FUNCTIONS)
    gets a SecurityException from getAccessRequestState for another agent (a nonexistent one
    too: droidsim checks first), getAccessFlags, updateAccessFlags, getValidAgents and
    getValidTargets; asking for itself is allowed."""
    manager = t.caller.app_function_manager
    calls = {
        "getAccessRequestState(another agent, target)":
            lambda: manager.get_access_request_state(SYSTEM_CALLER_PACKAGE, HELPER_PACKAGE),
        # droidsim checks before looking the agent up; AOSP answers UNREQUESTABLE first, which
        # tells anyone whether a package is installed.
        "getAccessRequestState(a nonexistent agent, target)":
            lambda: manager.get_access_request_state(NONEXISTENT_PACKAGE, HELPER_PACKAGE),
        "getAccessFlags": lambda: manager.get_access_flags(CALLER_PACKAGE, HELPER_PACKAGE),
        "updateAccessFlags": lambda: manager.update_access_flags(
            CALLER_PACKAGE, HELPER_PACKAGE, ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_OTHER_GRANTED),
        "getValidAgents": manager.get_valid_agents,
        "getValidTargets": manager.get_valid_targets,
    }
    with t.access_flags(CALLER_PACKAGE, HELPER_PACKAGE, 0):  # undoes an update a broken device lets through
        for name, call in calls.items():
            outcome = attempt(call)
            if not isinstance(outcome.error, SecurityException):
                raise Mismatch(f"{name} to throw SecurityException", outcome.describe())
        _state("getAccessRequestState(itself, target)", DENIED,
               manager.get_access_request_state(CALLER_PACKAGE, HELPER_PACKAGE))


@case("access-one-argument-form", "access.one-argument-form")
def access_one_argument_form(t) -> None:
    """getAccessRequestState(target) answers for the calling package: the caller's pair follows
    its grant, and the helper, which is no agent, is UNREQUESTABLE."""
    caller = t.caller.app_function_manager
    _state("the caller's getAccessRequestState(helper)", DENIED, caller.get_access_request_state(HELPER_PACKAGE))
    with t.access_flags(CALLER_PACKAGE, HELPER_PACKAGE, ACCESS_FLAG_OTHER_GRANTED):
        _state("the caller's getAccessRequestState(helper) once granted", GRANTED,
               caller.get_access_request_state(HELPER_PACKAGE))
    _state("the helper's getAccessRequestState(caller)", UNREQUESTABLE,
           t.helper.app_function_manager.get_access_request_state(CALLER_PACKAGE))


# Each update breaks exactly one rule, so a device that drops one rule cannot pass on another.
INVALID_UPDATES = (
    ("an unknown flag", UNKNOWN_FLAG, UNKNOWN_FLAG),
    ("a flag outside the mask", ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_PREGRANTED),
    ("USER_GRANTED with USER_DENIED", ACCESS_FLAG_MASK_USER, ACCESS_FLAG_MASK_USER),
    ("OTHER_GRANTED with OTHER_DENIED", ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_MASK_OTHER),
    ("USER_GRANTED without USER_DENIED in the mask", ACCESS_FLAG_USER_GRANTED, ACCESS_FLAG_USER_GRANTED),
    ("OTHER_DENIED without OTHER_GRANTED in the mask", ACCESS_FLAG_OTHER_DENIED, ACCESS_FLAG_OTHER_DENIED),
)


@case("access-invalid-flags", "access.invalid-flags")
def access_invalid_flags(t) -> None:
    """updateAccessFlags throws IllegalArgumentException for an unknown flag, a flag outside the
    mask, both halves of a GRANTED/DENIED pair, or one half without the other in the mask; the
    pair's flags stay as they were."""
    shell = t.shell.app_function_manager
    with t.access_flags(CALLER_PACKAGE, HELPER_PACKAGE, 0):
        for what, mask, flags in INVALID_UPDATES:
            outcome = attempt(lambda: shell.update_access_flags(CALLER_PACKAGE, HELPER_PACKAGE, mask, flags))
            if not isinstance(outcome.error, IllegalArgumentException):
                raise Mismatch(f"{what} (mask {mask}, flags {flags}) to throw IllegalArgumentException",
                               outcome.describe())
            equal(f"the pair's flags after {what}", 0, shell.get_access_flags(CALLER_PACKAGE, HELPER_PACKAGE))


# Flags before revokeSelfAccess -> flags after: USER and OTHER flags become exactly
# OTHER_DENIED; PREGRANTED is outside their masks, so it stays and no longer counts (QPR2 code).
REVOKES = (
    (0, 0),
    (ACCESS_FLAG_USER_GRANTED, ACCESS_FLAG_OTHER_DENIED),
    (ACCESS_FLAG_OTHER_GRANTED | ACCESS_FLAG_USER_GRANTED, ACCESS_FLAG_OTHER_DENIED),
    (ACCESS_FLAG_PREGRANTED, ACCESS_FLAG_PREGRANTED | ACCESS_FLAG_OTHER_DENIED),
)


@case("access-revoke-self", "access.revoke-self")
def access_revoke_self(t) -> None:
    """revokeSelfAccess leaves exactly OTHER_DENIED in place of the USER and OTHER flags (a
    PREGRANTED flag stays), and nothing on a pair without flags; the pair is DENIED after."""
    shell = t.shell.app_function_manager
    for before, after in REVOKES:
        with t.access_flags(CALLER_PACKAGE, HELPER_PACKAGE, before):
            t.caller.app_function_manager.revoke_self_access(HELPER_PACKAGE)
            equal(f"the flags after revokeSelfAccess from {flag_text(before)}", flag_text(after),
                  flag_text(shell.get_access_flags(CALLER_PACKAGE, HELPER_PACKAGE)))
            _state(f"the request state after revokeSelfAccess from {flag_text(before)}", DENIED,
                   shell.get_access_request_state(CALLER_PACKAGE, HELPER_PACKAGE))


def _unrequestable(t, agent: str, target: str, why: str) -> None:
    shell = t.shell.app_function_manager
    _state(f"the request state of ({agent}, {target}): {why}", UNREQUESTABLE,
           shell.get_access_request_state(agent, target))
    returns(attempt(lambda: shell.update_access_flags(agent, target, ACCESS_FLAG_MASK_OTHER, ACCESS_FLAG_OTHER_GRANTED)),
            False)


def _membership(what: str, listed: list[str], present: set[str], absent: set[str]) -> None:
    listed_set = set(listed)
    if not present <= listed_set or absent & listed_set:
        raise Mismatch(f"{what} to include {sorted(present)} and not {sorted(absent)}", f"{what} {sorted(listed_set)}")


@case("access-valid-agents-and-targets", "access.validity")
def access_valid_agents_and_targets(t) -> None:
    """An agent must request EXECUTE_APP_FUNCTIONS (the helper does not, even when allowlisted);
    a target must have an AppFunctionService (the system caller has none). A pair failing
    either is UNREQUESTABLE and cannot be granted."""
    shell = t.shell.app_function_manager
    with t.agent_allowlisted(HELPER_PACKAGE, True):
        _membership("getValidAgents", shell.get_valid_agents(), {CALLER_PACKAGE, SYSTEM_CALLER_PACKAGE},
                    {HELPER_PACKAGE, LEVELED_PACKAGE})
        _unrequestable(t, HELPER_PACKAGE, CALLER_PACKAGE, "the agent does not request EXECUTE_APP_FUNCTIONS")
    _membership("getValidTargets", shell.get_valid_targets(), {HELPER_PACKAGE, CALLER_PACKAGE, LEVELED_PACKAGE},
                {SYSTEM_CALLER_PACKAGE})
    _unrequestable(t, CALLER_PACKAGE, SYSTEM_CALLER_PACKAGE, "the target has no AppFunctionService")


@case("access-agent-allowlist", "access.validity")
def access_agent_allowlist(t) -> None:
    """An agent must be on the agent allowlist: taken off it, the caller is no valid agent, its
    pairs are UNREQUESTABLE and its calls denied, and it loses its grants, so they are gone
    when it comes back."""
    shell = t.shell.app_function_manager
    with t.access_flags(CALLER_PACKAGE, HELPER_PACKAGE, ACCESS_FLAG_OTHER_GRANTED):
        with t.agent_allowlisted(CALLER_PACKAGE, False):
            _membership("getValidAgents off the allowlist", shell.get_valid_agents(), set(), {CALLER_PACKAGE})
            _unrequestable(t, CALLER_PACKAGE, HELPER_PACKAGE, "the agent is not on the agent allowlist")
            fails_with(execute(t.caller, HELPER_PACKAGE, "noOp"), ERROR_DENIED,
                       message=denied(access_fixes.not_allowlisted(CALLER_PACKAGE, HELPER_PACKAGE)))
        equal("the pair's flags once the caller is back on the allowlist", flag_text(0),
              flag_text(shell.get_access_flags(CALLER_PACKAGE, HELPER_PACKAGE)))
        _state("the request state once the caller is back on the allowlist", DENIED,
               shell.get_access_request_state(CALLER_PACKAGE, HELPER_PACKAGE))


@case("access-changed-listener", "access.listener")
def access_changed_listener(t) -> None:
    """addAccessChangedListener: the shell's listener hears the caller's uid when the pair's flags
    change; the caller, without MANAGE_APP_FUNCTION_ACCESS, may not add one."""
    heard: queue.SimpleQueue[int] = queue.SimpleQueue()
    shell = t.shell.app_function_manager
    shell.add_access_changed_listener(heard.put)
    try:
        with t.access_flags(CALLER_PACKAGE, HELPER_PACKAGE, ACCESS_FLAG_USER_GRANTED):
            uid = next(p.uid for p in t.package_manager.list_packages() if p.package_name == CALLER_PACKAGE)
            try:
                equal("the agent uid the listener heard", uid, heard.get(timeout=DEADLINE))
            except queue.Empty:
                raise Mismatch("the listener to hear the caller's uid", "nothing within the deadline") from None
    finally:
        shell.remove_access_changed_listener(heard.put)
    raises(attempt(lambda: t.caller.app_function_manager.add_access_changed_listener(heard.put)), SecurityException)
