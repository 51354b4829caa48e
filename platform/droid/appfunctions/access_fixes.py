"""What keeps an agent from calling a function, and the droidsim command that fixes it.

One wording for every place that says it: the device's ERROR_DENIED message, the agent
runtime's discovery report and ``droidsim agent``'s warning (docs/access-control.md,
"Making an agent app work"). Each text names the agent, the target and what is missing.
None says whether a package or a function exists beyond what the caller may already learn.
"""

from __future__ import annotations

EXECUTE_APP_FUNCTIONS = "android.permission.EXECUTE_APP_FUNCTIONS"
EXECUTE_APP_FUNCTIONS_SYSTEM = "android.permission.EXECUTE_APP_FUNCTIONS_SYSTEM"
DISCOVER_APP_FUNCTIONS = "android.permission.DISCOVER_APP_FUNCTIONS"
MANAGE_APP_FUNCTION_ACCESS = "android.permission.MANAGE_APP_FUNCTION_ACCESS"
# The platform's own names: one of them requested is a choice, never a misspelling of another.
APP_FUNCTION_PERMISSIONS = frozenset((EXECUTE_APP_FUNCTIONS, EXECUTE_APP_FUNCTIONS_SYSTEM, DISCOVER_APP_FUNCTIONS,
                                      MANAGE_APP_FUNCTION_ACCESS))


def privileged_command(agent: str) -> str:
    return f"droidsim shell pm add-privileged-allowlist {agent}"


def allowlist_command(agent: str) -> str:
    """droidsim's own verb, which keeps the other agents (a phone's shell only replaces the list:
    ``cmd app_function set-additional-allowlisted-agents``)."""
    return f"droidsim access agents add {agent}"


def grant_command(agent: str, target: str) -> str:
    return (f"droidsim shell cmd app_function grant-app-function-access --agent-package {agent} "
            f"--target-package {target}")


def missing_permission(agent: str, requested: bool, misspelt: str | None = None) -> str:
    """``misspelt``: a permission the agent requests whose name is close to EXECUTE_APP_FUNCTIONS."""
    if not requested:
        typo = f" (it requests {misspelt}, which is not it: a misspelling?)" if misspelt else ""
        return (f"{agent} does not request {EXECUTE_APP_FUNCTIONS}{typo}: an agent app declares "
                f'<uses-permission android:name="{EXECUTE_APP_FUNCTIONS}" /> in its manifest and is privileged')
    return (f"{agent} requests {EXECUTE_APP_FUNCTIONS} but does not hold it: it is granted only to privileged "
            f"apps; make {agent} one with `{privileged_command(agent)}` (or install it with --system)")


def sees_but_may_not_call(agent: str, target: str, missing: str) -> str:
    """An app that sees another's functions (DISCOVER_APP_FUNCTIONS, Android 17) but may execute none."""
    return f"{agent} sees the functions of {target} but may not call them: {missing}"


def not_allowlisted(agent: str, target: str) -> str:
    return (f"{agent} is not on the agent allowlist, so it may call no other app's functions: "
            f"`{allowlist_command(agent)}`, then grant it {target}: `{grant_command(agent, target)}`")


def not_granted(agent: str, target: str) -> str:
    return f"{agent} has no access grant for {target}: `{grant_command(agent, target)}`"


def denied_by_user(agent: str, target: str) -> str:
    return (f"the user denied {agent} access to {target} (ACCESS_FLAG_USER_DENIED), which a grant from the shell "
            "does not override: only the user's own grant (update_access_flags with ACCESS_FLAG_MASK_USER) undoes it")


def self_only(function_id: str, target: str) -> str:
    return f"{function_id} is ACCESS_LEVEL_SELF: only {target} itself may call it"


def system_only(agent: str, function_id: str) -> str:
    return (f"{function_id} is ACCESS_LEVEL_SYSTEM: only holders of {EXECUTE_APP_FUNCTIONS_SYSTEM} may call it, "
            f"and {agent} does not hold it (a privileged permission: request it and be privileged)")


def invalid_pair(agent: str, target: str, *, agent_installed: bool, agent_requests: bool, agent_allowlisted: bool,
                 target_installed: bool, target_has_service: bool) -> str | None:
    """The first rule of a valid (agent, target) pair that fails, with its fix; None when the pair
    is valid (QPR2's AppFunctionAccessService: an invalid pair ignores grants)."""
    if not agent_installed:
        return f"{agent} is not installed"
    if not agent_requests:
        return missing_permission(agent, requested=False)
    if not agent_allowlisted:
        return f"{agent} is not on the agent allowlist: `{allowlist_command(agent)}`"
    if not target_installed:
        return f"{target} is not installed"
    if not target_has_service:
        return (f"{target} has no service with the android.app.appfunctions.AppFunctionService intent filter, "
                "so it is no target of agents")
    return None
