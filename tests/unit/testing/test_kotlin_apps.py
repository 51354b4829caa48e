"""The fixture on apps whose code does not run: a real APK (tests/apks/bank, the default Jetpack
layout, answered by docs/examples/bank.cassette.yaml; tests/apks/shop, the entry-point layout) and
code-less folders with a double. Every call is typed from the installed metadata, as the shell
types it: no Python class of the app exists."""

from __future__ import annotations

import ast
import dataclasses
import shutil
import subprocess
import sys
from datetime import date

import pytest

from droid.appfunctions import (
    AppFunctionDeniedException,
    AppFunctionDisabledException,
    AppFunctionElementNotFoundException,
    AppFunctionException,
    AppFunctionInvalidArgumentException,
    AppFunctionLimitExceededException,
    AppFunctionNotSupportedException,
    SetField,
)
from sim.pm.install_error import InstallError
from sim.testing import FunctionLookupError, GeneratedAnswerWarning, NoAnswerError, model_call
from tests.helpers import REPO, SAMPLE_APPS

pytest.importorskip("androguard", reason="reading APKs needs androguard (a dependency of droidsim)")

APKS = REPO / "tests" / "apks"
BANK_APK = APKS / "bank-signed.apk"
CASSETTE = REPO / "docs" / "examples" / "bank.cassette.yaml"
BALANCE = "com.example.bank.accounts.AccountFunctions#getBalance"
ASSISTANT = "com.example.assistant"
TODO = REPO / "tests" / "e2e" / "user_project" / "apps" / "todo"


@pytest.fixture
def bank(droid_device):
    return droid_device.install(BANK_APK, responses=CASSETTE)


@pytest.mark.parametrize("function", ["getBalance", BALANCE])
@pytest.mark.parametrize("parameter", ["accountId", "account_id"])
def test_a_function_by_declared_name_or_id_and_parameters_by_declared_name(droid_device, bank, function,
                                                                           parameter) -> None:
    assert droid_device.call(function, **{parameter: "ACC-1"}) == bank.types.Balance(amount=1234.56, currency="EUR")


def test_objects_are_dataclasses_generated_from_the_metadata(droid_device, bank) -> None:
    balance = droid_device.call("getBalance", accountId="ACC-1")
    assert type(balance).__name__ == "Balance" and type(balance) is bank.types.Balance
    assert (balance.amount, balance.currency) == (1234.56, "EUR")
    recent = droid_device.call("listTransactions", accountId="ACC-1", limit=2)
    assert [type(t).__name__ for t in recent.transactions] == ["Transaction", "Transaction"]
    payroll = recent.transactions[1]
    assert payroll == bank.types.Transaction(date="2025-06-10", payee="Lumen Payroll", amount=2500.0)
    assert isinstance(payroll.amount, float)  # recorded as 2500: the XML declares a double
    assert dataclasses.asdict(payroll) == {"date": "2025-06-10", "payee": "Lumen Payroll", "amount": 2500.0}
    assert sorted(vars(bank.types)) == ["Balance", "Transaction", "TransactionList"]
    with pytest.raises(TypeError):  # keyword-only: a build's declared order is not the test's business
        bank.types.Balance(1.0, "EUR")


def test_primitives_and_enums_come_back_as_python_values(droid_device, bank) -> None:
    assert droid_device.call("freezeCard", cardId="CARD-9") == "FROZEN"
    assert droid_device.call("sendPayment", fromAccountId="ACC-1", payee="Alice Martin", amount=42.5,
                             speed="INSTANT") == "PAY-1001"


def test_a_recorded_error_raises_the_jetpack_subclass_of_its_code(droid_device, bank) -> None:
    with pytest.raises(AppFunctionElementNotFoundException) as raised:
        droid_device.call("getBalance", accountId="ACC-404")
    assert (raised.value.error_code, raised.value.error_message) == (1500, "No account ACC-404")
    with pytest.raises(AppFunctionLimitExceededException):
        droid_device.call("sendPayment", fromAccountId="ACC-1", payee="Alice Martin", amount=50000, speed="STANDARD")


def _assert_no_answer(droid_device) -> None:
    with pytest.raises(NoAnswerError) as raised:
        droid_device.call("getBalance", accountId="ACC-3")
    error = raised.value
    assert isinstance(error, AppFunctionNotSupportedException)
    assert error.error_code == AppFunctionException.ERROR_NOT_SUPPORTED
    assert (error.package_name, error.function_id, error.parameters) == ("com.example.bank", BALANCE, {"accountId": "ACC-3"})
    assert str(error).startswith(f'com.example.bank has no answer for {BALANCE} with parameters {{"accountId": "ACC-3"}}: '
                                 "the app's own code does not run on droidsim, and its response source "
                                 "(cassette bank.cassette.yaml; otherwise refused (ERROR_NOT_SUPPORTED)) has none")
    assert [(e.function_identifier, e.result_code) for e in droid_device.history()] == [(BALANCE, 3501)]


def test_a_call_the_cassette_did_not_record_raises_no_answer_error_naming_it(droid_device, bank) -> None:
    _assert_no_answer(droid_device)


@pytest.mark.droid_processes
def test_with_real_processes_the_refusal_is_still_told_apart(droid_device, bank) -> None:
    assert droid_device.process_id("com.example.bank") is None
    _assert_no_answer(droid_device)
    assert droid_device.process_id("com.example.bank") is not None


def test_a_refusal_the_app_answers_itself_is_not_a_missing_answer(droid_device, tmp_path) -> None:
    """The shop APK's skeleton double, unchanged, refuses with ERROR_NOT_SUPPORTED: that is the
    double's answer, not droidsim's want of one."""
    double = tmp_path / "double"
    written = subprocess.run([sys.executable, "-m", "sim.cli", "responses", "skeleton", str(APKS / "shop.apk"),
                              str(double)], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert written.returncode == 0, written.stderr
    droid_device.install(APKS / "shop.apk", double=double)
    with pytest.raises(AppFunctionNotSupportedException) as raised:
        droid_device.call("fetchOrderStatus", orderId="ORD-1234")
    assert not isinstance(raised.value, NoAnswerError)
    assert "fetchOrderStatus" in raised.value.error_message


def test_keys_and_values_the_metadata_does_not_take_are_refused_before_anything_is_sent(droid_device, bank) -> None:
    with pytest.raises(TypeError) as raised:
        droid_device.call("sendPayment", fromAccount="ACC-1", payee="Alice Martin", amount=1.0, speed="INSTANT")
    assert str(raised.value) == (f"'fromAccount' is not a parameter of com.example.bank.payments.PaymentFunctions#sendPayment;"
                                 " did you mean fromAccountId? (its names: fromAccountId, payee, amount, speed)")
    with pytest.raises(AppFunctionInvalidArgumentException, match="Parameter amount: expected a number, got a string"):
        droid_device.call("sendPayment", fromAccountId="ACC-1", payee="Alice Martin", amount="42.50", speed="INSTANT")
    with pytest.raises(AppFunctionInvalidArgumentException, match="Parameter speed must be one of: STANDARD, INSTANT"):
        droid_device.call("sendPayment", fromAccountId="ACC-1", payee="Alice Martin", amount=42.5, speed="FAST")
    with pytest.raises(AppFunctionInvalidArgumentException, match="Parameter accountId is required"):
        droid_device.call("getBalance")
    assert droid_device.history() == []


def test_switching_a_function_off_and_back_to_its_default(droid_device, bank) -> None:
    droid_device.set_enabled("freezeCard", False)
    assert not droid_device.is_enabled("com.example.bank.cards.CardFunctions#freezeCard")
    with pytest.raises(AppFunctionDisabledException):
        droid_device.call("freezeCard", cardId="CARD-9")
    droid_device.set_enabled("freezeCard", None)
    assert droid_device.is_enabled("freezeCard")
    assert droid_device.call("freezeCard", cardId="CARD-9") == "FROZEN"


def test_a_caller_is_held_to_the_access_rules(droid_device, bank) -> None:
    droid_device.install(SAMPLE_APPS / "system" / "assistant", system=True)
    agent = droid_device.caller(ASSISTANT)
    with pytest.raises(AppFunctionDeniedException):
        agent.call("getBalance", accountId="ACC-1")
    droid_device.allowlist_agents(ASSISTANT)
    droid_device.grant_access(ASSISTANT, "com.example.bank")
    assert agent.call("getBalance", accountId="ACC-1").amount == 1234.56
    assert [e.result_code for e in droid_device.history(agent=ASSISTANT)] == [AppFunctionException.ERROR_DENIED, 0]


def test_an_agent_calls_the_apks_functions_and_confirms_a_payment(droid_device, bank) -> None:
    droid_device.install(SAMPLE_APPS / "system" / "assistant", system=True)
    droid_device.pregrant_agent(ASSISTANT)
    run = droid_device.run_agent(ASSISTANT, "Pay Alice 42.50 from ACC-1, instantly", [
        model_call("getBalance", account_id="ACC-1"),
        model_call("sendPayment", fromAccountId="ACC-1", payee="Alice Martin", amount=42.5, speed="INSTANT"),
        "Sent: PAY-1001.",
    ], confirm=[True])
    assert run.function_ids == [BALANCE, "com.example.bank.payments.PaymentFunctions#sendPayment"]
    assert run.calls[0].args == {"accountId": "ACC-1"}
    assert [r.response for r in run.responses] == [{"amount": 1234.56, "currency": "EUR"}, {"result": "PAY-1001"}]
    assert [c.approved for c in run.confirmations] == [True]
    run.assert_called("sendPayment", amount=42.5, speed="INSTANT")
    run.assert_not_called("freezeCard")


def test_the_installed_app_of_an_apk_has_no_python_class(droid_device, bank) -> None:
    assert bank.service_names == ("androidx.appfunctions.service.PlatformAppFunctionService",)
    with pytest.raises(LookupError, match=r"com.example.bank has no Python service class: its code does not run on "
                                          r"droidsim \(a response source answers for it\); call its functions by name "
                                          r"\('getBalance', 'listTransactions', 'sendPayment', 'freezeCard'\)"):
        bank.service


def test_a_stale_cassette_is_refused_at_install_and_nothing_is_installed(droid_device, tmp_path) -> None:
    stale = tmp_path / "stale.cassette.yaml"
    stale.write_text("calls:\n  getBalance:\n    - parameters: {accountId: ACC-1}\n      response: {amount: lots}\n")
    with pytest.raises(InstallError, match=r"INSTALL_FAILED_BAD_RESPONSES: stale.cassette.yaml: getBalance\[0\]"):
        droid_device.install(BANK_APK, responses=stale)
    with pytest.raises(FunctionLookupError):
        droid_device.function("getBalance")
    with pytest.raises(InstallError, match="--on-miss must be one of refuse, schema, not 'guess'"):
        droid_device.install(BANK_APK, on_miss="guess")


def test_on_miss_schema_answers_with_a_generated_value_and_warns(droid_device, bank) -> None:
    droid_device.install(BANK_APK, on_miss="schema")  # the cassette is kept, as by `droidsim install`
    assert droid_device.call("getBalance", accountId="ACC-1").amount == 1234.56
    with pytest.warns(GeneratedAnswerWarning, match=f"{BALANCE}: generated from the schema"):
        generated = droid_device.call("getBalance", accountId="ACC-3")
    assert generated == bank.types.Balance(amount=0.0, currency="")


@pytest.mark.droid_sdk(36)
def test_the_marker_picks_the_sdk_and_an_apk_decodes_for_it(droid_device) -> None:
    assert droid_device.sdk == 36
    shop = droid_device.install(APKS / "shop-signed.apk")
    assert "com.example.shop.TrackingFunctionService#trackParcel" not in shop.function_ids  # @bool/ off before v37


@pytest.mark.droid_sdk(36, 37)
def test_several_sdks_run_the_test_once_on_each(droid_device, droid_sdk, bank, request) -> None:
    assert droid_device.sdk == droid_sdk and request.node.name.endswith(f"[sdk{droid_sdk}]")
    assert droid_device.call("getBalance", accountId="ACC-1").currency == "EUR"


def test_without_a_marker_the_device_is_the_newest(droid_device) -> None:
    assert droid_device.sdk == 37


# -- a code-less folder: the to-do app's Kotlin build, answered by its own Python as a double --------
@pytest.fixture
def todo(droid_device, tmp_path):
    """tests/e2e/user_project's to-do app split as a Kotlin build is: the folder without Python, and
    its Python as the double."""
    app, double = tmp_path / "todo", tmp_path / "double"
    shutil.copytree(TODO, app, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    double.mkdir()
    shutil.copyfile(TODO / "todo.py", double / "todo.py")
    return droid_device.install(app, double=double)


def test_a_double_answers_with_state_and_library_types_are_pythons(droid_device, todo) -> None:
    task = droid_device.call("create_task", title="Taxes", due=date(2026, 4, 15),
                             subtasks=[todo.types.Subtask(title="Find the forms"), {"title": "Fill them in", "done": True}])
    assert type(task) is todo.types.Task and task.due == date(2026, 4, 15)
    assert task.subtasks == [todo.types.Subtask(title="Find the forms", done=False),
                             todo.types.Subtask(title="Fill them in", done=True)]
    renamed = droid_device.call("update_task", taskId=task.taskId, title=SetField("Tax return"), due={"value": None})
    assert (renamed.title, renamed.due) == ("Tax return", None)
    assert [t.taskId for t in droid_device.call("list_tasks", due_before=date(2027, 1, 1))] == []
    assert droid_device.call("delete_task", task_id=task.taskId) is None  # declared Unit
    assert droid_device.call("list_tasks") == []


@pytest.mark.parametrize(("parameters", "message"), [
    ({"due_before": "2026-05-01"},
     "dueBefore must be a datetime.date, for example datetime.date(2025, 6, 14); not str '2026-05-01'"),
    ({"titleContains": 3}, None),
])
def test_a_value_in_another_form_names_the_forms_accepted(droid_device, todo, parameters, message) -> None:
    if message is None:  # a primitive of the wrong type: the shell's refusal
        with pytest.raises(AppFunctionInvalidArgumentException, match="Parameter titleContains: expected a string"):
            droid_device.call("list_tasks", **parameters)
        return
    with pytest.raises(TypeError) as raised:
        droid_device.call("list_tasks", **parameters)
    assert str(raised.value) == message


def test_an_object_in_another_form_names_its_fields(droid_device, todo) -> None:
    with pytest.raises(TypeError) as raised:
        droid_device.call("add_subtask", taskId="task-1", subtask="Send them")
    assert str(raised.value) == "subtask must be a Subtask: Subtask(title=…, done=…) or a dict with those keys; not str 'Send them'"
    with pytest.raises(TypeError) as raised:
        droid_device.call("create_task", title="Taxes", subtasks=[{"titel": "Find the forms"}])
    assert str(raised.value) == ("subtasks[0].titel is not a property of com.example.todo.Subtask; did you mean title? "
                                 "(its names: title, done)")


def test_the_plugins_modules_import_each_other_one_way_only() -> None:
    """Every import counts, a lazy one in a function or one for type checking too."""
    graph = {}
    for path in (REPO / "sim" / "testing").glob("*.py"):
        imported = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sim.testing."):
                imported.add(node.module.rsplit(".", 1)[-1])
            elif isinstance(node, ast.Import):
                imported |= {a.name.rsplit(".", 1)[-1] for a in node.names if a.name.startswith("sim.testing.")}
        graph[path.stem] = imported
    assert "agent" in graph["device"]  # droid_device.run_agent

    def reaches(start: str, goal: str, seen: frozenset = frozenset()) -> bool:
        return any(nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})) for nxt in graph.get(start, ()))

    assert [module for module in graph if reaches(module, module)] == []


@pytest.mark.droid_sdk(36)
def test_a_function_this_sdk_does_not_index_is_said_so_and_an_unknown_one_lists_the_candidates(droid_device) -> None:
    droid_device.install(APKS / "travel-signed.apk")
    with pytest.raises(FunctionLookupError) as raised:
        droid_device.call("checkIn", bookingId="BK-1")
    assert str(raised.value) == (
        "no function 'checkIn' on the device: com.example.travel declares com.example.travel.checkin.CheckInFunctions"
        "#checkIn, but this device does not index it: its service com.example.travel.CheckInService is disabled on "
        "Android 16 (SDK 36) (android:enabled is false there; a device of another SDK may index it) (a test of it is "
        "for SDK 37: @pytest.mark.droid_sdk(37))")
    with pytest.raises(FunctionLookupError) as raised:
        droid_device.call("reserveSeat")
    assert str(raised.value) == (
        "no function 'reserveSeat' on the device (the functions: com.example.travel: getBooking, listBookings, "
        "updateBooking, cancelBooking, listTravellers, searchFlights, bookFlight, getFlightStatus, findHotels)")


def test_a_bare_value_for_a_set_field_names_the_type_as_written_and_its_forms(droid_device) -> None:
    droid_device.install(APKS / "travel-signed.apk")
    with pytest.raises(TypeError) as raised:
        droid_device.call("updateBooking", bookingId="BK-1", mealPreference="VEGETARIAN")
    assert str(raised.value) == ('mealPreference must be a SetField<String?>: SetField(value) or a dict {"value": …}; '
                                 "not str 'VEGETARIAN'")


def test_run_agent_names_the_stock_assistant_an_installed_droidsim_ships(droid_device) -> None:
    from sim.testing import STOCK_ASSISTANT

    with pytest.raises(LookupError, match=r"com.example.assistant is not installed: .* sim.testing.STOCK_ASSISTANT"):
        droid_device.run_agent("com.example.assistant", "Hi", ["Hello."])
    assert (STOCK_ASSISTANT / "AndroidManifest.xml").is_file()
    droid_device.install(STOCK_ASSISTANT, system=True)
    assert droid_device.run_agent("com.example.assistant", "Hi", ["Hello."]).text == "Hello."
