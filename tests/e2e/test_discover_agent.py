"""An agent app that holds DISCOVER_APP_FUNCTIONS (issue 48): on --sdk 37 it sees another app's
functions through the platform API (`droidsim --as APP shell`), and `droidsim agent --as` and
`droidsim mcp --as` name that app and its functions as seen but out of its reach, since
discovering executes nothing, and refuse alike an app that may call no function; on --sdk 36 the permission does
not exist and it sees nothing (VisibilityHelperImpl.hasPermissionsToQueryRuntimeMetadata)."""

from __future__ import annotations

import json

import pytest

from droid.appfunctions import access_fixes
from tests.e2e.agent_registration import renamed_copy
from tests.helpers import SAMPLE_APPS, DeviceProcess, droidsim

pytestmark = pytest.mark.e2e

DISCOVERER = "com.example.discoverer"
ORDERS = "com.example.orders"
FETCH = "com.example.orders.OrderFunctionService#fetch_order_details"
DISCOVER = "android.permission.DISCOVER_APP_FUNCTIONS"


@pytest.fixture(scope="module", params=[37, 36], ids=["sdk37", "sdk36"])
def device(request, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"discover{request.param}")
    app = renamed_copy(root / "src", DISCOVERER, own_agent=False)
    manifest = app / "AndroidManifest.xml"
    manifest.write_text(manifest.read_text().replace("android.permission.EXECUTE_APP_FUNCTIONS", DISCOVER))
    (root / "apps").mkdir()
    (root / "apps" / "orders").symlink_to(SAMPLE_APPS / "orders")
    process = DeviceProcess(root / "data", root / "apps", extra=("--sdk", str(request.param)))
    installed = droidsim("install", "--system", str(app), data=process.data)
    assert installed.returncode == 0, installed.stderr
    process.sdk = request.param
    yield process
    process.stop()


def sees(device) -> bool:
    return device.sdk == 37


def test_the_platform_api_lists_another_apps_functions(device):
    listed = droidsim("--as", DISCOVERER, "shell", "cmd", "app_function", "list-app-functions", "--json",
                      data=device.data)
    assert listed.returncode == 0, listed.stderr
    functions = json.loads(listed.stdout)
    assert (FETCH in {f["id"] for f in functions.get(ORDERS, [])}) == sees(device)
    denied = droidsim("--as", DISCOVERER, "shell", "cmd", "app_function", "execute-app-function", "--package", ORDERS,
                      "--function", FETCH, "--parameters", '{"orderId": "ORD-8492"}', data=device.data)
    assert denied.returncode == 1 and "ERROR_DENIED (1000)" in denied.stderr, "discovering executes nothing"


def test_droidsim_agent_lists_the_app_it_sees_and_may_not_call(device):
    result = droidsim("agent", "--as", DISCOVERER, "--json", "Where is my order ORD-8492?", data=device.data,
                      timeout=120)
    assert result.returncode == 1
    warnings = [json.loads(line)["message"] for line in result.stdout.splitlines()
                if line.strip() and json.loads(line)["type"] == "warning"]
    missing = access_fixes.missing_permission(DISCOVERER, requested=False)
    if sees(device):
        assert access_fixes.sees_but_may_not_call(DISCOVERER, ORDERS, missing) in warnings
    else:
        assert warnings == [missing]


def test_droidsim_mcp_names_the_app_it_sees_and_refuses_as_droidsim_agent_does(device):
    """It may call no app function (it has none of its own): both doors say so and exit 1 (issue 47)."""
    refused = droidsim("mcp", "--as", DISCOVERER, data=device.data, timeout=120, input="")
    missing = access_fixes.missing_permission(DISCOVERER, requested=False)
    seen = access_fixes.sees_but_may_not_call(DISCOVERER, ORDERS, missing) if sees(device) else missing
    assert refused.returncode == 1
    assert f"warning: {seen}" in refused.stderr
    assert (f"error: {DISCOVERER} may call no app function, of its own or of another app: fix its access as said "
            "above") in refused.stderr
