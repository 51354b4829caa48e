"""A suite's apps: APKs and code-less folders with their cassettes and doubles, installed on the
in-process devices as `droidsim install` installs them; --variant with another build's APK; runs
whose failures are calls nothing answers, said to be so."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest

from sim.eval.devices import DeviceSetupError
from sim.eval.run import EvalOptions, run_eval
from sim.eval.suite import SuiteError, load_suite
from tests.helpers import REPO

from .conftest import RUN_DATE, write_suite

EXAMPLES = REPO / "docs" / "examples"
APKS = REPO / "tests" / "apks"
SHOP_CASES = """\
cases:
  - id: order-status
    category: simple
    user: What is the status of order ORD-1234?
    calls:
      - function: fetchOrderStatus
        args: {orderId: ORD-1234}
  - id: cancel
    category: simple
    user: Cancel order ORD-1234
    calls:
      - function: cancelOrder
        args: {orderId: ORD-1234}
"""


def _overall(summary: dict, config: str = "base") -> dict:
    return summary["configs"][config]["scores"]["overall"]


def _calls(out: Path) -> dict[str, list[dict]]:
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    return {r["case_id"]: [c for t in r["turns"] for c in t["calls"]] for r in records}


def _shop_suite(tmp_path: Path, app: str) -> Path:
    return write_suite(tmp_path, f"suite: shop\napps:\n{textwrap.indent(app, '  ')}\n{SHOP_CASES}")


def test_the_shop_apk_answers_from_its_cassette_and_scores_what_docs_kotlin_says(tmp_path):
    summary = run_eval(load_suite(EXAMPLES / "shop.eval.yaml"), EvalOptions(out=tmp_path, run_date=RUN_DATE))
    assert (_overall(summary)["passed"], _overall(summary)["trials_run"]) == (2, 3)
    assert summary["configs"]["base"]["scores"]["failed"] == ["where-is-my-parcel"]
    assert "The offline model passes two of its three cases" in (REPO / "docs" / "kotlin.md").read_text()
    calls = _calls(tmp_path)
    assert calls["order-status"][0]["response"] == {"result": "SHIPPED"}  # the cassette's answer
    assert calls["cancel"][0]["response"] == {"result": False}
    assert summary["configs"]["base"]["unanswered"] == {"failed": 1, "unanswered": 0, "functions": {},
                                                        "dominated": False}


def test_the_bank_apk_in_the_library_layout_answers_from_its_cassette(tmp_path):
    suite = load_suite(EXAMPLES / "bank.eval.yaml")
    assert suite.warnings() == [  # getBalance and listTransactions are reads, camelCase or not
        f"{suite.path}:{line}: case {case}: it expects {function}, which changes the device, but has no state "
        "check (add state: to read what changed)"
        for line, case, function in ((46, "pay-alice", "sendPayment"), (54, "pay-bob-declined", "sendPayment"),
                                     (63, "freeze-card", "freezeCard"))]
    offline = run_eval(suite, EvalOptions(out=tmp_path / "offline", run_date=RUN_DATE))
    assert (_overall(offline)["passed"], _overall(offline)["trials_run"]) == (7, 10)
    assert offline["configs"]["base"]["scores"]["failed"] == ["pay-alice", "pay-bob-declined", "solde"]
    assert "the offline model passes seven of its ten cases" in (REPO / "docs" / "kotlin.md").read_text()
    assert _calls(tmp_path / "offline")["balance"][0]["response"] == {"amount": 1234.56, "currency": "EUR"}
    for model, expected in (("scripted", 1.0), ("wrong", 0.0)):
        summary = run_eval(suite, EvalOptions(model=model, out=tmp_path / model, run_date=RUN_DATE))
        assert _overall(summary)["pass@1"] == expected


def test_an_apk_without_its_cassette_is_said_to_measure_the_missing_answers(tmp_path):
    suite = load_suite(_shop_suite(tmp_path, f"- apk: {APKS / 'shop-signed.apk'}"))
    summary = run_eval(suite, EvalOptions(out=tmp_path / "o", run_date=RUN_DATE, variant=APKS / "shop.apk"))
    assert _overall(summary)["passed"] == 0
    expected = {"failed": 2, "unanswered": 2, "dominated": True,
                "functions": {"com.example.shop.OrderFunctionService#cancelOrder": 1,
                              "com.example.shop.OrderFunctionService#fetchOrderStatus": 1}}
    assert summary["configs"]["base"]["unanswered"] == summary["configs"]["variant"]["unanswered"] == expected
    assert summary["variant"]["pass@1_delta"]["overall"] == 0.0
    assert summary["variant"]["warning"] == (
        "the --variant difference is not a measure of the descriptions: most failures of the base and the variant "
        "are calls refused for want of an answer, which fail whatever the agent or the descriptions do")


def test_a_variant_apk_is_another_build_answering_from_the_same_cassette(tmp_path):
    build = pytest.importorskip("tests.apks.build")
    if missing := build.missing_tools():
        pytest.skip(f"building an APK needs {', '.join(missing)} (Debian: aapt, zipalign, apksigner, "
                    "android-framework-res)")
    source = shutil.copytree(APKS / "bank", tmp_path / "bank")
    for name in ("app_functions.xml", "app_functions_v2.xml"):  # a KDoc that speaks the user's words
        xml = source / "assets" / name
        xml.write_text(xml.read_text().replace("Gets the current balance of one of the user's bank accounts.",
                                               "Gets the current balance (le solde) of a bank account (un compte)."))
    variant = tmp_path / "bank-v2.apk"  # unsigned: it replaces the signed base, it does not update it
    build.build_unsigned(source, variant)
    suite = load_suite(EXAMPLES / "bank.eval.yaml")
    summary = run_eval(suite, EvalOptions(out=tmp_path / "o", run_date=RUN_DATE, variant=variant,
                                          cases=["balance", "solde", "pay-alice"]))
    assert summary["variant"]["newly_passing"] == ["solde"] and summary["variant"]["newly_failing"] == []
    assert summary["variant"]["warning"] is None
    records = [json.loads(line) for line in (tmp_path / "o" / "results.jsonl").read_text().splitlines()]
    solde = next(r for r in records if r["config"] == "variant" and r["case_id"] == "solde")
    assert solde["turns"][0]["calls"][0]["response"] == {"amount": 1234.56, "currency": "EUR"}


def test_a_code_less_folder_with_a_double_keeps_state_within_a_case_and_starts_afresh_in_the_next(tmp_path):
    suite = write_suite(tmp_path, f"""\
suite: orders-double
apps:
  - folder: {EXAMPLES / 'kotlin-orders'}
    double: {EXAMPLES / 'orders-double'}
cases:
  - id: a-cancel
    category: destructive-confirmation
    user: Cancel order ORD-7310
    calls:
      - function: cancel_order
        args: {{orderId: ORD-7310}}
        confirmation: required
    state:
      - function: fetch_order_details
        args: {{orderId: ORD-7310}}
        expect: {{status: CANCELLED}}
  - id: b-still-processing
    category: simple
    user: Where is my order ORD-7310?
    calls:
      - function: fetch_order_details
        args: {{orderId: ORD-7310}}
    state:
      - function: fetch_order_details
        args: {{orderId: ORD-7310}}
        expect: {{status: PROCESSING}}
""")
    for options in ({}, {"workers": 2}):
        summary = run_eval(load_suite(suite), EvalOptions(model="scripted", out=tmp_path / str(options),
                                                          run_date=RUN_DATE, **options))
        assert _overall(summary)["pass@1"] == 1.0, summary["configs"]["base"]["scores"]["failed"]
    wrong = run_eval(load_suite(suite), EvalOptions(model="wrong", out=tmp_path / "wrong", run_date=RUN_DATE))
    assert _overall(wrong)["pass@1"] == 0.0


def test_workers_give_an_apk_suite_the_scores_of_one_process(tmp_path):
    suite = load_suite(EXAMPLES / "bank.eval.yaml")
    local = run_eval(suite, EvalOptions(out=tmp_path / "l", run_date=RUN_DATE))
    workers = run_eval(suite, EvalOptions(out=tmp_path / "w", run_date=RUN_DATE, workers=2))
    assert workers["configs"]["base"]["scores"] == local["configs"]["base"]["scores"]


def _suite_error(tmp_path: Path, apps: str) -> str:
    with pytest.raises(SuiteError) as caught:
        load_suite(_shop_suite(tmp_path, apps))
    return str(caught.value)


@pytest.mark.parametrize("apps, line, field, message", [
    ("- apk: missing.apk", 3, "apps[0].apk", "missing.apk: no such file or folder"),
    (f"- apk: {APKS / 'shop'}", 3, "apps[0].apk", "is a folder, not a file (an app folder is folder: DIR)"),
    (f"- folder: {APKS / 'shop.apk'}", 3, "apps[0].folder", "is a file, not a folder (an APK is apk: FILE)"),
    (f"- apk: {APKS / 'shop.apk'}\n  responses: nothing.yaml", 4, "apps[0].responses",
     "nothing.yaml: no such file or folder"),
    (f"- apk: {APKS / 'shop.apk'}\n  double: {EXAMPLES / 'shop.cassette.yaml'}", 4, "apps[0].double",
     "is a file, not a folder"),
    (f"- apk: {APKS / 'shop.apk'}\n  on_miss: invent", 4, "apps[0].on_miss", "'refuse' or 'schema'"),
    (f"- apk: {APKS / 'shop.apk'}\n  folder: {APKS / 'shop'}", 3, "apps[0]",
     "an apps entry names one app: apk: FILE or folder: DIR"),
    (f"- responses: {EXAMPLES / 'shop.cassette.yaml'}", 3, "apps[0]", "an apps entry names one app"),
    (f"- apk: {APKS / 'shop.apk'}\n  cassette: x.yaml", 4, "apps[0].cassette", "unknown field"),
    (f"- folder: {REPO / 'apps'}\n  responses: {EXAMPLES / 'shop.cassette.yaml'}", 3, "apps[0]",
     "apps holds 5 app folders, and a response source answers for one app: give that app an entry of its own"),
    (f"- folder: {REPO / 'docs'}", 3, "apps[0].folder", "is not an app folder (it has no AndroidManifest.xml)"),
])
def test_a_bad_apps_entry_names_file_line_and_field(tmp_path, apps, line, field, message):
    error = _suite_error(tmp_path, apps)
    assert error.startswith(f"{tmp_path / 'suite.yaml'}:{line}: {field}: "), error
    assert message in error


def test_the_first_form_of_apps_is_checked_at_its_line_too(tmp_path):
    with pytest.raises(SuiteError, match=r"suite.yaml:2: apps: nowhere: no such file or folder"):
        load_suite(write_suite(tmp_path, f"suite: t\napps: nowhere\n{SHOP_CASES}"))


def test_the_apps_fragment_of_docs_eval_md_is_a_valid_entry_list_beside_docs_examples():
    from tests.docs.blocks import read_blocks

    fragment = next(b for b in read_blocks(REPO / "docs" / "eval.md") if b.source.startswith("apps:\n"))
    suite = load_suite_text(fragment.source + SHOP_CASES, EXAMPLES / "fragment.eval.yaml")
    assert [Path(a.path).name for a in suite.app_sources()] == ["bank-signed.apk", "kotlin-orders", "apps"]


def load_suite_text(text: str, path: Path):
    """A suite as if it were the file ``path`` (which is not written): its paths resolve beside it."""
    import yaml

    from sim.eval.suite import Suite

    suite = Suite.model_validate({"suite": "fragment", **yaml.safe_load(text)}).model_copy(update={"path": path})
    suite.app_sources()
    return suite


def test_an_app_that_does_not_install_stops_the_run_naming_its_entry(tmp_path):
    cassette = tmp_path / "stale.cassette.yaml"
    cassette.write_text("calls:\n  fetchOrderStatus:\n    - parameters: {orderRef: ORD-1}\n      response: SHIPPED\n")
    suite = load_suite(_shop_suite(tmp_path, f"- apk: {APKS / 'shop-signed.apk'}\n  responses: {cassette}"))
    with pytest.raises(DeviceSetupError) as caught:
        run_eval(suite, EvalOptions(out=tmp_path / "o", run_date=RUN_DATE))
    assert str(caught.value).startswith(f"{suite.path}:3: apps[0]: cannot install {APKS / 'shop-signed.apk'}: ")
    assert "INSTALL_FAILED_BAD_RESPONSES: stale.cassette.yaml: fetchOrderStatus[0].parameters" in str(caught.value)


def test_two_entries_of_one_package_and_a_variant_of_another_are_refused(tmp_path):
    twice = load_suite(_shop_suite(tmp_path, f"- apk: {APKS / 'shop-signed.apk'}\n"
                                             f"- folder: {EXAMPLES / 'kotlin-shop'}"))
    with pytest.raises(DeviceSetupError, match=r"suite.yaml:4: apps\[1\]: .*/kotlin-shop/shop is com.example.shop, "
                                               r"as .*/shop-signed.apk is: give each app once"):
        run_eval(twice, EvalOptions(out=tmp_path / "o", run_date=RUN_DATE))
    once = load_suite(_shop_suite(tmp_path, f"- apk: {APKS / 'shop-signed.apk'}"))
    with pytest.raises(DeviceSetupError, match=r"the variant .*/bank.apk is com.example.bank, which none of the "
                                               r"suite's apps is \(com.example.shop\)"):
        run_eval(once, EvalOptions(out=tmp_path / "o2", run_date=RUN_DATE, variant=APKS / "bank.apk"))


def test_the_command_says_loudly_that_a_run_measures_missing_answers(tmp_path):
    from tests.helpers import droidsim

    suite = _shop_suite(tmp_path, f"- apk: {APKS / 'shop-signed.apk'}")
    for output in ((), ("--json",)):
        result = droidsim("eval", str(suite), "--out", str(tmp_path / "o"), *output, timeout=240)
        assert result.returncode == 0, result.stderr
        assert ("warning: base: 2 of 2 failed trial(s) met calls refused for want of an answer (ERROR_NOT_SUPPORTED, "
                "nothing recorded for com.example.shop.OrderFunctionService#cancelOrder, "
                "com.example.shop.OrderFunctionService#fetchOrderStatus): this run measures the missing answers, not "
                "the agent.") in " ".join(result.stderr.split())
    answered = droidsim("eval", str(EXAMPLES / "shop.eval.yaml"), "--out", str(tmp_path / "a"), timeout=240)
    assert answered.returncode == 0 and "refused for want of an answer" not in answered.stderr


def test_the_apps_docs_kotlin_md_shows_are_those_of_its_example_suite():
    from tests.docs.blocks import read_blocks

    fragment = next(b for b in read_blocks(REPO / "docs" / "kotlin.md") if b.source.startswith("apps:\n"))
    assert fragment.source in (EXAMPLES / "shop.eval.yaml").read_text()


def test_the_report_opens_with_the_warning(tmp_path):
    suite = load_suite(_shop_suite(tmp_path, f"- apk: {APKS / 'shop-signed.apk'}"))
    run_eval(suite, EvalOptions(out=tmp_path / "o", run_date=RUN_DATE))
    page = (tmp_path / "o" / "report.html").read_text()
    assert page.index("<strong>Warning: base: 2 of 2 failed trial(s) met calls refused for want of an answer") \
        < page.index("<h2>Accuracy per category</h2>")


def test_sdk_36_devices_index_what_android_16_indexes_of_the_apk(tmp_path):
    """The shop's tracking service is enabled from values-v37 only: on Android 16 there is no
    trackParcel, so its case is skipped there, saying why (tests/unit/eval/test_sdk_cases.py).
    The bank's services are on from values-v36."""
    shop = run_eval(load_suite(EXAMPLES / "shop.eval.yaml"), EvalOptions(out=tmp_path / "shop", sdk=36))
    assert list(shop["skipped"]) == ["where-is-my-parcel"] and _overall(shop)["trials_run"] == 2
    bank = run_eval(load_suite(EXAMPLES / "bank.eval.yaml"), EvalOptions(out=tmp_path / "bank", sdk=36,
                                                                         run_date=RUN_DATE, cases=["balance"]))
    assert _overall(bank)["passed"] == 1
    assert json.loads((tmp_path / "bank" / "run.json").read_text())["sdk"] == 36


def test_on_miss_schema_answers_what_nothing_recorded_with_a_generated_value(tmp_path):
    suite = load_suite(_shop_suite(tmp_path, f"- apk: {APKS / 'shop-signed.apk'}\n  on_miss: schema"))
    summary = run_eval(suite, EvalOptions(out=tmp_path / "o", run_date=RUN_DATE, cases=["order-status"]))
    assert _calls(tmp_path / "o")["order-status"][0]["response"] == {"result": ""}  # the plainest string
    assert summary["configs"]["base"]["unanswered"]["unanswered"] == 0


def test_a_device_spec_is_plain_data_that_lists_every_file_it_is_made_from(tmp_path):
    import pickle

    from sim.eval.bundle import spec_files
    from sim.eval.devices import SYSTEM_APPS, DeviceSpec

    entries = (f"- folder: {EXAMPLES / 'kotlin-orders'}\n  double: {EXAMPLES / 'orders-double'}\n"
               f"- apk: {APKS / 'shop-signed.apk'}\n  responses: {EXAMPLES / 'shop.cassette.yaml'}")
    suite = load_suite(_shop_suite(tmp_path, entries))
    spec = DeviceSpec(suite.app_sources(), suite.agent, variant=str(APKS / "shop.apk"))
    # What a job run elsewhere needs beside the spec, found by the one walk Ray's bundle makes.
    assert spec_files(spec) == sorted([str(SYSTEM_APPS), str(EXAMPLES / "kotlin-orders"), str(EXAMPLES / "orders-double"),
                                       str(APKS / "shop-signed.apk"), str(EXAMPLES / "shop.cassette.yaml"),
                                       str(APKS / "shop.apk")])
    assert pickle.loads(pickle.dumps(spec)) == spec and hash(spec.key())


def test_only_refusals_for_want_of_an_answer_count_not_an_app_s_own_not_supported():
    from sim.eval.unanswered import unanswered, warning

    refusal = ("com.example.bank has no answer for com.example.bank.cards.CardFunctions#freezeCard with parameters "
               '{"cardId": "CARD-1"}: the app\'s own code does not run on droidsim')
    own = {"error": {"code_name": "ERROR_NOT_SUPPORTED", "message": "Virtual cards cannot be frozen"}}
    rows = [
        {"passed": False, "turns": [{"calls": [{"response": own}]}], "state_failures": []},  # the app's own answer
        {"passed": False, "turns": [{"calls": []}],
         "state_failures": [f"state freezeCard {{}}: failed with ERROR_NOT_SUPPORTED: {refusal}"]},
        {"passed": False, "turns": [], "infra_error": {"kind": "crash", "detail": "x"}},  # no verdict: not counted
        {"passed": True, "turns": []},
    ]
    found = unanswered(rows)
    assert found == {"failed": 2, "unanswered": 1, "dominated": True,
                     "functions": {"com.example.bank.cards.CardFunctions#freezeCard": 1}}
    assert warning("base", found).startswith("base: 1 of 2 failed trial(s) met calls refused for want of an answer")
    assert unanswered(rows[:1])["dominated"] is False and warning("base", unanswered(rows[:1])) is None
