"""Install compares the whole signature of each function between its XML and its code, and
every description an agent reads; the lint (I1) reports what install would refuse, with the
command that fixes it."""

from __future__ import annotations

import re

import pytest

from droid.appfunctions.compiler import generate
from sim.lint import lint_apps
from sim.pm.install_error import InstallError
from tests.helpers import SAMPLE_APPS, copy_app

ORDERS_PY = "orders.py"
FETCH = "com.example.orders.OrderFunctionService#fetch_order_details"
CANCEL = "com.example.orders.OrderFunctionService#cancel_order"


@pytest.fixture
def orders(tmp_path):
    return copy_app(SAMPLE_APPS / "orders", tmp_path)


def _edit(app, old, new):
    path = app / ORDERS_PY
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize("old, new, difference", [
    ("async def fetch_order_details(self, order_id: str)", "async def fetch_order_details(self, order_ref: str)",
     f"{FETCH}: the code has parameter 'orderRef', the XML does not"),
    ("async def fetch_order_details(self, order_id: str)", "async def fetch_order_details(self, order_id: int)",
     f"{FETCH}: parameter 'orderId' has a different type in the code than in the XML: the XML has String, the code Long"),
    ("async def fetch_order_details(self, order_id: str)", "async def fetch_order_details(self, order_id: str | None)",
     f"{FETCH}: parameter 'orderId' has a different type in the code than in the XML: the XML has String, the code String?"),
    ("reason: str | None = None) -> CancelOrderResult", "reason: str | None) -> CancelOrderResult",
     f"{CANCEL}: parameter 'reason' is required in the code but optional in the XML"),
    ("fetch_order_details(self, order_id: str) -> OrderDetails:", "fetch_order_details(self, order_id: str) -> str:",
     f"{FETCH}: the response type differs between the code and the XML: the XML has OrderDetails, the code String"),
    ("Fetches the status, carrier,", "Fetches the state, carrier,",
     f"{FETCH}: the description of the function differs (the code: 'Fetches the state, carrier,"),
    ("order_id: The alphanumeric order identifier", "order_id: The order's identifier",
     f"{FETCH}: the description of parameter 'orderId' differs (the code: \"The order's identifier, for example "
     f"ORD-8492.\"; the XML: 'The alphanumeric order identifier, for example ORD-8492.')"),
    ("sku: The product's stock-keeping unit", "sku: The product code",
     f"{FETCH}: the description of type com.example.orders.OrderItem property 'sku' differs"),
])
def test_stale_xml_is_refused_with_the_command_that_regenerates_it(device, orders, old, new, difference) -> None:
    _edit(orders, old, new)
    with pytest.raises(InstallError) as refused:
        device.install(orders)
    message = str(refused.value)
    assert message.startswith("INSTALL_FAILED_FUNCTION_MISMATCH: ")
    assert f"order_functions.xml is stale for {difference}" in message
    assert message.endswith(f"(regenerate it: droidsim appfunctions generate {orders.resolve()})")
    assert device.registry.get("com.example.orders") is None
    [report] = lint_apps([orders]).apps
    assert [(f.rule, f.message) for f in report.findings if f.rule == "I1"] == [("I1", message)]

    generate(orders)
    assert device.install(orders).package_name == "com.example.orders"
    assert not [f for f in lint_apps([orders]).apps[0].findings if f.rule == "I1"]


def test_a_changed_field_of_a_returned_dataclass_is_stale_too(device, orders) -> None:
    _edit(orders, "    carrier: str | None", "    carrier: int | None")
    with pytest.raises(InstallError, match="response type differs between the code and the XML: property 'carrier' of OrderDetails: "
                                           r"the XML has String\?, the code Long\?"):
        device.install(orders)


def test_the_lint_reports_what_else_install_refuses(orders) -> None:
    (orders / "assets" / "order_functions.xml").unlink()
    [finding] = [f for f in lint_apps([orders]).apps[0].findings if f.rule == "I1"]
    assert "names assets/order_functions.xml, which does not exist" in finding.message
    assert finding.fix.startswith("Regenerate the function XML: droidsim appfunctions generate")
    generate(orders)
    manifest = orders / "AndroidManifest.xml"
    manifest.write_text(re.sub(r'android:permission="[^"]+"', 'android:permission="android.permission.INTERNET"',
                               manifest.read_text(), count=1))
    # Install does not refuse that (Android 17 leaves the service out, Android 16 never binds it); I2 says so.
    findings = lint_apps([orders]).apps[0].findings
    assert not [f for f in findings if f.rule == "I1"]
    assert [f.message for f in findings if f.rule == "I2"] == [
        "Android 16 binds the first AppFunctionService, com.example.orders.OrderFunctionService, for every call of "
        'the package, and never one without android:permission="android.permission.BIND_APP_FUNCTION_SERVICE": '
        "every call fails (ERROR_SYSTEM_ERROR).",
        'Android 17 does not index service com.example.orders.OrderFunctionService: it lacks '
        'android:permission="android.permission.BIND_APP_FUNCTION_SERVICE".',
    ]


@pytest.mark.parametrize("typo, message", [
    ("com.example.ordrs.OrderFunctionService",
     "{app}: no module for service com.example.ordrs.OrderFunctionService; looked for {app}/com/example/ordrs.py, "
     "{app}/example/ordrs.py, {app}/ordrs.py; did you mean com.example.orders.OrderFunctionService (orders.py)?"),
    ("com.example.orders.OrderFunctionServic",
     "{app}/orders.py: defines no class OrderFunctionServic (the service com.example.orders.OrderFunctionServic); "
     "did you mean OrderFunctionService?"),
])
def test_a_service_name_typo_names_the_source_file_and_a_close_match(device, orders, typo, message) -> None:
    manifest = orders / "AndroidManifest.xml"
    manifest.write_text(manifest.read_text().replace('"com.example.orders.OrderFunctionService"', f'"{typo}"'))
    with pytest.raises(InstallError) as refused:
        device.install(orders)
    assert str(refused.value) == (
        f"INSTALL_FAILED_BAD_CODE: service {typo}: AppLoadError: {message.format(app=orders.resolve())}"
    )
    [finding] = [f for f in lint_apps([orders]).apps[0].findings if f.rule == "I1"]
    assert finding.message == str(refused.value)


def test_the_lint_fix_for_a_manifest_naming_another_xml_file_is_generates(orders) -> None:
    manifest = orders / "AndroidManifest.xml"
    manifest.write_text(manifest.read_text().replace('android:value="order_functions.xml"', 'android:value="orders.xml"'))
    [finding] = [f for f in lint_apps([orders]).apps[0].findings if f.rule == "I1"]
    assert "names assets/orders.xml, which does not exist" in finding.message
    assert finding.fix == (
        f"{manifest}: service com.example.orders.OrderFunctionService names the asset 'orders.xml' but its "
        "xml_file_name is 'order_functions'; make the manifest say \"order_functions.xml\""
    )


def test_a_folder_without_code_is_not_clean_when_install_refuses_it(device, orders) -> None:
    (orders / ORDERS_PY).unlink()
    with pytest.raises(InstallError) as refused:
        device.install(orders)
    [finding] = [f for f in lint_apps([orders]).apps[0].findings if f.rule == "I1"]
    assert finding.message == str(refused.value)
    assert lint_apps([orders]).exit_code == 1
