"""The suite file: what the shipped suite covers, and bad suites refused with file, line and field."""

from __future__ import annotations

import textwrap
from collections import Counter

import pytest

from sim.eval.devices import DeviceSpec, apps_to_install
from sim.eval.suite import CATEGORIES, SuiteError, load_suite

from .conftest import write_suite

GOOD_CASE = """\
suite: t
cases:
  - id: one
    category: simple
    user: Where is ORD-8492?
    calls:
      - function: fetch_order_details
        args: {orderId: ORD-8492}
"""


def test_the_shipped_suite_covers_every_category_app_and_language(shipped):
    assert len(shipped.cases) >= 80
    assert set(Counter(c.category for c in shipped.cases)) == set(CATEGORIES)
    assert {c.language for c in shipped.cases if c.category == "non-English"} >= {"th", "zh", "fr"}
    assert sum(1 for c in shipped.cases if c.state) >= 20
    named = {f.split("#")[-1] for c in shipped.cases for f in c.functions()}
    packages = {app.package() for app in apps_to_install(DeviceSpec(shipped.app_sources(), shipped.agent))}
    assert packages == {"com.example.orders", "com.example.notes", "com.example.smarthome",
                        "com.example.booking", "com.example.weather"}
    for function in ("fetch_order_details", "cancel_order", "create_note", "get_note", "update_note",
                     "list_lights", "set_light_power", "dim_light", "search_tables", "book_table",
                     "cancel_booking", "get_current_weather"):
        assert function in named


def _error(tmp_path, text: str) -> SuiteError:
    with pytest.raises(SuiteError) as caught:
        load_suite(write_suite(tmp_path, textwrap.dedent(text)))
    return caught.value


@pytest.mark.parametrize("replace, line, field, message", [
    ("category: simple", 4, "cases[0].category", "unknown category 'simpel'"),
    ("    calls:", 6, "cases[0].colls", "unknown field"),
    ("args: {orderId: ORD-8492}", 8, "cases[0].calls[0].args", "bad regex"),
    ("args: {orderId: ORD-8492}", 8, "cases[0].calls[0].args", "does not match"),
    ("    user: Where is ORD-8492?", 3, "cases[0]", "not both"),
])
def test_a_malformed_case_names_file_line_and_field(tmp_path, replace, line, field, message):
    broken = {
        "unknown category 'simpel'": GOOD_CASE.replace("category: simple", "category: simpel"),
        "unknown field": GOOD_CASE.replace("    calls:", "    colls:"),
        "bad regex": GOOD_CASE.replace("args: {orderId: ORD-8492}", 'args: {orderId: {regex: "ORD-(", example: x}}'),
        "does not match": GOOD_CASE.replace("args: {orderId: ORD-8492}",
                                            'args: {orderId: {regex: "ORD-\\\\d+", example: ORD-X}}'),
        "not both": GOOD_CASE.replace("    user: Where is ORD-8492?\n",
                                      "    user: Where is ORD-8492?\n    turns: [{user: hi, abstain: true}]\n"),
    }[message]
    error = _error(tmp_path, broken)
    assert error.file.endswith("suite.yaml") and error.line == line and error.field == field
    assert message in error.message
    assert str(error).startswith(f"{tmp_path / 'suite.yaml'}:{line}: {field}: ")


def test_yaml_syntax_errors_and_duplicates_give_the_line(tmp_path):
    assert _error(tmp_path, GOOD_CASE + "  - id: [unclosed\n").line == 9
    duplicate = GOOD_CASE + GOOD_CASE.split("cases:\n")[1]
    error = _error(tmp_path, duplicate)
    assert "two cases have the id 'one'" in error.message


def test_a_turn_expects_one_thing_and_a_case_checks_something(tmp_path):
    error = _error(tmp_path, GOOD_CASE.replace("    calls:", "    abstain: true\n    calls:"))
    assert "not abstain and" in error.message or "calls and abstain" in error.message
    error = _error(tmp_path, "suite: t\ncases:\n  - id: x\n    category: simple\n    user: hi\n")
    assert error.message.startswith("the case checks nothing")
    error = _error(tmp_path, GOOD_CASE.replace("category: simple", "category: non-English"))
    assert "names its language" in error.message


def test_times_and_answers_stay_as_written(tmp_path):
    suite = load_suite(write_suite(tmp_path, GOOD_CASE.replace(
        "args: {orderId: ORD-8492}", 'args: {orderId: ORD-8492}\n        confirmation: required\n        answer: no')))
    call = suite.cases[0].turns[0].calls[0]
    assert call.answer == "no" and not call.approves
    suite = load_suite(write_suite(tmp_path, GOOD_CASE.replace("orderId: ORD-8492", "orderId: 19:00")))
    assert suite.cases[0].turns[0].calls[0].args["orderId"].spec == "19:00"


@pytest.mark.parametrize("name, read", [
    ("getAccountBalance", True), ("fetch_order_details", True), ("ListLights", True), ("lookUpOrder", True),
    ("com.example.bank.accounts.AccountFunctions#listTransactions", True), ("searchTables", True),
    ("sendPayment", False), ("cancel_order", False), ("freezeCard", False), ("checkoutCart", False),
    ("getaway_booking", False), ("setLightPower", False),
])
def test_a_read_is_told_by_the_first_word_of_its_name_in_camel_or_snake_case(name, read):
    from sim.eval.suite import is_read

    assert is_read(name) is read


def test_camel_case_reads_need_no_state_check_and_writes_still_do(tmp_path):
    suite = load_suite(write_suite(tmp_path, """\
suite: t
cases:
  - id: balance
    category: simple
    user: What is my balance?
    calls: [{function: getAccountBalance, args: {accountId: ACC-1}}]
  - id: pay
    category: simple
    user: Pay Alice 5
    calls: [{function: sendPayment, args: {payee: Alice}}]
"""))
    assert suite.warnings() == [f"{suite.path}:7: case pay: it expects sendPayment, which changes the device, but "
                                "has no state check (add state: to read what changed)"]

