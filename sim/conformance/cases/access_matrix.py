"""The access-enabled (agent access grants) and V2 (allowlist) execution matrices, as data.

Each scenario is one CTS setup of AppFunctionManagerAccessEnabledTest, AppFunctionManagerV2Test
or AppFunctionServiceTest, in droidsim's one rule set (docs/access-control.md): which app
calls, whether it holds its permission, whether it is on the agent allowlist, whether the
shell granted the (agent, target) pair, and what must come back. All scenarios share one body.

CTS's two modes map onto that rule set so:
- "permission" is EXECUTE_APP_FUNCTIONS held, which needs a privileged app; the caller holds it
  while on the privileged allowlist, where CTS adopts the shell's permission identity;
- a "grant" is OTHER_GRANTED on the pair, as ``cmd app_function grant-app-function-access`` sets;
- V2's "allowlisted" pair is an agent on the agent allowlist with the pair granted; "not
  allowlisted" takes the agent off the agent allowlist, where no grant can take.
Scenarios whose outcome is the same in every mode (the caller's own package without a grant,
callers that request no permission) are ordinary cases in execution.py.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from droid.appfunctions import access_fixes
from droid.appfunctions.exceptions import AppFunctionException, error_name
from droid.appfunctions.manager import ACCESS_FLAG_OTHER_GRANTED
from sim.conformance.cases.common import DENIED_MESSAGE, NOT_FOUND, denied, execute, no_service_created
from sim.conformance.expect import fails_with, returns, show
from sim.conformance.registry import Case, Mismatch, register
from sim.conformance.target import (
    CALLER_PACKAGE,
    HELPER_PACKAGE,
    NONEXISTENT_PACKAGE,
    SYSTEM_CALLER_PACKAGE,
    ConformanceTarget,
)
from sim.platform_version import CINNAMON_BUN

DENIED = AppFunctionException.ERROR_DENIED
FUNCTION_NOT_FOUND = AppFunctionException.ERROR_FUNCTION_NOT_FOUND

_NAMES = {
    CALLER_PACKAGE: "the caller",
    HELPER_PACKAGE: "the helper",
    SYSTEM_CALLER_PACKAGE: "the system caller",
    NONEXISTENT_PACKAGE: "a nonexistent package",
}
_PERMISSION = {CALLER_PACKAGE: "EXECUTE_APP_FUNCTIONS", SYSTEM_CALLER_PACKAGE: "EXECUTE_APP_FUNCTIONS_SYSTEM"}


@dataclass(frozen=True)
class Expect:
    value: Any = None  # the return value, when the call succeeds
    error: int | None = None  # else the AppFunctionException code
    message: str | None = None  # and its whole message (spec/platform-android.md §2)

    def describe(self) -> str:
        if self.error is None:
            return f"returns {show(self.value)}"
        return error_name(self.error) + (f" {self.message!r}" if self.message else "")


@dataclass(frozen=True)
class AccessScenario:
    id: str
    row_key: str
    agent: str
    target: str
    function: str
    permission: bool = True  # the agent holds the permission it requests (see the module docstring)
    allowlisted: bool = True  # the agent is on the agent allowlist
    grant: bool = False  # the shell grants the pair (OTHER_GRANTED) before the call
    params: tuple[tuple[str, int], ...] = ()
    expect: Expect = Expect()
    # CTS also checks that the target's service is never created (the target must be an app
    # built on testutils.py, which records its service's creation in events.log).
    never_creates_service: bool = False
    # Where droidsim's rule set answers otherwise than this CTS row (docs/differences.md).
    difference: str | None = None
    sdks: frozenset[int] | None = None  # see Case.sdks

    @property
    def summary(self) -> str:
        agent = _NAMES[self.agent]
        held = f"{'with' if self.permission else 'without'} {_PERMISSION[self.agent]}"
        setup = [held, "allowlisted" if self.allowlisted else "not on the agent allowlist"]
        setup.append("the pair granted" if self.grant else "no grant")
        text = f"{agent} ({', '.join(setup)}) runs {self.function} of {_NAMES[self.target]}: {self.expect.describe()}"
        return text + (f". {self.difference}" if self.difference else "")

    @property
    def denial(self) -> str:
        """droidsim's ERROR_DENIED message for this set-up: the first of permission, allowlist
        and grant the agent lacks, whether or not the target exists."""
        if not self.permission:
            return denied(access_fixes.missing_permission(self.agent, requested=True))
        if not self.allowlisted:
            return denied(access_fixes.not_allowlisted(self.agent, self.target))
        return denied(access_fixes.not_granted(self.agent, self.target))

    @property
    def grant_takes(self) -> bool:
        """A grant of an allowlisted agent for an installed target must take."""
        return self.grant and self.allowlisted and self.target != NONEXISTENT_PACKAGE


ADD = (("a", 1), ("b", 2))
DENIED_CALL = Expect(error=DENIED, message=DENIED_MESSAGE)

# EXECUTE_APP_FUNCTIONS_SYSTEM calls without a grant from Android 17 (permission v2) only.
PERMISSION_V2 = frozenset({CINNAMON_BUN})

SCENARIOS: tuple[AccessScenario, ...] = (
    # AppFunctionManagerAccessEnabledTest
    AccessScenario("access-permission-no-grant", "ae.permission-no-grant", CALLER_PACKAGE, HELPER_PACKAGE, "noOp",
                   expect=DENIED_CALL, never_creates_service=True),
    AccessScenario("access-nonexistent-package-no-grant", "ae.permission-no-grant", CALLER_PACKAGE,
                   NONEXISTENT_PACKAGE, "noOp", expect=DENIED_CALL),
    AccessScenario("access-grant-without-permission", "ae.grant-without-permission", CALLER_PACKAGE, HELPER_PACKAGE,
                   "noOp", permission=False, grant=True, expect=DENIED_CALL),
    AccessScenario("access-permission-and-grant", "ae.permission-and-grant", CALLER_PACKAGE, HELPER_PACKAGE, "add",
                   grant=True, params=ADD, expect=Expect(value=3)),
    AccessScenario("access-own-package-with-grant", "ae.own-package", CALLER_PACKAGE, CALLER_PACKAGE, "add",
                   grant=True, params=ADD, expect=Expect(value=3)),
    AccessScenario("access-own-package-grant-without-permission", "ae.own-package", CALLER_PACKAGE, CALLER_PACKAGE,
                   "add", permission=False, grant=True, params=ADD, expect=Expect(value=3)),
    AccessScenario("access-target-sees-caller", "ae.calling-package", CALLER_PACKAGE, HELPER_PACKAGE, "noOp",
                   grant=True, expect=Expect(value=CALLER_PACKAGE)),
    AccessScenario("access-unknown-function-with-grant", "ae.unknown-function", CALLER_PACKAGE, HELPER_PACKAGE,
                   "nonExistentFunction", grant=True, expect=Expect(error=FUNCTION_NOT_FOUND, message=NOT_FOUND)),
    # AppFunctionManagerV2Test
    AccessScenario("v2-no-permission-allowlisted", "v2.denied", CALLER_PACKAGE, HELPER_PACKAGE, "noOp",
                   permission=False, grant=True, expect=DENIED_CALL),
    AccessScenario("v2-permission-not-allowlisted", "v2.denied", CALLER_PACKAGE, HELPER_PACKAGE, "noOp",
                   allowlisted=False, grant=True, expect=DENIED_CALL),
    AccessScenario("v2-no-permission-not-allowlisted", "v2.denied", CALLER_PACKAGE, HELPER_PACKAGE, "noOp",
                   permission=False, allowlisted=False, grant=True, expect=DENIED_CALL),
    AccessScenario("v2-permission-allowlisted", "v2.allowlisted", CALLER_PACKAGE, HELPER_PACKAGE, "add",
                   grant=True, params=ADD, expect=Expect(value=3)),
    AccessScenario("v2-system-permission-allowlisted", "v2.system-permission", SYSTEM_CALLER_PACKAGE, HELPER_PACKAGE,
                   "add", grant=True, params=ADD, expect=Expect(value=3), sdks=PERMISSION_V2),
    AccessScenario("v2-system-permission-not-allowlisted", "v2.system-permission", SYSTEM_CALLER_PACKAGE,
                   HELPER_PACKAGE, "add", allowlisted=False, params=ADD, expect=Expect(value=3), sdks=PERMISSION_V2),
    AccessScenario("v2-nonexistent-package-allowlisted", "v2.nonexistent-package", CALLER_PACKAGE, NONEXISTENT_PACKAGE,
                   "noOp", grant=True, expect=DENIED_CALL,
                   difference="droidsim: no grant can name a package that is not installed, so the caller is denied "
                              "and cannot probe which packages exist; CTS expects ERROR_FUNCTION_NOT_FOUND"),
    AccessScenario("v2-system-permission-nonexistent-package", "v2.nonexistent-package", SYSTEM_CALLER_PACKAGE,
                   NONEXISTENT_PACKAGE, "noOp", expect=Expect(error=FUNCTION_NOT_FOUND, message=NOT_FOUND),
                   sdks=PERMISSION_V2),
    # AppFunctionServiceTest
    AccessScenario("v2-target-sees-calling-package", "service.v2-on", CALLER_PACKAGE, HELPER_PACKAGE, "noOp",
                   grant=True, expect=Expect(value=CALLER_PACKAGE),
                   difference='droidsim has one mode, whose target sees its caller as AccessEnabledTest expects; '
                              'CTS with permission v2 on expects ""'),
)


def run_scenario(t: ConformanceTarget, scenario: AccessScenario) -> None:
    """Set the scenario up, make the call as its agent, check what came, and undo the set-up.
    Where the service must never be created, the target starts stopped (``pm clear``)."""
    watch = scenario.never_creates_service
    with contextlib.ExitStack() as setup:
        if not scenario.permission:
            setup.enter_context(t.holding_permission(scenario.agent, False))
        if not scenario.allowlisted:
            setup.enter_context(t.agent_allowlisted(scenario.agent, False))
        if scenario.grant:
            took = setup.enter_context(t.access_flags(scenario.agent, scenario.target, ACCESS_FLAG_OTHER_GRANTED))
            if scenario.grant_takes and not took:
                raise Mismatch("the shell's grant of the pair to take (flags OTHER_GRANTED)", "the device kept other flags")
        if watch:
            t.clear_package_data(scenario.target)
        outcome = execute(t.context(scenario.agent), scenario.target, scenario.function, **dict(scenario.params))
    expect = scenario.expect
    if expect.error is None:
        returns(outcome, expect.value)
    else:
        fails_with(outcome, expect.error, message=scenario.denial if expect is DENIED_CALL else expect.message)
    if watch:
        no_service_created(t, scenario.target)


def _register(scenario: AccessScenario) -> None:
    register(Case(scenario.id, scenario.row_key, scenario.summary, body=lambda t: run_scenario(t, scenario),
                  sdks=scenario.sdks))


for _scenario in SCENARIOS:
    _register(_scenario)
