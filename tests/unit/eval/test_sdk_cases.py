"""A suite for an app whose functions differ by SDK runs on either (a case or a call names its SDKs
with ``sdk:``, and a case naming a function the device declares but does not index is skipped,
saying why); an argument name the function does not declare is refused at load, with the closest."""

from __future__ import annotations

import json
import textwrap

import pytest

from sim.eval.run import EvalOptions, run_eval
from sim.eval.suite import SuiteError, load_suite
from tests.helpers import REPO

from .conftest import RUN_DATE, write_suite

APK = REPO / "tests" / "apks" / "shop-signed.apk"
CASSETTE = REPO / "docs" / "examples" / "shop.cassette.yaml"
TRACK = "com.example.shop.TrackingFunctionService#trackParcel"
NOT_INDEXED = (f"com.example.shop declares {TRACK}, but this device does not index it: its service "
               "com.example.shop.TrackingFunctionService is disabled on Android 16 (SDK 36) (android:enabled is "
               "false there; a device of another SDK may index it)")


def _suite(tmp_path, cases: str):
    return load_suite(write_suite(tmp_path, f"suite: shop\napps:\n  - apk: {APK}\n    responses: {CASSETTE}\n"
                                            f"cases:\n{textwrap.indent(textwrap.dedent(cases), '  ')}"))


STATUS = """\
- id: status
  category: simple
  user: How far along is ORD-1234?
  calls:
    - {function: fetchOrderStatus, args: {orderId: ORD-1234}}
"""
PARCEL = """\
- id: parcel
  category: simple
  user: Where is the parcel of order ORD-1234 now?
  calls:
    - function: trackParcel
      args: {orderId: ORD-1234}
"""


def _run(suite, tmp_path, sdk):
    return run_eval(suite, EvalOptions(model="scripted", out=tmp_path / f"out{sdk}", run_date=RUN_DATE, sdk=sdk))


def test_a_case_of_a_function_this_sdk_does_not_index_is_skipped_saying_why(tmp_path):
    suite = _suite(tmp_path, STATUS + PARCEL)
    summary = _run(suite, tmp_path, 36)
    assert summary["skipped"] == {"parcel": f"{NOT_INDEXED} (sdk: on the case or the call says which SDKs it is for)"}
    assert summary["configs"]["base"]["scores"]["overall"]["trials_run"] == 1
    assert "case parcel skipped: com.example.shop declares" in (tmp_path / "out36" / "report.html").read_text()
    on_17 = _run(suite, tmp_path, 37)
    assert on_17["skipped"] == {} and on_17["configs"]["base"]["scores"]["overall"]["passed"] == 2


def test_a_case_and_a_call_name_the_sdks_they_are_for(tmp_path):
    cases = STATUS + PARCEL.replace("- id: parcel\n", "- id: parcel\n  sdk: 37\n") + """\
- id: both
  category: parallel-multiple
  user: Status and parcel of ORD-1234?
  calls:
    - function: fetchOrderStatus
      args: {orderId: ORD-1234}
    - function: trackParcel
      sdk: [37]
      args: {orderId: ORD-1234}
"""
    suite = _suite(tmp_path, cases)
    on_16 = _run(suite, tmp_path, 36)
    assert on_16["skipped"] == {"parcel": "the case is for SDK 37 only (sdk:), and this run's devices are SDK 36"}
    assert on_16["configs"]["base"]["scores"]["overall"]["passed"] == 2  # "both" expects the status alone
    records = [json.loads(line) for line in (tmp_path / "out36" / "results.jsonl").read_text().splitlines()]
    assert [c["function_id"].rsplit("#")[-1] for r in records if r["case_id"] == "both" for t in r["turns"]
            for c in t["calls"]] == ["fetchOrderStatus"]
    on_17 = _run(suite, tmp_path, 37)
    assert on_17["skipped"] == {} and on_17["configs"]["base"]["scores"]["overall"]["passed"] == 3


def test_an_sdk_the_simulator_has_not_is_refused_at_its_line(tmp_path):
    with pytest.raises(SuiteError) as caught:
        _suite(tmp_path, PARCEL.replace("- id: parcel\n", "- id: parcel\n  sdk: 35\n"))
    assert (caught.value.field, caught.value.message) == ("cases[0].sdk", "sdk is one of 36, 37 or a list of them, not 35")


@pytest.mark.parametrize("written, message", [
    ("order_id", "fetchOrderStatus has no parameter 'order_id'; did you mean orderId? (it takes: orderId)"),
    ("orderID", "fetchOrderStatus has no parameter 'orderID'; did you mean orderId? (it takes: orderId)"),
    ("ordr", "fetchOrderStatus has no parameter 'ordr'; did you mean orderId? (it takes: orderId)"),
    ("shipment", "fetchOrderStatus has no parameter 'shipment' (it takes: orderId)"),
])
def test_an_argument_the_function_does_not_declare_is_refused_naming_the_declared_one(tmp_path, written, message):
    suite = _suite(tmp_path, STATUS.replace("args: {orderId:", f"args: {{{written}:"))
    with pytest.raises(SuiteError) as caught:
        run_eval(suite, EvalOptions(model="openai:nobody", base_url="http://127.0.0.1:9/v1", out=tmp_path / "o"))
    assert (caught.value.line, caught.value.field, caught.value.message) == (
        10, f"cases[0].calls[0].args.{written}", message)


def test_a_setup_call_and_a_state_check_are_held_to_the_declared_names_too(tmp_path):
    suite = _suite(tmp_path, STATUS + """\
  state:
    - function: fetchOrderStatus
      args: {order: ORD-1234}
      expect: SHIPPED
""")
    with pytest.raises(SuiteError) as caught:
        run_eval(suite, EvalOptions(model="scripted", out=tmp_path / "o"))
    assert caught.value.field == "cases[0].state[0].args.order"
    assert caught.value.message == "fetchOrderStatus has no parameter 'order'; did you mean orderId? (it takes: orderId)"


def test_a_name_no_app_declares_is_still_refused_with_the_closest(tmp_path):
    with pytest.raises(SuiteError) as caught:
        run_eval(_suite(tmp_path, STATUS.replace("fetchOrderStatus", "fetchOrderStatuss")),
                 EvalOptions(model="scripted", out=tmp_path / "o", sdk=36))
    assert caught.value.message == "no installed app has a function 'fetchOrderStatuss'; did you mean fetchOrderStatus?"
