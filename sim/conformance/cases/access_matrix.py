"""The access-enabled (agent access grants) and V2 (allowlist) execution matrices, as data.

Each scenario is one CTS setup of AppFunctionManagerAccessEnabledTest or
AppFunctionManagerV2Test: which app calls, which package and function it targets, whether the
(agent, target) pair has an access grant or is allowlisted, and what must come back. The
scenarios are registered now and report as skipped: granting access and allowlisting a pair need
an API the device does not offer yet. Once it does, the target gets a way to set a grant and an
allowlist entry, each scenario gets one shared body, and ``pending`` goes away; the table stays.
Scenarios whose outcome is the same in every access mode (the caller's own package, callers
without the permission and without a grant) are ordinary cases in execution.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from droid.appfunctions.exceptions import AppFunctionException, error_name
from sim.conformance.cases.common import DENIED_SUFFIX, NOT_FOUND
from sim.conformance.checklist import ACCESS_API, ALLOWLIST_API
from sim.conformance.expect import show
from sim.conformance.registry import Case, register
from sim.conformance.target import CALLER_PACKAGE, HELPER_PACKAGE, NONEXISTENT_PACKAGE

DENIED = AppFunctionException.ERROR_DENIED

# Who calls: the caller app (EXECUTE_APP_FUNCTIONS), the helper app (no permission), or an app
# holding EXECUTE_APP_FUNCTIONS_SYSTEM (a conformance app the follow-up adds).
Agent = Literal["caller", "helper", "system-agent"]


@dataclass(frozen=True)
class Expect:
    value: Any = None  # the return value, when the call succeeds
    error: int | None = None  # else the AppFunctionException code
    message: str | None = None  # and a fragment of its message

    def describe(self) -> str:
        if self.error is None:
            return f"returns {show(self.value)}"
        return error_name(self.error) + (f" ({self.message!r})" if self.message else "")


@dataclass(frozen=True)
class AccessScenario:
    id: str
    row_key: str
    mode: Literal["access", "v2"]  # AccessEnabledTest's flags, or V2Test's permission_v2
    agent: Agent
    target: str
    function: str
    grant: bool = False  # access mode: OTHER_GRANTED for (agent, target), as grant-app-function-access sets
    allowlisted: bool = False  # v2 mode: (agent, target) on the test allowlist
    params: tuple[tuple[str, int], ...] = ()
    expect: Expect = Expect()

    @property
    def summary(self) -> str:
        pair = ("with a grant" if self.grant else "no grant") if self.mode == "access" else (
            "allowlisted" if self.allowlisted else "not allowlisted")
        return f"{self.agent} runs {self.target} {self.function}, {pair}: {self.expect.describe()}"


ADD = (("a", 1), ("b", 2))

SCENARIOS: tuple[AccessScenario, ...] = (
    # AppFunctionManagerAccessEnabledTest
    AccessScenario("access-permission-no-grant", "ae.permission-no-grant", "access", "caller", HELPER_PACKAGE, "noOp",
                   expect=Expect(error=DENIED, message=DENIED_SUFFIX)),
    AccessScenario("access-nonexistent-package-no-grant", "ae.permission-no-grant", "access", "caller",
                   NONEXISTENT_PACKAGE, "noOp", expect=Expect(error=DENIED, message=DENIED_SUFFIX)),
    AccessScenario("access-grant-without-permission", "ae.grant-without-permission", "access", "helper", CALLER_PACKAGE,
                   "noOp", grant=True, expect=Expect(error=DENIED, message=DENIED_SUFFIX)),
    AccessScenario("access-permission-and-grant", "ae.permission-and-grant", "access", "caller", HELPER_PACKAGE, "add",
                   grant=True, params=ADD, expect=Expect(value=3)),
    AccessScenario("access-own-package-with-grant", "ae.own-package", "access", "caller", CALLER_PACKAGE, "add",
                   grant=True, params=ADD, expect=Expect(value=3)),
    AccessScenario("access-target-sees-caller", "ae.calling-package", "access", "caller", HELPER_PACKAGE, "noOp",
                   grant=True, expect=Expect(value=CALLER_PACKAGE)),
    AccessScenario("access-unknown-function-with-grant", "ae.unknown-function", "access", "caller", HELPER_PACKAGE,
                   "nonExistentFunction", grant=True,
                   expect=Expect(error=AppFunctionException.ERROR_FUNCTION_NOT_FOUND, message=NOT_FOUND)),
    # AppFunctionManagerV2Test
    AccessScenario("v2-no-permission-not-allowlisted", "v2.denied", "v2", "helper", CALLER_PACKAGE, "noOp",
                   expect=Expect(error=DENIED, message=DENIED_SUFFIX)),
    AccessScenario("v2-permission-not-allowlisted", "v2.denied", "v2", "caller", HELPER_PACKAGE, "noOp",
                   expect=Expect(error=DENIED, message=DENIED_SUFFIX)),
    AccessScenario("v2-no-permission-allowlisted", "v2.denied", "v2", "helper", CALLER_PACKAGE, "noOp",
                   allowlisted=True, expect=Expect(error=DENIED, message=DENIED_SUFFIX)),
    AccessScenario("v2-permission-allowlisted", "v2.allowlisted", "v2", "caller", HELPER_PACKAGE, "add",
                   allowlisted=True, params=ADD, expect=Expect(value=3)),
    AccessScenario("v2-system-permission-allowlisted", "v2.system-permission", "v2", "system-agent", HELPER_PACKAGE,
                   "add", allowlisted=True, params=ADD, expect=Expect(value=3)),
    AccessScenario("v2-nonexistent-package-allowlisted", "v2.nonexistent-package", "v2", "caller", NONEXISTENT_PACKAGE,
                   "noOp", allowlisted=True,
                   expect=Expect(error=AppFunctionException.ERROR_FUNCTION_NOT_FOUND, message=NOT_FOUND)),
    AccessScenario("v2-target-sees-empty-calling-package", "service.v2-on", "v2", "caller", HELPER_PACKAGE, "noOp",
                   allowlisted=True, expect=Expect(value="")),
)

for _scenario in SCENARIOS:
    register(Case(
        _scenario.id, _scenario.row_key, _scenario.summary, body=None,
        pending=ACCESS_API if _scenario.mode == "access" else ALLOWLIST_API,
    ))
