"""Doubles are per @AppFunction class, the class part of the function id, whichever service
serves it: the library's PlatformAppFunctionService (the default layout of a KSP build, the
bank APK) or an @AppFunctionServiceEntryPoint service of the class's own (the shop APK)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from droid.appfunctions import (
    AppFunctionData,
    AppFunctionElementNotFoundException,
    AppFunctionNotSupportedException,
    ExecuteAppFunctionRequest,
)
from droid.os import IllegalArgumentException
from sim.cli.main import cli
from sim.device import Device
from sim.responses.skeleton import skeleton_files
from sim.responses.staging import ResponseOptions
from tests.helpers import REPO

pytest.importorskip("androguard", reason="reading APKs needs the apk extra: pip install 'droidsim[apk]'")

APKS = Path(__file__).resolve().parents[2] / "apks"
BANK_APK = APKS / "bank.apk"
BANK = "com.example.bank"
BALANCE = "com.example.bank.accounts.AccountFunctions#getBalance"
TRANSACTIONS = "com.example.bank.accounts.AccountFunctions#listTransactions"
PAYMENT = "com.example.bank.payments.PaymentFunctions#sendPayment"
FREEZE = "com.example.bank.cards.CardFunctions#freezeCard"
PARAMETERS = {
    BALANCE: {"accountId": "ACC-1"},
    TRANSACTIONS: {"accountId": "ACC-1"},
    PAYMENT: {"fromAccountId": "ACC-1", "payee": "Jo", "amount": 5.0, "speed": "STANDARD"},
    FREEZE: {"cardId": "CARD-1"},
}
MODULES = {BALANCE: "accounts.py", TRANSACTIONS: "accounts.py", PAYMENT: "payments.py", FREEZE: "cards.py"}


def skeleton(app: Path, out: Path) -> Path:
    result = CliRunner().invoke(cli, ["responses", "skeleton", str(app), str(out)])
    assert result.exit_code == 0, result.output
    return out


def call(device, function_id, package=BANK, **parameters):
    manager = device.shell_context().app_function_manager
    return manager.execute_app_function(ExecuteAppFunctionRequest(package, function_id, AppFunctionData(parameters)))


@pytest.mark.parametrize("sdk", [36, 37])
def test_the_skeleton_of_the_library_service_layout_installs_unchanged_and_names_what_to_write(tmp_path, sdk):
    double = skeleton(BANK_APK, tmp_path / "double")
    assert sorted(p.name for p in double.iterdir()) == ["__init__.py", "accounts.py", "cards.py", "payments.py"]
    with Device(tmp_path / "data", isolated_apps=False, sdk=sdk) as device:
        package = device.install(BANK_APK, responses=ResponseOptions(double_dir=double))
        assert {f.service_name for f in package.metadata.app_functions} == {
            "androidx.appfunctions.service.PlatformAppFunctionService"}
        for function_id, parameters in PARAMETERS.items():
            class_name, method = function_id.rsplit(".", 1)[-1].split("#")
            with pytest.raises(AppFunctionNotSupportedException) as raised:
                call(device, function_id, **parameters)
            assert raised.value.error_message == (
                f"{function_id} is not implemented in this double yet: write {class_name}.{method} in "
                f"{MODULES[function_id]} (docs/responses.md)")


def test_a_filled_in_class_answers_beside_the_others_and_the_cassette_matches_on_the_id(tmp_path, device):
    double = skeleton(BANK_APK, tmp_path / "double")
    accounts = double / "accounts.py"
    accounts.write_text(re.sub(r"raise AppFunctionNotSupportedException\('com.example.bank.accounts.AccountFunctions"
                               r"#getBalance[^\n]*", "return Balance(amount=12.5, currency='EUR')", accounts.read_text()))
    cassette = tmp_path / "bank.cassette.yaml"
    cassette.write_text(f"calls:\n  {FREEZE}:\n    - parameters: {{cardId: CARD-9}}\n"
                        "      error: {code: ERROR_RESOURCE_NOT_FOUND, message: no card CARD-9}\n")
    device.install(BANK_APK, responses=ResponseOptions(cassette=cassette, double_dir=double))
    assert dict(call(device, BALANCE, accountId="ACC-1").return_value) == {"amount": 12.5, "currency": "EUR"}
    with pytest.raises(AppFunctionElementNotFoundException, match="no card CARD-9"):
        call(device, FREEZE, cardId="CARD-9")
    with pytest.raises(AppFunctionNotSupportedException, match=f"^{FREEZE} is not implemented"):
        call(device, FREEZE, cardId="CARD-1")


def test_a_refused_double_names_the_users_folder_and_apk_never_a_staging_folder(tmp_path, device):
    double = skeleton(BANK_APK, tmp_path / "double")
    (double / "cards.py").unlink()
    with pytest.raises(IllegalArgumentException) as raised:
        device.install(BANK_APK, responses=ResponseOptions(double_dir=double))
    looked = ", ".join(f"{double}/{path}" for path in
                       ("com/example/bank/cards.py", "example/bank/cards.py", "bank/cards.py", "cards.py"))
    assert str(raised.value) == (
        "INSTALL_FAILED_BAD_CODE: the double's com.example.bank.cards.CardFunctions (for freezeCard): AppLoadError: "
        f"{double}: no module for service com.example.bank.cards.CardFunctions; looked for {looked} "
        f"(`droidsim responses skeleton {BANK_APK} com.example.bank-skeleton` writes one that matches, to compare with yours)")
    assert device.registry.get(BANK) is None


def test_an_update_whose_kept_double_no_longer_matches_names_that_double(tmp_path, device):
    double = skeleton(BANK_APK, tmp_path / "double")
    device.install(BANK_APK, responses=ResponseOptions(double_dir=double))
    extracted = tmp_path / "bank"
    assert CliRunner().invoke(cli, ["apk", "extract", str(BANK_APK), str(extracted)]).exit_code == 0
    xml = extracted / "assets" / "app_functions_v2.xml"
    xml.write_text(xml.read_text().replace("#freezeCard<", "#blockCard<"))
    with pytest.raises(IllegalArgumentException) as raised:
        device.install(extracted)  # a new build: the installed double is kept, and checked
    assert str(raised.value) == (
        "INSTALL_FAILED_FUNCTION_MISMATCH: com.example.bank.cards.CardFunctions#blockCard: the double's "
        "com.example.bank.cards.CardFunctions (double, the double installed before) does not implement it "
        f"(`droidsim responses skeleton {extracted} com.example.bank-skeleton` writes one that matches, to compare with yours)")
    assert device.registry.get(BANK).metadata.installed_from.kind == "apk"  # the installed version stays


def test_classes_of_one_name_in_packages_of_one_last_part_get_a_module_each(tmp_path, device):
    """``com.example.bank.cards.impl.Functions`` and ``...payments.impl.Functions`` would share
    ``impl.py``: the skeleton spells the whole package, which the loader tries first."""
    app = tmp_path / "bank"
    assert CliRunner().invoke(cli, ["apk", "extract", str(BANK_APK), str(app)]).exit_code == 0
    for name in ("app_functions_v2.xml", "app_functions.xml"):
        xml = app / "assets" / name
        xml.write_text(xml.read_text().replace("bank.cards.CardFunctions#", "bank.cards.impl.Functions#")
                       .replace("bank.payments.PaymentFunctions#", "bank.payments.impl.Functions#"))
    double = skeleton(app, tmp_path / "double")
    assert sorted(str(p.relative_to(double)) for p in double.rglob("*.py")) == [
        "__init__.py", "com/example/bank/accounts.py", "com/example/bank/cards/impl.py",
        "com/example/bank/payments/impl.py"]
    device.install(app, responses=ResponseOptions(double_dir=double))
    with pytest.raises(AppFunctionNotSupportedException, match="write Functions.freezeCard in com/example/bank/cards/impl.py"):
        call(device, "com.example.bank.cards.impl.Functions#freezeCard", cardId="CARD-1")


def test_one_double_serves_both_layouts_because_it_is_keyed_on_the_class(tmp_path):
    """The same ids served by one library service or by a service per class: one skeleton."""
    with Device(tmp_path / "data", isolated_apps=False) as device:
        library = device.install(BANK_APK).metadata
    per_class = type(library)()
    per_class.CopyFrom(library)
    for function in per_class.app_functions:
        function.service_name = function.id.split("#")[0]
    assert [(f.path, f.text) for f in skeleton_files(library).files] == [(f.path, f.text) for f in skeleton_files(per_class).files]


def test_nothing_of_the_double_runs_in_the_device(tmp_path):
    """The double is app code: the device's process never runs it (the verifier's child and
    the app's process do)."""
    double = skeleton(BANK_APK, tmp_path / "double")
    (double / "accounts.py").write_text((double / "accounts.py").read_text() + "\nimport os\nos.environ['DOUBLE_RAN'] = '1'\n")
    with Device(tmp_path / "data") as device:
        device.install(BANK_APK, responses=ResponseOptions(double_dir=double))
        with pytest.raises(AppFunctionNotSupportedException):
            call(device, TRANSACTIONS, accountId="ACC-1")
    assert "DOUBLE_RAN" not in os.environ


def test_the_documented_bank_double_shares_its_state_across_classes(device):
    """docs/examples/bank-double: a payment (PaymentFunctions) shows in the balance and the
    transactions (AccountFunctions), through a module both import."""
    device.install(BANK_APK, responses=ResponseOptions(double_dir=REPO / "docs" / "examples" / "bank-double"))
    assert call(device, BALANCE, accountId="ACC-1").return_value["amount"] == 1250.0
    assert call(device, PAYMENT, fromAccountId="ACC-1", payee="Alice Martin", amount=50.0,
                speed="INSTANT").return_value == "PAY-1001"
    assert call(device, BALANCE, accountId="ACC-1").return_value["amount"] == 1200.0
    [latest] = call(device, TRANSACTIONS, accountId="ACC-1", limit=1).return_value["transactions"]
    assert (latest["payee"], latest["amount"]) == ("Alice Martin", -50.0)
    assert call(device, FREEZE, cardId="CARD-1").return_value == "FROZEN"
    with pytest.raises(AppFunctionElementNotFoundException, match="No account with ID ACC-9"):
        call(device, BALANCE, accountId="ACC-9")


def test_a_skeleton_written_for_android_17_installs_on_android_16(tmp_path):
    """The shop's tracking class is not indexed on Android 16: its double is left unloaded."""
    shop = APKS / "shop.apk"
    double = skeleton(shop, tmp_path / "double")
    with Device(tmp_path / "data", isolated_apps=False, sdk=36) as device:
        device.install(shop, responses=ResponseOptions(double_dir=double))
        with pytest.raises(AppFunctionNotSupportedException, match="write OrderFunctionService.fetchOrderStatus in shop.py"):
            call(device, "com.example.shop.OrderFunctionService#fetchOrderStatus", package="com.example.shop",
                 orderId="ORD-1")


@pytest.mark.parametrize("sdk", [36, 37])
def test_a_class_whose_service_android_16_does_not_bind_is_not_found_there(tmp_path, sdk):
    """The shop with both entry-point services enabled on every SDK: Android 16 binds the first
    whatever declared the function, and that service's code does not know trackParcel (lint
    R1), whatever a double or a cassette would answer; Android 17 binds the declaring one."""
    from droid.appfunctions import AppFunctionFunctionNotFoundException

    shop = tmp_path / "shop"
    assert CliRunner().invoke(cli, ["apk", "extract", str(APKS / "shop.apk"), str(shop)]).exit_code == 0
    (shop / "droidsim-extract.json").unlink()  # a folder of the tracking service's SDK-37 state, on any SDK
    double = skeleton(shop, tmp_path / "double")
    track = "com.example.shop.TrackingFunctionService#trackParcel"
    with Device(tmp_path / "data", isolated_apps=False, sdk=sdk) as device:
        device.install(shop, responses=ResponseOptions(cassette=REPO / "docs" / "examples" / "shop.cassette.yaml",
                                                       double_dir=double))
        if sdk == 36:
            with pytest.raises(AppFunctionFunctionNotFoundException) as raised:
                call(device, track, package="com.example.shop", orderId="ORD-1234")
            assert raised.value.error_message == f"com.example.shop.OrderFunctionService has no function {track!r}"
        else:
            assert call(device, track, package="com.example.shop", orderId="ORD-1234").return_value == (
                "Leipzig parcel centre, out for delivery")


def test_a_double_method_in_snake_case_is_named_with_the_rename_that_matches(tmp_path, device):
    """A Python habit: ``def freeze_card`` for ``freezeCard``. The function's id is the method's name, so the
    double does not implement freezeCard; the refusal says which method it has and what to call it."""
    double = skeleton(BANK_APK, tmp_path / "double")
    cards = double / "cards.py"
    cards.write_text(cards.read_text().replace("def freezeCard(", "def freeze_card("))
    with pytest.raises(IllegalArgumentException) as raised:
        device.install(BANK_APK, responses=ResponseOptions(double_dir=double))
    assert str(raised.value) == (
        f"INSTALL_FAILED_FUNCTION_MISMATCH: {FREEZE}: the double's com.example.bank.cards.CardFunctions ({double}) "
        "does not implement it; it has freeze_card: name that method freezeCard, as the id after # in the XML is "
        f"(`droidsim responses skeleton {BANK_APK} com.example.bank-skeleton` writes one that matches, to compare with yours)")
