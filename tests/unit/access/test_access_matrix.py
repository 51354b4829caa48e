"""The CTS access matrix (AccessEnabledTest and V2Test, with Android 17 access levels), table-driven:
permission x grant x same package x access level x target exists, with the exact code and
message of every cell (docs/access-control.md, "Who may execute"): the platform's ERROR_DENIED
text, then what the caller lacks and the command that fixes it, the same whether or not the
target exists."""

from __future__ import annotations

import itertools

import pytest

from droid.appfunctions import ACCESS_LEVEL_ANDROID_TRUSTED, ACCESS_LEVEL_SELF, ACCESS_LEVEL_SYSTEM, access_fixes
from droid.appfunctions.exceptions import AppFunctionException
from droid.appfunctions.manager import ACCESS_FLAG_MASK_ALL, ACCESS_FLAG_OTHER_GRANTED
from sim.device import Device
from tests.unit.access.apps import (
    EXECUTE_APP_FUNCTIONS,
    EXECUTE_APP_FUNCTIONS_SYSTEM,
    LEVELED,
    SELF_FUNCTION,
    SYSTEM_FUNCTION,
    TRUSTED_FUNCTION,
    make_app,
)
from tests.unit.access.conftest import allowlist_agents, execute

DENIED_MESSAGE = "Caller does not have permission to execute the appfunction"
NOT_FOUND = (AppFunctionException.ERROR_FUNCTION_NOT_FOUND, "App function not found.")
SUCCESS = (0, 3)

# The callers: what each requests, and whether it is installed privileged (a system app).
CALLERS = {
    "none": ((), False),
    "unprivileged": ((EXECUTE_APP_FUNCTIONS,), False),
    "EXECUTE_APP_FUNCTIONS": ((EXECUTE_APP_FUNCTIONS,), True),
    "EXECUTE_APP_FUNCTIONS_SYSTEM": ((EXECUTE_APP_FUNCTIONS_SYSTEM,), True),
}
TARGET = "com.test.target"
MISSING_PACKAGE = "com.test.missing"
MISSING_FUNCTION = "noSuchFunction"
FUNCTION_AT = {ACCESS_LEVEL_SELF: SELF_FUNCTION, ACCESS_LEVEL_SYSTEM: SYSTEM_FUNCTION, ACCESS_LEVEL_ANDROID_TRUSTED: TRUSTED_FUNCTION}

# The rule set: (permission, grant for the pair, same package) -> the lowest access level the
# caller may execute, or None. "unprivileged" requests EXECUTE_APP_FUNCTIONS but, not being
# privileged, does not hold it: CTS's "grant without permission".
REACH = {
    ("none", False, False): None,
    ("none", True, False): None,
    ("unprivileged", False, False): None,
    ("unprivileged", True, False): None,
    ("EXECUTE_APP_FUNCTIONS", False, False): None,
    ("EXECUTE_APP_FUNCTIONS", True, False): ACCESS_LEVEL_ANDROID_TRUSTED,
    ("EXECUTE_APP_FUNCTIONS_SYSTEM", False, False): ACCESS_LEVEL_SYSTEM,
    ("EXECUTE_APP_FUNCTIONS_SYSTEM", True, False): ACCESS_LEVEL_SYSTEM,
    **{(permission, grant, True): ACCESS_LEVEL_SELF for permission in CALLERS for grant in (False, True)},
}


def expected(permission: str, grant: bool, same: bool, level: int | None, target: str) -> tuple:
    if target == "missing package":
        grant = False  # nothing can be granted for a package that is not installed
    reach = REACH[(permission, grant, same)]
    caller = caller_package(permission)
    target_package = MISSING_PACKAGE if target == "missing package" else caller if same else TARGET
    if reach is None:
        return denied(no_reach(permission, caller, target_package))
    if target != "exists":
        return NOT_FOUND
    if level >= reach:
        return SUCCESS
    function_id = FUNCTION_AT[level]
    if level == ACCESS_LEVEL_SELF:
        return denied(access_fixes.self_only(function_id, target_package))
    return denied(access_fixes.system_only(caller, function_id))


def no_reach(permission: str, caller: str, target: str) -> str:
    if permission in ("none", "unprivileged"):
        return access_fixes.missing_permission(caller, requested=permission == "unprivileged")
    return access_fixes.not_granted(caller, target)  # every caller is allowlisted here


def denied(reason: str) -> tuple:
    return AppFunctionException.ERROR_DENIED, f"{DENIED_MESSAGE}: {reason}"


def cells():
    for permission, grant, same in itertools.product(CALLERS, (False, True), (False, True)):
        for level in FUNCTION_AT:
            yield permission, grant, same, level, "exists"
        yield permission, grant, same, None, "missing function"
        if not same:
            yield permission, grant, same, None, "missing package"


def cell_id(cell) -> str:
    permission, grant, same, level, target = cell
    level_name = {ACCESS_LEVEL_SELF: "SELF", ACCESS_LEVEL_SYSTEM: "SYSTEM", ACCESS_LEVEL_ANDROID_TRUSTED: "TRUSTED"}
    return "-".join([permission, "grant" if grant else "nogrant", "same" if same else "other",
                     level_name.get(level, "any"), target.replace(" ", "_")])


@pytest.fixture(scope="module")
def matrix_device(tmp_path_factory):
    root = tmp_path_factory.mktemp("matrix")
    with Device(root / "data", isolated_apps=False) as device:
        device.install(make_app(root / "src", TARGET, levels=LEVELED))
        for permission, (uses, privileged) in CALLERS.items():
            device.install(make_app(root / "src", caller_package(permission), uses, LEVELED), system=privileged)
        allowlist_agents(device, *(caller_package(p) for p in CALLERS))
        yield device


def caller_package(permission: str) -> str:
    return f"com.test.caller.{permission.lower()}"


@pytest.mark.parametrize("cell", list(cells()), ids=cell_id)
def test_access_matrix(matrix_device, cell):
    permission, grant, same, level, target = cell
    caller = caller_package(permission)
    target_package = {"missing package": MISSING_PACKAGE}.get(target, caller if same else TARGET)
    function_id = MISSING_FUNCTION if target == "missing function" else FUNCTION_AT.get(level, TRUSTED_FUNCTION)
    shell = matrix_device.shell_context().app_function_manager
    shell.update_access_flags(caller, target_package, ACCESS_FLAG_MASK_ALL, ACCESS_FLAG_OTHER_GRANTED if grant else 0)

    want = expected(permission, grant, same, level, target)
    context = matrix_device.create_context(caller)
    if want == SUCCESS:
        assert execute(context, target_package, function_id).return_value == 3
        return
    with pytest.raises(AppFunctionException) as raised:
        execute(context, target_package, function_id)
    assert (raised.value.error_code, raised.value.error_message) == want


def test_the_matrix_covers_every_cell_once():
    all_cells = list(cells())
    assert len(all_cells) == len(set(all_cells)) == 4 * 2 * (3 + 2) + 4 * 2 * (3 + 1)
    outcomes = {expected(*cell)[0] for cell in all_cells}
    assert outcomes == {AppFunctionException.ERROR_DENIED, NOT_FOUND[0], SUCCESS[0]}
