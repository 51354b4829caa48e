"""Lint speaks Kotlin to Kotlin inputs: an APK or a code-less folder has no Python code, and its
function XML is what KSP wrote from the KDoc, so every fix names the KDoc, the annotation or the
manifest, never a docstring or an element only droidsim reads; and every rule can be cleared
from Kotlin, by what the description says or by a suppressions file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from droid.agent.confirmation import DestructivePolicy, says_destructive
from droid.agent.tools import AgentTool
from sim.cli.main import cli

REPO = Path(__file__).resolve().parents[3]
APKS = REPO / "tests" / "apks"
CORPUS = REPO / "tests" / "unit" / "lint" / "corpus"
CODELESS = sorted(p for p in CORPUS.iterdir() if p.is_dir() and not any(p.rglob("*.py")))
SEND_PAYMENT = "com.example.bank.payments.PaymentFunctions#sendPayment"
# What a Kotlin developer cannot write: Python idioms, droidsim's own XML extension, droidsim's compiler.
NOT_KOTLIN = ("docstring", "droidsim:isDestructive", "@app_function", "SetField[", "| None", "appfunctions generate",
              "<description>", "Args:", "Returns:", "(book_table, update_settings)")


def lint(*args: str) -> tuple[int, list[dict]]:
    result = CliRunner().invoke(cli, ["lint", *args, "--json"])
    return result.exit_code, [f for app in json.loads(result.output)["apps"] for f in app["findings"]]


@pytest.mark.parametrize("target", [APKS / "bank.apk", APKS / "shop.apk", *CODELESS], ids=lambda p: p.name)
def test_no_fix_on_a_kotlin_input_speaks_python_or_droidsims_xml(target):
    _, findings = lint(str(target))
    for finding in findings:
        assert not [word for word in NOT_KOTLIN if word in finding["fix"]], (finding["rule"], finding["fix"])
        if finding["rule"] in ("F1", "F2", "F3", "F4", "F6") and finding["function_id"]:
            assert "KDoc" in finding["fix"], finding


def test_the_destructive_fix_names_the_kotlin_function_and_the_words_agents_act_on():
    _, findings = lint(str(APKS / "bank.apk"))
    (d1,) = [f for f in findings if f["rule"] == "D1"]
    assert d1["function_id"] == SEND_PAYMENT
    assert "the KDoc of sendPayment in PaymentFunctions" in d1["fix"]
    assert "This cannot be undone." in d1["fix"] and "`droidsim lint --suppressions` reads" in d1["fix"]


def test_a_description_that_says_it_cannot_be_undone_clears_d1_and_makes_agents_ask(tmp_path):
    app = tmp_path / "notes"
    shutil.copytree(CORPUS / "d1_unmarked_destructive", app)
    functions = next((app / "assets").glob("*.xml"))
    functions.write_text(functions.read_text().replace("Deletes a note permanently.",
                                                       "Deletes a note. This cannot be undone."))
    assert [f["rule"] for f in lint(str(app))[1]].count("D1") == 0
    assert says_destructive("Deletes a note. This cannot be undone.")
    assert not says_destructive("Deletes a note permanently.")


def test_the_runtime_asks_before_a_function_whose_description_says_so():
    policy = DestructivePolicy(verbs=())
    assert policy(AgentTool(name="archive_note", description="Archives a note; this is irreversible."))
    assert not policy(AgentTool(name="archive_note", description="Archives a note; the archive gives it back."))


@pytest.fixture
def suppressions(tmp_path):
    def write(*entries: str) -> str:
        path = tmp_path / "droidsim-lint.xml"
        path.write_text("<?xml version='1.0' encoding='utf-8'?>\n<lint>\n" + "\n".join(entries) + "\n</lint>\n")
        return str(path)

    return write


def test_a_suppressions_file_silences_an_apks_finding_with_its_reason(suppressions):
    file = suppressions('    <suppress rule="D1" function="sendPayment" reason="the app asks for the PIN first"/>')
    code, findings = lint(str(APKS / "bank.apk"), "--suppressions", file, "--show-suppressed")
    (d1,) = [f for f in findings if f["rule"] == "D1"]
    assert (code, d1["suppressed"], d1["reason"]) == (0, True, "the app asks for the PIN first")


@pytest.mark.parametrize(("entry", "silenced"), [
    ('<suppress rule="D1" function="com.example.bank.payments.PaymentFunctions#sendPayment" reason="r"/>', True),
    ('<suppress rule="D1,P3" package="com.example.bank" reason="r"/>', True),
    ('<suppress rule="D1" package="com.example.shop" reason="r"/>', False),
    ('<suppress rule="D1" function="freezeCard" reason="r"/>', False),
    ('<suppress rule="P3" reason="r"/>', False),
])
def test_a_suppression_covers_its_rule_package_and_function_only(suppressions, entry, silenced):
    code, findings = lint(str(APKS / "bank.apk"), "--suppressions", suppressions(entry), "--show-suppressed")
    assert (code == 0) == silenced
    assert [f["suppressed"] for f in findings if f["rule"] == "D1"] == [silenced]


@pytest.mark.parametrize(("entry", "message"), [
    ('<suppress rule="D1" reason=" "/>', "droidsim-lint.xml:3: <suppress> gives no reason: say why the rule does not apply"),
    ('<suppress rule="D9" reason="r"/>', "droidsim-lint.xml:3: <suppress> names unknown rule D9"),
    ('<suppress reason="r"/>', "droidsim-lint.xml:3: <suppress> names no rule"),
    ('<suppress rule="D1" reason="r" functon="x"/>', "droidsim-lint.xml:3: <suppress> has no attribute functon"),
    ('<ignore rule="D1" reason="r"/>', "droidsim-lint.xml:3: <ignore> is not <suppress"),
])
def test_a_suppressions_file_that_could_silence_nothing_is_refused_naming_the_line(suppressions, entry, message):
    result = CliRunner().invoke(cli, ["lint", str(APKS / "bank.apk"), "--suppressions", suppressions(entry)])
    assert result.exit_code == 2
    assert message in result.output and "(nothing was linted)" in result.output


MULTI_SERVICES = REPO / "tests" / "conformance" / "apps" / "multi_services"


@pytest.mark.parametrize("kotlin", [True, False], ids=["kotlin", "python"])
def test_a_v1_file_named_by_resource_is_i2_with_the_fix_in_the_developers_terms(tmp_path, kotlin):
    """Android 16 indexes nothing of a v1 file named by android:resource without an app schema
    (AppSearch 16-qpr2 AppsUtil.java:342-377); lint says what to change, in Gradle or droidsim terms."""
    app = tmp_path / "app"
    shutil.copytree(MULTI_SERVICES, app, ignore=shutil.ignore_patterns("__pycache__", *(["*.py"] if kotlin else [])))
    (app / "res" / "xml").mkdir(parents=True)
    (app / "assets" / "appfunctions2.xml").rename(app / "res" / "xml" / "functions.xml")
    manifest = app / "AndroidManifest.xml"
    manifest.write_text(manifest.read_text().replace('android:value="appfunctions2.xml"', 'android:resource="@xml/functions"'))
    _, findings = lint(str(app))
    [finding] = [f for f in findings if f["rule"] == "I2" and "android:resource" in f["message"]]
    assert "Android 16 reads a resource against the package's app schema" in finding["message"]
    if kotlin:
        assert finding["fix"].startswith("Move the file to src/main/assets/ and name it with android:value=")
    else:
        assert "droidsim appfunctions generate writes assets/<xml_file_name>.xml" in finding["fix"]


def test_an_undescribed_parameter_names_the_annotation_of_its_layout(tmp_path):
    """KSP reads a function's KDoc with @AppFunction(isDescribedByKDoc = true) on a class the
    library's service serves, and with @AppFunctionDeclaration(isDescribedByKDoc = true) in an
    @AppFunctionServiceEntryPoint class (androidx AppFunctionDeclaration.kt)."""
    from sim.pm.apk_tools import extracted

    with extracted(APKS / "travel-signed.apk", 37) as (folder, _decoded):
        app = shutil.copytree(folder, tmp_path / "travel")
    for xml in ("app_functions_v2.xml", "check_in_functions.xml"):
        path = app / "assets" / xml
        path.write_text(path.read_text().replace("<description>The booking id, for example BK-1042.</description>", ""))
    _, findings = lint(str(app))
    fixes = {f["function_id"].rsplit("#", 1)[-1]: f["fix"] for f in findings if f["rule"] == "F6"}
    assert fixes["checkIn"].endswith("`@param bookingId` in the KDoc of checkIn in CheckInFunctions, with "
                                     "@AppFunctionDeclaration(isDescribedByKDoc = true).")
    assert fixes["getBooking"].endswith("`@param bookingId` in the KDoc of getBooking in BookingFunctions, with "
                                        "@AppFunction(isDescribedByKDoc = true).")
