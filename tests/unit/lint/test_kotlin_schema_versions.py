"""An APK whose app schema is older than its function XML (the AAR of one AppFunctions version, the KSP
compiler of a newer one) has elements the schema does not declare: Android 17 skips them, Android 16
refuses the file. Lint's fix for a Kotlin app is the artifacts' versions, not 'declare it in the app
schema', a file the developer never writes (kotlin walk, round 4)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from sim.cli.main import cli
from tests.apks.build import HERE, build_unsigned, missing_tools

pytestmark = pytest.mark.skipif(bool(missing_tools()), reason=f"building an APK needs {', '.join(missing_tools())}")

FIX = ("Give the AppFunctions artifacts one version: the app schema (assets/app_functions_schema.xsd) comes from the "
       "library's AAR (androidx.appfunctions:appfunctions, and appfunctions-service before 1.0.0-alpha10), the "
       "function XML from its KSP compiler (androidx.appfunctions:appfunctions-compiler); a schema older than the "
       "compiler lacks what it writes.")


@pytest.fixture(scope="module")
def findings(tmp_path_factory) -> list[dict]:
    """The bank built with a schema that does not declare <enumValues> (its sendPayment's speed has them)."""
    scratch = tmp_path_factory.mktemp("old-schema")
    source = scratch / "bank"
    shutil.copytree(HERE / "bank", source)
    schema = source / "assets" / "app_functions_schema.xsd"
    schema.write_text("".join(line for line in schema.read_text().splitlines(keepends=True)
                              if 'name="enumValues"' not in line))
    build_unsigned(source, scratch / "bank.apk")
    result = CliRunner().invoke(cli, ["lint", str(scratch / "bank.apk"), "--json"])
    assert result.exit_code == 1, result.output
    return [f for app in json.loads(result.output)["apps"] for f in app["findings"]]


def test_android_16s_refusal_is_an_error_whose_fix_is_the_artifacts_versions(findings):
    errors = [f for f in findings if f["severity"] == "error" and f["rule"] == "I2"]
    assert [(f["rule"], f["fix"]) for f in errors] == [("I2", FIX)]
    assert "<enumValues> is not a property of AppFunctionDataTypeMetadataDocument in the app schema" in errors[0]["message"]


def test_each_element_android_17_skips_has_the_same_fix(findings):
    skipped = [f for f in findings if f["severity"] == "warning" and "Android 17 skips it" in f["message"]]
    assert skipped and {f["fix"] for f in skipped} == {FIX}
    assert {f["file"].rsplit("!/", 1)[-1] for f in skipped} == {"assets/app_functions_v2.xml"}
