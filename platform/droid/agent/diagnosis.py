"""One diagnosis of an agent app: what it holds, what it lacks, and the command for the next step.

``droidsim agent --as``, ``droidsim mcp --as``, ``connect_as`` and the pytest plugin all ask
``diagnose(context)`` and say what it says, so the doors never disagree about one app:

- the steps of docs/access-control.md, "Making an agent app work": it requests
  EXECUTE_APP_FUNCTIONS, holds it (privileged), is on the agent allowlist, and has a grant per
  target (DISCOVER_APP_FUNCTIONS, Android 17, lets it see other apps and call none);
- its own functions, at every access level (an internal agent's ACCESS_LEVEL_SELF and
  ACCESS_LEVEL_SYSTEM tools are its own to call whatever else it lacks), counted and listed as
  its own, never as "functions of" another app it may not call;
- ``lines``: what to tell the developer, each missing step with the command that takes it, and
  ``refusal``: set when the app may call no app function at all (none of its own, none of
  another's), which both doors turn into the same error and exit status 1.

An app cannot read the agent allowlist (MANAGE_APP_FUNCTION_ACCESS); the device tells it by the
access request state of a target it sees (UNREQUESTABLE: not allowlisted), or of itself when it
is a target too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from droid.agent.access import AgentAccess
from droid.appfunctions import access_fixes
from droid.appfunctions.manager import ACCESS_REQUEST_STATE_UNREQUESTABLE
from droid.appfunctions.metadata import ACCESS_LEVEL_ANDROID_TRUSTED, ACCESS_LEVEL_SELF, ACCESS_LEVEL_SYSTEM

LEVEL_NAMES = {ACCESS_LEVEL_SELF: "ACCESS_LEVEL_SELF", ACCESS_LEVEL_SYSTEM: "ACCESS_LEVEL_SYSTEM",
               ACCESS_LEVEL_ANDROID_TRUSTED: "ACCESS_LEVEL_ANDROID_TRUSTED"}
_NAMED_PER_LEVEL = 3  # more functions of one level are counted, not named


@dataclass(frozen=True)
class OwnFunction:
    """One of the app's own functions, which it may call whatever else it lacks."""

    function_id: str
    access_level: int = ACCESS_LEVEL_ANDROID_TRUSTED

    @property
    def short_id(self) -> str:
        return self.function_id.rsplit("#", 1)[-1]



@dataclass(frozen=True)
class AgentDiagnosis:
    """What ``agent`` holds and lacks as an agent; see the module docstring."""

    agent: str
    requests_permission: bool
    holds_permission: bool
    allowlisted: bool | None  # None: nothing on the device tells (no target to ask about)
    own_functions: tuple[OwnFunction, ...] = ()
    # Each other app whose functions it sees: None when it may call them, else what it lacks.
    targets: dict[str, str | None] = field(default_factory=dict)
    misspelt_permission: str | None = None  # requested in place of EXECUTE_APP_FUNCTIONS

    @property
    def callable_targets(self) -> list[str]:
        return [target for target, problem in self.targets.items() if problem is None]

    @property
    def blocked_targets(self) -> dict[str, str]:
        return {target: problem for target, problem in self.targets.items() if problem is not None}

    @property
    def may_call_anything(self) -> bool:
        return bool(self.own_functions or self.callable_targets)

    def missing_step(self) -> str | None:
        """The first step of the set-up it lacks for other apps' functions, with its command."""
        if not self.holds_permission:
            return access_fixes.missing_permission(self.agent, self.requests_permission, self.misspelt_permission)
        if self.allowlisted is False:
            return (f"{self.agent} is not on the agent allowlist, so it may call no other app's functions: "
                    f"`{access_fixes.allowlist_command(self.agent)}`")
        return None

    def own_summary(self) -> str:
        """``its own 3 functions (remember (ACCESS_LEVEL_SELF); status (ACCESS_LEVEL_SYSTEM); ...)``:
        by access level, named where a level has few, counted where it has many."""
        count = len(self.own_functions)
        groups = []
        for level, name in LEVEL_NAMES.items():
            ids = [f.short_id for f in self.own_functions if f.access_level == level]
            if ids:
                groups.append(f"{', '.join(ids)} ({name})" if len(ids) <= _NAMED_PER_LEVEL else f"{len(ids)} {name}")
        return f"its own {count} function{'s' if count != 1 else ''} ({'; '.join(groups)})"

    def lines(self) -> list[str]:
        """What to tell the developer, one problem a line, each with its fix; [] when set up."""
        blocked = self.blocked_targets
        step = self.missing_step()
        if not self.may_call_anything:
            if not blocked:  # it sees no other app: the first missing step says why
                return [step] if step else []
            return list(blocked.values())
        if step is not None:  # what it lacks keeps it from every other app: say it once
            blocked = {t: p for t, p in blocked.items() if not _said_by(p, step)}
        grants = [t for t, p in blocked.items() if p == access_fixes.not_granted(self.agent, t)]
        lacking = [f"other apps': {step}"] if step is not None else []
        if grants:
            commands = ", ".join(f"`{access_fixes.grant_command(self.agent, t)}`" for t in grants)
            lacking.append(f"the functions of {', '.join(grants)} (no access grant): {commands}")
        others = [p for t, p in blocked.items() if t not in grants]  # denied by the user, seen but not callable
        if not lacking:
            return others
        first = (f"{self.agent} may call only {self.own_summary()}" if self.own_functions and not self.callable_targets
                 else f"{self.agent} may call {self._reach()}")
        return [f"{first}, not {'; nor '.join(lacking)}", *others]

    def _reach(self) -> str:
        """What it may call, said when something else is out of its reach."""
        parts = [self.own_summary()] if self.own_functions else []
        if self.callable_targets:
            parts.append(f"the functions of {', '.join(self.callable_targets)}")
        return " and ".join(parts)

    @property
    def refusal(self) -> str | None:
        """Why neither door runs the app's agent, or None: it may call some app function, or lacks
        nothing (a device with no other app's functions to call is no fault of the agent's)."""
        if self.may_call_anything or not self.lines():
            return None
        return f"{self.agent} may call no app function, of its own or of another app: fix its access as said above"

    def to_dict(self) -> dict[str, Any]:
        return {"agent": self.agent, "requests_permission": self.requests_permission,
                "holds_permission": self.holds_permission, "allowlisted": self.allowlisted,
                "own_functions": [{"id": f.function_id, "access_level": LEVEL_NAMES.get(f.access_level)}
                                  for f in self.own_functions],
                "targets": self.targets, "lines": self.lines(), "refusal": self.refusal}


def _said_by(problem: str, step: str) -> bool:
    """A target's problem that the missing step already names (the same permission or allowlist)."""
    return step.split(":")[0] in problem


def diagnose(context: Any) -> AgentDiagnosis:
    """The diagnosis of ``context``'s app, from what the device tells the app itself."""
    access = AgentAccess(context)
    manager = context.app_function_manager
    functions = manager.search_app_functions()
    own = tuple(OwnFunction(f.id, f.access_level if f.access_level in LEVEL_NAMES else ACCESS_LEVEL_ANDROID_TRUSTED)
                for f in functions if f.package_name == access.agent)
    others = sorted({f.package_name for f in functions} - {access.agent})
    requested = access.requests_permission()
    return AgentDiagnosis(
        agent=access.agent,
        requests_permission=requested,
        holds_permission=access.holds_permission,
        allowlisted=_allowlisted(access, manager, others, bool(own)) if requested else False,
        own_functions=own,
        targets={target: access.problem(target) for target in others},
        misspelt_permission=None if requested else access.misspelt_permission(),
    )


def _allowlisted(access: AgentAccess, manager: Any, others: list[str], is_target: bool) -> bool | None:
    """Whether the agent is on the agent allowlist, as the request states it may read tell: a pair
    with a target it sees is UNREQUESTABLE only for an agent off the list (the target has its
    service, the agent requests the permission)."""
    if access.reaches_every_target:
        return True
    for target in [*others, *([access.agent] if is_target else [])]:
        try:
            return manager.get_access_request_state(target) != ACCESS_REQUEST_STATE_UNREQUESTABLE
        except Exception:  # noqa: BLE001 - a device that cannot say: the next target, else unknown
            continue
    return None
