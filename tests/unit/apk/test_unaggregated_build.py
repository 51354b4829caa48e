"""A Gradle build whose app module does not aggregate the KSP compiler's output keeps the library's
PlatformAppFunctionService (merged from the AAR, naming app_functions.xml and app_functions_v2.xml) and
has none of those files. Every tool that opens the APK says so with the option that writes them, at
the APK's own entry (the skeleton named its temporary folder: kotlin walk, round 4)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from sim.cli.main import cli
from tests.apks.build import HERE, build_unsigned, missing_tools

pytestmark = pytest.mark.skipif(bool(missing_tools()), reason=f"building an APK needs {', '.join(missing_tools())}")

REFUSAL = (
    "INSTALL_PARSE_FAILED_BAD_FUNCTION_XML: bank.apk!/AndroidManifest.xml: service "
    "androidx.appfunctions.service.PlatformAppFunctionService names assets/app_functions_v2.xml, which does not "
    "exist: the AppFunctions library's service reads the function XML its KSP compiler writes into the APK's "
    'assets when the app module aggregates it: ksp { arg("appfunctions:aggregateAppFunctions", "true") }, with '
    'ksp("androidx.appfunctions:appfunctions-compiler:VERSION") in that module')


@pytest.fixture(scope="module")
def apk(tmp_path_factory) -> Path:
    """The bank without the files KSP aggregates: the library's manifest entries and schema stay."""
    scratch = tmp_path_factory.mktemp("unaggregated")
    source = scratch / "bank"
    shutil.copytree(HERE / "bank", source)
    for name in ("app_functions.xml", "app_functions_v2.xml"):
        (source / "assets" / name).unlink()
    build_unsigned(source, scratch / "bank.apk")
    return scratch / "bank.apk"


def test_inspect_says_install_would_refuse_it_and_names_the_ksp_option(apk):
    result = CliRunner().invoke(cli, ["apk", "inspect", str(apk)])
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == f"Install would refuse it: {REFUSAL}"


def test_lint_cannot_read_it_and_says_the_same(apk):
    result = CliRunner().invoke(cli, ["lint", str(apk)])
    assert result.exit_code == 2
    assert f"  cannot lint: {REFUSAL.split(': ', 1)[1]}" in result.output.splitlines()


def test_the_skeleton_names_the_apks_entry_not_its_temporary_folder(apk, tmp_path):
    result = CliRunner().invoke(cli, ["responses", "skeleton", str(apk), str(tmp_path / "double")])
    assert result.exit_code == 1
    assert result.output == f"Error: {REFUSAL}\n"
    assert not (tmp_path / "double").exists()
